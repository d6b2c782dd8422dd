"""The solver pool: searches in another process, shared while they run, a bounded queue
that answers "busy" at once, answers kept within a byte budget."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from app.games import rules_for
from app.rules.protocol import Answer, Hint
from app.service.solvers import CACHE_BYTES, Job, SolverBusy, SolverPool


def fresh(deal: int) -> Job:
    return Job("answer", "montana", rules_for("montana").new_game(deal, "expert").to_text())


HARD = fresh(3)
"""A search that takes seconds (Montana Expert #3's round: millions of positions)."""


@pytest.fixture
def pool() -> Iterator[SolverPool]:
    solver = SolverPool(workers=1, queue=2, waiters=4)
    yield solver
    solver.close()


def test_a_search_runs_in_another_process(pool: SolverPool) -> None:
    job = Job("hint", "freecell", rules_for("freecell").new_game(1, "standard").to_text())
    hint = pool.ask(job, wait=30)
    assert isinstance(hint, Hint) and hint.move
    executor = pool._executors["hint"]
    assert all(pid != os.getpid() for pid in executor._processes)  # type: ignore[attr-defined]
    assert pool.known(job) == hint  # kept: asking again costs nothing


def test_identical_searches_are_shared_and_a_full_queue_answers_at_once(
    pool: SolverPool,
) -> None:
    answers: list[object] = []
    askers = [threading.Thread(target=lambda: answers.append(pool.ask(HARD, 30))) for _ in range(3)]
    for asker in askers:
        asker.start()
    deadline = time.monotonic() + 60  # the askers are scheduled (a bound for liveness)
    while not pool._running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(pool._running) == 1  # three asks, one search
    hint = Job("hint", "freecell", rules_for("freecell").new_game(2, "standard").to_text())
    assert isinstance(pool.ask(hint, wait=30), Hint)  # a hint does not wait behind it
    assert pool.ask(fresh(4), wait=0) is None  # a second search queues (the queue holds 2)
    with pytest.raises(SolverBusy):  # (after its wait it would answer None, not busy)
        pool.ask(fresh(12), wait=30)  # a third does not: busy, at once
    for asker in askers:
        asker.join(60)
    assert len(answers) == 3
    assert all(isinstance(answer, Answer) for answer in answers)
    assert len({answer.positions for answer in answers if isinstance(answer, Answer)}) == 1


def test_an_unfinished_wait_leaves_the_search_going(pool: SolverPool) -> None:
    assert pool.ask(HARD, wait=0.2) is None
    deadline = time.monotonic() + 60
    while pool.known(HARD) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert isinstance(pool.known(HARD), Answer)  # (proved, or out of time on a busy machine)


def test_kept_answers_stay_within_their_byte_budget() -> None:
    pool = SolverPool(workers=1, queue=2, waiters=4, cache_bytes=CACHE_BYTES // 4096)
    kept = pool._known
    for n in range(100):
        kept.put(Job("answer", "montana", str(n)), Answer("unknown", (), n, 0.0))
    assert kept.bytes <= kept.max_bytes
    assert pool.known(Job("answer", "montana", "99")) is not None
    assert pool.known(Job("answer", "montana", "0")) is None
    pool.close()


def test_a_closed_pool_ends_the_searches_under_way(pool: SolverPool) -> None:
    """An ended pool takes no processor time from what runs next (a long search was left
    running for up to its whole budget before)."""
    assert pool.ask(HARD, wait=0.3) is None  # deal #3's round: millions of positions
    processes = list(pool._executors["answer"]._processes.values())  # type: ignore[union-attr]
    assert processes and all(process.is_alive() for process in processes)
    pool.close()
    for process in processes:
        # A niced worker that dies on a loaded machine may take seconds to be scheduled and
        # free its memory; what matters is how it ends: by the pool's signal, not after its
        # search (a search let run ends with its budget or memory limit, and then exits 0).
        # The pool's own thread joins them too: a join that loses the race to reap one
        # returns with no exit code yet, so it is asked again until one is known.
        deadline = time.monotonic() + 60
        while process.exitcode is None and time.monotonic() < deadline:
            process.join(0.1)
    assert [process.exitcode for process in processes] == [-signal.SIGTERM] * len(processes)


def test_a_search_past_the_memory_limit_answers_not_sure_and_its_worker_lives() -> None:
    """Deal #46's round grows past the worker's size limit within seconds: the search stops
    and answers, where the watch used to end the worker and every ask said "busy"."""
    solver = SolverPool(workers=1, queue=2, waiters=4, answer_ms=120_000)
    try:
        answer = solver.ask(fresh(46), wait=120)
        assert isinstance(answer, Answer)
        assert answer.verdict == "unknown"
        assert 100_000 < answer.positions < 20_000_000  # stopped by memory, not positions
        assert answer.seconds < 120  # nor by its time budget (answer_ms)
        next_answer = solver.ask(fresh(12), wait=120)  # the same worker answers again
        assert isinstance(next_answer, Answer)
    finally:
        solver.close()


def test_a_search_cancelled_under_its_askers_answers_not_sure_never_an_error() -> None:
    """A pool's queued searches cancelled while requests wait on them (its worker died and
    the pool was replaced, or the site stops): each asker gets "not sure" or "busy", never
    the ``CancelledError`` that answered 500 in a flood."""
    pool = SolverPool(workers=1, queue=6, waiters=12)
    jobs = [HARD, *(fresh(deal) for deal in (12, 20, 21, 22))]
    outcomes: list[object] = []

    def ask(job: Job) -> None:
        try:
            outcomes.append(pool.ask(job, wait=120))
        except SolverBusy as busy:
            outcomes.append(busy)
        except BaseException as error:  # what the request would have raised
            outcomes.append(error)

    try:
        for job in jobs:
            assert pool.ask(job, wait=0) is None  # one runs, one waits for the worker, 3 queue
        askers = [threading.Thread(target=ask, args=(job,)) for job in jobs]
        for asker in askers:
            asker.start()
        time.sleep(0.5)  # they wait on the searches (one that comes later searches anew)
        cancelled = [future for future, _ in list(pool._running.values()) if future.cancel()]
        assert cancelled  # the queued ones
        for asker in askers:
            asker.join(300)
        assert len(outcomes) == len(jobs)
        for outcome in outcomes:
            assert isinstance(outcome, (Answer, SolverBusy)), outcome
    finally:
        pool.close()


def test_a_late_asker_of_a_dead_worker_leaves_its_replacement_alone() -> None:
    """The flood's 500s: a worker died, its first asker replaced the pool, a new search
    started there, and the dead worker's next asker closed the new pool under it."""
    pool = SolverPool(workers=1, queue=4, waiters=8)
    try:
        assert pool.ask(HARD, wait=0) is None
        old = pool._executors["answer"]
        pool._discard("answer", old)  # the first asker of the dead worker
        assert pool.ask(fresh(12), wait=0) is None
        new = pool._executors["answer"]
        assert new is not old
        pool._discard("answer", old)  # a later one: the new pool's search goes on
        assert pool._executors["answer"] is new
        future, _ = pool._running[fresh(12)]
        assert not future.cancelled()
    finally:
        pool.close()


def test_a_worker_that_dies_under_a_search_is_replaced_and_says_not_sure() -> None:
    """A worker ended from outside (as its memory watch ends it past WORKER_HARD_BYTES)."""
    pool = SolverPool(workers=1, queue=2, waiters=4)
    try:
        outcomes: list[object] = []
        asker = threading.Thread(target=lambda: outcomes.append(pool.ask(HARD, wait=120)))
        asker.start()
        deadline = time.monotonic() + 60
        processes: list[multiprocessing.Process] = []
        while not processes and time.monotonic() < deadline:
            executor = pool._executors.get("answer")
            processes = list((executor._processes or {}).values()) if executor else []  # type: ignore[attr-defined]
            time.sleep(0.05)
        assert processes
        os.kill(processes[0].pid or 0, signal.SIGKILL)
        asker.join(120)
        assert len(outcomes) == 1
        answer = outcomes[0]
        assert isinstance(answer, Answer) and answer.verdict == "unknown"
        assert pool.known(HARD) is None  # not kept: asking again searches again
        hint = Job("hint", "freecell", rules_for("freecell").new_game(1, "standard").to_text())
        assert isinstance(pool.ask(hint, wait=60), Hint)  # other workers go on
        assert isinstance(pool.ask(fresh(12), wait=120), Answer)  # a new worker answers
    finally:
        pool.close()
