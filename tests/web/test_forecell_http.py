"""Forecell through HTTP with JavaScript off: started by a plain form post, played and
hinted; a game left with no legal move ends as lost (deal #1 opens so), and an undo takes
it back into play."""

from __future__ import annotations

import re
from typing import Final

from fastapi.testclient import TestClient

from app.games.freecell.rules import new_game
from tests.web.helpers import GAME_URL, HX, act, start

VERSION: Final = re.compile(r'id="game"[^>]* data-version="(\d+)"')


def test_forecell_starts_by_a_plain_form_post_plays_and_hints(client: TestClient) -> None:
    home = client.get("/").text
    assert 'name="variant" value="forecell"' in home
    response = client.post("/games", data={"kind": "freecell", "variant": "forecell", "deal": "2"})
    assert response.status_code == 303
    match = GAME_URL.search(response.headers["location"])
    assert match
    game_id = match.group(1)
    page = client.get(f"/games/{game_id}").text
    assert "Forecell" in page and 'data-status="playing"' in page
    assert client.get(f"/games/{game_id}/position").text == new_game(2, "forecell").to_text()
    # The deal's last four cards wait in the free cells: a to d hold A♠ 5♠ 10♥ J♥.
    assert "Freecells: AS 5S TH JH" in client.get(f"/games/{game_id}/position").text
    moved = act(client, game_id, "2h", 0)  # A♦ home; the A♠ in free cell a follows by itself
    assert moved.status_code == 303
    assert client.get(f"/games/{game_id}/history").text.splitlines() == ["2h", "ah"]
    hint = client.post(f"/games/{game_id}/hint", data={"version": "2"})
    assert hint.status_code in (200, 303)
    shown = client.get(hint.headers["location"]).text if hint.status_code == 303 else hint.text
    assert " hint" in shown.lower()
    assert 'data-status="playing"' in shown


def test_a_forecell_deal_with_no_legal_move_is_lost_from_the_start(client: TestClient) -> None:
    game_id = start(client, "freecell", "1", variant="forecell")
    page = client.get(f"/games/{game_id}").text
    assert 'data-status="lost"' in page and "No moves left: game over" in page
    assert "This deal opens with no move at all: start a new game." in page
    assert "Undo to try another way" not in page  # there is nothing to undo
    refused = act(client, game_id, "1a", 0)
    assert refused.status_code == 422 and "No moves are left" in refused.text
    assert client.get(f"/games/{game_id}/history").text == ""
    hint = client.post(f"/games/{game_id}/hint", data={"version": "0"}, headers=HX)
    assert hint.status_code == 422 and "nothing to hint" in hint.text
    mine = client.get("/games?status=lost").text
    assert f"/games/{game_id}/replay" in mine


def test_the_move_that_leaves_no_legal_move_loses_and_undo_plays_on(client: TestClient) -> None:
    """Forecell #57: moving column 5 onto column 1 leaves no card that can move."""
    game_id = start(client, "freecell", "57", variant="forecell")
    assert 'data-status="playing"' in client.get(f"/games/{game_id}").text
    moved = act(client, game_id, "51", 0, **HX)
    assert moved.status_code == 200
    assert 'data-status="lost"' in moved.text and "No moves left: game over" in moved.text
    assert "Undo to try another way, or start a new game." in moved.text
    version = int(VERSION.search(moved.text).group(1))  # the move and any cards sent home
    undone = act(client, game_id, "undo", version, **HX)
    assert undone.status_code == 200 and 'data-status="playing"' in undone.text
    history = client.get(f"/games/{game_id}/history").text.splitlines()
    assert history[0] == "51" and history[-1] == "undo"


def test_forecell_deals_have_their_records_page_with_the_shipped_proof(
    client: TestClient,
) -> None:
    lost = client.get("/deals/freecell/1?variant=forecell")
    assert lost.status_code == 200 and "Forecell" in lost.text
    assert "Proved impossible" in lost.text
    won = client.get("/deals/freecell/2?variant=forecell")
    assert won.status_code == 200 and "Proved winnable" in won.text
    game_id = start(client, "freecell", "2", variant="forecell")
    assert act(client, game_id, "resign", 0).status_code == 303
    # The deal's records count Forecell's games apart from standard FreeCell's deal #2.
    assert "Played 1 time" in client.get("/deals/freecell/2?variant=forecell").text
    assert "Played 0 times" in client.get("/deals/freecell/2").text
