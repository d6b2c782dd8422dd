"""Logging that never makes a request wait for its log line, nor wake a thread for it.

``solitaire serve`` logs every request (:mod:`app.web.access_log`) from the event loop. A
``StreamHandler`` formats the line and writes it to stderr there, under a lock: a write
to a slow pipe (a journal, a terminal scrolled back) would stall every request of the
worker. The standard library's ``QueueHandler`` and ``QueueListener`` take the write
away, but wake their thread for every line: under load that thread then takes the
interpreter's lock from the event loop once a request, and a move cost 130 µs more with
the access log than without it (``bench/load.py``, a twelfth of a move's server time).

Here a record is appended to a bounded buffer and nothing is woken: a thread of the
handler's own formats and writes what has gathered every :data:`INTERVAL` seconds, in one
write. Lines reach stderr at most that much later; the records of one process stay in
order; a stream that takes nothing (a pipe nobody reads) holds at most :data:`LIMIT`
records, and those past it are counted and said to be lost, never buffered.
"""

from __future__ import annotations

import atexit
import logging
import sys
import threading
from collections import deque
from typing import Final, TextIO

INTERVAL: Final = 0.05
"""Seconds between the writer's rounds."""

LIMIT: Final = 10_000
"""Records waiting to be written, at most (a few MiB): more are dropped and counted."""


class BackgroundStderr(logging.Handler):
    """Records to a buffer; every :data:`INTERVAL`, a thread writes them, formatted, to
    ``stream`` (stderr). Lines still waiting when the process is killed outright
    (``kill -9``) are lost; on any other exit they are written first."""

    def __init__(self, stream: TextIO | None = None, interval: float = INTERVAL) -> None:
        super().__init__()
        self.stream = stream or sys.stderr
        self.interval = interval
        self.waiting: deque[logging.LogRecord] = deque()
        self.dropped = 0
        self.stopping = threading.Event()
        self.writer = threading.Thread(target=self._write_rounds, name="log-writer", daemon=True)
        self.writer.start()
        atexit.register(self._stop)

    def handle(self, record: logging.LogRecord) -> bool:
        """Filtered, then appended: no lock (a deque's append is atomic), no wake-up."""
        if not self.filter(record):
            return False
        self.emit(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.waiting) >= LIMIT:
            self.dropped += 1
            return
        self.waiting.append(record)

    def _write_rounds(self) -> None:
        while not self.stopping.wait(self.interval):
            self._write_waiting()
        self._write_waiting()

    def _write_waiting(self) -> None:
        lines = []
        while self.waiting:
            record = self.waiting.popleft()
            try:
                lines.append(self.format(record) + "\n")
            except Exception:
                self.handleError(record)
        if self.dropped:
            dropped, self.dropped = self.dropped, 0
            lines.append(f"{dropped} log records were dropped: stderr took nothing for a while\n")
        if lines:
            try:
                self.stream.write("".join(lines))
                self.stream.flush()
            except Exception:  # a closed stream: the lines are lost, the site goes on
                pass

    def _stop(self) -> None:
        """Write what waits, then end the writer's thread (once)."""
        if self.writer.is_alive():
            self.stopping.set()
            self.writer.join()

    def close(self) -> None:
        self._stop()
        super().close()
