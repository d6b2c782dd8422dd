"""A click made on a board the game has moved on from (its ``v``, or a hint form's
``version``, behind the game's) does nothing and says the game moved on elsewhere."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web import helpers
from tests.web.helpers import HX

MOVED_ON = "This game moved on in another tab or device"


def history(client: TestClient, game_id: str) -> list[str]:
    return client.get(f"/games/{game_id}/history").text.splitlines()


def test_a_pick_up_on_an_old_board_picks_nothing_up(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    helpers.act(client, game_id, "8a", 0)
    old = client.get(f"/games/{game_id}?sel=8&v=0", headers=HX)
    assert old.status_code == 409
    assert MOVED_ON in old.text
    assert "Holding" not in old.text
    current = client.get(f"/games/{game_id}?sel=8&v=1", headers=HX)
    assert current.status_code == 200
    assert "Holding" in current.text
    # Without JavaScript: back to the game's page, which says so.
    plain = client.get(f"/games/{game_id}?sel=8&v=0", follow_redirects=False)
    assert plain.status_code == 303
    assert plain.headers["location"].endswith("?stale=1")


def test_a_hint_from_an_old_board_is_not_counted(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    helpers.act(client, game_id, "8a", 0)
    old = client.post(f"/games/{game_id}/hint", data={"version": "0"}, headers=HX)
    assert old.status_code == 409
    assert MOVED_ON in old.text
    assert 'class="fc-card' in old.text
    assert history(client, game_id) == ["8a"]
    plain = client.post(f"/games/{game_id}/hint", data={"version": "0"}, follow_redirects=False)
    assert plain.status_code == 303
    assert plain.headers["location"].endswith("?stale=1")


def test_a_version_that_is_no_number_is_behind(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell")
    response = client.get(f"/games/{game_id}?v=%EF%BC%91", headers=HX)  # a fullwidth 1
    assert response.status_code == 409
    assert MOVED_ON in response.text
