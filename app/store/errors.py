"""The store's own errors, and which database errors leave a connection not to be trusted."""

from __future__ import annotations

from typing import Final

from sqlalchemy.engine import Dialect


class StorageError(Exception):
    """The database could not do its part (disk full, read-only, I/O error, gone away).

    The transaction was rolled back: nothing of the request was stored.
    """


class Conflict(Exception):
    """A write broke a uniqueness rule: another request got there first."""


BROKEN_CONNECTION: Final = (
    "readonly database",  # opened while the file was read-only: SQLite stays read-only
    "disk i/o error",
    "unable to open database file",
    "database disk image is malformed",
)
"""SQLite errors after which a connection is not trusted again: it is closed, and every
pooled connection with it, so the site recovers by itself once the fault has ended."""


def is_broken(dialect: Dialect, error: BaseException, connection: None = None) -> bool:
    """Whether ``error`` (the driver's) leaves its connection unusable."""
    if dialect.name == "sqlite":
        message = str(error).lower()
        return any(sign in message for sign in BROKEN_CONNECTION) or dialect.is_disconnect(
            error,  # type: ignore[arg-type]
            connection,
            None,
        )
    return dialect.is_disconnect(error, connection, None)  # type: ignore[arg-type]
