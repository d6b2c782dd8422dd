"""Coroutines run by a test, on an event loop of their own."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from typing import Any


def in_own_thread(run: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run the coroutine in a thread of its own: a browser test on the same worker may
    leave Playwright's event loop running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()
