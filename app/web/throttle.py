"""Rate limits per player and per address, for each kind of request that costs the site.

- ``action``: moves, generous enough for the fastest play (a person plays a few a second);
- ``search``: hints, "Still winnable?" and solutions, which run the solver;
- ``new_game``: new games (each one a row, and a new player for a browser without one);
- ``replay``: replays and the history export, whose cost grows with a game's history,
  however bounded each answer is (the position export reads one row: not counted);
- ``write``: the other writes, each a row or a row changed: watch links made and
  revoked, display names kept (a person does a few a minute);
- ``player``: players made (a row each), for a browser without a cookie that has
  something to be remembered (per address: such a browser has no player yet).

Counts live in each server process's memory by default (a moving window), so with W worker
processes a limit is up to W times higher. Set ``RATE_LIMIT_STORAGE`` to a Redis or Valkey
URL (``redis://host:6379``) and every process and server counts in one place. While that
store does not answer (Redis restarting, the network between), each process counts in its
own memory again, as without it, and asks the store again every
:data:`STORE_RETRY_SECONDS`: play goes on, limited as on one server.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Final, Literal

from fastapi import Request
from limits import RateLimitItem, parse
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from limits.util import WindowStats

from app.config import Settings
from app.web.players import current_player

Cost = Literal["action", "search", "new_game", "replay", "write", "player"]
logger = logging.getLogger("solitaire.throttle")


STORE_RETRY_SECONDS: Final = 2.0
"""Seconds the limits count in this process's memory after the shared store failed to
answer, before it is asked again (one slow failure every so often, not one a request)."""

STORE_TIMEOUT_SECONDS: Final = 0.5
"""How long a request waits for the shared store to answer (or to connect) before it
counts in memory instead."""


class TooManyRequests(Exception):
    """Too many requests in a short time from one player or one address."""

    def __init__(self, retry_after: int, cost: Cost = "action") -> None:
        super().__init__("too many requests at once")
        self.retry_after = retry_after
        self.cost = cost


class LocalWindows:
    """Moving windows counted in this process's memory (the default store).

    ``limits``' own memory store starts a timer thread every 10 ms while requests come in,
    and each one walks every key: a thread start a few requests, and a cost that grows with
    the number of players. Here each key keeps the times of its hits in its window; a hit
    drops the ones that left it, and now and then the keys with none left are let go.
    """

    SWEEP_EVERY: Final = 60.0
    """Seconds between two passes letting go of keys whose window is empty."""

    def __init__(self) -> None:
        self._hits: dict[str, tuple[float, deque[float]]] = {}
        self._lock = threading.Lock()
        self._swept = time.monotonic()

    def hit(self, item: RateLimitItem, key: str) -> bool:
        now = time.monotonic()
        window = float(item.get_expiry())
        with self._lock:
            if now - self._swept > self.SWEEP_EVERY:
                self._sweep(now)
            kept = self._hits.get(key)
            if kept is None:
                kept = self._hits[key] = (window, deque())
            hits = kept[1]
            while hits and hits[0] <= now - window:
                hits.popleft()
            if len(hits) >= item.amount:
                return False
            hits.append(now)
            return True

    def get_window_stats(self, item: RateLimitItem, key: str) -> WindowStats:
        """When the oldest hit in the window leaves it (seconds since the epoch), and how
        many hits are left until then."""
        now = time.monotonic()
        window = float(item.get_expiry())
        with self._lock:
            _window, hits = self._hits.get(key, (window, deque()))
            live = [at for at in hits if at > now - window]
        leaves = (live[0] + window - now) if live else 0.0
        return WindowStats(time.time() + leaves, max(0, item.amount - len(live)))

    def _sweep(self, now: float) -> None:
        self._swept = now
        for key, (window, hits) in list(self._hits.items()):
            if not hits or hits[-1] <= now - window:
                del self._hits[key]


class Throttle:
    def __init__(self, settings: Settings) -> None:
        url = settings.rate_limit_storage
        self.shared = MovingWindowRateLimiter(_storage(url)) if url else None
        self.local = LocalWindows()
        """Where the limits count without a shared store, or while it does not answer."""
        self._store_away_until = 0.0
        self.refusal_delay = settings.rate_limit_refusal_delay
        self.limits: dict[Cost, tuple[RateLimitItem, RateLimitItem]] = {
            "action": (parse(settings.rate_limit_player), parse(settings.rate_limit_address)),
            "search": (
                parse(settings.rate_limit_search_player),
                parse(settings.rate_limit_search_address),
            ),
            "new_game": (
                parse(settings.rate_limit_new_game_player),
                parse(settings.rate_limit_new_game_address),
            ),
            "replay": (
                parse(settings.rate_limit_replay_player),
                parse(settings.rate_limit_replay_address),
            ),
            "write": (
                parse(settings.rate_limit_write_player),
                parse(settings.rate_limit_write_address),
            ),
            "player": (
                parse(settings.rate_limit_new_player_address),
                parse(settings.rate_limit_new_player_address),
            ),
        }

    def check(self, request: Request, player: str | None, cost: Cost = "action") -> None:
        per_player, per_address = self.limits[cost]
        address = request.client.host if request.client else "unknown"
        keys = [(per_address, f"{cost}:address:{address}")]
        if player:
            keys.append((per_player, f"{cost}:player:{player}"))
        for item, key in keys:
            limiter = self._limiter()
            try:
                allowed = limiter.hit(item, key)
            except Exception:  # the shared store is away: count here meanwhile, and say so
                self._store_away()
                limiter = self.local
                allowed = limiter.hit(item, key)
            if not allowed:
                try:
                    reset = limiter.get_window_stats(item, key).reset_time
                except Exception:
                    self._store_away()
                    reset = time.time() + 1
                raise TooManyRequests(max(1, int(reset - time.time()) + 1), cost)

    def _limiter(self) -> LocalWindows | MovingWindowRateLimiter:
        """The shared store, unless there is none or it failed in the last
        :data:`STORE_RETRY_SECONDS`; else this process's memory."""
        if self.shared is None or time.monotonic() < self._store_away_until:
            return self.local
        if self._store_away_until:
            self._store_away_until = 0.0
            logger.warning("rate limits count in the shared store again")
        return self.shared

    def _store_away(self) -> None:
        if not self._store_away_until:
            logger.warning(
                "rate limits count in this process's memory: the shared store did not answer",
                exc_info=True,
            )
        self._store_away_until = time.monotonic() + STORE_RETRY_SECONDS


def limited(
    cost: Cost, when: str | None = None, unless: str | None = None
) -> Callable[[Request], Awaitable[None]]:
    """A route dependency that counts the request against ``cost``'s limits (only when the
    query has ``when``, and not when it has ``unless``, if given); a refusal answers 429
    after ``RATE_LIMIT_REFUSAL_DELAY`` seconds."""

    async def check(request: Request) -> None:
        if when is not None and not request.query_params.get(when):
            return
        if unless is not None and unless in request.query_params:
            return
        throttle: Throttle = request.app.state.throttle
        try:
            throttle.check(request, current_player(request), cost)
        except TooManyRequests:
            await asyncio.sleep(throttle.refusal_delay)
            raise

    return check


def _storage(url: str) -> Storage:
    options: dict[str, float] = {}
    if url.startswith(("redis://", "rediss://", "valkey://", "valkeys://")):
        # Never wait long on the store: past this, the request counts in memory instead.
        options = {
            "socket_timeout": STORE_TIMEOUT_SECONDS,
            "socket_connect_timeout": STORE_TIMEOUT_SECONDS,
        }
    storage = storage_from_string(url, **options)
    if not isinstance(storage, Storage):
        raise ValueError(f"RATE_LIMIT_STORAGE must name a synchronous store, not {url!r}")
    return storage
