"""A race's live stream to one page: server-sent events on Starlette's StreamingResponse.

Sent at once (a first connection or a reconnection, to any server: the rows are the
truth): ``retry``, the racers' table, every small board, and the race's state when the
page shows another. Then, at each change heard (:mod:`app.service.race_feed`), one chunk:
the table and the boards that changed together, the live region's words (``said``), the
new ``state`` (the page asks its ``#race`` part again) and ``end`` once the race is over.
Each event carries an ``id`` (the race's state and step), a comment keeps a quiet stream
open, and a server closing its streams ends each cleanly: the browser reconnects.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from types import FrameType
from typing import Final

from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from app import i18n
from app.service import race_feed, races
from app.service.model import utcnow
from app.service.race_feed import Feed, Parts, Watch
from app.store import Database
from app.web.race_pages import said, small_board
from app.web.race_rows import rows

_Handler = Callable[[int, FrameType | None], object]

BOARD_SECONDS: Final = 0.5
"""A racer's small board goes at most once in this many seconds (always with the table)."""
RETRY_MS: Final = 1000
"""How soon a browser reconnects a stream that ended or broke (to any server)."""
BEAT: Final = b": beat\n\n"


def event(name: str, data: str, known: str = "") -> str:
    """A server-sent event: its name, its ``id`` (``known``), and each line of its data
    (blank lines dropped)."""
    lines = [line.strip() for line in data.splitlines() if line.strip()] or [""]
    head = f"event: {name}\n" + (f"id: {known}\n" if known else "")
    return head + "".join(f"data: {line}\n" for line in lines) + "\n"


def event_id(race: races.Race) -> str:
    """The race's state and step (joins and moves so far): what a reconnection names."""
    return f"{race.state}.{len(race.racers) + sum(r.version for r in race.racers)}"


@dataclass(frozen=True, slots=True)
class Shown:
    """What a stream has shown: the race's change as last sent (the live region spoke of
    it) and each racer's board (version, and the tick of :data:`BOARD_SECONDS` it went
    in). Streams sent the same are equal: what they are sent next is drawn once."""

    change: tuple[object, ...]
    boards: tuple[tuple[int, int, int], ...]
    race: races.Race = field(compare=False, hash=False)


Sending = tuple[bytes, Shown, float | None]
"""A chunk, what the page then shows, and when a board held back is due (monotonic)."""


def _next(request: Request, race: races.Race, shown: Shown, tick: int) -> Sending:
    """The chunk that takes a page from ``shown`` to ``race``: the table and the boards
    that changed (in the same chunk: a board never lags its row), then the words and
    the state. A racer's board goes once a tick at most: one that changed again within
    its tick goes, with the table, at the next (a person's moves are rarely that quick)."""
    env = request.app.state.templates.env
    table = env.get_template("races/_racers.html").render(
        request=request, race=race, rows=rows(request, race)
    )
    out = [event("racers", table, event_id(race))]
    sent = {joined: (version, at) for joined, version, at in shown.boards}
    due = None
    for racer in race.racers if race.state != "lobby" else ():
        version, at = sent.get(racer.joined, (-1, -1))
        if racer.position is None or version == racer.version:
            continue
        if at == tick:
            due = (tick + 1) * BOARD_SECONDS
            continue
        sent[racer.joined] = (racer.version, tick)
        out.append(event(f"board-{racer.joined}", small_board(request, race, racer)))
    if race.change != shown.change:
        words = said(shown.race, race)
        if words:
            out.append(event("said", words))
        out.append(event("state", race.state))
    if race.state == "finished":
        out.append(event("end", "end"))
    boards = tuple((joined, *sent[joined]) for joined in sorted(sent))
    return "".join(out).encode(), Shown(race.change, boards, race), due


def sending(
    request: Request, language: i18n.LocaleCode, race: races.Race, parts: Parts, shown: Shown
) -> Sending:
    """:func:`_next`, drawn once a reading and tick for every stream that showed the same."""
    tick = int(time.monotonic() // BOARD_SECONDS)
    key = ("sending", language, tick, shown)
    found = parts.get(key)
    if not isinstance(found, tuple):
        with i18n.use_locale(language):
            found = parts[key] = _next(request, race, shown, tick)
    return found


def _moment(race: races.Race) -> float | None:
    """Seconds until the race changes by the clock alone (countdown's end, time limit)."""
    moment = race.started_at if race.counting_down else None
    if race.state == "running" and not race.counting_down:
        moment = race.deadline
    return None if moment is None else (moment - utcnow()).total_seconds() + 0.05


def _latest(feed: Feed, watch: Watch) -> tuple[races.Race, Parts]:
    race, parts = feed.latest(watch)
    assert isinstance(race, races.Race)  # what the route's ``read`` reads
    return race, parts


async def events(
    request: Request, feed: Feed, watch: Watch, language: i18n.LocaleCode, shown_state: str
) -> AsyncIterator[bytes]:
    """The stream's chunks until the race ends or the server closes its streams (the
    race read by the route already, :meth:`Feed.first`)."""
    race, parts = _latest(feed, watch)
    head = f"retry: {RETRY_MS}\n\n".encode()
    if race.state == "finished":
        yield head + event("state", "finished").encode() + event("end", "end").encode()
        return
    if shown_state and race.state != shown_state:  # the page shows another: it asks again
        head += event("state", race.state).encode()
    out, shown, due = sending(request, language, race, parts, Shown(race.change, (), race))
    yield head + out
    while True:
        if (delay := _moment(shown.race)) is not None:
            feed.at(watch.token, delay)
        if due is not None:
            feed.at(watch.token, due - time.monotonic() + 0.01)
        if not await feed.wait(watch):
            if feed.closing:
                return  # the client reconnects (to another server)
            yield BEAT
            continue
        race, parts = _latest(feed, watch)
        out, shown, due = sending(request, language, race, parts, shown)
        yield out
        if race.state == "finished":
            return


class RaceStream(StreamingResponse):
    """``text/event-stream``, never stored or buffered; its watch let go however the
    answer ends (even before its first chunk)."""

    def __init__(self, content: AsyncIterator[bytes], feed: Feed, watch: Watch) -> None:
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        super().__init__(content, media_type="text/event-stream", headers=headers)
        self.feed, self.watch = feed, watch

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.feed.unsubscribe(self.watch)


def end_on_exit_signals(db: Database) -> None:
    """A server asked to stop (SIGTERM, SIGINT) ends its race streams at once, before
    draining: uvicorn waits for open answers before the app's lifespan ends, so streams
    would hold a restart to the end of its grace. The server's own handler still runs
    after (chained through :func:`signal.getsignal`, nothing of the server's touched).
    Only where signals can be heard: the main thread of a serving process."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in (signal.SIGTERM, signal.SIGINT):
        before = signal.getsignal(number)
        if not callable(before) or before is signal.default_int_handler:
            continue  # no server's handler to chain: nothing serves from this thread

        def ending(signum: int, frame: FrameType | None, before: _Handler = before) -> None:
            race_feed.close_streams(db)  # thread-safe: the loop ends them
            before(signum, frame)

        signal.signal(number, ending)
