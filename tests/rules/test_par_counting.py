"""A winning line's moves counted as a game counts a player's (:mod:`app.rules.par`)."""

from __future__ import annotations

import pytest

from app.games import game_kind
from app.games.freecell import fcsolve
from app.games.freecell.rules import all_home
from app.rules.par import BadLine, counted

RULES = game_kind("freecell").rules
ALMOST_WON = "Foundations: H-K C-K D-Q S-Q\n: KD\n: KS\n:\n:\n:\n:\n:\n:\n"

needs_library = pytest.mark.skipif(not fcsolve.available(), reason="fc-solve's library")


def test_the_game_sends_nothing_home_before_the_first_move() -> None:
    start = RULES.parse(ALMOST_WON)
    # The king of diamonds is safe, but the player moves it: one move; the king of spades
    # then goes home by itself.
    assert counted(start, ("1h", "2h")).moves == 1
    assert counted(start, ("2h", "1h")).moves == 1


def test_a_line_that_does_not_win_is_refused() -> None:
    start = RULES.parse(ALMOST_WON)
    with pytest.raises(BadLine):
        counted(start, ("1h",))
    with pytest.raises(BadLine):
        counted(start, ("3h", "1h", "2h"))


@needs_library
def test_all_home_ends_a_line_in_one_move_where_it_wins() -> None:
    # Deal #11's line ends with cards the game does not send home by itself.
    start = RULES.new_game(11, "standard")
    line = fcsolve.solve(start, fcsolve.Budget(seconds=30)).moves
    plain = counted(start, line)
    swept = counted(start, line, all_home)
    assert plain.line == tuple(line)
    assert swept.moves < plain.moves
    # The line as counted replays to a win ("All home" card by card), counted the same.
    assert counted(start, swept.line).moves >= swept.moves
    assert counted(start, swept.line, all_home).moves == swept.moves
    for deal in (1, 2, 3):
        start = RULES.new_game(deal, "standard")
        line = fcsolve.solve(start, fcsolve.Budget(seconds=30)).moves
        assert counted(start, line, all_home).moves <= counted(start, line).moves
