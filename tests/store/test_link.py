"""The hot path's statements on the driver's cursor (app.store.link) store and read the
same values as SQLAlchemy does, on SQLite and on PostgreSQL."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert, select

from app import service
from app.store import Conflict, Database, StorageError, queries
from app.store.link import Link, Statements
from app.store.models import GameRecord, MoveRecord

MOMENT = datetime(2026, 11, 30, 23, 59, 58, 123456, tzinfo=UTC)


def _game(db: Database) -> str:
    player = service.ensure_player(db=db, player_id=None)
    return service.start(db=db, player_id=player, kind="montana", deal=7, now=MOMENT).id


def test_a_row_read_on_the_link_is_the_record_sqlalchemy_reads(db: Database) -> None:
    game_id = _game(db)
    with db.look() as link:
        row = queries.game_row(link, game_id)
    with db.read() as session:
        record = session.get(GameRecord, game_id)
    assert record is not None and row is not None
    for column in GameRecord.__table__.columns:
        assert getattr(row, column.key) == getattr(record, column.key), column.key
        assert type(getattr(row, column.key)) is type(getattr(record, column.key)), column.key
    assert row.created_at == MOMENT and row.created_at.tzinfo is not None
    assert row.resigned is False


def test_values_written_on_the_link_read_back_the_same_through_sqlalchemy(db: Database) -> None:
    game_id = _game(db)
    later = MOMENT + timedelta(days=1, microseconds=7)

    def work(link: Link) -> bool:
        changed = queries.claim_version(
            link, game_id, 0, {"version": 1, "resigned": True, "last_action_at": later}
        )
        queries.append_moves(
            link,
            [{"game_id": game_id, "ply": 1, "kind": "resign", "notation": "resign",
              "created_at": later, "before": None, "below": None}],
        )  # fmt: skip
        return changed

    assert db.transact(work) is True
    stale = db.transact(lambda link: queries.claim_version(link, game_id, 0, {"version": 2}))
    assert stale is False
    with db.read() as session:
        record = session.get(GameRecord, game_id)
        move = session.scalars(select(MoveRecord).where(MoveRecord.game_id == game_id)).one()
    assert record is not None
    assert (record.version, record.resigned, record.last_action_at) == (1, True, later)
    assert (move.ply, move.kind, move.created_at, move.before) == (1, "resign", later, None)
    with db.look() as link:
        assert [tuple(row) for row in queries.moves(link, game_id)] == [("resign", "resign")]


def test_a_ply_stored_twice_is_a_conflict_and_stores_nothing(db: Database) -> None:
    game_id = _game(db)
    row = {"game_id": game_id, "ply": 1, "kind": "move", "notation": "x",
           "created_at": MOMENT, "before": None, "below": None}  # fmt: skip
    db.transact(lambda link: queries.append_moves(link, [row]))
    with pytest.raises(Conflict):
        db.transact(lambda link: queries.append_moves(link, [{**row, "notation": "y"}]))
    with db.look() as link:
        assert [r.notation for r in queries.moves(link, game_id)] == ["x"]


def test_a_broken_connection_is_let_go_of() -> None:
    """The driver's error on a closed connection: a StorageError, and the connection that
    held it is invalidated (the pool opens a fresh one)."""
    database = Database("sqlite://")
    driver = sqlite3.connect(":memory:")
    driver.close()

    class Holder:
        invalidated = False

        def invalidate(self) -> None:
            self.invalidated = True

    holder = Holder()
    link = Link(driver, holder, Statements(database.engine.dialect))
    with pytest.raises(StorageError):
        link.one(queries.GAME_ROW, {"game_id": "x"})
    assert holder.invalidated
    plain = Holder()
    with pytest.raises(StorageError):  # a bad statement: the connection stays
        Link(sqlite3.connect(":memory:"), plain, Statements(database.engine.dialect)).insert(
            insert(GameRecord.__table__), [{"id": "x"}]
        )
    assert not plain.invalidated
