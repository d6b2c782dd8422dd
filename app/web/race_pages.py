"""What a race's page shows: its ``#race`` part (lobby, race, result), the racers' small
boards, and a refusal with its status (its live stream is :mod:`app.web.race_stream`).

The racers' table is the same for everyone who looks; only the ``#race`` part around it
is the viewer's: their own game's address is shown to them alone, every other game
through its watch link.
"""

from __future__ import annotations

import re
from typing import Final

from fastapi import Request
from fastapi.responses import Response
from markupsafe import Markup

from app import i18n
from app.caches import Kept, text_size
from app.i18n import gettext as _
from app.service import races
from app.store import Database
from app.web.htmx import is_htmx
from app.web.pages import render
from app.web.players import current_player, page_settings
from app.web.race_rows import name_of, rows
from app.web.refusals import refusal
from app.web.templating import paths

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


STATUSES: Final = {"race.not_creator": 403, "race.end_not_creator": 403, "race.limit": 422}


def status_of(error: races.RaceRefused) -> int:
    """A race's refusal's status (409 for the rest: full, started, over); its words are
    with every other refusal's (:mod:`app.web.refusals`)."""
    return STATUSES.get(error.code, 409)


def refused(request: Request, db: Database, token: str, error: races.RaceRefused) -> Response:
    """The race's page (or ``#race`` part) saying why, with the refusal's 4xx status."""
    race = races.race(db=db, token=token)
    return page(request, race, message=refusal(error), status=status_of(error))
