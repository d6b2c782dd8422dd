"""The settings page (``/settings``): every route with and without htmx, each bad input,
a forged ``next``, and the choices kept for the player on either database."""

from __future__ import annotations

import json
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import service
from app.web.routes.settings import local_path
from tests.web.helpers import HX, start
from tests.web.test_transfer import make_link

EVERYTHING = {
    "deck": "four",
    "card_size": "large",
    "hand": "left",
    "auto_home": "all",
    "theme": "dark",
}


def html_classes(page: str) -> set[str]:
    match = re.search(r"<html [^>]*>", page)
    assert match, page[:200]
    found = re.search(r'class="([^"]*)"', match.group(0))
    return set(found.group(1).split()) if found else set()


def checked(page: str) -> dict[str, str]:
    """The radio button checked in each group of the settings form."""
    return dict(re.findall(r'type="radio" name="(\w+)" value="(\w+)" checked', page))


def test_a_new_visitor_sees_todays_look(client: TestClient) -> None:
    page = client.get("/settings")
    assert page.status_code == 200
    assert "set-cookie" not in page.headers  # looking makes no player
    assert html_classes(page.text) == set()
    assert checked(page.text) == {
        "deck": "two",
        "card_size": "normal",
        "hand": "right",
        "auto_home": "safe",
        "motion": "on",
        "theme": "system",
    }
    for legend in ("Deck colours", "Card size", "Hand", "Cards going home by themselves"):
        assert f"<legend>{legend}</legend>" in page.text


def test_every_page_links_to_the_settings_and_back(client: TestClient) -> None:
    game_id = start(client, "freecell")
    for path in ("/", "/stats", "/games", f"/games/{game_id}", "/rules"):
        page = client.get(path).text
        assert f'href="/settings?back={path}"' in page, path
    page = client.get(f"/settings?back=/games/{game_id}").text
    assert f'href="/games/{game_id}">Back to where you were' in page


def test_a_plain_form_saves_and_comes_back(client: TestClient) -> None:
    game_id = start(client, "montana")
    response = client.post("/settings", data={**EVERYTHING, "next": f"/games/{game_id}?pick=A1"})
    assert response.status_code == 303
    assert response.headers["location"] == f"/games/{game_id}?pick=A1"
    game_page = client.get(f"/games/{game_id}").text
    assert html_classes(game_page) == {"deck-4", "cards-large", "hand-left", "theme-dark"}
    # Each card names its suit, which a four-colour deck colours by.
    assert len(re.findall(r'class="[a-z-]+ (?:red|black) s-[SHDC][ "]', game_page)) == 48
    response = client.post("/settings", data={"motion": "reduced", "next": "/settings?saved=1"})
    assert response.headers["location"] == "/settings?saved=1"
    page = client.get(response.headers["location"]).text
    assert "Saved: your games look like this" in page
    assert checked(page) == {**EVERYTHING, "motion": "reduced"}
    assert "motion-reduced" in html_classes(page)


def test_saving_makes_the_player_when_there_is_none(app: FastAPI, client: TestClient) -> None:
    response = client.post("/settings", data={"deck": "four", "next": "/"})
    assert response.status_code == 303
    assert "HttpOnly" in response.headers["set-cookie"]
    assert "deck-4" in html_classes(client.get("/").text)
    with TestClient(app, follow_redirects=False) as other:  # another browser: its own look
        assert html_classes(other.get("/").text) == set()


def test_htmx_saves_in_place_and_names_the_classes(client: TestClient) -> None:
    start(client, "freecell")
    response = client.post("/settings", data={"deck": "four", "next": "/settings"}, headers=HX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert "Saved: your games look like this" in response.text
    assert json.loads(response.headers["hx-trigger"]) == {
        "solitaire:settings": {
            "on": ["deck-4"],
            "off": ["cards-large", "hand-left", "motion-reduced", "theme-dark", "theme-light"],
        }
    }
    assert "deck-4" in html_classes(client.get("/settings").text)


def test_the_game_pages_auto_home_control_cycles_in_place(client: TestClient) -> None:
    game_id = start(client, "freecell")
    page = client.get(f"/games/{game_id}").text
    assert 'id="auto-home"' in page and "Auto home: safe cards" in page
    assert 'name="auto_home" value="all"' in page
    headers = {**HX, "HX-Target": "auto-home"}
    for mode, label, following in (
        ("all", "Auto home: every card", "off"),
        ("off", "Auto home: off", "safe"),
        ("safe", "Auto home: safe cards", "all"),
    ):
        answer = client.post(
            "/settings", data={"auto_home": mode, "next": f"/games/{game_id}"}, headers=headers
        )
        assert answer.status_code == 200
        assert answer.text.startswith('<form id="auto-home"')
        assert label in answer.text
        assert f'name="auto_home" value="{following}"' in answer.text
        assert f'name="next" value="/games/{game_id}"' in answer.text
        assert label in client.get(f"/games/{game_id}").text


@pytest.mark.parametrize(
    "form",
    [
        {"deck": "nine"},
        {"deck": "four", "hand": "sideways"},  # one bad value: the good one is not kept
        {"card_size": "LARGE"},
        {"auto_home": "on"},
        {"auto_moves": "maybe"},
        {"motion": "x" * 200},
        {},  # no setting at all
        {"next": "/"},
    ],
)
def test_bad_input_is_a_readable_422_and_changes_nothing(
    client: TestClient, form: dict[str, str]
) -> None:
    client.post("/settings", data={"card_size": "large", "next": "/"})
    before = client.get("/settings").text
    response = client.post("/settings", data=form)
    assert response.status_code == 422
    assert "nothing was changed" in response.text or "on or off" in response.text
    assert "<h1" in response.text  # a page, not a bare status
    assert checked(client.get("/settings").text) == checked(before)


@pytest.mark.parametrize(
    "forged",
    [
        "//evil.com",
        "https://x",
        "/\\evil.com",
        "\\\\evil.com",
        "http:evil.com",
        "/\t/evil.com",
        "evil.com",
        " //evil.com",
        "///evil.com",
        "////evil.com/x",
        "javascript:alert(1)",
        "",
    ],
)
def test_a_forged_next_goes_nowhere_but_here_and_changes_nothing(
    client: TestClient, forged: str
) -> None:
    response = client.post("/settings", data={"deck": "four", "next": forged})
    assert response.status_code == 303
    assert response.headers["location"] == "/settings"
    assert "set-cookie" not in response.headers
    assert checked(client.get("/settings").text)["deck"] == "two"
    page = client.get("/settings", params={"back": forged}).text
    assert "Back to where you were" not in page


def test_local_paths() -> None:
    assert local_path("/games/x?sel=3:2") == "/games/x?sel=3:2"
    assert local_path("/") == "/"
    for bad in (
        "//a",
        "///a",
        "////a",
        "/\\a",
        "https://a",
        "a",
        "/a\nb",
        "/a\x7f",
        "/" + "a" * 600,
    ):
        assert local_path(bad) is None, bad


def test_the_choices_go_with_the_games_to_another_device(app: FastAPI, client: TestClient) -> None:
    start(client, "freecell")
    client.post("/settings", data={**EVERYTHING, "next": "/"})
    link = make_link(client)
    with TestClient(app, follow_redirects=False) as device:
        assert html_classes(device.get("/").text) == set()
        assert device.post(link).status_code == 303
        chosen = {"deck-4", "cards-large", "hand-left", "theme-dark"}
        assert html_classes(device.get("/").text) == chosen
        assert checked(device.get("/settings").text) == {**EVERYTHING, "motion": "on"}


def test_a_game_link_opened_on_a_new_device_shows_and_plays_its_owners_table(
    app: FastAPI, client: TestClient
) -> None:
    """The game's address alone (no transfer): a device that is no player yet sees the
    game at its owner's table and plays it with the owner's automatic moves; a device
    that is a player keeps its own."""
    game_id = start(client, "freecell", deal="2")
    client.post("/settings", data={**EVERYTHING, "next": "/"})
    with TestClient(app, follow_redirects=False) as device:
        page = device.get(f"/games/{game_id}").text
        assert html_classes(page) == {"deck-4", "cards-large", "hand-left", "theme-dark"}
        assert "Auto home: every card" in page
        assert html_classes(device.get("/").text) == set()  # its own pages: its own
        # Deal #2: 8a and A♠ goes home; 1b, then A♥, 2♥ and (not a safe card) 3♥ go.
        device.post(f"/games/{game_id}/actions", data={"action": "8a", "version": "0"})
        moved = device.post(f"/games/{game_id}/actions", data={"action": "1b", "version": "2"})
        assert moved.status_code == 303
        history = device.get(f"/games/{game_id}/history").text.split()
        assert history == ["8a", "1h", "1b", "1h", "8h", "bh"]
        assert "set-cookie" not in moved.headers  # playing made the device no player
    with TestClient(app, follow_redirects=False) as other:
        start(other, "montana")  # a player of its own, with today's table
        assert html_classes(other.get(f"/games/{game_id}").text) == set()


def test_the_store_keeps_each_choice(app: FastAPI) -> None:
    """On either database (the ``app`` fixture runs on both)."""
    db = app.state.db
    player, kept = service.save_settings(db=db, player_id=None, changes={"deck": "four"})
    assert kept == service.Settings(deck="four")
    _, kept = service.save_settings(db=db, player_id=player, changes={"auto_home": "off"})
    assert kept == service.Settings(deck="four", auto_home="off")
    assert service.settings(db=db, player_id=player) == kept
    assert kept.classes == "deck-4"
    with pytest.raises(service.UnknownSetting):
        service.save_settings(db=db, player_id=player, changes={"deck": "four", "hand": "both"})
    with pytest.raises(service.UnknownSetting):
        service.save_settings(db=db, player_id=player, changes={"colour": "blue"})
    assert service.settings(db=db, player_id=player) == kept
    assert service.settings(db=db, player_id="nobody") == service.DEFAULT_SETTINGS


def test_the_game_page_offers_its_own_table_and_comes_back_to_the_game(
    client: TestClient,
) -> None:
    game_id = start(client, "montana")
    page = client.get(f"/games/{game_id}").text
    form = page[page.index('<details class="table-settings">') :]
    assert f'name="next" value="/games/{game_id}"' in form
    assert 'name="deck" value="two" checked' in form and 'name="auto_home"' not in form
    saved = client.post("/settings", data={"deck": "four", "next": f"/games/{game_id}"})
    assert saved.status_code == 303 and saved.headers["location"] == f"/games/{game_id}"
    page = client.get(f"/games/{game_id}").text
    assert html_classes(page) == {"deck-4"}
    assert 'name="deck" value="four" checked' in page
    answer = client.post(
        "/settings", data={"card_size": "large", "next": f"/games/{game_id}"}, headers=HX
    )
    assert "Saved" in answer.text and json.loads(answer.headers["hx-trigger"])
