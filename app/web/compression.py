"""gzip for every answer, at the level that suits it, as one pure ASGI middleware.

A move's fragment is small: zlib's default level costs next to nothing more than the
fastest there (a 2 KB fragment: 832 bytes in 26 µs at level 6, 863 bytes in 24 µs at 1; a
4.7 KB one, 1.34 KB at 6 and 1.47 KB at 1). A whole page is larger and comes far less often
than moves, and there the level is most of the cost: a 14 KB game page, 3,468 bytes in
181 µs at level 6, 3,934 bytes in 93 µs at level 1, nginx's default level.

It does what Starlette's ``GZipMiddleware`` does, for the answers this site sends, with
less around it: the request's two headers that matter are found in one pass over its raw
headers, an answer's headers are edited as the list they are, and a whole body is
compressed by one call to zlib (one release of the interpreter's lock, not two). With
Starlette's middleware (twice, a level each) a move's gzip cost 5 % of its server time
outside zlib itself (``bench/load.py --profile``).

- Compressed: an answer of at least :data:`MINIMUM_SIZE` bytes to a client that accepts
  gzip, whose media type is not in :data:`EXCLUDED` (already compressed, or a stream of
  events, which must reach the client event by event) and that says no encoding of its own.
- A streamed answer (a history export) is compressed as it goes, each part flushed.
- Every answer that could have been compressed says ``Vary: Accept-Encoding``.
"""

from __future__ import annotations

import zlib
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FRAGMENT_LEVEL: Final = 6
PAGE_LEVEL: Final = 1
MINIMUM_SIZE: Final = 1000
"""Bytes: a smaller answer goes as it is (gzip's own header and table cost more)."""

GZIP_WBITS: Final = 16 + zlib.MAX_WBITS
"""zlib's window, with the gzip header and trailer around the stream."""

EXCLUDED: Final = frozenset(
    {
        b"text/event-stream",
        b"application/gzip",
        b"application/zip",
        b"font/woff2",
        b"image/png",
        b"image/jpeg",
        b"image/webp",
    }
)
VARY: Final = (b"vary", b"Accept-Encoding")
ENCODED: Final = (b"content-encoding", b"gzip")


def _wants(scope: Scope) -> tuple[bool, bool]:
    """Whether the client accepts gzip, and whether it asks for a fragment (htmx, not
    restoring its history: :func:`app.web.htmx.wants_fragment`)."""
    accepts = hx = restoring = False
    for name, value in scope["headers"]:
        if name == b"accept-encoding":
            accepts = b"gzip" in value
        elif name == b"hx-request":
            hx = value == b"true"
        elif name == b"hx-history-restore-request":
            restoring = value == b"true"
    return accepts, hx and not restoring


class GZip:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accepts, fragment = _wants(scope)
        level = FRAGMENT_LEVEL if fragment else PAGE_LEVEL
        await self.app(scope, receive, _Answer(send, level if accepts else 0).send)


class _Answer:
    """One answer on its way: its head held until its first body says whether and how
    it is compressed. ``level`` 0: the client takes no gzip."""

    __slots__ = ("compressor", "level", "next", "passing", "start")

    def __init__(self, send: Send, level: int) -> None:
        self.next = send
        self.level = level
        self.start: Message | None = None
        self.passing = False
        self.compressor: zlib._Compress | None = None

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if self.passing:
            await self.next(message)
        elif kind == "http.response.start":
            if _as_it_is(message):
                self.passing = True
                await self.next(message)
            else:
                self.start = message
        elif kind == "http.response.body":
            await self._body(message)
        else:  # before the head (hints), as they are; after it (a file, trailers), unchanged
            if self.start is not None:
                await self._head()
                self.passing = True
            await self.next(message)

    async def _head(self, *extra: tuple[bytes, bytes], length: bool = True) -> None:
        start, self.start = self.start, None
        if start is not None:
            if extra:
                headers = start.get("headers", [])
                kept = headers if length else [h for h in headers if h[0] != b"content-length"]
                start["headers"] = [*kept, *extra]
            await self.next(start)

    async def _body(self, message: Message) -> None:
        body: bytes = message.get("body", b"")
        more: bool = message.get("more_body", False)
        if self.compressor is not None:
            flush = zlib.Z_SYNC_FLUSH if more else zlib.Z_FINISH
            message["body"] = self.compressor.compress(body) + self.compressor.flush(flush)
            await self.next(message)
            return
        if not more and len(body) < MINIMUM_SIZE:
            self.passing = True
        elif not self.level:
            await self._head(VARY)
            self.passing = True
        elif not more:
            message["body"] = zlib.compress(body, self.level, GZIP_WBITS)
            size = (b"content-length", str(len(message["body"])).encode())
            await self._head(ENCODED, size, VARY, length=False)
            await self.next(message)
            return
        else:
            self.compressor = zlib.compressobj(self.level, zlib.DEFLATED, GZIP_WBITS)
            await self._head(ENCODED, VARY, length=False)
            message["body"] = self.compressor.compress(body) + self.compressor.flush(
                zlib.Z_SYNC_FLUSH
            )
            await self.next(message)
            return
        await self._head()
        await self.next(message)


def _as_it_is(start: Message) -> bool:
    """An answer sent as it is: encoded already, partial, or of an excluded media type."""
    if start["status"] == 206:
        return True
    for name, value in start.get("headers", []):
        if name == b"content-encoding":
            return True
        if name == b"content-type":
            media = value.partition(b";")[0].strip().lower()
            if media in EXCLUDED or media.startswith((b"audio/", b"video/")):
                return True
    return False
