"""Montana: search one round (the play between two redeals) exhaustively.

Within a round nothing is random and, with a transposition table, the search is finite:
it answers whether the round can be **cleared** (every card in place, the game won,
without another redeal) and finds the line that ends the round with the most cards in
place, which is what a hint suggests.

The board is 52 bytes, one per cell: the card's number (``Card.index``, 4…51 since the aces
are out) or ``GAP``. Cards in place never move again (a card in a row's sequence is never
wanted anywhere else, and a 2 in column 1 stays), so the score only grows along a line and
each move's gain is worked out from the row's sequence length alone. Moves are written as
the engine writes them (``8C B7``).

>>> result = search(montana.parse(NEARLY_WON))
>>> result.verdict, result.moves, result.best_score
('clearable', ('KS D12',), 48)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from operator import itemgetter
from typing import Final, Literal

from app.rules import montana
from app.rules.cards import Card
from app.rules.montana import COLUMNS, cell_name

Verdict = Literal["clearable", "blocked", "unknown"]
Board = bytes
Lengths = tuple[int, int, int, int]

GAP: Final = 255
KINGS: Final = 48
"""Card numbers from 48 up are kings: nothing follows them."""
TWOS: Final = (4, 5, 6, 7)
ROW_STARTS: Final = (0, 13, 26, 39)
ROW: Final = [cell // COLUMNS for cell in range(52)]
COLUMN: Final = [cell % COLUMNS for cell in range(52)]
RUN: Final = 12
"""A complete row sequence: 2 … K."""
CLEARED: Final = 48
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


def board_of(position: montana.MontanaPosition) -> Board:
    return bytes(GAP if card is None else card.index for card in position.cells)


def card_name(card: int) -> str:
    return Card.from_index(card).text


def lengths(board: Board) -> Lengths:
    """How many cards of each row are in place."""
    found = []
    for start in ROW_STARTS:
        first = board[start]
        length = 0
        if first in TWOS:
            length = 1
            while length < RUN and board[start + length] == first + 4 * length:
                length += 1
        found.append(length)
    return found[0], found[1], found[2], found[3]


def score(board: Board) -> int:
    return sum(lengths(board))


def moves(board: Board) -> list[tuple[int, int, int]]:
    """Every legal move as (card, from cell, to cell)."""
    found = []
    start = 0
    for _ in range(4):
        gap = board.index(GAP, start)
        start = gap + 1
        if gap % COLUMNS == 0:
            for two in TWOS:
                cell = board.index(two)
                if cell % COLUMNS:
                    found.append((two, cell, gap))
        else:
            left = board[gap - 1]
            if left < KINGS:
                found.append((left + 4, board.index(left + 4), gap))
    return found


def _zobrist() -> list[int]:
    """For a card (or the gap) in a cell, a random 128-bit number; a board's key XORs them.

    Two different boards share a key with a chance near 2**-100 even after millions of
    positions, so the key stands in for the board in the transposition table.
    """
    import random

    draw = random.Random(0x6A7).getrandbits
    table = [0] * (52 * 256)
    for cell in range(52):
        for value in (*range(4, 52), GAP):
            table[cell * 256 + value] = draw(128)
    return table


ZOBRIST: Final = _zobrist()
TOGGLE: Final = [
    ZOBRIST[cell * 256 + card] ^ ZOBRIST[cell * 256 + GAP] if card < 52 else 0
    for cell in range(52)
    for card in range(256)
]
"""Key change when ``card`` enters (or leaves) ``cell`` and the gap leaves (or enters) it."""


def key_of(board: Board) -> int:
    key = 0
    for cell, value in enumerate(board):
        key ^= ZOBRIST[cell * 256 + value]
    return key


def search(
    position: montana.MontanaPosition, *, max_nodes: int = 3_000_000, max_seconds: float = 5.0
) -> RoundResult:
    """Every position this round can reach, depth first, moves that gain cards first.

    One board is changed in place and changed back (the line to the current position is
    ``path``); the transposition table holds 128-bit keys, updated with two XORs a move.
    """
    began = time.perf_counter()
    deadline = began + max_seconds
    cells = bytearray(board_of(position))
    where = bytearray(52)
    for cell, value in enumerate(cells):
        if value != GAP:
            where[value] = cell
    gaps = [cell for cell, value in enumerate(cells) if value == GAP]
    rows = list(lengths(bytes(cells)))
    score_now = best_score = sum(rows)
    best_line: list[tuple[int, int]] = []
    path: list[tuple[int, int, int, int, int, int, int]] = []
    key = key_of(bytes(cells))
    seen = {key}
    toggle = TOGGLE
    todo = [_children(cells, where, gaps, rows, key, seen, toggle)]
    nodes = 1
    verdict: Verdict = "clearable" if best_score == CLEARED else "blocked"
    while verdict == "blocked":
        level = todo[-1]
        if level:
            if nodes & 1023 == 0 and (nodes >= max_nodes or time.perf_counter() > deadline):
                verdict = "unknown"
                break
            card, source, gap, slot, child = level.pop()
            nodes += 1
            cells[source] = GAP
            cells[gap] = card
            where[card] = gap
            gaps[slot] = source
            row = ROW[gap]
            column = COLUMN[gap]
            length = rows[row]
            path.append((card, source, gap, slot, row, length, key))
            key = child
            if column == length:
                start = gap - column
                first = cells[start]
                grown = column + 1
                while grown < RUN and cells[start + grown] == first + 4 * grown:
                    grown += 1
                rows[row] = grown
                score_now += grown - length
                if score_now > best_score:
                    best_score = score_now
                    best_line = [(move[0], move[2]) for move in path]
                    if best_score == CLEARED:
                        verdict = "clearable"
            children = _children(cells, where, gaps, rows, key, seen, toggle)
            if children:
                todo.append(children)
                continue
        else:
            todo.pop()
            if not todo:
                break
        # Back up one move: a position with nothing new below it, or one fully searched.
        card, source, gap, slot, row, length, key = path.pop()
        cells[gap] = GAP
        cells[source] = card
        where[card] = source
        gaps[slot] = gap
        score_now -= rows[row] - length
        rows[row] = length
    line = tuple(f"{card_name(card)} {cell_name(gap)}" for card, gap in best_line)
    return RoundResult(verdict, line, best_score, nodes, time.perf_counter() - began)


Move = tuple[int, int, int, int, int]
"""(card, from cell, to cell, which of the four gaps it fills, the key after the move)"""
_TO_CELL: Final = itemgetter(2)


def _children(
    cells: bytearray,
    where: bytearray,
    gaps: list[int],
    rows: list[int],
    key: int,
    seen: set[int],
    toggle: list[int],
) -> list[Move]:
    """The moves to positions not seen yet (now marked seen); the first to play comes last."""
    plain: list[Move] = []
    gaining: list[Move] = []
    for slot in (0, 1, 2, 3):
        gap = gaps[slot]
        column = COLUMN[gap]
        if column == 0:
            for two in TWOS:
                source = where[two]
                if COLUMN[source]:
                    child = key ^ toggle[source * 256 + two] ^ toggle[gap * 256 + two]
                    if child not in seen:
                        seen.add(child)
                        gaining.append((two, source, gap, slot, child))
            continue
        left = cells[gap - 1]
        if left >= KINGS:
            continue
        card = left + 4
        source = where[card]
        child = key ^ toggle[source * 256 + card] ^ toggle[gap * 256 + card]
        if child not in seen:
            seen.add(child)
            if column == rows[ROW[gap]]:
                gaining.append((card, source, gap, slot, child))
            else:
                plain.append((card, source, gap, slot, child))
    if len(plain) > 1:
        plain.sort(key=_TO_CELL)  # a fixed order: the last gap on the board is tried first
    plain.extend(gaining)
    return plain
