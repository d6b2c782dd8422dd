"""Answers are gzipped at the level that suits them (app.web.compression): a move's
fragment at zlib's default, a whole page at the fastest level."""

from __future__ import annotations

import gzip

from fastapi.testclient import TestClient

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
