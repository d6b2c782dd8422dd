"""What a race's page shows and says: its ``#race`` part (lobby, race, result), the
refusals in the player's language, and what its live region says of a change (its live
stream is :mod:`app.web.race_stream`).

The racers' table is the same for everyone who looks; only the ``#race`` part around it
is the viewer's: their own game's address is shown to them alone, every other game
through its watch link.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from fastapi import Request
from fastapi.responses import Response
from markupsafe import Markup

from app import i18n
from app.caches import Kept, text_size
from app.i18n import gettext as _
from app.i18n import isolate
from app.service import races
from app.store import Database
from app.web.htmx import is_htmx
from app.web.pages import render
from app.web.players import current_player, page_settings
from app.web.race_rows import name_of, rows
from app.web.templating import clock, paths

VIEWER: Final = "solitaire.race_viewer"
"""A player made by this request (a first join): the page is drawn for them."""
BOARDS_KEPT_BYTES: Final = 4 << 20
"""The small boards drawn (each as an event, per racer, version and language)."""
_INERT = re.compile(
    r"\s(?:id|for|hx-[\w-]+|sse-[\w-]+|aria-[\w-]+|title|data-(?:drop|src|count|key)"
    r'|name|value|method|action|type|draggable)="[^"]*"|<input[^>]*>'
)
"""What a game's board carries for play, or for a screen reader, dropped from a small
board (inert: nothing on it is played or read out; the table says it in words): ids (a
page shows several boards), htmx's requests, the form's fields, the places' names."""
_boards = Kept[tuple[object, ...], str](
    "race boards", BOARDS_KEPT_BYTES, lambda k, v: text_size(v, *(str(p) for p in k))
)


def board_label(racer: races.Racer) -> str:
    return _("%(name)s's board") % {"name": name_of(racer)}


def small_board(request: Request, race: races.Race, racer: races.Racer) -> str:
    """A racer's board, small and read-only: the game's own board (its presenter's view,
    drawn for looking only, as the watch page draws it) with nothing on it to play;
    drawn once a version and language for every page and stream."""
    over = race.state == "finished"
    key = (race.token, racer.joined, racer.version, over, i18n.current())
    found = _boards.get(key)
    if found is None:
        assert racer.position is not None
        here = paths(request).path_for(request, "race_page", token=race.token)
        template = request.app.state.templates.env.get_template("races/_board.html")
        drawn = template.render(
            request=request,
            kind=race.kind,
            label=board_label(racer),
            progress=race.game.progress(racer.position),
            board=race.game.board(racer.position, playable=False),
            game={"kind": race.kind, "version": racer.version},
            hinted=frozenset(),
            action_url=here,
            game_url=here,
        )
        text = " ".join(line.strip() for line in drawn.splitlines() if line.strip())
        found = _boards.put(key, _INERT.sub("", text))
    return found


def boards(request: Request, race: races.Race) -> list[tuple[races.Racer, Markup]]:
    """Every dealt racer's small board (the race under way or over)."""
    if race.state == "lobby":
        return []
    return [
        (racer, Markup(small_board(request, race, racer)))  # drawn by Jinja (escaped there)
        for racer in race.racers
        if racer.position is not None
    ]


def viewer(request: Request) -> str | None:
    made: str | None = request.scope.get(VIEWER)
    return made or current_player(request)


def page(
    request: Request, race: races.Race, *, message: str | None = None, status: int = 200
) -> Response:
    """The race's page, or with htmx its ``#race`` part."""
    player = viewer(request)
    me = race.racer(player)
    show = paths(request)
    response = render(
        request,
        "races/_race.html" if is_htmx(request) else "races/race.html",
        status,
        race=race,
        rows=rows(request, race),
        boards=boards(request, race),
        me=me,
        my_name=name_of(me) if me else "",
        is_creator=player == race.creator_id,
        can_join=me is None and race.state == "lobby" and not race.is_full,
        my_game_url=(
            show.path_for(request, "game_page", game_id=me.game_id)
            if me is not None and me.game_id and not race.counting_down
            else None
        ),
        race_url=show.path_for(request, "race_page", token=race.token),
        share_url=str(show.url_for(request, "race_page", token=race.token)),
        events_url=show.path_for(request, "race_events", token=race.token)
        + f"?state={race.state}",  # a stream that reconnects is told of a state since
        server_now_ms=int(race.now.timestamp() * 1000),
        started_ms=int(race.started_at.timestamp() * 1000) if race.started_at else 0,
        deadline_ms=int(race.deadline.timestamp() * 1000) if race.deadline else 0,
        limits=races.LIMITS,
        max_racers=races.MAX_RACERS,
        message=message,
        settings=page_settings(request),
    )
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


REFUSALS: Final[dict[str, tuple[int, Callable[[dict[str, object]], str]]]] = {
    "race.full": (
        409,
        lambda p: _("This race is full: you can still watch it."),
    ),
    "race.started": (
        409,
        lambda p: _("This race has started: you can watch it, but no longer join."),
    ),
    "race.finished": (
        409,
        lambda p: _("This race is over: you can see its result, but no longer join."),
    ),
    "race.not_creator": (403, lambda p: _("Only the player who made this race can start it.")),
    "race.end_not_creator": (403, lambda p: _("Only the player who made this race can end it.")),
    "race.limit": (
        422,
        lambda p: _("A race's time limit is 5, 10 or 15 minutes, or none."),
    ),
}


def refusal(error: races.RaceRefused) -> tuple[int, str]:
    status, words = REFUSALS[error.code]
    return status, words(error.params)


def refused(request: Request, db: Database, token: str, error: races.RaceRefused) -> Response:
    """The race's page (or ``#race`` part) saying why, with the refusal's 4xx status."""
    status, message = refusal(error)
    return page(request, races.race(db=db, token=token), message=message, status=status)


def refuse_to_join(race: races.Race, player: str | None) -> None:
    """Refuse a join the race cannot take (before a player is made for it)."""
    if race.racer(player) is not None:
        return
    if race.state == "running":
        raise races.RaceRefused("the race has started", "race.started")
    if race.state == "finished":
        raise races.RaceRefused("the race is over", "race.finished")
    if race.is_full:
        raise races.RaceRefused("the race is full", "race.full", max=races.MAX_RACERS)


def said(before: races.Race, after: races.Race) -> str:
    """What the live region announces between two readings: a racer joined, the race
    started, a racer won or gave up, the race ended; never a move."""
    words: list[str] = []
    known = {r.joined: r for r in before.racers}
    if before.state == "lobby" and after.state == "running":
        words.append(_("The race starts in 3 seconds."))
    if after.under_way and not before.under_way:
        words.append(_("The race has started: go!"))
    for racer in sorted(after.racers, key=lambda r: r.joined):
        was = known.get(racer.joined)
        name = isolate(name_of(racer))
        if was is None:
            words.append(_("%(name)s has joined the race.") % {"name": name})
            continue
        if racer.standing == was.standing:
            continue
        if racer.standing == "won":
            words.append(
                _("%(name)s has won in %(time)s.")
                % {"name": name, "time": isolate(clock(racer.race_ms or 0))}
            )
        elif racer.standing == "gave_up":
            words.append(_("%(name)s has given up.") % {"name": name})
    if after.state == "finished" and before.state != "finished":
        words.append(_("The race is over."))
    return " ".join(words)
