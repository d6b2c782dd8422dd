"""What a board shows, worked out from the engine so the templates only loop and format.

Each cell of the Montana grid becomes a :class:`MontanaCell`: its card or gap, the words a
screen reader says, and what clicking it does (a move to post, a link that marks the 2s
that may fill a column-1 gap, or nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.games.freecell.rules import CELL_NAMES, COLUMN_NAMES, HOME, FreeCellPosition
from app.games.montana.rules import (
    COLUMNS,
    ROWS,
    MontanaMove,
    MontanaPosition,
    cell_name,
    parse_cell,
)
from app.i18n import gettext as _
from app.rules.cards import SUIT_SYMBOLS, Card, Suit
from app.rules.protocol import IllegalMoveError, InvalidMoveError
from app.web.words import card_name, suit_name

FOUNDATION_SUITS: tuple[Suit, ...] = ("S", "H", "D", "C")
"""The foundations' order on screen, left to right."""

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


def montana_board(
    position: MontanaPosition, *, playable: bool = True, pick: str | None = None
) -> MontanaBoard:
    """The board as the player sees it; ``playable`` False draws it for looking only."""
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


# -- FreeCell ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Selection:
    """What the player picked up: ``count`` cards from ``source`` (``'3'`` or ``'b'``)."""

    source: str
    count: int

    @property
    def query(self) -> str:
        return self.source if self.source in CELL_NAMES else f"{self.source}:{self.count}"


@dataclass(frozen=True, slots=True)
class FreeCellCardView:
    card: Card
    label: str
    select: str | None = None
    """``?sel=`` value that picks this card and the run under it up."""
    selected: bool = False
    source: str = ""
    count: int = 0
    key: str = ""
    """The key that picks this card up (the top of a column's run, a free cell's card)."""


@dataclass(frozen=True, slots=True)
class FreeCellPlace:
    """A column, free cell or foundation: its cards and what a click on it does."""

    name: str
    key: str
    label: str
    cards: tuple[FreeCellCardView, ...]
    action: str | None = None
    """With a selection: the move a click here posts."""
    select: str | None = None
    """Without one: ``?sel=`` value that picks this place's movable cards up."""
    quick: str | None = None
    home: str | None = None
    placeholder: str = ""


@dataclass(frozen=True, slots=True)
class FreeCellBoard:
    cells: tuple[FreeCellPlace, ...]
    foundations: tuple[FreeCellPlace, ...]
    columns: tuple[FreeCellPlace, ...]
    selection: Selection | None
    selection_label: str
    max_to_empty: int
    has_moves: bool
    can_go_home: bool
    auto_moves: bool


def parse_selection(position: FreeCellPosition, text: str | None) -> Selection | None:
    """Read ``?sel=3``, ``?sel=3:2`` or ``?sel=b``; None when it names nothing movable."""
    if not text:
        return None
    source, _, count_text = text.strip().lower().partition(":")
    if source in CELL_NAMES:
        return Selection(source, 1) if position.card_at(source) is not None else None
    if source not in COLUMN_NAMES:
        return None
    run = position.movable_run_length(COLUMN_NAMES.index(source))
    if not count_text:
        count = run
    elif count_text.isascii() and count_text.isdigit():
        count = int(count_text)
    else:
        return None
    return Selection(source, count) if 1 <= count <= run else None


def destination(position: FreeCellPosition, selection: Selection, target: str) -> str | None:
    """The move that takes the selection to ``target``, if the rules allow one (the
    engine's :meth:`~FreeCellPosition.action_between` says which)."""
    try:
        return position.action_between(selection.source, target, selection.count).notation
    except (IllegalMoveError, InvalidMoveError):
        return None


def freecell_board(
    position: FreeCellPosition,
    *,
    playable: bool = True,
    pick: str | None = None,
    auto_moves: bool = True,
) -> FreeCellBoard:
    """The table as the player sees it; ``playable`` False draws it for looking only."""
    selection = parse_selection(position, pick) if playable else None

    def action_to(target: str) -> str | None:
        return destination(position, selection, target) if selection else None

    def quick_and_home(source: str) -> tuple[str | None, str | None]:
        if not playable:
            return None, None
        quick, home = position.quick_move(source), position.home_move(source)
        return (quick.notation if quick else None, home.notation if home else None)

    columns = []
    for index, (name, cards) in enumerate(zip(COLUMN_NAMES, position.columns, strict=True)):
        run = position.movable_run_length(index) if playable else 0
        action = action_to(name)
        views = []
        for depth, card in enumerate(cards):
            count = len(cards) - depth
            movable = count <= run
            chosen = bool(selection and selection.source == name and count <= selection.count)
            where = _("%(card)s, column %(col)s") % {"card": card_name(card), "col": name}
            if count == 1:
                where = _("%(card)s, bottom card") % {"card": where}
            views.append(
                FreeCellCardView(
                    card,
                    _("%(card)s, selected") % {"card": where} if chosen else where,
                    select=f"{name}:{count}" if movable else None,
                    selected=chosen,
                    source=name if movable else "",
                    count=count if movable else 0,
                    key=name if count == run and not action else "",
                )
            )
        quick, home = quick_and_home(name)
        if cards:
            label = _("column %(col)s, %(card)s at the bottom") % {
                "col": name,
                "card": card_name(cards[-1]),
            }
        else:
            label = _("column %(col)s, empty") % {"col": name}
        columns.append(
            FreeCellPlace(
                name,
                name,
                label,
                tuple(views),
                action=action,
                select=name if run and not selection else None,
                quick=quick,
                home=home,
            )
        )
    cells = []
    for slot, occupant in zip(CELL_NAMES, position.cells, strict=True):
        chosen = bool(selection and selection.source == slot)
        held: tuple[FreeCellCardView, ...] = ()
        if occupant is not None:
            where = _("%(card)s, free cell %(cell)s") % {"card": card_name(occupant), "cell": slot}
            label = _("%(card)s, selected") % {"card": where} if chosen else where
            view = FreeCellCardView(occupant, label, slot, chosen, slot, 1, slot)
            held = (view if playable else FreeCellCardView(occupant, where),)
        quick, home = quick_and_home(slot)
        if occupant is not None:
            cell_label = _("free cell %(cell)s, %(card)s") % {
                "cell": slot,
                "card": card_name(occupant),
            }
        else:
            cell_label = _("free cell %(cell)s, empty") % {"cell": slot}
        cells.append(
            FreeCellPlace(
                slot,
                slot,
                cell_label,
                held,
                action=action_to(slot),
                select=slot if occupant and playable and not selection else None,
                home=home,
                quick=quick,
            )
        )
    home_action = action_to(HOME)
    foundations = []
    for suit in FOUNDATION_SUITS:
        top = position.foundation_card(suit)
        if top:
            label = _("%(suit)s foundation, up to %(card)s") % {
                "suit": suit_name(suit),
                "card": card_name(top),
            }
        else:
            label = _("%(suit)s foundation, empty") % {"suit": suit_name(suit)}
        foundations.append(
            FreeCellPlace(
                suit,
                HOME,
                label,
                (FreeCellCardView(top, card_name(top)),) if top else (),
                action=home_action,
                placeholder=SUIT_SYMBOLS[suit],
            )
        )
    return FreeCellBoard(
        cells=tuple(cells),
        foundations=tuple(foundations),
        columns=tuple(columns),
        selection=selection,
        selection_label=_describe(position, selection),
        max_to_empty=position.max_run(to_empty=True),
        has_moves=position.has_moves(),
        can_go_home=playable and position.any_home_move() is not None,
        auto_moves=auto_moves,
    )


def _describe(position: FreeCellPosition, selection: Selection | None) -> str:
    """``'7♦'`` or ``'3 cards from 7♦'``: what the player is holding."""
    if selection is None:
        return ""
    if selection.source in CELL_NAMES:
        card = position.card_at(selection.source)
    else:
        card = position.columns[COLUMN_NAMES.index(selection.source)][-selection.count]
    assert card is not None
    return card.symbol if selection.count == 1 else f"{selection.count} cards from {card.symbol}"
