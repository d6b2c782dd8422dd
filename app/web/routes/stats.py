"""The statistics page: per game and variant, for you and for everyone, with charts."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app import stats
from app.games import KINDS
from app.service import ratings, utcnow
from app.web import charts
from app.web.deps import DatabaseDep
from app.web.pages import render
from app.web.players import PlayerDep, page_settings

router = APIRouter()


@router.get("/stats", name="stats_page")
def stats_page(
    request: Request, db: DatabaseDep, player: PlayerDep, game: str = "", who: str = ""
) -> Response:
    yours = stats.overview(db=db, player_id=player) if player else []
    group = stats.group_for(game) or most_played(yours) or stats.GROUPS[0]
    mine = bool(player) and who != "all"
    data = stats.charts(db=db, group=group, player_id=player if mine else None, now=utcnow())
    rating = (
        ratings.player_rating(db=db, player_id=player, kind=group.kind, variant=group.variant)
        if mine and player
        else None
    )
    shown = [charts.win_rate_chart(data), charts.win_time_chart(data), charts.daily_chart(data)]
    return render(
        request,
        "stats.html",
        groups=stats.GROUPS,
        kinds=list(KINDS),
        group=group,
        mine=mine,
        has_player=bool(player),
        yours=yours,
        everyone=stats.overview(db=db, player_id=None),
        rating=rating,
        charts=[charts.rating_chart(rating), *shown] if rating is not None else shown,
        settings=page_settings(request),
    )


def most_played(rows: list[stats.GroupStats]) -> stats.Group | None:
    """The game and variant the player has played most (the first of a tie, in the
    registry's order); None before their first game: the charts open on it."""
    played = [row for row in rows if row.played]
    return max(played, key=lambda row: row.played).group if played else None
