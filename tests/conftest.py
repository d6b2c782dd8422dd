"""Shared fixtures: a migrated SQLite database per test, the app, and an HTTP client."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from app.config import Settings
from app.store import Database
from app.store.migrate import upgrade
from app.web import create_app
from app.web.templating import KeepExtension
from tests.postgres import PostgresServer, binaries
from tests.redis import RedisServer
from tests.redis import binary as redis_binary

KeepExtension.verify = True
"""Every ``{% keep %}`` part the tests render is drawn again and compared: a missing key
(two states of a page under one key) fails the test that draws the second one."""

settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
"""No property test has a clock: a loaded machine runs an example as slowly as it must."""

SKIPPED_LANES: list[str] = []
FAST: dict[str, object] = {
    **{
        f"rate_limit_{cost}{who}": "100000/second"
        for cost in ("", "search_", "new_game_", "replay_", "write_", "new_player_")
        for who in ("player", "address")
    },
    "rate_limit_refusal_delay": 0.0,
}
"""Tests play far faster than people: the rate limits have tests of their own (a refusal's
wait among them, tests/web/test_security.py)."""
SEARCHES = {
    "solver_answer_ms": 60_000,
    "solver_hint_wait": 30.0,
    "solver_solution_wait": 60.0,
    "solver_par_wait": 60.0,
}
"""A verdict's search gets a minute, and a hint or a solution waits for its search: a
loaded test machine still answers what it should (the page's "still thinking" has tests of
its own; "Still winnable?"'s one-second wait is unchanged)."""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for lane in SKIPPED_LANES:
        terminalreporter.write_line(
            f"WARNING: a test lane was SKIPPED: {lane}", red=True, bold=True
        )


@pytest.fixture(scope="session")
def migrated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database migrated to head by Alembic; each test gets a copy."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer | None]:
    """The session's PostgreSQL server, or None (and a loud skip) when none can run."""
    bin_dir = binaries()
    if bin_dir is None:
        SKIPPED_LANES.append("PostgreSQL: no pg_ctl found (make test installs postgresql)")
        yield None
        return
    server = PostgresServer(bin_dir)
    try:
        server.start()
    except Exception as error:  # the lane is skipped, loudly, if the server cannot start
        SKIPPED_LANES.append(f"PostgreSQL: the server did not start: {error}")
        server.stop()
        yield None
        return
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str | None]:
    """A shared rate-limit store (Redis or Valkey) for the session, or None (loudly)."""
    path = redis_binary()
    if path is None:
        SKIPPED_LANES.append("shared rate limits: no redis-server (make test installs it)")
        yield None
        return
    server = RedisServer(path)
    try:
        server.start()
    except Exception as error:  # the lane is skipped, loudly, if the server cannot start
        SKIPPED_LANES.append(f"shared rate limits: redis-server did not start: {error}")
        server.stop()
        yield None
        return
    yield server.url
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(
    request: pytest.FixtureRequest, migrated_file: Path, tmp_path: Path
) -> Iterator[str]:
    """A migrated database for one test: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        path = tmp_path / "solitaire.db"
        shutil.copy(migrated_file, path)
        yield f"sqlite:///{path}"
        return
    server = request.getfixturevalue("postgres")
    if server is None:
        pytest.skip("PostgreSQL lane skipped: " + "; ".join(SKIPPED_LANES))
    with server.database() as url:
        yield url


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def app(db: Database, database_url: str) -> FastAPI:
    # The test client's own address: the site's links are built from the host it serves.
    settings = Settings(
        database_url=database_url,
        secret_key="test-secret",
        host="testserver",
        port=80,
        **FAST,
        **SEARCHES,
    )
    return create_app(settings, db)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client
