"""Server-sent events' answer: its head through every middleware, its events straight on.

A race's stream sends an event to each of its pages for every change of the race (up to
twenty a second, to each of hundreds of streams): passed through every middleware, each
event cost more than the stream's own work. The middlewares only act on an answer's head
(its language, security headers, access log and compression, which leaves event streams
alone), so the head goes through them and each event goes to the send the outermost one
was given (:func:`keep_send`); the end goes through them again, as any answer's.
"""

from __future__ import annotations

import weakref
from typing import Final

from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

SEND: Final = "solitaire.outer_send"
"""The scope's key for the send the outermost middleware was given."""


def keep_send(scope: Scope, send: Send) -> None:
    """Called by the outermost middleware: where an event stream's events may go. Held
    weakly: the send refers to the request's cycle, which refers to its scope, and a cycle
    through every request would keep each request's headers until the collector came."""
    scope[SEND] = weakref.ref(send)


class EventStream(StreamingResponse):
    """``text/event-stream``, never stored by a cache or buffered by a proxy."""

    def __init__(self, content: object) -> None:
        super().__init__(
            content,  # type: ignore[arg-type]
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        self.outer: Send | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        outer = scope.get(SEND)
        self.outer = outer() if outer is not None else None
        await super().__call__(scope, receive, send)

    async def stream_response(self, send: Send) -> None:
        events = self.outer or send
        start = {"type": "http.response.start", "status": self.status_code}
        await send({**start, "headers": self.raw_headers})
        async for chunk in self.body_iterator:
            body = chunk.encode(self.charset) if isinstance(chunk, str) else chunk
            await events({"type": "http.response.body", "body": body, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
