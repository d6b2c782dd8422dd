"""Montana: search one round (the play between two redeals) exhaustively.

Within a round nothing is random and, with a transposition table, the search is finite:
it answers whether the round can be **cleared** (every card in place, the game won,
without another redeal) and finds the line that ends the round with the most cards in
place, which is what a hint suggests. The board is a tuple of 52 card numbers
(``Card.index``, -1 for a gap); moves are written as the engine writes them (``8C B7``).

>>> result = search(montana.parse(NEARLY_WON))
>>> result.verdict, result.moves, result.best_score
('clearable', ('KS D12',), 48)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final, Literal

from app.rules import montana
from app.rules.cards import Card
from app.rules.montana import COLUMNS, cell_name

Verdict = Literal["clearable", "blocked", "unknown"]
Board = tuple[int, ...]

GAP: Final = -1
NEARLY_WON: Final = """\
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS
"""


@dataclass(frozen=True, slots=True)
class RoundResult:
    verdict: Verdict
    """``clearable`` (a line wins), ``blocked`` (proved: no line wins this round) or
    ``unknown`` (the budget ran out first)."""
    moves: tuple[str, ...]
    """The line to the best position found: a win when clearable."""
    best_score: int
    nodes: int
    seconds: float


def _board(position: montana.MontanaPosition) -> Board:
    return tuple(GAP if card is None else card.index for card in position.cells)


def _name(card: int) -> str:
    return Card(card // 4 + 1, "CDHS"[card % 4]).text  # type: ignore[arg-type]


def score(board: Board) -> int:
    total = 0
    for start in range(0, 52, COLUMNS):
        first = board[start]
        if first == GAP or first // 4 != 1:
            continue
        length = 1
        while length < 12 and board[start + length] == first + 4 * length:
            length += 1
        total += length
    return total


def moves(board: Board) -> list[tuple[str, Board]]:
    where = {card: cell for cell, card in enumerate(board) if card != GAP}
    result = []
    for gap, card in enumerate(board):
        if card != GAP:
            continue
        if gap % COLUMNS == 0:
            wanted = [two for two in (4, 5, 6, 7) if where[two] % COLUMNS != 0]
        else:
            left = board[gap - 1]
            wanted = [left + 4] if left != GAP and left // 4 < 12 else []
        for card_wanted in wanted:
            cells = list(board)
            cells[where[card_wanted]] = GAP
            cells[gap] = card_wanted
            result.append((f"{_name(card_wanted)} {cell_name(gap)}", tuple(cells)))
    return result


def search(
    position: montana.MontanaPosition, *, max_nodes: int = 2_000_000, max_seconds: float = 5.0
) -> RoundResult:
    """Every position this round can reach, depth first, best-scoring moves first."""
    began = time.perf_counter()
    deadline = began + max_seconds
    start = _board(position)
    parents: dict[Board, tuple[Board, str] | None] = {start: None}
    best, best_score = start, score(start)
    stack = [start]
    nodes = 0
    verdict: Verdict = "blocked"
    while stack:
        if nodes >= max_nodes or (nodes % 512 == 0 and time.perf_counter() > deadline):
            verdict = "unknown"
            break
        board = stack.pop()
        nodes += 1
        children = []
        for notation, child in moves(board):
            if child in parents:
                continue
            parents[child] = (board, notation)
            child_score = score(child)
            if child_score > best_score:
                best, best_score = child, child_score
            children.append((child_score, child))
        if best_score == 48:
            verdict = "clearable"
            break
        children.sort()
        stack.extend(child for _, child in children)
    return RoundResult(
        verdict, _line(parents, best), best_score, nodes, time.perf_counter() - began
    )


def _line(parents: dict[Board, tuple[Board, str] | None], board: Board) -> tuple[str, ...]:
    line: list[str] = []
    step = parents[board]
    while step is not None:
        board, notation = step
        line.append(notation)
        step = parents[board]
    return tuple(reversed(line))
