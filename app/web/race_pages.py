"""What a race's page shows and says: its ``#race`` part (lobby, race, result), the
refusals in the player's language, and its live stream of server-sent events.

The racers' table is the same for everyone who looks (drawn once a change and language
for every stream of the process); only the ``#race`` part around it is the viewer's: their
own game's address is shown to them alone, every other game through its watch link.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final

from fastapi import Request
from fastapi.responses import Response
from markupsafe import Markup

from app import i18n
from app.caches import Kept, text_size
from app.i18n import gettext as _
from app.i18n import isolate
from app.service import races
from app.service.model import utcnow
from app.service.race_feed import Feed, Parts, Push, Subscription
from app.store import Database
from app.web.deps import in_thread
from app.web.event_stream import Straight
from app.web.htmx import is_htmx
from app.web.pages import render
from app.web.players import current_player, page_settings
from app.web.templating import clock, paths

HEARTBEAT_SECONDS: Final = 15.0
"""A comment line this often keeps proxies from closing a quiet stream."""
RETRY_MS: Final = 2000
"""How soon a browser reconnects a stream that broke (a worker restarted)."""
BEAT: Final = b": beat\n\n"
VIEWER: Final = "solitaire.race_viewer"
"""A player made by this request (a first join): the page is drawn for them."""
BOARD_SECONDS: Final = 1.0
"""A racer's small board is sent to a stream at most this often (the latest position
then): a board is bigger than the table's rows, and the table says every move."""
BOARD_GRACE_SECONDS: Final = 0.2
"""A board held back waits this long past its tick for the race's next change, to go in
the same chunk (a race in play changes every few hundredths of a second); it goes alone
only when none comes."""
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


def name_of(racer: races.Racer) -> str:
    return racer.name or _("anonymous %(num)s") % {"num": racer.joined}


@dataclass(frozen=True, slots=True)
class Row:
    """A racer's row in the race's table, in words."""

    racer: races.Racer
    name: str
    standing: str
    progress: str
    time: str
    watch_url: str | None


def rows(request: Request, race: races.Race) -> list[Row]:
    found = []
    for racer in race.racers:
        # The table's column says what the racer did (a verb), unlike the charts' "won".
        if racer.standing == "won":
            standing = i18n.pgettext("standing", "won")
        elif racer.standing == "gave_up":
            standing = i18n.pgettext("standing", "gave up")
        elif racer.standing == "unfinished":
            standing = _("out of time") if race.deadline else _("unfinished")
        elif racer.standing == "playing":
            standing = _("playing") if race.under_way else _("ready")
        else:
            standing = _("joined")
        progress = ""
        if racer.position is not None:
            progress = race.game.progress(racer.position)
        watch = None
        if racer.watch_token:
            watch = paths(request).path_for(request, "watch", token=racer.watch_token)
        time = clock(racer.race_ms) if racer.race_ms is not None else ""
        found.append(Row(racer, name_of(racer), standing, progress, time, watch))
    return found


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
        events_url=show.path_for(request, "race_events", token=race.token),
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


def event(name: str, data: str) -> str:
    """A server-sent event: its name, and each line of its data (blank lines dropped)."""
    lines = [line.strip() for line in data.splitlines() if line.strip()] or [""]
    return f"event: {name}\n" + "".join(f"data: {line}\n" for line in lines) + "\n"


def _racers_event(request: Request, race: races.Race, parts: Parts) -> bytes:
    """The racers' rows as an event, drawn (and encoded) once a change and language for
    every stream: each stream sends the same bytes."""
    key = ("racers", i18n.current(), race.state, race.under_way)
    found = parts.get(key)
    if not isinstance(found, bytes):
        template = request.app.state.templates.env.get_template("races/_racers.html")
        rows_html = template.render(request=request, race=race, rows=rows(request, race))
        found = parts[key] = event("racers", rows_html).encode()
    return found


class Shown:
    """What one stream has shown of its race: the race as last sent (what the live
    region said last is about it) and each racer's small board, its version sent and the
    tick of :data:`BOARD_SECONDS` it went in (a board that changed goes again in a later
    tick). Ticks are the clock's: the streams of a race that were sent the same are equal
    (compared by the race's :attr:`~races.Race.change` and the boards), so what they are
    sent next is drawn once for all of them (:func:`_sending`)."""

    __slots__ = ("boards", "change", "hash", "race")

    def __init__(self, race: races.Race, boards: tuple[tuple[int, int, int], ...] = ()) -> None:
        self.race = race
        self.change = race.change
        self.boards = boards
        self.hash = hash((self.change, boards))

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return other is self or (
            isinstance(other, Shown)
            and self.hash == other.hash
            and self.change == other.change
            and self.boards == other.boards
        )


@dataclass(frozen=True, slots=True)
class Sending:
    """What a stream sends now (one chunk, however many events), what it has then shown,
    when a board held back may go (monotonic seconds), and when the race changes by the
    clock alone (:func:`_next_moment`)."""

    out: bytes
    shown: Shown
    due: float | None
    moment: datetime | None
    news: bool = False
    """It says what the live region speaks of, the race's state or its end."""


def _next(
    request: Request,
    race: races.Race,
    parts: Parts,
    shown: Shown,
    tick: int,
    *,
    rows: bool,
) -> Sending:
    """What a stream that has shown ``shown`` is sent of ``race`` in this tick: with
    ``rows`` (a change), the racers' rows, the boards that changed and may go now, the live
    region's words and the race's state when its change matters; without (a held board's
    tick), the boards only."""
    out = [_racers_event(request, race, parts)] if rows else []
    sent = {joined: (version, sent_in) for joined, version, sent_in in shown.boards}
    due = None
    if race.state != "lobby":
        for racer in race.racers:
            if racer.position is None:
                continue
            version, sent_in = sent.get(racer.joined, (-1, -1))
            if version == racer.version:
                continue
            if sent_in == tick:
                due = (tick + 1) * BOARD_SECONDS
                continue
            sent[racer.joined] = (racer.version, tick)
            out.append(_board_event(request, race, racer))
    before = shown.race
    news = False
    if rows:
        news = race.change != shown.change or race.state == "finished"
        if race.change != shown.change:
            words = said(before, race)
            if words:
                out.append(event("said", words).encode())
            out.append(event("state", race.state).encode())
        if race.state == "finished":
            out.append(event("end", "end").encode())
    else:
        race = before  # the live region's words are for a change, sent with its rows
    boards = tuple(
        (joined, version, sent_in) for joined, (version, sent_in) in sorted(sent.items())
    )
    now = Shown(race, boards) if race is not before or boards != shown.boards else shown
    return Sending(b"".join(out), now, due, _next_moment(now.race), news)


def _sending(
    request: Request,
    language: i18n.LocaleCode,
    race: races.Race,
    parts: Parts,
    shown: Shown,
    *,
    rows: bool,
) -> Sending:
    """:func:`_next`, drawn once for every stream of the race that has shown the same
    (``parts`` are the race's as last read, shared by its streams): hundreds of pages
    watching cost one drawing and a send each."""
    tick = int(time.monotonic() // BOARD_SECONDS)
    key = (language, rows, tick, shown)
    found = parts.get(key)
    if not isinstance(found, Sending):
        with i18n.use_locale(language):
            found = parts[key] = _next(request, race, parts, shown, tick, rows=rows)
    return found


_board_events = Kept[tuple[object, ...], bytes](
    "race board events", BOARDS_KEPT_BYTES, lambda k, v: len(v) + text_size(*map(str, k))
)


def _board_event(request: Request, race: races.Race, racer: races.Racer) -> bytes:
    key = (race.token, racer.joined, racer.version, race.state, i18n.current())
    found = _board_events.get(key)
    if found is None:
        drawn = event(f"board-{racer.joined}", small_board(request, race, racer))
        found = _board_events.put(key, drawn.encode())
    return found


def _next_moment(race: races.Race) -> datetime | None:
    """When the race changes by the clock alone: its countdown's end, its time limit."""
    if race.counting_down:
        return race.started_at
    if race.state == "running":
        return race.deadline
    return None


async def stream(
    request: Request,
    db: Database,
    feed: Feed,
    subscription: Subscription,
    first: races.Race,
    language: i18n.LocaleCode,
    straight: Straight | None = None,
) -> AsyncIterator[bytes]:
    """The race's events: ``racers`` (the table's rows), ``board-N`` (a racer's small
    board), ``said`` (the live region's words), ``state`` (the page asks its ``#race``
    part again), ``end`` (the race is over: the stream closes); a comment every
    :data:`HEARTBEAT_SECONDS` otherwise. What one wake sends goes as one chunk.

    Where the events can be written straight on (``straight``), a change of rows and
    boards is, by the feed, without this task waking (:class:`Push`); this task sends
    the rest (what the live region says, the state, the end, held boards, heartbeats)."""
    token = first.token
    busy = True
    """This task has a chunk on its way: nothing is written past it."""

    async def read() -> races.Race:
        return await in_thread(races.race, db=db, token=token)

    def wait_for(sending: Sending) -> float:
        """Seconds until this task wakes unless a change comes: a heartbeat, the race's
        clock (countdown's end, time limit), a board held back."""
        timeout = HEARTBEAT_SECONDS
        if sending.moment is not None:
            left = (sending.moment - utcnow()).total_seconds()
            timeout = min(timeout, max(0.0, left) + 0.05)
        if sending.due is not None:
            held = sending.due + BOARD_GRACE_SECONDS - time.monotonic()
            timeout = min(timeout, max(0.0, held))
        return timeout

    try:
        retry = f"retry: {RETRY_MS}\n\n".encode()
        if first.state == "finished":
            yield retry + event("state", "finished").encode() + event("end", "end").encode()
            return
        sending = _sending(request, language, first, {}, Shown(first), rows=True)
        yield retry + sending.out
        sending = replace(sending, out=b"")  # this stream's own: not kept once sent

        def take(race: object, parts: Parts) -> bool:
            nonlocal sending
            assert isinstance(race, races.Race)
            write = straight.write if straight is not None else None
            if busy or write is None:
                return False
            now = _sending(request, language, race, parts, sending.shown, rows=True)
            if now.news or not write(now.out):
                return False
            sending = now
            subscription.wait_less(wait_for(now))
            return True

        subscription.push = Push(read, _made_at, take)
        while True:
            busy = False
            changed = await subscription.wait(wait_for(sending))
            if subscription.dropped:
                return
            moment = sending.moment
            due = moment is not None and utcnow() >= moment
            if not changed and not due:
                if sending.due is not None and time.monotonic() >= sending.due:
                    latest, parts = await feed.latest(token, read, _made_at)
                    sending = _sending(request, language, latest, parts, sending.shown, rows=False)
                    busy = True
                    yield sending.out or BEAT  # a board held back: its latest now
                    continue
                busy = True
                yield BEAT
                continue
            race, parts = await feed.latest(
                token, read, _made_at, fresh_after=moment if due else None
            )
            sending = _sending(request, language, race, parts, sending.shown, rows=True)
            busy = True
            yield sending.out
            if race.state == "finished":
                return
    except asyncio.CancelledError:
        raise
    finally:
        subscription.push = None
        feed.unsubscribe(subscription)


def _made_at(race: object) -> datetime:
    assert isinstance(race, races.Race)  # what the stream's ``read`` reads
    return race.now
