"""Actions and results in words for people ("8♣ to B7", "3 cards from column 3 to column 6").

Every sentence is one message with named placeholders. Cards, cells, column names and
numbers are isolated (:func:`app.i18n.isolate`) so they keep their direction inside an
Arabic sentence.
"""

from __future__ import annotations

from app.games.freecell.rules import CELL_NAMES, HOME, FreeCellPosition
from app.games.montana.rules import MontanaMove, MontanaPosition, cell_name
from app.i18n import gettext as _
from app.i18n import isolate, ngettext
from app.rules.cards import Card
from app.rules.protocol import Position


def rank_name(rank: int) -> str:
    """The rank in words (``'ace'``, ``'8'``, ``'king'``), a message of its own."""
    names = {1: _("ace"), 11: _("jack"), 12: _("queen"), 13: _("king")}
    return names.get(rank, str(rank))


def suit_name(suit: str) -> str:
    return {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}[suit]


def card_name(card: Card) -> str:
    """``'8 of clubs'``, for screen readers."""
    return _("%(rank)s of %(suit)s") % {"rank": rank_name(card.rank), "suit": suit_name(card.suit)}


def describe(kind: str, notation: str, before: Position, after: Position) -> str:
    """Say what an action did, given the positions before and after it."""
    if kind == "undo":
        return _("undo")
    if kind == "resign":
        return _("resign")
    if isinstance(before, MontanaPosition) and isinstance(after, MontanaPosition):
        return _montana(notation, before, after)
    if isinstance(before, FreeCellPosition):
        words = _freecell(notation, before)
        return _("%(move)s (automatic)") % {"move": words} if kind == "auto" else words
    return notation


def _montana(notation: str, before: MontanaPosition, after: MontanaPosition) -> str:
    action = before.parse_action(notation)
    if isinstance(action, MontanaMove):
        return _("%(card)s to %(cell)s") % {
            "card": isolate(action.card.symbol),
            "cell": isolate(cell_name(action.cell)),
        }
    total = after.redeals_done + after.redeals_left
    return _("redeal %(num)s of %(total)s") % {
        "num": isolate(after.redeals_done),
        "total": isolate(total),
    }


def place_name(name: str) -> str:
    """``'home'``, ``'free cell a'`` or ``'column 3'``."""
    if name == HOME:
        return _("home")
    if name in CELL_NAMES:
        return _("free cell %(name)s") % {"name": isolate(name)}
    return _("column %(name)s") % {"name": isolate(name)}


def _freecell(notation: str, before: FreeCellPosition) -> str:
    move = before.parse_action(notation)
    card = before.card_at(move.source)
    source, target = place_name(move.source), place_name(move.target)
    if move.count > 1:
        return ngettext(
            "%(num)s card from %(source)s to %(target)s",
            "%(num)s cards from %(source)s to %(target)s",
            move.count,
        ) % {"num": isolate(move.count), "source": source, "target": target}
    name = isolate(card.symbol) if card else _("a card")
    if move.target == HOME:
        return _("%(card)s home from %(source)s") % {"card": name, "source": source}
    return _("%(card)s from %(source)s to %(target)s") % {
        "card": name,
        "source": source,
        "target": target,
    }


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
