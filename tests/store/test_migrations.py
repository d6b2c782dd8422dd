"""Migrations make the schema; the models match it."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from app.store.migrate import upgrade
from app.store.models import Base


def test_migrations_upgrade_an_empty_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    upgrade(url)
    tables = set(inspect(create_engine(url)).get_table_names())
    assert {"players", "games", "moves", "alembic_version"} <= tables


def test_models_match_the_migrated_schema(database_url: str) -> None:
    engine = create_engine(database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


def test_upgrading_twice_is_harmless(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'twice.db'}"
    upgrade(url)
    upgrade(url)


def test_upgrading_a_database_with_games_loses_none(tmp_path: Path) -> None:
    """Games written under the first schema (as the first release wrote them) survive."""
    from sqlalchemy import text

    from app import service as games
    from app.games.montana import rules as montana
    from app.store import Database

    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0001")
    engine = create_engine(url)
    now = "2026-11-01 12:00:00.000000"
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO players (id, created_at, auto_moves) VALUES ('p', :now, 1)"),
            {"now": now},
        )
        for deal in (1, 2, 3):
            position = montana.new_game(deal).redeal()
            connection.execute(
                text(
                    "INSERT INTO games (id, player_id, kind, variant, deal, status, resigned,"
                    " version, position, score, cards_left, moves_count, play_ms, created_at,"
                    " last_action_at, finished_at) VALUES (:id, 'p', 'montana', 'expert', :deal,"
                    " 'playing', 0, 1, :position, :score, :left, 1, 1000, :now, :now, NULL)"
                ),
                {
                    "id": f"game{deal}",
                    "deal": deal,
                    "position": position.to_text(),
                    "score": position.score,
                    "left": position.cards_left,
                    "now": now,
                },
            )
            connection.execute(
                text(
                    "INSERT INTO moves (game_id, ply, kind, notation, created_at)"
                    " VALUES (:id, 1, 'redeal', 'redeal', :now)"
                ),
                {"id": f"game{deal}", "now": now},
            )
    engine.dispose()

    upgrade(url)
    db = Database(url)
    try:
        loaded = [games.load(db=db, game_id=f"game{deal}") for deal in (1, 2, 3)]
        assert [game.position for game in loaded] == [
            montana.new_game(deal).redeal() for deal in (1, 2, 3)
        ]
        assert all(game.hints_used == 0 for game in loaded)
        assert games.verify(db=db) == (3, [])
        # And they play on under the new schema.
        games.act(db=db, game_id="game1", action="undo", version=1)
    finally:
        db.dispose()
