"""Alembic environment wired to the application's settings and metadata."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from alembic import context
from alembic.runtime.migration import MigrationContext, MigrationInfo
from sqlalchemy import Connection, text

from app.config import get_settings
from app.store import Database
from app.store.models import Base

config = context.config
target_metadata = Base.metadata


def database_url() -> str:
    return config.attributes.get("database_url") or get_settings().database_url


def run_migrations_offline() -> None:
    context.configure(
        url=database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _sqlite_foreign_keys(connection: Connection, on: bool) -> None:
    """Set SQLite's ``foreign_keys`` pragma; only outside a transaction does it take effect."""
    connection.connection.dbapi_connection.execute(  # type: ignore[union-attr]
        f"PRAGMA foreign_keys={'ON' if on else 'OFF'}"
    )


def _check_foreign_keys(
    ctx: MigrationContext,
    step: MigrationInfo,
    heads: Collection[Any],
    run_args: Mapping[str, Any],
) -> None:
    """After each migration, before its commit: every reference still finds its row."""
    assert ctx.connection is not None
    broken = ctx.connection.execute(text("PRAGMA foreign_key_check")).all()
    if broken:
        raise RuntimeError(f"rows refer to rows that are not there (table, row, parent): {broken}")


def run_migrations_online() -> None:
    database = Database(database_url())
    try:
        with database.engine.connect() as connection:
            # Batch mode rebuilds a SQLite table: it drops the old one, and with foreign keys
            # on that drop deletes the rows referring to it (ON DELETE CASCADE: every move of
            # every game). So they are off while migrating, and checked by each migration.
            if database.is_sqlite:
                _sqlite_foreign_keys(connection, on=False)
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=True,
                on_version_apply=_check_foreign_keys if database.is_sqlite else None,
            )
            with context.begin_transaction():
                context.run_migrations()
            if database.is_sqlite:
                _sqlite_foreign_keys(connection, on=True)
    finally:
        database.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
