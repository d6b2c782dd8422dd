"""Hints and "still winnable?": pointed at, never played, counted."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from app import service
from tests.web.helpers import HX, act, start

NEARLY_WON_FREECELL = "Foundations: H-K C-K D-Q S-Q\n: KD\n: KS\n"


def force(client: TestClient, game_id: str, text: str) -> None:
    from sqlalchemy import update

    from app.store.models import GameRecord

    with client.app.state.db.write() as session:  # type: ignore[attr-defined]
        session.execute(update(GameRecord).where(GameRecord.id == game_id).values(position=text))


def test_a_montana_hint_points_at_a_move_and_plays_nothing(client: TestClient) -> None:
    game_id = start(client)
    response = client.post(f"/games/{game_id}/hint", headers=HX)
    assert response.status_code == 200
    # A loaded machine may run out of the hint's second: then it offers its best so far.
    assert "Hint:" in response.text or "Still thinking" in response.text
    assert response.text.count(' hint"') + response.text.count(" hint ") >= 2
    assert client.get(f"/games/{game_id}/history").text == ""
    assert "<dt>Hints</dt><dd>1</dd>" in response.text


def test_a_montana_hint_still_thinking_invites_asking_again(client: TestClient) -> None:
    # Deal #46's first round takes 8.9 million positions, more than a solver process holds:
    # no hint settles it.
    game_id = start(client, deal="46")
    for asked in (1, 2):
        response = client.post(f"/games/{game_id}/hint", headers=HX)
        assert response.status_code == 200
        assert "Still thinking: the best move found so far is" in response.text
        assert "Ask again to think on." in response.text
        assert f"<dt>Hints</dt><dd>{asked}</dd>" in response.text
    assert client.get(f"/games/{game_id}/history").text == ""


def test_a_hint_without_javascript_redirects_to_the_highlighted_board(client: TestClient) -> None:
    game_id = start(client, kind="freecell")
    response = client.post(f"/games/{game_id}/hint")
    assert response.status_code == 303
    assert "hint=" in response.headers["location"]
    page = client.get(response.headers["location"]).text
    assert "Hint:" in page
    assert "fc-place hint" in page or "target hint" in page


def test_a_freecell_hint_finishes_a_nearly_won_game(client: TestClient) -> None:
    game_id = start(client, kind="freecell")
    force(client, game_id, NEARLY_WON_FREECELL)
    page = client.post(f"/games/{game_id}/hint", headers=HX).text
    assert "Hint: K♦ home from column 1." in page


def test_hints_are_counted_and_a_won_game_is_marked_assisted(client: TestClient) -> None:
    game_id = start(client, kind="freecell")
    force(client, game_id, NEARLY_WON_FREECELL)
    client.post(f"/games/{game_id}/hint", headers=HX)
    client.post(f"/games/{game_id}/hint", headers=HX)
    won = client.post(
        f"/games/{game_id}/actions", data={"action": "1h", "version": "0"}, headers=HX
    ).text
    assert "You won FreeCell #1" in won
    assert "assisted: 2 hints" in won
    assert "(assisted)" in client.get("/games").text
    assert client.post(f"/games/{game_id}/hint", headers=HX).status_code == 422


def verdict(client: TestClient, game_id: str, **headers: str) -> str:
    """Ask "Still winnable?" until the solver has its answer (it says it is thinking)."""
    deadline = time.monotonic() + 120  # past the search's minute (SEARCHES): liveness only
    while True:
        page = client.get(f"/games/{game_id}?check=1", headers=headers).text
        if "Still thinking" not in page or time.monotonic() > deadline:
            return page
        time.sleep(0.5)


def test_still_winnable_answers_in_words(client: TestClient) -> None:
    freecell_game = start(client, kind="freecell", deal="11982")
    assert "No: this deal cannot be won" in verdict(client, freecell_game, **HX)
    montana_game = start(client)
    page = verdict(client, montana_game)  # the deal's first position: its proof answers
    assert "Yes: this round can be cleared without a redeal (proved for this deal)." in page


def test_still_winnable_answers_at_once_and_later_with_the_verdict(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Our own search's proof takes seconds (fc-solve's library, a tenth of a second, is
    # switched off for the solver process this test starts).
    monkeypatch.setenv("SOLITAIRE_FCSOLVE", "off")
    game_id = start(client, kind="freecell", deal="11982")
    act(client, game_id, "1a", 0)  # the deal's first position is answered by its proof
    first = client.get(f"/games/{game_id}?check=1", headers=HX)
    assert first.status_code == 200
    assert "Still thinking" in first.text  # (had it waited for the proof, it would say "No")
    assert "No: this game can no longer be won" in verdict(client, game_id, **HX)  # past the deal
    game = service.load(db=client.app.state.db, game_id=game_id)  # type: ignore[attr-defined]
    solvers = client.app.state.solvers  # type: ignore[attr-defined]
    assert service.known_answer(solvers, game) is not None  # kept for the page, no search


def test_seeing_the_solution_counts_as_help(client: TestClient) -> None:
    game_id = start(client, kind="freecell")
    assert client.post(f"/games/{game_id}/solution").status_code == 303
    client.get(f"/games/{game_id}/solution?step=2")
    assert "(assisted)" in client.get("/games").text
    game = service.load(db=client.app.state.db, game_id=game_id)  # type: ignore[attr-defined]
    assert game.hints_used == 1


def test_hint_on_an_unknown_game_is_404(client: TestClient) -> None:
    assert client.post("/games/nope/hint").status_code == 404


def test_show_solution_steps_through_a_winning_line(client: TestClient) -> None:
    game_id = start(client, kind="freecell")
    client.post(f"/games/{game_id}/solution")
    page = client.get(f"/games/{game_id}/solution?step=0")
    assert page.status_code == 200
    assert "Solution: FreeCell" in page.text
    assert "This line wins from the current position" in page.text
    assert "The current position, before the first move." in page.text
    step = client.get(f"/games/{game_id}/solution?step=1", headers=HX).text
    assert step.lstrip().startswith('<section id="replay"')
    assert "Step 1:" in step
    assert client.get(f"/games/{game_id}/history").text == ""  # nothing was played


def test_show_solution_for_montana_names_what_the_line_does(client: TestClient) -> None:
    game_id = start(client)
    client.post(f"/games/{game_id}/solution")
    page = client.get(f"/games/{game_id}/solution?step=999").text
    assert "This line clears the round without another redeal." in page
    assert "48/48" in page  # the last step: every card in place


def test_a_solution_or_hint_not_ready_says_still_thinking_not_busy(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search for this game goes on: the page says so (202 Accepted, ask again), not
    that the solver is busy with other games."""
    game_id = start(client, kind="freecell")
    solvers = client.app.state.solvers  # type: ignore[attr-defined]
    monkeypatch.setattr(solvers, "ask", lambda job, wait: None)
    page = client.post(f"/games/{game_id}/solution", headers=HX)
    assert page.status_code == 202
    assert page.headers["Retry-After"] == "2"
    assert "Still thinking: the solver is working on it." in page.text
    assert "busy with other games" not in page.text
    # A hint is never empty: a provisional move, said to be not sure yet.
    hinted = client.post(f"/games/{game_id}/hint", headers=HX)
    assert hinted.status_code == 200
    assert "Still thinking: the best move found so far is" in hinted.text
    assert 'class="fc-card' in hinted.text and " hint" in hinted.text
    form = client.post(f"/games/{game_id}/hint", headers={"Sec-Fetch-Mode": "navigate"})
    assert form.status_code == 200
    assert "Still thinking: the best move found so far is" in form.text
    assert client.get(f"/games/{game_id}/history").text == ""  # nothing played


def test_a_hint_on_a_deal_proved_impossible_says_so_without_searching(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#11982 is proved impossible (app/proofs/): from its deal, and from wherever a move
    leads, no move helps, said at once and counted, however busy the solvers are."""
    game_id = start(client, kind="freecell", deal="11982")
    solvers = client.app.state.solvers  # type: ignore[attr-defined]
    monkeypatch.setattr(solvers, "ask", lambda job, wait: pytest.fail("searched"))
    db = client.app.state.db  # type: ignore[attr-defined]
    for asked in (1, 2):
        page = client.post(f"/games/{game_id}/hint", headers=HX).text
        assert "No move helps from here." in page
        assert f"<dt>Hints</dt><dd>{asked}</dd>" in page
        game = service.load(db=db, game_id=game_id)
        move = game.position.legal_moves()[0].notation
        assert act(client, game_id, move, game.version).status_code in (200, 303)
    assert service.load(db=db, game_id=game_id).moves_count == 2


def test_a_montana_round_proved_impossible_still_searches(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Montana's proofs cover its first round only: a redeal may still win, so its hints
    search as ever."""
    from app.service import help, proofs

    game = service.load(db=client.app.state.db, game_id=start(client))  # type: ignore[attr-defined]
    monkeypatch.setattr(proofs.Proofs, "verdict", lambda self, deal: "unsolvable")
    assert not help.proved_lost(game)
