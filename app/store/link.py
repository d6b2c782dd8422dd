"""The hot path's statements, run on the driver's own connection.

A move reads its game, sets it with a compare-and-set and appends its history rows; a
game's page reads its game. SQLAlchemy's execution (its events, execution contexts and
result objects) cost about 60 µs a statement here, over ten times the SQLite read itself.
These statements are still built with SQLAlchemy Core (:mod:`app.store.queries`) and
compiled by it, once per dialect, with its own conversions of each column's values (the
types' bind and result processors: a timestamp is stored and read back exactly as
SQLAlchemy stores and reads it). Only their execution is the driver's: ``cursor.execute``
and a plain tuple named by column.

Errors come out as the store's own: :class:`~app.store.Conflict` for a broken uniqueness
rule, :class:`~app.store.StorageError` for anything else; a connection the database broke
is invalidated, so the pool opens a fresh one.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Final, Protocol, cast

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.engine.interfaces import DBAPIModule
from sqlalchemy.sql import Select
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from app.store.errors import Conflict, StorageError, is_broken

Processor = Callable[[object], object]
"""A column type's conversion of a value to or from the driver's."""
Row = tuple[object, ...]
"""A row read: a plain tuple named by its columns (``row.version``); the queries say
what each holds (:mod:`app.store.rows`)."""


Parameters = Sequence[object] | Mapping[str, object]


class Cursor(Protocol):
    """What the hot path uses of a :pep:`249` cursor."""

    @property
    def rowcount(self) -> int: ...
    def execute(self, sql: str, parameters: Parameters = ..., /) -> object: ...
    def executemany(self, sql: str, parameters: Sequence[Parameters], /) -> object: ...
    def fetchone(self) -> Sequence[object] | None: ...
    def fetchall(self) -> Sequence[Sequence[object]]: ...
    def close(self) -> None: ...


class Driver(Protocol):
    """A :pep:`249` connection, as the hot path uses it."""

    def cursor(self) -> Cursor: ...


class Prepared:
    """A Core statement compiled for one dialect: its SQL, the order of its parameters
    with their conversions, and (a select) its columns' names and conversions."""

    __slots__ = ("_binds", "_make", "_positional", "_results", "sql")

    def __init__(
        self, statement: ClauseElement, dialect: Dialect, keys: tuple[str, ...] | None = None
    ) -> None:
        compiled = cast(
            SQLCompiler,
            statement.compile(
                dialect=dialect,
                column_keys=list(keys) if keys else None,
                for_executemany=bool(keys),
            ),
        )
        self.sql: Final = compiled.string
        self._positional = compiled.positional
        types = {name: bind.type for bind, name in compiled.bind_names.items()}
        order = compiled.positiontup if compiled.positional and compiled.positiontup else types
        self._binds: tuple[tuple[str, Processor | None], ...] = tuple(
            (name, types[name].dialect_impl(dialect).bind_processor(dialect)) for name in order
        )
        self._results: tuple[Processor | None, ...] = ()
        self._make: Callable[[Sequence[object]], Row] = tuple
        if isinstance(statement, Select):
            columns = list(statement.selected_columns)
            self._results = tuple(
                column.type.dialect_impl(dialect).result_processor(dialect, None)
                for column in columns
            )
            named = namedtuple("Row", [column.key for column in columns])  # type: ignore[misc]
            self._make = named._make

    def parameters(self, values: Mapping[str, object]) -> Parameters:
        if self._positional:
            return tuple(
                value if convert is None else convert(value)
                for name, convert in self._binds
                for value in (values[name],)
            )
        return {
            name: values[name] if convert is None else convert(values[name])
            for name, convert in self._binds
        }

    def row(self, raw: Sequence[object]) -> Row:
        pairs = zip(self._results, raw, strict=True)
        return self._make([value if do is None else do(value) for do, value in pairs])


class Invalidating(Protocol):
    """What holds the driver's connection: SQLAlchemy's connection or its pool's proxy."""

    def invalidate(self) -> None: ...


class Link:
    """One connection as the hot path's queries use it."""

    __slots__ = ("_driver", "_gone", "_holder", "_statements")

    def __init__(self, driver: Driver, holder: Invalidating, statements: Statements) -> None:
        self._driver = driver
        self._holder = holder
        self._statements = statements
        self._gone = False

    def let_go(self) -> None:
        """Invalidate the connection (once): the pool opens a fresh one."""
        if not self._gone:
            self._gone = True
            self._holder.invalidate()

    def one(self, statement: ClauseElement, values: Mapping[str, object]) -> Row | None:
        """The first row ``statement`` selects, its columns by name; None if none."""
        prepared = self._statements.prepared(statement)
        with self._cursor() as cursor:
            cursor.execute(prepared.sql, prepared.parameters(values))
            raw = cursor.fetchone()
        return None if raw is None else prepared.row(raw)

    def all(self, statement: ClauseElement, values: Mapping[str, object]) -> list[Row]:
        prepared = self._statements.prepared(statement)
        with self._cursor() as cursor:
            cursor.execute(prepared.sql, prepared.parameters(values))
            raws = cursor.fetchall()
        return [prepared.row(raw) for raw in raws]

    def count(self, statement: ClauseElement, values: Mapping[str, object]) -> int:
        """Run ``statement`` (an update): how many rows it changed."""
        prepared = self._statements.prepared(statement)
        with self._cursor() as cursor:
            cursor.execute(prepared.sql, prepared.parameters(values))
            return int(cursor.rowcount)

    def insert(self, statement: ClauseElement, rows: Sequence[Mapping[str, object]]) -> None:
        """Insert ``rows`` (each with the same keys)."""
        if not rows:
            return
        prepared = self._statements.prepared(statement, tuple(rows[0]))
        with self._cursor() as cursor:
            cursor.executemany(prepared.sql, [prepared.parameters(row) for row in rows])

    def commit(self) -> None:
        self._run("COMMIT")

    def rollback(self) -> None:
        """Take the transaction back; a connection that cannot is let go of."""
        if self._gone:
            return
        try:
            self._run("ROLLBACK")
        except StorageError:
            self.let_go()

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A savepoint: the block's changes are taken back alone on its error."""
        self._run("SAVEPOINT work")
        try:
            yield
        except BaseException:
            self._run("ROLLBACK TO SAVEPOINT work")
            self._run("RELEASE SAVEPOINT work")
            raise
        self._run("RELEASE SAVEPOINT work")

    def _run(self, sql: str) -> None:
        with self._cursor() as cursor:
            cursor.execute(sql)

    @contextmanager
    def _cursor(self) -> Iterator[Cursor]:
        """A cursor of the driver's, closed after; its errors as the store's."""
        with self._statements.errors(self.let_go):
            cursor = self._driver.cursor()
            try:
                yield cursor
            finally:
                cursor.close()


class CoreLink(Link):
    """The same queries through SQLAlchemy's own ``Connection`` (its execution, result
    rows and errors): the stock part, run with ``STOCK_PARTS=driver`` (docs/architecture.md).
    Its transaction is the connection's (begun and committed by its holder)."""

    __slots__ = ("_connection",)

    def __init__(self, connection: Connection, statements: Statements) -> None:
        super().__init__(cast(Driver, None), connection, statements)
        self._connection = connection

    def one(self, statement: ClauseElement, values: Mapping[str, object]) -> Row | None:
        return cast(
            "Row | None", self._connection.execute(cast(Executable, statement), values).first()
        )

    def all(self, statement: ClauseElement, values: Mapping[str, object]) -> list[Row]:
        return cast(
            "list[Row]", list(self._connection.execute(cast(Executable, statement), values))
        )

    def count(self, statement: ClauseElement, values: Mapping[str, object]) -> int:
        return int(self._connection.execute(cast(Executable, statement), values).rowcount)

    def insert(self, statement: ClauseElement, rows: Sequence[Mapping[str, object]]) -> None:
        if rows:
            self._connection.execute(cast(Executable, statement), list(rows))

    def commit(self) -> None:
        self._connection.commit()

    def rollback(self) -> None:
        self._connection.rollback()

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        with self._connection.begin_nested():
            yield


class Statements:
    """The prepared statements of one database, each compiled the first time it runs."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self.dbapi: DBAPIModule = dialect.loaded_dbapi
        self._prepared: dict[tuple[ClauseElement, tuple[str, ...] | None], Prepared] = {}

    @contextmanager
    def errors(self, let_go: Callable[[], None] | None = None) -> Iterator[None]:
        """The driver's errors as the store's; ``let_go`` is called when the error broke
        the connection."""
        try:
            yield
        except self.dbapi.IntegrityError as error:
            raise Conflict(str(error)) from error
        except self.dbapi.Error as error:
            if let_go is not None and is_broken(self.dialect, error):
                let_go()
            raise StorageError(str(error)) from error

    def prepared(self, statement: ClauseElement, keys: tuple[str, ...] | None = None) -> Prepared:
        found = self._prepared.get((statement, keys))
        if found is None:
            found = self._prepared[(statement, keys)] = Prepared(statement, self.dialect, keys)
        return found
