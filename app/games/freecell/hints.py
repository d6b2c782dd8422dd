"""FreeCell's hints and verdicts, as one solver process keeps them.

Where fc-solve's library is installed (:mod:`app.games.freecell.fcsolve`) it answers: a
line in milliseconds on almost every position, "unsolvable" only when its single-card
search ran to the end. Elsewhere, or when the library refuses a board or gives a line our
rules refuse (our bug: logged), our own search answers (:mod:`app.games.freecell.solver`).

A hint never plays itself: it is the first move of a winning line found within its budget;
when the position is proved lost, it says no move helps; when the budget runs out first,
it is the move after which the position looks best. Answers are kept per position, so
asking again costs nothing.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Final

from app.caches import Kept, text_size
from app.games.freecell import fcsolve, solver
from app.games.freecell.rules import FreeCellPosition, all_home, parse
from app.rules import par
from app.rules.protocol import Answer, Hint, Position

logger = logging.getLogger("solitaire.freecell")

QUICK_SECONDS: Final = 3.0
"""At most this long looking for a line with supermoves before trying for a proof."""
ANSWERS_KEPT_BYTES: Final = 4 << 20
"""Answers kept (a position and its line: ~1-2 kB; some 3,000)."""
HINTS_KEPT_BYTES: Final = 1 << 20
"""Sure hints kept (a position and its move: ~0.4 kB; some 2,500)."""


def _answer_size(key: tuple[str, int], found: Answer) -> int:
    return text_size(key[0], *found.moves) + 96


def _hint_size(key: str, found: Hint) -> int:
    return text_size(key, found.move or "") + 64


class FreeCellSearches:
    """Every FreeCell answer and hint this process found, kept per position."""

    def __init__(self) -> None:
        self._answers = Kept[tuple[str, int], Answer](
            "freecell answers", ANSWERS_KEPT_BYTES, _answer_size
        )
        self._hints = Kept[str, Hint]("freecell hints", HINTS_KEPT_BYTES, _hint_size)

    def answer(self, position: Position, budget_ms: int) -> Answer:
        key = (position.to_text(), budget_ms)
        found = self._answers.get(key)
        if found is None:
            found = self._answers.put(key, answer(parse(key[0]), budget_ms))
        return found

    def hint(self, position: Position, budget_ms: int) -> Hint:
        """A sure hint is kept; one whose budget ran out is not: asking again searches
        again (on a busy machine the next search may finish)."""
        key = f"{budget_ms}\n{position.to_text()}"
        kept = self._hints.get(key)
        if kept is not None:
            return kept
        board = position if isinstance(position, FreeCellPosition) else parse(position.to_text())
        found = hint(board, budget_ms)
        if found.sure:
            self._hints.put(key, found)
        return found

    @staticmethod
    def engine() -> str:
        """Which engine answers (``solitaire doctor``, the start-up log)."""
        return fcsolve.engine_name()

    def forget(self) -> None:
        self._answers.clear()
        self._hints.clear()


def answer(position: FreeCellPosition, budget_ms: int) -> Answer:
    """Solve ``position`` within about ``budget_ms`` milliseconds: by fc-solve's library
    where it runs, else by our own search."""
    found = by_library(position, budget_ms)
    return found if found is not None else python_answer(position, budget_ms)


def hint(position: FreeCellPosition, budget_ms: int) -> Hint:
    """The first move of a winning line; no move when the position is proved lost (sure
    either way); else the move after which the position looks best (not sure)."""
    found = by_library(position, budget_ms)
    if found is None:
        result = solver.solve(position, max_seconds=budget_ms / 1000)
        if result.verdict == "solved" and result.moves:
            return Hint(result.moves[0], True)
        return Hint(best_move(position), False)
    if found.verdict == "solved":
        return Hint(found.moves[0] if found.moves else None, True)
    if found.verdict == "unsolvable":
        return Hint(None, True)
    return Hint(best_move(position), False)


def by_library(position: FreeCellPosition, budget_ms: int) -> Answer | None:
    """fc-solve's answer; None where the library is missing or failed us (logged)."""
    lib = fcsolve.library()
    if lib is None:
        return None
    try:
        return fcsolve.solve(position, fcsolve.Budget(seconds=budget_ms / 1000), lib)
    except (fcsolve.LibraryError, fcsolve.ReplayError) as error:
        logger.error("fc-solve failed us, our own search answers: %s", error)
        return None


def python_answer(position: FreeCellPosition, budget_ms: int) -> Answer:
    """Our own search: most deals solve in milliseconds with supermoves; a proof of the
    rest needs single-card moves and the time left."""
    seconds = budget_ms / 1000
    began = time.perf_counter()
    quick = solver.solve(position, max_seconds=min(seconds / 2, QUICK_SECONDS))
    if quick.verdict == "solved":
        return Answer("solved", quick.moves, quick.positions, quick.seconds)
    left = max(seconds - (time.perf_counter() - began), 0.01)
    proof = solver.solve(position, max_seconds=left, atomic=True)
    spent = time.perf_counter() - began
    return Answer(proof.verdict, proof.moves, quick.positions + proof.positions, spent)


def best_move(position: FreeCellPosition) -> str | None:
    """The move after which the position looks best (the search's own measure)."""
    best: tuple[int, str] | None = None
    for move in position.legal_moves():
        child = solver.from_position(position.play(move))
        score = solver.heuristic(child)
        if best is None or score < best[0]:
            best = (score, move.notation)
    return None if best is None else best[1]


def shortest_answer(position: FreeCellPosition, budget_ms: int) -> Answer:
    """A winning line from ``position`` as short as we can find it within about
    ``budget_ms``: fc-solve's line and its solution optimisation's, each replayed through
    our rules, the one with fewer moves as a game counts them (the optimisation does not
    always shorten: deal #1's plain line has 80, its optimised 84); our own search's line
    where the library is missing or failed us. Its moves are the line as counted
    (:func:`app.rules.par.counted`: it may end with "All home")."""
    lib = fcsolve.library()
    found: list[Answer] = []
    if lib is not None:
        for optimize in (False, True):
            try:
                with fcsolve.Classifier(position.variant, lib, optimize=optimize) as search:
                    seconds = budget_ms / 2000
                    found.append(search.classify(position, fcsolve.Budget(seconds=seconds)))
            except (fcsolve.LibraryError, fcsolve.ReplayError) as error:
                logger.error("fc-solve failed us, our own search answers: %s", error)
            if not found or found[0].verdict != "solved":
                break  # no line to shorten: the optimisation would search again in vain
    if not found:
        found.append(python_answer(position, budget_ms))
    best: tuple[int, Answer] | None = None
    for answer in found:
        if answer.verdict != "solved":
            continue
        line = par.counted(position, answer.moves, all_home)
        if best is None or line.moves < best[0]:
            best = (line.moves, replace(answer, moves=line.line))
    if best is not None:
        return best[1]
    proved = [answer for answer in found if answer.verdict == "unsolvable"]
    return proved[0] if proved else found[-1]
