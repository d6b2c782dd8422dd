"""The test session's PostgreSQL databases: one a test used is used again only once it is
back to the template's rows (tests/postgres.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, insert, text

from app.service.model import utcnow
from app.store.ids import new_player_id
from app.store.models import PlayerRecord
from tests.postgres import TEMPLATE, PostgresServer


@pytest.fixture
def server(postgres: PostgresServer | None) -> PostgresServer:
    if postgres is None:
        pytest.skip("PostgreSQL lane skipped")
    return postgres


def test_a_database_used_again_holds_the_templates_rows_alone(server: PostgresServer) -> None:
    template = create_engine(server.url(TEMPLATE))
    with template.connect() as connection:
        first = {
            sequence: connection.execute(
                text(
                    "SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END"
                    f" FROM {sequence}"
                )
            ).scalar()
            for sequence in ("moves_id_seq", "rating_periods_id_seq")
        }  # what the next number of each is in a new copy
    template.dispose()
    with server.database() as url:
        engine = create_engine(url)
        with engine.begin() as connection:
            connection.execute(text("SELECT nextval('moves_id_seq')"))
            connection.execute(text("SELECT nextval('rating_periods_id_seq')"))
            connection.execute(insert(PlayerRecord).values(id=new_player_id(), created_at=utcnow()))
        engine.dispose()
    name = url.rsplit("/", 1)[1]
    assert name in server.free
    with server.database() as again:
        assert again == url  # the same database, emptied
        engine = create_engine(again)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM players")).scalar() == 0
            assert connection.execute(text("SELECT count(*) FROM game_kinds")).scalar() == 2
            for sequence in ("moves_id_seq", "rating_periods_id_seq"):
                got = connection.execute(text(f"SELECT nextval('{sequence}')")).scalar()
                assert got == first[sequence]
        engine.dispose()


def test_a_database_whose_kept_rows_changed_is_dropped(server: PostgresServer) -> None:
    with server.database() as url:
        engine = create_engine(url)
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO game_kinds (kind) VALUES ('klondike')"))
        engine.dispose()
    name = url.rsplit("/", 1)[1]
    assert name not in server.free
    admin = create_engine(server.url("postgres"))
    with admin.connect() as connection:
        found = connection.execute(
            text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}
        )
        assert found.first() is None
    admin.dispose()
