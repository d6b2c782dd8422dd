"""Server-sent events' answer: its head through every middleware, its events straight on.

A race's stream sends an event to each of its pages for every change of the race (up to
twenty a second, to each of hundreds of streams): passed through every middleware, each
event cost more than the stream's own work. The middlewares only act on an answer's head
(its language, security headers, access log and compression, which leaves event streams
alone), so the head goes through them and each event goes to the server's own send,
noted outside every layer (:class:`ServerSend`); the end goes through them again, as any
answer's.

On uvicorn's HTTP/1.1 (h11) an event is framed here as the chunk h11 would frame it and
written to the connection (:func:`chunk_writer`): h11's bookkeeping of a body's piece
(which changes nothing of its state) was a third of an event's cost. When the client
reads slowly, has gone, or the server is another, the server's own send takes it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Final

from starlette.responses import StreamingResponse
from starlette.types import ASGIApp, Receive, Scope, Send

SEND: Final = "solitaire.outer_send"
"""The scope's key for the server's own send (the one given to the outermost layer)."""


def keep_send(scope: Scope, send: Send) -> None:
    """Where an event stream's events may go. Held weakly: the send refers to the
    request's cycle, which refers to its scope, and a cycle through every request would
    keep each request's headers until the collector came."""
    scope[SEND] = weakref.ref(send)


class ServerSend:
    """The outermost layer (outside Starlette's own error layer): notes the server's own
    send for an event stream's events (:func:`keep_send`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            keep_send(scope, send)
        await self.app(scope, receive, send)


def chunk_writer(send: Send | None, scope: Scope) -> Callable[[bytes | memoryview], bool] | None:
    """A body's piece written straight to the connection, framed as the chunk h11 frames
    it (``size CRLF data CRLF``), when ``send`` is uvicorn's h11 send of a ``GET`` from
    an HTTP/1.1 client (the body is then chunked: an event stream has no length);
    ``None`` otherwise. The writer answers False, writing nothing, when the server's own
    send must take the piece: the client reads slowly (the send waits for it), has gone,
    or the answer is over."""
    try:
        from uvicorn.protocols.http.h11_impl import RequestResponseCycle
    except ImportError:  # pragma: no cover - uvicorn is the site's server
        return None
    cycle = getattr(send, "__self__", None)
    if (
        not isinstance(cycle, RequestResponseCycle)
        or scope.get("method") != "GET"
        or cycle.conn.their_http_version != b"1.1"
    ):
        return None
    transport, flow = cycle.transport, cycle.flow

    def write(body: bytes | memoryview) -> bool:
        if flow.write_paused or cycle.disconnected or cycle.response_complete:
            return False
        if body:  # an empty chunk would end the body
            transport.write(b"".join((b"%x\r\n" % len(body), body, b"\r\n")))
        return True

    return write


Writer = Callable[[bytes | memoryview], bool]


class Straight:
    """Where a stream's source may write its events straight on once the answer has
    begun (:func:`chunk_writer`'s writer, set by :class:`EventStream`), or ``None``."""

    __slots__ = ("write",)

    def __init__(self) -> None:
        self.write: Writer | None = None


class EventStream(StreamingResponse):
    """``text/event-stream``, never stored by a cache or buffered by a proxy; its source
    may also write events itself, through ``straight``."""

    def __init__(self, content: object, straight: Straight | None = None) -> None:
        super().__init__(
            content,  # type: ignore[arg-type]
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        self.outer: Send | None = None
        self.scope: Scope = {}
        self.straight = straight

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        outer = scope.get(SEND)
        self.outer = outer() if outer is not None else None
        self.scope = scope
        await super().__call__(scope, receive, send)

    async def stream_response(self, send: Send) -> None:
        events = self.outer or send
        start = {"type": "http.response.start", "status": self.status_code}
        await send({**start, "headers": self.raw_headers})
        write = chunk_writer(self.outer, self.scope)
        if self.straight is not None:
            self.straight.write = write
        async for chunk in self.body_iterator:
            body = chunk.encode(self.charset) if isinstance(chunk, str) else chunk
            if write is None or not write(body):
                await events({"type": "http.response.body", "body": body, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
