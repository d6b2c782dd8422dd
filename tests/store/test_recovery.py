"""The store recovers by itself when a storage fault ends: connections broken by it are
dropped and opened again (no restart needed)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from app import service
from app.store import Database, StorageError


class Fault:
    """While on, a new connection opens the file read-only, as SQLite does when it may not
    write the file (chmod 444); the connection stays read-only after."""

    def __init__(self, migrated_file: Path, tmp_path: Path) -> None:
        path = tmp_path / "solitaire.db"
        shutil.copy(migrated_file, path)
        self.db = Database(f"sqlite:///{path}")
        self.player = service.ensure_player(db=self.db, player_id=None)
        self.on = False

        @event.listens_for(self.db.engine, "do_connect")
        def connect(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> Any:
            if self.on:
                return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            return None

    def begin(self) -> None:
        self.on = True
        self.db.engine.pool.dispose()  # every connection from now on is opened during it


def recovers(write: Callable[[], object]) -> None:
    """``write`` succeeds again within three tries once the fault has ended."""
    for _ in range(3):
        try:
            write()
            return
        except StorageError:
            pass
    raise AssertionError("writes stay broken after the fault ended")


def test_writes_recover_after_the_database_was_read_only(
    migrated_file: Path, tmp_path: Path
) -> None:
    fault = Fault(migrated_file, tmp_path)
    db, player = fault.db, fault.player
    fault.begin()
    for _ in range(3):
        with pytest.raises(StorageError):
            service.start(db=db, player_id=player, kind="montana")
        assert service.my_games(db=db, player_id=player).total == 0  # reads still work
    fault.on = False
    recovers(lambda: service.start(db=db, player_id=player, kind="montana"))  # within 3 tries
    assert service.my_games(db=db, player_id=player).total == 1
    db.dispose()


def test_moves_recover_after_the_database_was_read_only(
    migrated_file: Path, tmp_path: Path
) -> None:
    """The same for a move, whose statements run on the driver's cursor (app.store.link)."""
    fault = Fault(migrated_file, tmp_path)
    db, player = fault.db, fault.player
    game = service.start(db=db, player_id=player, kind="montana", deal=1)
    move = game.position.legal_moves()[0].notation
    fault.begin()
    for _ in range(3):
        with pytest.raises(StorageError):
            service.act(db=db, game_id=game.id, action=move, version=0, player_id=player)
        assert service.load(db=db, game_id=game.id).version == 0  # reads still work
    fault.on = False
    recovers(lambda: service.act(db=db, game_id=game.id, action=move, version=0, player_id=player))
    assert service.load(db=db, game_id=game.id).version == 1
    db.dispose()
