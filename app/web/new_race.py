"""The new-race form (``POST /races``) read into one value, a
:class:`~app.service.races.RaceChoice`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pydantic import BaseModel, Field

from app.service import deals, races
from app.web import deal_box

FIELD_MAX: Final = 64


class RaceFields(BaseModel):
    """The form's fields as posted (each at most 64 characters): a game, its variant, a
    deal number (empty: a random deal), ``winnable=1`` (a random deal proved winnable) and
    a time limit in minutes (empty or ``none``: none)."""

    kind: str = Field(max_length=FIELD_MAX)
    variant: str = Field("", max_length=FIELD_MAX)
    deal: str = Field("", max_length=FIELD_MAX)
    winnable: str = Field("", max_length=FIELD_MAX)
    limit: str = Field("", max_length=FIELD_MAX)


@dataclass(frozen=True, slots=True)
class NewRace:
    """The form read: the race to make, or (``refused``) a deal number the game does not
    deal, shown again in the form beside the reason."""

    choice: races.RaceChoice | None
    refused: deal_box.DealRefused | None = None


def read(fields: RaceFields) -> NewRace:
    """The deal box is read as the game's is (:mod:`app.web.deal_box`: the reader's own
    digits, digit groups, a leading ``#``). Raises :class:`~app.service.races.RaceRefused`
    for a time limit not offered, and :class:`~app.service.model.UnknownGameKind` for a
    game or variant the site lacks."""
    kind, variant = fields.kind.strip(), fields.variant.strip() or None
    deals.checked(kind, variant)  # an unknown game before its deal
    problem = deal_box.problem(kind, fields.deal, required=False)
    if problem is not None:
        typed = fields.deal[: deal_box.SHOWN_TEXT]
        refused = deal_box.DealRefused(kind, variant or "", typed, problem, race=True)
        return NewRace(None, refused)
    deal = deal_box.number(fields.deal)
    limit = races.limit_of(fields.limit)
    return NewRace(races.RaceChoice(kind, variant, deal, fields.winnable == "1", limit))
