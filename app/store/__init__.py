"""Storage: the database connection and its transactions.

The web layer uses :class:`Database` only to open sessions; rows and queries stay behind
the service (:mod:`app.games`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["Conflict", "Database", "Session", "StorageError"]


class StorageError(Exception):
    """The database could not do its part (disk full, read-only, I/O error, gone away).

    The transaction was rolled back: nothing of the request was stored.
    """


class Conflict(Exception):
    """A write broke a uniqueness rule: another request got there first."""


SQLITE_BUSY_TIMEOUT_MS = 10_000


class Database:
    """One engine and two kinds of session: reads, and writes that take the lock first.

    On SQLite every connection runs in WAL mode with ``synchronous=FULL`` and a busy
    timeout, and a write transaction starts with ``BEGIN IMMEDIATE``, so writers queue for
    the lock up front instead of failing half way with "database is locked".
    """

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        if self.is_sqlite and self.url.database not in (None, "", ":memory:"):
            Path(self.url.database).parent.mkdir(parents=True, exist_ok=True)
        # Pre-ping: a connection the database dropped is replaced before use, not failed on.
        self.engine: Engine = create_engine(self.url, pool_pre_ping=True)
        if self.is_sqlite:
            _configure_sqlite(self.engine)
        _drop_broken_connections(self.engine)
        writer = self.engine.execution_options(immediate=True)
        self._reads = sessionmaker(self.engine, expire_on_commit=False)
        self._writes = sessionmaker(writer, expire_on_commit=False)

    @contextmanager
    def read(self) -> Iterator[Session]:
        with _storage_errors(), self._reads() as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A transaction that commits when the block ends and rolls back on any error."""
        with _storage_errors(), self._writes() as session, session.begin():
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


@contextmanager
def _storage_errors() -> Iterator[None]:
    """Database failures as the store's own errors, for the layers above."""
    try:
        yield
    except IntegrityError as error:
        raise Conflict(str(error.orig)) from error
    except DBAPIError as error:
        raise StorageError(str(error.orig)) from error


BROKEN_CONNECTION: Final = (
    "readonly database",  # opened while the file was read-only: SQLite stays read-only
    "disk i/o error",
    "unable to open database file",
    "database disk image is malformed",
)
"""SQLite errors after which a connection is not trusted again: it is closed, and every
pooled connection with it, so the site recovers by itself once the fault has ended."""


def _drop_broken_connections(engine: Engine) -> None:
    @event.listens_for(engine, "handle_error")
    def on_error(context: ExceptionContext) -> None:
        message = str(context.original_exception).lower()
        if context.dialect.name == "sqlite" and any(sign in message for sign in BROKEN_CONNECTION):
            context.is_disconnect = True  # SQLAlchemy invalidates the pool


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below decide how each transaction starts.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get("immediate", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
