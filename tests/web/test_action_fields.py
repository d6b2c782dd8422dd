"""``POST /games/{id}/actions`` with ``source`` and ``target`` (a drag and drop) instead of
``action``: the engine names the move, the answer is the one a posted ``action`` gets."""

from __future__ import annotations

import httpx
from fastapi.testclient import TestClient

from app.games.freecell import rules as freecell
from tests.rules.test_action_between import ONE_EMPTY_COLUMN
from tests.web import helpers
from tests.web.helpers import HX
from tests.web.test_freecell_http import _force

URL_ENCODED = "application/x-www-form-urlencoded"


def history(client: TestClient, game_id: str) -> list[str]:
    return client.get(f"/games/{game_id}/history").text.splitlines()


def drop(client: TestClient, game_id: str, version: int, **fields: str) -> httpx.Response:
    data = {"version": str(version), **fields}
    return client.post(f"/games/{game_id}/actions", data=data, headers=HX)


def test_a_freecell_drop_plays_the_move_between_the_places(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    page = drop(client, game_id, 0, source="8", target="a", held="1")
    assert page.status_code == 200
    assert 'id="game"' in page.text
    assert history(client, game_id) == ["8a"]


def test_a_run_into_an_empty_column_is_capped_and_says_so(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    _force(client, game_id, ONE_EMPTY_COLUMN)  # 2 of column 1's run fit in column 8
    page = drop(client, game_id, 0, source="1", target="8", held="5").text
    assert "went to the empty column 8: at most 2 cards can move into an empty column" in page
    assert "2 cards from column 1 to column 8." in page
    assert history(client, game_id)[0] == "18v2"  # then the safe cards home


def test_a_montana_drop_names_cells(client: TestClient) -> None:
    game_id = helpers.start(client, "montana")
    assert drop(client, game_id, 0, source="D10", target="A13").status_code == 200
    assert history(client, game_id) == ["6S A13"]


def test_without_javascript_the_answer_is_a_redirect(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    data = {"version": "0", "source": "8", "target": "a"}
    response = client.post(f"/games/{game_id}/actions", data=data)
    assert response.status_code == 303
    assert response.headers["location"].endswith(f"/games/{game_id}?moved=1.p-a.1")
    assert history(client, game_id) == ["8a"]


def test_action_wins_over_places(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    drop(client, game_id, 0, action="5a", source="8", target="b")
    assert history(client, game_id) == ["5a"]


def test_a_refused_drop_says_why_and_keeps_the_cards_held(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    page = drop(client, game_id, 0, source="1", target="h", held="1")  # 6S: spades at 0
    assert page.status_code == 422
    assert "6♠ cannot go home yet" in page.text
    assert 'class="fc-board holding"' in page.text
    assert "6 of spades, column 1, bottom card, selected" in page.text
    assert history(client, game_id) == []


def test_places_that_name_nothing_are_refused(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    page = drop(client, game_id, 0, source="1", target="z")
    assert page.status_code == 422
    assert "is not a column, a free cell or home" in page.text
    assert drop(client, game_id, 0).status_code == 422  # neither an action nor places
    montana_id = helpers.start(client, "montana")
    page = drop(client, montana_id, 0, source="A13", target="B9")
    assert page.status_code == 422
    assert "A13 is a gap: there is no card to move." in page.text


def test_a_drop_on_an_old_version_is_stale(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    drop(client, game_id, 0, source="8", target="a")
    page = drop(client, game_id, 0, source="5", target="b")
    assert page.status_code == 409
    assert "This game moved on" in page.text
    assert history(client, game_id) == ["8a"]
    start = freecell.new_game(1)
    assert freecell.parse(client.get(f"/games/{game_id}/position").text) == start.play(
        start.parse_action("8a")
    )


def test_a_move_without_its_version_or_with_a_field_too_long_is_refused_readably(
    client: TestClient,
) -> None:
    game_id = helpers.start(client, "montana")
    missing = client.post(f"/games/{game_id}/actions", data={"action": "6S A13"})
    assert missing.status_code == 422
    assert "missing, too long or malformed" in missing.text and "version" in missing.text
    long = client.post(
        f"/games/{game_id}/actions", data={"version": "0", "action": "6S A13" + " " * 64}
    )
    assert long.status_code == 422 and "action" in long.text
    upload = client.post(
        f"/games/{game_id}/actions",
        data={"version": "0"},
        files={"action": ("move.txt", b"6S A13", "text/plain")},
    )
    assert upload.status_code == 422
    assert history(client, game_id) == [], "nothing was played"


def test_the_move_form_reads_the_same_urlencoded_or_multipart(client: TestClient) -> None:
    """A URL-encoded body (browsers, htmx) is read by the standard library, a multipart one
    by Starlette: the same fields, ``+`` and percent escapes decoded alike."""
    game_id = helpers.start(client, "montana")
    url = f"/games/{game_id}/actions"
    encoded = client.post(
        url,
        content=b"version=0&action=6S%20A13&shown=",
        headers={**HX, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert encoded.status_code == 200
    multipart = client.post(
        url, files={"version": (None, "1"), "action": (None, "undo")}, headers=HX
    )
    assert multipart.status_code == 200
    plus = client.post(
        url,
        content=b"version=2&action=6S+A13",
        headers={**HX, "Content-Type": "application/x-www-form-urlencoded; charset=utf-8"},
    )
    assert plus.status_code == 200
    assert history(client, game_id) == ["6S A13", "undo", "6S A13"]


def test_fields_the_move_form_does_not_have_are_ignored_but_a_thousand_are_refused(
    client: TestClient,
) -> None:
    game_id = helpers.start(client, "montana")
    url, form = f"/games/{game_id}/actions", {**HX, "Content-Type": URL_ENCODED}
    extra = "&".join(f"x{n}=1" for n in range(40))
    flood = "&".join(f"x{n}=1" for n in range(1001))
    response = client.post(url, content=f"version=0&action=6S+A13&{flood}".encode(), headers=form)
    assert response.status_code == 422
    assert "malformed" in response.text
    assert history(client, game_id) == []
    played = client.post(url, content=f"version=0&action=6S+A13&{extra}".encode(), headers=form)
    assert played.status_code == 200
    assert history(client, game_id) == ["6S A13"]


def test_a_new_games_form_names_its_fields_in_the_readers_words(client: TestClient) -> None:
    """A field a player fills is named as the form asks it, in the reader's language; a
    field no person types keeps its name (isolated)."""
    too_long = {"kind": "x" * 65, "deal": "1" * 65}
    english = client.post("/games", data=too_long)
    assert english.status_code == 422
    assert "the game, the deal number." in english.text
    hindi = client.post("/games", data=too_long, headers={"Accept-Language": "hi"})
    assert "गेम, डील नंबर" in hindi.text and "kind" not in hindi.text
