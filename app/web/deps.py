"""Request dependencies as ``Annotated`` aliases, so route signatures read like prose.

Each is a coroutine that does no I/O: FastAPI runs a plain function dependency in a worker
thread, one hop per dependency per request (0.1–0.2 ms each here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, ParamSpec, TypeVar

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from app.service.solvers import SolverPool
from app.store import Database


def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def _database(request: Request) -> Database:
    # Dependencies are coroutines: a plain function would cost a thread hop a request.
    return database(request)


DatabaseDep = Annotated[Database, Depends(_database)]


def solvers(request: Request) -> SolverPool:
    pool: SolverPool = request.app.state.solvers
    return pool


async def _solvers(request: Request) -> SolverPool:
    return solvers(request)


SolversDep = Annotated[SolverPool, Depends(_solvers)]


P = ParamSpec("P")
T = TypeVar("T")


async def reading(db: Database, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``work`` that reads the database (never writes, never waits for a solver), run where
    it costs least: on SQLite (a local file read in WAL mode, which waits for no writer) in
    the event loop, since handing it to a worker thread and back costs more than the read;
    on a database server, whose answer takes a round trip, in a worker thread."""
    if db.is_sqlite:
        return work(*args, **kwargs)
    return await run_in_threadpool(work, *args, **kwargs)
