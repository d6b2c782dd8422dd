"""How to play: the rules of each game, in the player's language."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from app.games import KINDS
from app.i18n import gettext as _
from app.web.pages import render
from app.web.players import page_settings

router = APIRouter()


@router.get("/rules", name="rules_index")
def rules_index(request: Request) -> Response:
    return render(request, "rules/index.html", kinds=list(KINDS), settings=page_settings(request))


@router.get("/rules/{kind}", name="rules_page")
def rules_page(request: Request, kind: str) -> Response:
    if kind not in KINDS:
        raise HTTPException(status_code=404, detail=_("There is no such game."))
    return render(
        request, f"{kind}/rules.html", settings=page_settings(request)
    )  # every game has its rules page
