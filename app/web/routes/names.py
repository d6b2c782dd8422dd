"""The player's display name (``POST /settings/name``), as the partial
``templates/_display_name.html`` posts it: refused with the reason (422), or kept and
back to ``next`` (a path of this site), or for htmx the partial again."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from app.i18n import gettext as _
from app.service import names
from app.store import Database
from app.web.deps import DatabaseDep
from app.web.errors import too_many_words
from app.web.htmx import is_htmx
from app.web.pages import render
from app.web.players import PlayerDep, page_settings, remember_player, see_other
from app.web.throttle import TooManyRequests

router = APIRouter()


class NameFields(BaseModel):
    """The name form's fields: the name typed, ``clear`` (its "Remove my name"), and
    ``next``, where to go back to."""

    name: str = Field("", max_length=200)
    clear: str = Field("", max_length=8)
    next: str = Field("/games", max_length=200)


@router.post("/settings/name", name="save_name")
def save_name(
    request: Request, db: DatabaseDep, player: PlayerDep, form: Annotated[NameFields, Form()]
) -> Response:
    """Keep the name, or (``clear=1``, the form's "Remove my name") clear it; a blank name
    is refused, so a slip never wipes one. Nothing is stored when it is refused, and a
    player is made only with a name kept (counted per address, as the settings do). Each
    change counts as a write (429 with the form again past the limit)."""
    target = local_path(form.next)
    try:
        kept, player_id = _save(request, db, player, form)
    except names.NameRefused as refusal:
        return _refused(request, db, player, refusal_words(refusal), form.name, target)
    except TooManyRequests as slowed:
        response = _refused(request, db, player, too_many_words("write"), form.name, target, 429)
        response.headers["Retry-After"] = str(slowed.retry_after)
        return response
    return _kept(request, kept, target, player_id, player)


def _save(
    request: Request, db: Database, player: str | None, form: NameFields
) -> tuple[str | None, str | None]:
    """The name kept (None: cleared) and the player it is kept for (None: no player, when
    there was no name to clear). Raises :class:`~app.service.names.NameRefused` or
    :class:`TooManyRequests`, before anything is counted or stored for the first."""
    if not form.clear:
        names.normal(form.name)  # refused before anything is counted or stored
    request.app.state.throttle.check(request, player, "write")
    if form.clear:
        if not player:  # no player: no name to clear, and no player to make
            return None, None
        return names.set_name(db=db, player_id=player, text="")
    if player is None:  # a new player, to remember the name: counted per address
        request.app.state.throttle.check(request, None, "player")
    return names.set_name(db=db, player_id=player, text=form.name)


def _kept(
    request: Request, kept: str | None, target: str, player_id: str | None, player: str | None
) -> Response:
    """Back to ``target``, or for htmx the partial saying the name was kept."""
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
    if refusal.problem == "blank":
        return _("Type a name, or choose “Remove my name” to be anonymous again.")
    if refusal.problem == "empty":
        return _("A name has at least one letter or digit.")
    if refusal.problem == "long":
        return _("A name has at most %(max)d characters.") % {"max": names.MAX_LENGTH}
    if refusal.problem == "taken":
        return _("Another player has this name, or one that looks the same: choose another.")
    if refusal.problem == "marks":
        return _(
            "A letter in a name carries at most %(max)d accents or marks, never the same one twice."
        ) % {"max": names.MOST_MARKS}
    if refusal.problem == "site":
        return _("This name looks like one of the site's own words: choose another.")
    return _("A name may hold only letters, digits, spaces and the marks - _ . ' (no other signs).")


def _refused(
    request: Request,
    db: Database,
    player: str | None,
    reason: str,
    text: str,
    target: str,
    status: int = 422,
) -> Response:
    """The form again with the reason: for htmx the partial, else a page of its own."""
    template = "_display_name.html" if is_htmx(request) else "name_refused.html"
    return render(
        request,
        template,
        status,
        display_name=names.name(db=db, player_id=player),
        name_next=target,
        name_saved=False,
        name_error=reason,
        name_text=text[:48],
        settings=page_settings(request),
    )
