"""The home page: start a game, continue an unfinished one."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app import service, stats
from app.games import KINDS
from app.i18n import gettext as _
from app.i18n import listing
from app.service import deals
from app.store import Database
from app.web.deal_box import DealRefused
from app.web.deps import DatabaseDep
from app.web.names import game_name, variant_name
from app.web.pages import render
from app.web.players import PlayerDep, page_settings

router = APIRouter()


@router.get("/", name="home")
def home(request: Request, db: DatabaseDep, player: PlayerDep) -> Response:
    return home_page(request, db, player)


def home_page(
    request: Request, db: Database, player: str | None, refused: DealRefused | None = None
) -> Response:
    """The home page; with ``refused``, a deal box's number the site cannot deal, shown
    again in its game's form beside the reason (422: nothing was started)."""
    unfinished = service.unfinished(db=db, player_id=player) if player else []
    summary = stats.overview(db=db, player_id=player) if player else []
    return render(
        request,
        "home.html",
        200 if refused is None else 422,
        games=KINDS,
        unfinished=unfinished,
        summary=summary,
        winnable=winnable_choices(),
        refused=refused,
        settings=page_settings(request),
    )


@dataclass(frozen=True, slots=True)
class WinnableChoice:
    kind: str
    ready: list[str]
    """The variants with deals proved winnable."""
    missing: str
    """The others, in a sentence ("" when there are none)."""


def winnable_choices() -> list[WinnableChoice]:
    """Per game of the registry, which variants a winnable deal can be started in."""
    choices = []
    for kind, game in KINDS.items():
        ready = [v for v in game.rules.variants if deals.has_winnable(kind, v)]
        missing = [variant_name(kind, v) for v in game.rules.variants if v not in ready]
        words = ""
        if missing:
            words = _("%(name)s, not yet classified: %(variants)s.") % {
                "name": game_name(kind),
                "variants": listing(missing),
            }
        choices.append(WinnableChoice(kind, ready, words))
    return choices
