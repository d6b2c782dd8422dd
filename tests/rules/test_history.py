"""Undo as an action: the effective history and replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.montana import rules as montana
from app.rules.history import Entry, effective, entry, positions, positions_between, replay
from app.rules.protocol import IllegalMoveError


def test_undo_takes_back_the_last_move() -> None:
    actions = [("move", "6S A13"), ("move", "QS B9"), ("undo", "undo")]
    assert effective(actions) == [("move", "6S A13")]


def test_undo_takes_back_a_move_with_the_automatic_moves_after_it() -> None:
    actions = [("move", "1a"), ("move", "2h"), ("auto", "3h"), ("auto", "4h"), ("undo", "undo")]
    assert effective(actions) == [("move", "1a")]


def test_undo_takes_back_a_redeal_and_undos_chain() -> None:
    actions = [("move", "a"), ("move", "redeal"), ("move", "b"), ("undo", "undo")]
    assert effective(actions) == [("move", "a"), ("move", "redeal")]
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


def test_a_redeal_stored_before_0012_reads_as_a_move() -> None:
    assert entry("redeal", "redeal") == ("move", "redeal")
    with pytest.raises(ValueError, match="unknown action kind"):
        entry("shuffle", "redeal")


def test_undoing_a_redeal_and_redealing_gives_the_same_cards() -> None:
    twice = replay(montana.RULES, 9, "expert", [("move", "redeal"), ("move", "redeal")])
    history = [("move", "redeal"), ("undo", "undo"), ("move", "redeal")]
    again = replay(montana.RULES, 9, "expert", [("move", "redeal")])
    assert replay(montana.RULES, 9, "expert", history) == again
    assert twice != again


def test_positions_step_through_undos_and_end_at_the_replay() -> None:
    actions = [("move", "5H C4"), ("move", "redeal"), ("undo", "undo"), ("resign", "resign")]
    steps = positions(montana.RULES, 1, "expert", actions)
    deal = montana.new_game(1)
    after_move = deal.play(deal.parse_action("5H C4"))
    assert steps[0] == deal
    assert steps[1] == after_move
    assert steps[2] == after_move.redeal()
    assert steps[3] == steps[4] == after_move
    assert steps[-1] == replay(montana.RULES, 1, "expert", actions)


@given(seed=st.integers(0, 10_000), first=st.integers(0, 60), size=st.integers(1, 30))
@settings(max_examples=40, deadline=None)
def test_a_window_from_snapshots_is_the_full_replay_s(seed: int, first: int, size: int) -> None:
    """A replay's window, played from the positions stored before moves (undos reaching
    back before the window, redeals, a history without snapshots), is the full replay's."""
    rng = random.Random(seed)
    position = montana.new_game(1 + seed % 50, "expert")
    actions: list[Entry] = []
    before: dict[int, str] = {}
    undoable: list[tuple[int, montana.MontanaPosition]] = []
    for ply in range(1, 71):
        moves = position.legal_moves()
        if undoable and (rng.random() < 0.3 or (not moves and not position.can_redeal())):
            actions.append(("undo", "undo"))
            position = undoable.pop()[1]
            continue
        action = rng.choice(moves).notation if moves else "redeal"
        if not moves and not position.can_redeal():
            break
        actions.append(("move" if moves else "redeal", action))
        before[ply] = position.to_text()
        undoable.append((ply, position))
        position = position.play(position.parse_action(action))
    full = positions(montana, 1 + seed % 50, "expert", actions)
    last = min(first + size, len(actions))
    # Before the window only the kinds may be known: a notation is asked for when needed.
    kinds_only = [
        (kind, "" if ply < first else text) for ply, (kind, text) in enumerate(actions, 1)
    ]
    for snapshot in (before.get, None):
        window = positions_between(montana, 1 + seed % 50, "expert", actions, first, last, snapshot)
        assert window == full[first : last + 1]
        lazily = positions_between(
            montana,
            1 + seed % 50,
            "expert",
            kinds_only,
            first,
            last,
            snapshot,
            lambda ply: actions[ply - 1][1],
        )
        assert lazily == full[first : last + 1]
