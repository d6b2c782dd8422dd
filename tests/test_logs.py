"""The served process's log lines are written by a thread of their own: a request never
waits for stderr."""

from __future__ import annotations

import io
import logging
import logging.config
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from app.config import LOG_CONFIG
from app.logs import INTERVAL, LIMIT, BackgroundStderr


class Held(io.StringIO):
    """A stream whose writes wait until it is let go (a pipe nobody reads)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()

        self.writing = threading.Event()

    def write(self, text: str) -> int:
        self.writing.set()
        self.go.wait()
        return super().write(text)


@contextmanager
def logging_to(
    stream: Held, name: str, fmt: str, interval: float = INTERVAL
) -> Iterator[tuple[logging.Logger, BackgroundStderr]]:
    """A logger of its own writing through a :class:`BackgroundStderr` to ``stream``; the
    handler is closed (what waits written, in order) when the block ends."""
    handler = BackgroundStderr(stream, interval=interval)
    handler.setFormatter(logging.Formatter(fmt))
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        yield logger, handler
    finally:
        logger.removeHandler(handler)
        handler.close()


def test_a_line_is_logged_at_once_while_the_stream_is_held_and_written_after() -> None:
    stream = Held()
    fmt = "%(levelname)s %(name)s: %(message)s"
    with logging_to(stream, "solitaire.access.held", fmt) as (logger, _handler):
        for n in range(3):  # each returns although nothing can be written yet
            logger.info('%s "%s %s" %d', "127.0.0.1", "POST", f"/games/abcd…/{n}", 200)
        assert stream.getvalue() == ""
        stream.go.set()
    assert stream.getvalue().splitlines() == [
        f'INFO solitaire.access.held: 127.0.0.1 "POST /games/abcd…/{n}" 200' for n in range(3)
    ]


def test_the_served_log_configuration_writes_through_it() -> None:
    config = {**LOG_CONFIG, "loggers": {}}  # the handler alone, no logger of the site's touched
    logging.config.dictConfig(config)
    handlers = logging._handlers  # type: ignore[attr-defined]
    made = handlers["stderr"]
    try:
        assert isinstance(made, BackgroundStderr)
        assert made.formatter is not None
        assert made.formatter._fmt == LOG_CONFIG["formatters"]["plain"]["format"]  # type: ignore[index]
    finally:
        made.close()


def test_records_past_the_limit_are_dropped_and_counted_while_the_stream_takes_nothing() -> None:
    stream = Held()
    with logging_to(stream, "solitaire.access.full", "%(message)s", 0.001) as (logger, handler):
        logger.info("first")
        assert stream.writing.wait(10)  # the writer holds "first" and cannot write it
        for n in range(LIMIT + 3):
            logger.info("line %d", n)
        assert len(handler.waiting) == LIMIT
        stream.go.set()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "first"
    assert lines[1 : LIMIT + 1] == [f"line {n}" for n in range(LIMIT)]
    assert lines[LIMIT + 1 :] == ["3 log records were dropped: stderr took nothing for a while"]
