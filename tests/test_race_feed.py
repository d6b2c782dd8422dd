"""The race feed's behaviour: streams capped in all and per address; every change reaches
every stream, however many clients come and go beside it; a change is announced at once
after a quiet spell, then at most once an interval; a failed reading loses nothing and
leaves no unretrieved task; a server closing its streams ends each cleanly."""

from __future__ import annotations

import asyncio
import gc
import logging
import random

import pytest

from app.service import race_fanout, race_feed
from app.service.race_feed import Feed, StreamsFull, Watch
from app.store import Database
from tests.own_loop import in_own_thread


class Counting(race_fanout.Local):
    """In process, each announcement noted."""

    def __init__(self) -> None:
        super().__init__()
        self.announced: list[tuple[str, float]] = []

    async def announce(self, token: str) -> None:
        self.announced.append((token, asyncio.get_running_loop().time()))
        await super().announce(token)


async def nothing(before: object) -> str:
    return "race"


def feed(**caps: float) -> Feed:
    settings = {"max_streams": 3, "per_address": 2, "interval": 0.0, **caps}
    return Feed(Counting(), **settings)  # type: ignore[arg-type]


@pytest.fixture
def sqlite_db() -> Database:
    return Database("sqlite://")


def test_streams_are_capped_per_address_and_in_all() -> None:
    async def run() -> None:
        made = feed()
        one = made.subscribe("t", "10.0.0.1", nothing)
        made.subscribe("t", "10.0.0.1", nothing)
        with pytest.raises(StreamsFull):
            made.subscribe("t", "10.0.0.1", nothing)
        made.subscribe("u", "10.0.0.2", nothing)
        with pytest.raises(StreamsFull):
            made.subscribe("u", "10.0.0.3", nothing)  # three in all
        made.unsubscribe(one)
        made.unsubscribe(one)  # twice: counted once
        made.subscribe("u", "10.0.0.3", nothing)
        assert made.count == 3 and made.addresses == {"10.0.0.1": 1, "10.0.0.2": 1, "10.0.0.3": 1}
        await made.aclose()

    in_own_thread(run)


def test_clients_coming_and_going_never_end_or_starve_the_other_streams() -> None:
    """Sixteen long-lived streams, and clients that open the race's stream and leave it
    (in their wait, or in the middle of a shared reading) all the while: each long-lived
    stream stays open and reads every change, the last included."""
    changes = 60

    async def run() -> None:
        made = feed(max_streams=1000, per_address=0)
        made.start()
        reads = stored = 0

        async def read(before: object) -> int:
            nonlocal reads
            reads += 1
            version = stored  # the rows as they stand when read
            await asyncio.sleep(random.random() / 500)  # a reading in a worker thread
            return version

        seen: list[list[int]] = [[] for _ in range(16)]

        async def stream(out: list[int], watch: Watch) -> None:
            out.append(await made.first(watch))  # type: ignore[arg-type]
            while True:
                if await made.wait(watch):
                    out.append(made.latest(watch))  # type: ignore[arg-type]

        async def churn() -> None:
            watch = made.subscribe("t", "churn", read)
            try:
                await asyncio.wait_for(stream([], watch), random.random() / 200)
            except TimeoutError:
                pass
            finally:
                made.unsubscribe(watch)

        long = [asyncio.ensure_future(stream(out, made.subscribe("t", "a", read))) for out in seen]
        churning = set()
        for _ in range(changes):
            churning |= {asyncio.ensure_future(churn()) for _ in range(5)}
            stored += 1
            made.deliver("t")
            await asyncio.sleep(random.random() / 300)
        await asyncio.gather(*churning)
        for _ in range(200):
            if all(out and out[-1] == changes for out in seen):
                break
            await asyncio.sleep(0.01)
        assert not any(task.done() for task in long)  # none ended
        for out in seen:
            assert out[-1] == changes and out == sorted(out)  # the last, in order
        assert reads <= changes + 1  # once a change at most, for every stream
        assert made.count == 16
        for task in long:
            task.cancel()
        await made.aclose()

    in_own_thread(run)


def test_a_failed_reading_reaches_its_openers_and_the_next_change_reads_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def run() -> None:
        made = feed(max_streams=10)
        fail = True

        async def read(before: object) -> str:
            await asyncio.sleep(0)
            if fail:
                raise OSError("the database went away")
            return "race"

        watches = [made.subscribe("t", str(n), read) for n in range(3)]
        found = await asyncio.gather(
            *(made.first(watch) for watch in watches), return_exceptions=True
        )
        assert all(isinstance(error, OSError) for error in found)
        fail = False
        made.deliver("t")
        assert await asyncio.wait_for(made.wait(watches[1]), 5)
        assert made.latest(watches[1]) == "race"
        await made.aclose()

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        in_own_thread(run)
        gc.collect()
    assert "never retrieved" not in caplog.text


def test_a_change_is_announced_at_once_then_at_most_once_an_interval() -> None:
    # Bounds well apart (the interval against "at once"), so a loaded machine passes too.
    async def run() -> None:
        made = feed(max_streams=10, interval=0.6)
        made.start()
        backend = made.backend
        assert isinstance(backend, Counting)
        watch = made.subscribe("t", "a", nothing)
        made.publish("t")  # as from a move's thread, after its commit
        assert await asyncio.wait_for(made.wait(watch), 0.5)  # at once, not after the interval
        made.latest(watch)
        made.publish("t")  # a race's moves, as fast as they come
        made.publish("u")  # another race is not held back by this one
        for _ in range(30):
            made.publish("t")
            await asyncio.sleep(0)
        assert await asyncio.wait_for(made.wait(watch), 5)
        announced = [at for token, at in backend.announced if token == "t"]
        assert len(announced) == 2 and announced[1] - announced[0] >= 0.6 - 0.01
        assert [token for token, _at in backend.announced] == ["t", "u", "t"]
        await asyncio.sleep(0.7)
        assert made.held == {}  # nothing kept for a quiet race
        await made.aclose()

    in_own_thread(run)


def test_the_race_clock_wakes_its_streams() -> None:
    async def run() -> None:
        made = feed(max_streams=10)
        watch = made.subscribe("t", "a", nothing)
        await made.first(watch)
        made.at("t", 0.05)  # the countdown's end
        made.at("t", 5)  # a later moment does not push it back
        assert await asyncio.wait_for(made.wait(watch), 3)
        made.latest(watch)
        made.at("t", 0.05)  # a moment after a timer has gone off is timed anew
        assert await asyncio.wait_for(made.wait(watch), 3)
        await made.aclose()

    in_own_thread(run)


def test_closing_the_streams_ends_each_and_opens_no_more() -> None:
    async def run() -> None:
        made = feed(max_streams=10)
        watches = [made.subscribe("t", "a", nothing), made.subscribe("u", "b", nothing)]
        for watch in watches:
            await made.first(watch)
        waits = [asyncio.ensure_future(made.wait(watch)) for watch in watches]
        await asyncio.sleep(0)
        await asyncio.to_thread(made.close_streams)  # as a server's shutdown, any thread
        assert await asyncio.gather(*waits) == [False, False]
        with pytest.raises(StreamsFull):
            made.subscribe("t", "c", nothing)
        await made.aclose()

    in_own_thread(run)


def test_no_feed_no_announcement(sqlite_db: Database) -> None:
    assert race_feed.feed_of(sqlite_db) is None
    race_feed.moved(sqlite_db, "x" * 24)  # a site without a feed: nothing to tell


def test_streams_always_leave_connections_for_moves() -> None:
    from pydantic import ValidationError

    from app.config import Settings, race_stream_caps

    assert race_stream_caps(Settings()) == (800, 32)  # 1,000 connections less a fifth
    assert race_stream_caps(Settings(max_connections=40, race_streams_per_address=0)) == (30, 30)
    assert race_stream_caps(Settings(max_connections=40)) == (30, 30)
    with pytest.raises(ValidationError, match="at most 800"):
        Settings(race_streams=1000)
