"""A rolling restart: each app server in turn drained at the proxy, stopped (SIGTERM: it
finishes the requests under way, and its event streams end within its graceful shutdown),
waited for, started again and waited for at the proxy, while moves go on through the
proxy: not one of them fails, and the pages watching a race follow it throughout."""

from __future__ import annotations

import time

import pytest

from app.cluster import Cluster
from tests.cluster.clients import Racing, Watchers, new_games, start_race, stored_version

pytestmark = pytest.mark.heavy


def test_a_rolling_restart_fails_no_request(cluster: Cluster) -> None:
    race, racers = start_race(cluster.url, 2)
    games = new_games(cluster.url, 2) + racers
    with Watchers(cluster.url, f"{race}/events", 6) as watchers:
        with Racing(games) as racing:
            time.sleep(0.5)
            for name in cluster.app_names:
                before = racing.moves()
                stopping = time.monotonic()
                cluster.restart(name)  # drain, SIGTERM, wait for the exit, start, wait until UP
                took = time.monotonic() - stopping
                assert racing.moves() > before, f"no move was answered while {name} restarted"
                print(f"{name} restarted in {took:.1f} s")
            time.sleep(0.5)
        assert racing.failures == []
        assert racing.moves() > 0
        missed = watchers.all_show([r.acknowledged for r in racing.racers[2:]], within=5.0)
        assert not missed, f"{len(missed)} pages lost the race in the restarts"
        assert sum(w.connections > 1 for w in watchers.watchers) >= 2  # streams cut, reconnected
    for racer in racing.racers:
        assert stored_version(racer.client, racer.game) == racer.acknowledged
