"""Answers are gzipped at the level that suits them (app.web.compression): a move's
fragment at zlib's default, a whole page at the fastest level."""

from __future__ import annotations

import gzip

from fastapi.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from app.web.compression import GZip
from tests.own_loop import in_own_thread
from tests.web.helpers import HX, start

FASTEST, DEFAULT = 4, 0
"""The gzip header's XFL byte: 4 when zlib compressed at level 1, 0 at levels 2 to 8."""


def raw(
    client: TestClient, method: str, url: str, headers: dict[str, str] | None = None
) -> tuple[bytes, str]:
    """The body as sent (not decoded) and its Content-Encoding."""
    with client.stream(
        method, url, headers={"Accept-Encoding": "gzip", **(headers or {})}
    ) as response:
        assert response.status_code == 200
        return b"".join(response.iter_raw()), response.headers.get("content-encoding", "")


def test_a_page_is_gzipped_fast_and_a_fragment_smaller(client: TestClient) -> None:
    game_id = start(client)
    page, encoding = raw(client, "GET", f"/games/{game_id}")
    assert encoding == "gzip" and page[8] == FASTEST
    assert b'id="board"' in gzip.decompress(page)
    fragment, encoding = raw(client, "GET", f"/games/{game_id}", headers=HX)
    assert encoding == "gzip" and fragment[8] == DEFAULT
    assert gzip.decompress(fragment).startswith(b'<section id="game"')
    restore = {**HX, "HX-History-Restore-Request": "true"}  # wants the whole page
    page, _ = raw(client, "GET", f"/games/{game_id}", headers=restore)
    assert page[8] == FASTEST and b"<!doctype html>" in gzip.decompress(page)


def test_a_small_answer_is_sent_as_it_is(client: TestClient) -> None:
    game_id = start(client)
    body, encoding = raw(client, "GET", f"/games/{game_id}/position")
    assert encoding == "" and b"\n" in body


def answers(app_sends: list[Message], headers: list[tuple[bytes, bytes]]) -> list[Message]:
    """What :class:`GZip` sends on, for an app that sends ``app_sends``."""

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        for message in app_sends:
            await send(dict(message))

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/", "headers": headers}
    in_own_thread(lambda: GZip(inner)(scope, receive, send))
    return sent


def head(media: bytes, length: int | None = None) -> Message:
    headers = [(b"content-type", media)]
    if length is not None:
        headers.insert(0, (b"content-length", str(length).encode()))
    return {"type": "http.response.start", "status": 200, "headers": headers}


TEXT = b"<p>" + b"The seven of hearts goes on the eight of spades. " * 60 + b"</p>"
GZIP = [(b"accept-encoding", b"gzip, br")]


def test_a_whole_body_is_compressed_once_with_its_length_and_vary() -> None:
    sent = answers(
        [head(b"text/html", len(TEXT)), {"type": "http.response.body", "body": TEXT}], GZIP
    )
    start, body = sent
    headers = dict(start["headers"])
    assert headers[b"content-encoding"] == b"gzip" and headers[b"vary"] == b"Accept-Encoding"
    assert headers[b"content-length"] == str(len(body["body"])).encode()
    assert [name for name, _ in start["headers"]].count(b"content-length") == 1
    assert gzip.decompress(body["body"]) == TEXT and body["body"][8] == FASTEST


def test_a_streamed_body_is_compressed_as_it_goes_and_decodes_whole() -> None:
    parts = [TEXT[:900], TEXT[900:2000], TEXT[2000:]]
    bodies = [
        {"type": "http.response.body", "body": part, "more_body": n < 2}
        for n, part in enumerate(parts)
    ]
    sent = answers([head(b"text/plain"), *bodies], GZIP)
    assert dict(sent[0]["headers"])[b"content-encoding"] == b"gzip"
    assert b"content-length" not in dict(sent[0]["headers"])
    assert gzip.decompress(b"".join(m["body"] for m in sent[1:])) == TEXT
    assert all(m["body"] for m in sent[1:3])  # each part flushed, not held back


def test_event_streams_encoded_and_small_answers_go_as_they_are() -> None:
    events = [
        head(b"text/event-stream"),
        {"type": "http.response.body", "body": TEXT, "more_body": True},
    ]
    assert answers(events, GZIP) == events
    encoded = {**head(b"text/html"), "headers": [(b"content-encoding", b"br")]}
    assert answers([encoded, {"type": "http.response.body", "body": TEXT}], GZIP)[1]["body"] == TEXT
    small = [head(b"text/html", 5), {"type": "http.response.body", "body": b"small"}]
    assert answers(small, GZIP) == small


def test_a_client_without_gzip_gets_the_body_as_it_is_and_vary() -> None:
    sent = answers(
        [head(b"text/html", len(TEXT)), {"type": "http.response.body", "body": TEXT}], []
    )
    assert sent[1]["body"] == TEXT
    assert (b"vary", b"Accept-Encoding") in sent[0]["headers"]
    assert b"content-encoding" not in dict(sent[0]["headers"])


def test_a_fragment_is_compressed_at_the_default_level() -> None:
    whole = [head(b"text/html", len(TEXT)), {"type": "http.response.body", "body": TEXT}]
    sent = answers(whole, [*GZIP, (b"hx-request", b"true")])
    assert sent[1]["body"][8] == DEFAULT
    restoring = [*GZIP, (b"hx-request", b"true"), (b"hx-history-restore-request", b"true")]
    assert answers(whole, restoring)[1]["body"][8] == FASTEST
