"""The clients of the cluster's tests and bench: racers that move through the proxy and
keep count of what was acknowledged, and watchers that read a race's event stream the way
a browser's ``EventSource`` does (it reconnects by itself after the stream's ``retry``,
sending ``Last-Event-ID``). They know the site by its HTTP only: forms, pages, and the
``text/event-stream`` lines (``event:``, ``data:``, ``id:``, ``retry:``)."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from dataclasses import dataclass, field

import httpx

HX = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"}
GAME_VERSION = re.compile(r'id="game"[^>]*data-version="(\d+)"')
RACER_ROW = re.compile(r'<tr class="racer[^"]*" data-version="(\d+)"')
GAME_LINK = re.compile(r'href="(/games/[\w-]+)"')


def start_race(url: str, racers: int) -> tuple[str, list[tuple[httpx.Client, str]]]:
    """A FreeCell race of ``racers`` players, started, its countdown over: the race's path
    and each racer's client (its own cookie) and game path."""
    clients = [httpx.Client(base_url=url, timeout=30) for _ in range(racers)]
    made = clients[0].post("/races", data={"kind": "freecell", "deal": "1"})
    assert made.status_code == 303, made.status_code
    race = made.headers["location"]
    for client in clients[1:]:
        assert client.post(f"{race}/join").status_code == 303
    assert clients[0].post(f"{race}/start").status_code == 303
    games = []
    deadline = time.monotonic() + 60
    for client in clients:
        while not (found := GAME_LINK.findall(client.get(race).text)):
            assert time.monotonic() < deadline, "the countdown did not end"
            time.sleep(0.2)
        games.append((client, found[0]))
    return race, games


def new_games(url: str, count: int) -> list[tuple[httpx.Client, str]]:
    """``count`` FreeCell games, each its own player's."""
    games = []
    for _ in range(count):
        client = httpx.Client(base_url=url, timeout=30)
        made = client.post("/games", data={"kind": "freecell", "deal": "1"})
        assert made.status_code == 303, made.status_code
        games.append((client, made.headers["location"]))
    return games


@dataclass
class Racer:
    client: httpx.Client
    game: str
    acknowledged: int = 0
    """The game's version after the last move answered 200 (its commit is done)."""
    failures: list[str] = field(default_factory=list)
    """What went wrong with each request not answered 200."""
    moves: int = 0


class Racing:
    """Racers in threads: each plays on its own game, a move and ``undo`` alternating (a
    FreeCell deal 1 game: ``6a`` is always legal there), the version from each answer."""

    def __init__(self, games: list[tuple[httpx.Client, str]]) -> None:
        self.racers = [Racer(client, game) for client, game in games]
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []

    def __enter__(self) -> Racing:
        self.stop.clear()
        self.threads = [threading.Thread(target=self._play, args=(r,)) for r in self.racers]
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(60)

    @property
    def versions(self) -> list[int]:
        return [racer.acknowledged for racer in self.racers]

    @property
    def failures(self) -> list[str]:
        return [failure for racer in self.racers for failure in racer.failures]

    def moves(self) -> int:
        return sum(racer.moves for racer in self.racers)

    def _play(self, racer: Racer) -> None:
        while not self.stop.is_set():
            action = "6a" if racer.acknowledged % 2 == 0 else "undo"
            data = {"action": action, "version": str(racer.acknowledged)}
            try:
                answer = racer.client.post(f"{racer.game}/actions", data=data, headers=HX)
            except httpx.HTTPError as error:
                racer.failures.append(f"{type(error).__name__}: {error}")
                self._catch_up(racer)
                continue
            if answer.status_code == 200:
                racer.acknowledged += 1
                racer.moves += 1
            else:
                racer.failures.append(f"{answer.status_code} {answer.text[:200]!r}")
                self._catch_up(racer)

    def _catch_up(self, racer: Racer) -> None:
        """The game's version as stored (a move not answered may have been stored)."""
        while not self.stop.is_set():
            version = stored_version(racer.client, racer.game)
            if version is not None:
                racer.acknowledged = version
                return
            time.sleep(0.05)


def stored_version(client: httpx.Client, game: str) -> int | None:
    """The game's version as its page shows it (read from the database); None when the
    page did not come."""
    try:
        page = client.get(game)
    except httpx.HTTPError:
        return None
    found = GAME_VERSION.search(page.text) if page.status_code == 200 else None
    return int(found.group(1)) if found else None


@dataclass
class Watcher:
    connections: int = 0
    """Streams opened (1: never reconnected)."""
    versions: list[int] = field(default_factory=list)
    """The racers' versions in the last ``racers`` event read, sorted."""
    seen_at: float = 0.0
    last_id: str | None = None
    retry_ms: int = 3000
    """EventSource's default until the stream says otherwise."""
    dropped_at: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class Watchers:
    """``count`` pages watching ``url``'s event stream, in a thread with its own event loop,
    each reconnecting as a browser's ``EventSource`` does."""

    def __init__(self, url: str, path: str, count: int) -> None:
        self.url, self.path = url, path
        self.watchers = [Watcher() for _ in range(count)]
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._opened = threading.Event()

    def __enter__(self) -> Watchers:
        self._thread.start()
        assert self._opened.wait(60), "the streams did not open"
        return self

    def __exit__(self, *_: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    def all_show(self, versions: list[int], within: float) -> list[Watcher]:
        """Wait until every watcher's last ``racers`` event shows ``versions``; the ones
        that did not within ``within`` seconds."""
        wanted = sorted(versions)
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if all(watcher.versions == wanted for watcher in self.watchers):
                return []
            time.sleep(0.02)
        return [watcher for watcher in self.watchers if watcher.versions != wanted]

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
        timeout = httpx.Timeout(30, read=None)
        async with httpx.AsyncClient(base_url=self.url, limits=limits, timeout=timeout) as http:
            tasks = [asyncio.create_task(self._watch(http, w)) for w in self.watchers]
            while sum(w.connections > 0 and bool(w.versions) for w in self.watchers) < len(
                self.watchers
            ):
                await asyncio.sleep(0.05)
            self._opened.set()
            await self._stop.wait()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _watch(self, http: httpx.AsyncClient, watcher: Watcher) -> None:
        while True:
            headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
            if watcher.last_id is not None:
                headers["Last-Event-ID"] = watcher.last_id
            try:
                async with http.stream("GET", self.path, headers=headers) as stream:
                    if stream.status_code != 200 or not stream.headers.get(
                        "content-type", ""
                    ).startswith("text/event-stream"):
                        watcher.errors.append(f"status {stream.status_code}")
                    else:
                        watcher.connections += 1
                        await self._read(stream, watcher)
            except (httpx.HTTPError, OSError) as error:
                watcher.errors.append(type(error).__name__)
            watcher.dropped_at.append(time.monotonic())
            await asyncio.sleep(watcher.retry_ms / 1000)

    @staticmethod
    async def _read(stream: httpx.Response, watcher: Watcher) -> None:
        """The stream's events as EventSource reads them, until it ends."""
        name, data = "message", []
        async for line in stream.aiter_lines():
            if not line:
                if name == "racers" and data:
                    rows = RACER_ROW.findall("\n".join(data))
                    watcher.versions = sorted(int(version) for version in rows)
                    watcher.seen_at = time.monotonic()
                name, data = "message", []
                continue
            field_name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field_name == "event":
                name = value
            elif field_name == "data":
                data.append(value)
            elif field_name == "id":
                watcher.last_id = value
            elif field_name == "retry" and value.isdecimal():
                watcher.retry_ms = int(value)
