"""Hints: the move to play next, found by the solvers within a time budget.

A hint never plays itself. When the search finishes in time the move starts a winning line
(FreeCell) or the line that ends the round with the most cards in place (Montana); when the
budget runs out first, the hint says so and offers the best move found so far. Answers are
cached per position, so asking again costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from app.rules import rules_for
from app.rules.freecell import FreeCellPosition
from app.rules.montana import MontanaPosition
from app.rules.protocol import Position
from app.solve import Answer, Verdict, answer, freecell

HINT_BUDGET_MS: Final = 900
CHECK_BUDGET_MS: Final = 15_000


@dataclass(frozen=True, slots=True)
class Hint:
    move: str | None
    """The move to play (``redeal`` in Montana when that is the way on); None: nothing."""
    sure: bool
    """False when the budget ran out and this is only the best move found so far."""


def hint(position: Position, budget_ms: int = HINT_BUDGET_MS) -> Hint:
    return _cached_hint(_kind(position), position.to_text(), budget_ms)


def check(position: Position, budget_ms: int = CHECK_BUDGET_MS) -> tuple[Verdict, int, int]:
    """Can this still be won? (verdict, moves in the line, positions searched)"""
    result = _cached_answer(_kind(position), position.to_text(), budget_ms)
    return result.verdict, len(result.moves), result.positions


def solution(position: Position, budget_ms: int = CHECK_BUDGET_MS) -> tuple[Verdict, list[str]]:
    """A winning line from here (FreeCell), or the round's best line (Montana)."""
    result = _cached_answer(_kind(position), position.to_text(), budget_ms)
    return result.verdict, list(result.moves)


def _kind(position: Position) -> str:
    return "freecell" if isinstance(position, FreeCellPosition) else "montana"


@lru_cache(maxsize=1024)
def _cached_answer(kind: str, text: str, budget_ms: int) -> Answer:
    return answer(rules_for(kind).parse(text), budget_ms)


@lru_cache(maxsize=1024)
def _cached_hint(kind: str, text: str, budget_ms: int) -> Hint:
    position = rules_for(kind).parse(text)
    if isinstance(position, FreeCellPosition):
        result = freecell.solve(position, max_seconds=budget_ms / 1000)
        if result.verdict == "solved" and result.moves:
            return Hint(result.moves[0], True)
        return Hint(_best_freecell_move(position), False)
    assert isinstance(position, MontanaPosition)
    found = _cached_answer(kind, text, budget_ms)
    sure = found.verdict != "unknown"
    if found.moves:
        return Hint(found.moves[0], sure)
    if position.can_redeal():
        return Hint("redeal", sure)
    legal = position.legal_moves()
    return Hint(legal[0].notation if legal else None, sure)


def _best_freecell_move(position: FreeCellPosition) -> str | None:
    """The move after which the position looks best (the search's own measure)."""
    best: tuple[int, str] | None = None
    for move in position.legal_moves():
        child = freecell.from_position(position.play(move))
        score = freecell.heuristic(child)
        if best is None or score < best[0]:
            best = (score, move.notation)
    return None if best is None else best[1]
