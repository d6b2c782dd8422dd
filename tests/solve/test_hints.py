"""Hints on top of the solvers: the move to play, and the memory of proved Montana lines."""

from __future__ import annotations

import pytest

from app.games.freecell import rules as freecell
from app.games.freecell.hints import FreeCellSearches
from app.games.montana import rules as montana
from app.games.montana.hints import MontanaSearches
from app.rules.protocol import Hint, Position, Verdict
from app.solve.recent import Recent

MEMORY = MontanaSearches()
"""The searches one solver process keeps, as the pool's worker holds them."""


@pytest.fixture(autouse=True)
def fresh_memory() -> None:
    MEMORY.forget()


def hint(position: Position, budget_ms: int = 900) -> Hint:
    return MEMORY.hint(position, budget_ms)


def check(position: Position) -> tuple[Verdict, int]:
    answer = MEMORY.answer(position, 15_000)
    return answer.verdict, len(answer.moves)


def solution(position: Position, budget_ms: int = 15_000) -> tuple[Verdict, list[str]]:
    searches = MEMORY if isinstance(position, montana.MontanaPosition) else FreeCellSearches()
    answer = searches.answer(position, budget_ms)
    return answer.verdict, list(answer.moves)


# Four moves from a win, one legal move at a time: TS D9, KS D13, QS D11, KS D12.
FOUR_MOVES = """\
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
2S 3S 4S 5S 6S 7S 8S 9S -- JS KS QS TS
"""


def play(position: montana.MontanaPosition, move: str) -> montana.MontanaPosition:
    return position.play(position.parse_action(move))


def test_a_montana_hint_starts_the_line_that_clears_the_round() -> None:
    position = montana.parse(FOUR_MOVES)
    first = hint(position)
    assert (first.move, first.sure) == ("TS D9", True)


def test_positions_along_a_proved_line_are_answered_without_searching() -> None:
    position = montana.parse(FOUR_MOVES)
    hint(position)
    after = play(position, "TS D9")
    # No time to search at all: the answer can only come from the proved line.
    remembered = hint(after, budget_ms=0)
    assert (remembered.move, remembered.sure) == ("KS D13", True)


def test_following_the_hints_wins_the_round() -> None:
    position = montana.parse(FOUR_MOVES)
    for _ in range(10):
        if position.is_won():
            break
        suggestion = hint(position)
        assert suggestion.sure and suggestion.move
        position = play(position, suggestion.move)
    assert position.is_won()


def test_a_search_out_of_time_says_it_is_not_sure() -> None:
    suggestion = hint(montana.new_game(3), budget_ms=1)
    assert not suggestion.sure
    assert suggestion.move in {move.notation for move in montana.new_game(3).legal_moves()}


def test_still_winnable_and_the_solution_for_both_games() -> None:
    assert check(montana.parse(FOUR_MOVES))[0] == "solved"
    assert solution(montana.parse(FOUR_MOVES)) == (
        "solved",
        ["TS D9", "KS D13", "QS D11", "KS D12"],
    )
    verdict, moves = solution(freecell.new_game(1), budget_ms=5000)
    assert verdict == "solved" and moves


def test_an_unfinished_montana_search_carries_on_after_its_move_is_played() -> None:

    start = montana.new_game(3)
    first = hint(start, budget_ms=30)
    assert not first.sure and first.move
    after = play(start, first.move)
    waiting = MEMORY.searches.get(after.to_text())
    assert waiting is not None and waiting.nodes > 1
    searched = waiting.nodes
    second = hint(after, budget_ms=30)
    assert not second.sure and second.move
    kept = MEMORY.searches.get(play(after, second.move).to_text())
    assert kept is waiting and kept.advanced and kept.nodes > searched


def test_a_search_that_has_had_its_share_of_positions_starts_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.games.montana import solver as round_search

    start = montana.new_game(3)
    first = hint(start, budget_ms=30)
    after = play(start, first.move or "")
    used = MEMORY.searches.get(after.to_text())
    monkeypatch.setattr(round_search, "HINT_MAX_NODES", 1)
    second = hint(after, budget_ms=30)
    assert not second.sure and second.move
    kept = MEMORY.searches.pop(play(after, second.move).to_text())
    assert kept is not None and kept is not used


def test_the_memory_keeps_the_entries_used_last() -> None:
    recent = Recent[int](2)
    recent.put([("a", 1), ("b", 2)])
    assert recent.get("a") == 1  # "a" is now the one used last
    recent.put([("c", 3)])
    assert (recent.get("b"), recent.get("a"), recent.get("c")) == (None, 1, 3)
    recent.trim(1)  # room for one more, as a hint makes before it searches
    assert (recent.get("a"), recent.get("c")) == (None, 3)


def test_asking_again_without_moving_carries_the_same_search_on() -> None:

    start = montana.new_game(3)
    first = hint(start, budget_ms=30)
    assert not first.sure and first.move
    waiting = MEMORY.searches.get(play(start, first.move).to_text())
    assert waiting is not None
    searched = waiting.nodes
    again = hint(start, budget_ms=30)
    assert not again.sure and again.move
    kept = MEMORY.searches.get(play(start, again.move).to_text())
    assert kept is waiting and not kept.advanced and kept.nodes > searched


def test_a_search_that_moved_on_is_not_taken_back_for_the_position_it_left() -> None:

    start = montana.new_game(3)
    first = hint(start, budget_ms=30)
    after = play(start, first.move or "")
    moved_on = hint(after, budget_ms=30)  # the search now starts from ``after``
    assert moved_on.move
    waiting = MEMORY.searches.get(play(after, moved_on.move).to_text())
    assert waiting is not None and waiting.advanced
    hint(start, budget_ms=30)  # back at the start (an undo): a search of its own
    assert MEMORY.searches.get(play(after, moved_on.move).to_text()) is waiting
