"""A game's history of actions, and the position it leads to.

History is append-only: an ``undo`` is an action too. The **effective** actions are what is
left after every undo has taken back the last ``move`` or ``redeal`` together with the
``auto`` moves that followed it; replaying them from the deal gives the position.

>>> effective([("move", "6S A13"), ("move", "QS B9"), ("undo", "undo")])
[('move', '6S A13')]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from app.rules.protocol import ActionKind, IllegalMoveError, Position, Rules

Entry = tuple[ActionKind, str]
"""One action as stored: its kind and its notation."""

ACTION_KINDS: Final[dict[str, ActionKind]] = {
    kind: kind for kind in ("move", "auto", "redeal", "undo", "resign")
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


def replay(rules: Rules, deal: int, variant: str, actions: Iterable[Entry]) -> Position:
    """The position the history leads to, from the deal, through the engine."""
    position = rules.new_game(deal, variant)
    for _, notation in effective(actions):
        position = position.play(position.parse_action(notation))
    return position


def positions(rules: Rules, deal: int, variant: str, actions: Iterable[Entry]) -> list[Position]:
    """The deal and the position after each action in turn, undos and all (for replays)."""
    return positions_between(rules, deal, variant, actions, 0, EVERY_STEP)


EVERY_STEP: Final = 1 << 62


def positions_between(
    rules: Rules, deal: int, variant: str, actions: Iterable[Entry], first: int, last: int
) -> list[Position]:
    """The positions after steps ``first`` to ``last`` (0: the deal), replaying the actions
    up to ``last`` only: what a replay's page shows, whatever the length of the history.

    >>> from app.games import rules_for
    >>> montana = rules_for("montana")
    >>> history = [("move", "6S A13"), ("move", "QS B9"), ("undo", "undo")]
    >>> window = positions_between(montana, 1, "expert", history, 1, 3)
    >>> window == positions(montana, 1, "expert", history)[1:4]
    True
    """
    stack: list[tuple[ActionKind | None, Position]] = [(None, rules.new_game(deal, variant))]
    result = [stack[0][1]] if first <= 0 else []
    for step, (kind, notation) in enumerate(actions, start=1):
        if step > last:
            break
        if kind == "undo":
            while len(stack) > 1 and stack[-1][0] == "auto":
                stack.pop()
            if len(stack) == 1:
                raise IllegalMoveError("nothing to undo", "nothing_to_undo")
            stack.pop()
        elif kind != "resign":
            position = stack[-1][1]
            stack.append((kind, position.play(position.parse_action(notation))))
        if step >= first:
            result.append(stack[-1][1])
    return result
