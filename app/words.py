"""Words every game shares, in the reader's language: card names and the helpers that fill
a refusal's or a move's sentence.

Cards, cells, column names and numbers are isolated (:func:`app.i18n.isolate`) so they keep
their direction inside an Arabic sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from app.i18n import gettext as _
from app.i18n import isolate, number
from app.rules.cards import Card

Params: TypeAlias = Mapping[str, object]
"""A refusal's params (:class:`app.rules.protocol.RuleError`)."""


def rank_name(rank: int) -> str:
    """The rank in words (``'ace'``, ``'8'``, ``'king'``), a message of its own (only the
    one asked for is looked up: a screen reader's label names a card or two a cell)."""
    if rank == 1:
        return _("ace")
    if rank == 11:
        return _("jack")
    if rank == 12:
        return _("queen")
    if rank == 13:
        return _("king")
    return str(rank)


def suit_name(suit: str) -> str:
    if suit == "C":
        return _("clubs")
    if suit == "D":
        return _("diamonds")
    if suit == "H":
        return _("hearts")
    if suit == "S":
        return _("spades")
    raise ValueError(f"no such suit: {suit!r}")


def card_name(card: Card) -> str:
    """``'8 of clubs'``, for screen readers."""
    return _("%(rank)s of %(suit)s") % {"rank": rank_name(card.rank), "suit": suit_name(card.suit)}


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def shown(value: object) -> str:
    """A param as the player sees it: a card as ``8♣``, a run as ``9♣ 8♥``, else as is."""
    if isinstance(value, Card):
        return isolate(value.symbol)
    if isinstance(value, int):
        return isolate(number(value))
    if isinstance(value, tuple):
        return isolate(" ".join(card.symbol for card in value if isinstance(card, Card)))
    return isolate(value)


def fill(template: str, params: Params) -> str:
    return template % {key: shown(value) for key, value in params.items()}


def count(params: Params, key: str) -> int:
    value = params.get(key, 0)
    return value if isinstance(value, int) else 0
