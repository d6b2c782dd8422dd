"""The site under load from a C client, side by side with the bare render, in one run.

    .venv/bin/python bench/load.py [--seconds 5] [--rounds 3] [--connections 8] [--smoke]

Debian's ``wrk`` drives the servers (a C load generator, so the client does not eat the
server's cores; ``make bench`` installs it). Three servers start on fresh databases and
stay up; each round runs four steps, one after the other, on fresh games:

1. **move**: the site as ``solitaire serve`` runs it (one uvicorn worker, SQLite), each
   connection playing its own Montana game: a move, then ``undo``, alternating (htmx
   fragment, gzip), so every request is stored with its compare-and-set and commit. Each
   posts what the board's form posts from a page (``shown``: the board is drawn plainly,
   so the answer sends the cells that changed, as a browser's would);
2. **ceiling**: ``bench/ceiling.py``, bare FastAPI + Jinja2 rendering an 11 KB, 52-cell
   board in a ``def`` route, no database, no middleware: what this stack can render here;
3. **page**: ``GET /games/{id}``, the whole game page (gzip);
4. **move, 2 workers**: the move run again with two uvicorn workers on one SQLite file.

It prints, per step, the medians over rounds of req/s, p50 and p99, the slowest request,
and the throughput as a share of the ceiling's measured in the same round (the machine is
shared: only such ratios compare across runs). ``--profile FILE`` samples the 1-worker
server with py-spy during the first move step, only the thread holding the GIL (``--gil``:
where the one core Python can use goes); ``bench/profile_shares.py FILE`` sums it.
Non-2xx answers and socket errors are counted; the bench fails if there are any.
``--stock PARTS`` (comma-separated names of ``STOCK_PARTS``, or ``all``) starts beside
the site one more 1-worker server for each part, running that framework's stock part
instead of the site's own (docs/architecture.md), and runs its move step in every round,
the site's move step and theirs in an order that turns each round; for each it prints the
share of the ceiling and the **server CPU a move** (the server's processes' user and
system time from ``/proc`` over the step, divided by the requests answered), and what the
site's own part saves of it.
``--smoke`` runs one round of a second a step (``make test`` runs it, so a bench that
cannot start fails the tests).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import STOCK_PARTS  # noqa: E402
from app.games.montana import rules as montana  # noqa: E402
from app.store.migrate import upgrade  # noqa: E402

HEADERS = {
    "Accept-Encoding": "gzip",
    "Sec-Fetch-Site": "same-origin",
}
POST_HEADERS = {
    **HEADERS,
    "Content-Type": "application/x-www-form-urlencoded",
    "HX-Request": "true",
}

# Each wrk thread drives one connection and one game: the move, then undo, alternating;
# the version the next request carries goes up by one with each answer stored.
MOVES_SCRIPT = """
local games = %(games)s
local headers = %(headers)s
local started = 0
function setup(thread)
  started = started + 1
  local game = games[(started - 1) %% #games + 1]
  thread:set("path", game[1])
  thread:set("move", game[2])
end
function init(args)
  version = 0
end
function request()
  local action = version %% 2 == 0 and move or "action=undo"
  return wrk.format("POST", path, headers, action .. "&version=" .. version .. "&shown=en")
end
function response(status, headers, body)
  if status == 200 then version = version + 1 end
end
%(done)s
"""
PAGE_SCRIPT = """
local paths = %(paths)s
local headers = %(headers)s
local started = 0
function setup(thread)
  started = started + 1
  thread:set("path", paths[(started - 1) %% #paths + 1])
end
function request()
  return wrk.format("GET", path, headers)
end
%(done)s
"""
DONE = """
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\nRESULT {"requests": %d, "micros": %d, "p50": %d, "p99": %d, "max": %d, '
    .. '"errors": %d, "status_errors": %d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency.max, e.connect + e.read + e.write + e.timeout, e.status))
end
"""


@dataclass(frozen=True)
class Result:
    label: str
    rate: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    errors: int
    requests: int = 0
    cpu_us: float = 0.0
    """The server's CPU time a request over the step (its processes, from ``/proc``)."""

    def line(self, ceiling: float | None) -> str:
        share = f", {self.rate / ceiling:4.0%} of the ceiling" if ceiling else ""
        return (
            f"{self.label:<28} {self.rate:7,.0f} req/s, p50 {self.p50_ms:6.1f} ms, "
            f"p99 {self.p99_ms:6.1f} ms, max {self.max_ms:6.1f} ms, errors {self.errors}{share}"
        )


def lua(value: object) -> str:
    """A Python list or dict of strings as a Lua table."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"[{lua(k)}] = {lua(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "{" + ", ".join(lua(item) for item in value) + "}"
    return json.dumps(value)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A server process in its own session, stopped with its workers."""

    def __init__(self, command: list[str], env: dict[str, str], port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            command,
            env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): {command}")
            try:
                httpx.get(self.url + "/", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within 90 s: {command}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(20)


def site(database_url: str, workers: int, stock: str = "") -> Server:
    port = free_port()
    env = {
        "STOCK_PARTS": stock,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "load",
        # wrk plays far faster than people: no rate limits here.
        "RATE_LIMIT_PLAYER": "1000000/second",
        "RATE_LIMIT_ADDRESS": "1000000/second",
    }
    command = [sys.executable, "-m", "app.cli", "serve", "--no-migrate", "--port", str(port)]
    return Server([*command, "--workers", str(workers)], env, port)


def ceiling() -> Server:
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "ceiling:app", "--port", str(port),
               "--app-dir", str(ROOT / "bench"),
               "--log-level", "warning", "--no-access-log"]  # fmt: skip
    return Server(command, {}, port)


def new_games(url: str, count: int) -> list[tuple[str, str]]:
    """``count`` fresh Montana games: each one's action path and a legal first move."""
    games = []
    with httpx.Client(base_url=url) as client:
        for deal in range(1, count + 1):
            started = client.post("/games", data={"kind": "montana", "deal": str(deal)})
            game_id = started.headers["location"].rsplit("/", 1)[1]
            move = montana.new_game(deal).legal_moves()[0].notation
            games.append((f"/games/{game_id}/actions", urlencode({"action": move})))
    return games


def cpu_seconds(root: int) -> float:
    """User and system time so far of process ``root`` and every process under it."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    total, wanted = 0.0, {root}
    for _ in range(4):  # supervisor, workers, their solver processes
        wanted |= {pid for pid, parent in parents.items() if parent in wanted}
    for pid in wanted:
        total += times.get(pid, 0.0)
    return total


def wrk(
    label: str,
    url: str,
    script: str,
    seconds: float,
    connections: int,
    server: Server | None = None,
) -> Result:
    began = cpu_seconds(server.process.pid) if server is not None else 0.0
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as file:
        file.write(script)
        file.flush()
        command = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds:g}s",
                   "--timeout", "10s", "-s", file.name, url]  # fmt: skip
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    spent = cpu_seconds(server.process.pid) - began if server is not None else 0.0
    line = next(x for x in output.splitlines() if x.startswith("RESULT "))
    found = json.loads(line.removeprefix("RESULT "))
    return Result(
        requests=found["requests"],
        cpu_us=1e6 * spent / max(found["requests"], 1),
        label=label,
        rate=found["requests"] / (found["micros"] / 1e6),
        p50_ms=found["p50"] / 1000,
        p99_ms=found["p99"] / 1000,
        max_ms=found["max"] / 1000,
        errors=found["errors"] + found["status_errors"],
    )


def moves_script(games: list[tuple[str, str]]) -> str:
    headers = lua(POST_HEADERS)
    return MOVES_SCRIPT % {"games": lua(games), "headers": headers, "done": DONE}


def page_script(games: list[tuple[str, str]]) -> str:
    paths = [path.removesuffix("/actions") for path, _ in games]
    return PAGE_SCRIPT % {"paths": lua(paths), "headers": lua(HEADERS), "done": DONE}


def profiled(server: Server, seconds: float, output: str | None) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the server and its workers for ``seconds`` (collapsed stacks)."""
    if output is None:
        return None
    spy = str(Path(sys.executable).parent / "py-spy")
    command = [spy, "record", "--subprocesses", "--format", "raw", "--rate", "200", "--gil",
               "--nonblocking", "--duration", str(round(seconds)), "-o", output,
               "--pid", str(server.process.pid)]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def bare_commit_ms(folder: str, count: int) -> tuple[float, float]:
    """Median and p99 of a bare SQLite transaction in WAL mode with ``synchronous=FULL``
    (insert a move row, compare-and-set the game row, commit) on the bench's disk."""
    connection = sqlite3.connect(f"{folder}/bare.db", isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE moves (game TEXT, ply INT, PRIMARY KEY (game, ply))")
    connection.execute("CREATE TABLE games (id TEXT PRIMARY KEY, version INT)")
    connection.execute("INSERT INTO games VALUES ('g', 0)")
    times = []
    for ply in range(count):
        began = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO moves VALUES ('g', ?)", (ply + 1,))
        connection.execute("UPDATE games SET version = ? WHERE version = ?", (ply + 1, ply))
        connection.execute("COMMIT")
        times.append((time.perf_counter() - began) * 1000)
    connection.close()
    times.sort()
    return statistics.median(times), times[int(0.99 * (len(times) - 1))]


CEILING, MOVE_1, PAGE, MOVE_2 = (
    "ceiling (bare render)", "move + undo, 1 worker", "game page GET", "move + undo, 2 workers"
)  # fmt: skip


def stock_label(part: str) -> str:
    return f"move, stock {part}"


def run(
    seconds: float, connections: int, rounds: int, profile: str | None, stock: list[str]
) -> list[list[Result]]:
    """``rounds`` rounds of the four steps (and the stock parts' move steps), each server up
    throughout, so that every round measures the site and its ceiling within a few seconds
    of each other."""
    with tempfile.TemporaryDirectory() as folder:
        median, p99 = bare_commit_ms(folder, 50 if seconds < 5 else 300)
        print(f"bare SQLite WAL transaction (synchronous=FULL) on this disk: median {median:.2f} "
              f"ms, p99 {p99:.2f} ms")  # fmt: skip
        urls = [f"sqlite:///{folder}/load-{workers}.db" for workers in (1, 2)]
        for url in urls:
            upgrade(url)
        for part in stock:
            urls.append(f"sqlite:///{folder}/load-{part}.db")
            upgrade(urls[-1])
        servers = [ceiling(), site(urls[0], 1), site(urls[1], 2)]
        servers += [site(url, 1, part) for url, part in zip(urls[2:], stock, strict=True)]
        try:
            bare, one, two = (server.url for server in servers[:3])
            fake = moves_script([(f"/games/{'c' * 24}/actions", urlencode({"action": "8C B7"}))])
            all_rounds = []
            for number in range(rounds):
                games_one, games_two = new_games(one, connections), new_games(two, connections)
                spy = profiled(servers[1], seconds, profile if number == 0 else None)
                moving = [(MOVE_1, servers[1], games_one)]
                for part, server in zip(stock, servers[3:], strict=True):
                    moving.append((stock_label(part), server, new_games(server.url, connections)))
                turn = number % len(moving)  # each server's step comes first in turn
                results = [
                    wrk(label, server.url, moves_script(games), seconds, connections, server)
                    for label, server, games in moving[turn:] + moving[:turn]
                ]
                results += [
                    wrk(CEILING, bare, fake, seconds, connections, servers[0]),
                    wrk(PAGE, one, page_script(games_one), seconds, connections, servers[1]),
                    wrk(MOVE_2, two, moves_script(games_two), seconds, connections, servers[2]),
                ]
                if spy is not None:
                    spy.wait(30)
                all_rounds.append(results)
        finally:
            for server in servers:
                server.stop()
    return all_rounds


def summary(all_rounds: list[list[Result]], stock: list[str]) -> None:
    """Per step: the median over rounds of req/s, p50, p99, the share of the same round's
    ceiling, the server's CPU a request; the slowest request of all rounds. Then, for each
    stock part, what the site's own part saves of a move's server CPU."""
    labels = (CEILING, MOVE_1, PAGE, MOVE_2, *map(stock_label, stock))
    for index, label in enumerate(labels):
        steps = [next(r for r in results if r.label == label) for results in all_rounds]
        ceilings = [next(r for r in results if r.label == CEILING) for results in all_rounds]
        shares = [step.rate / top.rate for step, top in zip(steps, ceilings, strict=True)]
        line = (
            f"{label:<24} {statistics.median(s.rate for s in steps):7,.0f} req/s, "
            f"p50 {statistics.median(s.p50_ms for s in steps):6.1f} ms, "
            f"p99 {statistics.median(s.p99_ms for s in steps):6.1f} ms, "
            f"max {max(s.max_ms for s in steps):6.1f} ms, errors {sum(s.errors for s in steps)}"
        )
        if index:
            line += f", {statistics.median(shares):4.0%} of the ceiling"
            line += " (rounds: " + ", ".join(f"{share:.0%}" for share in shares) + ")"
        cpu = [s.cpu_us for s in steps]
        line += (
            f", CPU {statistics.median(cpu):,.0f} µs a request ({min(cpu):,.0f}–{max(cpu):,.0f})"
        )
        print(line)
    own = [next(r for r in results if r.label == MOVE_1) for results in all_rounds]
    for part in stock:
        theirs = [
            next(r for r in results if r.label == stock_label(part)) for results in all_rounds
        ]
        saved = [
            (other.cpu_us - mine.cpu_us) / mine.cpu_us
            for mine, other in zip(own, theirs, strict=True)
        ]
        rates = [mine.rate / other.rate - 1 for mine, other in zip(own, theirs, strict=True)]
        print(
            f"{part:<14} the site's own part saves {statistics.median(saved):+.1%} of a move's "
            f"server CPU (rounds: {', '.join(f'{x:+.0%}' for x in saved)}); "
            f"moves/s {statistics.median(rates):+.1%} "
            f"(rounds: {', '.join(f'{x:+.0%}' for x in rates)})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5, help="per step and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8, help="wrk -t and -c")
    parser.add_argument("--smoke", action="store_true", help="one round, a second a step")
    parser.add_argument("--profile", help="py-spy the first 1-worker move step into this file")
    parser.add_argument(
        "--stock", default="", help="STOCK_PARTS names (comma-separated, or all) measured beside"
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench/load.py needs wrk: apt-get install wrk (make bench does)")
    seconds, rounds, connections = (
        (1, 1, 2) if args.smoke else (args.seconds, args.rounds, args.connections)
    )
    print(f"wrk -t{connections} -c{connections} -d{seconds:g}s per step, {rounds} rounds")
    stock = [part.strip() for part in args.stock.split(",") if part.strip()]
    if stock == ["all"]:
        stock = sorted(STOCK_PARTS)
    if unknown := set(stock) - STOCK_PARTS:
        sys.exit(f"no such stock part: {', '.join(sorted(unknown))}")
    all_rounds = run(seconds, connections, rounds, args.profile, stock)
    summary(all_rounds, stock)
    if any(result.errors for results in all_rounds for result in results):
        sys.exit("errors under load")


if __name__ == "__main__":
    main()
