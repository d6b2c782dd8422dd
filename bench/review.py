"""A game's review against its targets (app/service/review.py).

    .venv/bin/python bench/review.py [--freecell 200] [--montana 100] [--facts 1000] [--smoke]

FreeCell: lost games made by scripted play on deals 1–32,000 (the solver's winning line
for a random number of moves, then random legal moves, the safe cards going home, until no
move is left), each reviewed with a cold cache on one solver process (the site's pool, one
worker), as the page asks (a second at a time, again until done); the turning point it
names is then checked by a search of its own in this process (a longer budget): winnable
before it, proved lost (fc-solve's exhaustive atomic scan) after it. Montana Expert: lost
first rounds (random moves from a deal whose first round is proved clearable, until no move
is left), reviewed and checked the same way (the compiled round search). Facts: the "why
this move" sentences of the moves of solvers' lines (what a hint offers), every fact
re-read from the engine's position after the move. The review's time is reported beside a
reference measured in the same run: one verdict of the deal's first position asked of the
same pool with a cold cache (so a loaded machine scales both); beside it, the positions
the review's searches took, which the load does not move.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games import game_kind
from app.games.freecell import explain as freecell_explain
from app.games.freecell import hints as freecell_hints
from app.games.freecell import rules as freecell
from app.games.montana import explain as montana_explain
from app.games.montana import hints as montana_hints
from app.games.montana import rules as montana
from app.rules.protocol import Answer, Position, Searches
from app.service import proofs, review
from app.service.model import Game, HistoryEntry
from app.service.solvers import Job, SolverPool

NOW = datetime(2026, 1, 1, tzinfo=UTC)
CHECK_MS = 60_000


def game_of(
    kind: str, variant: str, deal: int, moves: list[str]
) -> tuple[Game, list[HistoryEntry]]:
    position = game_kind(kind).rules.new_game(deal, variant)
    entries = []
    for ply, notation in enumerate(moves, start=1):
        position = position.play(position.parse_action(notation))
        entries.append(HistoryEntry(ply, "move", notation, NOW))
    game = Game(
        "b" * 24, "p", kind, variant, deal, "lost", True, len(moves), position, None,
        position.cards_left, len(moves), 0, 0, NOW, NOW, NOW, text=position.to_text(),
    )  # fmt: skip
    return game, entries


def settle(position: Position, moves: list[str]) -> Position:
    while (home := position.automatic_move("safe")) is not None:
        position = position.play(home)
        moves.append(home.notation)
    return position


def random_play(position: Position, moves: list[str], rng: random.Random, most: int) -> Position:
    """Random legal moves (no redeal), the safe cards going home, until none is left."""
    seen = {position.to_text()}
    for _ in range(most):
        legal = [
            m
            for m in position.legal_moves()
            if m.notation != "redeal" and position.play(m).to_text() not in seen
        ]
        if not legal:
            break
        move = rng.choice(legal)
        position = position.play(move)
        moves.append(move.notation)
        if game_kind_of(position) == "freecell":
            position = settle(position, moves)
        seen.add(position.to_text())
    return position


def game_kind_of(position: Position) -> str:
    return "freecell" if isinstance(position, freecell.FreeCellPosition) else "montana"


class Counted:
    """The bench's pool, counting the positions the searches whose answers came back took
    (a figure the machine's load does not move)."""

    def __init__(self, pool: SolverPool) -> None:
        self.pool, self.positions = pool, 0

    def _counted(self, answer: object | None) -> object | None:
        if isinstance(answer, Answer):
            self.positions += answer.positions
        return answer

    def known(self, job: Job) -> object | None:
        return self._counted(self.pool.known(job))

    def ask(self, job: Job, wait: float) -> object | None:
        return self._counted(self.pool.ask(job, wait))


def timed_review(
    pool: SolverPool, game: Game, entries: list[HistoryEntry]
) -> tuple[float, review._Work, int]:
    """A review with a cold cache, asked a second at a time as the page does, until done:
    its seconds, its work and the positions its searches took."""
    review.forget()
    pool._known.clear()  # the bench's own pool: its kept answers start cold
    stops = review.stops_of(game, entries)
    counted = Counted(pool)
    began = time.perf_counter()
    while True:
        work = review._Work(game, stops, counted, time.monotonic() + review.REVIEW_WAIT)  # type: ignore[arg-type]
        if work.run():
            return time.perf_counter() - began, work, counted.positions
        if work.busy:
            time.sleep(0.05)


def reference(pool: SolverPool, kind: str, position: Position) -> float:
    pool._known.clear()
    began = time.perf_counter()
    while pool.ask(Job("answer", kind, position.to_text()), 5.0) is None:
        pass
    return time.perf_counter() - began


def freecell_games(count: int, pool: SolverPool, rng: random.Random) -> list[str]:
    searches = freecell_hints.FreeCellSearches()
    tally = Tally()
    made = 0
    while made < count:
        deal = rng.randint(1, 32_000)
        if proofs.proofs("freecell", "standard").verdict(deal) != "solved":
            continue
        start = freecell.new_game(deal)
        line = searches.answer(start, 10_000)
        if line.verdict != "solved":
            continue
        moves: list[str] = []
        position: Position = start
        for notation in line.moves[: rng.randint(0, len(line.moves) // 2)]:
            position = position.play(position.parse_action(notation))
            moves.append(notation)
        position = random_play(position, moves, rng, 400)
        if position.is_won() or position.legal_moves():
            continue
        made += 1
        if made % 25 == 0:
            print(f"  freecell {made}/{count}", file=sys.stderr, flush=True)
        tally.add(pool, searches, game_of("freecell", "standard", deal, moves), start)
    return tally.report("FreeCell", count)


def montana_rounds(count: int, pool: SolverPool, rng: random.Random) -> list[str]:
    searches = montana_hints.MontanaSearches()
    tally = Tally()
    made = 0
    while made < count:
        deal = rng.randint(1, 32_000)
        if proofs.proofs("montana", "expert").verdict(deal) != "solved":
            continue
        start = montana.new_game(deal)
        moves: list[str] = []
        position = random_play(start, moves, rng, 2000)
        if position.is_won() or not moves:
            continue
        made += 1
        if made % 25 == 0:
            print(f"  montana {made}/{count}", file=sys.stderr, flush=True)
        tally.add(pool, searches, game_of("montana", "expert", deal, moves), start)
    return tally.report("Montana Expert (first rounds)", count)


class Tally:
    """The reviews of one family's lost games: their times, the reference's, and how many
    turning points were found and confirmed by searches of their own."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.positions: list[int] = []
        self.refs: list[float] = []
        self.found = self.checked = self.never = 0

    def add(
        self, pool: SolverPool, searches: Searches, made: tuple[Game, list[HistoryEntry]],
        start: Position,
    ) -> None:  # fmt: skip
        game, entries = made
        seconds, work, positions = timed_review(pool, game, entries)
        self.positions.append(positions)
        self.refs.append(reference(pool, game.kind, start))
        self.times.append(seconds)
        self.never += bool(work.never)
        if work.turning:
            self.found += 1
            point = work.turning[0]
            before = searches.answer(work.stops[point.index - 1].position, CHECK_MS)
            after = searches.answer(work.stops[point.index].position, CHECK_MS)
            self.checked += before.verdict == "solved" and after.verdict == "unsolvable"

    def report(self, name: str, count: int) -> list[str]:
        times, refs, found, positions = self.times, self.refs, self.found, self.positions
        rank = max(0, -(-95 * len(times) // 100) - 1)  # the 95th percentile, nearest rank
        p95, p95_positions = sorted(times)[rank], sorted(positions)[rank]
        lost = count - self.never
        ratio = p95 / max(statistics.median(refs), 1e-3)
        return [
            f"{name}: {count} lost games reviewed, turning point found for {found}/{lost} "
            f"({100 * found / max(lost, 1):.1f} %; {self.never} never winnable), "
            f"checked winnable before and lost after: {self.checked}/{found}",
            f"  review time: median {statistics.median(times):.2f} s, p95 {p95:.2f} s, "
            f"slowest {max(times):.2f} s; reference (one verdict of the deal, cold) median "
            f"{statistics.median(refs):.2f} s: review p95 = {ratio:.1f}× it",
            f"  positions searched a review (not moved by the load): median "
            f"{statistics.median(positions):,.0f}, p95 {p95_positions:,}, "
            f"all {sum(positions):,}",
        ]


def facts(count: int, rng: random.Random) -> list[str]:
    """Every fact of the sentences on ``count`` moves of solvers' lines, re-read."""
    done = false = 0
    fc = freecell_hints.FreeCellSearches()
    while done < count:
        deal = rng.randint(1, 32_000)
        position: Position = freecell.new_game(deal)
        line = fc.answer(position, 5_000)
        for index, notation in enumerate(line.moves):
            if done >= count // 2:
                break
            move = position.parse_action(notation)
            assert isinstance(position, freecell.FreeCellPosition)
            found = freecell_explain.facts(position, move, len(line.moves) - index - 1)
            after: Position = position.play(move)
            settled = after
            while (home := settled.automatic_move("safe")) is not None:
                settled = settled.play(home)
            assert isinstance(settled, freecell.FreeCellPosition)
            wrong = (
                found.home != sum(settled.foundations) - sum(position.foundations)
                or found.cells_freed != settled.empty_cells - position.empty_cells
                or found.at_once != settled.max_run()
                or any(
                    not position.columns[position.variant.column_names.index(c)]
                    or settled.columns[position.variant.column_names.index(c)]
                    for c in found.emptied
                )
            )
            false += wrong
            done += 1
            position = after
        if done >= count // 2:
            break
    mt = montana_hints.MontanaSearches()
    while done < count:
        position = montana.new_game(rng.randint(1, 32_000))
        line: Answer = mt.answer(position, 5_000)
        for notation in line.moves:
            if done >= count:
                break
            move = position.parse_action(notation)
            if not isinstance(move, montana.MontanaMove):
                break
            assert isinstance(position, montana.MontanaPosition)
            found_m = montana_explain.facts(position, move, None)
            after = position.play(move)
            assert isinstance(after, montana.MontanaPosition)
            source = position.where(move.card)
            fits = [m.card for m in after.moves_to(source)]
            wrong = (
                after.cells[source] is not None
                or montana.cell_name(source) != found_m.gap
                or found_m.in_place != after.in_place(move.cell)
                or found_m.score != after.score
                or (found_m.wants is not None and fits not in ([found_m.wants], []))
                or (found_m.wants is None and not found_m.any_two and fits != [])
            )
            false += wrong
            done += 1
            position = after
    return [
        f"why this move: {done} moves of solvers' lines (half FreeCell, half Montana), "
        f"{false} false statements"
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--freecell", type=int, default=200)
    parser.add_argument("--montana", type=int, default=100)
    parser.add_argument("--facts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.freecell, args.montana, args.facts = 2, 2, 40
    rng = random.Random(args.seed)
    pool = SolverPool(workers=1)
    reference(pool, "freecell", freecell.new_game(1))  # the worker started before timing
    try:
        parts: tuple[tuple[int, Callable[[], Iterable[str]]], ...] = (
            (args.freecell, lambda: freecell_games(args.freecell, pool, rng)),
            (args.montana, lambda: montana_rounds(args.montana, pool, rng)),
            (args.facts, lambda: facts(args.facts, rng)),
        )
        for count, lines in parts:  # a part asked for 0 times is left out
            for line in lines() if count else ():
                print(line, flush=True)
    finally:
        pool.close()


if __name__ == "__main__":
    main()
