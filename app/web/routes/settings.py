"""The player's settings, remembered per player."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app import service
from app.i18n import gettext as _
from app.web.deps import DatabaseDep
from app.web.errors import FormError
from app.web.players import PlayerDep, see_other

router = APIRouter()


@router.post("/settings", name="save_settings")
def save_settings(
    request: Request,
    db: DatabaseDep,
    player: PlayerDep,
    auto_moves: Annotated[str, Form(max_length=8)],
    next: Annotated[str, Form(max_length=200)] = "/",
) -> Response:
    if auto_moves not in ("on", "off"):
        raise FormError(_("Automatic moves home are either on or off."))
    # Only a path on this site: never redirect elsewhere.
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    on = auto_moves == "on"
    if player is None and on:  # what a browser without a player already gets: no row made
        return RedirectResponse(target, status_code=303)
    if player is None:  # a new player, to remember this: counted per address
        request.app.state.throttle.check(request, None, "player")
    player_id = service.ensure_player(db=db, player_id=player)
    service.set_auto_moves(db=db, player_id=player_id, on=on)
    return see_other(request, target, player_id, player)
