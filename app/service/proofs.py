"""Deals proved winnable or impossible ahead of time, shipped with the site.

``solitaire classify KIND --deals 1-N`` searches each deal from its start and writes what it
found to ``app/proofs/``; the site reads those files once and never searches to start a
game. ``solved``: the solver found a winning line (a game played in rounds: its first
round can be cleared without a redeal); ``unsolvable``: it proved there is none;
``unknown``: neither within the budget. A deal not in the file has not been classified.

Two forms:

- ``<kind>-<variant>.bits``: two bits a deal (:mod:`app.service.packed`; 0 not classified,
  1 solved, 2 unsolvable, 3 unknown), for long runs: games classified on
  fc-solve's library (a fast meta-move scan finds a line; "unsolvable" only when an
  exhaustive single-card scan ran out). A million deals is 250 kB.
- ``<kind>-<variant>.txt``: one ``deal verdict`` line each (a few hundred deals).

``<kind>-<variant>.cells`` (:data:`app.games.CELLS_GAME`) holds, four bits a deal, the
fewest free cells a deal can be won with (:data:`NOT_EVEN_WITH_FOUR` for #11982): solved with that
many, proved impossible with one fewer. :data:`INTRACTABLE`: a proof ran past its budget;
:data:`NOT_COMPUTED`: not searched yet.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterable, Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Final

from app.games import CELLS_GAME, KINDS, PROOF_SEARCHES, game_kind
from app.rules.protocol import Verdict
from app.service import packed

FOLDER: Final = Path(__file__).resolve().parent.parent / "proofs"
VERDICTS: Final[tuple[Verdict, ...]] = ("solved", "unsolvable", "unknown")
CODES: Final[dict[Verdict, int]] = {"solved": 1, "unsolvable": 2, "unknown": 3}
"""A verdict's two bits (0: not classified)."""
BY_CODE: Final[dict[int, Verdict]] = {code: verdict for verdict, code in CODES.items()}

NOT_EVEN_WITH_FOUR: Final = 5
"""Fewest cells of a deal that cannot be won even with four free cells."""
INTRACTABLE: Final = 14
NOT_COMPUTED: Final = 15
CELL_VALUES: Final = frozenset((*range(NOT_EVEN_WITH_FOUR + 1), INTRACTABLE, NOT_COMPUTED))
DIFFICULTIES: Final[dict[str, frozenset[int]]] = {
    "easy": frozenset((0, 1)),
    "medium": frozenset((2,)),
    "hard": frozenset((3,)),
    "expert": frozenset((4,)),
}
"""A difficulty: the fewest free cells its deals need."""


class Proofs:
    """What is known of one game and variant's deals: a line file's verdicts or a packed
    file's."""

    __slots__ = ("_winnable", "packed", "verdicts")

    def __init__(self, verdicts: Mapping[int, Verdict], bits: packed.Packed | None = None) -> None:
        self.verdicts = verdicts
        self.packed = bits
        self._winnable = tuple(sorted(d for d, v in verdicts.items() if v == "solved"))

    def verdict(self, deal: int) -> Verdict | None:
        """The deal's verdict, or None when it was never classified."""
        if self.packed is not None:
            return BY_CODE.get(self.packed.value(deal) or 0)
        return self.verdicts.get(deal)

    def winnable_count(self) -> int:
        if self.packed is not None:
            return self.packed.count_of((CODES["solved"],))
        return len(self._winnable)

    def winnable_at(self, k: int) -> int:
        """The ``k``-th deal proved winnable (from 0, in order)."""
        if self.packed is not None:
            return self.packed.select((CODES["solved"],), k)
        return self._winnable[k]

    def counts(self) -> dict[Verdict, int]:
        """How many deals have each verdict."""
        if self.packed is not None:
            return {v: self.packed.count_of((code,)) for v, code in CODES.items()}
        return {v: sum(1 for found in self.verdicts.values() if found == v) for v in VERDICTS}

    def classified(self) -> dict[int, Verdict]:
        """Every deal classified and its verdict (a packed file's: read one by one)."""
        if self.packed is None:
            return dict(self.verdicts)
        found: dict[int, Verdict] = {}
        for index, code in enumerate(self.packed.values()):
            if code:
                found[self.packed.first + index] = BY_CODE[code]
        return found


def path(kind: str, variant: str, folder: Path | None = None) -> Path:
    """The line file of ``kind``'s ``variant``."""
    return (folder or FOLDER) / f"{kind}-{variant}.txt"


def bits_path(kind: str, variant: str, folder: Path | None = None) -> Path:
    """The packed file of ``kind``'s ``variant``."""
    return (folder or FOLDER) / f"{kind}-{variant}.bits"


def cells_path(folder: Path | None = None) -> Path:
    return (folder or FOLDER) / f"{CELLS_GAME[0]}-{CELLS_GAME[1]}.cells"


# Cached: one file per game and variant of the registry (a small fixed domain).
@functools.cache
def proofs(kind: str, variant: str) -> Proofs:
    """The shipped proofs of ``kind``'s ``variant`` (none for a variant never classified)."""
    return load(kind, variant)


def load(kind: str, variant: str, folder: Path | None = None) -> Proofs:
    """``kind``'s ``variant``'s packed file where there is one, else its line file."""
    bits = bits_path(kind, variant, folder)
    if bits.exists():
        return Proofs({}, read_bits(bits))
    return read(path(kind, variant, folder))


def read_bits(file: Path) -> packed.Packed:
    found = packed.read(file, allowed=range(4))
    if found.bits != 2:
        raise packed.MalformedError(f"{file}: verdicts are two bits a deal, not {found.bits}")
    return found


def read(file: Path) -> Proofs:
    if not file.exists():
        return Proofs({})
    verdicts: dict[int, Verdict] = {}
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        deal, _space, verdict = line.partition(" ")
        if not deal.isdigit() or verdict not in VERDICTS:
            raise ValueError(f"{file}:{number}: not 'deal verdict': {line!r}")
        verdicts[int(deal)] = verdict
    return Proofs(verdicts)


# Cached: the one shipped file (no arguments).
@functools.cache
def fewest_cells_file() -> packed.Packed | None:
    """The shipped fewest free cells of ``CELLS_GAME``'s deals (None: none shipped)."""
    return read_cells(cells_path())


def read_cells(file: Path) -> packed.Packed | None:
    if not file.exists():
        return None
    found = packed.read(file, allowed=CELL_VALUES)
    if found.bits != 4:
        raise packed.MalformedError(f"{file}: fewest cells are four bits a deal")
    return found


def fewest_cells(deal: int) -> int | None:
    """The fewest free cells ``CELLS_GAME``'s deal ``deal`` can be won with (0-4;
    :data:`NOT_EVEN_WITH_FOUR`: none), :data:`INTRACTABLE` when its proof ran past the
    budget, None when it was never searched."""
    shipped = fewest_cells_file()
    value = shipped.value(deal) if shipped is not None else None
    return None if value is None or value == NOT_COMPUTED else value


def difficulty_count(difficulty: str) -> int:
    shipped = fewest_cells_file()
    return shipped.count_of(DIFFICULTIES[difficulty]) if shipped is not None else 0


def random_of_difficulty(difficulty: str, pick: int) -> int | None:
    """The ``pick``-th (modulo their number) standard deal of ``difficulty``, or None."""
    count = difficulty_count(difficulty)
    if not count:
        return None
    shipped = fewest_cells_file()
    assert shipped is not None
    return shipped.select(DIFFICULTIES[difficulty], pick % count)


def daily_deal(kind: str, variant: str, day: date) -> int | None:
    """The deal of ``day`` (a UTC date) for ``kind``'s ``variant``: one of its deals proved
    winnable, the same for everyone, chosen by a hash of the game, variant and day; None
    when no deal of that variant is proved winnable."""
    shipped = proofs(kind, variant)
    count = shipped.winnable_count()
    if not count:
        return None
    digest = hashlib.sha256(f"{kind}/{variant}/{day.isoformat()}".encode()).digest()
    return shipped.winnable_at(int.from_bytes(digest[:8], "big") % count)


def random_winnable(kind: str, variant: str, pick: int) -> int | None:
    """The ``pick``-th (modulo their number) deal proved winnable, or None when none is."""
    shipped = proofs(kind, variant)
    count = shipped.winnable_count()
    return shipped.winnable_at(pick % count) if count else None


def classify(
    kind: str, variant: str, deals: Iterable[int], budget_ms: int
) -> Iterator[tuple[int, Verdict]]:
    """Search each deal from its start (``budget_ms`` each): on a library where the game
    has one installed (:data:`app.games.PROOF_SEARCHES`), else with the game's own searches."""
    game = game_kind(kind)
    if variant not in game.rules.variants:
        raise ValueError(f"{game.rules.name} has no variant {variant!r}")
    checked = _checked(deals, game.rules.max_deal)
    library = PROOF_SEARCHES.get(kind)
    if library is not None and library.available():
        yield from library.classify(variant, checked, budget_ms)
        return
    searches = game.searches()
    for deal in checked:
        answer = searches.answer(game.rules.new_game(deal, variant), budget_ms)
        searches.forget()  # a deal's search is of no use to the next deal
        yield deal, answer.verdict


def _checked(deals: Iterable[int], most: int) -> Iterator[int]:
    for deal in deals:
        if not 1 <= deal <= most:
            raise ValueError(f"deal numbers run from 1 to {most}, not {deal}")
        yield deal


def merge(known: Mapping[int, Verdict], found: Mapping[int, Verdict]) -> dict[int, Verdict]:
    """``known`` with ``found`` over it, except that a sure verdict is never replaced by
    ``unknown``."""
    merged = dict(known)
    for deal, verdict in found.items():
        if verdict != "unknown" or merged.get(deal, "unknown") == "unknown":
            merged[deal] = verdict
    return merged


def write(file: Path, found: Mapping[int, Verdict], header: str) -> None:
    """Merge ``found`` into the line file ``file``."""
    known = merge(read(file).verdicts, found)
    lines = [f"# {header}", "# deal verdict (solved, unsolvable, unknown)"]
    lines += [f"{deal} {known[deal]}" for deal in sorted(known)]
    file.parent.mkdir(parents=True, exist_ok=True)
    temporary = file.with_suffix(".tmp")
    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(temporary, file)


def write_bits(file: Path, found: Mapping[int, Verdict]) -> None:
    """Merge ``found`` into the packed file ``file`` (deals from 1 to the last known)."""
    known = merge(_bits_verdicts(file), found)
    last = max(known, default=0)
    codes = (CODES[known[deal]] if deal in known else 0 for deal in range(1, last + 1))
    packed.write(file, packed.pack(2, 1, codes))


FEWER_CELLS: Final[dict[str, int]] = {"cells-3": 3, "cells-2": 2, "cells-1": 1}
"""The variants of :data:`CELLS_GAME` with fewer free cells, and how many they have."""


def verdicts_with_cells(fewest: Mapping[int, int], cells: int) -> dict[int, Verdict]:
    """What the fewest free cells say of the same deals played with ``cells`` free cells:
    won with that many when the fewest is at most ``cells``, else impossible (the fewest
    less one was proved impossible, and fewer cells win no more); nothing of a deal left
    intractable or not searched."""
    return {
        deal: "solved" if least <= cells else "unsolvable"
        for deal, least in fewest.items()
        if least <= NOT_EVEN_WITH_FOUR
    }


def write_fewer_cells(fewest: Mapping[int, int], folder: Path | None = None) -> None:
    """Merge what ``fewest`` says into the fewer-cells variants' packed files."""
    for variant, cells in FEWER_CELLS.items():
        write_bits(bits_path(CELLS_GAME[0], variant, folder), verdicts_with_cells(fewest, cells))


def _bits_verdicts(file: Path) -> dict[int, Verdict]:
    return Proofs({}, read_bits(file)).classified() if file.exists() else {}


def write_cells(file: Path, found: Mapping[int, int]) -> None:
    """Merge fewest cells ``found`` into ``file`` (a proved value is never replaced by
    :data:`INTRACTABLE`)."""
    old = read_cells(file)
    known: dict[int, int] = {}
    if old is not None:
        for index, value in enumerate(old.values()):
            if value != NOT_COMPUTED:
                known[old.first + index] = value
    for deal, value in found.items():
        if value != INTRACTABLE or known.get(deal, INTRACTABLE) == INTRACTABLE:
            known[deal] = value
    last = max(known, default=0)
    values = (known.get(deal, NOT_COMPUTED) for deal in range(1, last + 1))
    packed.write(file, packed.pack(4, 1, values))


def variants() -> Iterator[tuple[str, str]]:
    """Every game and variant of the registry, in the home page's order."""
    for kind, game in KINDS.items():
        for variant in game.rules.variants:
            yield kind, variant


def progress_line(done: int, total: int, seconds: float, width: int = 30) -> str:
    """A progress bar and an estimate of the time left, for a terminal.

    >>> progress_line(250, 1000, 30.0, width=10)
    '[##--------] 250/1,000 25% · 1m 30s left'
    """
    share = done / total if total else 1.0
    filled = int(share * width)
    if done and done < total:
        left = seconds * (total - done) / done
        minutes, rest = divmod(round(left), 60)
        hours, minutes = divmod(minutes, 60)
        estimate = f"{hours}h {minutes:02d}m" if hours else f"{minutes}m {rest:02d}s"
        estimate = f" · {estimate} left"
    else:
        estimate = "" if done < total else f" · done in {seconds:.1f} s"
    bar = "#" * filled + "-" * (width - filled)
    return f"[{bar}] {done:,}/{total:,} {share:.0%}{estimate}"
