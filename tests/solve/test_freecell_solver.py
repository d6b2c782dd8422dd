"""The FreeCell solver: its lines win when replayed; its proofs hold on known cases."""

from __future__ import annotations

import pytest

from app.games.freecell import rules as freecell
from app.games.freecell.hints import python_answer
from app.games.freecell.solver import replay_wins, solve


@pytest.mark.parametrize("deal", [1, 2, 3, 100, 1000, 1941, 32000])
def test_solutions_replay_through_the_engine_and_win(deal: int) -> None:
    start = freecell.new_game(deal)
    result = solve(start, max_seconds=60)  # they take well under a second; load must not fail them
    assert result.verdict == "solved"
    assert replay_wins(start, result.moves)
    # Foundation moves are in the line: a validator without automatic moves can replay it.
    assert sum(move.endswith("h") for move in result.moves) >= 1


def test_deal_11982_is_proved_unsolvable() -> None:
    result = solve(freecell.new_game(11982), atomic=True, max_seconds=60, max_nodes=10**7)
    assert result.verdict == "unsolvable"
    assert result.moves == ()


def test_a_small_blocked_position_is_proved_unsolvable() -> None:
    # Every exposed card is black, the free cells hold low red cards and the aces lie at
    # the bottom: no card can move at all.
    blocked = freecell.parse(
        """\
Freecells: 2H 3H 2D 3D
: AH 2C 5C 7C 9C QD KC
: AD 2S 5D 7D 9D QH KS
: AC 3C 5H 7H 9H KD QC
: AS 3S 5S 7S 9S KH QS
: 4C 6C 8C TD JC
: 4D 6D 8D TH JS
: 4H 6H 8H JD TC
: 4S 6S 8S JH TS
"""
    )
    assert blocked.legal_moves() == ()
    assert solve(blocked, atomic=True, max_seconds=10).verdict == "unsolvable"
    # The fast search never claims a proof.
    assert solve(blocked, max_seconds=1).verdict == "unknown"


def test_a_position_one_move_from_winning() -> None:
    nearly = freecell.parse("Foundations: H-K C-K D-Q S-Q\n: KD\n: KS\n")
    result = solve(nearly, max_seconds=1)
    assert result.verdict == "solved"
    assert replay_wins(nearly, result.moves)


def test_a_budget_that_runs_out_says_unknown() -> None:
    result = solve(freecell.new_game(11982), max_nodes=10)
    assert result.verdict == "unknown"


def test_answer_tries_a_proof_when_the_search_finds_nothing() -> None:
    assert python_answer(freecell.new_game(11982), budget_ms=60_000).verdict == "unsolvable"
    solved = python_answer(freecell.new_game(1), budget_ms=5_000)
    assert solved.verdict == "solved"
    assert replay_wins(freecell.new_game(1), solved.moves)
