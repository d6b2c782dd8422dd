"""The new-race form (``POST /races``) read into one value, a
:class:`~app.service.races.RaceChoice`."""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel, Field

from app.service import races
from app.web.race_pages import deal_of

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


def read(fields: RaceFields) -> races.RaceChoice:
    """Raises :class:`~app.service.races.RaceRefused` for a time limit not offered, and
    the deal box's refusal for a deal number the game does not deal."""
    kind, variant = fields.kind.strip(), fields.variant.strip() or None
    deal = deal_of(kind, variant, fields.deal)
    limit = races.limit_of(fields.limit)
    return races.RaceChoice(kind, variant, deal, fields.winnable == "1", limit)
