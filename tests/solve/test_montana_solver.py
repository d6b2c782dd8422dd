"""The Montana round search on constructed positions whose answers are known by hand."""

from __future__ import annotations

import pytest

from app.games.montana import rules as montana
from app.games.montana.hints import MontanaSearches
from app.games.montana.solver import NEARLY_WON, TOGGLES, RoundSearch, board_of, key_of, search
from app.rules.cards import Card
from app.rules.protocol import Answer, Position

# Every gap sits after a king: nothing can move.
BLOCKED = """\
KC -- 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC
KD -- 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD
KH -- 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH
KS -- 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS
"""

# Two moves from a win: QS into D11, then KS into D12.
TWO_MOVES = """\
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
2S 3S 4S 5S 6S 7S 8S 9S TS JS -- KS QS
"""


def replay(text: str, moves: tuple[str, ...]) -> montana.MontanaPosition:
    position = montana.parse(text)
    for move in moves:
        position = position.play(position.parse_action(move))
    return position


def test_one_move_clears_the_round() -> None:
    result = search(montana.parse(NEARLY_WON))
    assert (result.verdict, result.moves, result.best_score) == ("solved", ("KS D12",), 48)


def test_two_moves_clear_the_round() -> None:
    result = search(montana.parse(TWO_MOVES))
    assert result.verdict == "solved"
    assert replay(TWO_MOVES, result.moves).is_won()


def test_a_blocked_round_is_proved() -> None:
    result = search(montana.parse(BLOCKED))
    assert (result.verdict, result.moves, result.positions) == ("unsolvable", (), 1)


def test_the_best_line_of_a_round_that_cannot_be_cleared() -> None:
    # Deal #10: the round cannot be cleared; the best line keeps every move legal.
    result = search(montana.new_game(10), max_seconds=30)
    assert result.verdict == "unsolvable"
    end = replay(montana.new_game(10).to_text(), result.moves)
    assert end.score == result.best_score > 0


def test_deal_1_can_be_cleared_in_its_first_round() -> None:
    result = search(montana.new_game(1), max_seconds=30)
    assert result.verdict == "solved"
    assert replay(montana.new_game(1).to_text(), result.moves).is_won()


def answer(position: Position, budget_ms: int) -> Answer:
    return MontanaSearches().answer(position, budget_ms)


def test_answer_speaks_the_common_verdicts() -> None:
    assert answer(montana.parse(NEARLY_WON), 1000).verdict == "solved"
    assert answer(montana.parse(BLOCKED), 1000).verdict == "unsolvable"
    assert answer(montana.new_game(2), 0).verdict == "unknown"  # stops at its first look


# Two column-1 gaps and two 2s: only 2H in A1 and 2S in D1 clear the round.
TWO_TWOS = """\
-- 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
-- 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2S
"""


def test_the_first_two_in_a_row_decides_its_suit() -> None:
    result = search(montana.parse(TWO_TWOS))
    assert result.verdict == "solved"
    assert sorted(result.moves) == ["2H A1", "2S D1"]
    wrong = montana.parse(TWO_TWOS).play(montana.parse(TWO_TWOS).parse_action("2S A1"))
    assert search(wrong).verdict == "unsolvable"


def reference(position: montana.MontanaPosition) -> tuple[bool, int]:
    """Every position of the round through the engine itself: (can be cleared, best score)."""
    seen = {position.cells}
    best, cleared = position.score, position.is_won()
    stack = [position]
    while stack:
        current = stack.pop()
        for move in current.legal_moves():
            child = current.play(move)
            if child.cells not in seen:
                seen.add(child.cells)
                best = max(best, child.score)
                cleared = cleared or child.is_won()
                stack.append(child)
    return cleared, best


@pytest.mark.parametrize(
    ("deal", "played"), [(10, 30), (10, 55), (1, 70), (12, 60), (6, 75), (5, 55), (7, 50), (8, 50)]
)
def test_the_search_agrees_with_the_engine_on_every_position_of_a_round(
    deal: int, played: int
) -> None:
    # Late in a round the positions left are few enough to list them all with the engine.
    start = montana.new_game(deal)
    line = search(start, max_seconds=30).moves
    position = replay(start.to_text(), line[:played])
    cleared, best = reference(position)
    result = search(position)
    assert result.verdict == ("solved" if cleared else "unsolvable")
    assert result.best_score == best
    assert replay(position.to_text(), result.moves).score == best


def test_the_board_key_follows_every_move() -> None:
    position = montana.new_game(7)
    for move in search(position, max_seconds=30).moves[:60]:
        before = key_of(board_of(position))
        played = position.play(position.parse_action(move))
        card, gap = Card.parse(move.split()[0]).index, montana.parse_cell(move.split()[1])
        source = position.where(Card.parse(move.split()[0]))
        assert key_of(board_of(played)) == before ^ TOGGLES[card][source] ^ TOGGLES[card][gap]
        position = played


def test_a_search_stopped_and_resumed_ends_as_one_run_does() -> None:
    whole = search(montana.new_game(10), max_seconds=60)
    resumed = RoundSearch(montana.new_game(10))
    first = resumed.run(max_seconds=60, max_nodes=5000)
    assert first.verdict == "unknown"
    last = resumed.run(max_seconds=60)
    assert (last.verdict, last.best_score, last.moves) == (
        whole.verdict,
        whole.best_score,
        whole.moves,
    )
    assert last.positions == whole.positions


@pytest.mark.parametrize("deal", [6, 10, 11])
def test_a_search_follows_the_move_it_suggested(deal: int) -> None:
    start = montana.new_game(deal)
    going = RoundSearch(start)
    suggested = going.run(max_seconds=60, max_nodes=3000)
    assert suggested.verdict == "unknown"
    child = replay(start.to_text(), suggested.moves[:1])
    going.advance()
    carried = going.run(max_seconds=60)
    fresh = search(child, max_seconds=60)
    assert carried.verdict == fresh.verdict
    end = replay(child.to_text(), carried.moves)
    assert end.score == carried.best_score <= fresh.best_score
    if carried.verdict == "solved":
        assert end.is_won()


# Two kings fit after their queens; row D can never be built (a 3 stands in D1).
TWO_KINGS = """\
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC -- KC
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD -- KD
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
3S 2S 4S 5S 6S 7S 8S 9S TS JS QS KS --
"""


def test_a_king_that_fits_its_place_is_searched_alone() -> None:
    position = montana.parse(TWO_KINGS)
    result = search(position)
    assert reference(position) == (False, 36)
    assert (result.verdict, result.best_score) == ("unsolvable", 36)
    # The start, then KC, then KD: the order KD-then-KC is never searched.
    assert result.positions == 3
    assert replay(TWO_KINGS, result.moves).score == 36


def test_a_search_stops_where_the_process_memory_limit_says() -> None:
    from app.solve import memory

    position = montana.new_game(3, "expert")
    memory.limit(memory.resident_bytes() // 2)  # already past it: the first look stops
    try:
        answer = RoundSearch(position).run(max_seconds=60)
    finally:
        memory.limit(None)
    assert answer.verdict == "unknown"
    assert answer.positions <= memory.CHECK_EVERY + 1
    assert not memory.full()  # no limit: never full
