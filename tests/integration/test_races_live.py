"""Races live across workers: two servers on one PostgreSQL database; a move made on
worker A reaches a race page's event stream served by worker B (LISTEN/NOTIFY), and a
worker killed mid-race loses nothing."""

from __future__ import annotations

import os
import queue
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.integration.conftest import Server
from tests.integration.test_bounds import Site, site  # noqa: F401 (a fixture)
from tests.postgres import PostgresServer

WAIT = 60.0
"""Seconds a test waits for what must come (a loaded machine is slow, never wrong)."""


@pytest.fixture
def pg_url(postgres: PostgresServer | None) -> Iterator[str]:
    if postgres is None:
        pytest.skip("no PostgreSQL server")
    with postgres.database() as url:
        yield url


class Stream:
    """A race's event stream read in a thread: each event as (name, data)."""

    def __init__(self, url: str) -> None:
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(url,), daemon=True)
        self.thread.start()

    def _read(self, url: str) -> None:
        name, data = "", []
        try:
            with httpx.stream("GET", url, timeout=WAIT) as response:
                for line in response.iter_lines():
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: "):
                        data.append(line[6:])
                    elif not line and name:
                        self.events.put((name, "\n".join(data)))
                        name, data = "", []
        except httpx.HTTPError:
            self.events.put(("closed", ""))

    def wait_for(self, found: Callable[[str, str], bool]) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                name, data = self.events.get(timeout=1)
            except queue.Empty:
                continue
            if found(name, data):
                return data
        pytest.fail("the event did not come")


def moves_of(rows: str) -> list[int]:
    return [int(n) for n in re.findall(r'class="moves">(\d+)<', rows)]


def version_of(client: httpx.Client, game: str) -> int:
    page = client.get(game).text
    match = re.search(r'name="version" value="(\d+)"', page)
    assert match
    return int(match.group(1))


def own_game(client: httpx.Client, race: str) -> str:
    """The racer's own game, linked from the race's page once its 3-second countdown ends."""
    deadline = time.monotonic() + WAIT
    while "Play your game" not in (page := client.get(race).text):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    (game,) = re.findall(r'href="(/games/[\w-]+)"', page)
    return game


def test_a_move_on_one_worker_reaches_a_race_page_served_by_another(
    start_server: Callable[..., Server], pg_url: str
) -> None:
    a = start_server(DATABASE_URL=pg_url)
    b = start_server(DATABASE_URL=pg_url)
    one = httpx.Client(base_url=a.url, timeout=WAIT)
    two = httpx.Client(base_url=b.url, timeout=WAIT)
    made = one.post("/races", data={"kind": "freecell", "deal": "1"})
    race = made.headers["location"]
    assert two.post(f"{race}/join").status_code == 303
    assert one.post(f"{race}/start").status_code == 303
    watcher = Stream(f"{b.url}{race}/events")  # served by worker B
    watcher.wait_for(lambda name, data: name == "racers")
    game = own_game(one, race)
    assert one.post(f"{game}/actions", data={"action": "3a", "version": "0"}).status_code == 303
    rows = watcher.wait_for(lambda name, data: name == "racers" and moves_of(data) == [1, 0])
    assert "watch anonymous 1" in rows

    # Worker A dies mid-race: nothing is lost; the race goes on through worker B.
    a.kill()
    (theirs,) = re.findall(r'href="(/games/[\w-]+)"', two.get(race).text)
    assert two.post(f"{theirs}/actions", data={"action": "6a", "version": "0"}).status_code == 303
    watcher.wait_for(lambda name, data: name == "racers" and moves_of(data) == [1, 1])
    assert version_of(two, game) == 1  # racer one's game, as stored, on the worker left
    late = Stream(f"{b.url}{race}/events")  # a page that reconnects reads the same rows
    late.wait_for(lambda name, data: name == "racers" and moves_of(data) == [1, 1])


def test_moves_reach_a_watcher_and_each_change_is_said_once(
    start_server: Callable[..., Server],
) -> None:
    """One worker on SQLite, as the bench runs it: a watcher's stream gets every move
    (written straight on, its task asleep) and hears each standing's change once."""
    server = start_server()
    one = httpx.Client(base_url=server.url, timeout=WAIT)
    two = httpx.Client(base_url=server.url, timeout=WAIT)
    race = one.post("/races", data={"kind": "freecell", "deal": "1"}).headers["location"]
    assert two.post(f"{race}/join").status_code == 303
    assert one.post(f"{race}/start").status_code == 303
    watcher = Stream(f"{server.url}{race}/events")
    watcher.wait_for(lambda name, data: name == "racers")
    game = own_game(one, race)
    (theirs,) = re.findall(r'href="(/games/[\w-]+)"', two.get(race).text)
    for version in range(6):
        action = "6a" if version % 2 == 0 else "undo"
        answer = one.post(f"{game}/actions", data={"action": action, "version": str(version)})
        assert answer.status_code == 303
    watcher.wait_for(lambda name, data: name == "racers" and 'data-version="6"' in data)
    resigned = two.post(f"{theirs}/actions", data={"action": "resign", "version": "0"})
    assert resigned.status_code == 303
    gave_up = watcher.wait_for(lambda name, data: name == "said" and "given up" in data)
    assert gave_up == "anonymous 2 has given up."
    resigned = one.post(f"{game}/actions", data={"action": "resign", "version": "6"})
    assert resigned.status_code == 303
    said = []
    while (found := watcher.events.get(timeout=WAIT))[0] != "end":
        if found[0] == "said":
            said.append(found[1])
    assert said == ["anonymous 1 has given up. The race is over."]  # each change said once


def read_until(url: str, last: str, headers: dict[str, str] | None = None) -> str:
    """A stream's text from its start to the line ``last`` (then the stream is left)."""
    lines = []
    with httpx.stream("GET", url, headers=headers or {}, timeout=WAIT) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            lines.append(line)
            if line == last:
                break
    return "\n".join(lines)


def test_a_reconnecting_page_gets_the_whole_race_at_once_on_any_server(
    start_server: Callable[..., Server],
) -> None:
    """A browser's EventSource reconnects (with its Last-Event-ID, or a fresh one with
    the state its page shows): the table, every board and the state it missed come at
    once, with the retry and each event's id."""
    server = start_server()
    one = httpx.Client(base_url=server.url, timeout=WAIT)
    two = httpx.Client(base_url=server.url, timeout=WAIT)
    race = one.post("/races", data={"kind": "freecell", "deal": "1"}).headers["location"]
    assert two.post(f"{race}/join").status_code == 303
    assert one.post(f"{race}/start").status_code == 303
    game = own_game(one, race)
    assert one.post(f"{game}/actions", data={"action": "3a", "version": "0"}).status_code == 303
    events = f"{server.url}{race}/events"
    for headers, url in (({"Last-Event-ID": "lobby.2"}, events), ({}, events + "?state=lobby")):
        text = read_until(url, "event: board-2", headers)
        assert text.startswith("retry: 1000\n")
        assert "event: state\ndata: running" in text  # the page asks for its part again
        assert re.search(r"event: racers\nid: running\.\d+\n", text)
        assert moves_of(text) == [1, 0] and "event: board-1" in text
    fresh = read_until(events + "?state=running", "event: board-2")
    assert "event: state" not in fresh  # the page shows the race as it is


def test_moves_go_on_while_streams_hold_every_place_they_may(
    site: Callable[..., Site],  # noqa: F811 (the fixture)
) -> None:
    """Streams never take the connections a move needs: at their cap (MAX_CONNECTIONS
    less its reserve) one more is refused, and moves are answered."""
    found = site(MAX_CONNECTIONS="40", RACE_STREAMS_PER_ADDRESS="0")
    racer = httpx.Client(base_url=found.url, timeout=WAIT)
    race = racer.post("/races", data={"kind": "freecell", "deal": "1"}).headers["location"]
    assert racer.post(f"{race}/start").status_code == 303
    game = own_game(racer, race)
    streams = [Stream(f"{found.url}{race}/events") for _ in range(30)]  # 40 less 10
    for stream in streams:
        stream.wait_for(lambda name, data: name == "racers")
    refused = httpx.get(f"{found.url}{race}/events", timeout=WAIT)
    assert refused.status_code == 503 and "Retry-After" in refused.headers
    for version in range(6):
        action = "6a" if version % 2 == 0 else "undo"
        answer = racer.post(f"{game}/actions", data={"action": action, "version": str(version)})
        assert answer.status_code == 303
    for stream in streams:
        stream.wait_for(lambda name, data: name == "racers" and 'data-version="6"' in data)


def test_a_stopping_server_ends_its_streams_before_draining(
    start_server: Callable[..., Server],
) -> None:
    """SIGTERM: the server's open streams end at once (their pages reconnect to another
    server after the stream's retry), so the server drains and exits; without it, uvicorn
    (no grace set here) would wait for the streams for as long as their clients stay."""
    server = start_server()
    one = httpx.Client(base_url=server.url, timeout=WAIT)
    race = one.post("/races", data={"kind": "freecell", "deal": "1"}).headers["location"]
    stream = Stream(f"{server.url}{race}/events")
    stream.wait_for(lambda name, _: name == "racers")
    os.killpg(server.process.pid, signal.SIGTERM)
    started = time.monotonic()
    server.process.wait(WAIT / 2)  # well before the stream's own client would give up
    stream.thread.join(WAIT / 2)
    assert not stream.thread.is_alive()
    assert time.monotonic() - started < WAIT / 2
