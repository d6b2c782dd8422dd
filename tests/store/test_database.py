"""SQLite runs in WAL mode with a busy timeout, synchronous=FULL and immediate writes."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, text

from app.store import Database, FairLock, Link
from app.store.queries import PLAYERS

ADD_PLAYER = insert(PLAYERS)


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


@pytest.mark.parametrize("stock", ["", "driver", "group_commit"])
def test_writers_committed_together_fail_alone(database_url: str, stock: str) -> None:
    """Group commit: each writer's work has its own savepoint; one that fails takes back its
    own changes only, and every other one is stored when its call returns. The same with
    the statements through SQLAlchemy's ``Connection`` and with a commit each
    (``STOCK_PARTS``)."""
    import threading
    from datetime import UTC, datetime

    db = Database(database_url, stock=frozenset({stock} - {""}))

    outcomes: dict[int, str] = {}

    def work(number: int) -> None:
        def add(link: Link) -> str:
            link.insert(ADD_PLAYER, [{"id": f"p{number}", "created_at": datetime.now(UTC)}])
            if number == 3:
                raise ValueError("refused")
            return "stored"

        try:
            outcomes[number] = db.transact(add)
        except ValueError as error:
            outcomes[number] = str(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert outcomes == {n: "refused" if n == 3 else "stored" for n in range(8)}
    with db.read() as session:
        stored = set(session.scalars(text("SELECT id FROM players")))
    assert stored == {f"p{n}" for n in range(8) if n != 3}
    db.dispose()


def test_when_the_group_commit_fails_no_writer_is_told_it_was_stored(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime

    from app.store import StorageError

    def disk_error(*args: object, **kwargs: object) -> None:
        raise StorageError("disk I/O error")

    from sqlalchemy.engine import RootTransaction

    # SQLite's writers commit on the driver (Database._immediate), a server's through Core.
    monkeypatch.setattr(Link, "commit", disk_error)
    monkeypatch.setattr(RootTransaction, "commit", disk_error)

    def add(link: Link) -> str:
        link.insert(ADD_PLAYER, [{"id": "lost", "created_at": datetime.now(UTC)}])
        return "stored"

    with pytest.raises(StorageError, match="disk I/O error"):
        db.transact(add)
    monkeypatch.undo()
    with db.read() as session:
        assert session.scalar(text("SELECT count(*) FROM players")) == 0
