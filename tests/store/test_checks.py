"""The database refuses a game of a kind no migration brought (``game_kinds``), or of no
known status."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import get_args

import pytest
from sqlalchemy import Engine, create_engine, event, func, insert, select, text
from sqlalchemy.exc import IntegrityError

from app.games import GAMES
from app.store import Conflict, Database
from app.store.models import GAME_STATUSES, GameRecord, GameStatus, PlayerRecord


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """A plain engine on the migrated database: its errors are SQLAlchemy's own."""
    engine = create_engine(database_url)
    if engine.dialect.name == "sqlite":  # as the store's own engine does
        event.listen(engine, "connect", lambda raw, _: raw.execute("PRAGMA foreign_keys=ON"))
    with engine.begin() as connection:
        connection.execute(insert(PlayerRecord).values(id="p", created_at=datetime.now(UTC)))
    yield engine
    engine.dispose()


def _game(number: int, kind: str, status: str) -> dict[str, object]:
    now = datetime.now(UTC)
    return {
        "id": f"g{number}",
        "player_id": "p",
        "kind": kind,
        "variant": "any",
        "deal": 1,
        "status": status,
        "version": 0,
        "position": "",
        "score": None,
        "cards_left": 52,
        "moves_count": 0,
        "play_ms": 0,
        "created_at": now,
        "last_action_at": now,
        "finished_at": None if status == "playing" else now,
    }


def test_the_statuses_are_the_literal_type_s() -> None:
    assert get_args(GameStatus) == GAME_STATUSES


def test_every_kind_of_the_registry_in_every_status_is_stored(engine: Engine) -> None:
    """A game added to the registry without a migration inserting its kind fails here."""
    rows = [
        _game(number, kind, status)
        for number, (kind, status) in enumerate(
            (kind, status) for kind in GAMES for status in GAME_STATUSES
        )
    ]
    with engine.begin() as connection:
        connection.execute(insert(GameRecord), rows)
    with engine.connect() as connection:
        stored = connection.execute(select(GameRecord.kind, GameRecord.status)).all()
    assert sorted(stored) == sorted((row["kind"], row["status"]) for row in rows)


UNKNOWN_KIND = "FOREIGN KEY|fk_games_kind_game_kinds"
"""SQLite names no foreign key in its error; PostgreSQL does."""


def test_a_new_kind_is_one_row_of_game_kinds(engine: Engine) -> None:
    """What a new game's migration does: insert its kind; the games table stays as it is."""
    with pytest.raises(IntegrityError, match=UNKNOWN_KIND), engine.begin() as connection:
        connection.execute(insert(GameRecord).values(**_game(1, "klondike", "playing")))
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO game_kinds (kind) VALUES ('klondike')"))
        connection.execute(insert(GameRecord).values(**_game(1, "klondike", "playing")))
    with engine.connect() as connection:
        assert set(connection.scalars(text("SELECT kind FROM game_kinds"))) >= set(GAMES)


@pytest.mark.parametrize(
    ("kind", "status", "constraint"),
    [
        ("chess", "playing", UNKNOWN_KIND),
        ("", "playing", UNKNOWN_KIND),
        ("Montana", "playing", UNKNOWN_KIND),
        (None, "won", UNKNOWN_KIND),
        ("montana", "drawn", "ck_games_status"),
        ("freecell", "", "ck_games_status"),
        ("freecell", "WON", "ck_games_status"),
    ],
)
def test_an_unknown_kind_or_status_is_refused(
    engine: Engine, kind: str | None, status: str, constraint: str
) -> None:
    if kind is None:  # a kind no game has yet, next to one that is fine
        kind = "x" + next(iter(GAMES))
    with pytest.raises(IntegrityError, match=constraint), engine.begin() as connection:
        connection.execute(insert(GameRecord).values(**_game(1, kind, status)))
    with engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(GameRecord)) == 0


def test_the_store_reports_a_refused_game_as_a_conflict(db: Database) -> None:
    with db.write() as session:
        session.add(PlayerRecord(id="p", created_at=datetime.now(UTC)))
    with pytest.raises(Conflict, match="ck_games_status"), db.write() as session:
        session.add(GameRecord(**_game(1, next(iter(GAMES)), "drawn")))
