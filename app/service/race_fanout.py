"""How a race's change reaches the other server processes: one small interface
(:class:`Fanout`), three backends. All run in the event loop: no thread.

* :class:`Local`: one process (the default): a change is heard where it was announced.
* :class:`Postgres`: ``NOTIFY`` on a connection of its own (autocommit, after the move's
  commit), ``LISTEN`` on one async connection a process (psycopg's ``notifies()``).
* :class:`Redis`: pub/sub through ``redis.asyncio`` (where ``REDIS_URL`` is set): no
  ``NOTIFY`` at all, so nothing waits on PostgreSQL's commit order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("solitaire.races")

CHANNEL: Final = "solitaire_races"
Heard = Callable[[str], None]
"""Told of each race whose change was heard (its token), in the event loop."""


class Fanout(Protocol):
    async def announce(self, token: str) -> None:
        """Every process's :meth:`listen` hears ``token`` (this one's included)."""

    async def listen(self, heard: Heard) -> None:
        """Hear changes until cancelled, ``heard("")`` once listening. Raises when the
        connection breaks (the caller listens again)."""

    async def close(self) -> None: ...


class Local:
    def __init__(self) -> None:
        self.heard: Heard | None = None

    async def announce(self, token: str) -> None:
        if self.heard is not None:
            self.heard(token)

    async def listen(self, heard: Heard) -> None:
        self.heard = heard
        heard("")
        await asyncio.Future()  # until cancelled

    async def close(self) -> None:
        self.heard = None


class Postgres:
    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self.sending: psycopg.AsyncConnection[Any] | None = None

    async def announce(self, token: str) -> None:
        import psycopg

        if self.sending is None or self.sending.closed:
            self.sending = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        try:
            await self.sending.execute("SELECT pg_notify(%s, %s)", (CHANNEL, token))
        except psycopg.Error:
            await self.sending.close()  # a fresh one next time
            raise

    async def listen(self, heard: Heard) -> None:
        import psycopg

        async with await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True
        ) as connection:
            await connection.execute(f"LISTEN {CHANNEL}")
            heard("")
            async for notice in connection.notifies():
                heard(notice.payload)

    async def close(self) -> None:
        if self.sending is not None:
            await self.sending.close()


class Redis:
    def __init__(self, url: str) -> None:
        import redis.asyncio

        self.client = redis.asyncio.Redis.from_url(url)

    async def announce(self, token: str) -> None:
        await self.client.publish(CHANNEL, token)

    async def listen(self, heard: Heard) -> None:
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(CHANNEL)
            heard("")
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    data = message["data"]
                    heard(data.decode() if isinstance(data, bytes) else str(data))
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def close(self) -> None:
        await self.client.aclose()
