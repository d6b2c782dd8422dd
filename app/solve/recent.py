"""A small thread-safe memory that keeps what was used last (solver answers and searches)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

T = TypeVar("T")


class Recent(Generic[T]):
    """A thread-safe map that keeps the ``size`` entries used last."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> T | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def pop(self, key: str) -> T | None:
        with self._lock:
            return self._entries.pop(key, None)

    def put(self, items: list[tuple[str, T]]) -> None:
        with self._lock:
            self._entries.update(items)
            for key, _ in items:
                self._entries.move_to_end(key)
        self.trim(self._size)

    def trim(self, size: int) -> None:
        """Let go of the entries used longest ago until at most ``size`` are left."""
        with self._lock:
            gone = [self._entries.popitem(last=False) for _ in range(len(self._entries) - size)]
        del gone  # let go of outside the lock: a search's keys take a while
