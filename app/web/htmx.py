"""Everything the site knows about htmx's request headers, in one place (the ``Vary``
header it makes every response carry is set with the others in :mod:`app.web.security`)."""

from __future__ import annotations

from starlette.requests import Request


def is_htmx(request: Request) -> bool:
    """An htmx request that wants a fragment (a history restore wants the whole page)."""
    return request.headers.get("HX-Request") == "true" and not is_history_restore(request)


def is_history_restore(request: Request) -> bool:
    return request.headers.get("HX-History-Restore-Request") == "true"
