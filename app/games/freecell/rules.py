"""FreeCell: the rules of ``shared/rules/freecell.md`` as pure values.

Glossary
--------
- The **tableau** is eight **columns**, named ``1``-``8`` left to right and indexed 0 … 7.
  A column is listed from its top card (dealt first, covered) to its **exposed** card (last,
  the one that moves).
- Four **free cells**, named ``a``-``d``, hold one card each.
- Four **foundations**, written ``h`` (home) in moves, one per suit, built from the ace up.
  A foundation is stored as the rank of its top card (0 = empty), in suit order C D H S.
- A card goes on a column's exposed card when it is one rank lower and of the other colour.
  A king has no card to go on, so it moves to a column only when the column is empty (how
  this project reads the rules' "nothing goes on a king except into an empty column").
- A **run** is the longest sequence at the bottom of a column that descends by one rank and
  alternates colour. A run of several cards moves as one (a **supermove**), as if card by
  card through the empty free cells and columns: at most
  ``(1 + empty free cells) * 2 ** empty columns`` cards onto a card, and one power of two
  fewer into an empty column (the target does not count).
- A card is **safe** when it can go home and no card in play could need it: aces and 2s
  always, any other card when both foundations of the other colour are at least at its rank
  minus one. The game sends safe cards home by itself (:meth:`~FreeCellPosition.automatic_move`).

Notation
--------
A move is its source then its target. Sources are columns ``1``-``8`` and free cells
``a``-``d``; targets are those and ``h``. ``3a`` puts column 3's exposed card into free
cell a, ``a5`` plays free cell a onto column 5, ``3h`` and ``ah`` send a card home. Onto a
card, ``36`` moves the one run of column 3 that fits column 6's exposed card. Into an empty
column, ``36`` moves one card and ``36v4`` four: ``v`` and the count in hex, as fc-solve's
extended notation writes it. Free cell to free cell is not a move.

A position is written in fc-solve's board format: an optional ``Foundations:`` line (suits
in fc-solve's order H C D S, ``0`` for an empty foundation), an optional ``Freecells:`` line
(``-`` for an empty cell), then one line per column, top card first::

    Foundations: H-A C-0 D-0 S-2
    Freecells: 5C - - QD
    : JD KD 2S 4C 3S 6D 6S
    :
    ...

>>> position = new_game(1)
>>> print(position.to_text(), end="")
: JD KD 2S 4C 3S 6D 6S
: 2D KC KS 5C TD 8S 9C
: 9H 9S 9D TS 4S 8D 2H
: JC 5S QD QH TH QS 6H
: 5D AD JS 4H 8H 6C
: 7H QC AS AC 2C 3D
: 7C KH AH 4D JH 8C
: 5H 3H 3C 7S 7D TC
>>> [move.notation for move in position.moves_from("5")]
['5a', '5b', '5c', '5d']
>>> position = position.play(position.parse_action("8a"))
>>> position = position.play(position.parse_action("58"))
>>> print(position.to_text(), end="")
Freecells: TC - - -
: JD KD 2S 4C 3S 6D 6S
: 2D KC KS 5C TD 8S 9C
: 9H 9S 9D TS 4S 8D 2H
: JC 5S QD QH TH QS 6H
: 5D AD JS 4H 8H
: 7H QC AS AC 2C 3D
: 7C KH AH 4D JH 8C
: 5H 3H 3C 7S 7D 6C
>>> position.parse_action("87")  # the run 7D 6C fits on 8C
FreeCellMove(source='8', target='7', count=2, to_empty=False)
>>> position.parse_action("8h")
Traceback (most recent call last):
...
app.rules.protocol.IllegalMoveError: illegal move '8h': 6C cannot go home yet: \
the clubs foundation takes AC next
>>> position.automatic_move() is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Final, Literal

from app.rules import parts
from app.rules.cards import (
    FULL_DECK,
    KING,
    RANK_LETTERS,
    RANK_NAMES,
    SUIT_NAMES,
    SUITS,
    Card,
    InvalidCardError,
    Suit,
)
from app.rules.deals import microsoft_deal
from app.rules.parts import (
    ALTERNATE_COLOURS,
    ANY_CARD,
    KINGS_ONLY,
    SAME_SUIT,
    BuildRule,
    EmptyColumnRule,
    supermove_limit,
)
from app.rules.protocol import (
    Action,
    ActionKind,
    AutoHome,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Outcome,
)

ColumnName = Literal["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]
CellName = Literal["a", "b", "c", "d", "e", "f", "g", "i"]
Source = ColumnName | CellName
Target = ColumnName | CellName | Literal["h"]

ALL_COLUMN_NAMES: Final[tuple[ColumnName, ...]] = (
    *("1", "2", "3", "4", "5", "6", "7", "8", "9", "0"),
)
"""The most columns a variant has, left to right (Seahaven's tenth is ``0``)."""
ALL_CELL_NAMES: Final[tuple[CellName, ...]] = ("a", "b", "c", "d", "e", "f", "g", "i")
"""The most free cells a variant has (``h`` is home, so Eight Off's eighth is ``i``)."""
SHOWN_NAMES: Final[dict[str, str]] = {"i": "h", "0": "10"}
"""The places whose name people read differently from the notation's one key: Eight Off's
free cells are lettered a to h on the table and in words (``i`` only in notation, where
``h`` is home), and Seahaven's tenth column is ``10`` (``0`` in notation)."""


def shown_name(place: str) -> str:
    """A column's or free cell's name as the table and its words show it.

    >>> shown_name("i"), shown_name("0"), shown_name("3")
    ('h', '10', '3')
    """
    return SHOWN_NAMES.get(place, place)


COLUMN_NAMES: Final = ALL_COLUMN_NAMES[:8]
"""Standard FreeCell's columns (a position's own: ``position.variant.column_names``)."""
CELL_NAMES: Final = ALL_CELL_NAMES[:4]
HOME: Final = "h"
EMPTY_CELL_TOKEN: Final = "-"
FOUNDATION_ORDER: Final[tuple[Suit, ...]] = ("H", "C", "D", "S")
"""The suit order of fc-solve's ``Foundations:`` line."""


@dataclass(frozen=True, slots=True)
class FreeCellVariant:
    """A game of the FreeCell family as its parts: how many columns and free cells, what
    builds on what, what may go into an empty column, whether empty columns double a
    supermove, and which free cells the deal's last cards go to (the other cards are dealt
    across the columns, row after row, in Microsoft's order)."""

    name: str
    columns: int = 8
    cells: int = 4
    build: BuildRule = ALTERNATE_COLOURS
    empty: EmptyColumnRule = ANY_CARD
    doubling: bool = True
    """Empty columns double how many cards move at once (else free cells only count)."""
    dealt_cells: tuple[int, ...] = ()

    @property
    def column_names(self) -> tuple[ColumnName, ...]:
        return ALL_COLUMN_NAMES[: self.columns]

    @property
    def cell_names(self) -> tuple[CellName, ...]:
        return ALL_CELL_NAMES[: self.cells]

    def places_text(self) -> str:
        """``'columns 1 … 8, free cells a … d'``: the names, for error messages."""
        return (
            f"columns {self.column_names[0]} … {self.column_names[-1]}, "
            f"free cells {self.cell_names[0]} … {self.cell_names[-1]}"
        )


STANDARD: Final = FreeCellVariant("standard")
VARIANT_VALUES: Final[dict[str, FreeCellVariant]] = {
    variant.name: variant
    for variant in (
        STANDARD,
        FreeCellVariant("bakers", build=SAME_SUIT),
        FreeCellVariant("cells-3", cells=3),
        FreeCellVariant("cells-2", cells=2),
        FreeCellVariant("cells-1", cells=1),
        FreeCellVariant(
            "eight-off",
            cells=8,
            build=SAME_SUIT,
            empty=KINGS_ONLY,
            doubling=False,
            dealt_cells=(0, 2, 4, 6),
        ),
        FreeCellVariant(
            "seahaven",
            columns=10,
            build=SAME_SUIT,
            empty=KINGS_ONLY,
            doubling=False,
            dealt_cells=(1, 2),
        ),
        # PySolFC's ForeCell (pysollib/games/freecell.py; Microsoft's shuffle below 32,000):
        # six rows to the columns, the last four cards to cells a-d; fc-solve's "forecell".
        FreeCellVariant("forecell", empty=KINGS_ONLY, doubling=False, dealt_cells=(0, 1, 2, 3)),
    )
}
"""Every variant, by the name the position text's ``Variant:`` line and the site use."""
VARIANTS: Final[tuple[str, ...]] = tuple(VARIANT_VALUES)
DEFAULT_VARIANT: Final = "standard"
MAX_DEAL: Final = 1_000_000

COLUMNS: Final = STANDARD.columns
CELLS: Final = STANDARD.cells

_COLUMN_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(ALL_COLUMN_NAMES)}
_CELL_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(ALL_CELL_NAMES)}
_SOURCES: Final[dict[str, Source]] = {name: name for name in (*ALL_COLUMN_NAMES, *ALL_CELL_NAMES)}
_TARGETS: Final[dict[str, Target]] = {**_SOURCES, HOME: HOME}
_SUIT_INDEX: Final[dict[str, int]] = {suit: i for i, suit in enumerate(SUITS)}
_HEX_DIGITS: Final = frozenset("0123456789abcdef")
_MOVE_EXAMPLES: Final = "expected e.g. '3a', 'a5', '3h', '36' or '36v4'"


def fits(card: Card, onto: Card) -> bool:
    """Whether ``card`` may lie on ``onto`` in standard FreeCell: one rank lower, the other
    colour (a variant's own rule is ``variant.build``).

    >>> fits(Card.parse("8H"), Card.parse("9S")), fits(Card.parse("8S"), Card.parse("9C"))
    (True, False)
    """
    return ALTERNATE_COLOURS.fits(card, onto)


def run_length(column: Sequence[Card], build: BuildRule = ALTERNATE_COLOURS) -> int:
    """The length of the run at the bottom of ``column`` (0 for an empty column)."""
    return parts.run_length(column, build)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count or 'no'} {noun}s"


def _rank_text(rank: int) -> str:
    return RANK_LETTERS[rank - 1] if rank else "0"


def _check_shape(source: str, target: str, count: int | None, shown: str) -> None:
    """Raise :class:`InvalidMoveError` unless this is a FreeCell move on some board."""
    if source not in _SOURCES or target not in _TARGETS:
        raise InvalidMoveError(
            f"not a FreeCell move: {shown} ({_MOVE_EXAMPLES})", "freecell.not_a_move", text=shown
        )
    if source == target:
        raise InvalidMoveError(
            f"a card cannot move to where it is: {shown}", "freecell.same_place", text=shown
        )
    if source in _CELL_INDEX and target in _CELL_INDEX:
        raise InvalidMoveError(
            f"free cell to free cell is not a move: {shown}", "freecell.cell_to_cell", text=shown
        )
    if count is None or count == 1:
        return
    if count < 1:
        raise InvalidMoveError(
            f"a move carries at least one card: {shown}", "freecell.no_cards", text=shown
        )
    if source not in _COLUMN_INDEX or target not in _COLUMN_INDEX:
        raise InvalidMoveError(
            f"only a column-to-column move carries several cards: {shown}",
            "freecell.several_only_columns",
            text=shown,
        )


def _read_move(text: str) -> tuple[Source, Target, int | None]:
    """Split move text into source, target and the count after ``v`` (``None`` if none)."""
    token = text.strip().lower()
    source, target, suffix = token[:1], token[1:2], token[2:]
    count = None
    if suffix:
        digits = suffix[1:]
        if suffix[0] != "v" or not digits or not _HEX_DIGITS.issuperset(digits):
            raise InvalidMoveError(
                f"not a FreeCell move: {text!r} ({_MOVE_EXAMPLES})",
                "freecell.not_a_move",
                text=repr(text),
            )
        count = int(digits, 16)
        if source not in _COLUMN_INDEX or target not in _COLUMN_INDEX:
            raise InvalidMoveError(
                f"only a column-to-column move has a card count: {text!r}",
                "freecell.several_only_columns",
                text=repr(text),
            )
    _check_shape(source, target, count, repr(text))
    return _SOURCES[source], _TARGETS[target], count


@dataclass(frozen=True, slots=True)
class FreeCellMove:
    """Move ``count`` cards from ``source`` to ``target``.

    ``to_empty`` says that the target is an empty column; it only changes the notation (a
    run into an empty column carries its count) and is left out of comparisons.
    """

    source: Source
    target: Target
    count: int = 1
    to_empty: bool = field(default=False, compare=False)
    kind: ClassVar[ActionKind] = "move"

    @property
    def notation(self) -> str:
        """``'3a'``, ``'36'``, ``'36v4'``: ``v`` only for a run into an empty column."""
        text = self.source + self.target
        return f"{text}v{self.count:x}" if self.to_empty and self.count > 1 else text

    @classmethod
    def from_text(cls, text: str) -> FreeCellMove:
        """Read notation without a position: ``'36'`` reads as one card.

        Onto a card, ``36`` means the run that fits there, which only the position knows:
        :meth:`FreeCellPosition.parse_action` reads moves against the board.

        >>> FreeCellMove.from_text("36v4")
        FreeCellMove(source='3', target='6', count=4, to_empty=True)
        """
        source, target, count = _read_move(text)
        return cls(source, target, count or 1, to_empty=(count or 1) > 1)

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True, slots=True)
class FreeCellPosition:
    """A board of the FreeCell family: its columns (top card first), free cells and 4
    foundation ranks, and the variant whose rules it plays by.

    Build positions with :func:`new_game`, :func:`parse` or :meth:`play`; the constructor
    trusts its arguments (it is the solver's hot path), :func:`parse` checks them.
    """

    columns: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...] = (None,) * CELLS
    foundations: tuple[int, ...] = (0,) * len(SUITS)
    variant: FreeCellVariant = STANDARD

    def _column(self, name: str) -> int | None:
        index = _COLUMN_INDEX.get(name)
        return index if index is not None and index < self.variant.columns else None

    def _cell(self, name: str) -> int | None:
        index = _CELL_INDEX.get(name)
        return index if index is not None and index < self.variant.cells else None

    def _not_a_place(self, name: str) -> InvalidMoveError:
        return InvalidMoveError(
            f"not a column or free cell: {name!r} ({self.variant.places_text()})",
            "freecell.not_a_place",
            text=repr(name),
            columns=self.variant.columns,
            cells=self.variant.cells,
        )

    def _check_places(self, source: str, target: str) -> None:
        """Raise :class:`InvalidMoveError` unless both places are on this board."""
        for name in (source, target):
            if name != HOME and self._column(name) is None and self._cell(name) is None:
                raise self._not_a_place(name)

    # -- reading the board -------------------------------------------------------------

    def card_at(self, source: str) -> Card | None:
        """The card that would move from ``source`` (``'3'`` or ``'b'``), if any.

        Raises :class:`InvalidMoveError` for a name that is neither a column nor a free cell.
        """
        column, cell = self._column(source), self._cell(source)
        if column is not None:
            cards = self.columns[column]
            return cards[-1] if cards else None
        if cell is not None:
            return self.cells[cell]
        raise self._not_a_place(source)

    def foundation_card(self, suit: Suit) -> Card | None:
        """The top card of ``suit``'s foundation, ``None`` while it is empty."""
        rank = self.foundations[_SUIT_INDEX[suit]]
        return Card(rank, suit) if rank else None

    @property
    def empty_cells(self) -> int:
        return self.cells.count(None)

    @property
    def empty_columns(self) -> int:
        return sum(not column for column in self.columns)

    def movable_run_length(self, column: int) -> int:
        """The length of the run at the bottom of column index ``column`` (0 … 7).

        The whole run may not move at once: :meth:`max_run` says how many cards can.
        """
        return run_length(self.columns[column], self.variant.build)

    def run(self, column: int) -> tuple[Card, ...]:
        """The run at the bottom of column index ``column``, top card first."""
        cards = self.columns[column]
        return cards[len(cards) - run_length(cards, self.variant.build) :]

    def max_run(self, to_empty: bool = False) -> int:
        """The most cards one move carries onto a card, or ``to_empty`` into an empty column.

        >>> new_game(1).max_run(), new_game(1).max_run(to_empty=True)
        (5, 5)
        """
        return supermove_limit(
            self.empty_cells, self.empty_columns, to_empty=to_empty, doubling=self.variant.doubling
        )

    def can_go_home(self, card: Card) -> bool:
        return self.foundations[_SUIT_INDEX[card.suit]] + 1 == card.rank

    def is_safe(self, card: Card) -> bool:
        """Whether no card in play could ever need ``card`` (see the glossary's **safe**)."""
        return self.variant.build.is_safe(card.index, self.foundations)

    # -- listing moves -------------------------------------------------------------------

    def legal_moves(self) -> tuple[FreeCellMove, ...]:
        """Every legal move, source by source: columns 1-8, then free cells a-d.

        From each source: home first, then the empty free cells a-d, then the columns 1-8;
        into an empty column every count from 1 to the limit (``36``, ``36v2``, …). A run
        that is a whole column is not listed as a move into an empty column: it would only
        change the column's place (:meth:`play` still allows it, the rules do).
        """
        moves: list[FreeCellMove] = []
        limits = (self.max_run(), self.max_run(to_empty=True))
        for index in range(self.variant.columns):
            self._column_moves(index, limits, moves)
        for index in range(self.variant.cells):
            self._cell_moves(index, moves)
        return tuple(moves)

    def moves_from(self, source: str) -> tuple[FreeCellMove, ...]:
        """The legal moves from ``source`` (``'3'`` or ``'b'``), in :meth:`legal_moves` order."""
        moves: list[FreeCellMove] = []
        column, cell = self._column(source), self._cell(source)
        if column is not None:
            limits = (self.max_run(), self.max_run(to_empty=True))
            self._column_moves(column, limits, moves)
        elif cell is not None:
            self._cell_moves(cell, moves)
        else:
            raise self._not_a_place(source)
        return tuple(moves)

    def _column_moves(self, index: int, limits: tuple[int, int], moves: list[FreeCellMove]) -> None:
        column = self.columns[index]
        if not column:
            return
        source = ALL_COLUMN_NAMES[index]
        card = column[-1]
        variant = self.variant
        if self.can_go_home(card):
            moves.append(FreeCellMove(source, HOME))
        for cell, occupant in zip(self.variant.cell_names, self.cells, strict=True):
            if occupant is None:
                moves.append(FreeCellMove(source, cell))
        run = run_length(column, variant.build)
        onto_card, to_empty = min(run, limits[0]), min(run, limits[1], len(column) - 1)
        for target, cards in zip(self.variant.column_names, self.columns, strict=True):
            if cards is column:
                continue
            if not cards:
                for count in range(1, to_empty + 1):
                    if variant.empty.accepts(column[-count]):
                        moves.append(FreeCellMove(source, target, count, to_empty=True))
                continue
            count = cards[-1].rank - card.rank
            if 0 < count <= onto_card and variant.build.fits(column[-count], cards[-1]):
                moves.append(FreeCellMove(source, target, count))

    def _cell_moves(self, index: int, moves: list[FreeCellMove]) -> None:
        card = self.cells[index]
        if card is None:
            return
        source = ALL_CELL_NAMES[index]
        if self.can_go_home(card):
            moves.append(FreeCellMove(source, HOME))
        for target, cards in zip(self.variant.column_names, self.columns, strict=True):
            if not cards:
                if self.variant.empty.accepts(card):
                    moves.append(FreeCellMove(source, target, to_empty=True))
            elif self.variant.build.fits(card, cards[-1]):
                moves.append(FreeCellMove(source, target))

    def has_moves(self) -> bool:
        """Whether :meth:`legal_moves` lists any move: it stops at the first source that
        has one (every page of a game in play asks)."""
        moves: list[FreeCellMove] = []
        limits = (self.max_run(), self.max_run(to_empty=True))
        for index in range(self.variant.columns):
            self._column_moves(index, limits, moves)
            if moves:
                return True
        for index in range(self.variant.cells):
            self._cell_moves(index, moves)
            if moves:
                return True
        return False

    # -- reading and playing moves ---------------------------------------------------------

    def parse_action(self, text: str) -> FreeCellMove:
        """Read a move against this board, filling in how many cards it carries.

        ``36`` onto a card is the run that fits there; into an empty column one card. A
        count after ``v`` is taken as given and must be what moves (``36v1`` moves one card
        into an empty column; onto a card it must be the fitting run's length). Raises
        :class:`InvalidMoveError` for text that is no move, :class:`IllegalMoveError` for a
        move the rules refuse here.
        """
        source, target, count = _read_move(text)
        self._check_places(source, target)
        try:
            return self._resolve(source, target, count)
        except IllegalMoveError as error:
            raise IllegalMoveError(
                f"illegal move {text!r}: {error}", error.code, **error.params
            ) from None

    def action_between(self, source: str, target: str, count: int = 1) -> FreeCellMove:
        """The move that takes ``count`` cards from place ``source`` (a column ``1``-``8``
        or a free cell ``a``-``d``) to place ``target`` (those, or ``h`` home).

        Onto a card the run that fits there moves, whatever ``count`` says; into an empty
        column at most as many cards as may move there (the rest stay); a free cell and
        home take one card. Raises :class:`InvalidMoveError` for a name that is no place
        or a move of no shape, :class:`IllegalMoveError` for one the rules refuse here.

        >>> position = new_game(1)
        >>> position.action_between("8", "a", 1)
        FreeCellMove(source='8', target='a', count=1, to_empty=False)
        >>> position.action_between("8", "a", 2)
        Traceback (most recent call last):
        ...
        app.rules.protocol.InvalidMoveError: only a column-to-column move carries several \
cards: '8' to 'a'
        """
        if source not in _SOURCES or (self._column(source) is None and self._cell(source) is None):
            raise self._not_a_place(source)
        if target not in _TARGETS or (
            target != HOME and self._column(target) is None and self._cell(target) is None
        ):
            raise InvalidMoveError(
                f"not a column, free cell or home: {target!r} ({self.variant.places_text()} or h)",
                "freecell.not_a_target",
                text=repr(target),
                columns=self.variant.columns,
                cells=self.variant.cells,
            )
        _check_shape(source, target, count, f"{source!r} to {target!r}")
        start, end = _SOURCES[source], _TARGETS[target]
        asked: int | None = count
        if end in _COLUMN_INDEX and self.columns[_COLUMN_INDEX[end]]:
            asked = None  # onto a card: the run that fits there
        elif end in _COLUMN_INDEX and start in _COLUMN_INDEX:
            asked = min(count, self.max_run(to_empty=True))
        return self._resolve(start, end, asked)

    def play(self, action: Action) -> FreeCellPosition:
        """The position after ``action``; raises :class:`IllegalMoveError` saying why not.

        ``action`` must be a :class:`FreeCellMove` carrying the count that moves (as
        :meth:`parse_action` and :meth:`legal_moves` give it).
        """
        if not isinstance(action, FreeCellMove):
            raise InvalidMoveError(
                f"not a FreeCell move: {action.notation!r}",
                "freecell.not_a_move",
                text=repr(action.notation),
            )
        source, target, count = action.source, action.target, action.count
        _check_shape(source, target, count, repr(action))
        self._check_places(source, target)
        try:
            self._resolve(source, target, count)
        except IllegalMoveError as error:
            raise IllegalMoveError(
                f"illegal move {action.notation!r}: {error}", error.code, **error.params
            ) from None
        return self._apply(source, target, count)

    def _resolve(self, source: Source, target: Target, count: int | None) -> FreeCellMove:
        """The legal move from ``source`` to ``target``; raise IllegalMoveError saying why not.

        ``count`` is the number of cards asked for, ``None`` for what the notation implies.
        """
        card = self.card_at(source)
        if card is None:
            if source in _COLUMN_INDEX:
                raise IllegalMoveError(
                    f"column {source} is empty", "freecell.empty_column", column=source
                )
            raise IllegalMoveError(
                f"free cell {source} is empty", "freecell.empty_cell", cell=source
            )
        if target == HOME:
            if not self.can_go_home(card):
                raise self._why_not_home(card)
            return FreeCellMove(source, target)
        if target in _CELL_INDEX:
            occupant = self.cells[_CELL_INDEX[target]]
            if occupant is not None:
                raise IllegalMoveError(
                    f"free cell {target} is full: {occupant} is there",
                    "freecell.cell_full",
                    cell=target,
                    card=occupant,
                )
            return FreeCellMove(source, target)
        cards = self.columns[_COLUMN_INDEX[target]]
        if source in _CELL_INDEX:
            if cards and not self.variant.build.fits(card, cards[-1]):
                raise self._why_no_fit(card, cards[-1])
            if not cards and not self.variant.empty.accepts(card):
                raise self._kings_only(card, target)
            return FreeCellMove(source, target, to_empty=not cards)
        return self._resolve_run(source, target, count)

    def _resolve_run(self, source: Source, target: Target, count: int | None) -> FreeCellMove:
        column, cards = self.columns[_COLUMN_INDEX[source]], self.columns[_COLUMN_INDEX[target]]
        build = self.variant.build
        run = run_length(column, build)
        if cards:
            top = cards[-1]
            fitting = top.rank - column[-1].rank
            if not 0 < fitting <= run or not build.fits(column[-fitting], top):
                if run == 1:
                    raise self._why_no_fit(column[-1], top)
                names = " ".join(card.text for card in column[-run:])
                raise IllegalMoveError(
                    f"no card of column {source}'s run {names} goes on {top}: "
                    f"{self._wanted_on(top)}",
                    "freecell.run_does_not_fit",
                    column=source,
                    run=tuple(column[-run:]),
                    onto=top,
                )
            if count is not None and count != fitting:
                raise IllegalMoveError(
                    f"{_plural(count, 'card')} from column {source} "
                    f"{'does' if count == 1 else 'do'} not fit on {top}: "
                    f"only the run of {fitting} from {column[-fitting]} does",
                    "freecell.count_does_not_fit",
                    count=count,
                    column=source,
                    onto=top,
                    fitting=fitting,
                    card=column[-fitting],
                )
            count = fitting
        elif count is None:
            kings = [n for n in range(1, run + 1) if column[-n].rank == KING]
            count = kings[0] if kings and self.variant.empty == KINGS_ONLY else 1
        elif count > run:
            raise IllegalMoveError(
                f"column {source}'s run is {_plural(run, 'card')} long: "
                f"{count} cards cannot move together",
                "freecell.run_too_short",
                column=source,
                run=run,
                count=count,
            )
        if not cards and not self.variant.empty.accepts(column[-count]):
            raise self._kings_only(column[-count], target)
        limit = self.max_run(to_empty=not cards)
        if count > limit:
            raise self._why_too_long(count, limit, target, to_empty=not cards)
        return FreeCellMove(source, target, count, to_empty=not cards)

    def _why_not_home(self, card: Card) -> IllegalMoveError:
        rank = self.foundations[_SUIT_INDEX[card.suit]]
        wanted = Card(rank + 1, card.suit)
        return IllegalMoveError(
            f"{card} cannot go home yet: the {SUIT_NAMES[card.suit]} foundation takes "
            f"{wanted} next",
            "freecell.not_home_yet",
            card=card,
            wanted=wanted,
        )

    def _why_no_fit(self, card: Card, onto: Card) -> IllegalMoveError:
        if card.rank == KING:
            return IllegalMoveError(
                f"{card} cannot go on {onto}: a king moves only into an empty column",
                "freecell.king_to_empty",
                card=card,
                onto=onto,
            )
        message = f"{card} cannot go on {onto}: {self._wanted_on(onto)}"
        if onto.rank == 1:
            return IllegalMoveError(message, "freecell.nothing_on_ace", card=card, onto=onto)
        wanted = self.variant.build.wanted(onto)
        if len(wanted) == 1:
            return IllegalMoveError(
                message, "freecell.wants_one", card=card, onto=onto, wanted=wanted[0]
            )
        first, second = wanted
        return IllegalMoveError(
            message, "freecell.wants", card=card, onto=onto, first=first, second=second
        )

    def _kings_only(self, card: Card, target: str) -> IllegalMoveError:
        return IllegalMoveError(
            f"{card} cannot go into empty column {target}: only a king goes into an empty column",
            "freecell.kings_only",
            card=card,
            column=target,
        )

    def _wanted_on(self, onto: Card) -> str:
        if onto.rank == 1:
            return f"nothing goes on an ace ({onto} can go home)"
        if self.variant.build == SAME_SUIT:
            return f"only {Card(onto.rank - 1, onto.suit)} goes on {onto}"
        colour = "black" if onto.is_red else "red"
        return f"only a {colour} {RANK_NAMES[onto.rank - 1]} goes on {onto}"

    def _why_too_long(
        self, count: int, limit: int, target: str, *, to_empty: bool
    ) -> IllegalMoveError:
        cells = _plural(self.empty_cells, "empty free cell")
        if to_empty:
            where = f"into empty column {target}"
            columns = _plural(self.empty_columns - 1, "other empty column")
        else:
            where = f"onto column {target}"
            columns = _plural(self.empty_columns, "empty column")
        room = (
            f"{cells} and {columns}"
            if self.variant.doubling
            else f"{cells} (empty columns do not count here)"
        )
        return IllegalMoveError(
            f"a run of {count} cards cannot move {where}: with {room} "
            f"at most {_plural(limit, 'card')} {'moves' if limit == 1 else 'move'} at once",
            "freecell.run_too_long_empty" if to_empty else "freecell.run_too_long",
            count=count,
            limit=limit,
            column=target,
            free_cells=self.empty_cells,
            empty_columns=self.empty_columns - 1 if to_empty else self.empty_columns,
            doubling=self.variant.doubling,
        )

    def _apply(self, source: Source, target: Target, count: int) -> FreeCellPosition:
        columns = list(self.columns)
        cells = list(self.cells)
        moved: tuple[Card, ...]
        if source in _COLUMN_INDEX:
            index = _COLUMN_INDEX[source]
            moved = columns[index][-count:]
            columns[index] = columns[index][:-count]
        else:
            index = _CELL_INDEX[source]
            card = cells[index]
            assert card is not None, "_resolve checked that the free cell holds a card"
            moved, cells[index] = (card,), None
        if target == HOME:
            foundations = list(self.foundations)
            foundations[_SUIT_INDEX[moved[0].suit]] += 1
            return FreeCellPosition(tuple(columns), tuple(cells), tuple(foundations), self.variant)
        if target in _CELL_INDEX:
            cells[_CELL_INDEX[target]] = moved[0]
        else:
            columns[_COLUMN_INDEX[target]] += moved
        return FreeCellPosition(tuple(columns), tuple(cells), self.foundations, self.variant)

    # -- sending cards home ------------------------------------------------------------------

    def _exposed(self) -> list[tuple[Source, Card]]:
        """Every card that can move, columns 1-8 then free cells a-d."""
        cards: list[tuple[Source, Card]] = [
            (name, column[-1])
            for name, column in zip(self.variant.column_names, self.columns, strict=True)
            if column
        ]
        cards.extend(
            (name, card)
            for name, card in zip(self.variant.cell_names, self.cells, strict=True)
            if card
        )
        return cards

    def _lowest_home_move(self, *, safe: bool) -> FreeCellMove | None:
        best: tuple[int, Source] | None = None
        for source, card in self._exposed():
            if (
                self.can_go_home(card)
                and (not safe or self.is_safe(card))
                and (best is None or card.rank < best[0])
            ):
                best = (card.rank, source)
        return None if best is None else FreeCellMove(best[1], HOME)

    def automatic_move(self, mode: AutoHome = "safe") -> FreeCellMove | None:
        """The next card home under ``mode``, if any: lowest rank first, then columns 1-8,
        cells a-d. ``safe`` sends only safe cards, ``all`` any card that can go, ``off`` none.

        The service plays it (as an ``auto`` action) again and again after each move.
        """
        if mode == "off":
            return None
        return self._lowest_home_move(safe=mode == "safe")

    def any_home_move(self) -> FreeCellMove | None:
        """Any card that can go home now, safe or not, in :meth:`automatic_move`'s order."""
        return self._lowest_home_move(safe=False)

    def home_move(self, source: str) -> FreeCellMove | None:
        """The card at ``source`` (``'3'`` or ``'b'``) to its foundation, if it can go."""
        card = self.card_at(source)
        if card is None or not self.can_go_home(card):
            return None
        return FreeCellMove(_SOURCES[source], HOME)

    def quick_move(self, source: str) -> FreeCellMove | None:
        """The double-click move of ``source``'s card: home, else the leftmost empty cell."""
        home = self.home_move(source)
        if home is not None or source in _CELL_INDEX or self.card_at(source) is None:
            return home
        for name, occupant in zip(self.variant.cell_names, self.cells, strict=True):
            if occupant is None:
                return FreeCellMove(_SOURCES[source], name)
        return None

    # -- the end -------------------------------------------------------------------------

    def is_won(self) -> bool:
        return sum(self.foundations) == len(FULL_DECK)

    def is_stuck(self) -> bool:
        """No legal move at all (also true once the game is won)."""
        return not self.has_moves()

    def is_lost(self) -> bool:
        """No legal move is left and the cards are not all home (Forecell's deal #1 opens
        so): the game ends there, and an undo takes it back into play."""
        return not self.is_won() and not self.has_moves()

    def outcome(self) -> Outcome | None:
        if self.is_won():
            return "won"
        return "lost" if self.is_lost() else None

    @property
    def score(self) -> None:
        """FreeCell has no score."""
        return None

    @property
    def cards_left(self) -> int:
        """Cards not on the foundations."""
        return len(FULL_DECK) - sum(self.foundations)

    # -- text ----------------------------------------------------------------------------

    def to_text(self) -> str:
        """The fc-solve board: a ``Variant:`` line for any variant but standard, the other
        headers only when foundations or free cells hold cards."""
        lines = [] if self.variant == STANDARD else [f"Variant: {self.variant.name}"]
        if any(self.foundations):
            tokens = (
                f"{suit}-{_rank_text(self.foundations[_SUIT_INDEX[suit]])}"
                for suit in FOUNDATION_ORDER
            )
            lines.append("Foundations: " + " ".join(tokens))
        if any(self.cells):
            tokens = (EMPTY_CELL_TOKEN if card is None else card.text for card in self.cells)
            lines.append("Freecells: " + " ".join(tokens))
        lines.extend(
            ": " + " ".join(card.text for card in column) if column else ":"
            for column in self.columns
        )
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"freecell.parse({self.to_text()!r})"


# -- making positions --------------------------------------------------------------------


def all_home(position: FreeCellPosition) -> list[FreeCellMove]:
    """ "All home": every card that can go home goes, again and again, in
    :meth:`FreeCellPosition.any_home_move`'s order; raise :class:`IllegalMoveError` when
    none can. The service stores the first as the player's move and the rest as automatic
    ones, so one undo takes the whole sweep back.
    """
    moves: list[FreeCellMove] = []
    while (move := position.any_home_move()) is not None:
        moves.append(move)
        position = position.play(move)
    if not moves:
        raise IllegalMoveError("no card can go home now", "freecell.none_home")
    return moves


def variant_named(name: str) -> FreeCellVariant:
    """The variant called ``name``; raise ``ValueError`` for an unknown one."""
    if name not in VARIANT_VALUES:
        raise ValueError(f"unknown FreeCell variant {name!r} ({', '.join(VARIANTS)})")
    return VARIANT_VALUES[name]


def new_game(deal: int, variant: str = DEFAULT_VARIANT) -> FreeCellPosition:
    """Microsoft deal ``deal``: the shuffled deck dealt across the columns, row after row;
    a variant with cards in its free cells deals the last cards there, in cell order.

    >>> print(new_game(1, "seahaven").to_text().splitlines()[1])
    Freecells: - 2H 6H -
    """
    rules = variant_named(variant)
    cards = microsoft_deal(deal)
    tableau = len(cards) - len(rules.dealt_cells)
    columns = tuple(cards[column : tableau : rules.columns] for column in range(rules.columns))
    cells: list[Card | None] = [None] * rules.cells
    for slot, card in zip(rules.dealt_cells, cards[tableau:], strict=True):
        cells[slot] = card
    return FreeCellPosition(columns, tuple(cells), (0,) * len(SUITS), rules)


def _read_card(token: str, where: str) -> Card:
    try:
        return Card.parse(token)
    except InvalidCardError:
        raise InvalidPositionError(f"{where}: not a card: {token!r}") from None


def _read_foundations(tokens: list[str], where: str) -> list[int]:
    foundations = [0] * len(SUITS)
    seen: set[str] = set()
    for token in tokens:
        suit, dash, value = token.upper().partition("-")
        if value.isascii() and value.isdigit() and int(value) <= KING:
            rank = int(value)
        elif len(value) == 1 and value in RANK_LETTERS:
            rank = RANK_LETTERS.index(value) + 1
        else:
            rank = -1
        if suit not in _SUIT_INDEX or not dash or rank < 0:
            raise InvalidPositionError(
                f"{where}: not a foundation: {token!r} (expected e.g. 'H-A', 'S-0', 'D-T')"
            )
        if suit in seen:
            name = SUIT_NAMES[SUITS[_SUIT_INDEX[suit]]]
            raise InvalidPositionError(f"{where}: the {name} foundation twice")
        seen.add(suit)
        foundations[_SUIT_INDEX[suit]] = rank
    return foundations


def _read_variant(text: str) -> FreeCellVariant:
    """The variant a ``Variant:`` line names; standard without one (so text written before
    variants existed reads as it did)."""
    found: FreeCellVariant | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        key, colon, rest = raw.strip().partition(":")
        if colon and key.strip().lower() == "variant":
            if found is not None:
                raise InvalidPositionError(f"line {number}: a second Variant line")
            if rest.strip() not in VARIANT_VALUES:
                raise InvalidPositionError(
                    f"line {number}: not a FreeCell variant: {rest.strip()!r} "
                    f"({', '.join(VARIANTS)})"
                )
            found = VARIANT_VALUES[rest.strip()]
    return found or STANDARD


def parse(text: str) -> FreeCellPosition:
    """Read an fc-solve board; raise :class:`InvalidPositionError` naming what is wrong.

    Column lines may start with ``:``; blank lines and ``#`` comments are skipped; fewer
    column lines than the variant has leave the last columns empty; the ``Variant:``
    (standard without one), ``Foundations:`` (any suit order, ranks as letters or numbers)
    and ``Freecells:`` (``-`` for empty; missing cells are empty) lines may come anywhere,
    once each. Every card must be somewhere exactly once.

    >>> parse(new_game(1).to_text()) == new_game(1)
    True
    >>> parse(new_game(1, "bakers").to_text()).variant.name
    'bakers'
    """
    variant = _read_variant(text)
    columns: list[tuple[Card, ...]] = []
    cells: list[Card | None] = [None] * variant.cells
    foundations: list[int] | None = None
    seen_cells = False
    places: dict[Card, str] = {}

    def place(card: Card, where: str) -> None:
        if card in places:
            raise InvalidPositionError(f"duplicate card {card}: {places[card]} and {where}")
        places[card] = where

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, colon, rest = line.partition(":")
        key = key.strip().lower()
        if colon and key == "foundations":
            if foundations is not None:
                raise InvalidPositionError(f"line {number}: a second Foundations line")
            foundations = _read_foundations(rest.split(), f"line {number}")
            for suit, rank in zip(SUITS, foundations, strict=True):
                for home in range(1, rank + 1):
                    place(Card(home, suit), f"on the {SUIT_NAMES[suit]} foundation")
        elif colon and key == "variant":
            continue
        elif colon and key == "freecells":
            tokens = rest.split()
            if len(tokens) > variant.cells:
                raise InvalidPositionError(
                    f"line {number}: {len(tokens)} free cells, this game has {variant.cells}"
                )
            if seen_cells:
                raise InvalidPositionError(f"line {number}: a second Freecells line")
            seen_cells = True
            for index, token in enumerate(tokens):
                if token != EMPTY_CELL_TOKEN:
                    where = f"free cell {ALL_CELL_NAMES[index]}"
                    card = _read_card(token, f"line {number}: {where}")
                    place(card, f"in {where}")
                    cells[index] = card
        elif colon and key:
            raise InvalidPositionError(f"line {number}: unknown header {key!r}")
        else:
            column = len(columns) + 1
            if column > variant.columns:
                raise InvalidPositionError(
                    f"line {number}: a column too many, this game has {variant.columns}"
                )
            cards = tuple(
                _read_card(token, f"line {number}: column {column}")
                for token in (rest if colon else line).split()
            )
            for card in cards:
                place(card, f"in column {column}")
            columns.append(cards)
    missing = [card.text for card in FULL_DECK if card not in places]
    if missing:
        raise InvalidPositionError(f"missing card(s): {' '.join(missing)}")
    columns.extend(() for _ in range(variant.columns - len(columns)))
    foundation_ranks = tuple(foundations or (0,) * len(SUITS))
    return FreeCellPosition(tuple(columns), tuple(cells), foundation_ranks, variant)


@dataclass(frozen=True)
class FreeCellRules:
    """The :class:`app.rules.protocol.Rules` value for FreeCell."""

    kind: str = "freecell"
    name: str = "FreeCell"
    variants: tuple[str, ...] = VARIANTS
    default_variant: str = DEFAULT_VARIANT
    max_deal: int = MAX_DEAL

    def new_game(self, deal: int, variant: str = DEFAULT_VARIANT) -> FreeCellPosition:
        return new_game(deal, variant)

    def parse(self, text: str) -> FreeCellPosition:
        return parse(text)


RULES: Final = FreeCellRules()
