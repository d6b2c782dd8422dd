"""``GET /health``: whether this server can serve, for the reverse proxy's checks.

200 ``ok`` when the database answers; 503 when it does not, so the proxy sends players to
another server (or, when none can reach the database, every server answers "try again").
Plain text for machines: no page, no cookie, no language; not rate-limited.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from app.store import StorageError
from app.web.deps import DatabaseDep, in_thread

router = APIRouter()


@router.get("/health", name="health", include_in_schema=False)
async def health(db: DatabaseDep) -> PlainTextResponse:
    try:
        await in_thread(db.ping)
    except StorageError:
        return PlainTextResponse("database not answering", status_code=503)
    return PlainTextResponse("ok", headers={"Cache-Control": "no-store"})
