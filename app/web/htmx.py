"""Everything the site knows about htmx's request headers, in one place (the ``Vary``
header it makes every response carry is set with the others in :mod:`app.web.security`)."""

from __future__ import annotations

import json
from typing import Final

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response

FRAGMENT: Final = "solitaire.fragment"
"""Where a request keeps whether it wants a fragment (the route and the page both ask)."""


def is_htmx(request: Request) -> bool:
    """An htmx request that wants a fragment (a history restore wants the whole page)."""
    scope = request.scope
    found = scope.get(FRAGMENT)
    if found is None:
        found = scope[FRAGMENT] = wants_fragment(request.headers)
    return bool(found)


def wants_fragment(headers: Headers) -> bool:
    history = headers.get("hx-history-restore-request") == "true"
    return headers.get("hx-request") == "true" and not history


def is_history_restore(request: Request) -> bool:
    return request.headers.get("HX-History-Restore-Request") == "true"


def target(request: Request) -> str:
    """The id of the element htmx swaps the answer into (``HX-Target``), or ``''``."""
    return request.headers.get("hx-target", "") if is_htmx(request) else ""


def trigger(response: Response, event: str, detail: object) -> None:
    """Have htmx fire ``event`` (with ``detail``) on the element that asked, as the answer
    arrives (``HX-Trigger``): what the page's script does beyond the swap."""
    response.headers["HX-Trigger"] = json.dumps({event: detail}, separators=(",", ":"))
