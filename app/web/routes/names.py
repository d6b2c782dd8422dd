"""The player's display name (``POST /settings/name``), as the partial
``templates/_display_name.html`` posts it: refused with the reason (422), or kept and
back to ``next`` (a path of this site), or for htmx the partial again."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app import service
from app.i18n import gettext as _
from app.service import names
from app.store import Database
from app.web.deps import DatabaseDep
from app.web.htmx import is_htmx
from app.web.pages import render
from app.web.players import PlayerDep, remember_player, see_other

router = APIRouter()


@router.post("/settings/name", name="save_name")
def save_name(
    request: Request,
    db: DatabaseDep,
    player: PlayerDep,
    name: Annotated[str, Form(max_length=200)] = "",
    next: Annotated[str, Form(max_length=200)] = "/games",
) -> Response:
    """Keep the name (an empty one clears it); nothing is stored when it is refused."""
    target = local_path(next)
    try:
        chosen = names.normal(name) if name.strip() else None
        if chosen is None and not player:
            kept, player_id = None, None  # no name to clear, and no player to make
        else:
            player_id = service.ensure_player(db=db, player_id=player)
            kept = names.set_name(db=db, player_id=player_id, text=name)
    except names.NameRefused as refusal:
        return _refused(request, db, player, refusal, name, target)
    if not is_htmx(request):
        if player_id is None:
            return RedirectResponse(target, status_code=303)
        return see_other(request, target, player_id, player)
    response = render(
        request,
        "_display_name.html",
        display_name=kept,
        name_next=target,
        name_saved=True,
        name_error=None,
        name_text=kept or "",
    )
    if player_id is not None and player_id != player:
        remember_player(request, response, player_id)
    return response


def local_path(text: str) -> str:
    """``text`` when it is a path on this site, else My games: never a redirect elsewhere."""
    if text.startswith("/") and not text.startswith(("//", "/\\")) and text.isprintable():
        return text
    return "/games"


def refusal_words(refusal: names.NameRefused) -> str:
    if refusal.problem == "empty":
        return _("A name has at least one letter or digit.")
    if refusal.problem == "long":
        return _("A name has at most %(max)d characters.") % {"max": names.MAX_LENGTH}
    if refusal.problem == "taken":
        return _("Another player has this name: choose another.")
    return _("A name may hold only letters, digits, spaces and the marks - _ . ' (no other signs).")


def _refused(
    request: Request,
    db: Database,
    player: str | None,
    refusal: names.NameRefused,
    text: str,
    target: str,
) -> Response:
    """The form again with the reason: for htmx the partial, else a page of its own."""
    template = "_display_name.html" if is_htmx(request) else "name_refused.html"
    return render(
        request,
        template,
        422,
        display_name=names.name(db=db, player_id=player),
        name_next=target,
        name_saved=False,
        name_error=refusal_words(refusal),
        name_text=text[:48],
    )
