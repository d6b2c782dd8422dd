"""The weekly tournaments' URLs: this week's and past ones (``/tournaments``), one
tournament's deals and table (``/tournaments/{id}``; with htmx, its table alone), and a
player's one game of its k-th deal (``POST /tournaments/{id}/deals/{k}``)."""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response

from app.config import secret_key
from app.i18n import gettext as _
from app.service import tournaments
from app.service.players import ensure_player
from app.service.tournament_marks import TournamentRefused
from app.web.deps import DatabaseDep
from app.web.errors import render_error, words
from app.web.htmx import is_htmx
from app.web.pages import render
from app.web.players import PlayerDep, page_settings, see_other
from app.web.throttle import limited

router = APIRouter(prefix="/tournaments")

MOST: Final = 1 << 62
"""Beyond any id or page: a larger number is refused (422), never sent to the database."""
TournamentId = Annotated[int, Path(ge=1, le=MOST)]
STATUS: Final = {"tournament.no_deal": 404}
"""A refusal's status (409 otherwise: the tournament or the player's game stands in the way)."""


@router.get("", name="tournaments_page")
def tournaments_page(request: Request, db: DatabaseDep, player: PlayerDep) -> Response:
    secret = secret_key(request.app.state.settings)
    this_week, past = tournaments.index(db=db, secret=secret, player_id=player)
    settings = page_settings(request)
    return render(
        request, "tournaments/index.html", this_week=this_week, past=past, settings=settings
    )


@router.get("/{tournament_id}", name="tournament_page")
def tournament_page(
    request: Request,
    db: DatabaseDep,
    player: PlayerDep,
    tournament_id: TournamentId,
    page: Annotated[int, Query(ge=1, le=MOST)] = 1,
) -> Response:
    """The tournament; with htmx (its table's rows asking every few seconds), the table
    alone (the rows and the count are taken from it)."""
    try:
        shown = tournaments.tournament(
            db=db, tournament_id=tournament_id, player_id=player, page=page
        )
    except tournaments.TournamentNotFound:
        return not_found(request)
    if is_htmx(request) and request.headers.get("HX-Target") == "standings-rows":
        return render(request, "tournaments/_table.html", t=shown, viewer=player)
    settings = page_settings(request)
    return render(request, "tournaments/tournament.html", t=shown, viewer=player, settings=settings)


@router.post(
    "/{tournament_id}/deals/{k}",
    name="play_tournament_deal",
    dependencies=[Depends(limited("new_game"))],
)
def play_tournament_deal(
    request: Request,
    db: DatabaseDep,
    player: PlayerDep,
    tournament_id: TournamentId,
    k: Annotated[int, Path(ge=-MOST, le=MOST)],
) -> Response:
    """Start, or go back to, the player's one game of the tournament's ``k``-th deal."""
    try:
        tournaments.check(db=db, tournament_id=tournament_id, k=k)  # before a player is made
        player_id = ensure_player(db=db, player_id=player)
        game_id = tournaments.play_deal(
            db=db, tournament_id=tournament_id, k=k, player_id=player_id
        )
    except tournaments.TournamentNotFound:
        return not_found(request)
    except TournamentRefused as error:
        status = STATUS.get(error.code, 409)
        return render_error(request, status, _("Cannot do that"), words(error))
    return see_other(request, request.url_for("game_page", game_id=game_id), player_id, player)


def not_found(request: Request) -> Response:
    message = _("There is no tournament at this address: see this week's on the tournaments page.")
    return render_error(request, 404, title=_("Tournament not found"), message=message)
