"""Read-only sharing: a game's watch link (made and revoked on ``/games/{id}/share``) and
what it shows (``/watch/{token}``): the replay and, for a game in play, its position now,
refreshed by htmx polling; nothing there plays, undoes or names the game's address."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response

from app import service
from app.service import shares, tournament_marks
from app.store import Database
from app.web.deps import DatabaseDep
from app.web.errors import too_many_words
from app.web.htmx import is_htmx
from app.web.pages import render, steps_page
from app.web.players import PlayerDep, page_settings
from app.web.templating import paths
from app.web.throttle import TooManyRequests, limited

router = APIRouter()


@router.get("/games/{game_id}/share", name="share_page")
def share_page(request: Request, db: DatabaseDep, game_id: str) -> Response:
    """The game's watch link, if it has one, with the forms to make or revoke it."""
    tournament_marks.refuse_while_blind(db, game_id)
    return _share_page(request, db, game_id)


def _share_page(
    request: Request, db: Database, game_id: str, slowed: TooManyRequests | None = None
) -> Response:
    """The share page; ``slowed``: a link made or revoked too often, refused (429)."""
    game = service.load(db=db, game_id=game_id)
    token = shares.link(db=db, game_id=game_id)
    response = render(
        request,
        "share.html",
        200 if slowed is None else 429,
        shared=game,
        watch_link=str(paths(request).url_for(request, "watch", token=token)) if token else None,
        slow_message=too_many_words("write") if slowed else None,
        settings=page_settings(request),
    )
    response.headers["Cache-Control"] = "no-store"
    if slowed is not None:
        response.headers["Retry-After"] = str(slowed.retry_after)
    return response


@router.post("/games/{game_id}/share", name="share_game")
def share_game(request: Request, db: DatabaseDep, player: PlayerDep, game_id: str) -> Response:
    try:
        request.app.state.throttle.check(request, player, "write")
    except TooManyRequests as slowed:
        return _share_page(request, db, game_id, slowed)
    tournament_marks.refuse_while_blind(db, game_id)
    shares.share(db=db, game_id=game_id)
    return RedirectResponse(request.url_for("share_page", game_id=game_id).path, status_code=303)


@router.post("/games/{game_id}/share/revoke", name="revoke_share")
def revoke_share(request: Request, db: DatabaseDep, player: PlayerDep, game_id: str) -> Response:
    try:
        request.app.state.throttle.check(request, player, "write")
    except TooManyRequests as slowed:
        return _share_page(request, db, game_id, slowed)
    shares.revoke(db=db, game_id=game_id)
    return RedirectResponse(request.url_for("share_page", game_id=game_id).path, status_code=303)


@router.get("/watch/{token}", name="watch", dependencies=[Depends(limited("replay"))])
def watch(
    request: Request,
    db: DatabaseDep,
    token: str,
    step: int | None = None,
    since: int | None = None,
) -> Response:
    """The shared game's replay (the last step: its position now). htmx polls it while the
    game is in play, with ``since`` (the version it shows): 204 while nothing changed. A
    link that is not valid, or was revoked, is a 404 (:func:`app.web.errors.unknown_watch`)."""
    game = shares.watched(db=db, token=token)
    if since is not None and is_htmx(request) and since == game.version:
        return Response(status_code=204)
    steps = service.replay_window(db=db, game_id=game.id, step=step)
    url = paths(request).path_for(request, "watch", token=token)
    response = steps_page(request, steps, url, watching=True)
    response.headers.update({"Cache-Control": "no-store", "X-Robots-Tag": "noindex"})
    return response
