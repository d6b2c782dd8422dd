"""Every bench starts and finishes: each one's ``--smoke`` run, a few seconds (benches
measure; these tests only check that they run, so that a bench cannot rot unseen).

The benches that load the machine (a server under wrk, a flood, a cluster, a solver's
searches over HTTP) are heavy: they run alone, one after another. The others (one
process, a few seconds of one core) run beside the rest of the suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
heavy = pytest.mark.heavy  # this bench loads the machine: one at a time


def smoke(name: str, *more: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCH / name), "--smoke", *more],
        capture_output=True,
        text=True,
        timeout=900,  # a bound for liveness on a loaded machine
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def test_move_latency_runs() -> None:
    out = smoke("move_latency.py")
    assert "Montana: 1 complete games" in out
    assert "FreeCell: 1 complete games" in out
    assert "Montana game 100 actions long: undo median" in out


@heavy
@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed (make test does)")
def test_load_runs_the_site_and_its_ceiling() -> None:
    out = smoke("load.py", "--stock", "log_writer")
    for step in ("ceiling (bare render)", "move + undo, 1 worker", "game page GET", "2 workers"):
        assert step in out
    assert "of the ceiling" in out
    assert "move, stock log_writer" in out and "of a move's server CPU" in out


def test_stats_page_runs() -> None:
    out = smoke("stats_page.py")
    assert "seeded 300 games" in out
    for page in ("/deals/", "/daily: median", "/daily, with the player's streak: median"):
        assert page in out
    assert out.count("(5 runs)") == 7  # each page timed warm, five times


def test_solver_runs() -> None:
    out = smoke("solver.py")
    assert "FreeCell deals 1-3" in out
    assert "pars, standard deals 1-3: " in out
    assert "first round, python engine" in out
    assert "Montana Expert hints over HTTP, deals 1-1 followed" in out
    if "fc-solve's library: not installed" not in out:
        assert "fc-solve's library, deals 1-20 (verdicts)" in out
        assert "deals 1-20 (every line replayed through our rules)" in out


@heavy
@pytest.mark.parametrize("game", ["FreeCell", "Montana"])
def test_hints_run_over_http(game: str) -> None:
    out = smoke("hints.py", "--game", game.lower())
    assert f"{game} hints from 3 positions in play" in out
    for name in ("hint", "verdict", "solution"):
        assert f"  {name}: p50" in out


@heavy
def test_attacks_run_on_a_real_server() -> None:
    out = smoke("attacks.py")
    for shape in ("parts: 20 GETs", "history: 200 actions: replay 200", "settings: 10"):
        assert shape in out


@heavy
def test_races_runs() -> None:
    out = smoke("races.py")
    assert "SQLite, 1 worker: 8 racers, 20 streams" in out
    for figure in ("move rate:", "move to every stream: p50", "server memory:"):
        assert figure in out


@heavy
@pytest.mark.skipif(
    shutil.which("wrk") is None
    or (shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists()),
    reason="wrk or haproxy is not installed (make test installs both)",
)
def test_cluster_runs_behind_the_proxy() -> None:
    out = smoke("cluster.py")
    for step in (
        "1 server, no proxy",
        "HAProxy, 1 server(s)",
        "HAProxy, 3 server(s)",
        "CPU a move",
    ):
        assert step in out
    for fan_out in ("Redis pub/sub", "PostgreSQL LISTEN/NOTIFY"):
        assert f"over 3 servers (through the proxy), {fan_out}" in out
    assert "a stream" in out
    assert out.count("a move every 0.5 s a racer:") == out.count("racers flat out:") == 2


def test_review_runs() -> None:
    out = smoke("review.py")
    assert "FreeCell: 2 lost games reviewed, turning point found for" in out
    assert "Montana Expert (first rounds): 2 lost games reviewed" in out
    assert "0 false statements" in out


def test_ratings_runs() -> None:
    out = smoke("ratings.py")
    assert "100 players x 50 games over 10 days" in out
    assert "Spearman(rating, true skill) = " in out
    assert "from the plain win rate: " in out
    assert "the bound: all games fitted at once" in out
    assert "one day's period: 2,000 games" in out


def test_tournaments_runs() -> None:
    out = smoke("tournaments.py")
    assert "seeded 200 entrants" in out
    assert out.count("x the reference") == 4
    assert "tournament games ended meanwhile: " in out
    assert "the table's fragment (htmx poll)" in out
