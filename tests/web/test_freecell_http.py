"""FreeCell through HTTP: start, select, move, automatic moves, all home, settings, restart."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.games.freecell import rules as freecell
from tests.web import helpers
from tests.web.helpers import HX, act

# Two cards from a win: 7 moves left for the player would be many; this needs one move and
# then automatic moves finish the game.
ALMOST_WON = """\
Foundations: H-K C-K D-Q S-Q
: KD
: KS
:
:
:
:
:
:
"""


def start(client: TestClient, deal: str = "1") -> str:
    return helpers.start(client, "freecell", deal)


def position(client: TestClient, game_id: str) -> freecell.FreeCellPosition:
    return freecell.parse(client.get(f"/games/{game_id}/position").text)


def history(client: TestClient, game_id: str) -> list[str]:
    return client.get(f"/games/{game_id}/history").text.splitlines()


def test_home_offers_freecell(client: TestClient) -> None:
    assert "Play FreeCell" in client.get("/").text


def test_deal_1_page_title_and_layout(client: TestClient) -> None:
    game_id = start(client, "1")
    page = client.get(f"/games/{game_id}").text
    assert "<title>FreeCell #1 " in page
    assert client.get(f"/games/{game_id}/position").text == freecell.new_game(1).to_text()
    assert 'aria-label="column 1, 6 of spades at the bottom"' in page
    assert "Cards left" in page


def test_deal_11982(client: TestClient) -> None:
    game_id = start(client, "11982")
    assert "FreeCell #11982" in client.get(f"/games/{game_id}").text
    assert position(client, game_id) == freecell.new_game(11982)


def test_selecting_marks_the_run_and_the_destinations(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}?sel=5", headers=HX).text
    assert "Holding 6♣" in page
    assert page.count("fc-card black selected") == 1
    for cell in "abcd":
        assert f'value="5{cell}"' in page
    assert 'value="5h"' not in page
    # Selection is a state of the page: nothing is stored.
    assert history(client, game_id) == []


@pytest.mark.parametrize("sel", ["9", "5:3", "a", "zz", "5:x"])
def test_a_selection_of_nothing_is_ignored(client: TestClient, sel: str) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}?sel={sel}", headers=HX)
    assert page.status_code == 200
    assert "Holding" not in page.text


def test_move_to_a_free_cell_without_javascript(client: TestClient) -> None:
    game_id = start(client)
    response = act(client, game_id, "8a", 0)
    assert response.status_code == 303
    after = position(client, game_id)
    assert after.cells[0] is not None
    assert after.cells[0].text == "TC"
    assert history(client, game_id) == ["8a"]


def test_automatic_moves_follow_and_one_undo_takes_them_back(client: TestClient) -> None:
    game_id = start(client)
    # Deal #1, column 6 is 7H QC AS AC 2C 3D: with 3D and 2C in free cells, AC, 2C and AS
    # go home by themselves, lowest rank first.
    act(client, game_id, "6a", 0)
    act(client, game_id, "6b", 1)
    rows = history(client, game_id)
    assert rows == ["6a", "6b", "6h", "6h", "bh"]
    assert position(client, game_id).foundations == (2, 0, 0, 1)
    page = act(client, game_id, "undo", len(rows), **HX)
    assert page.status_code == 200
    assert position(client, game_id) == freecell.new_game(1).play(freecell.FreeCellMove("6", "a"))


def test_auto_home_can_be_switched_off_per_player(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    assert "Auto home: safe cards" in page
    response = client.post("/settings", data={"auto_home": "off", "next": f"/games/{game_id}"})
    assert response.status_code == 303
    assert response.headers["location"] == f"/games/{game_id}"
    assert "Auto home: off" in client.get(f"/games/{game_id}").text
    act(client, game_id, "6a", 0)
    act(client, game_id, "6b", 1)
    assert history(client, game_id) == ["6a", "6b"]
    assert "All home" in client.get(f"/games/{game_id}").text
    act(client, game_id, "all-home", 2)
    rows = history(client, game_id)
    assert rows == ["6a", "6b", "6h", "6h", "bh"]
    act(client, game_id, "undo", len(rows))
    assert history(client, game_id)[-1] == "undo"
    assert position(client, game_id).foundations == (0, 0, 0, 0)


def test_settings_refuse_other_sites_and_bad_values(client: TestClient) -> None:
    response = client.post("/settings", data={"auto_moves": "off", "next": "//evil.example/"})
    assert response.headers["location"] == "/settings"
    assert client.post("/settings", data={"auto_moves": "maybe"}).status_code == 422


def test_the_old_auto_home_switch_still_works(client: TestClient) -> None:
    """A FreeCell page drawn before the three modes posts ``auto_moves`` on or off."""
    game_id = start(client)
    client.post("/settings", data={"auto_moves": "off", "next": f"/games/{game_id}"})
    assert "Auto home: off" in client.get(f"/games/{game_id}").text
    client.post("/settings", data={"auto_moves": "on", "next": f"/games/{game_id}"})
    assert "Auto home: safe cards" in client.get(f"/games/{game_id}").text


def test_auto_home_all_sends_every_card_that_can_go(client: TestClient) -> None:
    """Deal 2, 8a then 1b: safe cards send AS, AH and 2H home; "every card" sends 3H from
    free cell b too (not safe: the black 2s are not home). One undo takes the move and
    all its automatic moves back."""
    safe_game, all_game = start(client, "2"), start(client, "2")
    for game_id in (safe_game, all_game):
        act(client, game_id, "8a", 0)
    act(client, safe_game, "1b", 2)
    assert history(client, safe_game) == ["8a", "1h", "1b", "1h", "8h"]
    client.post("/settings", data={"auto_home": "all", "next": "/"})
    assert "Auto home: every card" in client.get(f"/games/{all_game}").text
    act(client, all_game, "1b", 2)
    rows = history(client, all_game)
    assert rows == ["8a", "1h", "1b", "1h", "8h", "bh"]
    assert position(client, all_game).foundations == (0, 0, 3, 1)  # C D H S: up to 3H, AS
    act(client, all_game, "undo", len(rows))
    after_first = freecell.new_game(2).play(freecell.FreeCellMove("8", "a"))
    assert position(client, all_game) == after_first.play(after_first.automatic_move())


def test_illegal_and_too_long_moves_are_422(client: TestClient) -> None:
    game_id = start(client)
    response = act(client, game_id, "12", 0, **HX)
    assert response.status_code == 422
    assert "6♠ cannot go on 9♣: only 8♦ or 8♥ goes there." in response.text
    response = act(client, game_id, "ab", 0, **HX)
    assert response.status_code == 422
    response = act(client, game_id, "all-home", 0, **HX)
    assert response.status_code == 422
    assert "No card can go home now" in response.text
    assert history(client, game_id) == []


def test_the_supermove_limit_is_explained(client: TestClient) -> None:
    game_id = start(client)
    _force(
        client,
        game_id,
        """\
Foundations: H-8 C-8 D-8 S-8
Freecells: KS QH JS TH
: QS JH TS 9H
: KH
: 9S
: 9C TC
: JC QC
: KC 9D
: TD JD
: QD KD
""",
    )
    response = act(client, game_id, "12", 0, **HX)
    assert response.status_code == 422
    assert (
        "A run of 4 cards cannot move onto column 2: with no empty free cell and no empty "
        "column, at most 1 card moves at once."
    ) in response.text


def test_a_win_ends_the_game(client: TestClient) -> None:
    game_id = start(client)
    _force(client, game_id, ALMOST_WON)
    page = act(client, game_id, "1h", 0, **HX).text
    assert "You won FreeCell #1 in" in page
    assert history(client, game_id) == ["1h", "2h"]
    assert position(client, game_id).is_won()


def test_give_up_records_the_cards_left(client: TestClient) -> None:
    game_id = start(client)
    page = act(client, game_id, "resign", 0, **HX).text
    assert "You gave up" in page
    assert "52 cards left" in page


def test_restart_gives_up_and_deals_again(client: TestClient) -> None:
    game_id = start(client, "617")
    act(client, game_id, "1a", 0)
    response = client.post(f"/games/{game_id}/restart", data={"version": "1"})
    assert response.status_code == 303
    new_id = response.headers["location"].rsplit("/", 1)[1]
    assert new_id != game_id
    assert position(client, new_id) == freecell.new_game(617)
    assert history(client, game_id)[-1] == "resign"


def _force(client: TestClient, game_id: str, text: str) -> None:
    """Put a constructed position in place (tests only: the service never does this)."""
    from sqlalchemy import update

    from app.store.models import GameRecord

    with client.app.state.db.write() as session:  # type: ignore[attr-defined]
        session.execute(update(GameRecord).where(GameRecord.id == game_id).values(position=text))


def test_a_free_cell_card_can_be_picked_up_and_put_on_a_column(client: TestClient) -> None:
    game_id = start(client)
    act(client, game_id, "8a", 0)  # 10♣ to free cell a: column 8 ends in 7♦
    act(client, game_id, "1b", 1)  # 6♠ to free cell b
    page = client.get(f"/games/{game_id}?sel=b", headers=HX)
    assert page.status_code == 200
    assert "Holding 6♠" in page.text
    assert 'value="b8"' in page.text
    assert 'value="ba"' not in page.text
    assert 'value="bc"' not in page.text
    assert client.get(f"/games/{game_id}?sel=b").status_code == 200
    assert act(client, game_id, "b8", 2).status_code == 303
    assert history(client, game_id) == ["8a", "1b", "b8"]


def test_fewer_cards_than_picked_up_are_named(client: TestClient) -> None:
    game_id = start(client)
    _force(client, game_id, RUN_AND_EMPTY)
    data = {"action": "12v2", "version": "0", "held": "4"}
    page = client.post(f"/games/{game_id}/actions", data=data, headers=HX).text
    # Asked for 2 ("v2"): no empty column's limit held the others back, so none is named.
    assert "Only" not in page and "at most" not in page
    assert "2 cards from column 1 to column 2." in page


def test_restart_asks_first(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    assert "Restart this deal? The game in play counts as lost." in page


RUN_AND_EMPTY = """\
Foundations: H-0 C-0 D-0 S-0
Freecells: KH KD QC QS
: 9C 8H 7S 6D
:
: AC 2C 3C 4C 5C 6C 7C 8C TC JC KC
: AD 2D 3D 4D 5D 7D 8D 9D TD JD QD
: AH 2H 3H 4H 5H 6H 7H 9H TH JH QH
: AS 2S 3S 4S 5S 6S 8S 9S TS JS KS
:
:
"""
"""A run of 4 in column 1, free cells full, one other empty column: at most 2 into it."""


def test_without_javascript_the_page_marks_the_cards_the_last_move_played(
    client: TestClient,
) -> None:
    """A move posted without JavaScript goes back to the game page saying where its cards
    lie (``moved``): the place holding them says how many of its last cards they are, so
    the stylesheet rings them. A run of several cards, a card to a free cell; nothing once
    the game has moved on (another tab, an undo) or when the note is not one."""
    game_id = start(client, "1")
    answer = act(client, game_id, "1a", 0)  # a card to a free cell
    assert answer.headers["location"].endswith("?moved=1.p-a.1")
    assert 'id="p-a" data-moved-cards="1"' in client.get(answer.headers["location"]).text
    game_id = start(client, "12")  # its first column's last two cards go onto the fifth
    move = freecell.new_game(12).parse_action("15")
    assert move.count == 2
    answer = act(client, game_id, "15", 0)
    assert answer.status_code == 303
    found = re.search(rf"/games/{game_id}\?moved=(\d+)\.p-5\.2$", answer.headers["location"])
    assert found is not None, answer.headers["location"]  # the version after its auto moves
    version = int(found[1])
    page = client.get(answer.headers["location"]).text
    assert page.count("data-moved-cards") == 1
    assert f'id="p-{move.target}" data-moved-cards="{move.count}"' in page
    assert f'data-moved="p-{move.target}" data-moved-count="{move.count}"' in page  # for site.js
    # An undo plays no cards: its page marks none; the old note no longer holds either.
    undone = act(client, game_id, "undo", version)
    assert "moved=" not in undone.headers["location"]
    assert "data-moved-cards" not in client.get(answer.headers["location"]).text
    for note in ("x", "1.p-3", f"{version + 1}.p-{move.target}.999", "9" * 40):
        shown = client.get(f"/games/{game_id}", params={"moved": note})
        assert shown.status_code == 200
        assert "data-moved-cards" not in shown.text
