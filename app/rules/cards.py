"""Cards and their notation, shared by every game.

Glossary
--------
- A **rank** is an ``int`` from 1 (ace) to 13 (king); its letter is ``A 2 … 9 T J Q K``.
- A **suit** is one of ``"C" "D" "H" "S"`` (clubs, diamonds, hearts, spades): the order
  Microsoft's shuffle numbers them in, so card index ``(rank - 1) * 4 + suit`` matches it.
- A :class:`Card` is written with two characters, rank then suit: ``"AS"``, ``"8C"``,
  ``"TD"``, ``"KH"``. Parsing also accepts ``10`` for ten and lower case.

>>> Card.parse("8c")
Card.parse('8C')
>>> Card.parse("8C").label
'8 of clubs'
>>> Card.parse("QH").is_red
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Suit = Literal["C", "D", "H", "S"]
Colour = Literal["red", "black"]

SUITS: Final[tuple[Suit, ...]] = ("C", "D", "H", "S")
RANK_LETTERS: Final[str] = "A23456789TJQK"
ACE: Final = 1
KING: Final = 13

SUIT_SYMBOLS: Final[dict[Suit, str]] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES: Final[dict[Suit, str]] = {
    "C": "clubs",
    "D": "diamonds",
    "H": "hearts",
    "S": "spades",
}
RANK_NAMES: Final[tuple[str, ...]] = (
    "",
    "ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "jack",
    "queen",
    "king",
)


class InvalidCardError(ValueError):
    """A card token that does not name a card."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card; immutable, hashable, ordered by rank then suit."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not ACE <= self.rank <= KING or self.suit not in SUITS:
            raise InvalidCardError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"8C"``, ``"TD"``, ``"10d"``; raise :class:`InvalidCardError` otherwise."""
        token = text.strip().upper()
        if token.startswith("10"):
            token = "T" + token[2:]
        if len(token) != 2 or token[0] not in RANK_LETTERS or token[1] not in SUITS:
            raise InvalidCardError(f"not a card: {text!r} (expected e.g. '8C', 'TD', 'KH')")
        return cls(RANK_LETTERS.index(token[0]) + 1, SUITS[SUITS.index(token[1])])

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card Microsoft's shuffle numbers ``index`` (0 = AC, 1 = AD, … 51 = KS)."""
        return cls(index // 4 + 1, SUITS[index % 4])

    @property
    def index(self) -> int:
        return (self.rank - 1) * 4 + SUITS.index(self.suit)

    @property
    def colour(self) -> Colour:
        return "red" if self.suit in ("D", "H") else "black"

    @property
    def is_red(self) -> bool:
        return self.colour == "red"

    @property
    def text(self) -> str:
        """The two-character notation, ``"8C"``."""
        return RANK_LETTERS[self.rank - 1] + self.suit

    @property
    def symbol(self) -> str:
        """Rank and suit symbol for display, ``"8♣"`` (``"10♦"`` for ten)."""
        rank = "10" if self.rank == 10 else RANK_LETTERS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def label(self) -> str:
        """Words for screen readers, ``"8 of clubs"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"


FULL_DECK: Final[tuple[Card, ...]] = tuple(Card.from_index(i) for i in range(52))
