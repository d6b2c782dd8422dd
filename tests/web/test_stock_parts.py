"""Each stock part ``STOCK_PARTS`` names runs the site as well as the site's own part:
the same answers to a move, an undo, a plain form's post and a refusal (docs/architecture.md
lists what each part replaces and what it costs)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.config import STOCK_PARTS, Settings, log_config, stock_parts
from app.games.montana import rules as montana
from app.store import Database
from app.web import create_app
from tests.conftest import FAST
from tests.web.helpers import HX, start

PLAY_TIME = re.compile(rb"<time data-play-ms=[^<]*</time>")
"""The game's clock: the one thing two plays of a game differ in."""
SERVED = sorted(STOCK_PARTS - {"log_writer"})
"""The parts inside the site (the log's writer is the served process's: below)."""


def site(database_url: str, stock: str) -> tuple[FastAPI, Database]:
    settings = Settings(
        database_url=database_url,
        secret_key="test-secret",
        host="testserver",
        port=80,
        stock_parts=stock,
        **FAST,
    )
    db = Database(database_url, stock=stock_parts(settings))
    return create_app(settings, db), db


def play(client: TestClient) -> list[tuple[int, str, bytes]]:
    """A game's moves as htmx and a plain form post them, and two refusals: each answer's
    status, encoding and body (decompressed)."""
    game_id = start(client)
    move = montana.new_game(1).legal_moves()[0].notation
    posts = [
        ({"action": move, "version": "0", "shown": "en"}, HX),
        ({"action": "undo", "version": "1", "shown": "en"}, HX),
        ({"action": move, "version": "2"}, {}),
        ({"action": "undo", "version": "2"}, HX),  # behind: the game has moved on
        ({"action": "undo"}, HX),  # no version
    ]
    answers = []
    for form, headers in posts:
        answer = client.post(
            f"/games/{game_id}/actions",
            data=form,
            headers={"Accept-Encoding": "gzip", **headers},
        )
        answers.append(
            (
                answer.status_code,
                answer.headers.get("content-encoding", ""),
                answer.content.replace(game_id.encode(), b"GAME"),
            )
        )
    history = client.get(f"/games/{game_id}/history").text.splitlines()
    assert len(history) == 3, history
    return answers


@pytest.fixture
def own(database_url: str) -> Iterator[tuple[list[tuple[int, str, bytes]], str]]:
    """The site's own parts' answers, and the player who played them."""
    app, db = site(database_url, "")
    with TestClient(app, follow_redirects=False) as client:
        yield play(client), client.cookies["player"]
    db.dispose()


@pytest.mark.parametrize("part", SERVED)
def test_a_stock_part_answers_moves_as_the_site_s_own(
    part: str, database_url: str, own: tuple[list[tuple[int, str, bytes]], str]
) -> None:
    ours, player = own
    app, db = site(database_url, part)
    try:
        with TestClient(app, follow_redirects=False, cookies={"player": player}) as client:
            stock = play(client)
    finally:
        db.dispose()
    assert [(status, encoding) for status, encoding, _ in stock] == [
        (status, encoding) for status, encoding, _ in ours
    ]
    assert [status for status, _, _ in ours] == [200, 200, 303, 409, 422]
    for (_, _, theirs), (_, _, mine) in zip(stock, ours, strict=True):
        if b"<section" in mine:  # a fragment: the same markup, whoever read the form
            assert PLAY_TIME.sub(b"", theirs) == PLAY_TIME.sub(b"", mine)


def test_stock_parts_are_named_or_refused() -> None:
    assert stock_parts(Settings(stock_parts=" compression, driver ,")) == {"compression", "driver"}
    with pytest.raises(ValueError, match="no such part: zip"):
        stock_parts(Settings(stock_parts="compression,zip"))


def test_the_stock_log_writer_is_the_standard_library_s() -> None:
    handler = log_config(frozenset({"log_writer"}))["handlers"]["stderr"]  # type: ignore[index]
    assert handler["class"] == "logging.StreamHandler"
    own = log_config(frozenset())["handlers"]["stderr"]  # type: ignore[index]
    assert own["()"] == "app.logs.BackgroundStderr"
