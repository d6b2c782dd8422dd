"""A game's history of actions, and the position it leads to.

History is append-only: an ``undo`` is an action too. The **effective** actions are what is
left after every undo has taken back the last ``move``, ``redeal`` or ``redo`` together with
the ``auto`` moves that followed it; replaying them from the deal gives the position.

A ``redo`` brings back what the last undo took back: its notation is that move's (or
``redeal``), and the automatic moves that came with it follow it as ``auto`` rows again.
Undone moves come back in order, until a new move or redeal is made.

>>> effective([("move", "6S A13"), ("move", "QS B9"), ("undo", "undo")])
[('move', '6S A13')]
>>> history = [("move", "6S A13"), ("move", "QS B9"), ("undo", "undo"), ("undo", "undo")]
>>> redoable(history)
[[('move', 'QS B9')], [('move', '6S A13')]]
>>> redoable([*history, ("redo", "6S A13")])
[[('move', 'QS B9')]]
>>> redoable([*history, ("move", "8C B7")])
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from app.rules.protocol import ActionKind, IllegalMoveError, Position, Rules

Entry = tuple[ActionKind, str]
"""One action as stored: its kind and its notation."""

ACTION_KINDS: Final[dict[str, ActionKind]] = {
    **{kind: kind for kind in ("move", "auto", "undo", "redo", "resign")},
    "redeal": "move",
}
"""The stored kinds; ``redeal`` is how histories before migration 0012 stored an action
the player chose that was not a move (a game's own, now a ``move`` by its notation)."""


def entry(kind: str, notation: str) -> Entry:
    """A stored row as an :data:`Entry`; raise ``ValueError`` for an unknown kind."""
    try:
        return ACTION_KINDS[kind], notation
    except KeyError:
        raise ValueError(f"unknown action kind {kind!r}") from None


def effective(actions: Iterable[Entry]) -> list[Entry]:
    """The actions still in force once every undo has been applied."""
    stack: list[Entry] = []
    for kind, notation in actions:
        if kind == "undo":
            while stack and stack[-1][0] == "auto":
                stack.pop()
            if not stack:
                raise IllegalMoveError("nothing to undo", "nothing_to_undo")
            stack.pop()
        elif kind != "resign":
            stack.append((kind, notation))
    return stack


def redoable(actions: Iterable[Entry]) -> list[list[Entry]]:
    """What Redo can bring back, the next one last: each undone move or redeal with the
    automatic moves that came with it."""
    done: list[list[Entry]] = []
    undone: list[list[Entry]] = []
    for kind, notation in actions:
        if kind == "auto" and done:
            done[-1].append((kind, notation))
        elif kind == "undo":
            if not done:
                raise IllegalMoveError("nothing to undo", "nothing_to_undo")
            undone.append(done.pop())
        elif kind == "redo":
            if not undone:
                raise IllegalMoveError("nothing to redo", "nothing_to_redo")
            undone.pop()
            done.append([(kind, notation)])
        elif kind != "resign":
            undone.clear()
            done.append([(kind, notation)])
    return undone


def replay(rules: Rules[Position], deal: int, variant: str, actions: Iterable[Entry]) -> Position:
    """The position the history leads to, from the deal, through the engine."""
    position = rules.new_game(deal, variant)
    for _, notation in effective(actions):
        position = position.play(position.parse_action(notation))
    return position


def positions(
    rules: Rules[Position], deal: int, variant: str, actions: Iterable[Entry]
) -> list[Position]:
    """The deal and the position after each action in turn, undos and all (for replays)."""
    return positions_between(rules, deal, variant, actions, 0, EVERY_STEP)


EVERY_STEP: Final = 1 << 62


Snapshot = Callable[[int], "str | None"]
"""The position stored before the move or redeal at a ply (its text), when stored."""

SNAPSHOT_KINDS: Final = frozenset({"move"})


def positions_between(
    rules: Rules[Position],
    deal: int,
    variant: str,
    actions: Iterable[Entry],
    first: int,
    last: int,
    snapshot: Snapshot | None = None,
    notation_of: Callable[[int], str] | None = None,
) -> list[Position]:
    """The positions after steps ``first`` to ``last`` (0: the deal): what a replay's page
    shows, whatever the length of the history.

    The actions before the window are followed without playing them: only which ones are
    in force (the undo stack, as plies). A position is then played from the nearest one
    known: one already worked out, else the ``snapshot`` stored before a move or redeal in
    force, else the deal. With snapshots a window costs its own steps, not the history's.
    An action before the window may come with an empty notation (only its kind read):
    ``notation_of(ply)`` gives it if it must be played. (tests/rules/test_history.py
    checks every window against the full replay.)
    """
    start = rules.new_game(deal, variant)
    kinds: dict[int, str] = {}
    notations: dict[int, str] = {}
    stack: list[int] = []
    known: dict[int, Position] = {}

    def current() -> Position:
        if not stack:
            return start
        index = len(stack) - 1
        while True:
            ply = stack[index]
            if ply in known:
                base, index = known[ply], index + 1
                break
            text = snapshot(ply) if snapshot and kinds[ply] in SNAPSHOT_KINDS else None
            if text is not None:
                base = rules.parse(text)
                break
            if index == 0:
                base = start
                break
            index -= 1
        for ply in stack[index:]:
            text = notations[ply] or (notation_of(ply) if notation_of else "")
            base = known[ply] = base.play(base.parse_action(text))
        return base

    result = [start] if first <= 0 else []
    for step, (kind, notation) in enumerate(actions, start=1):
        if step > last:
            break
        if kind == "undo":
            while stack and kinds[stack[-1]] == "auto":
                stack.pop()
            if not stack:
                raise IllegalMoveError("nothing to undo", "nothing_to_undo")
            stack.pop()
        elif kind != "resign":
            kinds[step], notations[step] = kind, notation
            stack.append(step)
        if step >= first:
            result.append(current())
    return result
