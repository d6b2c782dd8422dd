"""A FreeCell solver on a compact form of the position, for speed.

The search works on tuples of card numbers (``Card.index``: rank * 4 + suit, suits C D H S)
rather than on the engine's values, and speaks the engine's notation, so every line it
finds replays through :mod:`app.games.freecell.rules` (the tests and the benchmark replay each
one). After each move every *safe* card goes home, as the game does, and those moves are
part of the line: any tool can replay it without automatic moves.

Positions are deduplicated by a canonical key in which the order of the columns and of the
free cells does not matter, and all empty columns (and free cells) are one target.

- :func:`solve` is a greedy best-first search that may move whole runs (supermoves). It
  finds lines fast but never claims a deal is lost.
- ``atomic=True`` moves single cards only, depth first, until every reachable position is
  seen. A supermove is a shorthand for single-card moves, so when nothing is left the deal
  is proved **unsolvable**.

>>> result = solve(new_game(1))
>>> result.verdict, replay_wins(new_game(1), result.moves)
('solved', True)
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from app.games.freecell.rules import STANDARD, FreeCellPosition, FreeCellVariant, new_game
from app.rules.protocol import Answer, Verdict
from app.solve import memory

__all__ = ["Answer", "new_game", "replay_wins", "solve"]

Columns = tuple[tuple[int, ...], ...]
Cells = tuple[int, ...]
"""The free cells, -1 for an empty one."""
Foundations = tuple[int, ...]
State = tuple[Columns, Cells, Foundations]

EMPTY: Final = -1


@dataclass(frozen=True, slots=True)
class Family:
    """A variant's parts as the search reads them: its build rule as a table of card
    numbers, what an empty column takes, how far a supermove goes, its places' names."""

    variant: FreeCellVariant
    fits: tuple[tuple[bool, ...], ...]
    """``fits[card][onto]``: the variant's build rule on card numbers."""
    kings_only: bool
    doubling: bool
    column_names: tuple[str, ...]
    cell_names: str

    @classmethod
    def of(cls, variant: FreeCellVariant) -> Family:
        build = variant.build
        table = tuple(
            tuple(build.fits_index(card, onto) for onto in range(52)) for card in range(52)
        )
        return cls(
            variant,
            table,
            variant.empty.name == "kings",
            variant.doubling,
            variant.column_names,
            "".join(variant.cell_names),
        )

    def safe(self, card: int, foundations: Foundations) -> bool:
        return self.variant.build.is_safe(card, foundations)


_FAMILIES: dict[FreeCellVariant, Family] = {}


def family(variant: FreeCellVariant = STANDARD) -> Family:
    """The search's parts for ``variant`` (made once)."""
    if variant not in _FAMILIES:
        _FAMILIES[variant] = Family.of(variant)
    return _FAMILIES[variant]


def _run(column: tuple[int, ...], fits: tuple[tuple[bool, ...], ...]) -> int:
    length = 1
    for index in range(len(column) - 1, 0, -1):
        if not fits[column[index]][column[index - 1]]:
            break
        length += 1
    return length


def from_position(position: FreeCellPosition) -> State:
    columns = tuple(tuple(card.index for card in column) for column in position.columns)
    cells = tuple(EMPTY if card is None else card.index for card in position.cells)
    return columns, cells, position.foundations


def key(state: State) -> tuple[object, ...]:
    columns, cells, foundations = state
    return tuple(sorted(columns)), tuple(sorted(cells)), foundations


def _home(state: State, card: int) -> Foundations:
    foundations = list(state[2])
    foundations[card % 4] += 1
    return tuple(foundations)


def _settle(state: State, line: list[str], game: Family) -> State:
    """Play every safe card home, lowest rank first, as the game does."""
    names, cell_names = game.column_names, game.cell_names
    while True:
        columns, cells, foundations = state
        exposed = [(column[-1], f"{names[i]}h") for i, column in enumerate(columns) if column]
        exposed += [(card, f"{cell_names[i]}h") for i, card in enumerate(cells) if card != EMPTY]
        best: tuple[int, int, str] | None = None
        for card, notation in exposed:
            goes_home = card // 4 == foundations[card % 4] and game.safe(card, foundations)
            if goes_home and (best is None or card // 4 < best[0]):
                best = (card // 4, card, notation)
        if best is None:
            return state
        _, card, notation = best
        line.append(notation)
        if notation[0] in cell_names:
            slot = cell_names.index(notation[0])
            cells = (*cells[:slot], EMPTY, *cells[slot + 1 :])
        else:
            at = names.index(notation[0])
            columns = (*columns[:at], columns[at][:-1], *columns[at + 1 :])
        state = (columns, cells, _home(state, card))


def _with_column(columns: Columns, index: int, column: tuple[int, ...]) -> Columns:
    return (*columns[:index], column, *columns[index + 1 :])


def _moves(state: State, atomic: bool, game: Family) -> Iterator[tuple[str, State]]:
    """Every useful move: one empty column (and the first empty cell) stands for all."""
    columns, cells, foundations = state
    fits, names, cell_names = game.fits, game.column_names, game.cell_names
    free = cells.count(EMPTY)
    empty_columns = [i for i, column in enumerate(columns) if not column]
    first_empty = empty_columns[0] if empty_columns else None
    doubled = len(empty_columns) if game.doubling else 0
    onto_card = (1 + free) * 2**doubled
    into_empty = (1 + free) * 2 ** max(doubled - 1, 0)
    first_cell = cells.index(EMPTY) if free else None
    for source, column in enumerate(columns):
        if not column:
            continue
        card = column[-1]
        name = names[source]
        rest = column[:-1]
        if card // 4 == foundations[card % 4]:
            yield f"{name}h", (_with_column(columns, source, rest), cells, _home(state, card))
        run = 1 if atomic else _run(column, fits)
        for target, other in enumerate(columns):
            if target == source or not other:
                continue
            count = other[-1] // 4 - card // 4
            if 1 <= count <= run and count <= onto_card and fits[column[-count]][other[-1]]:
                moved = _with_column(columns, source, column[:-count])
                moved = _with_column(moved, target, other + column[-count:])
                yield f"{name}{names[target]}", (moved, cells, foundations)
        if first_empty is not None and len(column) > 1:
            longest = min(run, into_empty, len(column) - 1)
            counts = {1, longest}
            if game.kings_only:
                counts = {n for n in range(1, longest + 1) if column[-n] // 4 == 12}
            for count in counts:
                moved = _with_column(columns, source, column[:-count])
                moved = _with_column(moved, first_empty, column[-count:])
                suffix = f"v{count:x}" if count > 1 else ""
                yield f"{name}{names[first_empty]}{suffix}", (moved, cells, foundations)
        if first_cell is not None:
            held = (*cells[:first_cell], card, *cells[first_cell + 1 :])
            yield (
                f"{name}{cell_names[first_cell]}",
                (
                    _with_column(columns, source, rest),
                    held,
                    foundations,
                ),
            )
    for slot, card in enumerate(cells):
        if card == EMPTY:
            continue
        name = cell_names[slot]
        emptied = (*cells[:slot], EMPTY, *cells[slot + 1 :])
        if card // 4 == foundations[card % 4]:
            yield f"{name}h", (columns, emptied, _home(state, card))
        for target, other in enumerate(columns):
            if other and fits[card][other[-1]]:
                yield (
                    f"{name}{names[target]}",
                    (
                        _with_column(columns, target, (*other, card)),
                        emptied,
                        foundations,
                    ),
                )
        if first_empty is not None and (not game.kings_only or card // 4 == 12):
            yield (
                f"{name}{names[first_empty]}",
                (
                    _with_column(columns, first_empty, (card,)),
                    emptied,
                    foundations,
                ),
            )


@dataclass(frozen=True, slots=True)
class Weights:
    """How much each feature of a position counts against it (lower scores first)."""

    in_play: int
    buried: int
    disorder: int
    free_cell: int
    empty_column: int


ROOMY: Final = Weights(in_play=5, buried=2, disorder=1, free_cell=5, empty_column=10)
"""Prizes free cells and empty columns: the best single setting on deals 1-1000."""
HOMEWARD: Final = Weights(in_play=10, buried=3, disorder=1, free_cell=2, empty_column=4)
"""Prizes cards home: solves most of the deals the first setting gets lost in."""
PORTFOLIO: Final = ((ROOMY, 0.6), (HOMEWARD, 0.4))
"""Settings tried in turn, with their share of the time budget."""


def heuristic(state: State, weights: Weights = ROOMY) -> int:
    """Lower is better: cards in play, cards buried above the next card each foundation
    needs, cards lying on a higher card (disorder), and the room left to move in."""
    columns, cells, foundations = state
    score = (52 - sum(foundations)) * weights.in_play
    for column in columns:
        for depth in range(len(column)):
            card = column[-1 - depth]
            if card // 4 == foundations[card % 4]:
                score += depth * weights.buried
        for upper, lower in itertools.pairwise(column):
            if upper // 4 < lower // 4:
                score += weights.disorder
    score -= cells.count(EMPTY) * weights.free_cell
    score -= sum(1 for column in columns if not column) * weights.empty_column
    return score


def solve(
    position: FreeCellPosition,
    *,
    max_nodes: int = 500_000,
    max_seconds: float = 10.0,
    atomic: bool = False,
) -> Answer:
    """Find a winning line, prove there is none (``atomic``), or say ``unknown`` when a
    budget (positions expanded or seconds) runs out."""
    began = time.perf_counter()
    deadline = began + max_seconds
    start_line: list[str] = []
    game = family(position.variant)
    state = _settle(from_position(position), start_line, game)
    if sum(state[2]) == 52:
        return Answer("solved", tuple(start_line), 0, 0.0)
    if atomic:
        verdict, line, nodes = _exhaust(state, max_nodes, deadline, game)
    else:
        verdict, line, nodes = "unknown", [], 0
        for weights, share in PORTFOLIO:
            slice_end = min(deadline, time.perf_counter() + max_seconds * share)
            verdict, line, spent = _best_first(state, max_nodes - nodes, slice_end, weights, game)
            nodes += spent
            if verdict == "solved":
                break
    moves = (*start_line, *line) if verdict == "solved" else ()
    return Answer(verdict, moves, nodes, time.perf_counter() - began)


Parents = dict[int, tuple[int, tuple[str, ...]]]


def _best_first(
    state: State, max_nodes: int, deadline: float, weights: Weights, game: Family
) -> tuple[Verdict, list[str], int]:
    counter = itertools.count(1)
    seen = {key(state)}
    parents: Parents = {}
    frontier: list[tuple[int, int, State]] = [(heuristic(state, weights), 0, state)]
    nodes = 0
    while frontier and nodes < max_nodes:
        if nodes % 256 == 0 and (time.perf_counter() > deadline or _full(nodes)):
            break
        _, node, current = heapq.heappop(frontier)
        nodes += 1
        for child_id, child in _new_children(current, node, False, seen, parents, counter, game):
            if sum(child[2]) == 52:
                return "solved", _line(parents, child_id), nodes
            heapq.heappush(frontier, (heuristic(child, weights), child_id, child))
    return "unknown", [], nodes


def _exhaust(
    state: State, max_nodes: int, deadline: float, game: Family
) -> tuple[Verdict, list[str], int]:
    """Depth first over single-card moves until a win or nothing new is left."""
    counter = itertools.count(1)
    seen = {key(state)}
    parents: Parents = {}
    stack: list[tuple[int, State]] = [(0, state)]
    nodes = 0
    while stack:
        if nodes >= max_nodes or (
            nodes % 256 == 0 and (time.perf_counter() > deadline or _full(nodes))
        ):
            return "unknown", [], nodes
        node, current = stack.pop()
        nodes += 1
        children = []
        for child_id, child in _new_children(current, node, True, seen, parents, counter, game):
            if sum(child[2]) == 52:
                return "solved", _line(parents, child_id), nodes
            children.append((heuristic(child), child_id, child))
        # The most promising child is explored first (popped last from the stack).
        children.sort(reverse=True)
        stack.extend((child_id, child) for _, child_id, child in children)
    return "unsolvable", [], nodes


def _full(nodes: int) -> bool:
    """Whether the solver process's memory limit stops the search (looked at now and then)."""
    return nodes % FULL_CHECK_EVERY == 0 and memory.full()


FULL_CHECK_EVERY: Final = 2_048
"""FreeCell positions cost far more than Montana's: the process's size is looked at sooner."""


def _new_children(
    current: State,
    node: int,
    atomic: bool,
    seen: set[tuple[object, ...]],
    parents: Parents,
    counter: Iterator[int],
    game: Family,
) -> Iterator[tuple[int, State]]:
    """The positions one move (and the safe cards it sends home) away that are new; each
    is numbered and remembered with the line that reached it."""
    for notation, child in _moves(current, atomic, game):
        line = [notation]
        child = _settle(child, line, game)
        child_key = key(child)
        if child_key in seen:
            continue
        seen.add(child_key)
        child_id = next(counter)
        parents[child_id] = (node, tuple(line))
        yield child_id, child


def _line(parents: Parents, node: int) -> list[str]:
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
