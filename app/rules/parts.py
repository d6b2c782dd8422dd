"""The parts solitaire games are made of: build rules, what an empty column takes, the run
at the bottom of a column, the supermove limit and foundations built by suit from the ace.

Games compose these values (a variant is a choice of parts), they never import each other.
A part is pure: cards in, a fact out; each also reads card numbers (``Card.index``: rank *
4 + suit, ace = rank 0, suits C D H S) so a solver's compact positions use the same rule.

>>> ALTERNATE_COLOURS.fits(Card.parse("8H"), Card.parse("9S"))
True
>>> SAME_SUIT.fits(Card.parse("8H"), Card.parse("9S")), SAME_SUIT.fits_index(28, 32)
(False, True)
>>> run_length((Card.parse("9S"), Card.parse("8H"), Card.parse("7S")), ALTERNATE_COLOURS)
3
>>> supermove_limit(2, 1, to_empty=False), supermove_limit(2, 1, to_empty=True)
(6, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from app.rules.cards import KING, SUITS, Card

BuildName = Literal["alternate", "suit", "any"]
EmptyName = Literal["any", "kings"]

_RED_SUITS: Final = (False, True, True, False)
"""By suit index (C D H S): diamonds and hearts are red."""


@dataclass(frozen=True, slots=True)
class BuildRule:
    """What goes on a column's exposed card: one rank lower and ``name`` says the suit
    (``alternate``: the other colour; ``suit``: the same suit; ``any``: any suit)."""

    name: BuildName

    def fits(self, card: Card, onto: Card) -> bool:
        return self.fits_index(card.index, onto.index)

    def fits_index(self, card: int, onto: int) -> bool:
        """:meth:`fits` on card numbers."""
        if card // 4 + 1 != onto // 4:
            return False
        if self.name == "alternate":
            return _RED_SUITS[card % 4] != _RED_SUITS[onto % 4]
        return self.name == "any" or card % 4 == onto % 4

    def wanted(self, onto: Card) -> tuple[Card, ...]:
        """The cards that go on ``onto`` (none on an ace)."""
        if onto.rank == 1:
            return ()
        lower = (Card(onto.rank - 1, suit) for suit in SUITS)
        return tuple(card for card in lower if self.fits(card, onto))

    def is_safe(self, card: int, foundations: Sequence[int]) -> bool:
        """Whether no card in play could need ``card`` (a card number) to build on.

        A card goes on ``card`` only if it is one rank lower and may lie there: once those
        cards are home (or cannot need it), ``card`` may go home too.
        """
        rank = card // 4 + 1
        if rank <= 2 or self.name == "suit":
            return True
        needing = (
            suit
            for suit in range(4)
            if self.name == "any" or _RED_SUITS[suit] != _RED_SUITS[card % 4]
        )
        return min(foundations[suit] for suit in needing) >= rank - 1


ALTERNATE_COLOURS: Final = BuildRule("alternate")
SAME_SUIT: Final = BuildRule("suit")
ANY_SUIT: Final = BuildRule("any")


@dataclass(frozen=True, slots=True)
class EmptyColumnRule:
    """What may go into an empty column: ``any`` card, or ``kings`` only."""

    name: EmptyName

    def accepts(self, card: Card) -> bool:
        return self.name == "any" or card.rank == KING

    def accepts_index(self, card: int) -> bool:
        return self.name == "any" or card // 4 + 1 == KING


ANY_CARD: Final = EmptyColumnRule("any")
KINGS_ONLY: Final = EmptyColumnRule("kings")


def run_length(column: Sequence[Card], build: BuildRule) -> int:
    """The length of the run at the bottom of ``column`` (0 for an empty column): the
    longest sequence of cards each of which lies on the one before by ``build``."""
    length = min(len(column), 1)
    while length < len(column) and build.fits(column[-length], column[-length - 1]):
        length += 1
    return length


def supermove_limit(
    empty_cells: int, empty_columns: int, *, to_empty: bool, doubling: bool = True
) -> int:
    """The most cards that move at once, as if card by card through the empty free cells
    and (``doubling``) the empty columns; ``to_empty`` if the target is an empty column
    (it does not count)."""
    columns = max(empty_columns - to_empty, 0) if doubling else 0
    return (1 + empty_cells) << columns


def goes_home(card: Card, foundations: Sequence[int]) -> bool:
    """Whether ``card`` is the next card of its suit's foundation (ranks by suit C D H S)."""
    return foundations[card.index % 4] + 1 == card.rank


def grid_sequence(row: Sequence[Card | None], base: int) -> int:
    """How many cards of a grid ``row`` are in place: the run ``base``, ``base + 1``, … of
    one suit from its first cell (from the 2 in a grid without aces; from the ace in one
    with them).

    >>> grid_sequence((Card.parse("2H"), Card.parse("3H"), None, Card.parse("4H")), 2)
    2
    """
    first = row[0] if row else None
    if first is None or first.rank != base:
        return 0
    length = 1
    while length < len(row) and first.rank + length <= KING:
        card = row[length]
        if card is None or card.suit != first.suit or card.rank != first.rank + length:
            break
        length += 1
    return length


def grid_wanted(left: Card | None) -> Card | None:
    """The one card a grid's gap takes after ``left``: the next of its suit (none
    after a gap or a king)."""
    if left is None or left.rank == KING:
        return None
    return Card(left.rank + 1, left.suit)
