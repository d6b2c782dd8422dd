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

from collections.abc import Iterable
from typing import Final

from app.rules.protocol import ActionKind, IllegalMoveError, Position, Rules

Entry = tuple[ActionKind, str]
"""One action as stored: its kind and its notation."""

ACTION_KINDS: Final[dict[str, ActionKind]] = {
    kind: kind for kind in ("move", "auto", "redeal", "undo", "redo", "resign")
}


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


def replay(rules: Rules, deal: int, variant: str, actions: Iterable[Entry]) -> Position:
    """The position the history leads to, from the deal, through the engine."""
    position = rules.new_game(deal, variant)
    for _, notation in effective(actions):
        position = position.play(position.parse_action(notation))
    return position


def positions(rules: Rules, deal: int, variant: str, actions: Iterable[Entry]) -> list[Position]:
    """The deal and the position after each action in turn, undos and all (for replays)."""
    stack: list[tuple[ActionKind | None, Position]] = [(None, rules.new_game(deal, variant))]
    result = [stack[0][1]]
    for kind, notation in actions:
        if kind == "undo":
            while len(stack) > 1 and stack[-1][0] == "auto":
                stack.pop()
            if len(stack) == 1:
                raise IllegalMoveError("nothing to undo", "nothing_to_undo")
            stack.pop()
        elif kind != "resign":
            position = stack[-1][1]
            stack.append((kind, position.play(position.parse_action(notation))))
        result.append(stack[-1][1])
    return result
