"""The home page: start a game, continue an unfinished one."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app import service, stats
from app.games import KINDS
from app.web.deps import DatabaseDep
from app.web.pages import render
from app.web.players import PlayerDep

router = APIRouter()


@router.get("/", name="home")
def home(request: Request, db: DatabaseDep, player: PlayerDep) -> Response:
    unfinished = service.unfinished(db=db, player_id=player) if player else []
    summary = stats.overview(db=db, player_id=player) if player else []
    return render(request, "home.html", games=KINDS, unfinished=unfinished, summary=summary)
