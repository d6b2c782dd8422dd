"""An event stream served by uvicorn itself: on HTTP/1.1 its events are framed as chunks
and written straight to the connection, on HTTP/1.0 they go through the server's own
send; either way a client reads every event, whole, and the body's end."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator

import pytest
import uvicorn
from starlette.types import Receive, Scope, Send

from app.web.event_stream import SEND, EventStream, ServerSend, chunk_writer

EVENTS = [
    b"retry: 2000\n\n",
    *(b"event: racers\ndata: %d " % n + b"x" * 40000 + b"\n\n" for n in range(200)),
    b": beat\n\n",
]
"""Eight megabytes: more than a connection's buffers hold for a client that waits to read."""
WAIT = 30.0


class App:
    """Streams :data:`EVENTS`, noting whether its events could go straight on."""

    def __init__(self) -> None:
        self.straight: list[bool] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kept = scope[SEND]()
        self.straight.append(chunk_writer(kept, scope) is not None)

        async def events() -> AsyncIterator[bytes]:
            for event in EVENTS:
                yield event

        await EventStream(events())(scope, receive, send)


@pytest.fixture
def served() -> Iterator[tuple[int, App]]:
    app = App()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(ServerSend(app), lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield port, app
    server.should_exit = True
    thread.join(WAIT)
    sock.close()


def ask(port: int, version: str, *, pause: float = 0.0) -> bytes:
    """The whole answer to a GET (the connection closed after it), read after ``pause``
    seconds (the server's writes wait for a client that reads nothing)."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(f"GET /events HTTP/{version}\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        time.sleep(pause)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def unchunked(body: bytes) -> bytes:
    """A chunked body's data, checked to the last (empty) chunk."""
    data = b""
    while True:
        size, body = body.split(b"\r\n", 1)
        length = int(size, 16)
        if not length:
            assert body == b"\r\n"
            return data
        data += body[:length]
        assert body[length : length + 2] == b"\r\n"
        body = body[length + 2 :]


def test_on_http_1_1_the_events_are_chunks_written_straight_on(served: tuple[int, App]) -> None:
    port, app = served
    head, body = ask(port, "1.1").split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 200")
    assert b"transfer-encoding: chunked" in head.lower()
    assert unchunked(body) == b"".join(EVENTS)
    assert app.straight == [True]


def test_a_client_that_reads_late_gets_every_event_in_order(served: tuple[int, App]) -> None:
    port, app = served
    head, body = ask(port, "1.1", pause=0.5).split(b"\r\n\r\n", 1)
    assert b"transfer-encoding: chunked" in head.lower()
    assert unchunked(body) == b"".join(EVENTS)
    assert app.straight == [True]


def test_on_http_1_0_the_server_sends_them(served: tuple[int, App]) -> None:
    port, app = served
    head, body = ask(port, "1.0").split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 200")
    assert b"transfer-encoding" not in head.lower()
    assert body == b"".join(EVENTS)
    assert app.straight == [False]


def test_other_sends_take_no_shortcut() -> None:
    async def send(message: object) -> None:
        return None

    assert chunk_writer(None, {"method": "GET"}) is None
    assert chunk_writer(send, {"method": "GET"}) is None
