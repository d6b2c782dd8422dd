"""Every variant of every game through HTTP: started from the home page's form, played,
hinted, solved, replayed, exported and counted in the statistics."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from app.games import KINDS
from app.web.names import variant_name
from tests.web.helpers import HX, act, start


def patiently(ask: Callable[[], httpx.Response]) -> httpx.Response:
    """Ask again while the solver is busy with the searches earlier tests left running."""
    deadline = time.monotonic() + 120  # a bound for liveness on a loaded machine
    while (response := ask()).status_code == 429 and time.monotonic() < deadline:
        time.sleep(1)
    return response


def named(kind: str, variant: str) -> str:
    """The variant's name as a page writes it (HTML-escaped)."""
    return str(escape(variant_name(kind, variant)))


VARIANTS = [(kind, variant) for kind, game in KINDS.items() for variant in game.rules.variants]


@pytest.mark.parametrize(("kind", "variant"), VARIANTS)
def test_each_variant_starts_plays_and_exports(client: TestClient, kind: str, variant: str) -> None:
    rules = KINDS[kind].rules
    home = client.get("/").text
    assert f'name="variant" value="{variant}"' in home
    game_id = start(client, kind, "2", variant=variant)
    page = client.get(f"/games/{game_id}").text
    assert named(kind, variant) in page
    text = client.get(f"/games/{game_id}/position").text
    assert text == rules.new_game(2, variant).to_text()
    assert rules.parse(text) == rules.new_game(2, variant)
    move = rules.parse(text).legal_moves()[0].notation
    response = act(client, game_id, move, 0, **HX)
    assert response.status_code == 200, response.text
    assert client.get(f"/games/{game_id}/history").text.splitlines()[0] == move
    assert client.get(f"/games/{game_id}/replay").status_code == 200


@pytest.mark.parametrize("variant", KINDS["freecell"].rules.variants)
def test_each_freecell_variant_is_hinted_checked_and_solved(
    client: TestClient, variant: str
) -> None:
    """(A Montana search runs for long: its own tests ask it, for both its variants.)"""
    rules = KINDS["freecell"].rules  # the first deal with a move (Forecell #1 has none)
    deal = next(deal for deal in range(1, 10) if not rules.new_game(deal, variant).is_lost())
    game_id = start(client, "freecell", str(deal), variant=variant)
    hint = patiently(lambda: client.post(f"/games/{game_id}/hint", headers=HX))
    assert hint.status_code == 200 and " hint" in hint.text
    check = patiently(lambda: client.get(f"/games/{game_id}?check=1", headers=HX))
    assert check.status_code == 200
    patiently(lambda: client.post(f"/games/{game_id}/solution", headers=HX))  # counted
    solution = patiently(lambda: client.get(f"/games/{game_id}/solution?step=0"))
    assert solution.status_code == 200
    assert named("freecell", variant) in solution.text


def test_every_variant_has_its_row_in_the_statistics(client: TestClient) -> None:
    page = client.get("/stats").text
    for kind, variant in VARIANTS:
        assert named(kind, variant) in page, variant


def test_an_unknown_variant_is_refused(client: TestClient) -> None:
    response = client.post("/games", data={"kind": "freecell", "variant": "spider", "deal": "1"})
    assert response.status_code == 422
    assert "FreeCell has no variant" in response.text


def test_the_rules_page_describes_every_freecell_variant(client: TestClient) -> None:
    page = client.get("/rules/freecell").text
    for variant in KINDS["freecell"].rules.variants[1:]:
        assert named("freecell", variant) in page


def test_seahaven_draws_ten_columns_and_eight_off_eight_cells(client: TestClient) -> None:
    page = client.get(f"/games/{start(client, 'freecell', '1', variant='seahaven')}").text
    assert 'data-columns="10" data-cells="4"' in page
    assert 'data-drop="0"' in page
    page = client.get(f"/games/{start(client, 'freecell', '1', variant='eight-off')}").text
    assert 'data-columns="8" data-cells="8"' in page
    assert 'data-drop="i"' in page and 'data-drop="h"' in page


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_the_rules_page_describes_blue_moon_and_red_moon(client: TestClient, language: str) -> None:
    page = client.get("/rules/montana", headers={"Accept-Language": language}).text
    names = {"en": ("Blue Moon", "Red Moon"), "hi": ("ब्लू मून", "रेड मून")}
    for name in names.get(language, ("القمر الأزرق", "القمر الأحمر")):
        assert name in page


def test_blue_moon_draws_each_row_s_ace_before_column_one_and_plays(client: TestClient) -> None:
    game_id = start(client, "montana", "1", variant="blue-moon")
    page = client.get(f"/games/{game_id}").text
    assert 'class="grid headed"' in page
    assert page.count('role="rowheader"') == 4
    assert 'aria-label="ace of diamonds, at the head of row A: the row&#39;s suit"' in page
    moved = act(client, game_id, "6S A13", 0, **HX)
    assert moved.status_code == 200
    # Red Moon: column 1 takes the row's own 2 only; another is refused with the reason.
    red = start(client, "montana", "1", variant="red-moon")
    refused = client.post(
        f"/games/{red}/actions", data={"action": "2D A1", "version": "0"}, headers=HX
    )
    assert refused.status_code == 422
    assert "its row begins with" in refused.text
    assert act(client, red, "2C A1", 0, **HX).status_code == 200


@pytest.mark.parametrize("variant", ["blue-moon", "red-moon"])
def test_each_moon_is_hinted_checked_and_solved(client: TestClient, variant: str) -> None:
    """Red Moon #5 and Blue Moon #2 clear their first round (test_montana_moons.py): the
    hint, the verdict and the solution say so, and the hint names the move it lights."""
    deal = "2" if variant == "blue-moon" else "5"
    game_id = start(client, "montana", deal, variant=variant)
    hint = patiently(lambda: client.post(f"/games/{game_id}/hint", headers=HX))
    assert hint.status_code == 200
    # The hint's 0.9 s may end before the round is searched through: then its best so far.
    assert "Hint:" in hint.text or "Still thinking: the best move found so far" in hint.text
    patiently(lambda: client.post(f"/games/{game_id}/solution", headers=HX))  # counted
    solution = patiently(lambda: client.get(f"/games/{game_id}/solution?step=0"))
    assert solution.status_code == 200
    assert "This line clears the round without another redeal." in solution.text
    assert named("montana", variant) in solution.text
    check = patiently(lambda: client.get(f"/games/{game_id}?check=1", headers=HX))
    assert "Yes: this round can be cleared without another redeal" in check.text
