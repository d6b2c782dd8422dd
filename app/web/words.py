"""Actions in words for people ("8♣ to B7", "3 cards from column 3 to column 6")."""

from __future__ import annotations

from app.rules.freecell import CELL_NAMES, HOME, FreeCellPosition
from app.rules.montana import MontanaMove, MontanaPosition, cell_name
from app.rules.protocol import Position


def describe(kind: str, notation: str, before: Position, after: Position) -> str:
    """Say what an action did, given the positions before and after it."""
    if kind == "undo":
        return "undo"
    if kind == "resign":
        return "resign"
    if isinstance(before, MontanaPosition) and isinstance(after, MontanaPosition):
        return _montana(notation, before, after)
    if isinstance(before, FreeCellPosition):
        words = _freecell(notation, before)
        return f"{words} (automatic)" if kind == "auto" else words
    return notation


def _montana(notation: str, before: MontanaPosition, after: MontanaPosition) -> str:
    action = before.parse_action(notation)
    if isinstance(action, MontanaMove):
        return f"{action.card.symbol} to {cell_name(action.cell)}"
    total = after.redeals_done + after.redeals_left
    return f"redeal {after.redeals_done} of {total}"


def _place(name: str) -> str:
    if name == HOME:
        return "home"
    return f"free cell {name}" if name in CELL_NAMES else f"column {name}"


def _freecell(notation: str, before: FreeCellPosition) -> str:
    move = before.parse_action(notation)
    card = before.card_at(move.source)
    if move.count > 1:
        return f"{move.count} cards from {_place(move.source)} to {_place(move.target)}"
    name = card.symbol if card else "a card"
    if move.target == HOME:
        return f"{name} home from {_place(move.source)}"
    return f"{name} from {_place(move.source)} to {_place(move.target)}"
