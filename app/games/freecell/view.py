"""What FreeCell's table shows, worked out from the engine so the templates only loop and
format: each column, free cell and foundation with its cards, the words a screen reader
says, and what a click, a double-click or a right-click does.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.freecell.rules import CELL_NAMES, COLUMN_NAMES, HOME, FreeCellPosition
from app.i18n import gettext as _
from app.rules.cards import SUIT_SYMBOLS, Card, Suit
from app.rules.protocol import IllegalMoveError, InvalidMoveError, Position
from app.words import card_name, suit_name

FOUNDATION_SUITS: tuple[Suit, ...] = ("S", "H", "D", "C")
"""The foundations' order on screen, left to right."""


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


def board(
    position: Position, *, playable: bool = True, pick: str | None = None, auto_moves: bool = True
) -> FreeCellBoard:
    """The table as the player sees it; ``playable`` False draws it for looking only."""
    assert isinstance(position, FreeCellPosition)
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


def hinted_places(position: Position, notation: str) -> frozenset[str]:
    """The places a hinted move joins: its source and its target (a foundation by suit)."""
    assert isinstance(position, FreeCellPosition)
    try:
        move = position.parse_action(notation)
    except ValueError:
        return frozenset()
    card = position.card_at(move.source)
    target = card.suit if move.target == HOME and card else move.target
    return frozenset({move.source, target})


def moved_count(position: Position, action: str) -> int:
    """How many cards ``action`` moves (a run moves several)."""
    assert isinstance(position, FreeCellPosition)
    try:
        return position.parse_action(action).count
    except ValueError:
        return 1
