"""The solvers against their targets.

    .venv/bin/python bench/solver.py [--freecell 1000] [--montana 400] [--skip-proofs]

FreeCell: Microsoft deals 1…N with a 1.9 s budget each (every line replayed through the
engine), then the proofs that the eight impossible deals up to 1,000,000 cannot be won.
When fc-solve (Debian's freecell-solver-bin) is installed, it runs on the same deals and the
ratio of total times is printed. Montana: the first round of deals 1…M searched with 5 s
each (conclusive: cleared or proved blocked), then whole Expert games played by following
the hint (redealing only when stuck).
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rules import freecell
from app.solve import freecell as fc_solver

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


def bench_proofs() -> None:
    for deal in IMPOSSIBLE:
        result = fc_solver.solve(
            freecell.new_game(deal), atomic=True, max_seconds=120, max_nodes=50_000_000
        )
        print(f"FreeCell #{deal}: {result.verdict} after {result.nodes:,} positions "
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


def bench_montana(deals: int) -> None:
    from app.rules import montana
    from app.solve import montana as round_search

    results = [
        round_search.search(montana.new_game(deal), max_seconds=5.0) for deal in range(1, deals + 1)
    ]
    conclusive = [r for r in results if r.verdict != "unknown"]
    clearable = sum(r.verdict == "clearable" for r in results)
    times = sorted(r.seconds for r in results)
    print(
        f"Montana Expert deals 1-{deals}, first round: conclusive {len(conclusive)} "
        f"({percent(len(conclusive), deals)}) within 5 s; clearable {clearable}, "
        f"proved blocked {len(conclusive) - clearable}; median {statistics.median(times):.2f} s"
    )


def bench_montana_hints(games: int) -> None:
    """A player who always follows the hint and redeals only when stuck."""
    from app.rules import montana
    from app.solve.hint import hint

    won, hint_times = 0, []
    for deal in range(1, games + 1):
        position = montana.new_game(deal, "expert")
        while not (position.is_won() or position.is_lost()):
            if not position.has_moves():
                position = position.redeal()
                continue
            began = time.perf_counter()
            suggestion = hint(position)
            hint_times.append(time.perf_counter() - began)
            move = suggestion.move if suggestion.move and suggestion.move != "redeal" else None
            if move is None:
                move = position.legal_moves()[0].notation
            position = position.play(position.parse_action(move))
        won += position.is_won()
    ordered = sorted(hint_times)
    print(
        f"Montana Expert, following the hint on deals 1-{games}: won {won} "
        f"({percent(won, games)}); hint p50 {statistics.median(ordered) * 1000:.0f} ms, "
        f"p95 {ordered[int(0.95 * len(ordered))] * 1000:.0f} ms over {len(ordered)} hints"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--freecell", type=int, default=1000)
    parser.add_argument("--montana", type=int, default=400)
    parser.add_argument("--montana-games", type=int, default=40)
    parser.add_argument("--skip-proofs", action="store_true")
    args = parser.parse_args()
    if args.freecell:
        ours = bench_freecell(args.freecell)
        bench_fc_solve(args.freecell, ours)
    if not args.skip_proofs:
        bench_proofs()
    if args.montana:
        bench_montana(args.montana)
    if args.montana_games:
        bench_montana_hints(args.montana_games)


if __name__ == "__main__":
    main()
