"""Montana (Gaps): the rules of ``shared/rules/montana.md`` as pure values.

Glossary
--------
- The board is 4 **rows** (``A``–``D``) of 13 **cells** (columns ``1``–``13``), indexed
  0 … 51 row by row: cell ``A1`` is 0, ``B1`` is 13, ``D13`` is 51.
- A **gap** is an empty cell; the four aces are removed at the deal, so there are always
  four gaps.
- A gap in column 1 takes any 2 that is not already in column 1. Any other gap takes the
  card of the same suit one rank above its left neighbour; it is **dead** when that
  neighbour is a king or another gap.
- A row's **sequence** is the run 2, 3, 4, … of one suit from column 1; those cards are
  **in place** and the score is their number (0 … 48).
- A **redeal** gathers every card not in place, shuffles them (see
  :mod:`app.rules.deals`) and deals them back row by row, leaving one gap right after
  each row's sequence. Easy allows 4 redeals, Expert (the default) 2.
- **Blue Moon** and **Red Moon** (PySolFC's ``montana.py``) are played with the aces: each
  row is headed by an ace, fixed there for the whole game, and the row is built from it,
  so a gap in column 1 takes only the 2 of its row's ace (never a choice of 2s). The 13
  cells after the ace are numbered 1 … 13 as in Montana, so the board, the notation and the
  solver are Montana's with that one rule (:attr:`MontanaPosition.aces`). Blue Moon deals
  the numbered shuffle as Montana does and moves each ace, in the order they were dealt,
  to the head of rows A … D (its cell becomes a gap); Red Moon heads the rows with the aces
  in suit order (♣ ♦ ♥ ♠), leaves column 1 a gap and deals the other 48 cards of the
  shuffle, in order, into columns 2 … 13. Both allow 2 redeals.

Notation: a move is ``CARD CELL`` (``8C B7``), a redeal is ``redeal``. A position is four
lines of 13 tokens (``--`` for a gap) after optional header lines (``Aces: AD AC AS AH``,
the rows' heads, in Blue Moon and Red Moon)::

    Deal: 1
    Redeals-left: 2
    Redeals-done: 0
    JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S --
    ...

>>> position = new_game(1, "expert")
>>> position.score
0
>>> [move.notation for move in position.legal_moves()][:3]
['6S A13', 'QS B9', '5H C4']
>>> position.play(position.parse_action("6S A13")).cells[12]
Card.parse('6S')
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import ClassVar, Final, Literal

from app.rules.cards import ACE, FULL_DECK, KING, Card, InvalidCardError
from app.rules.deals import MAX_SEED, microsoft_deal, microsoft_shuffle
from app.rules.parts import grid_sequence, grid_wanted
from app.rules.protocol import (
    Action,
    ActionKind,
    AutoHome,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Outcome,
)

ROWS: Final = 4
COLUMNS: Final = 13
CELLS: Final = ROWS * COLUMNS
ROW_LETTERS: Final = "ABCD"
GAP_TOKEN: Final = "--"
IN_PLACE_MAX: Final = 48

Variant = Literal["easy", "expert", "blue-moon", "red-moon"]
Heads = Literal["none", "dealt", "by-suit"]


@dataclass(frozen=True, slots=True)
class MontanaVariant:
    """A game of the Montana family as its parts: how many redeals, and what heads the
    rows: nothing (the aces are taken out), the aces where the deal put them (Blue Moon),
    or the aces moved to column 1 in suit order first (Red Moon)."""

    name: str
    redeals: int = 2
    heads: Heads = "none"


VARIANT_LIST: Final = (
    MontanaVariant("expert"),
    MontanaVariant("easy", redeals=4),
    MontanaVariant("blue-moon", heads="dealt"),
    MontanaVariant("red-moon", heads="by-suit"),
)
BY_NAME: Final = {variant.name: variant for variant in VARIANT_LIST}
REDEALS: Final[dict[str, int]] = {variant.name: variant.redeals for variant in VARIANT_LIST}
VARIANTS: Final[tuple[str, ...]] = tuple(BY_NAME)
MOONS: Final = frozenset(v.name for v in VARIANT_LIST if v.heads != "none")
"""The variants whose rows are headed by their aces."""
DEFAULT_VARIANT: Final = "expert"
MAX_DEAL: Final = 1_000_000

DECK: Final[frozenset[Card]] = frozenset(card for card in FULL_DECK if card.rank != ACE)

Cell = int
"""A cell index, 0 (``A1``) … 51 (``D13``)."""


def redeal_seed(deal: int, index: int) -> int:
    """The shuffle seed of redeal ``index`` (0-based) in deal ``deal``: redeals shuffle the
    gathered cards with Microsoft's shuffle, seeded through SHA-256 from the deal number and
    the redeal's index, so a game replays identically and undoing a redeal and redealing
    again gives the same cards."""
    digest = hashlib.sha256(f"montana-redeal:{deal}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & MAX_SEED


def cell_name(cell: Cell) -> str:
    """``0`` → ``'A1'``, ``51`` → ``'D13'``."""
    return f"{ROW_LETTERS[cell // COLUMNS]}{cell % COLUMNS + 1}"


def parse_cell(text: str) -> Cell:
    """``'B7'`` → 19; raise :class:`InvalidMoveError` for anything off the board."""
    token = text.strip().upper()
    row, column = token[:1], token[1:]
    if row not in tuple(ROW_LETTERS) or not (column.isascii() and column.isdigit()):
        raise InvalidMoveError(
            f"not a cell: {text!r} (cells are A1 … D13)", "montana.not_a_cell", text=repr(text)
        )
    if not 1 <= int(column) <= COLUMNS:
        raise InvalidMoveError(
            f"not a cell: {text!r} (cells are A1 … D13)", "montana.not_a_cell", text=repr(text)
        )
    return ROW_LETTERS.index(row) * COLUMNS + int(column) - 1


@dataclass(frozen=True, slots=True)
class MontanaMove:
    """Put ``card`` into the gap at ``cell``."""

    card: Card
    cell: Cell
    kind: ClassVar[ActionKind] = "move"
    count: ClassVar[int] = 1

    @property
    def notation(self) -> str:
        return f"{self.card.text} {cell_name(self.cell)}"

    @classmethod
    def from_text(cls, text: str) -> MontanaMove:
        parts = text.split()
        if len(parts) != 2:
            raise InvalidMoveError(
                f"not a Montana move: {text!r} (expected e.g. '8C B7')",
                "montana.not_a_move",
                text=repr(text),
            )
        try:
            card = Card.parse(parts[0])
        except InvalidCardError as error:
            raise InvalidMoveError(str(error), "not_a_card", text=repr(parts[0])) from None
        if card.rank == ACE:
            raise InvalidMoveError(
                f"aces take no part in Montana: {text!r}", "montana.no_aces", card=card
            )
        return cls(card, parse_cell(parts[1]))

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True, slots=True)
class Redeal:
    """Gather the cards not in place, shuffle and deal them again."""

    kind: ClassVar[ActionKind] = "move"
    notation: ClassVar[str] = "redeal"
    count: ClassVar[int] = 1
    """The player's one action (the cards are gathered and dealt by the game)."""

    def __str__(self) -> str:
        return self.notation


REDEAL: Final = Redeal()
MontanaAction = MontanaMove | Redeal


@dataclass(frozen=True, slots=True)
class MontanaPosition:
    """A Montana board: 52 cells (``None`` for a gap), the deal and the redeals."""

    cells: tuple[Card | None, ...]
    deal: int = 0
    redeals_left: int = REDEALS[DEFAULT_VARIANT]
    redeals_done: int = 0
    aces: tuple[Card, ...] = ()
    """The aces heading rows A … D (Blue Moon, Red Moon), or none (Montana): with them a
    row is built from its ace, so its column 1 takes only that suit's 2."""
    variant: MontanaVariant = BY_NAME[DEFAULT_VARIANT]
    """The game this is a position of (its redeals and what heads its rows)."""
    _where: dict[Card, Cell] = field(init=False, repr=False, compare=False, hash=False)
    _runs: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)
    """Each row's cards in place (the board view asks of every card, the score of every row)."""

    def __post_init__(self) -> None:
        where = {card: cell for cell, card in enumerate(self.cells) if card is not None}
        object.__setattr__(self, "_where", where)
        object.__setattr__(self, "_runs", tuple(self._run(row) for row in range(ROWS)))

    # -- reading the board -------------------------------------------------------------

    def where(self, card: Card) -> Cell:
        """The cell holding ``card``."""
        return self._where[card]

    @property
    def gaps(self) -> tuple[Cell, ...]:
        return tuple(cell for cell, card in enumerate(self.cells) if card is None)

    def sequence_length(self, row: int) -> int:
        """How many cards of ``row`` are in place (2, 3, … of one suit from column 1)."""
        return self._runs[row]

    def _run(self, row: int) -> int:
        start = row * COLUMNS
        first = self.cells[start]
        if self.aces and (first is None or first.suit != self.aces[row].suit):
            return 0  # a 2 of another suit than the row's ace is not in place
        return grid_sequence(self.cells[start : start + COLUMNS], 2)

    def row_two(self, gap: Cell) -> Card | None:
        """The one 2 a column-1 gap takes when its row is headed by an ace."""
        return Card(2, self.aces[gap // COLUMNS].suit) if self.aces else None

    def in_place(self, cell: Cell) -> bool:
        return cell % COLUMNS < self.sequence_length(cell // COLUMNS)

    @property
    def score(self) -> int:
        """Cards in place, 0 … 48."""
        return sum(self._runs)

    @property
    def cards_left(self) -> int:
        return IN_PLACE_MAX - self.score

    def wanted(self, gap: Cell) -> Card | None:
        """The one card that fits a gap: ``None`` if it is dead, or in column 1 of a board
        without aces (any 2 may go there)."""
        return self.row_two(gap) if gap % COLUMNS == 0 else grid_wanted(self.cells[gap - 1])

    def is_dead(self, gap: Cell) -> bool:
        return gap % COLUMNS != 0 and self.wanted(gap) is None

    def twos_for_column_one(self) -> tuple[Card, ...]:
        """The 2s that may move to a column-1 gap: every 2 not already in column 1."""
        return tuple(
            card
            for card in sorted(self._where, key=lambda c: c.index)
            if card.rank == 2 and self.where(card) % COLUMNS != 0
        )

    def moves_to(self, gap: Cell) -> tuple[MontanaMove, ...]:
        """Every legal move into ``gap`` (several only for a column-1 gap)."""
        if self.cells[gap] is not None:
            return ()
        if gap % COLUMNS == 0 and not self.aces:
            return tuple(MontanaMove(two, gap) for two in self.twos_for_column_one())
        card = self.wanted(gap)
        return () if card is None else (MontanaMove(card, gap),)

    def legal_moves(self) -> tuple[MontanaMove, ...]:
        """Every legal move, gap by gap from ``A1``; column-1 gaps list 2s by suit."""
        return tuple(move for gap in self.gaps for move in self.moves_to(gap))

    # -- playing ---------------------------------------------------------------------------

    def parse_action(self, text: str) -> MontanaAction:
        if text.strip().lower() == REDEAL.notation:
            return REDEAL
        return MontanaMove.from_text(text)

    def action_between(self, source: str, target: str, count: int = 1) -> MontanaMove:
        """The move that puts the card at cell ``source`` (``'B7'``) into the gap at cell
        ``target``; ``count`` is ignored (one card moves). Raises :class:`InvalidMoveError`
        for a name that is no cell, :class:`IllegalMoveError` when the card cannot go there.

        >>> position = new_game(1, "expert")
        >>> position.action_between("D10", "A13", 1).notation
        '6S A13'
        """
        cell = parse_cell(source)
        card = self.cells[cell]
        if card is None:
            name = cell_name(cell)
            raise IllegalMoveError(
                f"{name} is a gap: there is no card to move", "montana.no_card", cell=name
            )
        move = MontanaMove(card, parse_cell(target))
        self._check(move)
        return move

    def play(self, action: Action) -> MontanaPosition:
        if isinstance(action, Redeal):
            return self.redeal()
        if isinstance(action, MontanaMove):
            return self._move(action)
        raise IllegalMoveError(
            f"not a Montana move: {action.notation!r}", "montana.not_a_move", text=action.notation
        )

    def _move(self, move: MontanaMove) -> MontanaPosition:
        self._check(move)
        cells = list(self.cells)
        cells[self.where(move.card)] = None
        cells[move.cell] = move.card
        return MontanaPosition(
            tuple(cells), self.deal, self.redeals_left, self.redeals_done, self.aces, self.variant
        )

    def _check(self, move: MontanaMove) -> None:
        """Raise :class:`IllegalMoveError` saying why ``move`` is not allowed."""
        target = cell_name(move.cell)
        card = move.card.text
        if self.cells[move.cell] is not None:
            raise IllegalMoveError(
                f"{target} is not a gap: {self.cells[move.cell]} is there",
                "montana.not_a_gap",
                cell=target,
                card=self.cells[move.cell],
            )
        two = self.row_two(move.cell) if move.cell % COLUMNS == 0 else None
        if two is not None and move.card != two:
            ace = self.aces[move.cell // COLUMNS]
            raise IllegalMoveError(
                f"only {two} may go to {target}: its row is headed by {ace}",
                "montana.row_two",
                card=move.card,
                cell=target,
                wanted=two,
                ace=ace,
            )
        if two is not None:
            return
        if move.cell % COLUMNS == 0:
            if move.card.rank != 2:
                raise IllegalMoveError(
                    f"only a 2 may go to column 1, not {card}", "montana.only_a_two", card=move.card
                )
            if self.where(move.card) % COLUMNS == 0:
                raise IllegalMoveError(
                    f"{card} is already in column 1", "montana.already_first", card=move.card
                )
            return
        left = self.cells[move.cell - 1]
        if left is None:
            raise IllegalMoveError(
                f"{target} is dead until the gap to its left is filled",
                "montana.dead_after_gap",
                cell=target,
            )
        if left.rank == KING:
            raise IllegalMoveError(
                f"{target} is dead: nothing goes after a king",
                "montana.dead_after_king",
                cell=target,
                left=left,
            )
        wanted = Card(left.rank + 1, left.suit)
        if move.card != wanted:
            raise IllegalMoveError(
                f"{card} does not fit {target}: only {wanted} follows {left} there",
                "montana.wrong_card",
                card=move.card,
                cell=target,
                wanted=wanted,
                left=left,
            )

    def can_redeal(self) -> bool:
        return self.redeals_left > 0 and not self.is_won()

    def redeal(self) -> MontanaPosition:
        """Keep every sequence, shuffle the rest back with one gap after each sequence."""
        if self.is_won():
            raise IllegalMoveError("the game is won: there is nothing to redeal", "montana.won")
        if self.redeals_left <= 0:
            raise IllegalMoveError("no redeals left", "montana.no_redeals")
        lengths = [self.sequence_length(row) for row in range(ROWS)]
        loose = sorted(
            (
                card
                for cell, card in enumerate(self.cells)
                if card is not None and cell % COLUMNS >= lengths[cell // COLUMNS]
            ),
            key=lambda card: card.index,
        )
        stream = iter(microsoft_shuffle(loose, redeal_seed(self.deal, self.redeals_done)))
        cells: list[Card | None] = []
        for row, length in enumerate(lengths):
            start = row * COLUMNS
            cells.extend(self.cells[start : start + length])
            cells.append(None)
            cells.extend(next(stream) for _ in range(COLUMNS - length - 1))
        return MontanaPosition(
            tuple(cells),
            self.deal,
            self.redeals_left - 1,
            self.redeals_done + 1,
            self.aces,
            self.variant,
        )

    def automatic_move(self, mode: AutoHome = "safe") -> None:
        """Montana never moves a card by itself, whatever the ``mode``."""
        return None

    # -- the end -------------------------------------------------------------------------

    def is_won(self) -> bool:
        return self.score == IN_PLACE_MAX

    def has_moves(self) -> bool:
        return any(self.moves_to(gap) for gap in self.gaps)

    def is_stuck(self) -> bool:
        """No card can move and no redeal is left (or the game is won)."""
        return not self.has_moves() and not self.can_redeal()

    def is_lost(self) -> bool:
        return self.is_stuck() and not self.is_won()

    def outcome(self) -> Outcome | None:
        if self.is_won():
            return "won"
        return "lost" if self.is_lost() else None

    # -- text ----------------------------------------------------------------------------

    def grid_text(self) -> str:
        return "\n".join(
            " ".join(
                GAP_TOKEN if card is None else card.text
                for card in self.cells[row * COLUMNS : (row + 1) * COLUMNS]
            )
            for row in range(ROWS)
        )

    def to_text(self) -> str:
        """The position as text; the variant is named unless it is the default (so the
        positions stored before it was are read back as they were written)."""
        aces = f"Aces: {' '.join(ace.text for ace in self.aces)}\n" if self.aces else ""
        named = "" if self.variant.name == DEFAULT_VARIANT else f"Variant: {self.variant.name}\n"
        return (
            f"{named}Deal: {self.deal}\nRedeals-left: {self.redeals_left}\n"
            f"Redeals-done: {self.redeals_done}\n{aces}{self.grid_text()}\n"
        )

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"montana.parse({self.to_text()!r})"


# -- making positions --------------------------------------------------------------------


RED_MOON_SUITS: Final = "CDHS"
"""Red Moon's aces head rows A … D in this suit order."""


def new_game(deal: int, variant: str = DEFAULT_VARIANT) -> MontanaPosition:
    """Deal ``deal`` of ``variant``: Microsoft's shuffle for that seed, row by row, aces
    out (Montana), to the rows' heads as dealt (Blue Moon), or first by suit (Red Moon)."""
    rules = BY_NAME.get(variant)
    if rules is None:
        raise ValueError(f"unknown Montana variant {variant!r} ({', '.join(VARIANTS)})")
    if not 1 <= deal <= MAX_SEED:
        raise ValueError(f"deal number must be 1 … {MAX_SEED}, not {deal!r}")
    dealt = microsoft_deal(deal)
    if rules.heads == "by-suit":
        aces = tuple(Card.parse(f"A{suit}") for suit in RED_MOON_SUITS)
        others = iter(card for card in dealt if card.rank != ACE)
        cells = tuple(None if cell % COLUMNS == 0 else next(others) for cell in range(CELLS))
        return MontanaPosition(cells, deal, rules.redeals, 0, aces, rules)
    cells = tuple(None if card.rank == ACE else card for card in dealt)
    aces = tuple(card for card in dealt if card.rank == ACE) if rules.heads == "dealt" else ()
    return MontanaPosition(cells, deal, rules.redeals, 0, aces, rules)


_HEADERS: Final = ("variant", "deal", "redeals-left", "redeals-done", "aces")


def parse(text: str) -> MontanaPosition:
    """Read a position: optional ``Key: value`` headers, then four lines of 13 tokens."""
    headers: dict[str, int] = {}
    aces: tuple[Card, ...] = ()
    variant: MontanaVariant | None = None
    grid: list[list[str]] = []
    for number, raw in enumerate(text.strip().splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if ":" in line and not grid:
            key, _, value = line.partition(":")
            key = key.strip().lower()
            if key not in _HEADERS:
                raise InvalidPositionError(f"line {number}: unknown header {key!r}")
            if key == "aces":
                aces = _aces(number, value)
                continue
            if key == "variant":
                variant = _variant(number, value)
                continue
            if not (value.strip().isascii() and value.strip().isdigit()):
                raise InvalidPositionError(f"line {number}: {key} must be a number: {value!r}")
            headers[key] = int(value)
            continue
        grid.append(line.split())
    if len(grid) != ROWS:
        raise InvalidPositionError(f"expected {ROWS} rows of cells, got {len(grid)}")
    cells: list[Card | None] = []
    seen: dict[Card, str] = {}
    for row, tokens in enumerate(grid):
        if len(tokens) != COLUMNS:
            raise InvalidPositionError(
                f"row {ROW_LETTERS[row]} has {len(tokens)} cells, expected {COLUMNS}"
            )
        for column, token in enumerate(tokens):
            where = cell_name(row * COLUMNS + column)
            if token == GAP_TOKEN:
                cells.append(None)
                continue
            try:
                card = Card.parse(token)
            except InvalidCardError:
                raise InvalidPositionError(f"{where}: not a card or gap: {token!r}") from None
            if card.rank == ACE:
                raise InvalidPositionError(f"{where}: aces are not on a Montana board")
            if card in seen:
                raise InvalidPositionError(f"{where}: {card} is also at {seen[card]}")
            seen[card] = where
            cells.append(card)
    missing = sorted(DECK - seen.keys(), key=lambda card: card.index)
    if missing:
        names = " ".join(card.text for card in missing)
        raise InvalidPositionError(f"missing card(s): {names}")
    done = headers.get("redeals-done", 0)
    left = headers.get("redeals-left")
    variant = variant or _variant_of(aces, None if left is None else left + done)
    if (variant.heads != "none") != bool(aces):
        raise InvalidPositionError(f"the aces heading the rows do not fit {variant.name}")
    left = variant.redeals - done if left is None else left
    return MontanaPosition(tuple(cells), headers.get("deal", 0), left, done, aces, variant)


def _variant(number: int, value: str) -> MontanaVariant:
    """The ``Variant:`` header: a variant's name."""
    found = BY_NAME.get(value.strip().lower())
    if found is None:
        raise InvalidPositionError(f"line {number}: no Montana variant {value.strip()!r}")
    return found


def _variant_of(aces: tuple[Card, ...], redeals: int | None) -> MontanaVariant:
    """The variant of a text that does not name it (written before positions carried
    theirs; migration 0016 names it in every stored one): Easy by its four redeals, Red
    Moon by its aces in suit order, Blue Moon by others, else Montana."""
    if aces:
        in_order = "".join(ace.suit for ace in aces) == RED_MOON_SUITS
        return BY_NAME["red-moon" if in_order else "blue-moon"]
    return BY_NAME["easy" if redeals == BY_NAME["easy"].redeals else DEFAULT_VARIANT]


def _aces(number: int, value: str) -> tuple[Card, ...]:
    """The ``Aces:`` header: the four aces heading rows A … D, each suit once."""
    try:
        aces = tuple(Card.parse(token) for token in value.split())
    except InvalidCardError:
        raise InvalidPositionError(f"line {number}: aces must be cards: {value!r}") from None
    if len(aces) != ROWS or any(ace.rank != ACE for ace in aces) or len(set(aces)) != ROWS:
        raise InvalidPositionError(f"line {number}: expected the four aces, got {value!r}")
    return aces


@dataclass(frozen=True)
class MontanaRules:
    """The :class:`app.rules.protocol.Rules` value for Montana."""

    kind: str = "montana"
    name: str = "Montana"
    variants: tuple[str, ...] = VARIANTS
    default_variant: str = DEFAULT_VARIANT
    max_deal: int = MAX_DEAL

    def new_game(self, deal: int, variant: str) -> MontanaPosition:
        return new_game(deal, variant)

    def parse(self, text: str) -> MontanaPosition:
        return parse(text)


RULES: Final = MontanaRules()
