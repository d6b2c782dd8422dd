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

**Safe moves.** A card X that fits the gap after its row's sequence can never go anywhere
else, and nothing else can fill that gap, so that move stays open until it is played. Where
X stands, it matters only as the left neighbour of the next cell, where X's successor could
be put. When X is a king, or stands in column 13, or already has its successor to its right,
that never happens: any line from the position can play X first and reach the same end.
Such a move is searched alone, which keeps every best line and every win (the unit tests
check it against every position of whole late rounds, listed by the engine).

**Two engines.** :class:`RoundSearch` is the search in Python. The same search compiled
(``_search.c``, built by ``pip install -e .`` where a C compiler is found) runs the same
moves in the same order about ten times as fast, and keeps its seen positions in 8 bytes
each, within the bytes the process can spare; :class:`CompiledSearch` drives it and replays
every line it returns through the rules engine before anyone sees it. :data:`ENGINE` says
which one :func:`new_search` makes: the compiled one when it is built, unless the
environment variable ``SOLITAIRE_MONTANA_ENGINE=python`` asks for the Python one.

>>> result = search(montana.parse(NEARLY_WON))
>>> result.verdict, result.moves, result.best_score
('solved', ('KS D12',), 48)
"""

from __future__ import annotations

import logging
import os
import time
from types import ModuleType
from typing import Final, Literal

from app.games.montana import rules as montana
from app.games.montana.rules import COLUMNS, cell_name
from app.rules.cards import Card
from app.rules.protocol import Answer, IllegalMoveError, InvalidMoveError, Verdict
from app.solve import memory

logger = logging.getLogger("solitaire.montana")

ENGINE_SETTING: Final = "SOLITAIRE_MONTANA_ENGINE"
"""Set to ``python`` to search with the Python engine even where the compiled one is built."""


def _compiled() -> ModuleType | None:
    """The compiled search, unless it is missing or the environment asks for Python."""
    if os.environ.get(ENGINE_SETTING, "").strip().lower() == "python":
        return None
    try:
        from app.games.montana import _search
    except ImportError:  # no C compiler where the site was installed
        return None
    return _search


_CORE: Final = _compiled()
ENGINE: Final[Literal["compiled", "python"]] = "python" if _CORE is None else "compiled"

Board = bytes
Lengths = tuple[int, int, int, int]
Move = tuple[int, int, int, int, int]
"""A move waiting to be searched: ``(gap, card, source, slot, child)``, that is the cell it
fills, the card, the cell the card leaves, which of the four gaps (``RoundSearch.gaps``) it
fills and the key of the position after it. In that order, sorting moves sorts them by
target cell."""
Step = tuple[int, int, int, int, int, int, int]
"""A move on the line being searched, with what taking it back needs: ``(card, source,
gap, slot, row, length, key)``, that is the card, the cell it left, the cell it filled, which
of the four gaps that was, the filled cell's row, that row's sequence length before the move
and the key of the position before it."""
Played = tuple[int, int]
"""A move of a line kept for the result: ``(card, gap)``."""

# The fields by name where a tuple is read rather than unpacked (the search loop unpacks
# them into locals of the names above). Plain tuples and these indices keep the loop fast: as
# NamedTuples, built once a move, the search ran about a third fewer positions a second.
_MOVE_GAP, _MOVE_CARD, _MOVE_SOURCE, _MOVE_SLOT, _MOVE_CHILD = range(5)
_STEP_CARD, _STEP_SOURCE, _STEP_GAP, _STEP_SLOT, _STEP_ROW, _STEP_LENGTH, _STEP_KEY = range(7)

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
PYTHON_MAX_NODES: Final = 1_500_000
"""At most this many positions in one Python search (about 100 bytes each, 150 MB). In a
solver process the process's memory limit (:mod:`app.solve.memory`) stops a search
sooner."""
MAX_NODES: Final = PYTHON_MAX_NODES if ENGINE == "python" else 2_000_000_000
"""At most this many positions in one search: the compiled search is bounded by the bytes of
its seen table instead (:func:`seen_room`)."""
HINT_MAX_NODES: Final = MAX_NODES
SEEN_MAX_BYTES: Final = 512 * 1024 * 1024
"""The compiled search's seen table, at most: 8 bytes a position, at most 4/5 full, so
about 54 million positions."""
SEEN_SLACK_BYTES: Final = 8 * 1024 * 1024
"""Left free under a process's memory limit for what else a search holds (its line and the
moves still to try, the answer)."""
"""At most this many positions for one round's hints, carried on or not."""
NEARLY_WON: Final = """\
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS
"""


def board_of(position: montana.MontanaPosition) -> Board:
    return bytes(GAP if card is None else card.index for card in position.cells)


def row_twos(position: montana.MontanaPosition) -> tuple[tuple[int, ...], ...]:
    """For each row, the 2s (card numbers) its column-1 gap takes: any in Montana, the
    2 of the row's ace where aces head the rows."""
    if not position.aces:
        return (TWOS,) * 4
    return tuple((Card(2, ace.suit).index,) for ace in position.aces)


def card_name(card: int) -> str:
    return Card.from_index(card).text


def lengths(board: Board, twos: tuple[tuple[int, ...], ...] = (TWOS,) * 4) -> Lengths:
    """How many cards of each row are in place (``twos``: the 2s each row may start with)."""
    found = []
    for start, starts in zip(ROW_STARTS, twos, strict=True):
        first = board[start]
        length = 0
        if first in starts:
            length = 1
            while length < RUN and board[start + length] == first + 4 * length:
                length += 1
        found.append(length)
    return found[0], found[1], found[2], found[3]


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
TOGGLES: Final = [
    [ZOBRIST[cell * 256 + card] ^ ZOBRIST[cell * 256 + GAP] for cell in range(52)]
    for card in range(52)
]
"""``TOGGLES[card][cell]``: the key change when ``card`` enters (or leaves) ``cell`` and the
gap leaves (or enters) it."""


def key_of(board: Board) -> int:
    key = 0
    for cell, value in enumerate(board):
        key ^= ZOBRIST[cell * 256 + value]
    return key


def search(
    position: montana.MontanaPosition, *, max_nodes: int = MAX_NODES, max_seconds: float = 5.0
) -> Answer:
    """Every position this round can reach, depth first, moves that gain cards first."""
    return new_search(position).run(max_seconds=max_seconds, max_nodes=max_nodes)


def new_search(position: montana.MontanaPosition) -> Search:
    """A search of ``position``'s round by the engine that runs here (:data:`ENGINE`)."""
    return RoundSearch(position) if _CORE is None else CompiledSearch(position)


def seen_room(own_bytes: int) -> int:
    """The bytes a compiled search's seen table may take (``own_bytes``: what it holds now):
    what the process's memory limit leaves, or :data:`SEEN_MAX_BYTES` where none is set."""
    room = memory.room()
    if room is None:
        return SEEN_MAX_BYTES
    return max(0, min(SEEN_MAX_BYTES, room + own_bytes - SEEN_SLACK_BYTES))


class RoundSearch:
    """A depth-first search of one round that can stop, resume, and follow a move played.

    One board is changed in place and changed back (``path`` is the line from the root to
    the position being searched, one :data:`Step` a move; ``todo[i]`` the moves, as
    :data:`Move`, still to try at depth ``i``); the transposition table holds 128-bit keys,
    updated with two XORs a move.

    When the budget runs out the search stops where it is. Every first move tried before
    the current one led nowhere that clears the round, so the move it suggests is the
    current first move (``path[0]``): if the player plays it, :meth:`advance` makes that
    position the root and the next :meth:`run` carries on below it instead of starting
    again. After such a step a finished search still proves or disproves a win, but its
    best line is only the best it saw (positions shared with the abandoned first moves are
    not searched twice).
    """

    def __init__(self, position: montana.MontanaPosition, *, lost: set[int] | None = None) -> None:
        """``lost``: positions proved lost by earlier searches (see :meth:`restart`),
        skipped."""
        self.cells = cells = bytearray(board_of(position))
        self.where = bytearray(52)
        for cell, value in enumerate(cells):
            if value != GAP:
                self.where[value] = cell
        self.gaps = [cell for cell, value in enumerate(cells) if value == GAP]
        self.twos = row_twos(position)
        """The 2s a column-1 gap of each row takes (one, the ace's, in a row it heads)."""
        self.headed = bool(position.aces)
        self.rows = list(lengths(bytes(cells), self.twos))
        self.score_now = self.best_score = self.open_score = sum(self.rows)
        self.best_line: list[Played] = []
        self.open_line: list[Played] = []
        """The best line found below the first move now being searched."""
        self.path: list[Step] = []
        self.key = key_of(bytes(cells))
        self.lost: set[int] = lost if lost is not None else set()
        """Positions proved lost: every one a finished search without a clear saw."""
        known_lost = self.key in self.lost
        self.seen = set(self.lost)
        self.seen.add(self.key)
        self.todo: list[list[Move]] = []
        self.expand = True
        """The position reached has not had its moves listed yet (only ever the root)."""
        self.nodes = 1
        self.verdict: Verdict = "solved" if self.best_score == CLEARED else "unsolvable"
        self.finished = self.verdict == "solved" or known_lost
        self.advanced = False

    def run(self, *, max_seconds: float, max_nodes: int = MAX_NODES) -> Answer:
        began = time.perf_counter()
        deadline = began + max_seconds
        stop_at = self.nodes + max_nodes
        cells, where, gaps, rows, path, todo, seen = (
            self.cells, self.where, self.gaps, self.rows, self.path, self.todo, self.seen
        )  # fmt: skip
        key, nodes, score_now, expand = self.key, self.nodes, self.score_now, self.expand
        mark, toggles, row_of, column_of = seen.add, TOGGLES, ROW, COLUMN
        twos, headed = self.twos, self.headed
        verdict: Verdict = "unknown"
        while not self.finished:
            if expand:
                # The moves from here to positions not seen yet (now marked seen). Plain
                # moves are tried by target cell, the last gap on the board first; moves
                # that put cards in place come last in the list, so they are tried first.
                plain: list[Move] = []
                gaining: list[Move] = []
                for slot in (0, 1, 2, 3):
                    gap = gaps[slot]
                    column = column_of[gap]
                    if column == 0:
                        for two in twos[row_of[gap]]:
                            source = where[two]
                            if column_of[source] or headed:  # a 2 in column 1 stays there
                                moved = toggles[two]
                                child = key ^ moved[source] ^ moved[gap]
                                if child not in seen:
                                    mark(child)
                                    gaining.append((gap, two, source, slot, child))
                        continue
                    left = cells[gap - 1]
                    if left >= KINGS:
                        continue
                    card = left + 4
                    source = where[card]
                    moved = toggles[card]
                    child = key ^ moved[source] ^ moved[gap]
                    if column == rows[row_of[gap]]:
                        if (
                            card >= KINGS
                            or column_of[source] == 12
                            or cells[source + 1] == card + 4
                        ):  # A safe move (module notes): the only child searched.
                            # Moves listed before it stay marked, unsearched: from each of
                            # those positions this move is still safe, and playing it there
                            # leads to a position found below this one.
                            plain, gaining = [], []
                            if child not in seen:
                                mark(child)
                                plain.append((gap, card, source, slot, child))
                            break
                        if child not in seen:
                            mark(child)
                            gaining.append((gap, card, source, slot, child))
                    elif child not in seen:
                        mark(child)
                        plain.append((gap, card, source, slot, child))
                if len(plain) > 1:
                    plain.sort()
                plain += gaining
                todo.append(plain)  # empty when nothing new is below: backed up at once
            level = todo[-1]
            if level:
                if nodes & 1023 == 0 and (
                    nodes >= stop_at
                    or time.perf_counter() > deadline
                    or (nodes & (memory.CHECK_EVERY - 1) == 0 and memory.full())
                ):
                    expand = False
                    break
                gap, card, source, slot, child = level.pop()  # a Move
                nodes += 1
                cells[source] = GAP
                cells[gap] = card
                where[card] = gap
                gaps[slot] = source
                row = row_of[gap]
                column = column_of[gap]
                length = rows[row]
                if not path:
                    self.open_score, self.open_line = score_now, [(card, gap)]
                path.append((card, source, gap, slot, row, length, key))  # a Step
                key = child
                expand = True
                if column == length:
                    start = gap - column
                    first = cells[start]
                    grown = column + 1
                    while grown < RUN and cells[start + grown] == first + 4 * grown:
                        grown += 1
                    rows[row] = grown
                    score_now += grown - length
                    if score_now > self.open_score:
                        self.open_score = score_now
                        self.open_line = [(step[_STEP_CARD], step[_STEP_GAP]) for step in path]
                        if score_now > self.best_score:
                            self.best_score, self.best_line = score_now, self.open_line
                            if score_now == CLEARED:
                                self.finished = True
                                self.verdict = "solved"
                continue
            todo.pop()
            if not todo:
                self.finished = True
                break
            # Every move below this position has been searched (or none was new).
            expand = False
            card, source, gap, slot, row, length, key = path.pop()  # a Step
            cells[gap] = GAP
            cells[source] = card
            where[card] = source
            gaps[slot] = gap
            score_now -= rows[row] - length
            rows[row] = length
        self.key, self.nodes, self.score_now, self.expand = key, nodes, score_now, expand
        line = self.best_line
        if self.finished:
            verdict = self.verdict
        elif path:
            line = self.open_line
        moves = tuple(f"{card_name(card)} {cell_name(gap)}" for card, gap in line)
        score = self.best_score if line is self.best_line else self.open_score
        return Answer(verdict, moves, nodes, time.perf_counter() - began, best_score=score)

    @property
    def root_key(self) -> int:
        """The key of the position this search starts from (after any moves it moved on)."""
        return self.path[0][_STEP_KEY] if self.path else self.key

    def is_at(self, position: montana.MontanaPosition) -> bool:
        """Whether this search starts from ``position`` (after any moves it moved on)."""
        return self.root_key == key_of(board_of(position))

    def restart(self, position: montana.MontanaPosition) -> RoundSearch:
        """A search from ``position`` (a board of the same game: the same 2s head its rows)
        that skips every position proved lost so far: each one a search finished without a
        clear saw (reachable from a root that cannot be cleared, it cannot be either). A
        clearing line from ``position`` never passes through one; a root among them is lost
        at once. Not after :meth:`advance` (it let go of positions it saw)."""
        assert not self.advanced, "a search that moved on does not restart"
        if self.finished and self.verdict == "unsolvable":
            self.lost = self.seen
        return RoundSearch(position, lost=self.lost)

    def advance(self) -> None:
        """The first move of the current line was played: it is the root from now on."""
        assert self.path and not self.finished, "only an unfinished search moves on"
        for move in self.todo.pop(0):
            # Generated, never searched: the new root may reach it.
            self.seen.discard(move[_MOVE_CHILD])
        self.path.pop(0)
        self.best_score, self.best_line = self.open_score, self.open_line[1:]
        if self.path:
            first = self.path[0]
            self.open_line = [(first[_STEP_CARD], first[_STEP_GAP])]
        else:
            self.open_line = []
        self.open_score = self.best_score
        self.advanced = True


class CompiledSearch:
    """:class:`RoundSearch`'s search run by the compiled core, with the same methods.

    Every line the core returns is replayed through the rules engine from the position the
    search starts at, and must end with the score the core claims (a won board when it says
    "solved"). A line that does not is the core's bug: it is logged, and from then on this
    search is carried on by the Python engine from where it starts.
    """

    def __init__(self, position: montana.MontanaPosition) -> None:
        assert _CORE is not None, "the compiled search is not built here"
        twos = tuple(bytes(row) for row in row_twos(position))
        self.core = _CORE.Search(board_of(position), twos, bool(position.aces))
        self.root = position
        self.suggested: str | None = None
        """The first move of the unfinished line last answered (what :meth:`advance` plays)."""
        self.python: RoundSearch | None = None
        """The Python search that took over after a line failed its replay."""

    @property
    def nodes(self) -> int:
        return self.core.nodes if self.python is None else self.python.nodes

    @property
    def advanced(self) -> bool:
        return self.core.advanced if self.python is None else self.python.advanced

    def is_at(self, position: montana.MontanaPosition) -> bool:
        if self.python is not None:
            return self.python.is_at(position)
        assert _CORE is not None
        return bool(self.core.root_key == _CORE.key_of(board_of(position)))

    def run(self, *, max_seconds: float, max_nodes: int = MAX_NODES) -> Answer:
        if self.python is not None:
            return self.python.run(max_seconds=max_seconds, max_nodes=max_nodes)
        began = time.perf_counter()
        limited = memory.room() is not None
        self.core.run(
            max_seconds,
            max_nodes,
            seen_room(self.core.seen_bytes),
            memory.full if limited else None,
        )
        found, line, score = self.core.result()
        verdict: Verdict = "unknown" if found is None else found
        moves = self._replayed(line, score, verdict)
        if moves is None:
            logger.error(
                "the compiled Montana search returned a line the rules refuse: %s from\n%s",
                line,
                self.root.to_text(),
            )
            self.python = RoundSearch(self.root)
            left = max_seconds - (time.perf_counter() - began)
            return self.python.run(max_seconds=max(left, 0.0), max_nodes=max_nodes)
        self.suggested = moves[0] if found is None and moves else None
        seconds = time.perf_counter() - began
        return Answer(verdict, moves, self.core.nodes, seconds, best_score=score)

    def _replayed(
        self, line: list[tuple[int, int]], score: int, verdict: Verdict
    ) -> tuple[str, ...] | None:
        """``line`` in our notation, if its moves are legal from the root and it ends as the
        core says: a won board when solved; ``score`` in place when finished (an unfinished
        line, or one found after moving on, may be a first move whose best line below scores
        ``score``). None when it does not."""
        position = self.root
        moves = []
        try:
            for card, gap in line:
                move = f"{card_name(card)} {cell_name(gap)}"
                position = position.play(position.parse_action(move))
                moves.append(move)
        except (IllegalMoveError, InvalidMoveError, ValueError, IndexError):
            return None
        exact = verdict == "unknown" or self.core.advanced or position.score == score
        if position.score <= score and exact and (verdict != "solved" or position.is_won()):
            return tuple(moves)
        return None

    def restart(self, position: montana.MontanaPosition) -> Search:
        """As :meth:`RoundSearch.restart`: the core keeps its seen table (this search, from
        ``position`` now)."""
        if self.python is not None:
            return self.python.restart(position)
        self.core.restart(board_of(position))
        self.root, self.suggested = position, None
        return self

    def advance(self) -> None:
        """The first move of the current line was played: it is the root from now on."""
        if self.python is not None:
            self.python.advance()
            return
        assert self.suggested is not None, "only an unfinished search moves on"
        self.core.advance()
        self.root = self.root.play(self.root.parse_action(self.suggested))
        self.suggested = None


Search = RoundSearch | CompiledSearch
