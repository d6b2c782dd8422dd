"""The records' queries, display names and watch links on both databases (SQLite, then
PostgreSQL): what the indexes and the unique name hold."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event, insert, inspect, update

from app import service
from app.service import deals, names, shares
from app.store import Conflict, Database
from app.store.models import GameRecord, PlayerRecord
from app.store.queries import PLAYERS


def won(db: Database, game_id: str, moves: int, play_ms: int, hints: int = 0) -> None:
    with db.write() as session:
        session.execute(
            update(GameRecord)
            .where(GameRecord.id == game_id)
            .values(
                status="won",
                moves_count=moves,
                play_ms=play_ms,
                hints_used=hints,
                finished_at=service.utcnow(),
            )
        )


def test_the_database_refuses_two_names_that_differ_only_in_case(db: Database) -> None:
    now = service.utcnow()
    with db.write() as session:
        session.execute(insert(PLAYERS), [{"id": "a", "created_at": now, "auto_moves": True}])
        session.execute(insert(PLAYERS), [{"id": "b", "created_at": now, "auto_moves": True}])
    names.set_name(db=db, player_id="a", text="Zoë")
    with pytest.raises(Conflict), db.write() as session:  # behind the service's own check
        session.execute(
            update(PlayerRecord)
            .where(PlayerRecord.id == "b")
            .values(name="ZOË", name_key=names.key("ZOË"))
        )
    with pytest.raises(names.NameRefused):
        names.set_name(db=db, player_id="b", text="zoë")
    assert names.name(db=db, player_id="a") == "Zoë"
    assert names.name(db=db, player_id="b") is None
    names.set_name(db=db, player_id="a", text="")
    names.set_name(db=db, player_id="b", text="zoë")  # free again
    assert names.name(db=db, player_id="b") == "zoë"


def test_records_rank_unassisted_wins_first(db: Database) -> None:
    player = service.ensure_player(db=db, player_id=None)
    names.set_name(db=db, player_id=player, text="Ada")
    games = [service.start(db=db, player_id=player, kind="freecell", deal=7) for _ in range(5)]
    won(db, games[0].id, 90, 50_000)
    won(db, games[1].id, 70, 90_000, hints=1)
    won(db, games[2].id, 95, 40_000)
    won(db, games[3].id, 90, 45_000)
    found = deals.deal_records(db=db, kind="freecell", variant=None, deal=7)
    assert (found.played, found.won) == (5, 4)
    assert [(w.moves, w.play_ms) for w in found.by_moves] == [
        (90, 45_000),
        (90, 50_000),
        (95, 40_000),
        (70, 90_000),
    ]
    assert [w.play_ms for w in found.by_time] == [40_000, 45_000, 50_000, 90_000]
    assert [w.hints for w in found.by_time] == [0, 0, 0, 1]
    assert {w.name for w in found.by_moves} == {"Ada"}


def test_daily_games_their_tables_and_the_streak(db: Database) -> None:
    player = service.ensure_player(db=db, player_id=None)
    now = service.utcnow()
    today = deals.today(now)
    game = deals.start_daily(db=db, player_id=player, kind="freecell", variant=None, now=now)
    assert game.deal == deals.proofs.daily_deal("freecell", "standard", today)
    won(db, game.id, 80, 100_000)
    earlier = deals.start_daily(db=db, player_id=player, kind="freecell", variant=None, now=now)
    won(db, earlier.id, 85, 100_000)
    with db.write() as session:
        session.execute(
            update(GameRecord)
            .where(GameRecord.id == earlier.id)
            .values(
                daily_on=today - timedelta(days=1),
                deal=deals.proofs.daily_deal("freecell", "standard", today - timedelta(days=1)),
            )
        )
    daily = deals.daily(db=db, player_id=player, now=now)
    table = next(t for t in daily.tables if t.kind == "freecell")
    assert (table.played, table.won, [w.moves for w in table.wins]) == (1, 1, [80])
    yesterday = next(t for t in daily.yesterday if t.kind == "freecell")
    assert (yesterday.played, yesterday.won) == (1, 1)
    assert daily.streak == 2
    assert [g.id for g in daily.mine] == [game.id]


def test_a_watch_link_is_its_own_token_and_revoked_for_good(db: Database) -> None:
    player = service.ensure_player(db=db, player_id=None)
    game = service.start(db=db, player_id=player, kind="montana", deal=4)
    assert shares.link(db=db, game_id=game.id) is None
    token = shares.share(db=db, game_id=game.id)
    assert token != game.id
    assert shares.watched(db=db, token=token).id == game.id
    assert shares.revoke(db=db, game_id=game.id) == 1
    with pytest.raises(shares.WatchNotFound):
        shares.watched(db=db, token=token)
    assert shares.link(db=db, game_id=game.id) is None


def test_the_records_read_their_indexes(db: Database) -> None:
    indexes = {index["name"] for index in inspect(db.engine).get_indexes("games")}
    assert {
        "ix_games_deal",
        "ix_games_deal_wins",
        "ix_games_deal_fastest",
        "ix_games_daily",
        "ix_games_daily_wins",
        "ix_games_player_daily",
    } <= indexes
    if not db.is_sqlite:
        return
    player = service.ensure_player(db=db, player_id=None)
    game = deals.start_daily(db=db, player_id=player, kind="freecell", variant=None)
    won(db, game.id, 80, 100_000)
    statements: list[tuple[str, object]] = []

    def seen(_conn: object, _cursor: object, sql: str, parameters: object, *_: object) -> None:
        statements.append((sql, parameters))

    event.listen(db.engine, "before_cursor_execute", seen)
    deals.deal_records(db=db, kind="freecell", variant=None, deal=game.deal)
    deals.daily(db=db, player_id=player)
    event.remove(db.engine, "before_cursor_execute", seen)
    plans = {}
    with db.engine.connect() as connection:
        for sql, parameters in statements:
            plan = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, parameters).all()
            plans[sql] = " ".join(str(row) for row in plan)
    assert plans
    for sql, plan in plans.items():
        assert "SCAN games" not in plan, (sql, plan)  # every one searches an index
    joined = " ".join(plans.values())
    for index in ("ix_games_deal ", "ix_games_deal_wins", "ix_games_deal_fastest"):
        assert index in joined + " ", index


def test_the_daily_tables_count_in_one_statement_a_day(db: Database) -> None:
    # One table per game and variant, each day: counted together, not one statement each.
    player = service.ensure_player(db=db, player_id=None)
    for kind in ("freecell", "montana"):
        game = deals.start_daily(db=db, player_id=player, kind=kind, variant=None)
        won(db, game.id, 80, 100_000)
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, sql: str, *_: object) -> None:
        statements.append(sql)

    event.listen(db.engine, "before_cursor_execute", seen)
    daily = deals.daily(db=db, player_id=None)
    event.remove(db.engine, "before_cursor_execute", seen)
    counted = [sql for sql in statements if "count(" in sql.lower()]
    assert len(counted) == 2  # today's and yesterday's
    won_today = [t for t in daily.tables if t.won]
    assert {(t.kind, t.played, t.won) for t in won_today} == {("freecell", 1, 1), ("montana", 1, 1)}
    selects = [sql for sql in statements if sql.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 2 + 2 * len(won_today)  # and each won table's wins, then assisted
