"""Deals proved winnable or impossible ahead of time, shipped with the site.

``solitaire classify KIND --deals 1-N`` searches each deal from its start with the game's
own searches (:class:`~app.rules.protocol.Searches`, a budget per deal) and writes what it
found to ``app/proofs/<kind>-<variant>.txt``, one ``deal verdict`` line each; the site reads
that file once and never searches to start a game. ``solved``: the solver found a winning
line (a game played in rounds: its first round can be cleared without a redeal);
``unsolvable``: it proved there is none; ``unknown``: neither within the budget. A deal
not in the file has not been classified.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Final

from app.games import KINDS, game_kind
from app.rules.protocol import Verdict

FOLDER: Final = Path(__file__).resolve().parent.parent / "proofs"
VERDICTS: Final[tuple[Verdict, ...]] = ("solved", "unsolvable", "unknown")


@dataclass(frozen=True, slots=True)
class Proofs:
    """What is known of one game and variant's deals."""

    verdicts: Mapping[int, Verdict]
    winnable: tuple[int, ...]
    """The deals proved winnable, in order."""

    def verdict(self, deal: int) -> Verdict | None:
        """The deal's verdict, or None when it was never classified."""
        return self.verdicts.get(deal)


def path(kind: str, variant: str, folder: Path | None = None) -> Path:
    return (folder or FOLDER) / f"{kind}-{variant}.txt"


@functools.cache
def proofs(kind: str, variant: str) -> Proofs:
    """The shipped proofs of ``kind``'s ``variant`` (none for a variant never classified)."""
    return read(path(kind, variant))


def read(file: Path) -> Proofs:
    if not file.exists():
        return Proofs({}, ())
    verdicts: dict[int, Verdict] = {}
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        deal, _space, verdict = line.partition(" ")
        if not deal.isdigit() or verdict not in VERDICTS:
            raise ValueError(f"{file}:{number}: not 'deal verdict': {line!r}")
        verdicts[int(deal)] = verdict
    winnable = tuple(sorted(deal for deal, verdict in verdicts.items() if verdict == "solved"))
    return Proofs(verdicts, winnable)


def daily_deal(kind: str, variant: str, day: date) -> int | None:
    """The deal of ``day`` (a UTC date) for ``kind``'s ``variant``: one of its deals proved
    winnable, the same for everyone, chosen by a hash of the game, variant and day; None
    when no deal of that variant is proved winnable."""
    winnable = proofs(kind, variant).winnable
    if not winnable:
        return None
    digest = hashlib.sha256(f"{kind}/{variant}/{day.isoformat()}".encode()).digest()
    return winnable[int.from_bytes(digest[:8], "big") % len(winnable)]


def random_winnable(kind: str, variant: str, pick: int) -> int | None:
    """The ``pick``-th (modulo their number) deal proved winnable, or None when none is."""
    winnable = proofs(kind, variant).winnable
    return winnable[pick % len(winnable)] if winnable else None


def classify(
    kind: str, variant: str, deals: Iterable[int], budget_ms: int
) -> Iterator[tuple[int, Verdict]]:
    """Search each deal from its start (``budget_ms`` each) with the game's own searches."""
    game = game_kind(kind)
    if variant not in game.rules.variants:
        raise ValueError(f"{game.rules.name} has no variant {variant!r}")
    searches = game.searches()
    for deal in deals:
        if not 1 <= deal <= game.rules.max_deal:
            raise ValueError(f"deal numbers run from 1 to {game.rules.max_deal}, not {deal}")
        answer = searches.answer(game.rules.new_game(deal, variant), budget_ms)
        searches.forget()  # a deal's search is of no use to the next deal
        yield deal, answer.verdict


def write(file: Path, found: Mapping[int, Verdict], header: str) -> None:
    """Merge ``found`` into ``file`` (a sure verdict is never replaced by ``unknown``)."""
    known = dict(read(file).verdicts)
    for deal, verdict in found.items():
        if verdict != "unknown" or known.get(deal, "unknown") == "unknown":
            known[deal] = verdict
    lines = [f"# {header}", "# deal verdict (solved, unsolvable, unknown)"]
    lines += [f"{deal} {known[deal]}" for deal in sorted(known)]
    file.parent.mkdir(parents=True, exist_ok=True)
    temporary = file.with_suffix(".tmp")
    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(temporary, file)


def variants() -> Iterator[tuple[str, str]]:
    """Every game and variant of the registry, in the home page's order."""
    for kind, game in KINDS.items():
        for variant in game.rules.variants:
            yield kind, variant
