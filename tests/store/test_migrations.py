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
    from app import games
    from app.store import Database

    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0001")
    db = Database(url)
    player = games.ensure_player(db=db, player_id=None)
    ids = []
    for deal in (1, 2, 3):
        game = games.start(db=db, player_id=player, kind="montana", deal=deal)
        games.act(db=db, game_id=game.id, action="redeal", version=0)
        ids.append(game.id)
    games.act(db=db, game_id=ids[0], action="resign", version=1)
    before = [games.load(db=db, game_id=game_id) for game_id in ids]
    db.dispose()

    upgrade(url)
    db = Database(url)
    after = [games.load(db=db, game_id=game_id) for game_id in ids]
    assert after == before
    assert games.verify(db=db) == (3, [])
    db.dispose()
