"""Honest, friendly play over HTTP: a verdict belongs to the game that asked, Redo, the
deal-number field and previous / next deal, the clock, and a loss that stays a loss."""

from __future__ import annotations

import re
import time

import pytest
from fastapi.testclient import TestClient

from app.games.montana import rules as montana
from tests.web.helpers import HX, act, start


def position(client: TestClient, game_id: str) -> montana.MontanaPosition:
    return montana.parse(client.get(f"/games/{game_id}/position").text)


def ask_until_sure(client: TestClient, game_id: str) -> str:
    for _attempt in range(60):  # the solver answers "still thinking" until it is sure
        page = client.get(f"/games/{game_id}", params={"check": "1"}).text
        if "Yes:" in page or "Not this round" in page:
            return "Yes:" if "Yes:" in page else "Not this round"
        time.sleep(0.5)
    pytest.skip("the solver did not answer in time on this machine")


def test_a_verdict_shows_only_in_the_game_that_asked(client: TestClient) -> None:
    asked = start(client)
    fresh = start(client)  # the same deal, never asked
    assert "Yes:" not in client.get(f"/games/{fresh}").text
    verdict = ask_until_sure(client, asked)
    assert verdict in client.get(f"/games/{asked}").text
    assert verdict in client.get(f"/games/{asked}", headers=HX).text
    # Another game on the same deal, at the same position, never sees it unasked.
    for headers in ({}, HX):
        assert verdict not in client.get(f"/games/{fresh}", headers=headers).text
    cookies = dict(client.cookies)
    client.cookies.clear()  # another player starting the same deal
    stranger = start(client)
    assert verdict not in client.get(f"/games/{stranger}").text
    client.cookies.update(cookies)
    # Moving on hides it; coming back to where it was asked shows it again.
    act(client, asked, "5H C4", 0)
    assert verdict not in client.get(f"/games/{asked}").text
    act(client, asked, "undo", 1, **HX)
    assert verdict in client.get(f"/games/{asked}", headers=HX).text


def test_redo_with_and_without_htmx(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    assert 'value="redo"' in page and 'data-key="y"' in page
    assert 'value="redo" class="button" data-key="y" aria-keyshortcuts="Y" disabled' in page
    act(client, game_id, "5H C4", 0)
    act(client, game_id, "undo", 1)
    page = client.get(f"/games/{game_id}").text
    assert 'value="redo" class="button" data-key="y" aria-keyshortcuts="Y">' in page
    redone = act(client, game_id, "redo", 2, **HX)
    assert redone.status_code == 200
    assert "Move redone: 5 of hearts to C4." in redone.text  # the live region: cards in words
    assert 'data-version="3"' in redone.text
    act(client, game_id, "undo", 3)
    plain = act(client, game_id, "redo", 4)  # JavaScript off: a plain form, then the page
    assert plain.status_code == 303
    assert client.get(f"/games/{game_id}/history").text == "5H C4\nundo\n5H C4\nundo\n5H C4\n"
    refused = act(client, game_id, "redo", 5, **HX)
    assert refused.status_code == 422
    assert "There is nothing to redo" in refused.text
    plain = act(client, game_id, "redo", 5, **{"Sec-Fetch-Mode": "navigate"})
    assert plain.status_code == 303
    assert "There is nothing to redo" in client.get(plain.headers["location"]).text
    replay = client.get(f"/games/{game_id}/replay").text
    assert "redo: 5♥ to C4" in replay


@pytest.mark.parametrize("typed", ["42", " 42 ", "#42", "4,2"])
def test_the_deal_field_starts_a_readable_number(client: TestClient, typed: str) -> None:
    game_id = start(client)
    answer = client.post(
        "/games", data={"kind": "montana", "variant": "expert", "deal": typed, "back": game_id}
    )
    assert answer.status_code == 303
    page = client.get(answer.headers["location"]).text
    assert '<bdi dir="ltr" class="deal">#42</bdi>' in page


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("0", "Deal numbers run from 1 to 1,000,000, not 0."),
        ("1,000,001", "Deal numbers run from 1 to 1,000,000, not 1,000,001."),
        ("five", "A deal number is a whole number, such as 11982."),
        ("4.5", "A deal number is a whole number, such as 11982."),
        ("", "Type a deal number, such as 11982."),
    ],
)
def test_a_deal_number_the_site_cannot_deal_says_why_on_the_game_page(
    client: TestClient, typed: str, words: str
) -> None:
    game_id = start(client)
    answer = client.post(
        "/games", data={"kind": "montana", "variant": "expert", "deal": typed, "back": game_id}
    )
    assert answer.status_code == 303
    assert answer.headers["location"].startswith(f"/games/{game_id}?")
    page = client.get(answer.headers["location"])
    assert page.status_code == 200
    assert f'<p class="message">{words}</p>' in page.text
    # Nothing was dealt: the player's list holds the one game.
    listing = client.get("/games").text
    assert listing.count(f"/games/{game_id}") >= 1
    assert listing.count('class="status-playing"') == 1


def test_previous_and_next_deal_are_on_the_game_page(client: TestClient) -> None:
    first = client.get(f"/games/{start(client, 'freecell', '1')}").text
    assert 'id="previous-deal"' not in first
    assert "Next deal (#2)" in first
    assert "novalidate" in first and 'id="deal-number"' in first
    page = client.get(f"/games/{start(client, 'freecell', '1000000')}").text
    assert "Previous deal (#999999)" in page and 'id="next-deal"' not in page


def test_the_clock_waits_for_the_first_move(client: TestClient) -> None:
    game_id = start(client)
    assert 'data-running="false"' in client.get(f"/games/{game_id}").text
    moved = act(client, game_id, "5H C4", 0, **HX).text
    assert 'data-running="true"' in moved
    # The words for a clock paused by idleness come once with the page (site.js shows them).
    assert 'data-paused="Paused: no move for a minute."' in client.get(f"/games/{game_id}").text


def test_the_statistics_say_what_a_loss_and_an_unfinished_game_count_as(
    client: TestClient,
) -> None:
    game_id = start(client)
    board, version = position(client, game_id), 0
    while True:  # the first legal move each time, a redeal when stuck, to the loss
        legal = board.legal_moves()
        if not legal and not board.redeals_left:
            break
        act(client, game_id, legal[0].notation if legal else "redeal", version)
        version += 1
        board = position(client, game_id)
    act(client, game_id, "undo", version)
    page = client.get("/stats").text
    assert "A loss stays a loss, even after an undo" in page
    assert '<th scope="col">Unfinished</th>' in page
    row = page[page.index("Montana") : page.index("</tr>", page.index("Montana"))]
    figures = re.findall(r'<td data-label="([^"]+)">([^<]*)</td>', row)
    assert figures[:4] == [("Played", "1"), ("Won", "0"), ("Lost", "1"), ("Unfinished", "0")]


@pytest.mark.parametrize("back", ["/", "../x", "a/b", "<b>", "a b"])
def test_a_back_that_names_no_game_is_refused_and_deals_nothing(
    client: TestClient, back: str
) -> None:
    """``back`` is a game's id: anything else (a path separator once made a 500) is a
    readable 422, and nothing is dealt."""
    answer = client.post("/games", data={"kind": "montana", "deal": "0", "back": back})
    assert answer.status_code == 422
    assert "The game to go back to is not a game of this site." in answer.text
    assert 'class="status-playing"' not in client.get("/games").text
