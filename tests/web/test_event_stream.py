"""An event stream's head goes through the middlewares, its events straight on, and the
outer send is held weakly (no cycle through every request's scope)."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator

from starlette.types import Message

from app.web.event_stream import SEND, EventStream, keep_send
from tests.own_loop import in_own_thread


def test_the_head_and_end_go_through_the_middlewares_and_the_events_straight_on() -> None:
    through: list[Message] = []
    straight: list[Message] = []

    async def inner(message: Message) -> None:
        through.append(message)

    async def outer(message: Message) -> None:
        straight.append(message)

    async def events() -> AsyncIterator[bytes]:
        yield b"data: 1\n\n"
        yield b"data: 2\n\n"

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def run() -> None:
        scope = {"type": "http", "asgi": {"spec_version": "2.4"}}
        keep_send(scope, outer)
        await EventStream(events())(scope, receive, inner)

    in_own_thread(run)
    assert [m["type"] for m in through] == ["http.response.start", "http.response.body"]
    assert through[-1]["more_body"] is False
    assert [m["body"] for m in straight] == [b"data: 1\n\n", b"data: 2\n\n"]


def test_the_outer_send_is_held_weakly() -> None:
    async def outer(message: Message) -> None:
        return None

    scope: dict[str, object] = {"type": "http"}
    keep_send(scope, outer)
    kept = scope[SEND]
    assert kept() is outer  # type: ignore[operator]
    del outer
    gc.collect()
    assert kept() is None  # type: ignore[operator]
