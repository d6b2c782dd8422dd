"""gzip for every answer, at the level that suits it (Starlette's middleware, twice).

A move's fragment is small: zlib's default level costs next to nothing more than the
fastest there (a 2 KB fragment: 832 bytes in 26 µs at level 6, 863 bytes in 24 µs at 1; a
4.7 KB one, 1.34 KB at 6 and 1.47 KB at 1). A whole page is larger and comes far less often
than moves, and there the level is most of the cost: a 14 KB game page, 3,468 bytes in
181 µs at level 6, 3,934 bytes in 93 µs at level 1, nginx's default level.
"""

from __future__ import annotations

from typing import Final

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.htmx import wants_fragment

FRAGMENT_LEVEL: Final = 6
PAGE_LEVEL: Final = 1
MINIMUM_SIZE: Final = 1000
"""Bytes: a smaller answer goes as it is (gzip's own header and table cost more)."""


class GZip:
    def __init__(self, app: ASGIApp) -> None:
        self.fragments = GZipMiddleware(app, MINIMUM_SIZE, compresslevel=FRAGMENT_LEVEL)
        self.pages = GZipMiddleware(app, MINIMUM_SIZE, compresslevel=PAGE_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        fragment = scope["type"] == "http" and wants_fragment(Headers(scope=scope))
        await (self.fragments if fragment else self.pages)(scope, receive, send)
