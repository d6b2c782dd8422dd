"""The anonymous player: an id in a signed, HttpOnly, SameSite=Lax cookie."""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import Depends, Request, Response
from fastapi.responses import RedirectResponse
from itsdangerous import BadSignature, URLSafeSerializer
from starlette.datastructures import URL

from app import service

COOKIE: Final = "player"
COOKIE_MAX_AGE: Final = 10 * 365 * 24 * 3600


def _signer(request: Request) -> URLSafeSerializer:
    signer: URLSafeSerializer = request.app.state.cookie_signer
    return signer


def current_player(request: Request) -> str | None:
    """The player id the cookie proves, or None (no cookie, or a forged one); checked
    once a request (the route, the rate limits and the page all ask)."""
    scope = request.scope
    if PROVEN in scope:
        found: str | None = scope[PROVEN]
        return found
    raw = request.cookies.get(COOKIE)
    found = None
    if raw:
        try:
            value = _signer(request).loads(raw)
        except BadSignature:
            value = None
        found = value if isinstance(value, str) else None
    scope[PROVEN] = found
    return found


PROVEN: Final = "solitaire.player"
"""Where a request keeps the player its cookie proved."""


def remember_player(request: Request, response: Response, player_id: str) -> None:
    response.set_cookie(
        COOKIE,
        _signer(request).dumps(player_id),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=request.app.state.settings.secure_cookies,
    )


def see_other(
    request: Request, url: str | URL, player_id: str, cookie_player: str | None
) -> RedirectResponse:
    """303 to ``url``; the cookie is set when the player is not the one it already names."""
    response = RedirectResponse(url, status_code=303)
    if player_id != cookie_player:
        remember_player(request, response, player_id)
    return response


async def _current_player(request: Request) -> str | None:
    # A coroutine: no thread hop for reading a cookie (see app.web.deps).
    return current_player(request)


PlayerDep = Annotated[str | None, Depends(_current_player)]


def page_settings(request: Request) -> service.Settings:
    """The player's own table (deck, card size, hand, motion), read before a page is drawn:
    every whole page draws it on its ``<html>``, and drawing reads nothing."""
    return service.settings(db=request.app.state.db, player_id=current_player(request))
