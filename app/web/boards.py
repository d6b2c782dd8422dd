"""What a board shows, worked out from the engine so the templates only loop and format.

Each cell of the Montana grid becomes a :class:`MontanaCell`: its card or gap, the words a
screen reader says, and what clicking it does (a move to post, a link that marks the 2s
that may fill a column-1 gap, or nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.games import Game
from app.rules.cards import Card
from app.rules.montana import COLUMNS, ROWS, MontanaMove, MontanaPosition, cell_name, parse_cell
from app.rules.protocol import InvalidMoveError

CellState = Literal["in-place", "movable", "candidate", "idle", "open", "choose", "dead", "picked"]


@dataclass(frozen=True, slots=True)
class MontanaCell:
    name: str
    card: Card | None
    state: CellState
    label: str
    action: str | None = None
    """The move a click posts (``'8C B7'``)."""
    pick: str | None = None
    """A column-1 gap with several 2s that fit: clicking marks them (``?pick=B1``)."""
    wants: str | None = None
    """For a gap: the card that fits it, shown faint inside it."""


@dataclass(frozen=True, slots=True)
class MontanaBoard:
    rows: tuple[tuple[MontanaCell, ...], ...]
    has_moves: bool
    can_redeal: bool
    redeals_left: int
    picked: str | None


def picked_gap(position: MontanaPosition, pick: str | None) -> int | None:
    """The column-1 gap the player is choosing a 2 for, if ``pick`` names one."""
    if not pick:
        return None
    try:
        cell = parse_cell(pick)
    except InvalidMoveError:
        return None
    if position.cells[cell] is not None or len(position.moves_to(cell)) < 2:
        return None
    return cell


def montana_board(game: Game, pick: str | None = None) -> MontanaBoard:
    position = game.position
    assert isinstance(position, MontanaPosition)
    playable = not game.is_over
    picked = picked_gap(position, pick) if playable else None
    candidates = {}
    if picked is not None:
        candidates = {move.card: move for move in position.moves_to(picked)}
    first_move: dict[Card, MontanaMove] = {}
    if playable:
        for move in position.legal_moves():
            first_move.setdefault(move.card, move)
    cells = []
    for index, card in enumerate(position.cells):
        name = cell_name(index)
        if card is None:
            cells.append(_gap(position, index, name, playable, picked))
        elif card in candidates:
            label = f"{card.label}, put it in {name_of(picked)}"
            cells.append(MontanaCell(name, card, "candidate", label, candidates[card].notation))
        elif position.in_place(index):
            cells.append(MontanaCell(name, card, "in-place", f"{card.label}, in place"))
        elif card in first_move:
            move = first_move[card]
            label = f"{card.label}, move to {cell_name(move.cell)}"
            cells.append(MontanaCell(name, card, "movable", label, move.notation))
        else:
            cells.append(MontanaCell(name, card, "idle", card.label))
    rows = tuple(tuple(cells[row * COLUMNS : (row + 1) * COLUMNS]) for row in range(ROWS))
    return MontanaBoard(
        rows=rows,
        has_moves=position.has_moves(),
        can_redeal=position.can_redeal(),
        redeals_left=position.redeals_left,
        picked=name_of(picked) if picked is not None else None,
    )


def name_of(cell: int | None) -> str:
    return "" if cell is None else cell_name(cell)


def _gap(
    position: MontanaPosition, index: int, name: str, playable: bool, picked: int | None
) -> MontanaCell:
    moves = position.moves_to(index)
    if index % COLUMNS == 0:
        if index == picked:
            return MontanaCell(name, None, "picked", f"gap {name}: choose a 2", wants="2")
        if len(moves) == 1 or not playable:
            move = moves[0]
            label = f"gap {name}: wants {move.card.label}"
            action = move.notation if playable else None
            return MontanaCell(name, None, "open", label, action, wants=move.card.symbol)
        return MontanaCell(name, None, "choose", f"gap {name}: wants a 2", pick=name, wants="2")
    wanted = position.wanted(index)
    if wanted is None:
        left = position.cells[index - 1]
        why = "after a king" if left is not None else "after a gap"
        return MontanaCell(name, None, "dead", f"gap {name}: dead, {why}")
    label = f"gap {name}: wants {wanted.label}"
    action = moves[0].notation if playable else None
    return MontanaCell(name, None, "open", label, action, wants=wanted.symbol)
