"""SQLite runs in WAL mode with a busy timeout, synchronous=FULL and immediate writes."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app.store import Database, FairLock


def test_sqlite_pragmas(db: Database) -> None:
    if not db.is_sqlite:
        pytest.skip("SQLite only")
    with db.read() as session:
        assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert session.execute(text("PRAGMA busy_timeout")).scalar() == 10_000
        assert session.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_write_rolls_back_on_error(db: Database) -> None:
    try:
        with db.write() as session:
            session.execute(text("INSERT INTO players (id, created_at) VALUES ('p', '2026-01-01')"))
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    with db.read() as session:
        assert session.execute(text("SELECT count(*) FROM players")).scalar() == 0


def test_the_fair_lock_serves_waiters_in_the_order_they_came() -> None:
    import threading
    import time

    lock, order = FairLock(), []
    lock.__enter__()
    threads = []
    for number in range(5):
        thread = threading.Thread(target=lambda n=number: _take(lock, order, n))
        thread.start()
        threads.append(thread)
        while len(lock._waiters) < number + 1:  # wait until this one queues
            time.sleep(0.001)
    lock.__exit__()
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2, 3, 4]


def _take(lock: FairLock, order: list[int], number: int) -> None:
    with lock:
        order.append(number)
