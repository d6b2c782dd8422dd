"""Domain errors become HTTP answers here, and only here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from starlette.exceptions import HTTPException

from app import service
from app.i18n import gettext as _
from app.i18n import isolate
from app.rules.protocol import IllegalMoveError, InvalidMoveError
from app.service import SolverBusy, SolverThinking, shares
from app.store import StorageError
from app.web.deps import in_thread
from app.web.htmx import is_htmx
from app.web.pages import render, render_game, stale_message, table_for
from app.web.refusals import refusal
from app.web.throttle import Cost, TooManyRequests
from app.words import joined


def slow_words(reason: str) -> str:
    """Why a request did nothing for now: a rate limit's cost, or the solver's "thinking"
    (this game's search goes on) or "solver" (busy with other games)."""
    if reason == "thinking":
        return _("Still thinking: the solver is working on it. Ask again in a moment.")
    if reason == "solver":
        return _("The solver is busy with other games: ask again in a moment.")
    return too_many_words(
        "search" if reason == "search" else "new_game" if reason == "new_game" else "action"
    )


def too_many_words(cost: Cost) -> str:
    if cost == "search":
        return _("That was a lot of questions to the solver at once: ask again in a moment.")
    if cost == "new_game":
        return _("That was a lot of new games at once: wait a moment, then start one.")
    if cost == "write":
        return _("That was a lot of changes at once: wait a moment, then try again.")
    return _("That was a lot of moves at once: wait a moment, then carry on.")


class FormError(ValueError):
    """A form field the site cannot read (a version that is not a number, say)."""


async def not_found(request: Request, error: Exception) -> Response:
    message = _("There is no game at this address: check the link, or start a new game.")
    return render_error(request, 404, title=_("Game not found"), message=message)


async def unknown_watch(request: Request, error: Exception) -> Response:
    message = _("This watch link is not valid, or its owner revoked it.")
    return render_error(request, 404, title=_("Page not found"), message=message)


async def stale(request: Request, error: Exception) -> Response:
    assert isinstance(error, service.StaleVersion)
    if is_page_form(request):
        return back_to_game(request, error.game.id, stale="1")
    table = await in_thread(table_for, request, error.game)
    return render_game(request, table, status_code=409, message=stale_message())


HINT_REFUSED = "hint"
"""What a page form's refusal names when it posted no move (a hint): the page says why."""


async def refused(request: Request, error: Exception) -> Response:
    """A move, form or game the rules or the site refuse: why, on the game as it is."""
    game_id = request.path_params.get("game_id")
    if game_id is None:
        return render_error(request, 422, title=_("Cannot do that"), message=words(error))
    game = getattr(error, "game", None)
    if is_page_form(request):
        action = request.query_params.get("action") or await _posted_action(request)
        if not action and isinstance(error, service.NotBegun):
            action = HINT_REFUSED  # a hint asked during a race's countdown
        held = await _still_held(request, game)
        params = {"sel": held} if held else {}
        return back_to_game(request, game_id, refused=action[:32], **params)
    if isinstance(game, service.Game):  # the service says what it refused, as it is
        table = await in_thread(table_for, request, game)
    else:
        table = await in_thread(_table, request, game_id)
    held = await _still_held(request, table.game)
    return render_game(request, table, status_code=422, message=words(error), pick=held)


async def too_many(request: Request, error: Exception) -> Response:
    assert isinstance(error, TooManyRequests)
    return await in_thread(_slow_down, request, error.cost, error.retry_after)


async def solver_busy(request: Request, error: Exception) -> Response:
    if isinstance(error, SolverThinking):  # accepted, its search goes on: not "busy"
        return await in_thread(_slow_down, request, "thinking", 2, 202)
    return await in_thread(_slow_down, request, "solver", 2)


def _slow_down(request: Request, reason: str, retry_after: int, status: int = 429) -> Response:
    # In a worker thread: under a flood of refusals the event loop must stay free.
    game_id = request.path_params.get("game_id")
    if game_id is not None and is_page_form(request):
        # Without JavaScript: back to the game, which says why (never left on a form's
        # address, where a reload would post it again).
        return back_to_game(request, game_id, slow=reason)
    message = slow_words(reason)
    if game_id is None:
        response = render_error(request, status, _("Slow down a little"), message)
    else:
        table = _table(request, game_id)
        response = render_game(request, table, status_code=status, message=message)
    response.headers["Retry-After"] = str(retry_after)
    return response


async def storage(request: Request, error: Exception) -> Response:
    message = _(
        "The game store cannot save or read right now, so nothing was changed. "
        "Please try again in a moment."
    )
    response = render_error(request, 503, title=_("Try again soon"), message=message)
    response.headers["Retry-After"] = "5"
    return response


async def invalid_form(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    fields = joined([_field_words(problem["loc"][1:]) for problem in error.errors()])
    message = _("A field of this form is missing, too long or malformed: %(fields)s.") % {
        "fields": fields
    }
    return render_error(request, 422, title=_("Cannot read that form"), message=message)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 404 and request.url.path.startswith("/games/"):
        # Whatever its shape, an id that names no game gets the same answer.
        return await not_found(request, error)
    if error.status_code == 404:
        title, message = _("Page not found"), _("There is no page at this address.")
    elif error.status_code == 405:
        title = _("Method not allowed")
        message = _("This address does not take that kind of request.")
    else:
        title, message = _("Something went wrong"), _("The site could not answer that.")
    if isinstance(error.detail, str) and error.status_code == 404 and error.detail:
        message = error.detail if error.detail != "Not Found" else message
    return render_error(request, error.status_code, title=title, message=message)


Handler = Callable[[Request, Exception], Awaitable[Response]]

HANDLERS: Final[tuple[tuple[type[Exception], Handler], ...]] = (
    (service.GameNotFound, not_found),
    (shares.WatchNotFound, unknown_watch),
    (service.StaleVersion, stale),
    (IllegalMoveError, refused),
    (InvalidMoveError, refused),
    (FormError, refused),
    (service.UnknownGameKind, refused),
    (TooManyRequests, too_many),
    (SolverBusy, solver_busy),
    (StorageError, storage),
    (RequestValidationError, invalid_form),
    (HTTPException, http_error),
)
"""Each domain error and the handler that answers it."""


def install(app: FastAPI) -> None:
    for error_class, handler in HANDLERS:
        app.add_exception_handler(error_class, handler)


def _table(request: Request, game_id: str) -> service.Table:
    """The game an error happened on, as its page shows it (read before rendering)."""
    return table_for(request, service.load(db=request.app.state.db, game_id=game_id))


def is_page_form(request: Request) -> bool:
    """A form a browser posted without JavaScript, as a page (``Sec-Fetch-Mode: navigate``).

    Its answer is a redirect back to the game (Post/Redirect/Get), so the browser never
    stays on the form's address where a reload would post it again. Other clients keep
    the plain status codes.
    """
    return (
        request.method == "POST"
        and not is_htmx(request)
        and request.headers.get("Sec-Fetch-Mode") == "navigate"
    )


def _field_words(where: Sequence[object]) -> str:
    """A form field a refusal names: the player's word for it where the forms ask it of
    a player, else its name as the form sends it (isolated)."""
    name = ".".join(str(part) for part in where) or "-"
    words = {
        "kind": _("the game"),
        "variant": _("the variant"),
        "deal": _("the deal number"),
        "winnable": _("winnable deals only"),
        "name": _("the display name"),
    }.get(name)
    return words if words is not None else isolate(name[:32])


def back_to_game(request: Request, game_id: str, **params: str) -> Response:
    url = request.url_for("game_page", game_id=game_id).include_query_params(**params)
    return RedirectResponse(url, status_code=303)


async def _still_held(request: Request, game: object) -> str | None:
    """The cards the player held when a move of theirs was refused, in the game's own
    selection syntax (``GameKind.presenter.held``), so they still hold them while they read
    why."""
    if request.method != "POST" or not isinstance(game, service.Game):
        return None
    form = await request.form()
    if form.get("drag"):  # a refused drag lets go: the card goes back, not held
        return None
    action, place, held = form.get("action", ""), form.get("source", ""), form.get("held")
    if not isinstance(action, str) or not isinstance(place, str) or not isinstance(held, str):
        return None
    if not held.isdecimal():
        return None
    return game.game.presenter.held(place.strip() or action.strip(), int(held[:4]))


async def _posted_action(request: Request) -> str:
    """The posted ``action``, or the places a click joined (``3>6>2``: from column 3 to
    column 6, two cards held), which the game page words again."""
    form = await request.form()
    action, source, target = form.get("action"), form.get("source"), form.get("target")
    if isinstance(action, str) and action.strip():
        return action
    if isinstance(source, str) and isinstance(target, str) and source and target:
        held = form.get("held")
        count = held if isinstance(held, str) and held.isdecimal() else "1"
        return f"{source[:2]}>{target[:2]}>{count[:2]}"
    return ""


def render_error(request: Request, status: int, title: str, message: object) -> Response:
    """An error page, or for htmx the ``#game`` fragment saying the same."""
    template = "_error.html" if is_htmx(request) else "error.html"
    # The site's own look: an error page asks nothing more of the database.
    settings = service.DEFAULT_SETTINGS
    return render(request, template, status, title=title, message=message, settings=settings)


def words(error: Exception) -> str:
    """A refusal in the player's language: the engine's by its code, the service's kinds
    of game by theirs, a form's as it was worded when raised."""
    if isinstance(error, FormError):
        return str(error)
    return refusal(error)
