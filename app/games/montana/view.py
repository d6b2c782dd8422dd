"""What Montana's board shows, worked out from the engine so the templates only loop and
format.

Each cell of the grid becomes a :class:`MontanaCell`: its card or gap, the words a screen
reader says, and what clicking it does (a move to post, a link that marks the 2s that may
fill a column-1 gap, or nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.games.montana.rules import (
    COLUMNS,
    ROWS,
    MontanaMove,
    MontanaPosition,
    cell_name,
    parse_cell,
)
from app.i18n import gettext as _
from app.rules.cards import Card
from app.rules.protocol import InvalidMoveError, Position
from app.words import card_name

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
    tip: str = ""
    """For a gap: its tooltip, naming the cell as hints and coordinates do (``Gap B9``)."""

    @property
    def classes(self) -> str:
        """``cell movable card black``: its state, and a card's colour or a gap."""
        return (
            f"cell {self.state} card {self.card.colour}" if self.card else f"cell {self.state} gap"
        )

    @property
    def face(self) -> str:
        """What the cell shows: a card's rank and suit on two lines, a gap's wanted card."""
        if self.card:
            symbol = self.card.symbol
            return f"{symbol[:-1]}\n{symbol[-1]}"
        return self.wants or "×"


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


def board(
    position: Position, *, playable: bool = True, pick: str | None = None, auto_moves: bool = True
) -> MontanaBoard:
    """The board as the player sees it; ``playable`` False draws it for looking only
    (Montana makes no automatic moves: ``auto_moves`` is not used)."""
    assert isinstance(position, MontanaPosition)
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
            continue
        # A board to play says where each card is; a replay's board is looked at only.
        where = card_name(card)
        if playable:
            where = _("%(card)s, row %(row)s, column %(col)s") % {
                "card": where,
                "row": name[0],
                "col": name[1:],
            }
        if card in candidates:
            label = _("%(card)s: put it in %(cell)s") % {"card": where, "cell": name_of(picked)}
            cells.append(MontanaCell(name, card, "candidate", label, candidates[card].notation))
        elif position.in_place(index):
            cells.append(
                MontanaCell(name, card, "in-place", _("%(card)s, in place") % {"card": where})
            )
        elif card in first_move:
            move = first_move[card]
            label = _("%(card)s: move to %(cell)s") % {"card": where, "cell": cell_name(move.cell)}
            cells.append(MontanaCell(name, card, "movable", label, move.notation))
        else:
            cells.append(MontanaCell(name, card, "idle", where))
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
    place = {"row": name[0], "col": name[1:]}
    if index % COLUMNS == 0:
        if index == picked:
            label = _("gap, row %(row)s, column %(col)s: choose a 2") % place
            tip = _("Gap %(cell)s: choose a 2") % {"cell": name}
            return MontanaCell(name, None, "picked", label, wants="2", tip=tip)
        if len(moves) == 1 or not playable:
            move = moves[0]
            label = _("gap, row %(row)s, column %(col)s: wants %(card)s") % {
                **place,
                "card": card_name(move.card),
            }
            action = move.notation if playable else None
            tip = _("Gap %(cell)s: wants %(card)s") % {"cell": name, "card": card_name(move.card)}
            return MontanaCell(name, None, "open", label, action, wants=move.card.symbol, tip=tip)
        label = _("gap, row %(row)s, column %(col)s: wants a 2") % place
        tip = _("Gap %(cell)s: wants a 2") % {"cell": name}
        return MontanaCell(name, None, "choose", label, pick=name, wants="2", tip=tip)
    wanted = position.wanted(index)
    if wanted is None:
        if position.cells[index - 1] is not None:
            label = _("gap, row %(row)s, column %(col)s: dead, after a king") % place
            tip = _("Gap %(cell)s: dead, after a king") % {"cell": name}
        else:
            label = _("gap, row %(row)s, column %(col)s: dead, after a gap") % place
            tip = _("Gap %(cell)s: dead, after a gap") % {"cell": name}
        return MontanaCell(name, None, "dead", label, tip=tip)
    label = _("gap, row %(row)s, column %(col)s: wants %(card)s") % {
        **place,
        "card": card_name(wanted),
    }
    action = moves[0].notation if playable else None
    tip = _("Gap %(cell)s: wants %(card)s") % {"cell": name, "card": card_name(wanted)}
    return MontanaCell(name, None, "open", label, action, wants=wanted.symbol, tip=tip)


def hinted_places(position: Position, notation: str) -> frozenset[str]:
    """The cells a hinted move joins (its card's and the gap's), or the redeal button."""
    assert isinstance(position, MontanaPosition)
    try:
        move = position.parse_action(notation)
    except ValueError:
        return frozenset()
    if isinstance(move, MontanaMove):
        return frozenset({cell_name(position.where(move.card)), cell_name(move.cell)})
    return frozenset({"redeal"})


def moved_count(position: Position, action: str) -> int:
    """Cards an action moves: always one in Montana."""
    return 1
