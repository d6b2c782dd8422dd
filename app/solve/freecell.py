"""A FreeCell solver: best-first search over the engine's positions.

Each step plays one legal move and then every safe card home (as the game does), so a line
is a list of moves in standard notation, foundation moves included, that any tool can
replay without automatic moves. Positions are deduplicated by a canonical key in which the
order of the columns and of the free cells does not matter. The search is greedy on a
heuristic: cards still in play, cards lying on top of the next card each foundation
needs, and the free cells and columns left empty.

>>> result = solve(new_game(1), max_nodes=20_000)
>>> result.verdict
'solved'
>>> replay_wins(new_game(1), result.moves)
True
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from app.rules.cards import SUITS
from app.rules.freecell import FreeCellMove, FreeCellPosition, new_game

Verdict = Literal["solved", "unsolvable", "unknown"]

__all__ = ["SolveResult", "new_game", "replay_wins", "solve"]

_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(SUITS)}


@dataclass(frozen=True, slots=True)
class SolveResult:
    verdict: Verdict
    moves: tuple[str, ...]
    nodes: int


def canonical_key(position: FreeCellPosition) -> tuple[object, ...]:
    """Positions that differ only in the order of columns or free cells share a key."""
    columns = tuple(sorted(tuple(card.index for card in column) for column in position.columns))
    cells = tuple(sorted(card.index for card in position.cells if card is not None))
    return columns, cells, position.foundations


def heuristic(position: FreeCellPosition) -> int:
    """Lower is better."""
    score = position.cards_left * 6
    foundations = position.foundations
    for column in position.columns:
        for depth, card in enumerate(reversed(column)):
            if card.rank == foundations[_SUIT_INDEX[card.suit]] + 1:
                score += depth * 3
            # A card lying on a lower card of its own suit must move off it first.
        for upper, lower in itertools.pairwise(column):
            if upper.rank < lower.rank:
                score += 1
    score -= position.empty_cells * 3 + position.empty_columns * 6
    return score


def _settle(position: FreeCellPosition, line: list[str]) -> FreeCellPosition:
    while (move := position.automatic_move()) is not None:
        position = position.play(move)
        line.append(move.notation)
    return position


def solve(
    position: FreeCellPosition, *, max_nodes: int = 200_000, atomic: bool = False
) -> SolveResult:
    """Find a winning line, prove there is none, or give up after ``max_nodes`` positions.

    With ``atomic`` the search moves single cards only: a supermove is a shorthand for such
    moves, so running out of positions then proves the deal cannot be won. Without it the
    search also takes whole runs (faster to a solution) and never claims a proof.
    """
    start_line: list[str] = []
    position = _settle(position, start_line)
    if position.is_won():
        return SolveResult("solved", tuple(start_line), 0)
    counter = itertools.count()
    seen = {canonical_key(position)}
    parents: dict[int, tuple[int, tuple[str, ...]]] = {}
    root = next(counter)
    frontier = [(heuristic(position), root, position)]
    nodes = 0
    while frontier and nodes < max_nodes:
        _, node, current = heapq.heappop(frontier)
        nodes += 1
        for move in _ordered_moves(current, atomic):
            line = [move.notation]
            child = _settle(current.play(move), line)
            key = canonical_key(child)
            if key in seen:
                continue
            seen.add(key)
            child_id = next(counter)
            parents[child_id] = (node, tuple(line))
            if child.is_won():
                return SolveResult("solved", (*start_line, *_line(parents, child_id)), nodes)
            heapq.heappush(frontier, (heuristic(child), child_id, child))
    verdict: Verdict = "unsolvable" if atomic and not frontier else "unknown"
    return SolveResult(verdict, (), nodes)


def _ordered_moves(position: FreeCellPosition, atomic: bool) -> Sequence[FreeCellMove]:
    """The moves to try: single cards only when ``atomic``; otherwise runs too, a run into
    an empty column only at its longest."""
    moves = position.legal_moves()
    if atomic:
        return [move for move in moves if move.count == 1]
    longest: dict[tuple[str, str], int] = {}
    for move in moves:
        if move.to_empty:
            key = (move.source, move.target)
            longest[key] = max(longest.get(key, 0), move.count)
    return [
        move
        for move in moves
        if not move.to_empty or move.count in (1, longest[(move.source, move.target)])
    ]


def _line(parents: dict[int, tuple[int, tuple[str, ...]]], node: int) -> list[str]:
    pieces: list[tuple[str, ...]] = []
    while node in parents:
        node, piece = parents[node]
        pieces.append(piece)
    return [notation for piece in reversed(pieces) for notation in piece]


def replay_wins(position: FreeCellPosition, moves: Sequence[str]) -> bool:
    """Whether playing ``moves`` (no automatic moves) from ``position`` wins."""
    for notation in moves:
        position = position.play(position.parse_action(notation))
    return position.is_won()
