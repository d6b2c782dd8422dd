"""FreeCell's shipped proofs made on fc-solve's library, as the site's own searches make
verdicts (:class:`app.games.freecell.fcsolve.Classifier`): a fast meta-move scan finds a
line, and "unsolvable" only when an exhaustive single-card scan ran out of positions.

The budget of a deal is in iterations (positions checked), not seconds, so that a run
gives the same verdicts on a loaded machine as on a quiet one; a deal whose scan reaches
it is ``unknown`` (intractable within the budget), and counted as such.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Final

from app.games.freecell import fcsolve
from app.games.freecell.rules import STANDARD, new_game, variant_named
from app.rules.protocol import Verdict

SECONDS: Final = 3600.0
"""No deal's scan is stopped by the clock: iterations bound it."""
ITERATIONS_PER_MS: Final = 200
"""``--budget-ms`` as iterations of the atomic scan: about what the library checks in a
millisecond on one core (so a budget means the same work on any machine)."""
MAX_CELLS: Final = 4


def available() -> bool:
    return fcsolve.available()


def budget(budget_ms: int) -> fcsolve.Budget:
    """The budget of one deal: the site's fast scan, then an atomic scan of at most
    ``budget_ms * ITERATIONS_PER_MS`` iterations."""
    return fcsolve.Budget(seconds=SECONDS, atomic_iterations=max(budget_ms, 1) * ITERATIONS_PER_MS)


def classify(variant: str, deals: Iterable[int], budget_ms: int) -> Iterator[tuple[int, Verdict]]:
    """Each deal's verdict in ``variant``, its line not read (fc-solve's word: the site
    replays and checks every line it shows a player)."""
    rules = variant_named(variant)
    limits = budget(budget_ms)
    with fcsolve.Classifier(rules, check=False) as classifier:
        for deal in deals:
            yield deal, classifier.classify(new_game(deal, variant), limits).verdict


def fewest_cells(deals: Iterable[int], budget_ms: int) -> Iterator[tuple[int, int | None]]:
    """Each standard deal's fewest free cells (0-4, 5: not even with four; None:
    intractable), by :func:`fewest`."""
    limits = budget(budget_ms)
    classifiers = {
        cells: fcsolve.Classifier(STANDARD, freecells=cells, check=False)
        for cells in range(MAX_CELLS + 1)
    }
    try:
        for deal in deals:
            start = new_game(deal)
            yield deal, fewest(lambda cells: classifiers[cells].classify(start, limits).verdict)  # noqa: B023
    finally:
        for classifier in classifiers.values():
            classifier.close()


def fewest(verdict: Callable[[int], Verdict]) -> int | None:
    """The fewest free cells a deal is won with, given ``verdict(cells)``: solved with
    that many and proved impossible with one fewer (5: impossible with four); None when a
    scan it needs is ``unknown``. Starts at two cells, the most common answer, and walks
    down while it solves and up while it is impossible (the answer is monotonic: a line
    with fewer cells is a line with more)."""
    cells = 2
    first = verdict(cells)
    if first == "unknown":
        return None
    if first == "solved":
        while cells > 0:
            below = verdict(cells - 1)
            if below == "unknown":
                return None
            if below == "unsolvable":
                return cells
            cells -= 1
        return 0
    while cells < MAX_CELLS:
        cells += 1
        above = verdict(cells)
        if above == "unknown":
            return None
        if above == "solved":
            return cells
    return MAX_CELLS + 1
