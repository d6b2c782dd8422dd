"""The deal box: a deal number as a player types it, on the home page and under a game.

Read as the reader writes numbers (:func:`app.i18n.whole_number`): spaces around it, a
leading ``#``, digit groups and the reader's own digits are fine. A number the site cannot
deal is refused in words that give the range, before it is formatted or stored; a number
of more digits than any deal is never formatted at all (Babel cannot format 26 of them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app import i18n
from app.games import KINDS
from app.i18n import gettext as _
from app.web.errors import FormError
from app.words import fill

SHOWN_TEXT: Final = 24
"""Characters of a refused deal number shown back to the player (then an ellipsis)."""


@dataclass(frozen=True, slots=True)
class DealRefused:
    """A deal box's number the site cannot deal, to show again beside the reason."""

    kind: str
    variant: str
    text: str
    """What the player typed, cut short."""
    reason: str
    race: bool = False
    """Typed in a race's form (else a game's)."""


def number(text: str) -> int | None:
    """The deal number typed (None: nothing typed); raises :class:`FormError` for text
    that is no whole number or has more digits than any deal."""
    try:
        return i18n.whole_number(text.strip().removeprefix("#"))
    except i18n.NotANumber:
        raise FormError(_("A deal number is a whole number, such as 11982.")) from None


def problem(kind: str, text: str, *, required: bool = True) -> str | None:
    """Why ``text`` is not a deal of ``kind`` the site can deal, in words; None when it is
    one (or, unless ``required``, when nothing was typed: a deal chosen at random)."""
    highest = KINDS[kind].rules.max_deal if kind in KINDS else None
    try:
        deal = i18n.whole_number(text.strip().removeprefix("#"))
    except i18n.NotANumber as error:
        if error.problem == "long" and highest is not None:
            return fill(
                _("%(text)s is not a deal number: deals run from 1 to %(max)s."),
                {"text": shown(text), "max": highest},
            )
        return _("A deal number is a whole number, such as 11982.")
    if deal is None:
        return _("Type a deal number, such as 11982.") if required else None
    if highest is not None and not 1 <= deal <= highest:
        return _("Deal numbers run from 1 to %(max)s, not %(deal)s.") % {
            "max": i18n.number(highest),
            "deal": i18n.number(deal),
        }
    return None


def shown(text: str) -> str:
    """What the player typed, printable and cut short, to quote in a refusal."""
    text = text.strip()
    printable = "".join(c if c.isprintable() else "\ufffd" for c in text[:SHOWN_TEXT])
    return printable + ("…" if len(text) > SHOWN_TEXT else "")
