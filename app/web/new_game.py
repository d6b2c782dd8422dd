"""The new-game form (``POST /games``) read into one value: what to deal, or why not.

Posted by the home page's panels (a deal number, a difficulty, "winnable deals only")
and by the deal box under a game (``back``: that game, where a number the site cannot
deal is shown again with the reason).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pydantic import BaseModel, Field

from app.games import CELLS_GAME
from app.i18n import gettext as _
from app.i18n import pgettext
from app.service import deals
from app.store.ids import GAME_ID_SHAPE
from app.web import deal_box
from app.web.errors import FormError
from app.words import joined

FIELD_MAX: Final = 64
NOTES_MAX: Final = 32
"""Characters of a refused deal number carried back to the game's page."""


class NewGameFields(BaseModel):
    """The form's fields as posted (each at most 64 characters)."""

    kind: str = Field(max_length=FIELD_MAX)
    variant: str = Field("", max_length=FIELD_MAX)
    deal: str = Field("", max_length=FIELD_MAX)
    winnable: str = Field("", max_length=FIELD_MAX)
    back: str = Field("", max_length=FIELD_MAX)
    difficulty: str = Field("", max_length=FIELD_MAX)


@dataclass(frozen=True, slots=True)
class NewGame:
    """The form read: the choice to deal, or (``refused``) a deal number the site cannot
    deal, to show again where it was typed (``back``: a game's page; else the home page)."""

    choice: deals.Choice
    back: str | None
    refused: deal_box.DealRefused | None


def read(fields: NewGameFields) -> NewGame:
    """Raises :class:`FormError` for a form no page of the site posts, and
    :class:`~app.service.model.UnknownGameKind` for a game or variant the site lacks."""
    kind, variant = fields.kind.strip(), fields.variant.strip()
    if fields.back and not GAME_ID_SHAPE.fullmatch(fields.back):
        raise FormError(_("The game to go back to is not a game of this site."))
    deals.checked(kind, variant or None)  # an unknown game before its deal
    back = fields.back or None
    problem = deal_box.problem(kind, fields.deal, required=back is not None)
    if problem is not None:
        typed = fields.deal[:NOTES_MAX]
        refused = deal_box.DealRefused(kind, variant, typed, problem)
        return NewGame(deals.Choice(kind, variant or None), back, refused)
    if fields.winnable not in ("", "0", "1"):
        raise FormError(_("Winnable deals only is either on (1) or off (0)."))
    if fields.difficulty not in ("", "any", *deals.DIFFICULTIES):
        raise FormError(_("A difficulty is one of: %(values)s.") % {"values": difficulties()})
    difficulty = fields.difficulty if fields.difficulty in deals.DIFFICULTIES else None
    number = deal_box.number(fields.deal)
    if difficulty is not None and number is None and (kind, variant or CELLS_GAME[1]) != CELLS_GAME:
        raise FormError(_("A difficulty is chosen for the game with four free cells."))
    choice = deals.Choice(kind, variant or None, number, difficulty, fields.winnable == "1")
    return NewGame(choice, back, None)


def difficulties() -> str:
    """The difficulties the form offers, named in the reader's language, as a list."""
    return joined(
        [
            pgettext("difficulty", "any"),
            pgettext("difficulty", "easy"),
            pgettext("difficulty", "medium"),
            pgettext("difficulty", "hard"),
            pgettext("difficulty", "expert"),
        ]
    )
