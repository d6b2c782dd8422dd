"""Who hears of a race's changes, and how: server-sent events' fan-out.

A change is stored first, then announced: after a racer's game commits a move
(:func:`moved`, called by :mod:`app.service.play`), or a race's own change (a join, its
start), the race's token is published. The pages that show the race (their event streams,
:class:`Subscription`) hear it and read the race once for all of them
(:meth:`Feed.latest`): what is sent is read from the rows, so nothing is lost when a
worker dies (the browsers reconnect to another and read the same rows).

Fan-out goes through what the site already runs: in the process for one worker
(:class:`Local`); PostgreSQL's ``LISTEN/NOTIFY`` when the database is PostgreSQL (several
workers, several servers); Redis pub/sub where ``REDIS_URL`` is set.

Bounded: at most ``RACE_STREAMS`` streams a process and ``RACE_STREAMS_PER_ADDRESS`` from
one address (:class:`StreamsFull` beyond); a stream holds a queue of at most
:data:`QUEUE_SIZE` change marks, and a stream that falls that far behind (a client that
reads nothing) is dropped, never buffered for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Final, Protocol, TypeVar, cast

from app.caches import Kept, text_size
from app.store import Database
from app.store import races as race_rows

if TYPE_CHECKING:
    import psycopg
    from psycopg.rows import TupleRow

log = logging.getLogger("solitaire.races")

QUEUE_SIZE: Final = 32
"""Change marks a stream may have waiting; one more and the stream is dropped."""
EARLY: Final = 0.001
"""A wait this close to its end when the ticker fires ends then (a timer may fire a
clock's tick early: never a second firing for it)."""
CHANNEL: Final = "solitaire_races"
GAMES_KEPT_BYTES: Final = 1 << 20
"""The games known to be in a race (or not): looked up once a game, at its first move."""

T = TypeVar("T")


class StreamsFull(Exception):
    """Too many race streams open (in all, or from one address): ask again later."""


class Subscription:
    """One open stream of one race: how many changes it has not taken yet (at most
    :data:`QUEUE_SIZE`), and the future its stream waits on (a count and one future: no
    queue and no task a wait, as a stream wakes for every change of its race); its wait's
    end is kept by its loop's :class:`Ticker` (no timer a wait)."""

    __slots__ = (
        "address", "deadline", "dropped", "push", "ticker", "token", "waiter", "waiting",
    )  # fmt: skip

    def __init__(self, token: str, address: str, ticker: Ticker) -> None:
        self.token = token
        self.address = address
        self.ticker = ticker
        self.waiting = 0
        self.waiter: asyncio.Future[bool] | None = None
        self.deadline = 0.0
        self.dropped = False
        self.push: Push | None = None
        """How its stream takes a change without waking (:class:`Push`), once it can."""

    def offer(self) -> None:
        """A change (in the event loop): marked, or the stream dropped when it is full."""
        if self.dropped:
            return
        if self.waiting >= QUEUE_SIZE:
            self.dropped = True
        else:
            self.waiting += 1
        self.wake()

    def wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(True)

    def wait_less(self, timeout: float) -> None:
        """The wait under way ends in ``timeout`` seconds (sooner or later than asked)."""
        if self in self.ticker.waiting:
            self.ticker.add(self, self.ticker.loop.time() + timeout)

    async def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a change; True if one came (every mark
        waiting is taken: one read serves them all)."""
        if not self.waiting and not self.dropped:
            ticker = self.ticker
            waiter = ticker.loop.create_future()
            self.waiter = waiter
            ticker.add(self, ticker.loop.time() + timeout)
            try:
                await waiter
            finally:
                ticker.waiting.discard(self)
                self.waiter = None
        came = self.waiting > 0 or self.dropped
        self.waiting = 0
        return came


Parts = dict[Hashable, object]
"""What a race's streams drew from one reading of it, shared by them (each drawer keeps
its own keys, and checks the type of what it finds)."""


@dataclass(frozen=True, slots=True)
class Push:
    """A stream that takes a change without its task waking: ``read`` reads the race
    (once for all such streams, :meth:`Feed.latest`), ``made_at`` says when a reading
    was made, and ``take`` writes what the stream sends of it straight on; False when
    the stream's task must (it has a chunk on its way, the client reads slowly, or the
    change is one the live region speaks of)."""

    read: Callable[[], Awaitable[object]]
    made_at: Callable[[object], datetime]
    take: Callable[[object, Parts], bool]


class Ticker:
    """One timer a loop for the waits of all its streams: it fires at the earliest of
    their ends and settles every wait then over. A stream's wait ends on a change, a
    heartbeat, a held board's tick or the race's clock: hundreds of streams, each waking
    twenty times a second, would otherwise make and cancel a timer a wake."""

    __slots__ = ("at", "handle", "loop", "waiting")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: set[Subscription] = set()
        self.handle: asyncio.TimerHandle | None = None
        self.at = float("inf")

    def add(self, subscription: Subscription, deadline: float) -> None:
        subscription.deadline = deadline
        self.waiting.add(subscription)
        if deadline < self.at:
            self._at(deadline)

    def _at(self, moment: float) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.at = moment
        self.handle = self.loop.call_at(moment, self._fire)

    def _fire(self) -> None:
        self.handle = None
        self.at = float("inf")
        now = self.loop.time() + EARLY
        later = float("inf")
        for subscription in list(self.waiting):
            if subscription.deadline <= now:
                self.waiting.discard(subscription)
                waiter = subscription.waiter
                if waiter is not None and not waiter.done():
                    waiter.set_result(False)
            elif subscription.deadline < later:
                later = subscription.deadline
        if later < float("inf"):
            self._at(later)


class Backend(Protocol):
    def send(self, token: str) -> None: ...

    def listen(self, feed: Feed) -> None: ...

    def close(self) -> None: ...


class Local:
    """One worker: a change is delivered in the process."""

    def __init__(self) -> None:
        self.feed: Feed | None = None

    def send(self, token: str) -> None:
        if self.feed is not None:
            self.feed.deliver(token)

    def listen(self, feed: Feed) -> None:
        self.feed = feed

    def close(self) -> None:
        self.feed = None


class Listener:
    """A thread that hears other processes' changes (PostgreSQL or Redis), delivers them
    in this one, and reconnects after a failure; and one that announces this process's
    changes (:meth:`send` only notes the race: a move's answer never waits for the
    announcement, and the changes of one race noted while one is sent go as one)."""

    spacing: float = 0.0
    """Seconds between two announcements of one race at least (the feed's interval, set
    by :func:`install`): its changes within them go as one. Every process's streams of a
    race hear of its changes that often at most anyway, and each announcement wakes every
    process: a race of eight moving as fast as they could announced hundreds a second."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.waiting: set[str] = set()
        self.noted = threading.Condition()
        self.sender: threading.Thread | None = None

    def send(self, token: str) -> None:
        with self.noted:
            self.waiting.add(token)
            if self.sender is None:
                self.sender = threading.Thread(
                    target=self._announce, name="solitaire-race-announce", daemon=True
                )
                self.sender.start()
            self.noted.notify()

    def _announce(self) -> None:
        sent: dict[str, float] = {}  # when each race was last announced, within spacing
        while not self.stopping.is_set():
            with self.noted:
                tokens = self._due(sent)
            now = time.monotonic()
            for token in tokens:
                sent[token] = now
                try:
                    self.announce(token)
                except Exception:  # stored all the same: its streams read it at their next beat
                    log.warning("race feed: a change was not announced", exc_info=True)
            for token in [token for token, at in sent.items() if at + self.spacing < now]:
                del sent[token]
        self.announced()

    def _due(self, sent: dict[str, float]) -> set[str]:
        """The races noted whose announcement is due (under :attr:`noted`): waits until
        one is, or the feed closes. A race announced less than :attr:`spacing` ago waits
        out the rest of it; the first change after a quiet spell goes at once."""
        while not self.stopping.is_set():
            now = time.monotonic()
            due = {token for token in self.waiting if sent.get(token, -1e9) + self.spacing <= now}
            if due:
                self.waiting -= due
                return due
            soonest = min((sent[token] + self.spacing for token in self.waiting), default=now + 1.0)
            self.noted.wait(max(soonest - now, 0.001))
        return set()

    def announce(self, token: str) -> None:
        raise NotImplementedError

    def announced(self) -> None:
        """The announcing thread ends (the feed closed): what it held, let go."""

    def listen(self, feed: Feed) -> None:
        if self.thread is not None:
            return
        self.thread = threading.Thread(
            target=self._run, args=(feed,), name="solitaire-race-feed", daemon=True
        )
        self.thread.start()

    def _run(self, feed: Feed) -> None:
        while not self.stopping.is_set():
            try:
                self.hear(feed)
            except Exception:  # a dropped connection: heard again after a pause
                log.warning("race feed: listening again after an error", exc_info=True)
            self.stopping.wait(1.0)

    def hear(self, feed: Feed) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.stopping.set()
        with self.noted:
            self.noted.notify_all()


class Postgres(Listener):
    """``NOTIFY`` after the commit, on a connection of the announcing thread's own; a
    connection of its own ``LISTEN``s (psycopg 3)."""

    def __init__(self, db: Database) -> None:
        super().__init__()
        url = db.url.set(drivername="postgresql")
        self.conninfo = url.render_as_string(hide_password=False)
        self.sending: psycopg.Connection[TupleRow] | None = None
        """The announcing thread's connection (autocommit: a ``NOTIFY`` is one round trip,
        where a pooled one cost a ping, the statement and a commit: a sixth of the
        server's time with a race's streams open on two workers)."""

    def announce(self, token: str) -> None:
        import psycopg

        if self.sending is None or self.sending.closed:
            self.sending = psycopg.connect(self.conninfo, autocommit=True)
        try:
            self.sending.execute("SELECT pg_notify(%s, %s)", (CHANNEL, token))
        except psycopg.Error:
            self.sending.close()  # a fresh one for the next announcement
            raise

    def announced(self) -> None:
        if self.sending is not None:
            self.sending.close()

    def hear(self, feed: Feed) -> None:
        import psycopg

        with psycopg.connect(self.conninfo, autocommit=True) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            feed.listening.set()
            while not self.stopping.is_set():
                for notice in connection.notifies(timeout=1.0):
                    feed.deliver(notice.payload)


class Redis(Listener):
    """Redis pub/sub: ``PUBLISH`` after the commit; a connection of its own subscribes."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis

        self.url = url
        self.client = redis.Redis.from_url(url)

    def announce(self, token: str) -> None:
        self.client.publish(CHANNEL, token)

    def hear(self, feed: Feed) -> None:
        import redis

        client = redis.Redis.from_url(self.url)
        pubsub = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        try:
            pubsub.subscribe(CHANNEL)
            feed.listening.set()
            while not self.stopping.is_set():
                message = pubsub.get_message(timeout=1.0)
                if message is not None and message.get("type") == "message":
                    data = message["data"]
                    feed.deliver(data.decode() if isinstance(data, bytes) else str(data))
        finally:
            pubsub.close()
            client.close()


@dataclass
class _Latest:
    """The race as last read for its streams, and the parts drawn from it (per language)."""

    generation: int
    task: asyncio.Future[object]
    made_at: datetime | None = None
    parts: Parts = field(default_factory=dict)


class Feed:
    """The streams of one process, the races they show, and the backend between
    processes."""

    def __init__(
        self,
        db: Database,
        backend: Backend,
        *,
        max_streams: int,
        per_address: int,
        interval: float = 0.0,
    ) -> None:
        self.db = weakref.proxy(db)  # _FEEDS is keyed by it: a strong one would keep it forever
        self.interval = interval
        """A race's streams hear of its changes at most once in this many seconds: the
        first change after a quiet spell at once, those heard within the interval after
        it together at its end (one read, one send each): what a race's streams cost is
        bounded however fast its racers move."""
        self.pending: set[str] = set()
        self.fanned: dict[str, float] = {}
        """When each race shown here last went out to its streams (loop time)."""
        self.noted: set[str] = set()
        """Races whose change was handed to the event loops and not yet fanned out (any
        thread, under :attr:`guard`)."""
        self.backend = backend
        self.max_streams = max_streams
        self.per_address = per_address
        self.streams: dict[str, set[Subscription]] = {}
        self.addresses: dict[str, int] = {}
        self.count = 0
        self.generations: dict[str, int] = {}
        self.latests: dict[str, _Latest] = {}
        self.loops: set[asyncio.AbstractEventLoop] = set()
        self.pushing: set[asyncio.Future[None]] = set()
        self.tickers: dict[asyncio.AbstractEventLoop, Ticker] = {}
        self.guard = threading.Lock()
        self.listening = threading.Event()
        self.games = Kept[str, str]("race games", GAMES_KEPT_BYTES, lambda k, v: text_size(k, v))

    # Streams (in the event loop)

    def subscribe(self, token: str, address: str) -> Subscription:
        if self.count >= self.max_streams or (
            self.per_address and self.addresses.get(address, 0) >= self.per_address
        ):
            raise StreamsFull(address)
        loop = asyncio.get_running_loop()
        ticker = self.tickers.get(loop)
        if ticker is None:
            ticker = self.tickers[loop] = Ticker(loop)
        subscription = Subscription(token, address, ticker)
        with self.guard:
            self.loops.add(loop)
        self.streams.setdefault(token, set()).add(subscription)
        self.addresses[address] = self.addresses.get(address, 0) + 1
        self.count += 1
        self.backend.listen(self)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        found = self.streams.get(subscription.token)
        if found is None or subscription not in found:
            return
        found.discard(subscription)
        if not found:
            del self.streams[subscription.token]
            self.latests.pop(subscription.token, None)
            self.generations.pop(subscription.token, None)
            self.fanned.pop(subscription.token, None)
        left = self.addresses[subscription.address] - 1
        if left:
            self.addresses[subscription.address] = left
        else:
            del self.addresses[subscription.address]
        self.count -= 1

    async def latest(
        self,
        token: str,
        read: Callable[[], Awaitable[T]],
        made_at: Callable[[T], datetime],
        fresh_after: datetime | None = None,
    ) -> tuple[T, Parts]:
        """The race as read since its last change, read once for every stream of this
        process (and again when it was read before ``fresh_after``: a countdown's end, a
        time limit); with the parts drawn from it so far."""
        generation = self.generations.get(token, 0)
        found = self.latests.get(token)
        stale = (
            found is None
            or found.generation != generation
            or (
                fresh_after is not None
                and found.made_at is not None
                and found.made_at < fresh_after
            )
        )
        if stale:
            found = _Latest(generation, asyncio.ensure_future(read()))
            if token in self.streams:
                self.latests[token] = found
        assert found is not None
        try:
            value = cast(T, await found.task)  # the task is ``read``'s
        except Exception:  # not kept: the next stream to ask reads again
            if self.latests.get(token) is found:
                del self.latests[token]
            raise
        if found.made_at is None:
            found.made_at = made_at(value)
        return value, found.parts

    # Changes (any thread)

    def publish(self, token: str) -> None:
        """A race changed (stored): every process's streams of it hear of it."""
        try:
            self.backend.send(token)
        except Exception:  # the change is stored; its streams read it at their next beat
            log.warning("race feed: a change was not announced", exc_info=True)

    def deliver(self, token: str) -> None:
        """A change heard (from this process or another): to the streams of this one. A
        race already due to fan out (its interval running) is not told again: a move
        wakes the event loop only when its race's streams would not hear of it anyway."""
        with self.guard:
            if token in self.noted or not self.loops:
                return
            self.noted.add(token)
            loops = list(self.loops)
        for loop in loops:
            with contextlib.suppress(RuntimeError):  # a loop that has closed
                loop.call_soon_threadsafe(self._soon, token)

    def _soon(self, token: str) -> None:
        if token not in self.streams:
            with self.guard:
                self.noted.discard(token)
            return
        if token in self.pending:
            return
        self.pending.add(token)
        loop = asyncio.get_running_loop()
        wait = self.fanned.get(token, -1e9) + self.interval - loop.time()
        if wait <= 0:  # the first change after a quiet spell: at once
            self._fan(token)
        else:
            loop.call_later(wait, self._fan, token)

    def _fan(self, token: str) -> None:
        self.pending.discard(token)
        self.fanned[token] = asyncio.get_running_loop().time()
        with self.guard:  # a change noted from now on fans out again
            self.noted.discard(token)
        found = self.streams.get(token)
        if not found:
            return
        self.generations[token] = self.generations.get(token, 0) + 1
        pushed = []
        for subscription in list(found):
            if subscription.push is not None and subscription.waiter is not None:
                pushed.append(subscription)
                continue
            subscription.offer()
            if subscription.dropped:  # woken, to end
                self.unsubscribe(subscription)
        if pushed:
            task = asyncio.ensure_future(self._push(token, pushed))
            self.pushing.add(task)
            task.add_done_callback(self.pushing.discard)

    async def _push(self, token: str, pushed: list[Subscription]) -> None:
        """A change to the streams that take it without waking: the race read once,
        then written to each; a stream that cannot take it is woken as any other."""
        first = pushed[0].push
        assert first is not None
        try:
            value, parts = await self.latest(token, first.read, first.made_at)
        except Exception:  # each stream reads it again
            log.warning("race feed: a change was not read", exc_info=True)
            value, parts = None, {}
        for subscription in pushed:
            push = subscription.push
            if push is None or subscription.waiting or subscription.dropped:
                continue  # gone, or already woken for a later change
            if value is None or not push.take(value, parts):
                subscription.offer()
                if subscription.dropped:
                    self.unsubscribe(subscription)

    def race_of(self, game_id: str) -> str:
        """The race a game (one the site has) is played in, or ``""``: read once a game.
        A game is dealt into its race, so a game found in none stays in none."""
        token = self.games.get(game_id)
        if token is None:
            with self.db.read() as session:
                token = race_rows.race_of_game(session, game_id) or ""
            self.games.put(game_id, token)
        return token

    def moved(self, game_id: str) -> None:
        """A game committed a change: its race (if it is in one) hears of it."""
        token = self.race_of(game_id)
        if token:
            self.publish(token)

    def close(self) -> None:
        self.backend.close()


_FEEDS: weakref.WeakKeyDictionary[Database, Feed] = weakref.WeakKeyDictionary()


def install(
    db: Database,
    *,
    redis_url: str = "",
    max_streams: int,
    per_address: int,
    interval: float = 0.0,
) -> Feed:
    """The feed of ``db``'s site in this process: Redis where a URL is given, else
    PostgreSQL's own notifications on PostgreSQL, else in process."""
    backend: Backend
    if redis_url:
        backend = Redis(redis_url)
    elif not db.is_sqlite:
        backend = Postgres(db)
    else:
        backend = Local()
    if isinstance(backend, Listener):
        backend.spacing = interval
    feed = Feed(db, backend, max_streams=max_streams, per_address=per_address, interval=interval)
    old = _FEEDS.get(db)
    if old is not None:
        old.close()
    _FEEDS[db] = feed
    return feed


def feed_of(db: Database) -> Feed | None:
    return _FEEDS.get(db)


def moved(db: Database, game_id: str) -> None:
    """After a game's change is committed: the race it is in (if any) hears of it."""
    feed = _FEEDS.get(db)
    if feed is not None:
        feed.moved(game_id)


def race_of(db: Database, game_id: str) -> str | None:
    """The race a game is played in, if any (on a site with a feed)."""
    feed = _FEEDS.get(db)
    return (feed.race_of(game_id) or None) if feed is not None else None


def changed(db: Database, token: str) -> None:
    """After a race's own change is committed (a join, its start)."""
    feed = _FEEDS.get(db)
    if feed is not None:
        feed.publish(token)
