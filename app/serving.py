"""How the site is served: the process tuned for it (its garbage collector and log records),
the socket its workers share, and the supervisor that keeps them.

The server is uvicorn's, on its stock HTTP protocol (h11), with uvicorn's documented
settings only (``solitaire serve``): ``limit_concurrency`` (``MAX_CONNECTIONS``: a request
past it is answered 503 at once), ``timeout_keep_alive`` (an idle connection is closed after
5 s) and h11's cap on a request's head (16 KiB). What a server alone does not bound, a slow
client (one that sends its request a byte at a time, or stops taking its answer) and one
address's share of the connections, the reverse proxy in front bounds (HAProxy's ``timeout
http-request``, ``timeout client`` and a per-address connection cap: docs/deploying.md).
Nothing here reaches into the server's own modules.
"""

from __future__ import annotations

import gc
import logging
import signal
import socket
import threading
from collections.abc import Callable
from types import FrameType
from typing import Final

from uvicorn.supervisors import Multiprocess

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


def on_stop(ending: Callable[[], None]) -> None:
    """``ending`` is called (in the signal's thread: it must be thread-safe) as soon as the
    server is asked to stop (SIGTERM, SIGINT), before it drains: uvicorn waits for open
    answers before the app's lifespan ends, so long-lived ones (race streams) end here.
    The server's own handler still runs after, chained through :func:`signal.getsignal`:
    nothing of the server's is touched. Only where the server installed its handlers:
    the main thread of a serving process."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in (signal.SIGTERM, signal.SIGINT):
        before = signal.getsignal(number)
        if not callable(before) or before is signal.default_int_handler:
            continue  # no server's handler to chain: nothing serves from this thread

        def handler(
            signum: int, frame: FrameType | None, before: Callable[..., object] = before
        ) -> None:
            ending()
            before(signum, frame)

        signal.signal(number, handler)


def listening_socket(host: str, port: int) -> socket.socket:
    """The socket the workers share, made as uvicorn makes it (``SO_REUSEADDR``, passed
    on to the worker processes) but with TCP's protocol number: asyncio then turns Nagle's
    algorithm off (``TCP_NODELAY``) on each connection by itself. Made without one,
    every answer's second segment waited for the client's delayed ACK: 40 ms a request
    (p50 48 ms with two workers, at any load)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


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
