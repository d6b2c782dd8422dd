"""The race feed's bounds: streams capped in all and per address, a stream that reads
nothing dropped (never buffered for), changes within the interval sent together."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import pytest

from app.service import race_feed
from app.service.race_feed import QUEUE_SIZE, Feed, Local, Push, StreamsFull
from app.store import Database
from tests.own_loop import in_own_thread


def feed(db: Database, **caps: int) -> Feed:
    made = Feed(db, Local(), **{"max_streams": 3, "per_address": 2, **caps})  # type: ignore[arg-type]
    return made


@pytest.fixture
def sqlite_db() -> Database:
    return Database("sqlite://")


def test_streams_are_capped_per_address_and_in_all(sqlite_db: Database) -> None:
    async def run() -> None:
        made = feed(sqlite_db)
        one = made.subscribe("t", "10.0.0.1")
        made.subscribe("t", "10.0.0.1")
        with pytest.raises(StreamsFull):
            made.subscribe("t", "10.0.0.1")
        made.subscribe("u", "10.0.0.2")
        with pytest.raises(StreamsFull):
            made.subscribe("u", "10.0.0.3")  # three in all
        made.unsubscribe(one)
        made.unsubscribe(one)  # twice: counted once
        made.subscribe("u", "10.0.0.3")
        assert made.count == 3 and made.addresses == {"10.0.0.1": 1, "10.0.0.2": 1, "10.0.0.3": 1}

    in_own_thread(run)


def test_a_stream_that_reads_nothing_is_dropped_not_buffered(sqlite_db: Database) -> None:
    async def run() -> None:
        made = feed(sqlite_db)
        slow = made.subscribe("t", "a")
        quick = made.subscribe("t", "b")
        for _ in range(QUEUE_SIZE):
            made._fan("t")
            assert await quick.wait(1)
        assert not slow.dropped and slow.waiting == QUEUE_SIZE
        made._fan("t")  # one more than it may hold
        assert slow.dropped and slow.waiting <= QUEUE_SIZE
        assert made.count == 1 and slow not in made.streams["t"]
        assert await slow.wait(1)  # woken, to end
        assert await quick.wait(1) and not quick.dropped

    in_own_thread(run)


def test_changes_within_the_interval_reach_a_stream_together(sqlite_db: Database) -> None:
    async def run() -> None:
        made = feed(sqlite_db, max_streams=10)
        made.interval = 0.05
        stream = made.subscribe("t", "a")
        made.backend.listen(made)
        for _ in range(20):
            made.publish("t")  # as from the move threads
        assert await stream.wait(5)
        assert stream.waiting == 0
        assert made.generations["t"] == 1  # one read serves the twenty
        assert not await stream.wait(0.2)
        made.publish("t")  # a change after the fan-out: heard again
        assert await stream.wait(5)
        assert made.generations["t"] == 2 and not made.noted

    in_own_thread(run)


def test_a_change_wakes_the_loop_once_an_interval(sqlite_db: Database) -> None:
    async def run() -> None:
        made = feed(sqlite_db, max_streams=10)
        made.interval = 0.05
        made.publish("t")  # no stream open: nothing to wake
        assert not made.noted
        stream = made.subscribe("t", "a")
        made.subscribe("u", "b")
        woken = 0
        soon = made._soon

        def counted(token: str) -> None:
            nonlocal woken
            woken += 1
            soon(token)

        made._soon = counted  # type: ignore[method-assign]
        for _ in range(20):
            made.publish("t")
        made.publish("v")  # a race with no stream here: not kept noted
        assert made.noted == {"t", "v"}
        assert await stream.wait(5)
        assert woken == 2 and not made.noted

    in_own_thread(run)


def test_the_latest_read_is_shared_by_the_streams_of_a_change(sqlite_db: Database) -> None:
    async def run() -> None:
        made = feed(sqlite_db, max_streams=10)
        made.subscribe("t", "a")
        reads = 0
        moment = datetime(2026, 1, 1, tzinfo=UTC)

        async def read() -> int:
            nonlocal reads
            reads += 1
            await asyncio.sleep(0)
            return reads

        first = await asyncio.gather(*(made.latest("t", read, lambda _: moment) for _ in range(5)))
        assert reads == 1 and {value for value, _ in first} == {1}
        made._fan("t")
        again, _ = await made.latest("t", read, lambda _: moment)
        assert reads == 2 and again == 2
        later = datetime(2026, 1, 2, tzinfo=UTC)
        await made.latest("t", read, lambda _: moment, fresh_after=later)  # the clock's change
        assert reads == 3

    in_own_thread(run)


def test_no_feed_no_announcement(sqlite_db: Database) -> None:
    assert race_feed.feed_of(sqlite_db) is None
    race_feed.moved(sqlite_db, "x" * 24)  # a site without a feed: nothing to tell
    assert race_feed.race_of(sqlite_db, "x" * 24) is None


def test_a_change_is_pushed_to_the_streams_that_take_it_and_wakes_the_others(
    sqlite_db: Database,
) -> None:
    async def run() -> None:
        made = feed(sqlite_db, max_streams=10, per_address=0)
        moment = datetime(2026, 1, 1, tzinfo=UTC)
        reads = 0
        taken: list[tuple[str, int]] = []

        async def read() -> int:
            nonlocal reads
            reads += 1
            return reads

        def taker(name: str, *, takes: bool) -> Push:
            def take(value: int, parts: dict[object, object]) -> bool:
                taken.append((name, value))
                return takes

            return Push(read, lambda _: moment, take)

        quick, slow, plain = (made.subscribe("t", address) for address in "abc")
        quick.push = taker("quick", takes=True)
        slow.push = taker("slow", takes=False)  # its client reads slowly: its task takes it
        waits = [asyncio.ensure_future(s.wait(5)) for s in (quick, slow, plain)]
        await asyncio.sleep(0)  # each waiting
        made._fan("t")
        assert await waits[1] and await waits[2]  # woken
        assert not waits[0].done()  # written straight on: its task sleeps on
        assert reads == 1 and sorted(taken) == [("quick", 1), ("slow", 1)]
        quick.wake()
        await waits[0]

    in_own_thread(run)


def test_a_change_that_cannot_be_read_wakes_every_stream(sqlite_db: Database) -> None:
    async def run() -> None:
        made = feed(sqlite_db, max_streams=10, per_address=0)

        async def read() -> int:
            raise OSError("the database went away")

        stream = made.subscribe("t", "a")
        stream.push = Push(read, lambda _: datetime(2026, 1, 1, tzinfo=UTC), lambda v, p: True)
        waiting = asyncio.ensure_future(stream.wait(5))
        await asyncio.sleep(0)
        made._fan("t")
        assert await waiting  # its task reads it again

    in_own_thread(run)


def test_the_first_change_after_a_quiet_spell_goes_at_once_and_the_next_waits(
    sqlite_db: Database,
) -> None:
    async def run() -> None:
        made = feed(sqlite_db, max_streams=10)
        made.interval = 0.3
        stream = made.subscribe("t", "a")
        loop = asyncio.get_running_loop()
        made.deliver("t")  # as heard by the listener's thread
        assert await stream.wait(0.1)  # within far less than the interval
        first = made.fanned["t"]
        made.deliver("t")
        made.deliver("t")
        assert not await stream.wait(0.1)  # the interval since the first is not over
        assert await stream.wait(5)
        assert made.fanned["t"] - first >= 0.3 - race_feed.EARLY
        assert made.generations["t"] == 2 and loop.time() - first < 1
        made.unsubscribe(stream)
        assert "t" not in made.fanned  # nothing kept for a race nobody watches

    in_own_thread(run)


class Announcing(race_feed.Listener):
    """A listener whose announcements are noted, not sent."""

    def __init__(self) -> None:
        super().__init__()
        self.announced_at: list[tuple[str, float]] = []

    def announce(self, token: str) -> None:
        self.announced_at.append((token, time.monotonic()))


def test_a_race_is_announced_at_once_then_at_most_once_a_spacing() -> None:
    sender = Announcing()
    sender.spacing = 0.3
    try:
        began = time.monotonic()
        sender.send("t")
        deadline = began + 5
        while not sender.announced_at and time.monotonic() < deadline:
            time.sleep(0.005)
        assert sender.announced_at and sender.announced_at[0][1] - began < 0.25
        for _ in range(50):  # a race's moves, as fast as they come
            sender.send("t")
        sender.send("u")  # another race is not held back by this one
        while len(sender.announced_at) < 3 and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.4)
        tokens = [token for token, _at in sender.announced_at]
        assert sorted(tokens) == ["t", "t", "u"]
        (first, second) = [at for token, at in sender.announced_at if token == "t"]
        assert second - first >= 0.3
        (u_at,) = [at for token, at in sender.announced_at if token == "u"]
        assert u_at - first < 0.25
    finally:
        sender.close()
