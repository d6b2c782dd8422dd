"""Rate limits on actions, per player and per address, generous enough for the fastest play.

A person plays a few moves a second at most; the limits stop scripts hammering the server.
Counts are kept in each server process's memory (a moving window), so with W worker
processes the effective limit is up to W times higher: they are a guard, not a quota.
"""

from __future__ import annotations

import time

from fastapi import Request
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


class TooManyRequests(Exception):
    """Too many actions in a short time from one player or one address."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("too many moves at once")
        self.retry_after = retry_after


class Throttle:
    def __init__(self, per_player: str, per_address: str) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.per_player: RateLimitItem = parse(per_player)
        self.per_address: RateLimitItem = parse(per_address)

    def check(self, request: Request, player: str | None) -> None:
        address = request.client.host if request.client else "unknown"
        keys = [(self.per_address, f"address:{address}")]
        if player:
            keys.append((self.per_player, f"player:{player}"))
        for item, key in keys:
            if not self.limiter.hit(item, key):
                reset = self.limiter.get_window_stats(item, key).reset_time
                raise TooManyRequests(max(1, int(reset - time.time()) + 1))
