"""A game's review (``/games/{id}/review``): the replay with the solver's eyes, each
position's verdict and the move that lost the game (:mod:`app.service.review`); and
"Try again from here", a new game of the deal at the position before that move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import RedirectResponse, Response

from app import service
from app.i18n import gettext as _
from app.service import pars, shares, tournament_marks
from app.service import review as reviews
from app.service.commands import CountHint
from app.store import Database
from app.web.deps import DatabaseDep, SolversDep
from app.web.htmx import is_htmx
from app.web.my_games import MAX_PAGE
from app.web.pages import render
from app.web.players import PlayerDep, page_settings, see_other
from app.web.throttle import limited

router = APIRouter()

POLL_SECONDS: Final = 1
BUSY_POLL_SECONDS: Final = 3


@dataclass(frozen=True, slots=True)
class Line:
    """A stop of the review as the page lists it: its step, the move in words, its
    verdict, and the move's notation."""

    index: int
    step: int
    words: str
    notation: str
    verdict: str


def _allowed(game: service.Game, counted: str) -> bool:
    """A game in play is reviewed only once the player chose to (the review counted as a
    hint at this version); a finished game always."""
    if game.is_over:
        return True
    return game.hints_used > 0 and counted.strip() == str(game.version)


@router.get(
    "/games/{game_id}/review", name="game_review", dependencies=[Depends(limited("replay"))]
)
def game_review(
    request: Request,
    db: DatabaseDep,
    solvers: SolversDep,
    game_id: str,
    step: Annotated[int | None, Query(ge=0, le=MAX_PAGE)] = None,
    counted: Annotated[str, Query(max_length=32)] = "",
) -> Response:
    """The review as far as it is known; with htmx, the ``#replay`` fragment, which asks
    again every second until every verdict is in."""
    tournament_marks.refuse_while_blind(db, game_id)  # a review is help, and names the deal
    game = service.load(db=db, game_id=game_id)
    if game.version and not _allowed(game, counted):
        return render(request, "review_ask.html", game=game, settings=page_settings(request))
    found = reviews.review(db=db, solvers=solvers, game_id=game_id)
    return _page(request, db, found, step, counted)


@router.post(
    "/games/{game_id}/review", name="review_in_play", dependencies=[Depends(limited("search"))]
)
def review_in_play(request: Request, db: DatabaseDep, game_id: str) -> Response:
    """The player chose to review a game in play: it counts as a hint (assisted)."""
    tournament_marks.refuse_while_blind(db, game_id)
    game = service.apply(db=db, game_id=game_id, action=CountHint(), version=None).game
    url = request.url_for("game_review", game_id=game_id).include_query_params(counted=game.version)
    return RedirectResponse(url, status_code=303)


@router.post(
    "/games/{game_id}/review/practice",
    name="review_practice",
    dependencies=[Depends(limited("new_game"))],
)
def review_practice(
    request: Request,
    db: DatabaseDep,
    player: PlayerDep,
    game_id: str,
    step: Annotated[int, Form(ge=0, le=MAX_PAGE)],
) -> Response:
    """Try again from here: a new game of the same deal at the position after replay step
    ``step`` (a step of the moves in force: the one before the turning point), counted
    as assisted."""
    tournament_marks.refuse_while_blind(db, game_id)
    player_id = service.ensure_player(db=db, player_id=player)
    try:
        game = reviews.practice(db=db, game_id=game_id, step=step, player_id=player_id)
    except reviews.NotAStep:
        raise service.GameNotFound("no position of the moves in force at that step") from None
    return see_other(request, request.url_for("game_page", game_id=game.id), player_id, player)


@router.get("/watch/{token}/review", name="watch_review", dependencies=[Depends(limited("replay"))])
def watch_review(
    request: Request,
    db: DatabaseDep,
    solvers: SolversDep,
    token: str,
    step: Annotated[int | None, Query(ge=0, le=MAX_PAGE)] = None,
) -> Response:
    """A finished game's review through its watch link (a race's result links there): every
    link stays on the watch link, none names the game's address. A game still in play is
    not reviewed here (it would tell a watcher what a hint would): its watch page."""
    game = shares.watched(db=db, token=token)
    if not game.is_over:
        return RedirectResponse(request.url_for("watch", token=token).path, status_code=303)
    found = reviews.review(db=db, solvers=solvers, game_id=game.id)
    url = request.url_for("watch_review", token=token).path
    watch_url = request.url_for("watch", token=token).path
    response = _page(request, db, found, step, "", url, watch_url)
    response.headers.update({"Cache-Control": "no-store", "X-Robots-Tag": "noindex"})
    return response


def _page(
    request: Request,
    db: Database,
    found: reviews.Review,
    step: int | None,
    counted: str,
    review_url: str | None = None,
    watch_url: str | None = None,
) -> Response:
    game = found.game
    stops = found.stops
    lines = []
    for index, stop in enumerate(stops[1:], start=1):
        previous = stops[index - 1].position
        action = previous.parse_action(stop.notation)
        words = game.game.describe("move", action, previous, previous.play(action))
        lines.append(Line(index, stop.step, words, stop.notation, found.verdicts[index]))
    turning = found.turning_points
    first = turning[0] if turning else found.game_turning
    before_first = first.index - 1 if first else len(stops) - 1
    shown = before_first if step is None else found.stop_at(step)
    shown = max(0, min(shown, len(stops) - 1))
    points = [_point(found, lines, point) for point in turning]
    game_point = None
    if found.game_turning is not None:
        game_point = _point(found, lines, found.game_turning)
        game_point["also_round"] = any(p.index == found.game_turning.index for p in turning)
    known = sum(verdict != "pending" for verdict in found.verdicts)
    par = (
        pars.known(db=db, variant=game.variant, deal=game.deal)
        if game.status == "won" and pars.has_par(game.kind)
        else None
    )
    fragment = is_htmx(request)
    url = review_url or request.url_for("game_review", game_id=game.id).path
    hidden: dict[str, Any] = {"action_url": url, "game_url": url} if watch_url else {}
    return render(
        request,
        "_review.html" if fragment else "review.html",
        settings=service.DEFAULT_SETTINGS if fragment else page_settings(request),
        game=game,
        review=found,
        lines=lines,
        shown=shown,
        stop=stops[shown],
        points=points,
        game_point=game_point,
        known=known,
        total=len(stops),
        par=par,
        review_url=url,
        watch_url=watch_url,
        **hidden,
        counted=counted,
        asked=step,
        poll=BUSY_POLL_SECONDS if found.busy else POLL_SECONDS,
        board=game.game.board(stops[shown].position, playable=False),
        position=stops[shown].position,
        unsure_words=_("not sure (the search ran out of its budget)"),
    )


def _point(found: reviews.Review, lines: list[Line], point: reviews.TurningPoint) -> dict[str, Any]:
    """What the page says of a turning point: the move in words, the board before it, and
    the move that kept it winnable there with why."""
    game = found.game
    before = found.stops[point.index - 1]
    kept_words = kept_why = None
    if point.kept is not None:
        action = before.position.parse_action(point.kept)
        after = before.position.play(action)
        kept_words = game.game.describe("move", action, before.position, after)
        kept_why = game.game.presenter.explain(before.position, action, max(point.line - 1, 0))
    return {
        "point": point,
        "before": before,
        "lost": lines[point.index - 1],
        "kept_words": kept_words,
        "kept_why": kept_why,
        "round": point.round + 1,
    }
