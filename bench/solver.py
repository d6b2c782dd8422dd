"""The solvers against their targets.

    .venv/bin/python bench/solver.py [--freecell 1000] [--montana 400] [--montana-games 400]
                                     [--variants 200] [--skip-proofs] [--jobs 2]
                                     [--library 32000]

FreeCell: Microsoft deals 1…N with a 1.9 s budget each (every line replayed through the
engine), then the proofs that the eight impossible deals up to 1,000,000 cannot be won.
When fc-solve (Debian's freecell-solver-bin) is installed, it runs on the same deals and
the ratio of total times is printed. FreeCell on fc-solve's library (Debian's
libfreecell-solver0, in this process): deals 1…L classified (a fast scan, then an atomic one for a
proof), verdicts only and with every line read and replayed through our rules, beside
``freecell-solver-range-parallel-solve 1 L 1 -l lg`` in the same run (its process start-up
included, as ours: loading the library). Montana: the first round of deals 1…M searched
with 5 s each (conclusive: cleared or proved blocked), then whole Expert games played by
following the hint (redealing only when stuck). Montana deals run ``--jobs`` at a time,
each in a process of its own on one core. Variants: every other variant of the registry,
deals 1…V, the share the site's search solves within 2 s (as `solitaire classify` gives a
deal; FreeCell's family: a won line, replayed; Montana's: the first round cleared) and the
median time.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.freecell import rules as freecell
from app.games.freecell import solver as fc_solver

IMPOSSIBLE = (11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %"


def bench_freecell(deals: int) -> float:
    times: list[float] = []
    unsolved: list[tuple[int, str]] = []
    for deal in range(1, deals + 1):
        start = freecell.new_game(deal)
        result = fc_solver.solve(start, max_seconds=1.9)
        times.append(result.seconds)
        if result.verdict != "solved":
            unsolved.append((deal, result.verdict))
        elif not fc_solver.replay_wins(start, result.moves):
            raise SystemExit(f"deal {deal}: the line does not win")
    solved = deals - len(unsolved)
    ordered = sorted(times)
    print(f"FreeCell deals 1-{deals}: solved {solved} ({percent(solved, deals)}), "
          f"median {statistics.median(ordered) * 1000:.0f} ms, "
          f"p95 {ordered[int(0.95 * len(ordered))] * 1000:.0f} ms, "
          f"slowest {ordered[-1]:.2f} s, over 2 s: {sum(t > 2.0 for t in times)}")  # fmt: skip
    if unsolved:
        print(f"  not solved within budget: {unsolved}")
    return sum(times)


VARIANT_BUDGET_MS = 2_000
"""A variant's deal: the budget `solitaire classify` gives it."""


def bench_variants(deals: int) -> None:
    """Each variant but the standard ones: the share of deals 1…N solved within budget."""
    from app.games import KINDS

    for kind, game in KINDS.items():
        for variant in game.rules.variants:
            if variant == game.rules.default_variant or (kind, variant) == ("montana", "easy"):
                continue  # measured above (Montana's first round is the same in Easy)
            times, solved = [], 0
            searches = game.searches()
            for deal in range(1, deals + 1):
                start = game.rules.new_game(deal, variant)
                began = time.perf_counter()
                # The site's own search, as "Still winnable?" and Show solution ask it (and
                # as `solitaire classify` proves deals): supermoves, then single cards.
                answer = searches.answer(start, VARIANT_BUDGET_MS)
                searches.forget()
                if kind == "freecell" and answer.verdict == "solved":
                    assert isinstance(start, freecell.FreeCellPosition)
                    if not fc_solver.replay_wins(start, answer.moves):
                        raise SystemExit(f"{variant} deal {deal}: the line does not win")
                times.append(time.perf_counter() - began)
                solved += answer.verdict == "solved"
            print(f"{kind} {variant} deals 1-{deals}: solved {solved} "
                  f"({percent(solved, deals)}), median "
                  f"{statistics.median(times) * 1000:.0f} ms")  # fmt: skip


def bench_proofs() -> None:
    for deal in IMPOSSIBLE:
        result = fc_solver.solve(
            freecell.new_game(deal), atomic=True, max_seconds=120, max_nodes=50_000_000
        )
        print(f"FreeCell #{deal}: {result.verdict} after {result.positions:,} positions "
              f"in {result.seconds:.1f} s")  # fmt: skip


def bench_fc_solve(deals: int, ours: float) -> None:
    binary = shutil.which("fc-solve")
    generator = shutil.which("make-microsoft-freecell-board")
    if not binary or not generator:
        print("fc-solve: not installed (apt-get install freecell-solver-bin to compare)")
        return
    began = time.perf_counter()
    for deal in range(1, deals + 1):
        made = subprocess.run([generator, "-t", str(deal)], capture_output=True, text=True)
        # fc-solve's default search, bounded so that no deal runs away with memory.
        with contextlib.suppress(subprocess.TimeoutExpired):
            subprocess.run(
                [binary, "-mi", "200000", "-"],
                input=made.stdout,
                capture_output=True,
                text=True,
                timeout=10,
            )
    theirs = time.perf_counter() - began
    print(
        f"fc-solve on the same deals: {theirs:.1f} s in all (process start-up included); "
        f"ours {ours:.1f} s, {ours / theirs:.1f}× fc-solve's time"
    )


def bench_fcsolve_library(deals: int) -> None:
    """Deals 1…N classified by fc-solve's library in this process, beside fc-solve's own
    range solver with the same preset."""
    from app.games.freecell import fcsolve

    ranger = shutil.which("freecell-solver-range-parallel-solve")
    if ranger:
        began = time.perf_counter()
        subprocess.run([ranger, "1", str(deals), "1", "-l", "lg"], capture_output=True, check=True)
        theirs = time.perf_counter() - began
        print(f"freecell-solver-range-parallel-solve 1 {deals} 1 -l lg: {theirs:.2f} s "
              f"({theirs / deals * 1000:.3f} ms a deal)")  # fmt: skip
    else:
        theirs = 0.0
        print("freecell-solver-range-parallel-solve: not installed (freecell-solver-bin)")
    for check, label in ((False, "verdicts"), (True, "every line replayed through our rules")):
        began = time.perf_counter()
        if fcsolve.library() is None:
            print("fc-solve's library: not installed (libfreecell-solver0)")
            return
        counts = dict.fromkeys(("solved", "unsolvable", "unknown"), 0)
        slowest = (0.0, 0)
        with fcsolve.Classifier(freecell.STANDARD, check=check) as classifier:
            for deal in range(1, deals + 1):
                start = freecell.new_game(deal)
                answer = classifier.classify(start, fcsolve.Budget(seconds=10))
                counts[answer.verdict] += 1
                slowest = max(slowest, (answer.seconds, deal))
        ours = time.perf_counter() - began
        ratio = f", {ours / theirs:.2f}× the range solver's time" if theirs else ""
        summary = ", ".join(f"{count} {verdict}" for verdict, count in counts.items())
        print(f"fc-solve's library, deals 1-{deals} ({label}): {ours:.2f} s "
              f"({ours / deals * 1000:.3f} ms a deal{ratio}); {summary}; "
              f"slowest #{slowest[1]} {slowest[0] * 1000:.0f} ms")  # fmt: skip


def first_round(deal: int) -> tuple[int, str, float, int]:
    from app.games.montana import rules as montana
    from app.games.montana import solver as round_search

    result = round_search.search(montana.new_game(deal), max_seconds=5.0, max_nodes=10**8)
    return deal, result.verdict, result.seconds, result.positions


def bench_montana(deals: int, jobs: int) -> None:
    """Each deal on one core for at most 5 s; ``jobs`` deals at a time."""
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(first_round, range(1, deals + 1), chunksize=1)
    conclusive = [r for r in results if r[1] != "unknown"]
    clearable = sum(r[1] == "solved" for r in results)
    times = sorted(r[2] for r in results)
    print(
        f"Montana Expert deals 1-{deals}, first round: conclusive {len(conclusive)} "
        f"({percent(len(conclusive), deals)}) within 5 s; clearable {clearable}, "
        f"proved blocked {len(conclusive) - clearable}; median {statistics.median(times):.2f} s, "
        f"{sum(r[3] for r in results) / sum(times) / 1000:.0f} k positions/s"
    )
    print(f"  unknown after 5 s: {[r[0] for r in results if r[1] == 'unknown']}")


def follow_hints(deal: int) -> tuple[int, bool, list[float], int]:
    """One Expert game played by always taking the hint, redealing only when stuck."""
    from app.games.montana import rules as montana
    from app.games.montana.hints import MontanaSearches

    searches = MontanaSearches()
    position = montana.new_game(deal, "expert")
    times: list[float] = []
    while not (position.is_won() or position.is_lost()):
        if not position.has_moves():
            position = position.redeal()
            continue
        began = time.perf_counter()
        suggestion = searches.hint(position, 900)
        times.append(time.perf_counter() - began)
        move = suggestion.move if suggestion.move and suggestion.move != "redeal" else None
        if move is None:
            move = position.legal_moves()[0].notation
        position = position.play(position.parse_action(move))
    return deal, position.is_won(), times, position.redeals_done


def bench_montana_hints(games: int, jobs: int) -> None:
    """A player who always follows the hint and redeals only when stuck."""
    with multiprocessing.Pool(jobs) as pool:
        played = pool.map(follow_hints, range(1, games + 1), chunksize=1)
    won = sum(result[1] for result in played)
    hints = sorted(t for result in played for t in result[2])
    searched = sorted(t for t in hints if t > 0.002)
    by_redeals = [sum(r[1] and r[3] == n for r in played) for n in range(3)]
    print(
        f"Montana Expert, following the hint on deals 1-{games}: won {won} "
        f"({percent(won, games)}; {by_redeals[0]} without a redeal, {by_redeals[1]} after one, "
        f"{by_redeals[2]} after two); {len(hints)} hints, p50 {statistics.median(hints) * 1000:.0f}"
        f" ms, p95 {hints[int(0.95 * len(hints))] * 1000:.0f} ms, slowest {hints[-1]:.2f} s; "
        f"{len(searched)} needed a search (the others were on a line already proved best): "
        f"p50 {statistics.median(searched) * 1000:.0f} ms, "
        f"p95 {searched[int(0.95 * len(searched))] * 1000:.0f} ms"
    )
    print(f"  lost: {[r[0] for r in played if not r[1]]}")


def bench_shipped_proofs() -> None:
    """The shipped proofs (app/proofs, made by ``solitaire classify`` on fc-solve's
    library): each FreeCell variant's share of winnable deals among those classified (an
    intractable deal counted apart), and the fewest free cells standard deals need."""
    from collections import Counter

    from app.service import proofs

    for variant in freecell.VARIANTS:
        shipped = proofs.proofs("freecell", variant)
        counts = shipped.counts()
        classified = sum(counts.values())
        sure = counts["solved"] + counts["unsolvable"]
        last = (
            shipped.packed.last if shipped.packed is not None else max(shipped.verdicts, default=0)
        )
        print(
            f"FreeCell {variant}: {classified:,} deals classified (up to #{last:,}): "
            f"winnable {counts['solved']:,} ({percent(counts['solved'], sure)} of those settled), "
            f"impossible {counts['unsolvable']:,}, intractable {counts['unknown']:,}"
        )
    cells = proofs.fewest_cells_file()
    if cells is None:
        print("FreeCell fewest free cells: none shipped")
        return
    found = Counter(cells.values())
    searched = cells.count - found[proofs.NOT_COMPUTED]
    parts = ", ".join(f"{n}: {found[n]:,} ({percent(found[n], searched)})" for n in range(6))
    print(
        f"FreeCell fewest free cells, {searched:,} deals searched of 1-{cells.last:,}: {parts}; "
        f"intractable {found[proofs.INTRACTABLE]:,}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--freecell", type=int, default=1000)
    parser.add_argument("--montana", type=int, default=400)
    parser.add_argument("--montana-games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2, help="Montana deals searched at once")
    parser.add_argument("--variants", type=int, default=200, help="deals per other variant")
    parser.add_argument("--skip-proofs", action="store_true")
    parser.add_argument("--library", type=int, default=32000, help="deals fc-solve's library")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: a few deals")
    args = parser.parse_args()
    if args.smoke:
        args.freecell, args.montana, args.montana_games, args.skip_proofs = 3, 2, 0, True
        args.variants, args.library = 2, 20
    bench_shipped_proofs()
    if args.library:
        bench_fcsolve_library(args.library)
    if args.freecell:
        ours = bench_freecell(args.freecell)
        bench_fc_solve(args.freecell, ours)
    if args.variants:
        bench_variants(args.variants)
    if not args.skip_proofs:
        bench_proofs()
    if args.montana:
        bench_montana(args.montana, args.jobs)
    if args.montana_games:
        bench_montana_hints(args.montana_games, args.jobs)


if __name__ == "__main__":
    main()
