"""Searches run apart from the request path: a bounded pool of solver processes.

The interpreter that answers moves never runs a search. Hints, verdicts and solutions go
to small pools of worker processes (one for hints and one for verdicts and solutions by
default: a hint never waits behind a verdict's long search; a deal's par, its shortest
line, is searched by the verdicts' workers, one at a time), and:

- **identical searches are shared** (single flight): while a search for a position is
  running, everyone asking the same thing waits for that one;
- **a full queue answers at once**: at most ``queue`` different searches of a kind (hints;
  verdicts and solutions) wait or run, and
  at most ``waiters`` requests wait for them; one more raises :class:`SolverBusy` instead
  of queueing (the site says "busy, ask again in a moment");
- **nobody waits long**: a caller waits ``wait`` seconds at most; a search not finished
  by then keeps going, and its answer is kept for the next ask;
- **answers are kept per position**, in memory bounded in bytes (least recently used out),
  so a verdict can be shown again without searching (:meth:`SolverPool.known`).

What a game's searches keep between asks (a resumable round search, the lines it proved)
lives in the worker process, one memory per game (``GameKind.searches``), which lets go of
it when the worker grows past ``WORKER_MAX_BYTES``; a worker that grows past
``WORKER_HARD_BYTES`` all the same (a search's own memory) ends at once, its askers are told
"busy", and the next ask starts another. So the site's processes stay under the memory the
README promises whatever the searches asked for.

The pool is made with the app (``app.state.solvers``) and handed to the service's calls:
nothing here is a module global of the serving process.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Final, Literal

from app.caches import Kept
from app.config import Settings
from app.games import KINDS, game_kind
from app.rules.protocol import Answer, Searches
from app.solve import memory

Question = Literal["hint", "answer", "par"]
logger = logging.getLogger("solitaire.solvers")

HINT_BUDGET_MS: Final = 900
ANSWER_BUDGET_MS: Final = 15_000
HINT_WAIT: Final = 2.5
"""Seconds a hint waits for the solver (its search takes 0.9 s once it runs; a worker's
start takes about 1 s more)."""
SOLUTION_WAIT: Final = 3.0
"""Seconds "Show solution" waits before saying it is still thinking."""
PAR_WAIT: Final = 1.0
"""Seconds a deal's records page or a win waits for the deal's par."""
PAR_BUDGET_MS: Final = 5_000
"""A deal's shortest line (its par): fc-solve's plain and optimised lines take
milliseconds on almost every deal; a deal its fast scan does not solve gets this long."""
PAR_QUEUE: Final = 1
"""Par searches waiting or running at once: they share the verdicts' workers and never
fill their queue."""

WORKERS: Final = 1
QUEUE: Final = 4
"""Different searches of one kind waiting or running at once, its workers together."""
WAITERS: Final = 8
"""Requests waiting for a search at once (others are told the solver is busy)."""
CACHE_BYTES: Final = 8 * 1024 * 1024
"""Answers kept in the serving process, by their approximate size."""
WORKER_MAX_BYTES: Final = 112 * 1024 * 1024
"""A worker past this resident size before or after a search lets go of its kept searches
and lines."""
SEARCH_STOP_BYTES: Final = 132 * 1024 * 1024
"""A search in a worker past this resident size stops and answers what it found
(:mod:`app.solve.memory`): a deep search ends with "not sure", not with the worker."""
WORKER_HARD_BYTES: Final = 144 * 1024 * 1024
"""A worker past this resident size at any moment ends (checked every 50 ms): only what
the searches do not check (a single huge position list) ever gets here."""
WATCH_SECONDS: Final = 0.05
WORKER_NICENESS: Final = 10


class SolverBusy(Exception):
    """Too many searches at once: nothing was searched for this ask."""


class SolverThinking(SolverBusy):
    """The search for this ask is under way but did not answer within the wait: asking
    again later gets its answer."""


@dataclass(frozen=True, slots=True)
class Job:
    question: Question
    kind: str
    text: str


class SolverPool:
    def __init__(
        self,
        workers: int = WORKERS,
        queue: int = QUEUE,
        waiters: int = WAITERS,
        cache_bytes: int = CACHE_BYTES,
        answer_ms: int = ANSWER_BUDGET_MS,
        hint_wait: float = HINT_WAIT,
        solution_wait: float = SOLUTION_WAIT,
        par_wait: float = PAR_WAIT,
    ) -> None:
        self.workers, self.queue, self.answer_ms = workers, queue, answer_ms
        self.hint_wait, self.solution_wait, self.par_wait = hint_wait, solution_wait, par_wait
        self._waiters = threading.BoundedSemaphore(waiters)
        self._lock = threading.Lock()
        self._running: dict[Job, tuple[Future[object], ProcessPoolExecutor]] = {}
        self._known = Kept[Job, object]("solver answers", cache_bytes, _size)
        self._executors: dict[Question, ProcessPoolExecutor] = {}

    def ask(self, job: Job, wait: float) -> object | None:
        """The answer to ``job``, or None when it is not ready within ``wait`` seconds
        (the search goes on; a later ask gets its answer). Raises :class:`SolverBusy`.

        A worker that died under a search (past its memory bound, killed) is replaced:
        a verdict asked of it answers "not sure" (``unknown``, not kept: asking again
        searches again), a hint says busy; never an error out of here."""
        known = self._known.get(job)
        if known is not None:
            return known
        if not self._waiters.acquire(blocking=False):
            raise SolverBusy
        try:
            future, executor = self._submit(job)
            try:
                return future.result(timeout=wait)
            except FutureTimeout:
                return None
            except (BrokenProcessPool, CancelledError):
                # Its worker died (or a pool closed under it): only that worker's pool
                # is replaced, never one started since for other asks.
                self._discard(_WORKERS_OF[job.question], executor)
                if job.question != "hint":
                    return Answer("unknown", (), 0, 0.0)
                raise SolverBusy from None
        finally:
            self._waiters.release()

    def known(self, job: Job) -> object | None:
        """The kept answer to ``job``, without searching."""
        return self._known.get(job)

    def close(self) -> None:
        """End every worker now, searches under way included: an ended pool takes no
        processor time from whatever runs next (the site's next start, the next test)."""
        with self._lock:
            executors, self._executors = self._executors, {}
            self._running.clear()
        for executor in executors.values():
            _end(executor)

    def _discard(self, workers: Question, executor: ProcessPoolExecutor) -> None:
        """Let go of a broken pool of workers, if it is still the one in use."""
        with self._lock:
            if self._executors.get(workers) is not executor:
                return  # already replaced: the new pool's searches go on
            del self._executors[workers]
            for job in [job for job in self._running if _WORKERS_OF[job.question] == workers]:
                del self._running[job]
        _end(executor)

    def _submit(self, job: Job) -> tuple[Future[object], ProcessPoolExecutor]:
        with self._lock:
            running = self._running.get(job)
            if running is not None:
                return running  # the same search is under way: share it
            at_once = PAR_QUEUE if job.question == "par" else self.queue
            if sum(1 for other in self._running if other.question == job.question) >= at_once:
                raise SolverBusy
            budget = _BUDGETS.get(job.question, self.answer_ms)
            workers = _WORKERS_OF[job.question]
            for _attempt in range(2):
                executor = self._executors.get(workers)
                if executor is None:
                    executor = self._executors[workers] = ProcessPoolExecutor(
                        self.workers,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=_start_worker,
                    )
                try:
                    future: Future[object] = executor.submit(_work, job, budget)
                    break
                except (BrokenProcessPool, RuntimeError):  # its worker died: a new pool
                    del self._executors[workers]
                    _end(executor)
            else:
                raise SolverBusy
            self._running[job] = (future, executor)
        future.add_done_callback(self._finished(job, future))
        return future, executor

    def _finished(self, job: Job, mine: Future[object]) -> Callable[[Future[object]], None]:
        def finished(future: Future[object]) -> None:
            with self._lock:
                if self._running.get(job, (None,))[0] is mine:
                    self._running.pop(job)
            if future.cancelled() or future.exception() is not None:
                return
            result = future.result()
            if _keep(job, result):
                self._known.put(job, result)

        return finished


def _end(executor: ProcessPoolExecutor) -> None:
    """End a pool's workers now (its waiting searches are cancelled)."""
    # Python 3.14 has executor.terminate_workers(); before it, only the private map.
    processes = list((executor._processes or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def _start_worker() -> None:
    """Searches yield the processor to the processes answering requests; each game gets
    its memory of searches in this worker."""
    os.nice(WORKER_NICENESS)
    memory.limit(SEARCH_STOP_BYTES)
    _WORKER.update({kind: game.searches() for kind, game in KINDS.items()})
    parent = os.getppid()
    threading.Thread(target=_watch_memory, args=(parent,), name="memory-watch", daemon=True).start()


def _watch_memory(parent: int) -> None:
    """In the worker process: end it the moment it grows past :data:`WORKER_HARD_BYTES`,
    or once the server process that started it is gone (a killed server's solvers would
    live on, each up to that size, as no one closes their pipes)."""
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent:
            logger.warning("a solver process outlived its server: it ends")
            os._exit(0)
        if memory.resident_bytes() > WORKER_HARD_BYTES:
            logger.error("a solver process grew past %d MiB: it ends", WORKER_HARD_BYTES >> 20)
            os._exit(SOLVER_TOO_BIG)


SOLVER_TOO_BIG: Final = 70

_WORKERS_OF: Final[dict[Question, Question]] = {"hint": "hint", "answer": "answer", "par": "answer"}
"""Whose workers run each question's searches (a par's: the verdicts')."""
_BUDGETS: Final[dict[Question, int]] = {"hint": HINT_BUDGET_MS, "par": PAR_BUDGET_MS}


_WORKER: Final[dict[str, Searches]] = {}
"""In a worker process only: each game's searches, made when the worker starts."""


def _work(job: Job, budget_ms: int) -> object:
    """In the worker process: search, then let go of memory if it has grown too much."""
    _let_go_if_big()
    searches = _WORKER.get(job.kind) or _WORKER.setdefault(job.kind, game_kind(job.kind).searches())
    position = game_kind(job.kind).rules.parse(job.text)
    result: object
    if job.question == "hint":
        result = searches.hint(position, budget_ms)
    elif job.question == "par":
        shortest = game_kind(job.kind).shortest_line
        result = (
            shortest(position, budget_ms) if shortest is not None else Answer("unknown", (), 0, 0.0)
        )
    else:
        result = searches.answer(position, budget_ms)
    _let_go_if_big()
    return result


def _let_go_if_big() -> None:
    if memory.resident_bytes() > WORKER_MAX_BYTES:
        for searches in _WORKER.values():
            searches.forget()


def _keep(job: Job, result: object) -> bool:
    # An unsure hint of a game that carries its search on is kept by the
    # worker's search instead: asking again must carry it on, not repeat the first answer.
    return (
        job.question == "answer"
        or getattr(result, "sure", True)
        or (game_kind(job.kind).keeps_unsure_hints)
    )


def _size(job: Job, result: object) -> int:
    moves = result.moves if isinstance(result, Answer) else ()
    return 200 + 2 * len(job.text) + sum(len(move) + 60 for move in moves)


def sized(settings: Settings) -> SolverPool:
    """The pool ``settings`` ask for (the app makes one at start-up)."""
    return SolverPool(
        workers=settings.solver_workers,
        queue=settings.solver_queue,
        waiters=max(2 * settings.solver_queue, 2),
        answer_ms=settings.solver_answer_ms,
        hint_wait=settings.solver_hint_wait,
        solution_wait=settings.solver_solution_wait,
        par_wait=settings.solver_par_wait,
    )
