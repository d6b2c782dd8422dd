"""Small things a player reads: Eight Off's free cells lettered a to h and Seahaven's tenth
column named 10 wherever the table or its words name them (notation keeps ``i`` and ``0``,
one key each)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.games.freecell.words import REFUSALS
from app.i18n import use_locale
from tests.web.helpers import HX, act, start


def test_eight_offs_free_cells_are_lettered_a_to_h(client: TestClient) -> None:
    game_id = start(client, "freecell", "1", variant="eight-off")
    page = client.get(f"/games/{game_id}").text
    cells = re.findall(r'aria-label="free cell (\w)[,:]', page)
    assert cells == list("abcdefgh")
    shown = re.findall(r'class="fc-cell[^"]*"[^>]*data-label="(\w+)"', page)
    assert shown == list("abcdefgh")  # drawn above each cell (in capitals, by CSS)
    moved = act(client, game_id, "1i", 0, **HX)  # notation: i, the eighth cell
    assert moved.status_code == 200
    assert "free cell h, 6 of diamonds" in moved.text
    replay = client.get(f"/games/{game_id}/replay").text
    assert "from column 1 to free cell h" in replay
    assert "free cell i" not in replay + moved.text


def test_seahavens_tenth_column_is_10(client: TestClient) -> None:
    game_id = start(client, "freecell", "1", variant="seahaven")
    page = client.get(f"/games/{game_id}").text
    assert "column 10, 9 of clubs at the bottom" in page
    assert "column 0" not in page
    shown = re.findall(r'class="fc-column[^"]*"[^>]*data-label="(\w+)"', page)
    assert shown == [*map(str, range(1, 11))]
    held = client.get(f"/games/{game_id}", params={"sel": "0"}).text  # its key is still 0
    assert "Holding" in held


@pytest.mark.parametrize(
    ("code", "params", "words"),
    [
        ("freecell.empty_column", {"column": "0"}, "Column 10 is empty."),
        ("freecell.empty_cell", {"cell": "i"}, "Free cell h is empty."),
        ("freecell.empty_column", {"column": "3"}, "Column 3 is empty."),
    ],
)
def test_refusals_name_places_as_the_table_shows_them(
    code: str, params: dict[str, object], words: str
) -> None:
    with use_locale("en"):
        assert REFUSALS[code](params) == words
