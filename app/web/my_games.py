"""A player's list of games (``GET /games``): its query read into one value, and what
the page shows, read before it is drawn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pydantic import BaseModel, Field

from app import service, transfers
from app.games import KINDS
from app.service import names, ratings
from app.store import Database

MAX_PAGE: Final = 1_000_000
"""Beyond any real list; a larger page number is refused (422), not sent to the database."""


class GamesQuery(BaseModel):
    """The list's filters as the page's form asks them: a game, a status, a page."""

    game: str = Field("", max_length=64)
    status: str = Field("", max_length=64)
    page: int = Field(1, le=MAX_PAGE)


@dataclass(frozen=True, slots=True)
class MyGames:
    """What the list shows: a page of the player's games (None: no player yet), the
    filters it was asked with (unknown ones dropped), the transfer link waiting to be
    used and the player's name."""

    listing: service.GamePage | None
    kind: str
    status: str
    transfer_open: transfers.OpenLink | None
    display_name: str | None
    rated: frozenset[str] = frozenset()
    """The listed games whose results moved their player's rating."""


def my_games(db: Database, player: str | None, query: GamesQuery) -> MyGames:
    kind = query.game if query.game in KINDS else None
    wanted = query.status if query.status in service.STATUSES else None
    if player is None:
        return MyGames(None, kind or "", wanted or "", None, None)
    listing = service.my_games(db=db, player_id=player, kind=kind, status=wanted, page=query.page)
    return MyGames(
        listing,
        kind or "",
        wanted or "",
        transfers.open_link(db=db, player_id=player),
        names.name(db=db, player_id=player),
        frozenset(ratings.rated_games(db=db, game_ids=[game.id for game in listing.games])),
    )
