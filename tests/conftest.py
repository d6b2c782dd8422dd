"""Shared fixtures: a migrated SQLite database per test, the app, and an HTTP client."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.config import Settings
from app.store import Database
from app.store.migrate import upgrade
from app.web import create_app


@pytest.fixture(scope="session")
def migrated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database migrated to head by Alembic; each test gets a copy."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture
def database_url(migrated_file: Path, tmp_path: Path) -> str:
    path = tmp_path / "solitaire.db"
    shutil.copy(migrated_file, path)
    return f"sqlite:///{path}"


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def app(db: Database, database_url: str) -> FastAPI:
    return create_app(Settings(database_url=database_url, secret_key="test-secret"), db)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client
