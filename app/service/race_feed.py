"""Who hears of a race's change: the open streams of this process, race by race.

A change is stored first, then announced (:func:`moved` after a move's commit,
:func:`changed` after a join or a start): at most once an interval a race, the first change
after a quiet spell at once, through the process's :mod:`~app.service.race_fanout`
backend. Each process hears every announcement; a race watched here has one reader task
that reads it once for all its streams, then wakes them. What is sent is read from the
rows, so a stream that reconnects to any server is sent the same. Bounded:
``RACE_STREAMS`` streams a process, ``RACE_STREAMS_PER_ADDRESS`` from one address
(:class:`StreamsFull` beyond).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from app.service import race_clock, race_fanout
from app.store import Database

log = logging.getLogger("solitaire.races")

HEARTBEAT_SECONDS: Final = 15.0
"""Every stream wakes this often (a comment keeps proxies from closing a quiet one)."""

Read = Callable[[object], Awaitable[object]]
"""Reads a race for all its streams here, given its reading before (``None`` at first)."""


class StreamsFull(Exception):
    """Too many race streams open (in all, or from one address), or the server is
    closing its streams: ask again later."""


@dataclass(eq=False, slots=True)
class Watch:
    """One open stream: its race, its address, the reading it was last sent (a count)."""

    token: str
    address: str
    seen: int = -1


class _Race:
    """A race watched here: its streams, its last reading and their count, the flag that
    asks its reader task for another, the pulse its streams wait on, its clock's timer."""

    def __init__(self, read: Read) -> None:
        self.watches: set[Watch] = set()
        self.read = read
        self.value: object = None
        self.readings = 0
        self.error: Exception | None = None
        self.due = asyncio.Event()
        self.due.set()
        self.busy = False
        self.pulse = asyncio.Event()
        self.timer: asyncio.TimerHandle | None = None
        self.reader = asyncio.ensure_future(self._reader())

    async def _reader(self) -> None:
        while True:
            await self.due.wait()
            self.due.clear()
            self.busy, self.error = True, None
            try:
                self.value, self.error = await self.read(self.value), None
                self.readings += 1
            except Exception as error:  # its openers hear of it; the next change reads again
                self.error = error
                if self.value is not None:
                    log.warning("race feed: a race was not read", exc_info=True)
            self.busy = False
            self.wake()

    def wake(self) -> None:
        self.pulse.set()  # every waiter's own future is settled; the flag goes down again
        self.pulse.clear()


class Feed:
    """The streams of one process, the races they show, and the fan-out between
    processes."""

    def __init__(
        self, backend: race_fanout.Fanout, *,
        max_streams: int, per_address: int, interval: float = 0.0,
    ) -> None:  # fmt: skip
        self.backend = backend
        self.max_streams, self.per_address, self.interval = max_streams, per_address, interval
        self.races: dict[str, _Race] = {}
        self.addresses: dict[str, int] = {}
        self.count = 0
        self.closing = False
        self.missed = False  # the backend stopped listening for a while
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listening = asyncio.Event()
        self.tasks: set[asyncio.Future[None]] = set()
        self.held: dict[str, bool] = {}  # races within their interval: a change waits?

    def start(self) -> None:
        """Listen (in the running loop): the app's start, or its first stream."""
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            self.loop, self.closing, self.listening = loop, False, asyncio.Event()
            self.held.clear()
            self.tasks = set()  # a former loop's (a test's app started again) end with it
            self._spawn(self._listen())
            loop.call_later(HEARTBEAT_SECONDS, self._beat)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        task.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def _listen(self) -> None:
        while True:
            try:
                await self.backend.listen(self.heard)
            except Exception:  # a broken connection: listened to again after a pause
                log.warning("race feed: listening again after an error", exc_info=True)
            self.listening.clear()
            self.missed = True
            await asyncio.sleep(1.0)

    def heard(self, token: str) -> None:
        """A race's change heard (from any process); ``""``: the backend listens (again),
        and what it missed meanwhile is read again for every stream."""
        if token:
            self.deliver(token)
            return
        self.listening.set()
        if self.missed:
            self.missed = False
            for each in list(self.races):
                self.deliver(each)

    def deliver(self, token: str) -> None:
        """A change of the race: its reader reads it again (once for every change heard
        while a reading was under way)."""
        if (race := self.races.get(token)) is not None:
            race.due.set()

    def _beat(self) -> None:
        self._wake_all()
        if self.loop is asyncio.get_running_loop():
            self.loop.call_later(HEARTBEAT_SECONDS, self._beat)

    def at(self, token: str, delay: float) -> None:
        """The race changes by the clock in ``delay`` seconds (its countdown's end, its
        time limit, a board held back): it is read again then."""
        race = self.races.get(token)
        if race is None or self.loop is None:
            return
        now = self.loop.time()
        when = now + max(0.0, delay)
        if race.timer is None or not now < race.timer.when() <= when:  # none sooner pending
            if race.timer is not None:
                race.timer.cancel()
            race.timer = self.loop.call_at(when, self.deliver, token)

    def subscribe(self, token: str, address: str, read: Read) -> Watch:
        """A stream of the race opens (``read`` reads it, for all its streams here)."""
        crowded = self.per_address and self.addresses.get(address, 0) >= self.per_address
        if self.closing or self.count >= self.max_streams or crowded:
            raise StreamsFull(address)
        self.start()
        watch = Watch(token, address)
        if token not in self.races:
            self.races[token] = _Race(read)
        self.races[token].watches.add(watch)
        self.addresses[address] = self.addresses.get(address, 0) + 1
        self.count += 1
        return watch

    def unsubscribe(self, watch: Watch) -> None:
        race = self.races.get(watch.token)
        if race is None or watch not in race.watches:
            return
        race.watches.discard(watch)
        if not race.watches:
            del self.races[watch.token]
            race.reader.cancel()
            if race.timer is not None:
                race.timer.cancel()
        left = self.addresses.pop(watch.address) - 1
        if left:
            self.addresses[watch.address] = left
        self.count -= 1

    async def first(self, watch: Watch) -> object:
        """The race for a stream that opens: its last reading if no change has come since,
        else the next (a failed one raises here)."""
        race = self.races[watch.token]
        if race.value is None or race.due.is_set() or race.busy:
            readings = race.readings
            while race.readings == readings:
                await race.pulse.wait()
                if self.closing:
                    raise StreamsFull(watch.address)
                if race.error is not None and not race.busy:
                    raise race.error
        return self.latest(watch)

    async def wait(self, watch: Watch) -> bool:
        """Until the race was read past what ``watch`` was sent (True), a heartbeat or the
        streams' close (False). Each waits on a future of its own."""
        race = self.races[watch.token]
        if race.readings == watch.seen and not self.closing:
            await race.pulse.wait()
        return race.readings != watch.seen and not self.closing

    def latest(self, watch: Watch) -> object:
        """The race as last read, now sent to ``watch``."""
        race = self.races[watch.token]
        watch.seen = race.readings
        return race.value

    def close_streams(self) -> None:
        """Every open stream ends (cleanly: its client reconnects, to any server); no
        new one opens. Any thread: a server calls it as its graceful shutdown begins
        (uvicorn waits for open answers before the app's lifespan ends)."""
        self.closing = True
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        for race in self.races.values():
            race.wake()

    def publish(self, token: str) -> None:
        """A race's change is stored: announce it (once an interval at most). Any thread."""
        if self.loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                self.loop.call_soon_threadsafe(self._note, token)

    def _note(self, token: str) -> None:
        if token in self.held:
            self.held[token] = True
        else:
            self._announce(token)

    def _announce(self, token: str) -> None:
        self.held[token] = False
        self._spawn(self.backend.announce(token))
        assert self.loop is not None
        self.loop.call_later(self.interval, self._interval_over, token)

    def _interval_over(self, token: str) -> None:
        if self.held.pop(token, False):
            self._announce(token)

    async def aclose(self) -> None:
        self.close_streams()
        mine = [task for task in self.tasks if task.get_loop() is asyncio.get_running_loop()]
        mine += [race.reader for race in self.races.values()]
        for task in mine:
            task.cancel()
        await asyncio.gather(*mine, return_exceptions=True)
        await self.backend.close()
        self.loop = None


_FEEDS: weakref.WeakKeyDictionary[Database, Feed] = weakref.WeakKeyDictionary()


def install(
    db: Database, *, redis_url: str = "", max_streams: int, per_address: int,
    interval: float = 0.0,
) -> Feed:  # fmt: skip
    """The feed of ``db``'s site in this process: Redis where a URL is given, else
    PostgreSQL's own notifications on PostgreSQL, else in process."""
    backend: race_fanout.Fanout
    if redis_url:
        backend = race_fanout.Redis(redis_url)
    elif not db.is_sqlite:
        url = db.url.set(drivername="postgresql")
        backend = race_fanout.Postgres(url.render_as_string(hide_password=False))
    else:
        backend = race_fanout.Local()
    feed = Feed(backend, max_streams=max_streams, per_address=per_address, interval=interval)
    _FEEDS[db] = feed
    return feed


def feed_of(db: Database) -> Feed | None:
    return _FEEDS.get(db)


def moved(db: Database, game_id: str) -> None:
    """After a game's change is committed: the race it is in (if any) hears of it."""
    if (feed := _FEEDS.get(db)) is not None and (token := race_clock.race_of(db, game_id)):
        feed.publish(token)


def changed(db: Database, token: str) -> None:
    """After a race's own change is committed (a join, its start, its end)."""
    if (feed := _FEEDS.get(db)) is not None:
        feed.publish(token)
