"""The end of a game is one value: ``position.outcome()``."""

from __future__ import annotations

from app.games.freecell.rules import RULES as FREECELL
from app.games.freecell.rules import parse
from app.games.montana.rules import RULES as MONTANA


def test_a_game_in_play_has_no_outcome() -> None:
    assert FREECELL.new_game(1, "standard").outcome() is None
    assert MONTANA.new_game(1, "expert").outcome() is None


def test_freecell_won_and_lost() -> None:
    assert parse("Foundations: H-K C-K D-K S-K\n").outcome() == "won"
    assert FREECELL.new_game(1, "forecell").outcome() == "lost"  # no move as dealt


def test_montana_lost_only_when_no_move_and_no_redeal_is_left() -> None:
    position = MONTANA.new_game(1, "expert")
    while True:
        while moves := position.legal_moves():
            position = position.play(moves[0])
        if not position.can_redeal():
            break
        assert position.outcome() is None  # stuck, but a redeal is left
        position = position.play(position.parse_action("redeal"))
    assert position.outcome() == ("won" if position.is_won() else "lost")
