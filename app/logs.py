"""Logging that never makes a request wait for its log line to be written.

``solitaire serve`` logs every request (:mod:`app.web.access_log`) from the event loop. A
``StreamHandler`` formats the line and writes it to stderr there, under a lock: a write
to a slow pipe (a journal, a terminal scrolled back) would stall every request of the
worker, and formatting and writing took a twentieth of a move's server time. Here the
record goes to a queue and a thread of the handler's own formats and writes it
(the standard library's ``QueueHandler`` and ``QueueListener``).
"""

from __future__ import annotations

import atexit
import logging
import queue
import sys
from logging.handlers import QueueHandler, QueueListener
from typing import TextIO


class BackgroundStderr(QueueHandler):
    """Records to a queue; a thread writes them, formatted, to ``stream`` (stderr). The
    records of one process stay in order. Lines still queued when the process is killed
    outright (``kill -9``) are lost; on any other exit they are written first."""

    def __init__(self, stream: TextIO | None = None) -> None:
        records: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
        super().__init__(records)
        self.writer = logging.StreamHandler(stream or sys.stderr)
        self.listener = QueueListener(records, self.writer)
        self.listener.start()
        atexit.register(self._stop)

    def _stop(self) -> None:
        """Write what is queued, then end the writer's thread (once)."""
        if self.listener._thread is not None:
            self.listener.stop()

    def setFormatter(self, fmt: logging.Formatter | None) -> None:
        """The format is the writer's: lines are formatted in its thread."""
        self.writer.setFormatter(fmt)

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        """The record as it is (the queue is in this process: nothing to pickle), so the
        writer's formatter formats it, time and all, in the writer's thread."""
        return record

    def close(self) -> None:
        self._stop()
        self.writer.close()
        super().close()
