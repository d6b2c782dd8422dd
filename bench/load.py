"""Many players at once against a real server, and the same load against the ceiling.

    .venv/bin/python bench/load.py [--players 16] [--workers 2] [--seconds 15]

Starts ``uvicorn app.main:app`` with W workers on a fresh SQLite database (rate limits
lifted: the simulated players are far faster than people) and N simulated players on
loopback, each playing complete Montana games as fast as answers come (a move that puts a
card in place when it can, else any move, a redeal when stuck; a new game when one ends).
Prints actions per second, p50/p99 latency and errors. Then the same players post the same
forms to ``bench/ceiling.py``: FastAPI rendering the same board fragment with no database,
the most any action could do on this machine. The ratio says what the store costs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.rules import montana  # noqa: E402
from app.store.migrate import upgrade  # noqa: E402

VERSION = re.compile(r'data-version="(\d+)" data-status="(\w+)"')


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    games: int = 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(
    app: str, workers: int, env: dict[str, str], app_dir: Path
) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port),
         "--workers", str(workers), "--log-level", "warning", "--no-access-log",
         "--app-dir", str(app_dir)],
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(url + "/", timeout=1)
            return url, process
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def stop(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(20)


def choose(position: montana.MontanaPosition, rng: random.Random) -> str | None:
    moves = position.legal_moves()
    if not moves:
        return "redeal" if position.can_redeal() else None
    scoring = [m for m in moves if position.play(m).score > position.score]
    return (scoring[0] if scoring else rng.choice(moves)).notation


async def player(url: str, seed: int, deadline: float, tally: Tally, ceiling: bool) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        while time.monotonic() < deadline:
            deal = rng.randint(1, 1_000_000)
            if ceiling:
                game_id = "c" * 24
            else:
                started = await client.post("/games", data={"kind": "montana", "deal": str(deal)})
                game_id = started.headers["location"].rsplit("/", 1)[1]
            position, version = montana.new_game(deal), 0
            while time.monotonic() < deadline:
                action = choose(position, rng) or "resign"
                began = time.perf_counter()
                try:
                    response = await client.post(
                        f"/games/{game_id}/actions",
                        data={"action": action, "version": str(version)},
                        headers={"HX-Request": "true"},
                    )
                except httpx.HTTPError:
                    tally.errors += 1
                    continue
                tally.latencies.append((time.perf_counter() - began) * 1000)
                if response.status_code != 200:
                    tally.errors += 1
                    break
                found = VERSION.search(response.text)
                version = int(found.group(1)) if found else version + 1
                if action == "resign":
                    tally.games += 1
                    break
                position = position.play(position.parse_action(action))
                if position.is_won() or position.is_lost():
                    tally.games += 1
                    break


async def run(url: str, players: int, seconds: float, ceiling: bool) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(player(url, seed, deadline, tally, ceiling) for seed in range(players)))
    return tally


def report(label: str, tally: Tally, seconds: float) -> float:
    rate = len(tally.latencies) / seconds
    ordered = sorted(tally.latencies)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(
        f"{label}: {rate:,.0f} actions/s, p50 {statistics.median(ordered):.1f} ms, "
        f"p99 {p99:.1f} ms, errors {tally.errors}, games finished {tally.games}"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args()
    print(f"{args.players} players, {args.workers} workers, {args.seconds:.0f} s each run")
    with tempfile.TemporaryDirectory() as folder:
        database_url = f"sqlite:///{folder}/load.db"
        upgrade(database_url)
        env = {
            "DATABASE_URL": database_url,
            "SECRET_KEY": "load",
            "RATE_LIMIT_PLAYER": "1000000/second",
            "RATE_LIMIT_ADDRESS": "1000000/second",
        }
        url, process = start("app.main:app", args.workers, env, ROOT)
        try:
            site = asyncio.run(run(url, args.players, args.seconds, ceiling=False))
        finally:
            stop(process)
        url, process = start("ceiling:app", args.workers, env, ROOT / "bench")
        try:
            ceiling = asyncio.run(run(url, args.players, args.seconds, ceiling=True))
        finally:
            stop(process)
    site_rate = report("site (SQLite, every action stored)", site, args.seconds)
    ceiling_rate = report("ceiling (render only, no database)", ceiling, args.seconds)
    print(f"site / ceiling: {site_rate / ceiling_rate:.0%}")


if __name__ == "__main__":
    main()
