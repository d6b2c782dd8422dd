"""A winning line's moves, counted as a game counts a player's: the moves the player makes.

A game sends its safe cards home by itself after each move (the player's default "auto
home"): those are free (not before the first move: the game sends nothing home at the
deal). A game with a sweep ("All home": every card that can go home
goes, one move) lets a line end with it: from the first position of the line's end where
the sweep wins, the rest of the line is one move. A deal's par is this count of its
shortest line (:mod:`app.service.pars`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from app.rules.protocol import Action, IllegalMoveError, Position

P = TypeVar("P", bound=Position)
Finish = Callable[[P], Sequence[Action]]
"""A game's sweep: the actions it plays from a position (raises a refusal when none)."""


class BadLine(ValueError):
    """A line that does not replay to a win from its start."""


@dataclass(frozen=True, slots=True)
class Counted:
    moves: int
    """The moves a player makes to play the line (automatic moves free, a sweep one)."""
    line: tuple[str, ...]
    """The line as counted: the sweep's actions in place of the line's end, when shorter."""


def counted(start: P, line: Sequence[str], finish: Finish[P] | None = None) -> Counted:
    """The line from ``start``, its moves counted; raises :class:`BadLine` unless it wins."""
    positions, made = [start], [False]
    try:
        for text in line:
            position = positions[-1]
            # The game sends cards home after a move, never at the deal.
            automatic = position.automatic_move("safe") if any(made) else None
            if automatic is not None and automatic.notation == text:
                positions.append(position.play(automatic))
                made.append(False)
                continue
            positions.append(position.play(position.parse_action(text)))
            made.append(True)
    except (IllegalMoveError, ValueError) as error:
        raise BadLine(str(error)) from None
    if not positions[-1].is_won():
        raise BadLine("the line does not win")
    moves = sum(made)
    best = Counted(moves, tuple(line))
    if finish is None:
        return best
    # Walk back from the end while the sweep still wins: the earliest such position ends
    # the line in one move.
    played = moves
    for index in range(len(line) - 1, -1, -1):
        played -= made[index + 1]
        swept = _swept(positions[index], finish)
        if swept is None:
            break
        if played + 1 < best.moves:
            best = Counted(played + 1, (*line[:index], *swept))
    return best


def _swept(position: P, finish: Finish[P]) -> tuple[str, ...] | None:
    """The sweep's actions from ``position`` when they win the game, else None."""
    try:
        actions = finish(position)
    except (IllegalMoveError, ValueError):
        return None
    for action in actions:
        position = position.play(action)
    return tuple(action.notation for action in actions) if position.is_won() else None
