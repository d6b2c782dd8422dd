"""FreeCell on fc-solve's library (Debian's ``libfreecell-solver0``), in this process.

Freecell Solver is the field's standard engine: hundreds of times faster than our own
search (:mod:`app.games.freecell.solver`), which stays for machines without the library and
as a cross-check. This module is a :mod:`ctypes` binding to ``libfreecell-solver.so.0``
(fc-solve 5.0's ``fcs_user.h`` and ``fcs_cl.h``, built with error strings and without
``FCS_BREAK_BACKWARD_COMPAT_1``, as Debian builds it), loaded on first use; when it is
missing, :func:`available` is false and callers use the Python search.

Layers, lowest first:

- :class:`Library` and :class:`Instance`: the C calls (alloc, command-line presets, game
  settings, iteration and state limits, solve and resume, the moves, free).
- :func:`board_text` writes any position (cells and foundations included) as fc-solve
  reads it; :func:`settings_for` maps each of our variants to fc-solve's game settings.
- :func:`search` runs one scan within iterations, seconds and this process's memory bound,
  stepping the library so that none of them is overrun by much.
- :func:`replay` turns fc-solve's moves into our notation through our own rules engine,
  with the safe cards our game sends home (a line that does not replay raises
  :class:`ReplayError`: our bug, never shown to a player).
- :func:`solve` gives a verdict: a fast meta-move preset finds a line; "unsolvable" only
  when an exhaustive search with single-card (atomic) moves ran to its end.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from app.games.freecell.rules import (
    FOUNDATION_ORDER,
    FreeCellMove,
    FreeCellPosition,
    FreeCellVariant,
)
from app.rules.cards import RANK_LETTERS, SUITS, Card
from app.rules.parts import KINGS_ONLY, SAME_SUIT
from app.rules.protocol import Answer, IllegalMoveError, Verdict
from app.solve import memory

logger = logging.getLogger("solitaire.fcsolve")

LIBRARY_NAME: Final = "libfreecell-solver.so.0"
DISABLE_ENV: Final = "SOLITAIRE_FCSOLVE"
"""Set to ``off`` to run the Python search even where the library is installed."""

FAST_ARGS: Final[tuple[str, ...]] = ("-l", "lg")
"""fc-solve's "looking glass" preset: meta-moves, many scans; finds lines, proves nothing."""
KINGS_ONLY_FAST_ARGS: Final[tuple[str, ...]] = ("-l", "cj")
""""Cool jives" for Eight Off and Seahaven: "looking glass" puts other cards than kings
into empty columns there (19 of Seahaven's deals 1-100), "cool jives" keeps the rule."""
ATOMIC_ARGS: Final[tuple[str, ...]] = ("-to", "01ABCDE", "-sp", "r:tf")
"""One depth-first scan of single-card moves (``A``-``E``) and moves home (``0``, ``1``),
with safe cards sent home at once (``r:tf``, as our game does): when it runs out, no line
exists."""

STEP: Final = 4096
"""Iterations between two looks at the clock and the process's size."""
STATE_BYTES: Final = 800
"""About what one stored state costs fc-solve (measured: 590-730 bytes, hash included)."""

# fcs_move.h
STACK_TO_STACK: Final = 0
STACK_TO_FREECELL: Final = 1
FREECELL_TO_STACK: Final = 2
FREECELL_TO_FREECELL: Final = 3
STACK_TO_FOUNDATION: Final = 4
FREECELL_TO_FOUNDATION: Final = 5
SEQ_TO_FOUNDATION: Final = 11
# fcs_enums.h
WAS_SOLVED: Final = 0
IS_NOT_SOLVEABLE: Final = 1
SUSPEND_PROCESS: Final = 5
INVALID_STATE: Final = 8
BUILT_BY_ALTERNATE_COLOR: Final = 0
BUILT_BY_SUIT: Final = 1
FILLED_BY_ANY_CARD: Final = 0
FILLED_BY_KINGS_ONLY: Final = 1

Status = Literal["solved", "exhausted", "stopped", "refused"]
"""What one scan did: found a line, ran out of positions, hit a limit, or read no board."""


class FcsMove(ctypes.Structure):
    """``fcs_move_t``: four bytes, type, source, destination, cards in the sequence."""

    _fields_ = [("c", ctypes.c_ubyte * 4)]


class LibraryError(RuntimeError):
    """The library refused a setting or an argument (our bug: the caller falls back)."""


class ReplayError(RuntimeError):
    """A line from fc-solve that our rules do not accept (our bug: the caller falls back)."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    """fc-solve's game settings (``freecell_solver_user_set_game``)."""

    freecells: int
    stacks: int
    built_by: int = BUILT_BY_ALTERNATE_COLOR
    unlimited_sequence_move: bool = False
    empty_filled_by: int = FILLED_BY_ANY_CARD
    preset: str | None = None
    """The name of fc-solve's own preset with these settings (``--game``), if it has one."""


def settings_for(variant: FreeCellVariant, freecells: int | None = None) -> GameSettings:
    """fc-solve's settings for ``variant`` (``freecells`` overrides its number of cells).

    fc-solve's sequence move is ``(cells + 1) << empty columns`` when any card fills an
    empty column and ``cells + 1`` when only kings do: our ``doubling`` flag must agree.
    """
    suit = variant.build == SAME_SUIT
    kings = variant.empty == KINGS_ONLY
    if variant.doubling == kings:
        raise LibraryError(f"fc-solve has no setting for {variant.name}'s supermoves")
    cells = variant.cells if freecells is None else freecells
    presets = {
        (4, 8, False, False): "freecell",
        (4, 8, True, False): "bakers_game",
        (8, 8, True, True): "eight_off",
        (4, 10, True, True): "seahaven_towers",
        (4, 8, False, True): "forecell",
    }
    return GameSettings(
        freecells=cells,
        stacks=variant.columns,
        built_by=BUILT_BY_SUIT if suit else BUILT_BY_ALTERNATE_COLOR,
        empty_filled_by=FILLED_BY_KINGS_ONLY if kings else FILLED_BY_ANY_CARD,
        preset=presets.get((cells, variant.columns, suit, kings)),
    )


def fast_args(variant: FreeCellVariant) -> tuple[str, ...]:
    """The fast, line-finding scan for ``variant``."""
    return KINGS_ONLY_FAST_ARGS if variant.empty == KINGS_ONLY else FAST_ARGS


def board_text(position: FreeCellPosition, freecells: int | None = None) -> str:
    """``position`` as fc-solve's board: foundations (H C D S) and free cells always
    written, then each column top card first. Our ``Variant:`` line is left out: the
    variant goes in as game settings. ``freecells``: write that many cells (a board
    played with fewer cells than its variant's; those left out must be empty)."""
    ranks = dict(zip(SUITS, position.foundations, strict=True))
    cells = list(position.cells)
    if freecells is not None:
        if any(cells[freecells:]):
            raise ValueError(f"a card in a free cell beyond the {freecells} played with")
        cells = (cells + [None] * freecells)[:freecells]
    lines = [
        "Foundations: " + " ".join(f"{suit}-{_rank(ranks[suit])}" for suit in FOUNDATION_ORDER),
        "Freecells: " + " ".join("-" if card is None else card.text for card in cells),
    ]
    lines.extend(": " + " ".join(card.text for card in column) for column in position.columns)
    return "\n".join(lines) + "\n"


def _rank(rank: int) -> str:
    """A foundation's rank as fc-solve reads it: ``0``, ``A``, ``2`` … ``9``, ``T`` …
    ``K`` (it reads ``13`` as an ace and a 3)."""
    return RANK_LETTERS[rank - 1] if rank else "0"


# -- the library ---------------------------------------------------------------------------

_c = ctypes
_VOIDP, _INT, _LIMIT, _CHARP = _c.c_void_p, _c.c_int, _c.c_ssize_t, _c.c_char_p


class Library:
    """``libfreecell-solver.so.0`` with the signatures of the calls this module makes."""

    def __init__(self, path: str = LIBRARY_NAME) -> None:
        lib = _c.CDLL(path)
        self.path = path
        signatures: dict[str, tuple[object, list[object]]] = {
            "freecell_solver_user_alloc": (_VOIDP, []),
            "freecell_solver_user_free": (None, [_VOIDP]),
            "freecell_solver_user_recycle": (None, [_VOIDP]),
            "freecell_solver_user_cmd_line_parse_args": (
                _INT,
                [
                    _VOIDP,
                    _INT,
                    _c.POINTER(_CHARP),
                    _INT,
                    _c.POINTER(_CHARP),
                    _VOIDP,
                    _VOIDP,
                    _c.POINTER(_c.c_void_p),
                    _c.POINTER(_INT),
                ],
            ),
            "freecell_solver_user_apply_preset": (_INT, [_VOIDP, _CHARP]),
            "freecell_solver_user_set_game": (_INT, [_VOIDP, _INT, _INT, _INT, _INT, _INT, _INT]),
            "freecell_solver_user_set_num_freecells": (_INT, [_VOIDP, _INT]),
            "freecell_solver_user_limit_iterations_long": (None, [_VOIDP, _LIMIT]),
            "freecell_solver_user_limit_num_states_in_collection_long": (None, [_VOIDP, _LIMIT]),
            "freecell_solver_user_set_solution_optimization": (None, [_VOIDP, _INT]),
            "freecell_solver_user_solve_board": (_INT, [_VOIDP, _CHARP]),
            "freecell_solver_user_resume_solution": (_INT, [_VOIDP]),
            "freecell_solver_user_get_next_move": (_INT, [_VOIDP, _c.POINTER(FcsMove)]),
            "freecell_solver_user_get_num_times_long": (_LIMIT, [_VOIDP]),
            "freecell_solver_user_get_num_states_in_collection_long": (_LIMIT, [_VOIDP]),
            "freecell_solver_user_get_invalid_state_error_into_string": (
                None,
                [_VOIDP, _CHARP, _INT],
            ),
            "freecell_solver_user_get_lib_version": (_CHARP, [_VOIDP]),
        }
        for name, (restype, argtypes) in signatures.items():
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes
        self.c = lib
        self.libc = _c.CDLL(None)
        self.libc.free.argtypes = [_VOIDP]
        self.libc.free.restype = None

    def version(self) -> str:
        """The library's version, e.g. ``'5.0.0'``."""
        with Instance(self) as instance:
            raw = self.c.freecell_solver_user_get_lib_version(instance.handle)
        return raw.decode() if raw else "?"


_loaded: list[Library | None] = []
_load_lock = threading.Lock()


def library() -> Library | None:
    """The library, loaded on first use; None where it is missing or switched off
    (``SOLITAIRE_FCSOLVE=off``)."""
    if os.environ.get(DISABLE_ENV, "").lower() in ("off", "0", "no", "false"):
        return None
    with _load_lock:
        if not _loaded:
            try:
                _loaded.append(Library())
            except (OSError, AttributeError) as error:
                logger.info("fc-solve's library is not available (%s)", error)
                _loaded.append(None)
        return _loaded[0]


def available() -> bool:
    """Whether FreeCell searches run on fc-solve's library here."""
    return library() is not None


def engine_name() -> str:
    """Which FreeCell engine runs, for the start-up log and ``solitaire doctor``."""
    found = library()
    if found is None:
        return "the Python search (fc-solve's library libfreecell-solver.so.0 is not available)"
    return f"fc-solve's library {found.version()} ({found.path})"


class Instance:
    """One ``freecell_solver_user`` instance: made, set up, solved, read, freed."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self.handle: int | None = lib.c.freecell_solver_user_alloc()
        if not self.handle:
            raise MemoryError("freecell_solver_user_alloc")

    def __enter__(self) -> Instance:
        return self

    def __exit__(self, *_: object) -> None:
        self.free()

    def free(self) -> None:
        if self.handle:
            self.lib.c.freecell_solver_user_free(self.handle)
            self.handle = None

    def recycle(self) -> None:
        """Forget the last board (and its states) but keep the settings."""
        self.lib.c.freecell_solver_user_recycle(self.handle)

    def parse_args(self, args: Sequence[str]) -> None:
        """Apply fc-solve command-line arguments (``-l lg``, ``-to 01ABCDE``, ...)."""
        if not args:
            return
        argv = (_CHARP * len(args))(*(arg.encode() for arg in args))
        known = (_CHARP * 1)(None)
        error = _c.c_void_p()
        last = _INT(0)
        code = self.lib.c.freecell_solver_user_cmd_line_parse_args(
            self.handle,
            len(args),
            argv,
            0,
            known,
            None,
            None,
            _c.byref(error),
            _c.byref(last),
        )
        message = ""
        if error.value:
            message = _c.string_at(error.value).decode(errors="replace")
            self.lib.libc.free(error.value)
        if code != 0:
            raise LibraryError(f"fc-solve refused {' '.join(args)!r} ({code}): {message}")

    def set_game(self, settings: GameSettings) -> None:
        code = self.lib.c.freecell_solver_user_set_game(
            self.handle,
            settings.freecells,
            settings.stacks,
            1,
            settings.built_by,
            int(settings.unlimited_sequence_move),
            settings.empty_filled_by,
        )
        if code != 0:
            raise LibraryError(f"fc-solve refused the game settings {settings} ({code})")

    def apply_preset(self, name: str) -> None:
        """fc-solve's own game preset (``bakers_game``, ``eight_off``, ...)."""
        code = self.lib.c.freecell_solver_user_apply_preset(self.handle, name.encode())
        if code != 0:
            raise LibraryError(f"fc-solve has no game preset {name!r} ({code})")

    def limit_iterations(self, iterations: int) -> None:
        self.lib.c.freecell_solver_user_limit_iterations_long(self.handle, iterations)

    def limit_states(self, states: int) -> None:
        """At most ``states`` positions stored (the scan stops, as at its iterations)."""
        self.lib.c.freecell_solver_user_limit_num_states_in_collection_long(self.handle, states)

    def optimize_solution(self, on: bool = True) -> None:
        """Shorten the line found (a breadth-first pass over its positions)."""
        self.lib.c.freecell_solver_user_set_solution_optimization(self.handle, int(on))

    def solve(self, board: str) -> int:
        return int(self.lib.c.freecell_solver_user_solve_board(self.handle, board.encode()))

    def resume(self) -> int:
        return int(self.lib.c.freecell_solver_user_resume_solution(self.handle))

    def iterations(self) -> int:
        return int(self.lib.c.freecell_solver_user_get_num_times_long(self.handle))

    def states(self) -> int:
        return int(self.lib.c.freecell_solver_user_get_num_states_in_collection_long(self.handle))

    def invalid_state_error(self) -> str:
        buffer = _c.create_string_buffer(512)
        self.lib.c.freecell_solver_user_get_invalid_state_error_into_string(self.handle, buffer, 1)
        return buffer.value.decode(errors="replace")

    def moves(self) -> tuple[RawMove, ...]:
        """The solution's moves, after a solve that answered ``WAS_SOLVED``."""
        found: list[RawMove] = []
        move = FcsMove()
        while self.lib.c.freecell_solver_user_get_next_move(self.handle, _c.byref(move)) == 0:
            kind, source, target, count = move.c
            found.append(RawMove(kind, source, target, count))
        return tuple(found)


@dataclass(frozen=True, slots=True)
class RawMove:
    """One of fc-solve's moves: its type (``STACK_TO_STACK`` ...), source and destination
    (column or free cell index in the board as given, from 0; a foundation's index), and
    the number of cards a stack-to-stack move carries."""

    kind: int
    source: int
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class Scan:
    """What :func:`search` found: its status, fc-solve's moves (when solved), the
    iterations (positions checked) and seconds it took."""

    status: Status
    moves: tuple[RawMove, ...]
    iterations: int
    seconds: float
    error: str = ""


class Scanner:
    """One fc-solve scan (``args``) for one game (``settings``), set up once and used for
    board after board (the library forgets each board's positions before the next): what
    a run over many deals wants. Not for two threads at once."""

    def __init__(
        self,
        lib: Library,
        settings: GameSettings,
        args: Sequence[str],
        *,
        optimize: bool = False,
    ) -> None:
        self._setup = (lib, settings, tuple(args), optimize)
        self.instance: Instance | None = None
        self._used = False
        self._made()  # a setting the library refuses is refused here

    def _made(self) -> Instance:
        if self.instance is None:
            lib, settings, args, optimize = self._setup
            instance = Instance(lib)
            try:
                instance.parse_args(args)
                instance.set_game(settings)
                if optimize:
                    instance.optimize_solution()
            except BaseException:
                instance.free()
                raise
            self.instance, self._used = instance, False
        return self.instance

    def __enter__(self) -> Scanner:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self.instance is not None:
            self.instance.free()
            self.instance = None

    def release(self) -> None:
        """Give the last board's memory back now: the library keeps its positions' pages
        for the next board (recycled) until the instance is freed; the next scan sets up
        a new one (a few microseconds)."""
        self.close()

    def scan(
        self,
        board: str,
        *,
        max_iterations: int,
        max_seconds: float,
        max_states: int | None = None,
        stop: Callable[[], bool] = memory.full,
        with_moves: bool = True,
    ) -> Scan:
        """Scan ``board`` until it solves, runs out of positions, or reaches
        ``max_iterations``, ``max_seconds``, ``max_states`` stored, or ``stop()`` (by
        default: this process is past its memory bound), looked at every :data:`STEP`
        iterations. ``with_moves=False``: the verdict only (a solved scan's moves are not
        read, which takes as long as the scan on most deals)."""
        began = time.perf_counter()
        instance = self._made()
        if self._used:
            instance.recycle()
        self._used = True
        instance.limit_states(max(max_states, 1) if max_states is not None else -1)
        limit = min(STEP, max_iterations)
        instance.limit_iterations(limit)
        code = instance.solve(board)
        while code == SUSPEND_PROCESS:
            spent = instance.iterations()
            if (
                limit >= max_iterations
                or spent < limit  # stopped by its stored states, not its iterations
                or time.perf_counter() - began > max_seconds
                or stop()
            ):
                return Scan("stopped", (), spent, time.perf_counter() - began)
            limit = min(limit + STEP, max_iterations)
            instance.limit_iterations(limit)
            code = instance.resume()
        spent = instance.iterations()
        seconds = time.perf_counter() - began
        if code == WAS_SOLVED:
            return Scan("solved", instance.moves() if with_moves else (), spent, seconds)
        if code == IS_NOT_SOLVEABLE:
            return Scan("exhausted", (), spent, seconds)
        if code == INVALID_STATE:
            return Scan("refused", (), spent, seconds, instance.invalid_state_error())
        return Scan("refused", (), spent, seconds, f"fc-solve answered {code}")


def search(
    lib: Library,
    board: str,
    settings: GameSettings,
    args: Sequence[str],
    *,
    max_iterations: int,
    max_seconds: float,
    max_states: int | None = None,
    optimize: bool = False,
    stop: Callable[[], bool] = memory.full,
) -> Scan:
    """One scan of one board (:meth:`Scanner.scan`), on an instance made for it."""
    with Scanner(lib, settings, args, optimize=optimize) as scanner:
        return scanner.scan(
            board,
            max_iterations=max_iterations,
            max_seconds=max_seconds,
            max_states=max_states,
            stop=stop,
        )


# -- replaying fc-solve's lines through our rules ----------------------------------------


def replay(position: FreeCellPosition, moves: Sequence[RawMove]) -> tuple[str, ...]:
    """fc-solve's ``moves`` from ``position`` as a winning line in our notation, the safe
    cards our game sends home after each move included (so the line replays with automatic
    moves off), each move checked by our rules. Raises :class:`ReplayError`.

    fc-solve sends cards home when it chooses; our game sends each safe card at once. A
    card already home is skipped when fc-solve moves it (a safe card is never needed as a
    base, so nothing fc-solve does later needs it in play), and a run loses the cards of it
    already home."""
    line: list[str] = []
    shadow_columns = [list(column) for column in position.columns]
    shadow_cells = list(position.cells)
    cell_of = list(range(len(position.cells)))
    """fc-solve's free cell -> ours (they differ after a cell-to-cell move)."""
    columns, cells = position.variant.column_names, position.variant.cell_names
    position = _settle(position, line)
    for number, raw in enumerate(moves):
        try:
            moved = _take(shadow_columns, shadow_cells, raw)
            if raw.kind == FREECELL_TO_FREECELL:
                cell_of[raw.source], cell_of[raw.target] = cell_of[raw.target], cell_of[raw.source]
                shadow_cells[raw.target] = moved[0]
                continue
            _put(shadow_columns, shadow_cells, raw, moved)
            left = [card for card in moved if not _home(position, card)]
            if not left:
                continue
            source: str
            target: str
            if raw.kind in (STACK_TO_STACK, STACK_TO_FREECELL, STACK_TO_FOUNDATION):
                source = columns[raw.source]
            else:
                source = cells[cell_of[raw.source]]
            if raw.kind in (STACK_TO_STACK, FREECELL_TO_STACK):
                target = columns[raw.target]
            elif raw.kind == STACK_TO_FREECELL:
                target = cells[cell_of[raw.target]]
            else:
                target = "h"
            position = _play(position, source, target, len(left), line)
        except (IllegalMoveError, IndexError) as error:
            message = f"fc-solve's move {number + 1} ({raw}) does not replay: {error}"
            raise ReplayError(message) from None
        position = _settle(position, line)
    if not position.is_won():
        raise ReplayError("fc-solve's line does not win under our rules")
    return tuple(line)


def _home(position: FreeCellPosition, card: Card) -> bool:
    return position.foundations[SUITS.index(card.suit)] >= card.rank


def _take(columns: list[list[Card]], cells: list[Card | None], raw: RawMove) -> list[Card]:
    if raw.kind in (STACK_TO_STACK, STACK_TO_FREECELL, STACK_TO_FOUNDATION):
        count = raw.count if raw.kind == STACK_TO_STACK else 1
        column = columns[raw.source]
        if not 0 < count <= len(column):
            raise IndexError(f"column {raw.source + 1} has {len(column)} card(s)")
        moved = column[-count:]
        del column[-count:]
        return moved
    if raw.kind in (FREECELL_TO_STACK, FREECELL_TO_FREECELL, FREECELL_TO_FOUNDATION):
        card = cells[raw.source]
        if card is None:
            raise IndexError(f"free cell {raw.source} is empty")
        cells[raw.source] = None
        return [card]
    raise IndexError(f"not a FreeCell move type: {raw.kind}")


def _put(
    columns: list[list[Card]], cells: list[Card | None], raw: RawMove, moved: list[Card]
) -> None:
    if raw.kind in (STACK_TO_STACK, FREECELL_TO_STACK):
        columns[raw.target].extend(moved)
    elif raw.kind == STACK_TO_FREECELL:
        cells[raw.target] = moved[0]


def _settle(position: FreeCellPosition, line: list[str]) -> FreeCellPosition:
    while (move := position.automatic_move()) is not None:
        line.append(move.notation)
        position = position.play(move)
    return position


def _play(
    position: FreeCellPosition, source: str, target: str, count: int, line: list[str]
) -> FreeCellPosition:
    """Play ``count`` cards from ``source`` to ``target`` by our rules (fc-solve's
    supermove limit is ours, ``(cells + 1) << empty columns``, or ``cells + 1`` when only
    kings fill a column: a longer run is a bug, refused here)."""
    if target in position.variant.column_names:
        to_empty = not position.columns[position.variant.column_names.index(target)]
        move = FreeCellMove(source, target, count, to_empty=to_empty)  # type: ignore[arg-type]
        if to_empty:
            move = position.parse_action(move.notation)  # (one card: checked as written)
    else:
        move = position.action_between(source, target, 1)
        if count != 1:
            raise IllegalMoveError(f"{count} cards cannot go to {target}", "fcsolve.replay")
    line.append(move.notation)
    return position.play(move)


# -- verdicts -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Budget:
    """How far :func:`solve` may go: seconds in all, iterations of each scan, and the
    positions it may store (by default: what this process's memory bound leaves, or
    :data:`UNBOUNDED_STATES`)."""

    seconds: float
    fast_iterations: int = 50_000
    """The fast scan solves deals 1-3000 within 12,040 (99.9 %: 3,631): more is rarely
    a line and costs a proof's time (on #11982 "looking glass" gives up at 204,823)."""
    atomic_iterations: int = 3_000_000
    max_states: int | None = None


class Classifier:
    """Verdicts on board after board of one variant, at the library's speed: one fast
    scan and one atomic scan set up once (:class:`Scanner`). ``freecells`` plays the
    variant with fewer (or more) free cells than its own. ``check``: each line is read and
    replayed through our rules (``Answer.moves``: the line, in our notation); without it a
    solved verdict is fc-solve's word (about 5× faster) and ``Answer.moves`` is empty.
    ``optimize``: fc-solve shortens each line it finds (its solution optimisation: a
    breadth-first search over the line's positions; slower). Not for two threads at
    once; :meth:`close` (or ``with``) frees the library's memory."""

    def __init__(
        self,
        variant: FreeCellVariant,
        lib: Library | None = None,
        *,
        freecells: int | None = None,
        check: bool = True,
        optimize: bool = False,
    ) -> None:
        found = lib or library()
        if found is None:
            raise LibraryError("fc-solve's library is not available")
        self.variant, self.freecells, self.check = variant, freecells, check
        settings = settings_for(variant, freecells)
        self._fast = Scanner(found, settings, fast_args(variant), optimize=optimize)
        try:
            self._atomic = Scanner(found, settings, ATOMIC_ARGS, optimize=optimize)
        except BaseException:
            self._fast.close()
            raise

    def __enter__(self) -> Classifier:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._fast.close()
        self._atomic.close()

    def classify(self, position: FreeCellPosition, budget: Budget) -> Answer:
        """``solved`` (with the line replayed through our rules, when checking),
        ``unsolvable`` only when the atomic scan ran out of positions, else ``unknown``.

        Raises :class:`LibraryError` or :class:`ReplayError` on our own bugs (a board
        fc-solve refuses, a line our rules refuse): the caller logs it and falls back."""
        if position.variant != self.variant:
            raise LibraryError(f"a {position.variant.name} board for {self.variant.name}")
        began = time.perf_counter()
        board = board_text(position, self.freecells)
        states = budget.max_states if budget.max_states is not None else states_left()
        fast = self._fast.scan(
            board,
            max_iterations=budget.fast_iterations,
            max_seconds=budget.seconds / 2,
            max_states=states,
            with_moves=self.check,
        )
        if fast.status != "solved":
            self._fast.release()  # its memory makes room for the atomic scan's
        if fast.status == "refused":
            raise LibraryError(f"fc-solve refused the board: {fast.error}\n{board}")
        if fast.status == "solved":
            try:
                line = replay(position, fast.moves) if self.check else ()
            except ReplayError as error:  # our bug: said, and the atomic scan's line tried
                logger.error("%s\n%s", error, board)
            else:
                return Answer("solved", line, fast.iterations, time.perf_counter() - began)
        left = budget.seconds - (time.perf_counter() - began)
        atomic = self._atomic.scan(
            board,
            max_iterations=budget.atomic_iterations,
            max_seconds=max(left, 0.001),
            max_states=states,
            with_moves=self.check,
        )
        self._atomic.release()
        checked = fast.iterations + atomic.iterations
        verdict: Verdict = "unknown"
        if atomic.status == "solved":
            verdict = "solved"
        elif atomic.status == "exhausted":
            verdict = "unsolvable"
        line = replay(position, atomic.moves) if verdict == "solved" and self.check else ()
        return Answer(verdict, line, checked, time.perf_counter() - began)


def solve(position: FreeCellPosition, budget: Budget, lib: Library | None = None) -> Answer:
    """Our verdict on ``position`` by fc-solve, its line replayed through our rules
    (:meth:`Classifier.classify` on a classifier made for it)."""
    with Classifier(position.variant, lib) as classifier:
        return classifier.classify(position, budget)


UNBOUNDED_STATES: Final = 1_000_000
"""Positions a scan may store in a process without a memory bound (the command line):
about 650 MiB."""


def states_left() -> int:
    """How many positions fc-solve may store before this process reaches its memory
    bound (:data:`UNBOUNDED_STATES` where none is set)."""
    bound = memory.bound()
    if bound is None:
        return UNBOUNDED_STATES
    return max((bound - memory.resident_bytes()) // STATE_BYTES, 1000)
