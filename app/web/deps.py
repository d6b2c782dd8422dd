"""Request dependencies as ``Annotated`` aliases, so route signatures read like prose.

Each is a coroutine that does no I/O: FastAPI runs a plain function dependency in a worker
thread, one hop per dependency per request (0.1–0.2 ms each here)."""

from __future__ import annotations

from typing import Annotated

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
