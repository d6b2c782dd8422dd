"""The one kind of cache the site keeps: bounded by bytes, least recently used out.

Every cache in the site is a :class:`Kept` (page parts, cells' markup, route paths, parsed
positions, boards, everyone's statistics), so what a process may hold is the sum of a few
budgets, whatever the requests ask: a cache counted in entries grows with the size of what
a client sends. Keys are values the server made or checked (a game's id once found, a
cell, a route's name), never a raw query string. A key that is slow to hash (a tuple of
dataclasses) is made with :func:`key`, which hashes it once.

>>> kept = Kept[str, str]("example", 100, lambda key, value: len(key) + len(value))
>>> kept.put("a", "x" * 40)
'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
>>> _ = kept.put("b", "y" * 40)
>>> _ = kept.put("c", "z" * 40)  # over 100 bytes: the least recently used ("a") goes
>>> kept.get("a") is None, kept.get("c") is not None, kept.bytes
(True, True, 82)
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Final, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Key(tuple[Hashable, ...]):
    """A tuple that hashes its parts once: the cache looks a key up and then moves it to
    the recent end, each a hash."""

    _hash: int | None = None

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = tuple.__hash__(self)
        return self._hash


def key(*parts: Hashable) -> Hashable:
    """A key of several values that hashes once: for parts slow to hash (a position, a
    tuple of dataclasses), which a lookup and its move to the recent end would hash twice.
    Parts that hash fast in C are better kept in a plain tuple."""
    return _Key(parts)


ENTRY_BYTES: Final = 120
"""What an entry costs besides its key and value: the mapping's slot, the size kept for it
and the recency order's link."""


def text_size(*parts: object) -> int:
    """Approximate bytes of a few values held: strings by their length (4 bytes a
    character at most), anything else as Python counts the object itself."""
    total = ENTRY_BYTES
    for part in parts:
        if isinstance(part, str):
            total += 49 + 4 * len(part) if not part.isascii() else 49 + len(part)
        elif isinstance(part, tuple):
            total += sys.getsizeof(part) + sum(text_size(item) - ENTRY_BYTES for item in part)
        else:
            total += sys.getsizeof(part)
    return total


class Kept(Generic[K, V]):
    """``Kept(name, max_bytes, size)``: values by key, at most ``max_bytes`` in all as
    ``size(key, value)`` counts them, least recently used out; safe across threads.

    A value larger than the whole budget is not kept (it is still returned)."""

    def __init__(self, name: str, max_bytes: int, size: Callable[[K, V], int]) -> None:
        self.name = name
        self.max_bytes = max_bytes
        self._size = size
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        """Values and their sizes, the least recently used first."""
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def peek_many(self, keys: Iterable[K]) -> list[V | None]:
        """Several values at once, without taking the lock or marking them used (a board's
        52 cells on every page: a lookup each, as a dict's). Entries only ever peeked at
        leave in the order they came; a dict read while another thread writes sees the
        value before or after, never a broken one."""
        entries = self._entries
        return [None if (entry := entries.get(key)) is None else entry[0] for key in keys]

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (if it fits at all); return it."""
        size = self._size(key, value)
        if size <= self.max_bytes:
            with self._lock:
                entries = self._entries
                old = entries.pop(key, None)
                self._bytes += size - (old[1] if old is not None else 0)
                entries[key] = (value, size)
                while self._bytes > self.max_bytes:
                    _, (_, gone) = entries.popitem(last=False)
                    self._bytes -= gone
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    @property
    def bytes(self) -> int:
        """What the kept values count for, as ``size`` measured them."""
        with self._lock:
            return self._bytes

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
