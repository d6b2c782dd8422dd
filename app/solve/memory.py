"""How much memory a search may take: a solver process sets a limit, and searches check it.

A search that reaches the limit stops where it is, as when its time or positions run out,
and answers what it found ("not sure" when that is all). So a deep search ends with an
answer instead of growing until the process is ended for its size (``WORKER_HARD_BYTES`` in
:mod:`app.service.solvers`). The serving process and the command line set no limit: their
searches are bounded by their positions and seconds alone.
"""

from __future__ import annotations

import os

CHECK_EVERY: int = 16_384
"""Positions searched between two looks at the process's size (a look costs ~10 µs)."""

_limit: list[int] = []


def limit(max_bytes: int | None) -> None:
    """In a solver process: searches stop once it holds more than ``max_bytes`` (None:
    no limit)."""
    _limit[:] = [] if max_bytes is None else [max_bytes]


def bound() -> int | None:
    """The limit this process's searches stop at (None: none set)."""
    return _limit[0] if _limit else None


def full() -> bool:
    """Whether this process is past its searches' limit (never, if none was set)."""
    return bool(_limit) and resident_bytes() > _limit[0]


def room() -> int | None:
    """The bytes this process may still grow by before its searches' limit (None: no limit)."""
    return _limit[0] - resident_bytes() if _limit else None


def resident_bytes() -> int:
    """This process's resident size (0 where ``/proc`` cannot say)."""
    try:
        with open("/proc/self/statm") as file:
            return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
