"""My games, replay, statistics and the "move my games" link, with and without htmx."""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web import helpers
from tests.web.helpers import HX, start


def act(client: TestClient, game_id: str, action: str, version: int) -> None:
    response = helpers.act(client, game_id, action, version)
    assert response.status_code == 303, response.text


# -- my games ------------------------------------------------------------------------------


def test_my_games_without_a_player(client: TestClient) -> None:
    page = client.get("/games")
    assert page.status_code == 200
    assert "You have not started a game in this browser yet." in page.text


def test_my_games_lists_unfinished_first_with_details(client: TestClient) -> None:
    finished = start(client, deal="5")
    act(client, finished, "resign", 0)
    playing = start(client, kind="freecell", deal="617")
    page = client.get("/games").text
    assert page.index(f"/games/{playing}") < page.index(f"/games/{finished}")
    assert 'FreeCell <bdi dir="ltr">#617</bdi>' in page
    assert 'Montana <bdi dir="ltr">#5</bdi>' in page
    assert "given up" in page
    assert f"/games/{finished}/replay" in page
    assert "52 left" in page
    assert client.get("/games", headers=HX).status_code == 200


def test_my_games_filters_and_pages(client: TestClient) -> None:
    ids = [start(client, deal=str(n)) for n in range(1, 24)]
    act(client, ids[0], "resign", 0)
    page = client.get("/games?status=lost").text
    assert f'/games/{ids[0]}"' in page
    assert f'/games/{ids[1]}"' not in page
    assert "No games match." in client.get("/games?game=freecell").text
    first = client.get("/games").text
    assert "Page 1 of 2" in first
    second = client.get("/games?page=2").text
    assert "Page 2 of 2" in second
    shown = set(re.findall(r"/games/([\w-]{24})\"", first)) | set(
        re.findall(r"/games/([\w-]{24})\"", second)
    )
    assert shown == set(ids)
    assert client.get("/games?status=bogus&game=chess&page=0").status_code == 200


def test_my_games_shows_only_mine(app: FastAPI, client: TestClient) -> None:
    mine = start(client)
    with TestClient(app, follow_redirects=False) as other:
        start(other, deal="9")
        assert f"/games/{mine}" not in other.get("/games").text


# -- replay --------------------------------------------------------------------------------


def test_replay_steps_through_the_history(client: TestClient) -> None:
    game_id = start(client)
    for version, action in enumerate(["5H C4", "6S A13", "undo", "redeal"]):
        act(client, game_id, action, version)
    opened = client.get(f"/games/{game_id}/replay")
    assert opened.status_code == 200
    assert opened.text.startswith("<!doctype html>")
    assert "0/4" in opened.text  # a replay opens at the deal
    assert "The deal, before the first move." in opened.text
    page = client.get(f"/games/{game_id}/replay?step=4")
    assert "4/4" in page.text
    assert "redeal 1 of 2" in page.text
    # A redeal and an undo are said in words alone; a move shows its notation beside them.
    assert "<code>redeal</code>" not in page.text and "<code>undo</code>" not in page.text
    assert "<code>5H C4</code>" in page.text
    step1 = client.get(f"/games/{game_id}/replay?step=1", headers=HX).text
    assert step1.lstrip().startswith('<section id="replay"')
    assert "5♥ to C4" in step1
    assert "?step=0" in step1
    assert "?step=2" in step1
    deal = client.get(f"/games/{game_id}/replay?step=0").text
    assert "The deal, before the first move." in deal
    assert 'aria-label="6 of spades"' in deal
    assert "1/4" not in client.get(f"/games/{game_id}/replay?step=99").text
    assert client.get("/games/nope/replay").status_code == 404
    assert client.get(f"/games/{game_id}/replay?step=x").status_code == 422


def test_freecell_replay_in_words(client: TestClient) -> None:
    game_id = start(client, kind="freecell")
    act(client, game_id, "6a", 0)
    act(client, game_id, "6b", 1)
    page = client.get(f"/games/{game_id}/replay?step=3").text
    assert "3♦ from column 6 to free cell a" in page
    assert "A♣ home from column 6 (automatic)" in page


# -- statistics ----------------------------------------------------------------------------


def test_stats_page_for_a_new_visitor(client: TestClient) -> None:
    page = client.get("/stats")
    assert page.status_code == 200
    assert "Everyone on this site" in page.text
    assert "Your games" not in page.text
    assert "No games to draw yet." in page.text


def test_stats_page_counts_my_games_and_draws_charts(client: TestClient) -> None:
    for deal in ("1", "2"):
        act(client, start(client, deal=deal), "resign", 0)
    page = client.get("/stats?game=montana-expert").text
    assert "Your games" in page
    row = re.search(
        r"<th scope=\"row\">Montana Expert</th>\s*<td data-label=\"Played\">(\d+)</td>", page
    )
    assert row
    assert row.group(1) == "2"
    assert "<svg" in page
    assert "Win percentage over the last 2 finished games" in page
    assert 'class="bar-loss"' in page
    everyone = client.get("/stats?game=freecell-standard&who=all", headers=HX)
    assert everyone.status_code == 200
    assert "FreeCell Standard · everyone" in everyone.text


def test_home_shows_a_summary_once_games_are_finished(client: TestClient) -> None:
    act(client, start(client), "resign", 0)
    page = client.get("/").text
    assert "Your results" in page
    assert "0%" in page
