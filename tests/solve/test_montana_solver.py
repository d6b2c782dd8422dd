"""The Montana round search on constructed positions whose answers are known by hand."""

from __future__ import annotations

from app.rules import montana
from app.solve import answer
from app.solve.montana import NEARLY_WON, search

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
    assert (result.verdict, result.moves, result.best_score) == ("clearable", ("KS D12",), 48)


def test_two_moves_clear_the_round() -> None:
    result = search(montana.parse(TWO_MOVES))
    assert result.verdict == "clearable"
    assert replay(TWO_MOVES, result.moves).is_won()


def test_a_blocked_round_is_proved() -> None:
    result = search(montana.parse(BLOCKED))
    assert (result.verdict, result.moves, result.nodes) == ("blocked", (), 1)


def test_the_best_line_of_a_round_that_cannot_be_cleared() -> None:
    # Deal #10: the round cannot be cleared; the best line keeps every move legal.
    result = search(montana.new_game(10), max_seconds=30)
    assert result.verdict == "blocked"
    end = replay(montana.new_game(10).to_text(), result.moves)
    assert end.score == result.best_score > 0


def test_deal_1_can_be_cleared_in_its_first_round() -> None:
    result = search(montana.new_game(1), max_seconds=30)
    assert result.verdict == "clearable"
    assert replay(montana.new_game(1).to_text(), result.moves).is_won()


def test_answer_speaks_the_common_verdicts() -> None:
    assert answer(montana.parse(NEARLY_WON), 1000).verdict == "solved"
    assert answer(montana.parse(BLOCKED), 1000).verdict == "unsolvable"
    assert answer(montana.new_game(2), 50).verdict == "unknown"
