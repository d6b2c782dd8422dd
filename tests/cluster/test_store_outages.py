"""The shared parts away for a while: PostgreSQL restarted (a moment's clear "try again",
never a 500, and the site back without restarting the app servers), Redis down for ten
seconds (moves and pages go on; races' live changes come back with it)."""

from __future__ import annotations

import signal
import threading
import time
from collections import Counter

import httpx
import pytest

from app.cluster import Cluster
from tests.cluster.clients import (
    HX,
    Racing,
    Watchers,
    new_games,
    start_race,
    stored_version,
)

pytestmark = pytest.mark.heavy

TRY_AGAIN = {"en": "Try again soon", "hi": "थोड़ी देर में फिर से कोशिश करें"}


class Asking:
    """A thread asking the site, as players do, a page and a move in turn; each answer's
    status, and what each answer not 200 said."""

    def __init__(self, url: str, language: str) -> None:
        self.client = httpx.Client(base_url=url, timeout=30, headers={"Accept-Language": language})
        made = self.client.post("/games", data={"kind": "freecell", "deal": "1"})
        assert made.status_code == 303
        self.game = made.headers["location"]
        self.language = language
        self.statuses: Counter[int] = Counter()
        self.refusals: list[tuple[int, str | None, str]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._ask)

    def __enter__(self) -> Asking:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(60)

    def _ask(self) -> None:
        version = 0
        while not self.stop.is_set():
            for request in ("page", "move"):
                try:
                    if request == "page":
                        answer = self.client.get(self.game)
                    else:
                        data = {"action": "6a" if version % 2 == 0 else "undo",
                                "version": str(version)}  # fmt: skip
                        answer = self.client.post(f"{self.game}/actions", data=data, headers=HX)
                except httpx.HTTPError as error:
                    self.refusals.append((0, None, repr(error)))
                    continue
                self.statuses[answer.status_code] += 1
                if answer.status_code == 200 and request == "move":
                    version += 1
                elif answer.status_code != 200:
                    self.refusals.append(
                        (answer.status_code, answer.headers.get("retry-after"), answer.text)
                    )
                    found = stored_version(self.client, self.game)
                    version = found if found is not None else version
            time.sleep(0.01)


def test_postgres_restarted_answers_try_again_then_recovers(cluster: Cluster) -> None:
    server = f"http://127.0.0.1:{cluster.ports['app-1']}"  # one server, not the proxy
    site = {"Host": f"127.0.0.1:{cluster.proxy_port}"}  # the host the servers serve
    with Asking(cluster.url, "en") as english, Asking(cluster.url, "hi") as hindi:
        time.sleep(0.5)
        cluster.stop("postgres")
        down = time.monotonic()
        assert httpx.get(f"{server}/health", headers=site, timeout=10).status_code == 503
        while time.monotonic() - down < 2.0:  # the proxy has taken every server out
            time.sleep(0.05)
        during = english.statuses[503] + hindi.statuses[503]
        cluster.start("postgres")
        cluster.wait_until_up(*cluster.app_names, within=15)
        served = english.statuses[200] + hindi.statuses[200]
        deadline = time.monotonic() + 15
        while english.statuses[200] + hindi.statuses[200] < served + 4:
            assert time.monotonic() < deadline, "the site did not come back"
            time.sleep(0.05)
    assert httpx.get(f"{server}/health", headers=site, timeout=10).text == "ok"
    assert during > 0, "no request came while the database was away"
    for asking in (english, hindi):
        assert set(asking.statuses) <= {200, 503}, asking.statuses
        for status, retry_after, text in asking.refusals:
            assert status == 503, (status, text[:300])
            assert retry_after is not None and retry_after.isdecimal()
            assert TRY_AGAIN[asking.language] in text


def test_redis_down_for_ten_seconds(cluster: Cluster) -> None:
    race, games = start_race(cluster.url, 2)
    with Watchers(cluster.url, f"{race}/events", 6) as watchers:
        with Racing(games) as racing:
            time.sleep(0.3)
            cluster.stop("redis", how=signal.SIGKILL)
            away = time.monotonic()
            pages = new_games(cluster.url, 1)[0]
            while time.monotonic() - away < 10.0:
                assert pages[0].get(pages[1]).status_code == 200
                assert pages[0].get("/").status_code == 200
                time.sleep(0.1)
            during = racing.moves()
            cluster.start("redis")
            time.sleep(1.0)
        assert racing.failures == []
        assert during > 0
        # The race's live changes reach every page again, whichever server it is on.
        with Racing(games) as racing:
            time.sleep(0.5)
        missed = watchers.all_show(racing.versions, within=5.0)
        assert not missed, f"{len(missed)} pages missed the race's changes after Redis came back"
    for racer in racing.racers:
        assert stored_version(racer.client, racer.game) == racer.acknowledged
