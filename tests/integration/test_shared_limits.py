"""Several server processes count rate limits in one shared store (Redis or Valkey), so
N processes allow the limit once, not N times."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from tests.conftest import SKIPPED_LANES
from tests.integration.conftest import Server

LIMIT = 4
TRIES = 16


def new_games(server: Server) -> list[int]:
    statuses = []
    for _ in range(TRIES):  # a connection each: the requests spread over the workers
        with httpx.Client(base_url=server.url, timeout=10) as client:
            statuses.append(client.post("/games", data={"kind": "montana"}).status_code)
    return statuses


def test_two_workers_share_one_limit_in_the_shared_store(
    start_server: Callable[..., Server], redis_url: str | None
) -> None:
    if redis_url is None:
        pytest.skip("shared rate-limit lane skipped: " + "; ".join(SKIPPED_LANES))
    server = start_server(
        workers=2,
        RATE_LIMIT_STORAGE=redis_url,
        RATE_LIMIT_NEW_GAME_ADDRESS=f"{LIMIT}/minute",
        RATE_LIMIT_NEW_GAME_PLAYER="1000/minute",
    )
    statuses = new_games(server)
    assert statuses.count(303) == LIMIT
    assert statuses.count(429) == TRIES - LIMIT


def test_without_a_shared_store_each_worker_counts_alone(
    start_server: Callable[..., Server],
) -> None:
    """What the shared store is for: here two workers let more through than the limit."""
    server = start_server(
        workers=2,
        RATE_LIMIT_NEW_GAME_ADDRESS=f"{LIMIT}/minute",
        RATE_LIMIT_NEW_GAME_PLAYER="1000/minute",
    )
    statuses = new_games(server)
    assert LIMIT <= statuses.count(303) <= 2 * LIMIT
