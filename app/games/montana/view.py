"""What Montana's board shows, worked out from the engine so the templates only loop and
format.

Each cell of the grid becomes a :class:`MontanaCell`: its card or gap, the words a screen
reader says, and what clicking it does (a move to post, a link that marks the 2s that may
fill a column-1 gap, or nothing).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

from app.caches import Kept, key
from app.games.montana.rules import (
    COLUMNS,
    ROWS,
    MontanaMove,
    MontanaPosition,
    cell_name,
    parse_cell,
)
from app.i18n import gettext as _
from app.i18n import isolate
from app.rules.cards import Card
from app.rules.kind import Board
from app.rules.protocol import Action, InvalidMoveError
from app.words import card_name

CellState = Literal["in-place", "movable", "candidate", "idle", "open", "choose", "dead", "picked"]


class MontanaCell(NamedTuple):
    """One cell as plain facts; its words (:attr:`label`, :attr:`tip`) are made from them
    in the reader's language when asked. Equal facts draw the same cell, so a page may
    keep a cell's markup and reuse it (:func:`app.web.templating.cell_markup`). A named
    tuple: made, hashed and compared in C (a board makes 52 and compares them with the
    board before)."""

    name: str
    card: Card | None
    state: CellState
    action: str | None = None
    """The move a click posts (``'8C B7'``)."""
    pick: str | None = None
    """A column-1 gap with several 2s that fit: clicking marks them (``?pick=B1``)."""
    fits: Card | None = None
    """For an open gap: the card that fits it, shown faint inside it."""
    goes: str = ""
    """Where a movable card goes (its gap), or the gap a candidate 2 would fill."""
    located: bool = True
    """The words say the card's row and column (a board to play; a replay's is looked at)."""
    after_king: bool = False
    """For a dead gap: it follows a king (else another gap)."""
    why: bool = False
    """Choosing it does nothing (a card that cannot move, a dead gap): it links to the
    page that says why (``?why=B7``), so no click is silent."""

    @property
    def links(self) -> bool:
        """The cell is a link to the game's page (choosing a 2, or cancelling that)."""
        return self.pick is not None or self.state == "picked"

    @property
    def classes(self) -> str:
        """``movable black s-S``: its state, and a card's colour and suit (a four-colour
        deck colours by suit) or ``gap`` (the style finds a cell by its ``data-cell``)."""
        if self.card is None:
            return f"{self.state} gap"
        return f"{self.state} {self.card.colour} s-{self.card.suit}"

    @property
    def face(self) -> str:
        """What the cell shows: a card's rank and suit on two lines, a gap's wanted card."""
        if self.card:
            symbol = self.card.symbol
            return f"{symbol[:-1]}\n{symbol[-1]}"
        if self.fits:
            return self.fits.symbol
        return "2" if self.state in ("choose", "picked") else "×"

    @property
    def label(self) -> str:
        """What a screen reader says for the cell."""
        name = self.name
        if self.card is None:
            place = {"row": name[0], "col": name[1:]}
            if self.state == "picked":
                return _("gap, row %(row)s, column %(col)s: choose a 2") % place
            if self.state == "choose":
                return _("gap, row %(row)s, column %(col)s: wants a 2") % place
            if self.fits is not None:
                # TRANSLATORS: %(card)s is the card's name before a postposition (Hindi
                # «इसमें चिड़ी के 8 को रखा जा सकता है»).
                return _("gap, row %(row)s, column %(col)s: wants %(card)s") % {
                    **place,
                    "card": card_name(self.fits, oblique=True),
                }
            if self.after_king:
                return _("gap, row %(row)s, column %(col)s: dead, after a king") % place
            return _("gap, row %(row)s, column %(col)s: dead, after a gap") % place
        where = card_name(self.card)
        if self.located:
            where = _("%(card)s, row %(row)s, column %(col)s") % {
                "card": where,
                "row": name[0],
                "col": name[1:],
            }
        if self.state == "candidate":
            return _("%(card)s: put it in %(cell)s") % {"card": where, "cell": self.goes}
        if self.state == "in-place":
            return _("%(card)s, in place") % {"card": where}
        if self.state == "movable":
            return _("%(card)s: move to %(cell)s") % {"card": where, "cell": self.goes}
        return where

    @property
    def tip(self) -> str:
        """A gap's tooltip, naming the cell as hints and coordinates do (``Gap B9``)."""
        cell = {"cell": isolate(self.name)}
        if self.state == "picked":
            return _("Gap %(cell)s: choose a 2") % cell
        if self.state == "choose":
            return _("Gap %(cell)s: wants a 2") % cell
        if self.fits is not None:
            card = card_name(self.fits, oblique=True)
            # TRANSLATORS: %(card)s is the card's name before a postposition (Hindi
            # «इसमें चिड़ी के 8 को रखा जा सकता है»).
            return _("Gap %(cell)s: wants %(card)s") % {**cell, "card": card}
        if self.after_king:
            return _("Gap %(cell)s: dead, after a king") % cell
        return _("Gap %(cell)s: dead, after a gap") % cell


class AceHead(NamedTuple):
    """The ace heading a row in Blue Moon and Red Moon: fixed there, never played."""

    card: Card
    row: str

    @property
    def classes(self) -> str:
        return f"ace-head {self.card.colour} s-{self.card.suit}"

    @property
    def face(self) -> str:
        symbol = self.card.symbol
        return f"{symbol[:-1]}\n{symbol[-1]}"

    @property
    def label(self) -> str:
        return _("%(card)s, at the head of row %(row)s: the row's suit") % {
            "card": card_name(self.card),
            "row": self.row,
        }


@dataclass(frozen=True, slots=True)
class MontanaBoard:
    rows: tuple[tuple[MontanaCell, ...], ...]
    aces: tuple[Card, ...]
    """The aces heading rows A … D (Blue Moon, Red Moon), drawn before column 1."""
    has_moves: bool
    can_redeal: bool
    redeals_left: int
    picked: str | None

    @property
    def heads(self) -> tuple[AceHead, ...]:
        """The rows' heads to draw before column 1 (none in Montana)."""
        return tuple(AceHead(ace, "ABCD"[row]) for row, ace in enumerate(self.aces))


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
    position: MontanaPosition, *, playable: bool = True, pick: str | None = None
) -> MontanaBoard:
    """The board as the player sees it; ``playable`` False draws it for looking only.

    A board is plain facts, no words, so the same position always makes the same board:
    the last boards made are kept. A move's answer compares the board before it (made by
    the answer before) with the one after, and an undo goes back to a board made before."""
    # The key holds the gap checked, never the query's text (any string a client sends).
    picked = picked_gap(position, pick) if playable else None
    found = _boards.get(key(position, playable, picked))
    return _board(position, playable, picked) if found is None else found


BOARDS_BYTES: Final = 8 * 1024 * 1024
"""Boards kept per process (a board is 52 small cells, about 12 KB): the last few hundred."""
BOARD_BYTES: Final = 12 * 1024

_boards = Kept[Hashable, "MontanaBoard"](
    "Montana boards", BOARDS_BYTES, lambda key, board: BOARD_BYTES
)


def _board(position: MontanaPosition, playable: bool, picked: int | None) -> MontanaBoard:
    return _boards.put(key(position, playable, picked), _made(position, playable, picked))


def _made(position: MontanaPosition, playable: bool, picked: int | None) -> MontanaBoard:
    candidates = {}
    if picked is not None:
        candidates = {move.card: move for move in position.moves_to(picked)}
    first_move: dict[Card, MontanaMove] = {}
    if playable:
        for move in position.legal_moves():
            first_move.setdefault(move.card, move)
    cells = []
    for index, card in enumerate(position.cells):
        name = CELL_NAMES[index]
        if card is None:
            cells.append(_gap(position, index, name, playable, picked))
        elif card in candidates:
            move = candidates[card]
            goes = name_of(picked)
            cells.append(MontanaCell(name, card, "candidate", move.notation, goes=goes))
        elif position.in_place(index):
            cells.append(MontanaCell(name, card, "in-place", located=playable, why=playable))
        elif card in first_move:
            move = first_move[card]
            goes = CELL_NAMES[move.cell]
            cells.append(MontanaCell(name, card, "movable", move.notation, goes=goes))
        else:
            cells.append(MontanaCell(name, card, "idle", located=playable, why=playable))
    rows = tuple(tuple(cells[row * COLUMNS : (row + 1) * COLUMNS]) for row in range(ROWS))
    return MontanaBoard(
        rows=rows,
        aces=position.aces,
        has_moves=position.has_moves(),
        can_redeal=position.can_redeal(),
        redeals_left=position.redeals_left,
        picked=name_of(picked) if picked is not None else None,
    )


def cells(board: Board) -> tuple[MontanaCell, ...]:
    """The board's 52 cells, row by row."""
    assert isinstance(board, MontanaBoard)
    return tuple(cell for row in board.rows for cell in row)


def name_of(cell: int | None) -> str:
    return "" if cell is None else CELL_NAMES[cell]


CELL_NAMES: Final = tuple(cell_name(index) for index in range(ROWS * COLUMNS))


def _gap(
    position: MontanaPosition, index: int, name: str, playable: bool, picked: int | None
) -> MontanaCell:
    if index % COLUMNS == 0:
        moves = position.moves_to(index)
        if index == picked:
            return MontanaCell(name, None, "picked")
        if len(moves) == 1:
            action = moves[0].notation if playable else None
            return MontanaCell(name, None, "open", action, fits=moves[0].card)
        # Several 2s fit: it wants a 2, whoever looks (a board to look at links nowhere).
        return MontanaCell(name, None, "choose", pick=name if playable else None)
    wanted = position.wanted(index)
    if wanted is None:
        after_king = position.cells[index - 1] is not None
        return MontanaCell(name, None, "dead", after_king=after_king, why=playable)
    action = position.moves_to(index)[0].notation if playable else None
    return MontanaCell(name, None, "open", action, fits=wanted)


def why(position: MontanaPosition, place: str) -> str | None:
    """Why choosing the card or gap at ``place`` does nothing, in the rules' words."""
    try:
        index = parse_cell(place)
    except InvalidMoveError:
        return None
    card = position.cells[index]
    at = {"cell": isolate(place)}
    if card is None:
        if index % COLUMNS == 0 or position.wanted(index) is not None:
            return None
        left = position.cells[index - 1]
        if left is None:
            return _("Gap %(cell)s is dead until the gap before it, %(left)s, is filled.") % {
                **at,
                "left": isolate(CELL_NAMES[index - 1]),
            }
        return _("Gap %(cell)s is dead: nothing can follow a king.") % at
    named = {**at, "card": isolate(card.symbol)}
    if position.in_place(index):
        return _("%(card)s is in place: it stays there.") % named
    if any(move.card == card for move in position.legal_moves()):
        return None
    if card.rank == 2 and position.aces:
        row = next(r for r, ace in enumerate(position.aces) if ace.suit == card.suit)
        return _(
            "%(card)s cannot move: it goes only into column 1 of row %(row)s, "
            "which begins with %(ace)s, and that cell is not a gap."
        ) % {**named, "row": isolate("ABCD"[row]), "ace": isolate(position.aces[row].symbol)}
    if card.rank == 2:
        if index % COLUMNS == 0:
            return (
                _("%(card)s stays in column 1: moving it to another column-1 gap gains nothing.")
                % named
            )
        return (
            _("%(card)s cannot move: a 2 goes only into a gap in column 1, and none is open.")
            % named
        )
    before = Card(card.rank - 1, card.suit)
    spot = position.where(before)
    named["before"] = isolate(before.symbol)
    if spot % COLUMNS == COLUMNS - 1:
        return (
            _("%(card)s cannot move: it can only follow %(before)s, which is in the last column.")
            % named
        )
    return _(
        "%(card)s cannot move: it can only follow %(before)s, "
        "and the cell after it, %(after)s, is not a gap."
    ) % {
        **named,
        "after": isolate(CELL_NAMES[spot + 1]),
    }


def moved_to(position: MontanaPosition, move: Action) -> tuple[str, int] | None:
    """The grid cell (``c-B7``) the card a move plays goes to; None for a redeal."""
    if isinstance(move, MontanaMove):
        return f"c-{CELL_NAMES[move.cell]}", 1
    return None


def hinted_places(position: MontanaPosition, move: Action) -> frozenset[str]:
    """The cells a hinted move joins (its card's and the gap's), or the redeal button."""
    if isinstance(move, MontanaMove):
        return frozenset({cell_name(position.where(move.card)), cell_name(move.cell)})
    return frozenset({"redeal"})
