"""Hints: the move to play next, found by the solvers within a time budget.

A hint never plays itself. When the search finishes in time the move starts a winning line
(FreeCell) or the line that ends the round with the most cards in place (Montana); when the
budget runs out first, the hint says so and offers the best move found so far. Answers are
cached per position, so asking again costs nothing.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Generic, TypeVar

from app.games import rules_for
from app.games.freecell import solver as freecell
from app.games.freecell.rules import FreeCellPosition
from app.games.montana import solver as montana
from app.games.montana.rules import MontanaPosition
from app.rules.protocol import Position
from app.solve import Answer, Verdict, answer

HINT_BUDGET_MS: Final = 900
CHECK_BUDGET_MS: Final = 15_000
LINES_KEPT: Final = 50_000
"""Positions remembered from finished Montana searches (a round's line is ~100 moves)."""
SEARCHES_KEPT: Final = 2
"""Unfinished Montana searches kept to carry on (each holds up to HINT_MAX_NODES keys)."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Hint:
    move: str | None
    """The move to play (``redeal`` in Montana when that is the way on); None: nothing."""
    sure: bool
    """False when the budget ran out and this is only the best move found so far."""


def hint(position: Position, budget_ms: int = HINT_BUDGET_MS) -> Hint:
    if isinstance(position, MontanaPosition):
        return _montana_hint(position, budget_ms)
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
    position = rules_for(kind).parse(text)
    result = answer(position, budget_ms)
    if isinstance(position, MontanaPosition) and result.verdict != "unknown" and result.moves:
        _remember_line(position, result.moves)
    return result


@lru_cache(maxsize=1024)
def _cached_hint(kind: str, text: str, budget_ms: int) -> Hint:
    position = rules_for(kind).parse(text)
    assert isinstance(position, FreeCellPosition)
    result = freecell.solve(position, max_seconds=budget_ms / 1000)
    if result.verdict == "solved" and result.moves:
        return Hint(result.moves[0], True)
    return Hint(_best_freecell_move(position), False)


def _montana_hint(position: MontanaPosition, budget_ms: int) -> Hint:
    """From a proved line, else from a search of the round (carried on if still going)."""
    began = time.perf_counter()
    text = position.to_text()
    known = _LINES.get(text)
    if known is not None:
        return known
    search = _SEARCHES.pop(text)
    if search is not None:
        search.advance()  # the player played the move it suggested: carry on below it
    else:
        search = _asked_before(position, text)  # asked again here: carry on where it stopped
    _SEARCHES.trim(SEARCHES_KEPT - 1)  # room for this one, made within the budget
    if search is None or search.nodes >= montana.HINT_MAX_NODES:
        # A search that has had its share starts over. Letting go of the old one's keys
        # takes ~0.1 s for 2.5 million: that time comes out of this hint's budget.
        search = montana.RoundSearch(position)
    seconds = budget_ms / 1000 - (time.perf_counter() - began)
    left = montana.HINT_MAX_NODES - search.nodes
    result = search.run(max_seconds=seconds, max_nodes=left)
    if result.verdict == "unknown" and result.moves:
        first = result.moves[0]
        after = position.play(position.parse_action(first)).to_text()
        _SEARCHES.put([(after, search)])
        _ASKED.put([(text, after)])
        return Hint(first, False)
    # A finished search: sure, unless it carried on from positions it had let go of.
    sure = result.verdict == "clearable" or (result.verdict == "blocked" and not search.advanced)
    if result.moves:
        if sure:
            _remember_line(position, result.moves)
        return Hint(result.moves[0], sure)
    if position.can_redeal():
        return Hint("redeal", sure)
    legal = position.legal_moves()
    return Hint(legal[0].notation if legal else None, sure)


def _asked_before(position: MontanaPosition, text: str) -> montana.RoundSearch | None:
    """The unfinished search a hint here left waiting, if it is still waiting unmoved."""
    after = _ASKED.get(text)
    if after is None:
        return None
    waiting = _SEARCHES.get(after)
    if waiting is None or waiting.root_key != montana.key_of(montana.board_of(position)):
        return None  # let go of, or moved on along its move since
    return _SEARCHES.pop(after)


def _best_freecell_move(position: FreeCellPosition) -> str | None:
    """The move after which the position looks best (the search's own measure)."""
    best: tuple[int, str] | None = None
    for move in position.legal_moves():
        child = freecell.from_position(position.play(move))
        score = freecell.heuristic(child)
        if best is None or score < best[0]:
            best = (score, move.notation)
    return None if best is None else best[1]


class _Recent(Generic[T]):
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


_LINES: Final = _Recent[Hint](LINES_KEPT)
"""Every position along a Montana line that a finished search proved best: from each, the
rest of the line is still the best there is, so following the hint costs one search a round."""

_SEARCHES: Final = _Recent[montana.RoundSearch](SEARCHES_KEPT)
"""Montana searches still going, each under the position its suggested move leads to; a
player who plays that move finds the search there, and it carries on where it stopped."""


_ASKED: Final = _Recent[str](SEARCHES_KEPT)
"""Where a hint left its unfinished search waiting, by the position it was asked at: a
player who asks again without moving gets the same search carried on, not a new one."""


def _remember_line(position: MontanaPosition, line: tuple[str, ...]) -> None:
    learned = []
    for move in line:
        learned.append((position.to_text(), Hint(move, True)))
        position = position.play(position.parse_action(move))
    _LINES.put(learned)


def answer_for(position: Position, budget_ms: int = CHECK_BUDGET_MS) -> Answer:
    """The verdict and line for ``position`` (cached), as :func:`check` and
    :func:`solution` read them."""
    return _cached_answer(_kind(position), position.to_text(), budget_ms)


def forget() -> None:
    """Let go of every kept answer, line and search (the worker grew too large)."""
    _cached_answer.cache_clear()
    _cached_hint.cache_clear()
    _LINES.trim(0)
    _SEARCHES.trim(0)
    _ASKED.trim(0)
