"""A race's live stream to one page: server-sent events on Starlette's StreamingResponse.

Sent at once (a first connection or a reconnection, to any server: the rows are the
truth): ``retry``, the racers' table, every small board, and the race's state when the
page shows another. Then, at each reading of the race (:mod:`app.service.race_feed`), one
chunk: the table and the boards that changed together, the live region's words
(``said``), the new ``state`` (the page asks its ``#race`` part again) and ``end`` once the
race is over. A chunk is drawn once a reading and language for every stream that was sent
the reading before (a stream that fell behind gets every board). Each event carries an
``id`` (the race's state and step), a comment keeps a quiet stream open, and a server
closing its streams ends each cleanly: the browser reconnects.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Final

from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from app import i18n
from app.i18n import gettext as _
from app.i18n import isolate
from app.service import race_feed, races
from app.service.model import utcnow
from app.service.race_feed import Feed, Watch
from app.store import Database
from app.web.deps import in_thread
from app.web.race_pages import small_board
from app.web.race_rows import name_of, rows
from app.web.templating import clock

BOARD_SECONDS: Final = 0.5
"""A race's changed boards go at most once in this many seconds (the table at each change)."""
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


class Reading:
    """A race as read once for all its streams here: the boards its pages show (each
    racer's version: a board changed within :data:`BOARD_SECONDS` of the last waits), the
    reading before, and the chunks drawn from it."""

    number: int
    boards_at: float

    def __init__(self, race: races.Race, before: Reading | None) -> None:
        self.race, self.before, self.chunks = race, before, dict[tuple[str, int], bytes]()
        self.number = before.number + 1 if before else 0
        now = time.monotonic()
        if before is not None:
            before.before = None  # only the reading before is kept: streams hold their own
        if before is None or now - before.boards_at >= BOARD_SECONDS:
            self.boards_at = now
            self.boards = {r.joined: r.version for r in race.racers if r.position is not None}
        else:
            self.boards_at, self.boards = before.boards_at, before.boards

    def moments(self) -> list[float]:
        """In how many seconds the race is read again: its clock's next change
        (countdown's end, time limit, the end of an idle spell: open pages see the race
        end then), boards held back."""
        race, found = self.race, []
        if race.counting_down:
            clock = [race.started_at]
        else:
            clock = [race.deadline, race.idle_end] if race.state == "running" else []
        now = utcnow()
        found += [(moment - now).total_seconds() + 0.05 for moment in clock if moment is not None]
        if any(self.boards.get(r.joined) != r.version for r in race.racers if r.position):
            found.append(self.boards_at + BOARD_SECONDS - time.monotonic() + 0.01)
        return found

    def chunk(self, request: Request, language: i18n.LocaleCode, sent: Reading | None) -> bytes:
        """What takes a page from ``sent`` (``None``: nothing) to this reading."""
        key = (language, sent.number if sent is not None else -1)
        if (found := self.chunks.get(key)) is None:
            with i18n.use_locale(language):
                found = self.chunks[key] = self._draw(request, sent).encode()
        return found

    def _draw(self, request: Request, sent: Reading | None) -> str:
        race = self.race
        table = request.app.state.templates.env.get_template("races/_racers.html").render(
            request=request, race=race, rows=rows(request, race)
        )
        out = [event("racers", table, event_id(race))]
        shown = sent.boards if sent is not None and sent is self.before else {}
        for racer in race.racers if race.state != "lobby" else ():
            if racer.joined in self.boards and shown.get(racer.joined) != self.boards[racer.joined]:
                out.append(event(f"board-{racer.joined}", small_board(request, race, racer)))
        if sent is not None and race.change != sent.race.change:
            if words := said(sent.race, race):
                out.append(event("said", words))
            out.append(event("state", race.state))
        if race.state == "finished":
            out.append(event("end", "end"))
        return "".join(out)


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


def reader(feed: Feed, db: Database, token: str) -> race_feed.Read:
    """How the feed reads the race (once for all its streams here)."""

    async def read(before: object) -> Reading:
        assert before is None or isinstance(before, Reading)
        reading = Reading(await in_thread(races.race, db=db, token=token), before)
        for delay in reading.moments():
            feed.at(token, delay)
        return reading

    return read


async def events(
    request: Request, feed: Feed, watch: Watch, language: i18n.LocaleCode, shown_state: str
) -> AsyncIterator[bytes]:
    """The stream's chunks until the race ends or the server closes its streams (the
    race read by the route already, :meth:`Feed.first`)."""
    sent = feed.latest(watch)
    assert isinstance(sent, Reading)
    head = f"retry: {RETRY_MS}\n\n".encode()
    if sent.race.state == "finished":
        yield head + event("state", "finished").encode() + event("end", "end").encode()
        return
    if shown_state and sent.race.state != shown_state:  # the page shows another: it asks
        head += event("state", sent.race.state).encode()
    yield head + sent.chunk(request, language, None)
    while True:
        if not await feed.wait(watch):
            if feed.closing:
                return  # the client reconnects (to another server)
            yield BEAT
            continue
        reading = feed.latest(watch)
        assert isinstance(reading, Reading)
        yield reading.chunk(request, language, sent)
        sent = reading
        if reading.race.state == "finished":
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
