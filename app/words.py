"""Words every game shares, in the reader's language: card names and the helpers that fill
a refusal's or a move's sentence.

Cards, cells, column names and numbers are isolated (:func:`app.i18n.isolate`) so they keep
their direction inside an Arabic sentence.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Final, TypeAlias

from app.i18n import gettext as _
from app.i18n import isolate, number, pgettext
from app.rules.cards import RANK_LETTERS, SUIT_SYMBOLS, Card

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


def card_name(card: Card, *, oblique: bool = False) -> str:
    """``'8 of clubs'``, ``'queen of spades'``, for screen readers: a message per named rank,
    since a language may word each its own way (Hindi «चिड़ी का 8» but «हुकुम की बेगम»).

    ``oblique``: the name as it stands before a postposition (Hindi «चिड़ी के 8 को»); in
    most languages the same words."""
    suit = {"suit": suit_name(card.suit)}
    if oblique:
        return _oblique_name(card, suit)
    if card.rank == 1:
        return _("ace of %(suit)s") % suit
    if card.rank == 11:
        return _("jack of %(suit)s") % suit
    if card.rank == 12:
        return _("queen of %(suit)s") % suit
    if card.rank == 13:
        return _("king of %(suit)s") % suit
    return _("%(rank)s of %(suit)s") % {"rank": str(card.rank), **suit}


def _oblique_name(card: Card, suit: dict[str, str]) -> str:
    # TRANSLATORS: a card's name before a postposition (Hindi «चिड़ी के इक्के को»); most
    # languages write it as the plain name.
    if card.rank == 1:
        return pgettext("oblique", "ace of %(suit)s") % suit
    if card.rank == 11:
        return pgettext("oblique", "jack of %(suit)s") % suit
    if card.rank == 12:
        return pgettext("oblique", "queen of %(suit)s") % suit
    if card.rank == 13:
        return pgettext("oblique", "king of %(suit)s") % suit
    return pgettext("oblique", "%(rank)s of %(suit)s") % {"rank": str(card.rank), **suit}


SENTENCE_ENDS: Final = (".", "!", "?", "\u0964", "\u061f", "…")
"""What already ends a sentence: Latin stops, Hindi's danda (।), Arabic's question mark (؟)."""


def sentence(text: str) -> str:
    """``text`` with a capital first letter and the language's full stop (Hindi ।)."""
    text = text[:1].upper() + text[1:]
    if text.rstrip("\u2069").endswith(SENTENCE_ENDS):
        return text
    # TRANSLATORS: a sentence built from pieces gets the language's full stop (Hindi ।).
    return pgettext("sentence", "%(text)s.") % {"text": text}


def quoted(text: object) -> str:
    """What the player typed, between the language's quotes (“8C”, «8C»), never Python's
    ``repr``: a param the engine quoted with ``!r`` is unquoted first."""
    raw = str(text)
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        try:
            raw = str(ast.literal_eval(raw))
        except (ValueError, SyntaxError):
            raw = raw[1:-1]
    # TRANSLATORS: quotes around what the player typed (Arabic «%(text)s»).
    return pgettext("quoted", "“%(text)s”") % {"text": isolate(raw)}


def joined(items: list[str]) -> str:
    """Items side by side with the language's comma (``'3, 5, 7'``; Arabic ``'3، 5، 7'``)."""
    # TRANSLATORS: what separates the items of a list (Arabic «، »).
    return pgettext("list", ", ").join(items)


def cards_in_words(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards named in words and joined with the language's comma, for a screen reader."""
    return joined([card_name(card) for card in cards])


_CARD: Final = "(?:10|[" + re.escape(RANK_LETTERS) + "])[" + "".join(SUIT_SYMBOLS.values()) + "]"
_CARD_SYMBOL: Final = re.compile(
    "(10|[" + re.escape(RANK_LETTERS) + "])([" + "".join(SUIT_SYMBOLS.values()) + "])"
)
_CARDS: Final = re.compile(f"{_CARD}(?: {_CARD})*")
"""A card, or a run of them written side by side (``9♣ 8♥``, as :func:`shown` writes one)."""
_SUIT_OF: Final = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_ISOLATES: Final = "\u2066\u2067\u2068\u2069"


def postpositions() -> frozenset[str]:
    """The words after which a card's name takes its oblique form, in the reader's language
    (Hindi को, पर, में, से …; none in English or Arabic)."""
    # TRANSLATORS: the postpositions that put a card's name before them in its oblique form,
    # separated by spaces (Hindi «को पर में से तक»); "(none)" in a language without them.
    words = pgettext("postpositions", "(none)")
    return frozenset() if words == "(none)" else frozenset(words.split())


def conjunctions() -> frozenset[str]:
    """The words that join two cards before one postposition, so both take the oblique
    form (Hindi «ईंट के 10 या पान के 10 को»); none where nothing is oblique."""
    # TRANSLATORS: "or" and "and" joining two cards' names, with spaces
    # between (Hindi «या और»): before a postposition both names take
    # the oblique form («ईंट के 10 या पान के 10 को»); "(none)" in a
    # language without postpositions.
    words = pgettext("conjunctions", "(none)")
    return frozenset() if words == "(none)" else frozenset(words.split())


def spoken(text: str) -> str:
    """``text`` as a screen reader should hear it: every card symbol (``8♣``, ``10♦``)
    named in words in the reader's language (``'8 of clubs'``, «चिड़ी का 8»), a run
    (``9♣ 8♥``) as a list with the language's comma, and before a postposition in its
    oblique form (Hindi «चिड़ी के 8 को»), the cards an «या» or «और» joins to it too."""
    after, joining = postpositions(), conjunctions()
    found = list(_CARDS.finditer(text))
    oblique = [False] * len(found)
    for index in reversed(range(len(found))):
        rest = text[found[index].end() :].lstrip(_ISOLATES + " ").split(maxsplit=1)
        word = rest[0].rstrip("\u0964.,:") if rest else ""
        if word in after:
            oblique[index] = True
        elif word in joining and index + 1 < len(found):
            between = text[found[index].end() : found[index + 1].start()]
            oblique[index] = between.strip(_ISOLATES + " ") == word and oblique[index + 1]
    pieces: list[str] = []
    end = 0
    for match, bent in zip(found, oblique, strict=True):
        names = [_said(card, oblique=bent) for card in _CARD_SYMBOL.finditer(match[0])]
        pieces += [text[end : match.start()], joined(names)]
        end = match.end()
    return "".join([*pieces, text[end:]])


def _said(match: re.Match[str], *, oblique: bool) -> str:
    rank = 10 if match[1] == "10" else RANK_LETTERS.index(match[1]) + 1
    return card_name(Card(rank, _SUIT_OF[match[2]]), oblique=oblique)


class Words(str):
    """Text already in words (a clause of a sentence): :func:`fill` puts it in as it is,
    not isolated like notation."""

    __slots__ = ()


def shown(value: object) -> str:
    """A param as the player sees it: a card as ``8♣``, a run as ``9♣ 8♥``, else as is."""
    if isinstance(value, Words):
        return str(value)
    if isinstance(value, Card):
        return isolate(value.symbol)
    if isinstance(value, bool):  # a flag for the words to choose by, never shown
        return str(value)
    if isinstance(value, int):
        return isolate(number(value))
    if isinstance(value, tuple):
        return isolate(" ".join(card.symbol for card in value if isinstance(card, Card)))
    return isolate(value)


def fill(template: str, params: Params) -> str:
    """``template`` filled with ``params`` as the player sees them; ``text`` (what the
    player typed) between the language's quotes (:func:`quoted`)."""
    return template % {
        key: quoted(value) if key == "text" else shown(value) for key, value in params.items()
    }


def count(params: Params, key: str) -> int:
    value = params.get(key, 0)
    return value if isinstance(value, int) else 0
