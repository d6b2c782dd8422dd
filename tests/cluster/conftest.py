"""One cluster for these tests (app/cluster.py: PostgreSQL, Redis, three app servers and
HAProxy, each its own process, in a temporary folder); each test finds every process
running at its start, whatever the test before it stopped."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cluster import Cluster, free_port
from tests.postgres import binaries

FAST = "1000000/second"
TEST_SETTINGS = {
    # The tests' clients all come from one address and play far faster than people.
    **{
        f"RATE_LIMIT_{cost}{who}": FAST
        for cost in ("", "SEARCH_", "NEW_GAME_", "REPLAY_", "WRITE_", "NEW_PLAYER_")
        for who in ("PLAYER", "ADDRESS")
    },
    "RACE_STREAMS_PER_ADDRESS": "0",
}


def missing() -> str | None:
    if binaries() is None:
        return "no PostgreSQL (make postgres)"
    if shutil.which("redis-server") is None and shutil.which("valkey-server") is None:
        return "no redis-server (make redis)"
    if shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists():
        return "no haproxy (make haproxy)"
    return None


@pytest.fixture(scope="package")  # ended before the other heavy tests run
def whole_cluster() -> Iterator[Cluster]:
    reason = missing()
    if reason is not None:
        pytest.skip(f"the cluster's lane: {reason}")
    folder = Path(tempfile.mkdtemp(prefix="solitaire-cluster-"))
    cluster = Cluster(
        folder=folder,
        proxy_port=free_port(),
        per_address=1000,
        env=TEST_SETTINGS,
        postgres_options="-c fsync=off -c max_connections=200",
    )
    try:
        cluster.up()
        yield cluster
    finally:
        cluster.down()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def cluster(whole_cluster: Cluster) -> Cluster:
    """The cluster, every process of it running and every app server up at the proxy."""
    whole_cluster.up()
    return whole_cluster
