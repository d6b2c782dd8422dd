"""Apply Alembic migrations from code: the app, the CLI and the tests use this."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app.config import ROOT


def alembic_config(database_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)
