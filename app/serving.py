"""How the site is served: the process tuned for it (its garbage collector and log records),
and uvicorn's HTTP protocol with deadlines and a cap per address.

Uvicorn closes idle keep-alive connections but waits without end for a request that
arrives a byte at a time, or for a client that never reads its answer, so slow clients
could hold connections (and file descriptors, and the answers' memory) until the server
has none left. Here:

- a connection must deliver a whole request, headers and body, within
  ``REQUEST_READ_SECONDS`` of opening or of the previous response; else it is closed;
- an answer the client stops taking (the socket's buffer full for ``RESPONSE_WRITE_SECONDS``
  on end) is cut off;
- one address holds at most ``MAX_CONNECTIONS_PER_ADDRESS`` connections at once (the
  proxies named in ``FORWARDED_ALLOW_IPS`` excepted): one more is answered 503 and closed,
  so one address cannot take all of ``MAX_CONNECTIONS`` from everyone else.

A production deployment also puts a reverse proxy in front (see the README). The protocol
reads the settings in each worker process itself (a spawned worker does not inherit what
the parent set on the class).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
from collections import Counter
from typing import Any, ClassVar, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.supervisors import Multiprocess

from app.config import get_settings

GC_THRESHOLDS: Final = (20_000, 50, 100)


def tune_for_serving() -> None:
    """The process tuned for serving; called once the site is made. The in-process bench
    (bench/move_latency.py) serves the same way; the tests and the command line keep
    Python's defaults.

    - The garbage collector: everything made at start-up (modules, routes, templates,
      catalogues) is frozen out of its scans, and the young generation is collected every
      20,000 allocations instead of 700, so a full collection comes rarely and walks only
      what requests made. Under load the moves' p99 went from 66 ms to 43 ms (README).
    - Log records (one a request, the access log) skip what the log's format never shows:
      the calling frame, and the thread's and processes' names (the last looked up through
      multiprocessing, which the solvers load). The logging HOWTO's own optimisations.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    logging._srcfile = None  # the documented switch: no lookup of the calling frame
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


RECEIVED: tuple[type[h11._util.Sentinel], ...] = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Send each answer at once (``TCP_NODELAY``).

    asyncio sets it only on sockets whose protocol number says TCP; with ``--workers`` the
    listening socket uvicorn shares is made without one, so its connections kept Nagle's
    algorithm, and the answer's second segment waited for the client's delayed ACK: 40 ms
    on every request (p50 48 ms with two workers, at any load).
    """
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # the connection may already be gone
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


BUSY: Final = (
    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n"
    b"Content-Length: 0\r\n\r\n"
)
"""The answer to one connection too many from an address: no words (it comes before the
request is read, so before its language is known); the browser says it in the reader's."""


class TimedH11Protocol(H11Protocol):
    read_seconds: ClassVar[float | None] = None
    """None: from the settings (``REQUEST_READ_SECONDS``), read once per process."""
    write_seconds: ClassVar[float] = 30.0
    per_address: ClassVar[int] = 0
    trusted: ClassVar[frozenset[str]] = frozenset()
    open_from: ClassVar[Counter[str]] = Counter()
    """Connections open now per peer address, in this process."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # uvicorn's own, passed on
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._stalled: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        if TimedH11Protocol.read_seconds is None:
            settings = get_settings()
            TimedH11Protocol.read_seconds = settings.request_read_seconds
            TimedH11Protocol.write_seconds = settings.response_write_seconds
            TimedH11Protocol.per_address = settings.max_connections_per_address
            TimedH11Protocol.trusted = frozenset(
                part.strip() for part in settings.forwarded_allow_ips.split(",") if part.strip()
            )

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        no_delay(transport)
        peer = self.client[0] if self.client else None
        if peer is not None and peer not in self.trusted and "*" not in self.trusted:
            if self.per_address and self.open_from[peer] >= self.per_address:
                transport.write(BUSY)
                transport.close()
                return
            self.open_from[peer] += 1
            self._counted = peer
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._stalled is not None:
            self._stalled.cancel()
        if self._counted is not None:
            self.open_from[self._counted] -= 1
            if self.open_from[self._counted] <= 0:
                del self.open_from[self._counted]
            self._counted = None
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The client is not taking the answer as fast as it comes: it has
        ``write_seconds`` to take some before the connection is cut."""
        super().pause_writing()
        if self._stalled is None:
            self._stalled = self.loop.call_later(self.write_seconds, self._not_reading)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None

    def _not_reading(self) -> None:
        self._stalled = None
        self.transport.abort()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state in RECEIVED:
            self._disarm()  # the request is in: the answer may take its time

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets the same deadline

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_seconds or 10.0, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.conn.their_state not in RECEIVED:
            self.transport.close()


logger = logging.getLogger("solitaire.serve")


class Supervisor(Multiprocess):
    """Uvicorn's supervisor of worker processes, run even for one worker: every half
    second it replaces a worker that died or stopped answering its health check; here a
    death is logged with how the worker ended."""

    def keep_subprocess_alive(self) -> None:
        before = list(self.processes)
        super().keep_subprocess_alive()
        for process in before:
            if process not in self.processes:
                code = process.exitcode
                how = f"signal {-code}" if code is not None and code < 0 else f"exit {code}"
                logger.error("worker %s died (%s): another is starting", process.pid, how)
