"""Nothing is silent: a click where the held cards cannot go says the rules' reason (and
keeps them held; a refused drag lets go), picking cards up says where they can go, a
Montana card that cannot move or a dead gap says why, and cancelling is announced."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.web.helpers import HX, start

NAVIGATE = {"Sec-Fetch-Mode": "navigate"}


def announcer(page: str) -> str:
    match = re.search(r'<div id="announcer"[^>]*>(.*?)</div>', page, re.S)
    assert match, "the answer updates the live region"
    return match.group(1)


def test_picking_a_card_up_says_where_it_can_go(client: TestClient) -> None:
    game_id = start(client, "freecell", "1")
    page = client.get(f"/games/{game_id}?sel=4:1", headers=HX).text
    assert "Holding 6♥: it can go to a free cell." in page
    assert announcer(page) == "Holding 6 of hearts: it can go to a free cell."  # in words
    plain = client.get(f"/games/{game_id}?sel=4:1").text  # JavaScript off: a link
    assert "Holding 6♥: it can go to a free cell." in plain


def test_a_click_where_the_held_card_cannot_go_says_why_and_keeps_it_held(
    client: TestClient,
) -> None:
    game_id = start(client, "freecell", "1")
    page = client.get(f"/games/{game_id}?sel=4:1", headers=HX).text
    # Column 2 (9♣ at the bottom) is a button that asks the rules, not a card to pick up.
    assert '<button id="p-2" type="submit" name="target" value="2"' in page
    assert "?sel=2:1" not in page
    assert '<input type="hidden" name="source" value="4">' in page
    form = {"version": "0", "source": "4", "target": "2", "held": "1"}
    refused = client.post(f"/games/{game_id}/actions", data=form, headers=HX)
    assert refused.status_code == 422
    assert "6♥ cannot go on 9♣" in refused.text
    assert "6 of hearts cannot go on 9 of clubs" in announcer(refused.text)
    assert "fc-card red selected" in refused.text, "the card is still held"
    # JavaScript off: back to the game page, the reason on it, the card still held.
    plain = client.post(f"/games/{game_id}/actions", data=form, headers=NAVIGATE)
    assert plain.status_code == 303
    assert "sel=4%3A1" in plain.headers["location"]
    again = client.get(plain.headers["location"]).text
    assert "6♥ cannot go on 9♣" in again and "fc-card red selected" in again


def test_a_refused_drag_lets_the_card_go(client: TestClient) -> None:
    game_id = start(client, "freecell", "1")
    form = {"version": "0", "source": "4", "target": "2", "held": "1", "drag": "1"}
    refused = client.post(f"/games/{game_id}/actions", data=form, headers=HX)
    assert refused.status_code == 422
    assert "6♥ cannot go on 9♣" in refused.text
    assert "selected" not in refused.text.split('id="board"', 1)[1].split("</form>", 1)[0]


def test_putting_back_and_cancelling_a_two_are_announced(client: TestClient) -> None:
    game_id = start(client, "freecell", "1")
    page = client.get(f"/games/{game_id}?sel=4:1", headers=HX).text
    assert f'href="/games/{game_id}?cancel=1"' in page
    back = client.get(f"/games/{game_id}?cancel=1", headers=HX).text
    assert announcer(back) == "Cancelled: nothing was moved."
    montana = start(client, "montana", "1")
    client.post(f"/games/{montana}/actions", data={"action": "redeal", "version": "0"})
    picking = client.get(f"/games/{montana}?pick=A1", headers=HX).text
    assert f'href="/games/{montana}?cancel=1"' in picking
    cancelled = client.get(f"/games/{montana}?cancel=1").text  # JavaScript off too
    assert '<p class="message">Cancelled: nothing was moved.</p>' in cancelled


def test_a_montana_card_that_cannot_move_and_a_dead_gap_say_why(client: TestClient) -> None:
    game_id = start(client, "montana", "1")
    page = client.get(f"/games/{game_id}").text
    # Deal #1: J♦ in A1 cannot move (10♦ is in C8, and C9 holds a card).
    assert re.search(
        r'<a href="\?why=A1" hx-get="\?why=A1" class="idle red[^"]*" data-cell="A1"', page
    )
    why = client.get(f"/games/{game_id}?why=A1", headers=HX).text
    words = "J♦ cannot move: it can only follow 10♦, and the cell after it, C9, is not a gap."
    spoken = "jack of diamonds cannot move: it can only follow 10 of diamonds, and the cell"
    assert words in why and spoken in announcer(why)
    assert words in client.get(f"/games/{game_id}?why=A1").text  # JavaScript off
    # B10 follows the gap B9: dead until B9 is filled.
    assert 'href="?why=B10"' in page
    dead = client.get(f"/games/{game_id}?why=B10", headers=HX).text
    assert "Gap B10 is dead until the gap before it, B9, is filled." in announcer(dead)
    # A card that can move, and nonsense, say nothing more.
    assert 'class="message"' not in client.get(f"/games/{game_id}?why=Z99", headers=HX).text
