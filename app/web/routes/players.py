"""My games, and moving one's games to another device with a single-use link."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app import transfers
from app.i18n import gettext as _
from app.web.deps import DatabaseDep
from app.web.pages import render
from app.web.players import PlayerDep, page_settings, see_other
from app.web.templating import paths

router = APIRouter()


@router.post("/players/transfer", name="make_transfer")
def make_transfer(request: Request, db: DatabaseDep, player: PlayerDep) -> Response:
    """A new single-use link (shown once: only its hash is kept); the old one stops working."""
    if not player:
        return RedirectResponse(request.url_for("my_games"), status_code=303)
    token = transfers.make_link(db=db, player_id=player)
    return render(
        request,
        "transfer_link.html",
        link=str(paths(request).url_for(request, "join", token=token)),
        transfer_hours=int(transfers.LIFETIME.total_seconds()) // 3600,
        settings=page_settings(request),
    )


@router.post("/players/transfer/cancel", name="cancel_transfer")
def cancel_transfer(request: Request, db: DatabaseDep, player: PlayerDep) -> Response:
    if player:
        transfers.cancel_links(db=db, player_id=player)
    return RedirectResponse(request.url_for("my_games"), status_code=303)


@router.get("/players/join/{token}", name="join")
def join(request: Request, db: DatabaseDep, player: PlayerDep, token: str) -> Response:
    """Say what the link does, with a button to do it; opening it changes nothing."""
    try:
        offer = transfers.offer(db=db, token=token, receiver=player)
    except transfers.TransferRefused as refusal:
        return _refused(request, refusal)
    return render(
        request,
        "transfer_join.html",
        own=offer.sender == player,
        games_here=offer.games_here,
        action=paths(request).path_for(request, "join", token=token),
        settings=page_settings(request),
    )


@router.post("/players/join/{token}", name="accept_join")
def accept_join(request: Request, db: DatabaseDep, player: PlayerDep, token: str) -> Response:
    """This browser's games join the link maker's list, and it becomes that player."""
    try:
        sender = transfers.accept(db=db, token=token, receiver=player)
    except transfers.TransferRefused as refusal:
        return _refused(request, refusal)
    return see_other(request, request.url_for("my_games"), sender, player)


def _refused(request: Request, refusal: transfers.TransferRefused) -> Response:
    if refusal.reason == "used":
        message = _("This link has been used already: make a new one on the other device.")
    elif refusal.reason == "expired":
        message = _("This link has expired: make a new one on the other device.")
    else:
        message = _("This link is not valid or was cancelled: copy it again from My games.")
    return render(
        request,
        "error.html",
        400,
        title=_("Cannot use this link"),
        message=message,
        settings=page_settings(request),
    )
