"""What FreeCell's table shows, worked out from the engine so the templates only loop and
format: each column, free cell and foundation with its cards, the words a screen reader
says, and what a click, a double-click or a right-click does.

A place is plain facts (:class:`FreeCellPlace`); its words and its cards' views are made
from them only when its markup is, and a page keeps each place's markup
(``templates/freecell/_place.html``), so most of a board's render is lookups.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple, cast

from app.games.freecell.rules import (
    ALL_CELL_NAMES,
    ALL_COLUMN_NAMES,
    HOME,
    FreeCellMove,
    FreeCellPosition,
    shown_name,
)
from app.i18n import either, isolate, listing, ngettext, pgettext
from app.i18n import gettext as _
from app.rules.cards import SUIT_SYMBOLS, Card, Suit
from app.rules.kind import Board
from app.rules.protocol import Action, IllegalMoveError, InvalidMoveError
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
        return self.source if self.source in ALL_CELL_NAMES else f"{self.source}:{self.count}"


PlaceKind = Literal["cell", "foundation", "column"]


@dataclass(frozen=True, slots=True)
class FreeCellCardView:
    """One card as its place draws it: plain facts; its words (:attr:`label`) are made from
    them in the reader's language when asked."""

    card: Card
    kind: PlaceKind
    """The kind of place it lies in: its words say where it is."""
    place: str = ""
    """Its column or free cell (``'3'``, ``'b'``)."""
    bottom: bool = False
    """The last card of its column."""
    select: str | None = None
    """``?sel=`` value that picks this card and the run under it up."""
    selected: bool = False
    source: str = ""
    count: int = 0
    key: str = ""
    """The key that picks this card up (the top of a column's run, a free cell's card)."""

    @property
    def label(self) -> str:
        """What a screen reader says for the card."""
        if self.kind == "foundation":
            return card_name(self.card)
        if self.kind == "cell":
            where = _("%(card)s, free cell %(cell)s") % {
                "card": card_name(self.card),
                "cell": shown_name(self.place),
            }
        else:
            where = _("%(card)s, column %(col)s") % {
                "card": card_name(self.card),
                "col": shown_name(self.place),
            }
            if self.bottom:
                where = _("%(card)s, bottom card") % {"card": where}
        return _("%(card)s, selected") % {"card": where} if self.selected else where


class FreeCellPlace(NamedTuple):
    """A column, free cell or foundation as plain facts: its cards, what a click on it does.
    Its words (:attr:`label`) and its cards' views (:attr:`views`) are made from them when
    asked. Equal facts draw the same place, so a page may keep a place's markup and reuse
    it (:func:`app.web.templating.cell_markup`). A named tuple: made, hashed and compared
    in C (a table makes 16 and compares them with the table before)."""

    kind: PlaceKind
    name: str
    """The column (``'3'``), free cell (``'b'``) or foundation's suit (``'H'``): what a
    hint lights up."""
    cards: tuple[Card, ...]
    """Its cards, top to bottom; a foundation shows its top card only."""
    action: str | None = None
    """With a selection: the move a click here posts."""
    home: str | None = None
    """The move that sends its last card home, if it can go. (A double-click sends it home,
    else to the leftmost empty free cell: the script finds that cell on the table, so a free
    cell filling up changes no column.)"""
    movable: int = 0
    """How many of its last cards a click can pick up (none on a board to look at)."""
    held: int = 0
    """How many of its last cards are picked up."""
    refuses: bool = False
    """With a selection: the held cards cannot go here; a click asks the rules why (it
    never picks this place's cards up instead)."""

    @property
    def key(self) -> str:
        """The key that names the place as a target (every foundation is ``h``)."""
        return HOME if self.kind == "foundation" else self.name

    @property
    def shown_name(self) -> str:
        """Its name as the table shows it above it (Eight Off's eighth free cell ``h``,
        Seahaven's tenth column ``10``)."""
        return shown_name(self.name)

    @property
    def placeholder(self) -> str:
        """What an empty place shows: a foundation its suit."""
        return SUIT_SYMBOLS[cast(Suit, self.name)] if self.kind == "foundation" else ""

    @property
    def links(self) -> bool:
        """Its markup links to the game's page: cards to pick up or to put back."""
        if self.action is not None or self.refuses or not self.cards:
            return False
        return self.movable > 0 or self.held > 0

    @property
    def label(self) -> str:
        """What a screen reader says for the place."""
        name, cards = shown_name(self.name), self.cards
        if self.kind == "column":
            if cards:
                return _("column %(col)s, %(card)s at the bottom") % {
                    "col": name,
                    "card": card_name(cards[-1]),
                }
            return _("column %(col)s, empty") % {"col": name}
        if self.kind == "cell":
            if cards:
                return _("free cell %(cell)s, %(card)s") % {
                    "cell": name,
                    "card": card_name(cards[0]),
                }
            return _("free cell %(cell)s, empty") % {"cell": name}
        if cards:
            # TRANSLATORS: %(card)s is the card's name before a postposition (Hindi
            # «ईंट के इक्के तक»).
            return _("%(suit)s foundation, up to %(card)s") % {
                "suit": suit_name(name),
                "card": card_name(cards[-1], oblique=True),
            }
        return _("%(suit)s foundation, empty") % {"suit": suit_name(name)}

    @property
    def views(self) -> tuple[FreeCellCardView, ...]:
        """Its cards as it draws them: which a click picks up, which are held."""
        name, kind = self.name, self.kind
        if kind == "foundation":
            return tuple(FreeCellCardView(card, kind) for card in self.cards)
        if kind == "cell":
            if not self.movable:
                return tuple(FreeCellCardView(card, kind, name) for card in self.cards)
            chosen = self.held > 0
            return tuple(
                FreeCellCardView(
                    card, kind, name, select=name, selected=chosen, source=name, count=1, key=name
                )
                for card in self.cards
            )
        run, held, total = self.movable, self.held, len(self.cards)
        views = []
        for depth, card in enumerate(self.cards):
            count = total - depth
            movable = count <= run
            views.append(
                FreeCellCardView(
                    card,
                    kind,
                    name,
                    bottom=count == 1,
                    select=f"{name}:{count}" if movable else None,
                    selected=count <= held,
                    source=name if movable else "",
                    count=count if movable else 0,
                    key=name if count == run and not self.action else "",
                )
            )
        return tuple(views)


@dataclass(frozen=True, slots=True)
class FreeCellBoard:
    cells: tuple[FreeCellPlace, ...]
    foundations: tuple[FreeCellPlace, ...]
    columns: tuple[FreeCellPlace, ...]
    selection: Selection | None
    selection_label: str
    can_go_home: bool
    variant: str = "standard"
    """The variant's name: its table's shape (``fc-<variant>``) and its keys."""
    destinations: str = ""
    """With a selection: where all the held cards can go, in words (``column 3, a free
    cell or home``), or "" when nowhere."""
    holding_note: str = ""
    """With a selection: what the player holds and where it can go, in sentences: for a
    place that takes only part of a held run, which cards would go there and why not the
    rest (:func:`holding_note`)."""


def places(board: Board) -> tuple[FreeCellPlace, ...]:
    """Every place of the table: the free cells, the foundations, then the columns."""
    assert isinstance(board, FreeCellBoard)
    return (*board.cells, *board.foundations, *board.columns)


def parse_selection(position: FreeCellPosition, text: str | None) -> Selection | None:
    """Read ``?sel=3``, ``?sel=3:2`` or ``?sel=b``; None when it names nothing movable."""
    if not text:
        return None
    source, _, count_text = text.strip().lower().partition(":")
    names = position.variant.column_names
    if source in position.variant.cell_names:
        return Selection(source, 1) if position.card_at(source) is not None else None
    if source not in names:
        return None
    run = position.movable_run_length(names.index(source))
    if not count_text:
        count = run
    elif count_text.isascii() and count_text.isdigit():
        count = int(count_text)
    else:
        return None
    return Selection(source, count) if 1 <= count <= run else None


def held(source: str, count: int) -> str | None:
    """The ``?sel=`` that still holds ``count`` cards from ``source`` (``'5:2'``, ``'b'``)
    after a refused move: :func:`parse_selection` checks it against the board."""
    place = source.strip().lower()[:1]
    if not place.isascii() or not place.isalnum():
        return None
    return f"{place}:{count}" if place.isdigit() else place


def destination(position: FreeCellPosition, selection: Selection, target: str) -> str | None:
    """The move that takes the selection to ``target``, if the rules allow one (the
    engine's :meth:`~FreeCellPosition.action_between` says which)."""
    try:
        return position.action_between(selection.source, target, selection.count).notation
    except (IllegalMoveError, InvalidMoveError):
        return None


def board(
    position: FreeCellPosition, *, playable: bool = True, pick: str | None = None
) -> FreeCellBoard:
    """The table as the player sees it; ``playable`` False draws it for looking only."""
    selection = parse_selection(position, pick) if playable else None

    def action_to(target: str) -> str | None:
        return destination(position, selection, target) if selection else None

    def home_of(source: str) -> str | None:
        home = position.home_move(source) if playable else None
        return home.notation if home else None

    held_source, held_count = (selection.source, selection.count) if selection else ("", 0)

    def refuses(target: str) -> bool:
        return selection is not None and target != held_source

    columns = []
    for index, (name, cards) in enumerate(
        zip(position.variant.column_names, position.columns, strict=True)
    ):
        columns.append(
            FreeCellPlace(
                "column",
                name,
                cards,
                action=(action := action_to(name)),
                home=home_of(name),
                movable=position.movable_run_length(index) if playable else 0,
                held=held_count if held_source == name else 0,
                refuses=action is None and refuses(name),
            )
        )
    cells = []
    for slot, occupant in zip(position.variant.cell_names, position.cells, strict=True):
        cells.append(
            FreeCellPlace(
                "cell",
                slot,
                () if occupant is None else (occupant,),
                action=(action := action_to(slot)),
                home=home_of(slot),
                movable=1 if occupant is not None and playable else 0,
                held=1 if held_source == slot else 0,
                refuses=action is None and refuses(slot),
            )
        )
    home_action = action_to(HOME)
    partials = _partials(position, selection, columns) if selection else {}
    whole = [place for place in columns if place.action and place.name not in partials]
    destinations = _destinations(whole, cells, home_action) if selection else ""
    foundations = []
    for suit in FOUNDATION_SUITS:
        top = position.foundation_card(suit)
        foundations.append(
            FreeCellPlace(
                "foundation",
                suit,
                (top,) if top else (),
                action=home_action,
                refuses=home_action is None and selection is not None,
            )
        )
    return FreeCellBoard(
        cells=tuple(cells),
        foundations=tuple(foundations),
        columns=tuple(columns),
        selection=selection,
        selection_label=_describe(position, selection),
        destinations=destinations,
        holding_note=(
            holding_note(position, selection, destinations, partials) if selection else ""
        ),
        can_go_home=playable and position.any_home_move() is not None,
        variant=position.variant.name,
    )


def _partials(
    position: FreeCellPosition, selection: Selection, columns: list[FreeCellPlace]
) -> dict[str, int]:
    """The columns that would take only part of the held run: how many of its last cards
    each would take (onto a card, the part that builds on it; into an empty column, as
    many as may move there at once)."""
    found = {}
    for place in columns:
        if place.action:
            count = _moved_count(position, place.action)
            if count < selection.count:
                found[place.name] = count
    return found


def holding_note(
    position: FreeCellPosition, selection: Selection, whole: str, partials: dict[str, int]
) -> str:
    """What the player holds and where it can go, one whole sentence for each case: the
    places that take every held card (``whole``), then each place that takes only part of
    them, naming those cards and why not the rest."""
    cards, count = _describe(position, selection), selection.count
    if whole and partials:
        first = ngettext(
            "Holding %(cards)s: all %(num)s can go %(places)s.",
            "Holding %(cards)s: all %(num)s can go %(places)s.",
            count,
        ) % {"cards": cards, "num": isolate(count), "places": whole}
    elif whole:
        first = ngettext(
            "Holding %(cards)s: it can go %(places)s.",
            "Holding %(cards)s: they can go %(places)s.",
            count,
        ) % {"cards": cards, "places": whole}
    elif partials:
        first = _("Holding %(cards)s: not all of them can move together now.") % {"cards": cards}
    else:
        first = ngettext(
            "Holding %(cards)s: it cannot go anywhere now.",
            "Holding %(cards)s: they cannot go anywhere now.",
            count,
        ) % {"cards": cards}
    if not partials:  # a free cell's card, or a run that goes whole wherever it goes
        return first
    index = position.variant.column_names.index(selection.source)
    held = position.columns[index][-count:]
    parts = [
        part_words(position, held, target, part, done=False) for target, part in partials.items()
    ]
    return " ".join([first, *parts])


def part_words(
    position: FreeCellPosition,
    run: tuple[Card, ...],
    target: str,
    count: int,
    *,
    done: bool,
) -> str:
    """Why only the last ``count`` cards of ``run`` go (``done``: went) to column
    ``target`` of ``position`` (the position before the move; after it when ``done``):
    the card above them does not build on the target's card, or an empty column takes no
    more at once (with the free cells and other empty columns that limit says)."""
    part, stays = run[-count:], run[-count - 1]
    names = listing([isolate(card.symbol) for card in part])
    cells = position.empty_cells
    index = position.variant.column_names.index(target)
    column = position.columns[index]
    onto = column[-count - 1] if done and len(column) > count else None
    onto = onto if done else (column[-1] if column else None)
    if onto is None:
        others = position.empty_columns - (0 if done else 1)
        values = {
            "cards": names,
            "col": target,
            "num": isolate(count),
            "cells": isolate(cells),
            "columns": isolate(others),
        }
        if done:
            return (
                ngettext(
                    "Only %(cards)s went to the empty column %(col)s: at most %(num)s card can "
                    "move into an empty column at once now (empty free cells: %(cells)s, "
                    "other empty columns: %(columns)s).",
                    "Only %(cards)s went to the empty column %(col)s: at most %(num)s cards can "
                    "move into an empty column at once now (empty free cells: %(cells)s, "
                    "other empty columns: %(columns)s).",
                    count,
                )
                % values
            )
        return (
            ngettext(
                "Only %(cards)s can go to the empty column %(col)s: at most %(num)s card can "
                "move into an empty column at once now (empty free cells: %(cells)s, other empty "
                "columns: %(columns)s).",
                "Only %(cards)s can go to the empty column %(col)s: at most %(num)s cards can "
                "move into an empty column at once now (empty free cells: %(cells)s, other empty "
                "columns: %(columns)s).",
                count,
            )
            % values
        )
    values = {
        "cards": names,
        "col": target,
        "target": isolate(onto.symbol),
        "card": isolate(stays.symbol),
    }
    if done:
        return (
            ngettext(
                "Only %(cards)s went on %(target)s in column %(col)s: %(card)s cannot go on "
                "%(target)s.",
                "Only %(cards)s went on %(target)s in column %(col)s: %(card)s cannot go on "
                "%(target)s.",
                count,
            )
            % values
        )
    return (
        ngettext(
            "Only %(cards)s can go on %(target)s in column %(col)s: %(card)s cannot go on "
            "%(target)s.",
            "Only %(cards)s can go on %(target)s in column %(col)s: %(card)s cannot go on "
            "%(target)s.",
            count,
        )
        % values
    )


def _destinations(
    columns: list[FreeCellPlace], cells: list[FreeCellPlace], home: str | None
) -> str:
    """Where the held cards can go, in words: the columns, a free cell, home, each with
    its own preposition (English "to column 3", but "home": "it can go home") or
    postposition (Hindi «कॉलम 3 पर, किसी फ्री सेल में या नींव पर»), joined as the
    language says "or"."""
    places = [
        # TRANSLATORS: where the held cards can go ("Holding 7♣: it can go
        # to column 3, to a free cell or home"), each place with its own
        # preposition or postposition (Hindi «कॉलम %(col)s पर»).
        pgettext("destination", "to column %(col)s") % {"col": shown_name(place.name)}
        for place in columns
        if place.action
    ]
    if any(place.action for place in cells):
        # TRANSLATORS: where the held cards can go, with its postposition
        # (Hindi «किसी फ्री सेल में»).
        places.append(pgettext("destination", "to a free cell"))
    if home:
        # TRANSLATORS: the foundations, where the held cards can go, with
        # its postposition (Hindi «नींव पर»).
        places.append(pgettext("destination", "home"))
    return either(places) if places else ""


def _describe(position: FreeCellPosition, selection: Selection | None) -> str:
    """``'7♦'`` or ``'3 cards from 7♦'``: what the player is holding."""
    if selection is None:
        return ""
    if selection.source in ALL_CELL_NAMES:
        card = position.card_at(selection.source)
    else:
        card = position.columns[ALL_COLUMN_NAMES.index(selection.source)][-selection.count]
    assert card is not None
    if selection.count == 1:
        return isolate(card.symbol)
    return ngettext(
        "%(num)s card from %(card)s", "%(num)s cards from %(card)s", selection.count
    ) % {"num": isolate(selection.count), "card": isolate(card.symbol)}


def moved_to(position: FreeCellPosition, move: Action) -> tuple[str, int] | None:
    """The place (``p-3``, ``p-a``, a foundation ``p-H``) a move's cards go to, and how
    many of its last cards they are."""
    if not isinstance(move, FreeCellMove):
        return None
    card = position.card_at(move.source)
    if move.target == HOME:
        return (f"p-{card.suit}", 1) if card else None
    return f"p-{move.target}", move.count


def hinted_places(position: FreeCellPosition, move: Action) -> frozenset[str]:
    """The places a hinted move joins: its source and its target (a foundation by suit)."""
    if not isinstance(move, FreeCellMove):
        return frozenset()
    card = position.card_at(move.source)
    target = card.suit if move.target == HOME and card else move.target
    return frozenset({move.source, target})


def _moved_count(position: FreeCellPosition, action: str) -> int:
    """How many cards ``action`` moves (a run moves several)."""
    try:
        return position.parse_action(action).count
    except ValueError:
        return 1
