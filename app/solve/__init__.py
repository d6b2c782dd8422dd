"""Solvers and hints, on top of the rules engine only.

:func:`answer` is the one entry point the command line and the site use: for any game's
position, a verdict (``solved``, ``unsolvable``, ``unknown``) and a line of moves in that
game's notation. For Montana the question is whether the current round can be cleared
without another redeal, and the line is the best one found (the win, when there is one).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from app.games.freecell import solver as freecell
from app.games.freecell.rules import FreeCellPosition
from app.games.montana import solver as montana
from app.games.montana.rules import MontanaPosition
from app.rules.protocol import Position

Verdict = Literal["solved", "unsolvable", "unknown"]

MONTANA_VERDICTS: dict[str, Verdict] = {
    "clearable": "solved",
    "blocked": "unsolvable",
    "unknown": "unknown",
}


QUICK_SECONDS = 3.0
"""At most this long looking for a line with supermoves before trying for a proof."""


@dataclass(frozen=True, slots=True)
class Answer:
    verdict: Verdict
    moves: tuple[str, ...]
    positions: int
    seconds: float


def answer(position: Position, budget_ms: int) -> Answer:
    """Solve ``position`` within about ``budget_ms`` milliseconds."""
    seconds = budget_ms / 1000
    if isinstance(position, FreeCellPosition):
        began = time.perf_counter()
        # Most deals solve in milliseconds; a proof of the rest needs the time left.
        quick = freecell.solve(position, max_seconds=min(seconds / 2, QUICK_SECONDS))
        if quick.verdict == "solved":
            return Answer("solved", quick.moves, quick.nodes, quick.seconds)
        left = max(seconds - (time.perf_counter() - began), 0.01)
        proof = freecell.solve(position, max_seconds=left, atomic=True)
        spent = time.perf_counter() - began
        return Answer(proof.verdict, proof.moves, quick.nodes + proof.nodes, spent)
    if isinstance(position, MontanaPosition):
        result = montana.search(position, max_seconds=seconds)
        return Answer(MONTANA_VERDICTS[result.verdict], result.moves, result.nodes, result.seconds)
    raise TypeError(f"no solver for {type(position).__name__}")
