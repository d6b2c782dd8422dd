"""Small things a player reads: Eight Off's free cells lettered a to h and Seahaven's tenth
column named 10 wherever the table or its words name them (notation keeps ``i`` and ``0``,
one key each)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.games.freecell.words import REFUSALS
from app.i18n import use_locale
from app.rules.protocol import Answer
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


# -- a solution with no winning line ---------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_a_solution_with_no_winning_line_says_so_without_steps(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    client.cookies.set("lang", language)
    game_id = start(client, "freecell", "11982")
    solvers = client.app.state.solvers  # type: ignore[attr-defined]
    monkeypatch.setattr(solvers, "ask", lambda job, wait: Answer("unsolvable", (), 1000, 0.5))
    for headers in ({}, HX):
        page = client.get(f"/games/{game_id}/solution?step=0", headers=headers)
        assert page.status_code == 200
        title = {"en": "No winning line", "hi": "कोई जिताने वाला चाल-क्रम नहीं"}
        title["ar"] = "لا يوجد تسلسل نقلات فائز"
        assert f'<h1 id="replay-title">{title[language]}:' in page.text
        assert 'class="replay-controls"' not in page.text  # no empty step controls
        assert 'id="replay-step"' not in page.text and "replay-list" not in page.text
        assert "0/0" not in page.text
        assert 'id="board"' in page.text  # the position it is about, still shown
    english = TestClient(client.app).get(f"/games/{game_id}/solution?step=0").text
    assert "No line wins from here." in english
    assert "<title>No winning line · FreeCell" in english


def test_a_solution_that_wins_keeps_its_steps(client: TestClient) -> None:
    game_id = start(client, "freecell", "1")
    client.post(f"/games/{game_id}/solution")
    page = client.get(f"/games/{game_id}/solution?step=0").text
    assert "Solution: FreeCell" in page and 'class="replay-controls"' in page


# -- the watch page, the daily page, the charts -----------------------------------------------


def test_the_watch_pages_notice_comes_before_the_table(client: TestClient) -> None:
    game_id = start(client, "freecell", "1")
    client.post(f"/games/{game_id}/share")
    token = re.search(r"/watch/([\w-]{24})", client.get(f"/games/{game_id}/share").text)
    assert token
    page = client.get(f"/watch/{token.group(1)}").text
    notice = page.index('class="watch-note"')
    assert notice < page.index('class="replay-controls"') < page.index('id="board"')
    assert page.index("</header>") < notice


def test_the_daily_tables_are_laid_out_in_a_grid(client: TestClient) -> None:
    page = client.get("/daily").text
    grid = page.index('<div class="daily-grid">')
    tables = [m.start() for m in re.finditer(r'class="panel daily-table"', page)]
    assert len(tables) >= 2 and all(at > grid for at in tables)
    assert page.index('id="yesterday"') > tables[-1]


def test_the_charts_open_on_the_players_most_played_game(client: TestClient) -> None:
    for deal in ("1", "2", "3"):
        act(client, start(client, "freecell", deal, variant="bakers"), "resign", 0)
    act(client, start(client, "montana", "1"), "resign", 0)
    page = client.get("/stats").text
    assert "Charts: FreeCell Baker&#39;s Game · you" in page
    chosen = re.search(r'<a href="\?game=([\w-]+)"[^>]*aria-current="page">', page)
    assert chosen and chosen.group(1) == "freecell-bakers"
    # Asked for, another game still opens; a new visitor gets the first game.
    assert (
        'href="?game=montana-expert" aria-current="page"'
        in client.get("/stats?game=montana-expert").text
    )
    fresh = TestClient(client.app).get("/stats").text
    assert "Charts: Montana Expert · everyone" in fresh


# -- where a held card can go ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "alone", "either"),
    [
        ("en", "Holding A♠: it can go home.", "Holding A♠: it can go to a free cell or home."),
        (
            "hi",
            "हाथ में A♠ है: इसे नींव पर रखा जा सकता है।",
            "हाथ में A♠ है: इसे किसी फ्री सेल में या नींव पर रखा जा सकता है।",
        ),
    ],
)
def test_a_card_that_can_go_home_can_go_home(
    client: TestClient, language: str, alone: str, either: str
) -> None:
    client.cookies.set("lang", language)
    client.post("/settings", data={"auto_moves": "off"})  # the ace stays where it is
    game_id = start(client, "freecell", "2", variant="cells-1")  # column 1 ends in A♠
    held = client.get(f"/games/{game_id}", params={"sel": "1"}).text
    assert either in held.replace("<bdi>", "").replace("</bdi>", "")
    act(client, game_id, "2a", 0)  # the one free cell taken: home is the only place
    held = client.get(f"/games/{game_id}", params={"sel": "1"}).text
    assert alone in held.replace("<bdi>", "").replace("</bdi>", "")
    assert "go to home" not in held
