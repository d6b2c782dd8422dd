"""The site under load from a C client, side by side with the bare render, in one run.

    .venv/bin/python bench/load.py [--seconds 10] [--connections 8] [--smoke]

Debian's ``wrk`` drives the server (a C load generator, so the client does not eat the
server's cores; ``make bench`` installs it). Each run starts a fresh server process:

1. **ceiling**: ``bench/ceiling.py``, bare FastAPI + Jinja2 rendering an 11 KB, 52-cell
   board in a ``def`` route, no database, no middleware: what this stack can render here;
2. **move**: the site as ``solitaire serve`` runs it (one uvicorn worker, SQLite), each
   connection playing its own Montana game: a move, then ``undo``, alternating (htmx
   fragment, gzip), so every request is stored with its compare-and-set and commit;
3. **page**: ``GET /games/{id}``, the whole game page (gzip);
4. **move, 2 workers**: the move run again with two uvicorn workers on one SQLite file.

It prints req/s, p50, p99 and the slowest request of each, and each run's throughput as a
share of the ceiling's. Non-2xx answers and socket errors are counted and reported; the
bench fails if there are any. ``--smoke`` runs every step for about a second (``make
test`` runs it, so a bench that cannot start fails the tests).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
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

from app.rules import montana  # noqa: E402
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
  return wrk.format("POST", path, headers, action .. "&version=" .. version)
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
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): {command}")
            try:
                httpx.get(self.url + "/", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within 30 s: {command}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(20)


def site(database_url: str, workers: int) -> Server:
    port = free_port()
    env = {
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


def wrk(label: str, url: str, script: str, seconds: float, connections: int) -> Result:
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as file:
        file.write(script)
        file.flush()
        command = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds:g}s",
                   "--timeout", "10s", "-s", file.name, url]  # fmt: skip
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(x for x in output.splitlines() if x.startswith("RESULT "))
    found = json.loads(line.removeprefix("RESULT "))
    return Result(
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
    command = [spy, "record", "--subprocesses", "--format", "raw", "--rate", "200",
               "--duration", str(round(seconds)), "-o", output,
               "--pid", str(server.process.pid)]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run(seconds: float, connections: int, profile: str | None = None) -> list[Result]:
    results = []
    server = ceiling()
    try:
        fake = [(f"/games/{'c' * 24}/actions", urlencode({"action": "8C B7"}))]
        script = moves_script(fake)
        results.append(wrk("ceiling (bare render)", server.url, script, seconds, connections))
    finally:
        server.stop()
    with tempfile.TemporaryDirectory() as folder:
        for workers in (1, 2):
            database_url = f"sqlite:///{folder}/load-{workers}.db"
            upgrade(database_url)
            server = site(database_url, workers)
            try:
                games = new_games(server.url, connections)
                label = f"move + undo, {workers} worker{'s' if workers > 1 else ''}"
                spy = profiled(server, seconds, profile if workers == 1 else None)
                results.append(wrk(label, server.url, moves_script(games), seconds, connections))
                if spy is not None:
                    spy.wait(30)
                if workers == 1:
                    script = page_script(games)
                    results.append(wrk("game page GET", server.url, script, seconds, connections))
            finally:
                server.stop()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=8, help="wrk -t and -c")
    parser.add_argument("--smoke", action="store_true", help="about a second a step")
    parser.add_argument("--profile", help="py-spy the 1-worker move step into this file")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench/load.py needs wrk: apt-get install wrk (make bench does)")
    seconds, connections = (1, 2) if args.smoke else (args.seconds, args.connections)
    print(f"wrk -t{connections} -c{connections} -d{seconds:g}s, one fresh server per step")
    results = run(seconds, connections, args.profile)
    top = results[0].rate
    for result in results:
        print(result.line(None if result is results[0] else top))
    if any(result.errors for result in results):
        sys.exit("errors under load")


if __name__ == "__main__":
    main()
