"""Request dependencies as ``Annotated`` aliases, so route signatures read like prose."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.service.solvers import SolverPool
from app.store import Database


def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


DatabaseDep = Annotated[Database, Depends(database)]


def solvers(request: Request) -> SolverPool:
    pool: SolverPool = request.app.state.solvers
    return pool


SolversDep = Annotated[SolverPool, Depends(solvers)]
