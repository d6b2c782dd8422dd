"""A rolling restart: each app server in turn stopped (SIGTERM: it finishes the requests
under way), waited for, started again and waited for at the proxy, while moves go on
through the proxy: not one of them fails."""

from __future__ import annotations

import time

import pytest

from app.cluster import Cluster
from tests.cluster.clients import Racing, new_games, stored_version

pytestmark = pytest.mark.heavy


def test_a_rolling_restart_fails_no_request(cluster: Cluster) -> None:
    games = new_games(cluster.url, 4)
    with Racing(games) as racing:
        time.sleep(0.5)
        for name in cluster.app_names:
            before = racing.moves()
            cluster.restart(name)  # SIGTERM, wait for the exit, start, wait until UP
            assert racing.moves() > before, f"no move was answered while {name} restarted"
        time.sleep(0.5)
    assert racing.failures == []
    assert racing.moves() > 0
    for racer in racing.racers:
        assert stored_version(racer.client, racer.game) == racer.acknowledged
