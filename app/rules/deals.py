"""Seeded deal generators: the only source of randomness in the rules.

Microsoft's shuffle
-------------------
Deal numbers are Microsoft's: deal #1 here is deal #1 everywhere. The generator is the C
runtime's linear congruential one::

    state = (state * 214013 + 2531011) mod 2**31
    rand  = state >> 16                      # 0 … 32767

seeded with the deal number. The deck starts as card indices 0 … 51 (index = rank * 4 +
suit, ace = rank 0, suits C D H S); for each position ``i`` from 0, a random card among the
``52 - i`` not yet dealt is swapped to the end of the remaining deck and dealt. The result is
the order of :func:`microsoft_deal`, which each game lays out its own way (see its rules
module).

>>> [c.text for c in microsoft_deal(1)[:8]]
['JD', '2D', '9H', 'JC', '5D', '7H', '7C', '5H']

"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, TypeVar

from app.rules.cards import FULL_DECK, Card

T = TypeVar("T")

MAX_SEED: Final = 2**31 - 1


def microsoft_rand(seed: int) -> Iterator[int]:
    """The endless stream of ``rand()`` values of Microsoft's C runtime for ``seed``."""
    state = seed & MAX_SEED
    while True:
        state = (state * 214013 + 2531011) & MAX_SEED
        yield state >> 16


def microsoft_shuffle(items: Sequence[T], seed: int) -> list[T]:
    """Shuffle ``items`` the way Microsoft's numbered deals shuffle the deck for ``seed``."""
    deck = list(items)
    dealt: list[T] = []
    rand = microsoft_rand(seed)
    while deck:
        j = next(rand) % len(deck)
        deck[j], deck[-1] = deck[-1], deck[j]
        dealt.append(deck.pop())
    return dealt


def microsoft_deal(number: int) -> tuple[Card, ...]:
    """The 52 cards of Microsoft deal ``number`` in the order they are dealt."""
    if not 1 <= number <= MAX_SEED:
        raise ValueError(f"deal number must be 1 … {MAX_SEED}, not {number!r}")
    return tuple(microsoft_shuffle(FULL_DECK, number))
