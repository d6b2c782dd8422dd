"""Every route, with and without htmx, and every error path (plain form posts too)."""

from __future__ import annotations

import re
import time

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.games.montana import rules as montana
from tests.web import helpers
from tests.web.helpers import HX, act


def start(client: TestClient, deal: str = "1", variant: str = "expert") -> str:
    return helpers.start(client, "montana", deal, variant=variant)


def position(client: TestClient, game_id: str) -> montana.MontanaPosition:
    return montana.parse(client.get(f"/games/{game_id}/position").text)


# -- home and start ------------------------------------------------------------------------


def test_home_offers_montana(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Play Montana" in response.text
    assert 'name="variant" value="easy"' in response.text
    assert "HX-Request" in response.headers["vary"]


def test_start_redirects_to_the_game_and_sets_a_safe_cookie(client: TestClient) -> None:
    response = client.post("/games", data={"kind": "montana", "variant": "easy", "deal": "7"})
    assert response.status_code == 303
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=lax" in cookie
    page = client.get(response.headers["location"])
    assert page.status_code == 200
    assert "<title>Montana #7" in page.text
    assert "Redeal (4 left)" in page.text


def test_home_lists_my_unfinished_games(client: TestClient) -> None:
    game_id = start(client, "123")
    page = client.get("/")
    assert f"/games/{game_id}" in page.text
    assert 'Montana <bdi dir="ltr">#123</bdi>' in page.text
    other = TestClient(client.app, follow_redirects=False)
    assert f"/games/{game_id}" not in other.get("/").text


def test_a_forged_cookie_is_ignored(client: TestClient) -> None:
    start(client)
    client.cookies.set("player", "forged.value")
    assert "Continue a game" not in client.get("/").text


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"kind": "chess"}, "no game called"),
        ({"kind": "montana", "variant": "hard"}, "has no variant"),
        ({"kind": "montana", "deal": "abc"}, "whole number"),
        ({"kind": "montana", "deal": "0"}, "from 1 to 1,000,000"),
        ({"kind": "montana", "deal": "99999999999999"}, "from 1 to 1,000,000"),
        ({"kind": "montana", "deal": "-5"}, "whole number"),
        ({}, "the game"),
        ({"kind": "montana" * 20}, "the game"),
    ],
)
def test_bad_start_forms_get_a_readable_422(
    client: TestClient, form: dict[str, str], message: str
) -> None:
    response = client.post("/games", data=form)
    assert response.status_code == 422
    assert message in response.text
    assert "<html" in response.text


# -- the game page -------------------------------------------------------------------------


def test_game_page_and_fragment(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert page.text.startswith("<!doctype html>")
    assert 'id="game"' in page.text
    fragment = client.get(f"/games/{game_id}", headers=HX)
    assert fragment.status_code == 200
    assert fragment.text.lstrip().startswith('<section id="game"')
    assert "<html" not in fragment.text
    assert "HX-Request" in fragment.headers["vary"]
    restore = client.get(f"/games/{game_id}", headers={**HX, "HX-History-Restore-Request": "true"})
    assert restore.text.startswith("<!doctype html>")


def test_board_labels_say_what_each_cell_does(client: TestClient) -> None:
    page = client.get(f"/games/{start(client)}").text
    assert 'aria-label="6 of spades, row D, column 10: move to A13"' in page
    assert 'aria-label="gap, row A, column 13: wants 6 of spades"' in page
    assert 'aria-label="gap, row B, column 10: dead, after a gap"' in page
    assert 'aria-label="jack of diamonds, row A, column 1"' in page
    assert 'value="6S A13"' in page
    # The board's form holds the version; the controls post it (form="board").
    assert page.count('name="version" value="0"') == 1
    assert 'form="board" name="action" value="undo"' in page
    assert 'form="board" name="action" value="redeal"' in page


def test_every_form_works_without_javascript(client: TestClient) -> None:
    """Plain posts answer 303 back to the game page, which shows the new position."""
    game_id = start(client)
    response = act(client, game_id, "5H C4", 0)
    assert response.status_code == 303
    # Back to the game page, which marks the card the move played (for this version only).
    assert response.headers["location"].endswith(f"/games/{game_id}?moved=1.c-C4.1")
    page = client.get(response.headers["location"]).text
    assert 'name="version" value="1"' in page
    assert position(client, game_id).cells[montana.parse_cell("C4")] is not None
    assert 'id="c-C4" data-moved-cards="1"' in page
    assert page.count("data-moved-cards") == 1


def test_htmx_action_returns_the_board_fragment(client: TestClient) -> None:
    game_id = start(client)
    response = act(client, game_id, "5H C4", 0, **HX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="game"')
    assert 'name="version" value="1"' in response.text
    assert "server-timing" in response.headers


def test_illegal_move_is_422_with_a_message_and_nothing_stored(client: TestClient) -> None:
    game_id = start(client)
    for headers in ({}, HX):
        response = act(client, game_id, "7S A13", 0, **headers)
        assert response.status_code == 422
        assert "7♠ does not fit A13: only 6♠ follows 5♠ there." in response.text
        # The live region names the cards in words, as the labels do.
        assert re.search(r'id="announcer"[^>]*>7 of spades does not fit A13', response.text)
    assert client.get(f"/games/{game_id}/history").text == ""
    assert position(client, game_id) == montana.new_game(1)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("8X B7", "not a card"),
        ("8C Z9", "not a cell"),
        ("fly", "not a Montana move"),
        ("undo", "Nothing to undo"),
        ("", "action"),
    ],
)
def test_malformed_actions_are_422(client: TestClient, action: str, message: str) -> None:
    game_id = start(client)
    response = act(client, game_id, action, 0, **HX)
    assert response.status_code == 422
    assert message.lower() in response.text.lower()
    assert client.get(f"/games/{game_id}/history").text == ""


@pytest.mark.parametrize("version", ["", "one", "-1", "1.5"])
def test_unreadable_version_is_422(client: TestClient, version: str) -> None:
    game_id = start(client)
    response = client.post(
        f"/games/{game_id}/actions", data={"action": "5H C4", "version": version}, headers=HX
    )
    assert response.status_code == 422
    assert client.get(f"/games/{game_id}/history").text == ""


def test_stale_version_is_409_with_the_current_board(client: TestClient) -> None:
    game_id = start(client)
    assert act(client, game_id, "5H C4", 0).status_code == 303
    for headers in ({}, HX):
        response = act(client, game_id, "6S A13", 0, **headers)
        assert response.status_code == 409
        assert "moved on in another tab" in response.text
        assert 'name="version" value="1"' in response.text
    assert client.get(f"/games/{game_id}/history").text == "5H C4\n"


def test_unknown_game_is_404_everywhere(client: TestClient) -> None:
    for url in ("/games/nope", "/games/nope/position", "/games/nope/history"):
        response = client.get(url)
        assert response.status_code == 404
        assert "There is no game at this address" in response.text
    assert act(client, "nope", "undo", 0).status_code == 404
    assert act(client, "nope", "undo", 0, **HX).status_code == 404


def test_undo_redeal_and_resign(client: TestClient) -> None:
    game_id = start(client)
    act(client, game_id, "5H C4", 0)
    act(client, game_id, "redeal", 1)
    page = act(client, game_id, "undo", 2, **HX).text
    assert "Redeal (2 left)" in page
    assert position(client, game_id) == montana.new_game(1).play(
        montana.MontanaMove.from_text("5H C4")
    )
    end = act(client, game_id, "resign", 3, **HX)
    assert end.status_code == 200
    assert "You gave up" in end.text
    assert 'value="resign"' not in end.text
    again = act(client, game_id, "6S A13", 4, **HX)
    assert again.status_code == 422
    assert "given up" in again.text
    assert client.get(f"/games/{game_id}/history").text == "5H C4\nredeal\nundo\nresign\n"


def test_stuck_board_makes_redeal_the_next_step(client: TestClient) -> None:
    game_id = start(client)
    board = position(client, game_id)
    version = 0
    while board.has_moves():
        act(client, game_id, board.legal_moves()[0].notation, version)
        version += 1
        board = position(client, game_id)
    page = client.get(f"/games/{game_id}").text
    assert "next-step" in page
    assert "No card can move: redeal to go on." in page


def test_choosing_a_two_for_a_column_one_gap(client: TestClient) -> None:
    game_id = start(client)
    act(client, game_id, "redeal", 0)
    page = client.get(f"/games/{game_id}").text
    assert 'href="/games/' in page and "?pick=A1" in page
    picking = client.get(f"/games/{game_id}?pick=A1", headers=HX).text
    assert "Choose the 2 to put in A1" in picking
    assert picking.count('class="candidate ') == 4
    assert 'value="2C A1"' in picking
    assert client.get(f"/games/{game_id}?pick=Z9").status_code == 200


def test_position_and_history_are_plain_text(client: TestClient) -> None:
    game_id = start(client)
    act(client, game_id, "5H C4", 0)
    text = client.get(f"/games/{game_id}/position")
    assert text.headers["content-type"].startswith("text/plain")
    assert text.text.startswith("Deal: 1\nRedeals-left: 2\nRedeals-done: 0\n")
    history = client.get(f"/games/{game_id}/history")
    assert history.headers["content-type"].startswith("text/plain")
    assert history.text == "5H C4\n"


def test_resume_from_a_fresh_client_without_cookies(app: FastAPI, client: TestClient) -> None:
    game_id = start(client)
    act(client, game_id, "5H C4", 0)
    with TestClient(app, follow_redirects=False) as elsewhere:
        page = elsewhere.get(f"/games/{game_id}")
        assert page.status_code == 200
        assert 'name="version" value="1"' in page.text
        assert act(elsewhere, game_id, "6S A13", 1).status_code == 303
    assert client.get(f"/games/{game_id}/history").text == "5H C4\n6S A13\n"


def test_markup_in_inputs_is_escaped(client: TestClient) -> None:
    game_id = start(client)
    response = act(client, game_id, "<script>alert(1)</script> A1", 0, **HX)
    assert response.status_code == 422
    assert "<script>alert" not in response.text
    assert "&lt;script&gt;" in response.text


def test_static_htmx_is_vendored(client: TestClient) -> None:
    response = client.get("/static/vendor/htmx-2.0.11/htmx.min.js")
    assert response.status_code == 200
    assert "htmx" in response.text[:200]


NAVIGATE = {"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "same-origin"}
"""What a browser sends with a form posted as a page (no JavaScript)."""


def test_a_move_is_announced_in_words(client: TestClient) -> None:
    game_id = start(client)
    page = act(client, game_id, "5H C4", 0, **HX).text
    announcer = re.search(r'<div id="announcer" hx-swap-oob="innerHTML">([^<]*)</div>', page)
    assert announcer is not None
    assert re.fullmatch(r"5 of hearts to C4\. \d+ cards? in place\.", announcer.group(1))
    assert "Redeal 1 of 2." in act(client, game_id, "redeal", 1, **HX).text


def test_without_javascript_a_refused_move_goes_back_to_the_game(client: TestClient) -> None:
    game_id = start(client)
    response = act(client, game_id, "7S A13", 0, **NAVIGATE)
    assert response.status_code == 303
    assert response.headers["location"].endswith(f"/games/{game_id}?refused=7S+A13")
    page = client.get(response.headers["location"]).text
    assert "7♠ does not fit A13: only 6♠ follows 5♠ there." in page
    assert act(client, game_id, "5H C4", 0, **NAVIGATE).status_code == 303
    stale = act(client, game_id, "6S A13", 0, **NAVIGATE)
    assert stale.status_code == 303
    assert stale.headers["location"].endswith("?stale=1")
    assert "moved on in another tab" in client.get(stale.headers["location"]).text


def test_still_winnable_with_redeals_left_is_not_a_loss(client: TestClient) -> None:
    from app.rules.protocol import Answer
    from app.web.pages import verdict_words

    game_id = start(client)
    game = __import__("app.service", fromlist=["load"]).load(
        db=client.app.state.db,  # type: ignore[attr-defined]
        game_id=game_id,
    )
    words = verdict_words(game, Answer("unsolvable", (), 1234, 0.1))
    assert words.startswith("Not this round: it cannot be cleared without a redeal")
    assert "2 redeals left" in words
    assert not words.startswith("No:")


def test_a_sure_verdict_comes_back_with_its_position(client: TestClient) -> None:
    game_id = start(client)
    for _attempt in range(240):  # the solver answers "still thinking" until it is sure
        page = client.get(f"/games/{game_id}", params={"check": "1"}).text
        if "Yes:" in page or "Not this round" in page:
            break
        time.sleep(0.5)
    verdict = "Yes:" if "Yes:" in page else "Not this round"
    assert verdict in client.get(f"/games/{game_id}").text
    act(client, game_id, "5H C4", 0)
    assert verdict not in client.get(f"/games/{game_id}").text
    page = act(client, game_id, "undo", 1, **HX).text
    assert "Move undone." in page
    assert verdict in client.get(f"/games/{game_id}", headers=HX).text
