"""Request dependencies as ``Annotated`` aliases, so route signatures read like prose."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.store import Database


def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


DatabaseDep = Annotated[Database, Depends(database)]
