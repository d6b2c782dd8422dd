"""The solvers against their targets.

    .venv/bin/python bench/solver.py [--freecell 1000] [--montana 200] [--montana-games 200]
                                     [--variants 200] [--skip-proofs] [--jobs 2]
                                     [--library 32000]

FreeCell: Microsoft deals 1…N with a 1.9 s budget each (every line replayed through the
engine), then the proofs that the eight impossible deals up to 1,000,000 cannot be won.
When fc-solve (Debian's freecell-solver-bin) is installed, it runs on the same deals and
the ratio of total times is printed. Pars: each FreeCell variant's shortest line for deals
1…P, as the site finds a deal's par. FreeCell on fc-solve's library (Debian's
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
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.freecell import rules as freecell
from app.games.freecell import solver as fc_solver
from app.rules.cards import FULL_DECK

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


def bench_pars(deals: int) -> None:
    """Each FreeCell variant's par for deals 1…N (:func:`hints.shortest_answer`, as a solver
    process runs it): the time a deal, and how often fc-solve's optimised line is the
    shorter one, its plain line, or neither, and what "All home" saves."""
    from app.games.freecell import fcsolve, hints
    from app.rules.par import counted

    if fcsolve.library() is None:
        print("pars: fc-solve's library not installed (our own search's lines)")
    for name in freecell.VARIANTS:
        times: list[float] = []
        pars: list[int] = []
        plain_shorter = optimised_shorter = swept = 0
        for deal in range(1, deals + 1):
            start = freecell.new_game(deal, name)
            began = time.perf_counter()
            answer = hints.shortest_answer(start, 5_000)
            times.append(time.perf_counter() - began)
            if answer.verdict != "solved":
                continue
            pars.append(counted(start, answer.moves, freecell.all_home).moves)
            if fcsolve.library() is None:
                continue
            lines = []
            for optimize in (False, True):
                with fcsolve.Classifier(start.variant, optimize=optimize) as search:
                    found = search.classify(start, fcsolve.Budget(seconds=5))
                lines.append(counted(start, found.moves).moves if found.moves else 10**6)
            plain_shorter += lines[0] < lines[1]
            optimised_shorter += lines[1] < lines[0]
            swept += pars[-1] < min(lines)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        mean = statistics.mean(pars) if pars else 0
        print(f"pars, {name} deals 1-{deals}: {len(pars)} with a par, mean {mean:.1f} moves; "
              f"a search median {statistics.median(times) * 1000:.0f} ms, p95 "
              f"{p95 * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms; optimised line "
              f"shorter {optimised_shorter}, plain shorter {plain_shorter}; "
              f"All home shortened {swept}")  # fmt: skip


MONTANA_ENGINES = ("compiled", "python")


MONTANA_ENGINE_CHOICE = ["both"]
"""``--montana-engine``: both engines side by side (the default), or one of them."""


def montana_engines() -> list[str]:
    """The engines to measure side by side: both where the compiled one is built."""
    from app.games.montana import solver as round_search

    built = list(MONTANA_ENGINES) if round_search.ENGINE == "compiled" else ["python"]
    return [e for e in built if MONTANA_ENGINE_CHOICE[0] in ("both", e)]


def montana_search(engine: str) -> Any:
    """The class that searches a round with ``engine``."""
    from app.games.montana import solver as round_search

    return round_search.CompiledSearch if engine == "compiled" else round_search.RoundSearch


def as_a_solver_process() -> None:
    """A bench process holds to a solver process's memory bound (a search past it stops)."""
    from app.service.solvers import SEARCH_STOP_BYTES
    from app.solve import memory

    memory.limit(SEARCH_STOP_BYTES)


MONTANA_WALL_SECONDS = 60.0
"""A round search's budget of wall-clock time here: on a shared machine a search gets only a
share of a core, so the shares are counted in the search's own processor time."""


def first_round(job: tuple[int, str]) -> tuple[int, str, float, int]:
    from app.games.montana import rules as montana

    deal, engine = job
    search = montana_search(engine)(montana.new_game(deal))
    began = time.thread_time()  # the compiled search runs in this thread too
    result = search.run(max_seconds=MONTANA_WALL_SECONDS, max_nodes=10**10)
    return deal, result.verdict, time.thread_time() - began, result.positions


def bench_montana(deals: int, jobs: int) -> None:
    """Each deal on one core within a solver process's memory bound, ``jobs`` deals at a
    time, each engine in turn. A search's answer and count do not depend on the clock below
    its budget, so one run says which deals were decided within 1 s and 5 s of a core."""
    for engine in montana_engines():
        load = os.getloadavg()[0]
        with multiprocessing.Pool(jobs, initializer=as_a_solver_process) as pool:
            work = [(deal, engine) for deal in range(1, deals + 1)]
            results = pool.map(first_round, work, chunksize=1)
        within = [sum(r[1] != "unknown" and r[2] <= limit for r in results) for limit in (1, 5)]
        conclusive = [r for r in results if r[1] != "unknown"]
        clearable = sum(r[1] == "solved" for r in results)
        times = sorted(r[2] for r in results)
        print(
            f"Montana Expert deals 1-{deals}, first round, {engine} engine: conclusive "
            f"{percent(within[0], deals)} within 1 s, {percent(within[1], deals)} within 5 s "
            f"(processor time); {len(conclusive)} in all (clearable {clearable}, proved "
            f"blocked {len(conclusive) - clearable}); median {statistics.median(times):.2f} s, "
            f"{sum(r[3] for r in results) / sum(times) / 1e6:.2f} million positions/s "
            f"(load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)"
        )
        unknown = [(r[0], r[3]) for r in results if r[1] == "unknown"]
        print(f"  unknown (deal, positions when it stopped): {unknown}")
        if unknown and engine == "compiled":
            with multiprocessing.Pool(jobs) as pool:  # no memory bound (as `solitaire classify`)
                again = pool.map(first_round, [(deal, engine) for deal, _ in unknown])
            freed = sum(r[1] != "unknown" and r[2] <= 5 for r in again) + within[1]
            print(
                f"  the same searched without a memory bound: "
                f"{[(r[0], r[1], r[3], round(r[2], 1)) for r in again]}; conclusive within 5 s: "
                f"{percent(freed, deals)}"
            )


def follow_hints(job: tuple[int, str]) -> tuple[int, bool, list[float], int, int]:
    """One Expert game played by always taking the hint, redealing only when stuck."""
    from app.games.montana import rules as montana
    from app.games.montana.hints import MontanaSearches

    deal, engine = job
    searches = MontanaSearches(montana_search(engine))
    position = montana.new_game(deal, "expert")
    times: list[float] = []
    sure = 0
    while not (position.is_won() or position.is_lost()):
        if not position.has_moves():
            position = position.redeal()
            continue
        began = time.perf_counter()
        suggestion = searches.hint(position, 900)
        times.append(time.perf_counter() - began)
        sure += suggestion.sure
        move = suggestion.move if suggestion.move and suggestion.move != "redeal" else None
        if move is None:
            move = position.legal_moves()[0].notation
        position = position.play(position.parse_action(move))
    return deal, position.is_won(), times, position.redeals_done, sure


def bench_montana_hints(games: int, jobs: int) -> None:
    """A player who always follows the hint and redeals only when stuck, each engine."""
    for engine in montana_engines():
        with multiprocessing.Pool(jobs, initializer=as_a_solver_process) as pool:
            work = [(deal, engine) for deal in range(1, games + 1)]
            played = pool.map(follow_hints, work, chunksize=1)
        won = sum(result[1] for result in played)
        hints = sorted(t for result in played for t in result[2])
        sure = sum(result[4] for result in played)
        searched = sorted(t for t in hints if t > 0.002) or [0.0]
        by_redeals = [sum(r[1] and r[3] == n for r in played) for n in range(3)]
        print(
            f"Montana Expert, following the hint on deals 1-{games}, {engine} engine: won {won} "
            f"({percent(won, games)}; {by_redeals[0]} without a redeal, {by_redeals[1]} after "
            f"one, {by_redeals[2]} after two); {len(hints)} hints, {percent(sure, len(hints))} "
            f"sure, p50 {statistics.median(hints) * 1000:.0f} ms, "
            f"p95 {hints[int(0.95 * len(hints))] * 1000:.0f} ms, slowest {hints[-1]:.2f} s; "
            f"{len(searched)} needed a search (the others were on a line already proved best): "
            f"p50 {statistics.median(searched) * 1000:.0f} ms, "
            f"p95 {searched[int(0.95 * len(searched))] * 1000:.0f} ms"
        )
        print(f"  lost: {[r[0] for r in played if not r[1]]}")


UNSURE_HINT = re.compile(r"best move found so far is\W*(\w{1,2}[♠♥♦♣])\W* to \W*([A-D]\d{1,2})")
SYMBOLS = {card.symbol: card.text for card in FULL_DECK}


def bench_montana_http(games: int, max_actions: int = 400) -> None:
    """Hints asked over HTTP, as the site runs them (its solver processes, their memory
    bounds): Expert deals 1…G, each played by following the hint, asking again (up to three
    times) while it is not sure, then its best move so far; a redeal when stuck; at most
    ``max_actions`` actions a game."""
    import tempfile
    from urllib.parse import parse_qs, urlsplit

    from fastapi.testclient import TestClient

    from app.config import Settings
    from app.games.montana import rules as montana
    from app.store import Database
    from app.store.migrate import upgrade
    from app.web import create_app

    times: list[float] = []
    sure = won = 0
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        upgrade(url)
        db = Database(url)
        unlimited = "1000000/second"
        settings = Settings(
            database_url=url,
            secret_key="bench",
            rate_limit_player=unlimited,
            rate_limit_address=unlimited,
        )
        with TestClient(create_app(settings, db), follow_redirects=False) as client:
            for deal in range(1, games + 1):
                made = client.post("/games", data={"kind": "montana", "deal": str(deal)})
                game = made.headers["location"].rsplit("/", 1)[-1]
                for version in range(max_actions):
                    position = montana.parse(client.get(f"/games/{game}/position").text)
                    if position.is_won() or position.is_lost():
                        break
                    action = "redeal"
                    if position.has_moves():
                        action = position.legal_moves()[0].notation
                    for _ask in range(3 if position.has_moves() else 0):  # "ask again"
                        began = time.perf_counter()
                        asked = client.post(f"/games/{game}/hint")
                        times.append(time.perf_counter() - began)
                        hinted = parse_qs(urlsplit(asked.headers.get("location", "")).query)
                        if asked.status_code == 303 and hinted.get("hint"):
                            sure += 1
                            action = hinted["hint"][0]
                            break
                        unsure = UNSURE_HINT.search(asked.text)  # "8♣ to B7": play it
                        if unsure and unsure.group(1) in SYMBOLS:
                            action = f"{SYMBOLS[unsure.group(1)]} {unsure.group(2)}"
                    form = {"action": action, "version": str(version)}
                    client.post(f"/games/{game}/actions", data=form, follow_redirects=False)
                won += position.is_won()
        db.dispose()
    ordered = sorted(times)
    print(
        f"Montana Expert hints over HTTP, deals 1-{games} followed: won {won}; {len(times)} "
        f"hints, {percent(sure, len(times))} sure, p50 {statistics.median(ordered) * 1000:.0f} "
        f"ms, p95 {ordered[int(0.95 * len(ordered))] * 1000:.0f} ms, slowest {ordered[-1]:.2f} s"
    )


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
    parser.add_argument("--montana", type=int, default=200)
    parser.add_argument("--montana-games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2, help="Montana deals searched at once")
    parser.add_argument("--montana-engine", choices=["both", *MONTANA_ENGINES], default="both")
    parser.add_argument("--montana-http", type=int, default=20, help="games hinted over HTTP")
    parser.add_argument("--variants", type=int, default=200, help="deals per other variant")
    parser.add_argument("--skip-proofs", action="store_true")
    parser.add_argument("--library", type=int, default=32000, help="deals fc-solve's library")
    parser.add_argument("--pars", type=int, default=200, help="deals per variant for pars")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: a few deals")
    args = parser.parse_args()
    if args.smoke:
        args.freecell, args.montana, args.montana_games, args.skip_proofs = 3, 2, 0, True
        args.variants, args.library = 2, 20
        args.montana_http = 1
        args.pars = 3
    bench_shipped_proofs()
    if args.pars:
        bench_pars(args.pars)
    if args.library:
        bench_fcsolve_library(args.library)
    if args.freecell:
        ours = bench_freecell(args.freecell)
        bench_fc_solve(args.freecell, ours)
    if args.variants:
        bench_variants(args.variants)
    if not args.skip_proofs:
        bench_proofs()
    MONTANA_ENGINE_CHOICE[0] = args.montana_engine
    if args.montana:
        bench_montana(args.montana, args.jobs)
    if args.montana_games:
        bench_montana_hints(args.montana_games, args.jobs)
    if args.montana_http:
        bench_montana_http(args.montana_http, 5 if args.smoke else 400)


if __name__ == "__main__":
    main()
