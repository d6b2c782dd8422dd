"""The games' URLs: a player's list and a new game (``/games``), and each game's page,
actions, help, replay, and its position and history as text."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Final
from urllib.parse import parse_qsl

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from app import i18n, service, transfers
from app.games import KINDS
from app.i18n import gettext as _
from app.rules.protocol import Action
from app.service import deals, pars, tournament_marks, tournaments
from app.service.solvers import SolverPool
from app.store import Database
from app.web import my_games as web_my_games
from app.web import new_game, notices
from app.web.deps import DatabaseDep, SolversDep, database, in_thread, reading
from app.web.errors import FormError
from app.web.htmx import is_htmx
from app.web.my_games import MAX_PAGE, GamesQuery
from app.web.new_game import NewGameFields
from app.web.pages import (
    describe_hint,
    read_hint,
    render,
    render_game,
    said_after,
    stale_message,
    steps_page,
    table_for,
    verdict_words,
)
from app.web.players import PlayerDep, current_player, page_settings, see_other
from app.web.routes.home import home_page
from app.web.templating import paths
from app.web.throttle import limited

router = APIRouter(prefix="/games")

ShortField = Annotated[str, Form(max_length=64)]


@router.post("", name="start_game", dependencies=[Depends(limited("new_game"))])
def start_game(
    request: Request, db: DatabaseDep, player: PlayerDep, form: Annotated[NewGameFields, Form()]
) -> Response:
    """A new game as the form chooses (:mod:`app.web.new_game`); a deal number the site
    cannot deal goes back where it was typed, with the reason."""
    new = new_game.read(form)
    if new.refused is not None and new.back is not None:
        url = request.url_for("game_page", game_id=new.back)
        url = url.include_query_params(baddeal=new.refused.text or " ")
        return RedirectResponse(url.path + "?" + url.query, status_code=303)
    if new.refused is not None:  # the home page's deal box again, with the reason
        return home_page(request, db, player, refused=new.refused)
    game = deals.start_chosen(db=db, player_id=player, choice=new.choice)
    return see_other(request, request.url_for("game_page", game_id=game.id), game.player_id, player)


@router.get("", name="my_games")
def my_games(
    request: Request, db: DatabaseDep, player: PlayerDep, query: Annotated[GamesQuery, Query()]
) -> Response:
    shown = web_my_games.my_games(db, player, query)
    return render(
        request,
        "my_games.html",
        listing=shown.listing,
        kinds=KINDS,
        kind=shown.kind,
        status=shown.status,
        statuses=service.STATUSES,
        transfer_open=shown.transfer_open,
        transfer_hours=int(transfers.LIFETIME.total_seconds()) // 3600,
        display_name=shown.display_name,
        rated=shown.rated,
        my_tournaments=tournaments.history(db=db, player_id=player),
        blind_games=tournaments.blind_games(db=db, player_id=player),
        settings=page_settings(request),
    )


@dataclass(frozen=True, slots=True)
class _Notes:
    """What the game page's query asks it to show besides the game: ``pick`` (a gap to
    choose a card for) or ``sel`` (cards held), what the player is choosing, a state of the
    page, never stored; ``hint``, a hint to show (after a hint form posted without
    JavaScript); ``check``, whether it can still be won; ``notice``, what came of a form
    posted without JavaScript (:mod:`app.web.notices`)."""

    pick: str
    hint: str
    check: str
    notice: tuple[notices.Notice, str] | None = None
    seen: str = ""
    """``v``: the game's version the page that asked shows (site.js adds it to what the
    game's links ask): behind the game's, the click was made on a board that is no more."""
    moved: str = ""
    """``version.place.count``: where the cards of the move that made that version lie (a
    move posted without JavaScript), marked while the game is still at that version."""


NOTES_MAX: Final = 32
"""Beyond any real value: longer ones are cut, never refused (a page to look at)."""


async def page_notes(request: Request) -> _Notes:
    """The page's query, read here: FastAPI's parameter-by-parameter reading of eight
    optional strings cost a sixth of the page."""
    query = request.query_params

    def note(name: str) -> str:
        return query.get(name, "")[:NOTES_MAX]

    pick = note("pick") or note("sel")
    notice = notices.first(query, NOTES_MAX)
    return _Notes(pick, note("hint"), note("check"), notice, note("v"), note("moved"))


MOVED: Final = re.compile(r"(\d{1,9})\.([a-z]-[A-Za-z0-9]{1,3})\.(\d{1,2})")
"""A ``moved`` note: a version, a place's id (``p-3``, ``c-B7``), a count."""


def last_move(game: service.Game, note: str) -> tuple[str, int] | None:
    """Where the last move's cards lie, as ``note`` says, if the game is still at the
    version it names (else the mark would fall on cards another move played)."""
    found = MOVED.fullmatch(note)
    if found is None or int(found[1]) != game.version:
        return None
    return found[2], int(found[3])


@router.get("/{game_id}", name="game_page", dependencies=[Depends(limited("search", when="check"))])
async def game_page(
    request: Request,
    db: DatabaseDep,
    solvers: SolversDep,
    game_id: str,
    notes: Annotated[_Notes, Depends(page_notes)],
) -> Response:
    """The game, with what its query asks for (:class:`_Notes`)."""
    if notes.check:  # waits for the solver (up to a second): never on the event loop
        return await in_thread(_checked_page, request, db, solvers, game_id, notes.seen)
    page = await reading(db, _read_page, request, db, game_id, notes)
    if page is not None:
        return page
    # A won game whose par may be searched and kept: never on the event loop.
    return await in_thread(_loaded_page, request, db, game_id, notes)


def behind(seen: str, game: service.Game) -> bool:
    """Whether ``seen`` (a version a page posted or asked with) is not the game's own: the
    game moved on in another tab or on another device since that page was drawn."""
    text = seen.strip()
    return bool(text) and (not DIGITS.fullmatch(text) or int(text) != game.version)


def moved_on(request: Request, game: service.Game) -> Response:
    """The game as it stands now, saying it moved on elsewhere: nothing the old page asked
    is done (409, as a move made on an old version)."""
    if not is_htmx(request):
        url = request.url_for("game_page", game_id=game.id).include_query_params(stale="1")
        return RedirectResponse(url, status_code=303)
    return render_game(request, table_for(request, game), status_code=409, message=stale_message())


def _checked_page(
    request: Request, db: Database, solvers: SolverPool, game_id: str, seen: str = ""
) -> Response:
    if seen and behind(seen, current := service.load(db=db, game_id=game_id)):
        return moved_on(request, current)
    game, answer = service.winnable(db=db, solvers=solvers, game_id=game_id)
    return render_game(request, table_for(request, game), message=verdict_words(game, answer))


def _game_and_settings(
    request: Request, db: Database, game_id: str
) -> tuple[service.Game, service.Settings]:
    return service.game_and_settings(db=db, game_id=game_id, player_id=current_player(request))


def _loaded_page(request: Request, db: Database, game_id: str, notes: _Notes) -> Response:
    return _game_page(request, *_game_and_settings(request, db, game_id), notes)


def _read_page(request: Request, db: Database, game_id: str, notes: _Notes) -> Response | None:
    """The page, when drawing it only reads (None: a won game measured against its par)."""
    game, settings = _game_and_settings(request, db, game_id)
    return None if pars.measured(game) else _game_page(request, game, settings, notes)


def _game_page(
    request: Request, game: service.Game, settings: service.Settings, notes: _Notes
) -> Response:
    if behind(notes.seen, game):
        return moved_on(request, game)
    hint = read_hint(game, notes.hint) if not game.is_over else None
    message = describe_hint(game, hint, True) if hint else None
    if notes.notice is not None:
        message = notices.words(game, notes.notice)
    return render_game(
        request,
        table_for(request, game, settings),
        pick=notes.pick[:16] or None,
        hint=hint,
        message=message,
        moved=last_move(game, notes.moved),
    )


@router.post("/{game_id}/hint", name="game_hint", dependencies=[Depends(limited("search"))])
def game_hint(
    request: Request,
    db: DatabaseDep,
    solvers: SolversDep,
    game_id: str,
    version: Annotated[str, Form(max_length=64)] = "",
) -> Response:
    """Point at the move to play; the game counts the hint. Nothing is played. Asked from
    a board the game has moved on from (``version`` behind), it shows the game as it is
    and counts nothing."""
    if version and behind(version, current := service.load(db=db, game_id=game_id)):
        return moved_on(request, current)
    game, suggestion = service.ask_hint(db=db, solvers=solvers, game_id=game_id)
    if is_htmx(request) or not suggestion.sure or suggestion.move is None:
        hint = read_hint(game, suggestion.move)
        message = describe_hint(game, hint, suggestion.sure)
        return render_game(request, table_for(request, game), hint=hint, message=message)
    url = request.url_for("game_page", game_id=game_id).include_query_params(hint=suggestion.move)
    return RedirectResponse(url, status_code=303)


@dataclass(frozen=True, slots=True)
class ActionForm:
    """What a move posts: ``action``, or the places of a drag and drop (``source`` and
    ``target``) with ``held``, the cards the player had picked up; the ``version`` it was
    made on; ``shown``, the language the board posting says it was drawn plainly in."""

    version: str
    action: str = ""
    source: str = ""
    target: str = ""
    held: str = ""
    shown: str = ""


ACTION_FIELDS: Final = ("version", "action", "source", "target", "held", "shown")
FIELD_MAX: Final = 64
FIELDS_MAX: Final = 1000
"""As Starlette's form parser: a body with more fields is refused (16 KiB could hold 4,000)."""
URL_ENCODED: Final = "application/x-www-form-urlencoded"


async def action_form(request: Request) -> ActionForm:
    """The move's form, read and checked here: six short text fields, ``version`` required.
    FastAPI's own reading of form fields, one by one, cost more than the rest of the form;
    a URL-encoded body (what browsers and htmx post) is read as Starlette reads it (Latin-1,
    then percent-decoded as UTF-8), by the standard library, in a third of the time."""
    form: Mapping[str, object]
    if request.headers.get("content-type", "").partition(";")[0].strip() == URL_ENCODED:
        try:
            text = (await request.body()).decode("latin-1")
            form = dict(parse_qsl(text, keep_blank_values=True, max_num_fields=FIELDS_MAX))
        except ValueError:  # more fields than FIELDS_MAX
            raise RequestValidationError(
                [{"loc": ("body", "…"), "msg": "Too many fields", "type": "value_error"}]
            ) from None
    else:
        form = await request.form()
    problems: list[dict[str, object]] = []
    values: dict[str, str] = {}
    for name in ACTION_FIELDS:
        value = form.get(name)
        if value is None:
            if name == "version":
                problems.append({"loc": ("body", name), "msg": "Field required", "type": "missing"})
            continue
        if not isinstance(value, str) or len(value) > FIELD_MAX:
            problems.append({"loc": ("body", name), "msg": "Malformed", "type": "value_error"})
            continue
        values[name] = value
    if problems:
        raise RequestValidationError(problems)
    return ActionForm(**values)


async def game_action(request: Request) -> Response:
    """``POST /games/{game_id}/actions``: the move in a worker thread (its transaction
    waits for the write lock and the disk). A plain Starlette route: the move's form is
    read by :func:`action_form` and its player from the cookie, with none of FastAPI's
    per-request solving of parameters (a third of a move's server CPU, measured against
    :func:`stock_game_action`: docs/architecture.md)."""
    form = await action_form(request)
    player, game_id = current_player(request), request.path_params["game_id"]
    return await in_thread(_game_action, request, database(request), player, game_id, form)


MOVE_ROUTE: Final = Route(
    router.prefix + "/{game_id}/actions", game_action, methods=["POST"], name="game_action"
)
"""The move's route: the site's first (:func:`app.web.create_app`), so that a move, most of
what comes, is matched at once, before FastAPI looks through the included routers."""

stock_move_router = APIRouter(prefix="/games")
"""The move's route as FastAPI makes it, its six fields read and checked by FastAPI: run
instead of :data:`MOVE_ROUTE` with ``STOCK_PARTS=move_route`` (docs/architecture.md)."""


@stock_move_router.post("/{game_id}/actions", name="game_action")
async def stock_game_action(
    request: Request,
    db: DatabaseDep,
    player: PlayerDep,
    game_id: str,
    version: ShortField,
    action: ShortField = "",
    source: ShortField = "",
    target: ShortField = "",
    held: ShortField = "",
    shown: ShortField = "",
) -> Response:
    """``POST /games/{game_id}/actions`` on FastAPI's stock parts; the same move."""
    form = ActionForm(version, action, source, target, held, shown)
    return await in_thread(_game_action, request, db, player, game_id, form)


def _game_action(
    request: Request, db: Database, player: str | None, game_id: str, form: ActionForm
) -> Response:
    """Play ``action``, or the move from place ``source`` to place ``target`` (a drag and
    drop: the engine says which move that is); ``held`` is how many cards the player had
    picked up, so the answer can say when fewer of them moved. ``shown`` (a language) says
    the board posting was drawn plainly in it: the answer sends only the cells that
    changed."""
    request.app.state.throttle.check(request, player)
    number = _version(form.version)
    count = int(form.held) if DIGITS.fullmatch(form.held.strip()) else 0
    command = (
        service.commands.parse(form.action)
        if form.action.strip()
        else service.Between(form.source.strip(), form.target.strip(), max(count, 1))
    )
    acted = service.apply(db=db, game_id=game_id, action=command, version=number, player_id=player)
    # The controls post the board's form, which holds the cards picked up (``held``) too:
    # only a move says how many of them went.
    moving = isinstance(command, service.Play | service.Between)
    moved = acted.action.count if moving and acted.action is not None else 0
    source, target = _places(acted.action) if moving and count > moved else ("", "")
    fewer = (
        acted.game.game.presenter.fewer_moved(
            acted.played or acted.game.position, source, target, moved, count
        )
        if source
        else None
    )
    action = acted.action
    went = None if action is None else acted.game.game.moved_to(acted.before, action)
    if is_htmx(request):
        said = said_after(acted, number, command)
        table = table_for(request, acted.game, settings=acted.settings)
        drawn = acted.before if form.shown and form.shown == i18n.current() else None
        return render_game(request, table, said=said, message=fewer, shown=drawn, moved=went)
    url = request.url_for("game_page", game_id=game_id)
    if fewer:
        url = url.include_query_params(fewer=f"{moved}-{count}-{source}-{target}")
    if went is not None:
        # The page it goes back to marks the cards the move played, for this version only.
        url = url.include_query_params(moved=f"{acted.game.version}.{went[0]}.{went[1]}")
    return RedirectResponse(url, status_code=303)


def _places(move: Action | None) -> tuple[str, str]:
    """The places the player's move joined (``'1'``, ``'7'``), for a game whose moves join
    two places (a move that fills a gap with its one card has none)."""
    return getattr(move, "source", ""), getattr(move, "target", "")


@router.post("/{game_id}/restart", name="restart_game", dependencies=[Depends(limited("new_game"))])
def restart_game(
    request: Request, db: DatabaseDep, player: PlayerDep, game_id: str, version: ShortField
) -> Response:
    number = _version(version)
    if player is None:  # an unknown game is a 404 before a player is made for it
        service.load(db=db, game_id=game_id)
    player_id = service.ensure_player(db=db, player_id=player)
    game = service.restart(db=db, game_id=game_id, version=number, player_id=player_id)
    return see_other(request, request.url_for("game_page", game_id=game.id), player_id, player)


@router.get("/{game_id}/replay", name="game_replay", dependencies=[Depends(limited("replay"))])
def game_replay(
    request: Request, db: DatabaseDep, game_id: str, step: Annotated[int, Query(le=MAX_PAGE)] = 0
) -> Response:
    """Step through the history from the deal (where it opens), a window of steps at a
    time; every step is a plain link."""
    tournament_marks.refuse_while_blind(db, game_id)
    steps = service.replay_window(db=db, game_id=game_id, step=max(step, 0))
    url = paths(request).path_for(request, "game_replay", game_id=game_id)
    return steps_page(request, steps, url)


@router.get("/{game_id}/solution", name="game_solution")
def game_solution(
    request: Request,
    db: DatabaseDep,
    solvers: SolversDep,
    player: PlayerDep,
    game_id: str,
    step: int | None = None,
) -> Response:
    """Step through the solver's line from the current position (nothing is played). A
    GET changes nothing: a game in play with no help counted yet is first asked whether
    to see it (:func:`count_solution` counts it); a blind tournament game is refused."""
    game = service.load(db=db, game_id=game_id)
    tournament_marks.refuse_help(db, game)
    if step is None and not game.is_over:
        return _solution_asked(request, db, game_id)
    if not service.solution_known(db=db, solvers=solvers, game_id=game_id):
        request.app.state.throttle.check(request, player, "search")  # a look that searches
    line = service.solution(db=db, solvers=solvers, game_id=game_id, counted=False)
    if line.answer.moves and not line.game.is_over and not line.game.hints_used:
        return _solution_asked(request, db, game_id)
    steps = service.steps_window(line.game, line.entries, line.positions, step or 0)
    url = paths(request).path_for(request, "game_solution", game_id=game_id)
    return steps_page(request, steps, url, line.answer.verdict)


@router.post(
    "/{game_id}/solution", name="count_solution", dependencies=[Depends(limited("search"))]
)
def count_solution(
    request: Request, db: DatabaseDep, solvers: SolversDep, game_id: str
) -> Response:
    """The game's holder asks to see the solver's line: it counts as a hint (the button
    says so); then its first step."""
    service.solution(db=db, solvers=solvers, game_id=game_id, counted=True)
    url = request.url_for("game_solution", game_id=game_id).include_query_params(step=0)
    return RedirectResponse(url, status_code=303)


def _solution_asked(request: Request, db: Database, game_id: str) -> Response:
    response = render(
        request,
        "solution_ask.html",
        g=service.load(db=db, game_id=game_id),
        settings=page_settings(request),
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/{game_id}/position", name="game_position")
def game_position(
    db: DatabaseDep, game_id: str, step: Annotated[int | None, Query(ge=0, le=MAX_PAGE)] = None
) -> Response:
    """The game's position as board text; ``step``: the position after replay step N (as
    the replay numbers its steps, 0: the deal), so any moment of a game can be pasted into
    another solver. A step past the last is the last."""
    tournament_marks.refuse_while_blind(db, game_id)
    if step is None:
        return PlainTextResponse(service.load(db=db, game_id=game_id).position.to_text())
    steps = service.replay_window(db=db, game_id=game_id, step=step, size=1)
    return PlainTextResponse(steps.position.to_text())


@router.get("/{game_id}/history", name="game_history", dependencies=[Depends(limited("replay"))])
def game_history(db: DatabaseDep, game_id: str) -> Response:
    """The actions, one a line, sent as they are read (a long history is never held whole)."""
    return StreamingResponse(
        service.history_export(db=db, game_id=game_id), media_type="text/plain; charset=utf-8"
    )


DIGITS = re.compile(r"[0-9]+")
"""ASCII digits only: ``str.isdigit`` also says yes to ``²``, which ``int`` refuses."""


def _version(text: str) -> int:
    if not DIGITS.fullmatch(text.strip()):
        raise FormError(_("This form is out of date: reload the page."))
    return int(text.strip())
