"""A deal's par over HTTP: its records page shows it, a win says how it compares, and a
win with fewer moves becomes the par (forms posted as a browser does, with and without
JavaScript)."""

from __future__ import annotations

import re
import time

from fastapi.testclient import TestClient

from app.games import game_kind
from app.service import pars
from app.store import Database
from app.store import pars as store_pars
from tests.web.helpers import HX, act, start

RULES = game_kind("freecell").rules


def _par_of(page: str) -> str:
    found = re.search(r'<p class="par[^"]*" data-par="([^"]+)"', page)
    assert found, page
    return found.group(1)


def test_a_deals_records_page_shows_its_par_in_words(client: TestClient, db: Database) -> None:
    page = client.get("/deals/freecell/1")
    assert page.status_code == 200
    par = pars.known(db=db, variant="standard", deal=1)
    assert par is not None and par.source == "solver"
    assert _par_of(page.text) == str(par.moves)
    assert f"Par: {par.moves} moves." in page.text
    assert "win set it" not in page.text  # a solver's line
    with db.read() as session:
        row = store_pars.par(session, "freecell", "standard", 1)
        assert row is not None
        assert pars.counted(RULES.new_game(1, "standard"), row.line.split()) == par.moves
    # Each variant keeps its own.
    page = client.get("/deals/freecell/1?variant=eight-off")
    eight_off = pars.known(db=db, variant="eight-off", deal=1)
    assert eight_off is not None and _par_of(page.text) == str(eight_off.moves)
    # The fragment alone (what the page asks for while the par is worked out).
    fragment = client.get("/deals/freecell/1/par?variant=standard", headers=HX)
    assert fragment.status_code == 200 and _par_of(fragment.text) == str(par.moves)


def test_no_par_for_a_deal_proved_impossible_nor_for_montana(client: TestClient) -> None:
    page = client.get("/deals/freecell/11982").text
    assert "Proved impossible." in page
    assert "data-par" not in page
    assert "data-par" not in client.get("/deals/montana/1").text


def test_a_par_being_worked_out_says_so_and_a_later_view_shows_it(
    client: TestClient, db: Database
) -> None:
    client.app.state.solvers.par_wait = 0.0  # type: ignore[attr-defined]
    page = client.get("/deals/freecell/5").text
    assert _par_of(page) == "working"
    assert "is being worked out: look again in a moment." in page
    assert 'hx-get="/deals/freecell/5/par?variant=standard"' in page
    assert pars.known(db=db, variant="standard", deal=5) is None
    deadline = time.monotonic() + 120  # liveness only: the search runs in its own process
    while _par_of(page) == "working" and time.monotonic() < deadline:
        time.sleep(0.2)
        page = client.get("/deals/freecell/5").text
    par = pars.known(db=db, variant="standard", deal=5)
    assert par is not None and _par_of(page) == str(par.moves)


def _play(client: TestClient, game_id: str, line: list[str], *, js: bool) -> str:
    """Plays ``line`` as a player would (the game sends the safe cards home by itself);
    the last move posted as a plain form (JavaScript off) unless ``js``. The page after."""
    position, moved, version = RULES.new_game(1, "standard"), False, 0
    posted = []
    for text in line:
        automatic = position.automatic_move("safe") if moved else None
        if automatic is not None and automatic.notation == text:
            position = position.play(automatic)
            continue
        position, moved = position.play(position.parse_action(text)), True
        posted.append(text)
    page = ""
    for number, text in enumerate(posted):
        last = number == len(posted) - 1
        response = act(client, game_id, text, version, **({} if last and not js else HX))
        if last and not js:
            assert response.status_code == 303
            page = client.get(response.headers["location"]).text
        else:
            assert response.status_code == 200, response.text
            page = response.text
            version = int(re.search(r'data-version="(\d+)"', page).group(1))  # type: ignore[union-attr]
    return page


def _solver_line(client: TestClient, db: Database) -> tuple[int, list[str]]:
    client.get("/deals/freecell/1")
    with db.read() as session:
        row = store_pars.par(session, "freecell", "standard", 1)
        assert row is not None
        return row.moves, row.line.split()


def _set_par(db: Database, moves: int) -> None:
    with db.write() as session:
        row = store_pars.par(session, "freecell", "standard", 1)
        assert row is not None
        row.moves = moves


def _said(page: str) -> str:
    found = re.search(r'<p class="par-said"[^>]*>(.*?)</p>', page, re.S)
    assert found, page
    return found.group(1).strip()


def test_a_win_with_more_moves_than_par_says_both(client: TestClient, db: Database) -> None:
    _, line = _solver_line(client, db)
    game_id = start(client, "freecell", "1")
    page = _play(client, game_id, line, js=False)
    moves = int(re.search(r'data-moves="(\d+)"', page).group(1))  # type: ignore[union-attr]
    par = pars.known(db=db, variant="standard", deal=1)
    assert par is not None and moves == par.moves  # the solver's own line: par exactly
    assert (
        _said(page)
        == f"You won in {moves} moves, as few as the shortest line we know: you matched par."
    )
    _set_par(db, moves - 7)
    page = client.get(f"/games/{game_id}").text
    assert _said(page) == f"You won in {moves} moves; the shortest line we know has {moves - 7}."
    assert pars.known(db=db, variant="standard", deal=1) == pars.Par(moves - 7, "solver")


def test_a_win_under_par_becomes_the_par(client: TestClient, db: Database) -> None:
    moves, line = _solver_line(client, db)
    _set_par(db, moves + 4)
    game_id = start(client, "freecell", "1")
    page = _play(client, game_id, line, js=True)  # the answer to the winning move itself
    expected = (
        f"You won in {moves} moves, fewer than the shortest line we knew ({moves + 4}): "
        "your line is the new par."
    )
    assert _said(page) == expected
    # A screen reader hears it with the winning move.
    announcer = re.search(r'<div id="announcer"[^>]*>(.*?)</div>', page, re.S)
    assert announcer and expected in announcer.group(1)
    assert pars.known(db=db, variant="standard", deal=1) == pars.Par(moves, "player")
    with db.read() as session:
        row = store_pars.par(session, "freecell", "standard", 1)
        assert row is not None and row.game_id == game_id and row.previous == moves + 4
    # Seen again, the page still says what the win beat; the records page shows the par.
    assert _said(client.get(f"/games/{game_id}").text) == expected
    records = client.get("/deals/freecell/1").text
    assert _par_of(records) == str(moves)
    assert "A player&#39;s win set it." in records or "A player's win set it." in records


def test_a_par_asked_of_no_deal_is_refused_in_words_and_nothing_is_stored(
    client: TestClient, db: Database
) -> None:
    for url in (
        "/deals/freecell/abc/par",
        "/deals/freecell/0/par",
        "/deals/freecell/99999999999/par",
        "/deals/nope/1/par",
        "/deals/freecell/1/par?variant=bogus",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "<title>" in response.text and "Internal" not in response.text
    assert pars.known(db=db, variant="standard", deal=1) is None
    # A game with no par, or a deal proved impossible: nothing to show, nothing searched.
    assert "data-par" not in client.get("/deals/montana/1/par").text
    assert "data-par" not in client.get("/deals/freecell/11982/par").text
