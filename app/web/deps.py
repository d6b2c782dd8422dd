"""Request dependencies as ``Annotated`` aliases, so route signatures read like prose.

Each is a coroutine that does no I/O: FastAPI runs a plain function dependency in a worker
thread, one hop per dependency per request (0.1–0.2 ms each here)."""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Final, ParamSpec, TypeVar

from fastapi import Depends, Request

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


WORKERS: Final = ThreadPoolExecutor(max_workers=40, thread_name_prefix="solitaire-work")
"""The threads that run moves (as many as anyio gives FastAPI's plain-function routes)."""


async def in_thread(work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``work`` in a worker thread, with the request's context (its language): what FastAPI
    does for a plain-function route, without anyio's bookkeeping around each hop (finding
    the running library, a capacity limiter, a cancel scope: 7 % of a move's time under
    load). As there, the work goes on to its end if the client goes away: a move is stored
    or not, never half."""
    context = contextvars.copy_context()
    call = functools.partial(context.run, work, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(WORKERS, call)


async def reading(db: Database, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``work`` that reads the database (never writes, never waits for a solver), run where
    it costs least: on SQLite (a local file read in WAL mode, which waits for no writer) in
    the event loop, since handing it to a worker thread and back costs more than the read;
    on a database server, whose answer takes a round trip, in a worker thread."""
    if db.is_sqlite:
        return work(*args, **kwargs)
    return await in_thread(work, *args, **kwargs)
