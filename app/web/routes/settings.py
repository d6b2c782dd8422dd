"""The player's own table (``/settings``): deck colours, card size, hand, automatic moves
home and motion, remembered for the player on the server.

A plain form posts and comes back where the player was (Post/Redirect/Get, ``next`` a path
on this site only); with htmx each choice is saved as it is made, the answer says so and
hands the page's ``<html>`` its new classes (the stylesheets draw the rest).
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app import service
from app.i18n import gettext as _
from app.service import names
from app.store import Database
from app.web.deps import DatabaseDep, in_thread
from app.web.errors import FormError
from app.web.htmx import is_htmx, target, trigger
from app.web.pages import render
from app.web.players import PlayerDep, remember_player, see_other
from app.web.setting_fields import fields

router = APIRouter()

PATH_MAX: Final = 512
VALUE_MAX: Final = 16
LEGACY_AUTO_MOVES: Final = {"on": "safe", "off": "off"}
"""The old on/off "Auto home" field (a game page drawn before the three modes)."""
AUTO_HOME_TARGET: Final = "auto-home"
"""The id of the game page's "Auto home" control (``_auto_home.html``)."""


def local_path(text: str) -> str | None:
    """``text`` when it is a path on this site (``/games/…?sel=3``), else None: never
    ``//host``, ``/\\host``, a scheme or a host, nor a control character (browsers drop
    tabs and line breaks from a URL, so ``/\\t/host`` would be ``//host``).

    >>> [local_path(p) for p in ("/games/x?a=1", "//evil.com", "/\\\\evil.com", "https://x")]
    ['/games/x?a=1', None, None, None]
    >>> local_path("///evil.com"), local_path("////x")
    (None, None)
    """
    if not text.startswith("/") or text.startswith("//") or len(text) > PATH_MAX:
        return None
    if "\\" in text:
        return None
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in text):
        return None
    parts = urlsplit(text)
    if parts.scheme or parts.netloc or parts.path.startswith("//"):
        return None
    return text


def changes_in(form: FormData) -> dict[str, str]:
    """The settings a form posts, each checked; raise :class:`FormError` (a readable 422)
    for an unknown value, a field that is not text, or no setting at all."""
    changes: dict[str, str] = {}
    legacy = form.get("auto_moves")
    if legacy is not None:
        if not isinstance(legacy, str) or legacy not in LEGACY_AUTO_MOVES:
            raise FormError(_("Automatic moves home are either on or off."))
        changes["auto_home"] = LEGACY_AUTO_MOVES[legacy]
    for field in fields():
        value = form.get(field.name)
        if value is None:
            continue
        words = {choice.value for choice in field.choices}
        if not isinstance(value, str) or len(value) > VALUE_MAX or value not in words:
            message = _("“%(setting)s” has no such choice: nothing was changed.")
            raise FormError(message % {"setting": field.legend})
        changes[field.name] = value
    if not changes:
        raise FormError(_("Choose a setting to save: nothing was changed."))
    return changes


@router.get("/settings", name="settings_page")
def settings_page(
    request: Request, db: DatabaseDep, player: PlayerDep, back: str = "", saved: str = ""
) -> Response:
    """The settings page; ``back``, the page the player came from (a link goes back);
    ``saved``, just after a plain form saved them."""
    return render(
        request,
        "settings.html",
        settings=service.settings(db=db, player_id=player),
        fields=fields(),
        back=local_path(back),
        saved=bool(saved),
        # The display name's own form (_display_name.html), in a section of its own.
        display_name=names.name(db=db, player_id=player),
        name_next=request.url.path,
    )


@router.post("/settings", name="save_settings")
async def save_settings(request: Request, db: DatabaseDep, player: PlayerDep) -> Response:
    """Save what the form posts (one setting or all), then back to ``next``."""
    form = await request.form()
    next_field = form.get("next", "/settings")
    next_path = local_path(next_field) if isinstance(next_field, str) else None
    changes = changes_in(form)
    if next_path is None:
        # A forged ``next``: nothing is saved, and nobody is sent off this site.
        return RedirectResponse(request.url_for("settings_page").path, status_code=303)
    return await in_thread(_save, request, db, player, changes, next_path)


def _save(
    request: Request, db: Database, player: str | None, changes: dict[str, str], next_path: str
) -> Response:
    if player is None and all(
        getattr(service.DEFAULT_SETTINGS, name) == value for name, value in changes.items()
    ):
        # What a browser without a player already gets: nothing to remember, no row made.
        player_id, settings = None, service.DEFAULT_SETTINGS
    else:
        if player is None:  # a new player, to remember this: counted per address
            request.app.state.throttle.check(request, None, "player")
        player_id, settings = service.save_settings(db=db, player_id=player, changes=changes)
    if not is_htmx(request):
        if player_id is None:
            return RedirectResponse(next_path, status_code=303)
        return see_other(request, next_path, player_id, player)
    if target(request) == AUTO_HOME_TARGET:
        response = render(
            request,
            "_auto_home.html",
            settings=settings,
            game_url=next_path,
        )
    else:
        response = render(request, "_settings_saved.html", settings=settings)
    switches = settings.switches()
    trigger(
        response,
        "solitaire:settings",
        {
            "on": [name for name, on in switches if on],
            "off": [name for name, on in switches if not on],
        },
    )
    if player_id is not None and player_id != player:
        remember_player(request, response, player_id)
    return response
