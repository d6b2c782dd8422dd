"""The store recovers by itself when a storage fault ends: connections broken by it are
dropped and opened again (no restart needed)."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from app import service
from app.store import Database, StorageError


def test_writes_recover_after_the_database_was_read_only(
    migrated_file: Path, tmp_path: Path
) -> None:
    path = tmp_path / "solitaire.db"
    shutil.copy(migrated_file, path)
    db = Database(f"sqlite:///{path}")
    player = service.ensure_player(db=db, player_id=None)
    read_only = False

    @event.listens_for(db.engine, "do_connect")
    def connect(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> Any:
        # While the fault lasts, a new connection opens the file read-only, as SQLite does
        # when it may not write the file (chmod 444); the connection stays read-only after.
        if read_only:
            return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        return None

    read_only = True
    db.engine.pool.dispose()  # every connection from now on is opened during the fault
    for _ in range(3):
        with pytest.raises(StorageError):
            service.start(db=db, player_id=player, kind="montana")
        assert service.my_games(db=db, player_id=player).total == 0  # reads still work
    read_only = False
    began = time.monotonic()
    failures = 0
    while True:
        try:
            service.start(db=db, player_id=player, kind="montana")
            break
        except StorageError:
            failures += 1
            assert failures < 3, "writes stay broken after the fault ended"
    assert time.monotonic() - began < 5
    assert service.my_games(db=db, player_id=player).total == 1
    db.dispose()


def test_moves_recover_after_the_database_was_read_only(
    migrated_file: Path, tmp_path: Path
) -> None:
    """The same for a move, whose statements run on the driver's cursor (app.store.link)."""
    path = tmp_path / "solitaire.db"
    shutil.copy(migrated_file, path)
    db = Database(f"sqlite:///{path}")
    player = service.ensure_player(db=db, player_id=None)
    game = service.start(db=db, player_id=player, kind="montana", deal=1)
    move = game.position.legal_moves()[0].notation
    read_only = False

    @event.listens_for(db.engine, "do_connect")
    def connect(_dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> Any:
        if read_only:
            return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        return None

    read_only = True
    db.engine.pool.dispose()
    for _ in range(3):
        with pytest.raises(StorageError):
            service.act(db=db, game_id=game.id, action=move, version=0, player_id=player)
        assert service.load(db=db, game_id=game.id).version == 0  # reads still work
    read_only = False
    failures = 0
    while True:
        try:
            service.act(db=db, game_id=game.id, action=move, version=0, player_id=player)
            break
        except StorageError:
            failures += 1
            assert failures < 3, "moves stay broken after the fault ended"
    assert service.load(db=db, game_id=game.id).version == 1
    db.dispose()
