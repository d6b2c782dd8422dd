"""Undo as an action: the effective history and replay."""

from __future__ import annotations

import pytest

from app.games.montana import rules as montana
from app.rules.history import effective, entry, positions, replay
from app.rules.protocol import IllegalMoveError


def test_undo_takes_back_the_last_move() -> None:
    actions = [("move", "6S A13"), ("move", "QS B9"), ("undo", "undo")]
    assert effective(actions) == [("move", "6S A13")]


def test_undo_takes_back_a_move_with_the_automatic_moves_after_it() -> None:
    actions = [("move", "1a"), ("move", "2h"), ("auto", "3h"), ("auto", "4h"), ("undo", "undo")]
    assert effective(actions) == [("move", "1a")]


def test_undo_takes_back_a_redeal_and_undos_chain() -> None:
    actions = [("move", "a"), ("redeal", "redeal"), ("move", "b"), ("undo", "undo")]
    assert effective(actions) == [("move", "a"), ("redeal", "redeal")]
    assert effective([*actions, ("undo", "undo")]) == [("move", "a")]


def test_resign_changes_no_position() -> None:
    assert effective([("move", "a"), ("resign", "resign")]) == [("move", "a")]


def test_nothing_to_undo() -> None:
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        effective([("undo", "undo")])
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        effective([("move", "a"), ("undo", "undo"), ("undo", "undo")])


def test_unknown_kind_is_refused() -> None:
    assert entry("auto", "3h") == ("auto", "3h")
    with pytest.raises(ValueError, match="unknown action kind"):
        entry("teleport", "x")


def test_undoing_a_redeal_and_redealing_gives_the_same_cards() -> None:
    twice = replay(montana.RULES, 9, "expert", [("redeal", "redeal"), ("redeal", "redeal")])
    history = [("redeal", "redeal"), ("undo", "undo"), ("redeal", "redeal")]
    again = replay(montana.RULES, 9, "expert", [("redeal", "redeal")])
    assert replay(montana.RULES, 9, "expert", history) == again
    assert twice != again


def test_positions_step_through_undos_and_end_at_the_replay() -> None:
    actions = [("move", "5H C4"), ("redeal", "redeal"), ("undo", "undo"), ("resign", "resign")]
    steps = positions(montana.RULES, 1, "expert", actions)
    deal = montana.new_game(1)
    after_move = deal.play(deal.parse_action("5H C4"))
    assert steps[0] == deal
    assert steps[1] == after_move
    assert steps[2] == after_move.redeal()
    assert steps[3] == steps[4] == after_move
    assert steps[-1] == replay(montana.RULES, 1, "expert", actions)
