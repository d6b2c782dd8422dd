"""How the site is served: the process tuned for it (its garbage collector and log records),
and uvicorn's HTTP protocol with a deadline for reading each request.

Uvicorn closes idle keep-alive connections but waits without end for a request that
arrives a byte at a time, so slow clients could hold connections (and file descriptors)
until the server has none left. Here a connection must deliver a whole request, headers
and body, within ``read_seconds`` of opening or of the previous response; else it is closed.
A production deployment also puts a reverse proxy in front (see the README).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
from typing import Any, ClassVar, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

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


class TimedH11Protocol(H11Protocol):
    read_seconds: ClassVar[float] = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        no_delay(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

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
        self._deadline = self.loop.call_later(self.read_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.conn.their_state not in RECEIVED:
            self.transport.close()
