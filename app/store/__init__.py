"""Storage: the database connection and its transactions.

The web layer uses :class:`Database` only to open sessions; rows and queries stay behind
the service (:mod:`app.games`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app.store.errors import Conflict, StorageError, is_broken
from app.store.link import CoreLink, Driver, Link, Statements

__all__ = ["Conflict", "Database", "Link", "Session", "StorageError"]

T = TypeVar("T")


SQLITE_BUSY_TIMEOUT_MS = 10_000
SQLITE_LOCK_RETRY_S = 0.001
"""How often a writer another process holds off tries the lock again: a short, even wait.
SQLite's own busy handler backs off to 100 ms a try and serves waiters unfairly (the
1.2 s tail under load); every waiter polling at the same short interval queues them
about fairly, as Rails 8 does."""


class FairLock:
    """A lock handed to its waiters in the order they came (``threading.Lock`` is not):
    the writers of one process queue for SQLite's write lock here, not in its busy
    handler."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._waiters: deque[threading.Lock] = deque()
        self._held = False

    def __enter__(self) -> None:
        with self._guard:
            if not self._held:
                self._held = True
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiters.append(turn)
        turn.acquire()  # released by the holder before us, who hands the lock over

    def __exit__(self, *_: object) -> None:
        with self._guard:
            if self._waiters:
                self._waiters.popleft().release()
            else:
                self._held = False


def private_file(path: Path) -> None:
    """Make the SQLite file (and its folder, if missing) for its owner only: it holds every
    game's key. The folder is made 0700 and the file 0600 before SQLite opens it (its
    ``-wal`` and ``-shm`` files take the file's permissions); existing ones are left as
    the operator made them."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


_SERIALS = itertools.count(1)


class Database:
    """One engine and two kinds of session (reads, and writes that take the lock first)
    for the site's occasional work; for its hot path, a game read by one statement
    (:meth:`look`) and moves' transactions (:meth:`transact`), both without a session.

    On SQLite every connection runs in WAL mode with ``synchronous=FULL`` and a busy
    timeout, and a write transaction starts with ``BEGIN IMMEDIATE``, so writers queue for
    the lock up front instead of failing half way with "database is locked". The writers
    of one process queue first in a :class:`FairLock`, so only one of them at a time asks
    SQLite; across processes ``BEGIN IMMEDIATE`` is retried every millisecond.

    ``stock`` names the stock parts to run instead of the hot path's own (``STOCK_PARTS``,
    docs/architecture.md): ``driver``, its statements through SQLAlchemy's ``Connection``
    (:class:`~app.store.link.CoreLink`); ``group_commit``, a transaction and a commit for
    each SQLite writer.
    """

    def __init__(self, url: str, *, stock: frozenset[str] = frozenset()) -> None:
        self.url = make_url(url)
        self.serial = next(_SERIALS)
        """This object's own number in the process: what a cache of its data is keyed by
        (an ``id()`` may be another's once this one is gone)."""
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        if self.is_sqlite and self.url.database not in (None, "", ":memory:"):
            private_file(Path(self.url.database))
        # Pre-ping: a connection the server dropped is replaced before use, not failed on.
        # SQLite has no server to drop one (a broken file connection is let go of on its
        # error, below), so it is not pinged: that was a SELECT 1 before every transaction.
        self.engine: Engine = create_engine(self.url, pool_pre_ping=not self.is_sqlite)
        if self.is_sqlite:
            _configure_sqlite(self.engine)
        _drop_broken_connections(self.engine)
        self._writer = self.engine.execution_options(immediate=True)
        self._reads = sessionmaker(self.engine, expire_on_commit=False)
        self._writes = sessionmaker(self._writer, expire_on_commit=False)
        self._statements = Statements(self.engine.dialect)
        self._core = "driver" in stock
        self._grouped = self.is_sqlite and "group_commit" not in stock
        self._write_turn = FairLock() if self.is_sqlite else nullcontext()
        self._queue: deque[_Work[Any]] = deque()  # works of any result type
        self._queue_guard = threading.Lock()
        self._leading = False

    @contextmanager
    def read(self) -> Iterator[Session]:
        with _storage_errors(), self._reads() as session:
            yield session

    @contextmanager
    def look(self) -> Iterator[Link]:
        """A pooled connection for one statement's read on the hot path (a game's page):
        no session and, on SQLite, no transaction: one statement reads one consistent
        snapshot by itself in WAL mode. Reads of several statements use :meth:`read`."""
        if self._core:
            with _storage_errors(), self.engine.connect() as connection:
                yield CoreLink(connection, self._statements)
            return
        with _storage_errors(), self._statements.errors():
            pooled = self.engine.raw_connection()
        try:
            yield Link(cast(Driver, pooled.driver_connection), pooled, self._statements)
        finally:
            pooled.close()  # back to the pool, which rolls back what a server began

    def ping(self) -> None:
        """Ask the database one trivial question (``SELECT 1``) on a fresh answer: raises
        :class:`StorageError` when it does not answer (the health check's)."""
        with _storage_errors(), self.engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")

    def link(self, session: Session) -> Link:
        """The hot path's queries inside ``session``'s transaction (a restart's)."""
        return self._link(session.connection())

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A transaction that commits when the block ends and rolls back on any error."""
        with self._write_turn, _storage_errors(), self._writes() as session, session.begin():
            yield session

    def transact(self, work: Callable[[Link], T]) -> T:
        """``work(link)`` in a write transaction, committed before this returns; its
        error (raised here) rolls back its own changes only. The work runs the hot path's
        statements (:class:`Link`): on SQLite on the driver's own connection
        (:meth:`_immediate`), on a database server on a connection of SQLAlchemy Core; no
        session either way.

        On SQLite the writers waiting meanwhile share one transaction, each in a savepoint
        of its own, and one commit (group commit): one ``fsync`` serves them all, where a
        commit each made the disk the limit under load. Their answers wait for that commit.
        """
        if not self._grouped:
            with (
                self._write_turn,
                _storage_errors(),
                self._writer.connect() as connection,
                connection.begin(),
            ):
                return work(self._link(connection))
        mine = _Work(work)
        with self._queue_guard:
            self._queue.append(mine)
            leads = not self._leading
            self._leading = True
        if not leads:
            # The writer committing now, or the next one, does our work; or hands us the
            # lead: then our work is still in the queue.
            mine.signal.wait()
        if not mine.done:
            with self._queue_guard:
                batch = list(self._queue)
                self._queue.clear()
            with self._write_turn:  # other writes (Database.write) queue here too
                self._commit_together(batch)
            with self._queue_guard:
                if self._queue:
                    self._queue[0].signal.set()  # the first to come since leads next
                else:
                    self._leading = False
        return mine.outcome()

    def _commit_together(self, batch: list[_Work[Any]]) -> None:  # as the queue
        try:
            with _storage_errors(), self._immediate() as link:
                if len(batch) == 1:  # alone: its error rolls back the transaction, no savepoint
                    batch[0].result = batch[0].work(link)
                    return
                for item in batch:
                    try:
                        with _storage_errors(), link.savepoint():
                            item.result = item.work(link)
                    except Exception as error:  # its savepoint is rolled back: it alone fails
                        item.error = error
        except Exception as error:  # no commit: none of them is stored
            for item in batch:
                item.error = item.error or error
        finally:
            for item in batch:
                item.done = True
                item.signal.set()

    @contextmanager
    def _immediate(self) -> Iterator[Link]:
        """A write transaction on SQLite, on the driver's connection from the pool:
        ``BEGIN IMMEDIATE`` (retried while another process writes), then ``COMMIT`` when
        the block ends, or ``ROLLBACK`` on any error."""
        statements = self._statements
        if self._core:
            with self._writer.connect() as connection, connection.begin():
                yield CoreLink(connection, statements)
            return
        with statements.errors():
            pooled = self.engine.raw_connection()
        try:
            driver = cast(sqlite3.Connection, pooled.driver_connection)
            link = Link(driver, pooled, statements)
            with statements.errors(link.let_go):
                if not begin_immediate(driver):  # out of time, or another error: raise it
                    driver.execute("BEGIN IMMEDIATE")
            try:
                yield link
            except BaseException:
                link.rollback()
                raise
            link.commit()
        finally:
            pooled.close()  # back to the pool, which rolls back a transaction left open

    def _link(self, connection: Connection) -> Link:
        if self._core:
            return CoreLink(connection, self._statements)
        driver = cast(Driver, connection.connection.driver_connection)
        return Link(driver, connection, self._statements)

    def dispose(self) -> None:
        self.engine.dispose()


class _Work(Generic[T]):
    """One writer's work for :meth:`Database.transact`, and what came of it."""

    def __init__(self, work: Callable[[Link], T]) -> None:
        self.work = work
        self.result: T | None = None
        self.error: Exception | None = None
        self.done = False
        self.signal = threading.Event()
        """Set when the work is done (committed or failed), or when it is this writer's
        turn to lead the next group."""

    def outcome(self) -> T:
        if self.error is not None:
            raise self.error
        return self.result  # type: ignore[return-value]  # set when there is no error


@contextmanager
def _storage_errors() -> Iterator[None]:
    """Database failures as the store's own errors, for the layers above."""
    try:
        yield
    except IntegrityError as error:
        raise Conflict(str(error.orig)) from error
    except DBAPIError as error:
        raise StorageError(str(error.orig)) from error


def _drop_broken_connections(engine: Engine) -> None:
    @event.listens_for(engine, "handle_error")
    def on_error(context: ExceptionContext) -> None:
        error = context.original_exception
        if context.dialect.name == "sqlite" and is_broken(context.dialect, error):
            context.is_disconnect = True  # SQLAlchemy invalidates the pool


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:  # SQLAlchemy's event
        # Let SQLAlchemy's "begin" event below decide how each transaction starts.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:  # SQLAlchemy's event
        if not connection.get_execution_options().get("immediate", False):
            connection.exec_driver_sql("BEGIN")
            return
        if not begin_immediate(connection.connection.dbapi_connection):
            # Out of time, or another error: once more through SQLAlchemy, to raise its error.
            connection.exec_driver_sql("BEGIN IMMEDIATE")


def begin_immediate(raw: sqlite3.Connection) -> bool:
    """Take SQLite's write lock (``BEGIN IMMEDIATE``), trying again every
    :data:`SQLITE_LOCK_RETRY_S` while another process holds it; False when the busy timeout
    ran out or another error came (the caller raises it)."""
    raw.execute("PRAGMA busy_timeout=0")
    try:
        deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
        while time.monotonic() < deadline:
            try:
                raw.execute("BEGIN IMMEDIATE")
                return True
            except sqlite3.OperationalError as error:
                if "locked" not in str(error):
                    return False
            time.sleep(SQLITE_LOCK_RETRY_S)
    finally:
        raw.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    return False
