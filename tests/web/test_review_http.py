"""A game's review over HTTP: the position at a replay step, the review with and without
htmx, a game with no move, an unknown game, a game in play (counted as assisted), a busy
solver pool, and "Try again from here"."""

from __future__ import annotations

import random
import re
import time

import pytest
from fastapi.testclient import TestClient

from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from app.service import review
from app.service.solvers import SolverBusy
from tests.web.helpers import HX, act, start


@pytest.fixture(autouse=True)
def cold() -> None:
    review.forget()


def finished(client: TestClient, game_id: str, **query: str) -> str:
    """The review once every verdict is in (the page asks again while it works)."""
    deadline = time.monotonic() + 120
    while True:
        page = client.get(f"/games/{game_id}/review", params=query, headers=HX)
        assert page.status_code == 200
        if 'data-review="done"' in page.text or time.monotonic() > deadline:
            return page.text


def played(client: TestClient, kind: str, deal: int, moves: list[str]) -> str:
    """A game of ``kind`` on ``deal`` with ``moves`` played (automatic moves follow them)."""
    game_id = start(client, kind=kind, deal=str(deal))
    for move in moves:
        version = client.get(f"/games/{game_id}/history").text.count("\n")
        assert act(client, game_id, move, version).status_code == 303, move
    return game_id


def test_the_position_at_a_replay_step(client: TestClient) -> None:
    game_id = played(client, "freecell", 1, ["1a", "1b"])
    deal = freecell.new_game(1)
    assert client.get(f"/games/{game_id}/position?step=0").text == deal.to_text()
    one = deal.play(deal.parse_action("1a"))
    assert client.get(f"/games/{game_id}/position?step=1").text == one.to_text()
    last = client.get(f"/games/{game_id}/position").text
    assert client.get(f"/games/{game_id}/position?step=999").text == last
    assert client.get(f"/games/{game_id}/position?step=-1").status_code == 422
    assert client.get("/games/nosuchgame0000000000000/position?step=1").status_code == 404


def test_an_unknown_game_has_no_review(client: TestClient) -> None:
    response = client.get("/games/nosuchgame0000000000000/review")
    assert response.status_code == 404


def test_a_game_with_no_move_has_nothing_to_review(client: TestClient) -> None:
    game_id = start(client, kind="freecell")
    page = client.get(f"/games/{game_id}/review")
    assert page.status_code == 200
    assert "Nothing to review yet: this game has no move." in page.text
    assert 'data-review="done"' in page.text and "data-turning-point" not in page.text


def test_a_game_in_play_is_reviewed_once_the_player_chooses_to_and_counts_as_assisted(
    client: TestClient,
) -> None:
    game_id = played(client, "freecell", 1, ["1a"])
    asked = client.get(f"/games/{game_id}/review")
    assert "will count as assisted" in asked.text and "data-review" not in asked.text
    chose = client.post(f"/games/{game_id}/review")
    assert chose.status_code == 303
    counted = re.search(r"counted=(\d+)", chose.headers["location"])
    assert counted
    page = finished(client, game_id, counted=counted.group(1))
    assert 'data-review="done"' in page
    assert "it counts as assisted" in page
    assert page.count('data-verdict="winnable"') == 2  # the deal and the one move
    assert "No move lost the game" in page and "data-turning-point" not in page
    assert "<dt>Hints</dt><dd>1</dd>" in client.get(f"/games/{game_id}").text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the solvers' work: one lane
def test_the_redeal_after_which_no_redeal_could_save_the_game_is_named(client: TestClient) -> None:
    # Deal 16: the round after one redeal can be cleared; the one after the second cannot,
    # and no redeal is left: the second redeal lost the whole game.
    position = montana.new_game(16).redeal().redeal()
    rng = random.Random(16)
    moves = []
    while legal := [m for m in position.legal_moves() if isinstance(m, montana.MontanaMove)]:
        move = rng.choice(legal)
        moves.append(move.notation)
        position = position.play(move)
    game_id = played(client, "montana", 16, ["redeal", "redeal", *moves[:20]])
    act(client, game_id, "resign", 2 + len(moves[:20]))
    page = finished(client, game_id)
    assert 'data-game-turning-point="2"' in page and "data-turning-point=" not in page
    assert "Step 2, " in page and "lost the whole game" in page
    assert "Round 3 could not be cleared from its start" in page
    kept = re.search(r'data-kept="([^"]+)"', page)
    assert kept and kept.group(1) in {
        m.notation for m in montana.new_game(16).redeal().legal_moves()
    }
    assert "?step=1" in page  # the board before it
    hindi = client.get(f"/games/{game_id}/review", headers={"Accept-Language": "hi"}).text
    assert "से पूरा खेल हारा" in hindi


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the solvers' work: one lane
def test_a_lost_montana_round_names_the_move_that_lost_it_and_a_better_one(
    client: TestClient,
) -> None:
    position = montana.new_game(1)
    rng = random.Random(3)
    moves = []
    while legal := [m for m in position.legal_moves() if isinstance(m, montana.MontanaMove)]:
        move = rng.choice(legal)
        moves.append(move.notation)
        position = position.play(move)
    game_id = played(client, "montana", 1, moves)
    act(client, game_id, "resign", len(moves))
    # Without htmx: a whole page that says it is working (never blank), with a plain link.
    first = client.get(f"/games/{game_id}/review")
    assert first.status_code == 200 and "<html" in first.text
    page = finished(client, game_id)
    point = re.search(r'data-turning-point="(\d+)"', page)
    assert point, page
    step = int(point.group(1))
    kept = re.search(r'data-kept="([^"]+)"', page)
    assert kept
    # The verdicts turn once, at the turning point: winnable before it, lost from it on.
    verdicts = re.findall(r'data-verdict="(\w+)"', page)
    assert verdicts == ["winnable"] * step + ["lost"] * (len(moves) + 1 - step)
    assert f"Step {step}, " in page and "lost round 1" in page
    assert "It opens a gap at" in page
    # "Try again from here": a new game of the deal at the position before that move.
    before = client.get(f"/games/{game_id}/position?step={step - 1}").text
    tried = client.post(f"/games/{game_id}/review/practice", data={"step": str(step - 1)})
    assert tried.status_code == 303
    new_id = tried.headers["location"].rsplit("/", 1)[1]
    assert new_id != game_id
    assert client.get(f"/games/{new_id}/position").text == before
    assert "<dt>Hints</dt><dd>1</dd>" in client.get(f"/games/{new_id}").text
    refused = client.post(f"/games/{game_id}/review/practice", data={"step": "9999"})
    assert refused.status_code == 404


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the solvers' work: one lane
def test_a_deal_proved_impossible_names_no_turning_point(client: TestClient) -> None:
    game_id = played(client, "freecell", 11982, ["1a"])
    act(client, game_id, "resign", 1)
    page = finished(client, game_id)
    assert "This deal cannot be won: it was proved impossible." in page
    assert "data-turning-point" not in page
    assert set(re.findall(r'data-verdict="(\w+)"', page)) == {"lost"}


def test_a_busy_pool_says_so_and_never_slows_a_move(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = played(client, "freecell", 1, ["1a"])
    act(client, game_id, "resign", 1)

    def busy(*args: object) -> object:
        raise SolverBusy

    monkeypatch.setattr(client.app.state.solvers, "ask", busy)  # type: ignore[attr-defined]
    page = client.get(f"/games/{game_id}/review", headers=HX)
    assert page.status_code == 200
    assert "The solvers are busy: try again in a moment." in page.text
    assert 'data-review="busy"' in page.text and 'hx-trigger="load delay:3s"' in page.text
    other = start(client, kind="freecell")
    assert act(client, other, "1a", 0).status_code == 303


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the solvers' work: one lane
def test_a_hint_and_a_solution_step_say_why_the_move_is_good(client: TestClient) -> None:
    game_id = start(client, kind="freecell")
    hint = client.post(f"/games/{game_id}/hint", headers=HX).text
    assert "can move at once." in hint  # the facts after the hinted move, read off the board
    client.get(f"/games/{game_id}/solution")
    step = client.get(f"/games/{game_id}/solution?step=1", headers=HX).text
    why = re.search(r'<span class="why">([^<]+)</span>', step)
    assert why and "The solver&#39;s line then needs" in why.group(1)


@pytest.mark.parametrize(("kind", "deal", "said"), [
    ("montana", "1", "Yes: this round can be cleared without a redeal (proved for this deal)."),
    ("montana", "3", "Not this round: this deal&#39;s first round was proved impossible to clear."),
    ("freecell", "1", "Yes: this deal can be won (it was proved winnable)."),
    ("freecell", "11982", "No: this deal cannot be won (it was proved impossible)."),
])  # fmt: skip
def test_still_winnable_at_a_proved_deal_answers_from_the_proof_whatever_the_load(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, kind: str, deal: str, said: str
) -> None:
    def busy(*args: object) -> object:
        raise SolverBusy

    monkeypatch.setattr(client.app.state.solvers, "ask", busy)  # type: ignore[attr-defined]
    game_id = start(client, kind=kind, deal=deal)
    page = client.get(f"/games/{game_id}?check=1", headers=HX)
    assert page.status_code == 200 and said in page.text


def test_a_finished_games_review_through_its_watch_link_never_names_the_game(
    client: TestClient,
) -> None:
    game_id = played(client, "freecell", 1, ["1a"])
    client.post(f"/games/{game_id}/share")
    share = client.get(f"/games/{game_id}/share").text
    token = re.search(r"/watch/([\w-]+)", share)
    assert token
    watch = f"/watch/{token.group(1)}"
    assert client.get(f"{watch}/review").status_code == 303  # in play: its watch page
    act(client, game_id, "resign", 1)
    assert f'href="{watch}/review"' in client.get(watch).text
    review_page = client.get(f"{watch}/review")
    assert review_page.status_code == 200 and game_id not in review_page.text
    deadline = time.monotonic() + 120
    while 'data-review="done"' not in review_page.text and time.monotonic() < deadline:
        review_page = client.get(f"{watch}/review", headers=HX)
    assert 'data-review="done"' in review_page.text and game_id not in review_page.text
    assert client.get("/watch/nosuchtoken/review").status_code == 404


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the solvers' work: one lane
def test_a_won_games_review(client: TestClient) -> None:
    from app.service.solvers import Job

    game_id = start(client, kind="freecell", deal="1")
    solvers = client.app.state.solvers  # type: ignore[attr-defined]
    text = client.get(f"/games/{game_id}/position").text
    line = solvers.ask(Job("answer", "freecell", text), 60)
    for move in line.moves:
        version = client.get(f"/games/{game_id}/history").text.count("\n")
        act(client, game_id, move, version)  # a card the game sent home already: refused
    assert 'data-status="won"' in client.get(f"/games/{game_id}", headers=HX).text
    page = client.get(f"/games/{game_id}").text
    assert f'href="/games/{game_id}/review"' in page  # from the end panel
    review_page = client.get(f"/games/{game_id}/review").text  # a won board: no search
    assert 'data-review="done"' in review_page
    assert "Won: every position of your game could be won." in review_page
    assert "0 hints or solutions used." in review_page
    assert "data-turning-point" not in review_page
    assert set(re.findall(r'data-verdict="(\w+)"', review_page)) == {"winnable"}
    assert f'/games/{game_id}/review"' in client.get("/games").text  # My games
