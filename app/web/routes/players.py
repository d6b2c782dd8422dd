"""My games, and carrying one's identity to another device with a signed, expiring link."""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import Response
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from app import games
from app.config import secret_key
from app.rules import GAMES
from app.web.deps import DatabaseDep
from app.web.pages import render
from app.web.players import PlayerDep, see_other

router = APIRouter()

TRANSFER_MAX_AGE: Final = 24 * 3600
"""A "move my games" link works for a day."""


def _transfer_signer(request: Request) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key(request.app.state.settings), salt="transfer")


@router.get("/games", name="my_games")
def my_games(
    request: Request,
    db: DatabaseDep,
    player: PlayerDep,
    game: str = "",
    status: str = "",
    page: int = 1,
) -> Response:
    kind = game if game in GAMES else None
    wanted = status if status in games.STATUSES else None
    listing = (
        games.my_games(db=db, player_id=player, kind=kind, status=wanted, page=page)
        if player
        else None
    )
    transfer = (
        request.url_for("join", token=_transfer_signer(request).dumps(player)) if player else None
    )
    return render(
        request,
        "my_games.html",
        listing=listing,
        kinds=GAMES,
        kind=kind or "",
        status=wanted or "",
        statuses=games.STATUSES,
        transfer=transfer,
        transfer_hours=TRANSFER_MAX_AGE // 3600,
    )


@router.get("/players/join/{token}", name="join")
def join(request: Request, db: DatabaseDep, token: str) -> Response:
    """Open a "move my games" link: this browser becomes the same player."""
    try:
        player_id = _transfer_signer(request).loads(token[:200], max_age=TRANSFER_MAX_AGE)
    except SignatureExpired:
        return _refused(
            request, "This link has expired: make a new one on the device you came from."
        )
    except BadSignature:
        return _refused(request, "This link is not valid: copy it again from My games.")
    if not isinstance(player_id, str) or not games.player_exists(db=db, player_id=player_id):
        return _refused(request, "This link is not valid: copy it again from My games.")
    return see_other(request, request.url_for("my_games"), player_id, None)


def _refused(request: Request, message: str) -> Response:
    return render(request, "error.html", 400, title="Cannot use this link", message=message)
