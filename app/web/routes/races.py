"""Races' URLs: make one (``POST /races``), its page (lobby, live race, result), join and
start it, and its live changes as server-sent events (``/races/{token}/events``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.responses import Response

from app import i18n, service
from app.service import race_feed, races
from app.service.players import ensure_player
from app.web import new_race, race_stream
from app.web import race_pages as pages
from app.web.deps import DatabaseDep
from app.web.errors import render_error
from app.web.htmx import is_htmx
from app.web.my_games import MAX_PAGE
from app.web.new_race import RaceFields
from app.web.pages import steps_page
from app.web.players import PlayerDep, remember_player, see_other
from app.web.refusals import refusal
from app.web.routes.home import home_page
from app.web.templating import paths
from app.web.throttle import limited

router = APIRouter(prefix="/races")

ShortField = Annotated[str, Form(max_length=64)]


@router.post("", name="start_race", dependencies=[Depends(limited("new_game"))])
def start_race(
    request: Request, db: DatabaseDep, player: PlayerDep, form: Annotated[RaceFields, Form()]
) -> Response:
    """A new race on the form's deal (else a random deal, one proved winnable with
    ``winnable``), with its time limit (:mod:`app.web.new_race`); its maker its first racer."""
    try:
        new = new_race.read(form)
    except races.RaceRefused as error:
        status = pages.status_of(error)
        return render_error(request, status, i18n.gettext("Cannot do that"), refusal(error))
    if new.choice is None:  # the home page's race form again, the reason beside its box
        return home_page(request, db, player, refused=new.refused)
    token, player_id = races.open_race(db=db, player_id=player, choice=new.choice)
    return see_other(request, request.url_for("race_page", token=token), player_id, player)


@router.get("/{token}", name="race_page")
def race_page(request: Request, db: DatabaseDep, token: str) -> Response:
    """The lobby, the race under way, or its result; with htmx, the ``#race`` part."""
    try:
        race = races.race(db=db, token=token)
    except races.RaceNotFound:
        return not_found(request)
    return pages.page(request, race)


@router.post("/{token}/join", name="join_race", dependencies=[Depends(limited("new_game"))])
def join_race(request: Request, db: DatabaseDep, player: PlayerDep, token: str) -> Response:
    try:
        race = races.race(db=db, token=token)
        races.refuse_to_join(race, player)  # before a player is made: a refusal stores nothing
        player_id = ensure_player(db=db, player_id=player)
        races.join(db=db, token=token, player_id=player_id)
    except races.RaceNotFound:
        return not_found(request)
    except races.RaceRefused as error:
        return pages.refused(request, db, token, error)
    return _after(request, db, token, player_id, player)


@router.post("/{token}/start", name="start_race_now", dependencies=[Depends(limited("new_game"))])
def start_race_now(request: Request, db: DatabaseDep, player: PlayerDep, token: str) -> Response:
    try:
        races.start(db=db, token=token, player_id=player or "")
    except races.RaceNotFound:
        return not_found(request)
    except races.RaceRefused as error:
        return pages.refused(request, db, token, error)
    return _after(request, db, token, player or "", player)


@router.post("/{token}/end", name="end_race", dependencies=[Depends(limited("new_game"))])
def end_race(request: Request, db: DatabaseDep, player: PlayerDep, token: str) -> Response:
    """The race's maker ends it now (after saying yes): the result as the games stand."""
    try:
        races.end(db=db, token=token, player_id=player or "")
    except races.RaceNotFound:
        return not_found(request)
    except races.RaceRefused as error:
        return pages.refused(request, db, token, error)
    return _after(request, db, token, player or "", player)


@router.get(
    "/{token}/replays/{joined}", name="race_replay", dependencies=[Depends(limited("replay"))]
)
def race_replay(
    request: Request,
    db: DatabaseDep,
    token: str,
    joined: Annotated[int, Path(ge=1, le=races.MAX_RACERS)],
    step: Annotated[int | None, Query(ge=0, le=MAX_PAGE)] = None,
) -> Response:
    """A racer's game replayed, read-only, from the race's result: the race's own link, so
    a racer revoking their game's watch link leaves it in place (the game's address stays
    hidden, as on a watch page)."""
    try:
        race = races.race(db=db, token=token)
    except races.RaceNotFound:
        return not_found(request)
    racer = next((r for r in race.racers if r.joined == joined), None)
    if race.state != "finished" or racer is None or racer.game_id is None:
        return not_found(request)
    steps = service.replay_window(db=db, game_id=racer.game_id, step=step)
    url = paths(request).path_for(request, "race_replay", token=token, joined=joined)
    response = steps_page(request, steps, url, watching=True)
    response.headers.update({"Cache-Control": "no-store", "X-Robots-Tag": "noindex"})
    return response


def _after(
    request: Request, db: DatabaseDep, token: str, player_id: str, cookie: str | None
) -> Response:
    """After a join or a start: the ``#race`` part for htmx, else back to the page."""
    if is_htmx(request):
        request.scope[pages.VIEWER] = player_id
        response = pages.page(request, races.race(db=db, token=token))
        if player_id != cookie:
            remember_player(request, response, player_id)
        return response
    return see_other(request, request.url_for("race_page", token=token), player_id, cookie)


@router.get("/{token}/events", name="race_events")
async def race_events(request: Request, db: DatabaseDep, token: str, state: str = "") -> Response:
    """The race's live changes (server-sent events, :mod:`app.web.race_stream`) until it
    ends. ``state`` (or the ``Last-Event-ID`` a reconnecting browser sends): the state its
    page shows; the stream says so when the race's is another."""
    feed = race_feed.feed_of(db)
    assert feed is not None
    address = request.client.host if request.client else ""
    try:
        watch = feed.subscribe(token, address, race_stream.reader(feed, db, token))
    except race_feed.StreamsFull:
        return _streams_full(request)
    try:
        await feed.first(watch)  # one reading for every stream opening at once
    except BaseException as error:
        feed.unsubscribe(watch)
        if isinstance(error, races.RaceNotFound):
            return not_found(request)
        if isinstance(error, race_feed.StreamsFull):
            return _streams_full(request)
        raise
    shown = request.headers.get("last-event-id", "").partition(".")[0] or state
    shown = shown if shown in ("lobby", "running", "finished") else ""
    content = race_stream.events(request, feed, watch, i18n.current(), shown)
    return race_stream.RaceStream(content, feed, watch)


def _streams_full(request: Request) -> Response:
    message = i18n.gettext("Too many live pages are open: this one will ask every few seconds.")
    response = render_error(request, 503, i18n.gettext("Try again soon"), message)
    response.headers["Retry-After"] = "5"
    return response


def not_found(request: Request) -> Response:
    message = i18n.gettext("There is no race at this address: check the link, or start a new race.")
    return render_error(request, 404, title=i18n.gettext("Race not found"), message=message)
