"""A race under load: eight racers moving as fast as the move path allows, watched live.

    .venv/bin/python bench/races.py [--seconds 10] [--watchers 200] [--postgres] [--smoke]

One uvicorn worker on a fresh SQLite file (``--postgres``: two workers, each its own
server, on a throw-away PostgreSQL database, the streams split between them). Eight
players make and join a FreeCell race and start it; each racer then plays their own game
from a thread of this process, a move and ``undo`` alternating (as ``bench/load.py``), for
``--seconds``: first with no stream open, then with ``--watchers`` event streams open (a
second process reads them, so its work does not slow the racers' client), then with none
again (the two phases without streams bracket the one with them).

It prints:

* **latency**: to the event that shows a move on every stream, p50 and p95 over every
  (move, stream) pair, from the move's request (an upper bound) and from its answer (a
  lower bound: the answer leaves after the commit); the commit lies between;
* **memory**: the server's resident memory before the streams open, with them open and
  idle (per stream), and after the run (growth);
* **move rate**: the racers' moves a second with the streams open, as a share of the rate
  with none.

``--smoke`` runs one second a phase with 20 watchers (``make test`` runs it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.store.migrate import upgrade  # noqa: E402

RACERS = 8
ROW = re.compile(r'<tr class="racer[^"]*" data-version="(\d+)"')
HX = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(database_url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "bench",
        "RACE_STREAMS_PER_ADDRESS": "0",
        **{
            f"RATE_LIMIT_{cost}{who}": "1000000/second"
            for cost in ("", "SEARCH_", "NEW_GAME_", "REPLAY_", "NEW_PLAYER_")
            for who in ("PLAYER", "ADDRESS")
        },
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", "--no-access-log"],
        env=env, cwd=ROOT, start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int, *, kernel: bool = False) -> float:
    """The process's CPU time so far (user and system; ``kernel``: system only)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    system = int(fields[12])
    return (system + (0 if kernel else int(fields[11]))) / os.sysconf("SC_CLK_TCK")


def set_up(url: str) -> tuple[str, list[tuple[httpx.Client, str]]]:
    """A race of eight, started, its countdown over: the race's path and each racer's
    client and game path."""
    clients = [httpx.Client(base_url=url, timeout=30) for _ in range(RACERS)]
    race = clients[0].post("/races", data={"kind": "freecell", "deal": "1"}).headers["location"]
    for client in clients[1:]:
        assert client.post(f"{race}/join").status_code == 303
    assert clients[0].post(f"{race}/start").status_code == 303
    games = []
    deadline = time.monotonic() + 30
    for client in clients:
        while not (found := re.findall(r'href="(/games/[\w-]+)"', client.get(race).text)):
            assert time.monotonic() < deadline, "the countdown did not end"
            time.sleep(0.2)
        games.append((client, found[0]))
    return race, games


class Racing:
    """The racers' threads: each a move and ``undo``, alternating, on its own game, as
    fast as the answers come, or (``pace``) one a racer every ``pace`` seconds, as people
    play (each racer's first move at a random moment within its first ``pace``)."""

    def __init__(
        self, games: list[tuple[httpx.Client, str]], versions: list[int], pace: float = 0.0
    ) -> None:
        self.games, self.pace = games, pace
        self.versions = versions
        self.sent: list[dict[int, float]] = [{} for _ in games]
        """Per racer: each version a move made, and when its request was sent."""
        self.answered: list[dict[int, float]] = [{} for _ in games]
        """Per racer: when each version's answer came (after its commit)."""
        self.took: list[float] = []
        self.stop = threading.Event()

    def run(self, seconds: float) -> int:
        self.stop.clear()
        threads = [threading.Thread(target=self._race, args=(i,)) for i in range(len(self.games))]
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        self.stop.set()
        for thread in threads:
            thread.join()
        return sum(len(sent) for sent in self.sent)

    def _race(self, index: int) -> None:
        client, game = self.games[index]
        due = time.monotonic() + random.random() * self.pace
        while not self.stop.wait(max(0.0, due - time.monotonic()) if self.pace else 0):
            due += self.pace
            version = self.versions[index]
            action = "6a" if version % 2 == 0 else "undo"
            sent = time.time()
            answer = client.post(f"{game}/actions", data={"action": action,
                                 "version": str(version)}, headers=HX)  # fmt: skip
            took = time.time() - sent
            assert answer.status_code == 200, answer.status_code
            self.versions[index] = version + 1
            self.sent[index][version + 1] = sent
            self.answered[index][version + 1] = sent + took
            self.took.append(took)


# -- the watchers' process -------------------------------------------------------------------


async def watch(urls: list[str], ready: Path, out: Path, stop: Path) -> None:
    """Open every stream, say so (``ready``), and note when each stream's table changes
    (by its ``id:``, the race's step), until ``stop`` appears; then write to ``out`` each
    stream's notes as (racer, version, time). A lean client (the watchers share the
    machine's cores with the servers): a bare socket, the chunked body cut at its
    events, only the last table's ``id`` line read; a table's versions parsed once an id
    for all streams (the same id is the same table: racers' versions only grow)."""
    seen: list[list[tuple[str, float]]] = [[] for _ in urls]
    opened = 0
    versions: dict[str, list[int]] = {}

    async def one(index: int, url: str) -> None:
        nonlocal opened
        address = urlsplit(url)
        reader, writer = await asyncio.open_connection(address.hostname, address.port)
        writer.write(f"GET {address.path} HTTP/1.1\r\nHost: {address.netloc}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())  # fmt: skip
        await reader.readuntil(b"\r\n\r\n")
        opened += 1
        notes, last, body = seen[index], "", b""
        while size := int((await reader.readline()).strip() or b"0", 16):
            body += (await reader.readexactly(size + 2))[:-2]  # a proxy may cut it anew
            end = body.rfind(b"\n\n") + 2
            chunk, body = body[:end], body[end:]
            at = chunk.rfind(b"event: racers\nid: ")
            if at < 0:
                continue
            known = chunk[at + 19 : chunk.index(b"\n", at + 19)].decode()
            if known != last:
                last = known
                notes.append((known, time.time()))
                if known not in versions:
                    table = chunk[at : chunk.find(b"\n\n", at)].decode()
                    versions[known] = [int(v) for v in ROW.findall(table)]

    tasks = [asyncio.create_task(one(i, url)) for i, url in enumerate(urls)]
    while opened < len(urls):
        await asyncio.sleep(0.05)
    ready.write_text("ready")
    while not stop.exists():
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    found = [[(r, v, at) for known, at in notes for r, v in enumerate(versions[known])]
             for notes in seen]  # fmt: skip
    out.write_text(json.dumps(found))


def latencies(seen: list[list[list[float]]], sent: list[dict[int, float]]) -> list[float]:
    """Per (move, stream): from the move's request to the first event showing its version
    (or a later one: a stream may get several moves in one event)."""
    found = []
    for notes in seen:
        shown = [0] * len(sent)
        for racer, version, at in notes:
            racer, version = int(racer), int(version)
            for v in range(shown[racer] + 1, version + 1):
                if v in sent[racer]:
                    found.append(at - sent[racer][v])
            shown[racer] = max(shown[racer], version)
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--profile", metavar="FILE", help="py-spy the server with streams open")
    parser.add_argument("--watch", nargs=4, metavar=("URLS", "READY", "OUT", "STOP"))
    args = parser.parse_args()
    if args.watch:
        urls, ready, out, stop = args.watch
        asyncio.run(watch(json.loads(Path(urls).read_text()), Path(ready), Path(out), Path(stop)))
        return
    if args.smoke:
        args.seconds, args.watchers = 1.0, 20
    folder = Path(tempfile.mkdtemp(prefix="bench-races-"))
    servers: list[subprocess.Popen[bytes]] = []
    pg = None
    try:
        if args.postgres:
            from tests.postgres import PostgresServer, binaries

            bin_dir = binaries()
            if bin_dir is None:
                raise SystemExit("no PostgreSQL here")
            pg = PostgresServer(bin_dir)
            pg.start()
            database_url = pg.url("solitaire_template")
        else:
            database_url = f"sqlite:///{folder / 'bench.db'}"
            upgrade(database_url)
        urls = []
        for _ in range(2 if args.postgres else 1):
            process, url = serve(database_url)
            servers.append(process)
            urls.append(url)
        label = "PostgreSQL, 2 workers" if args.postgres else "SQLite, 1 worker"
        race, games = set_up(urls[0])
        racing = Racing(games, [0] * RACERS)
        racing.run(min(1.0, args.seconds))  # warm up
        racing.sent = [{} for _ in games]
        racing.took = []
        cpu = sum(cpu_seconds(p.pid) for p in servers)
        kernel = sum(cpu_seconds(p.pid, kernel=True) for p in servers)
        racers_cpu = time.process_time()
        bare_moves = racing.run(args.seconds)
        bare_racers = (time.process_time() - racers_cpu) / bare_moves
        bare = bare_moves / args.seconds
        bare_cpu = (sum(cpu_seconds(p.pid) for p in servers) - cpu) / bare_moves
        bare_kernel = (sum(cpu_seconds(p.pid, kernel=True) for p in servers) - kernel) / bare_moves
        bare_took = percentile(racing.took, 0.5)
        before = sum(rss_mib(p.pid) for p in servers)

        streams = [f"{urls[i % len(urls)]}{race}/events" for i in range(args.watchers)]
        (folder / "urls.json").write_text(json.dumps(streams))
        ready, out, stop = folder / "ready", folder / "seen.json", folder / "stop"
        watcher = subprocess.Popen(
            [sys.executable, __file__, "--watch", str(folder / "urls.json"), str(ready),
             str(out), str(stop)],
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while not ready.exists():
            if watcher.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the watchers did not connect")
            time.sleep(0.1)
        time.sleep(0.5)
        idle = sum(rss_mib(p.pid) for p in servers)
        racing.sent = [{} for _ in games]
        racing.answered = [{} for _ in games]
        racing.took = []
        spy = None
        if args.profile:
            spy = subprocess.Popen(
                [str(Path(sys.executable).parent / "py-spy"), "record", "--format", "raw",
                 "--rate", "200", "--gil", "--nonblocking",
                 "--duration", str(round(args.seconds)),
                 "-o", args.profile, "--pid", str(servers[0].pid)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        cpu = sum(cpu_seconds(p.pid) for p in servers)
        kernel = sum(cpu_seconds(p.pid, kernel=True) for p in servers)
        racers_cpu, watchers_cpu = time.process_time(), cpu_seconds(watcher.pid)
        watched_moves = racing.run(args.seconds)
        watched_racers = (time.process_time() - racers_cpu) / watched_moves
        watchers = (cpu_seconds(watcher.pid) - watchers_cpu) / watched_moves
        watched = watched_moves / args.seconds
        watched_cpu = (sum(cpu_seconds(p.pid) for p in servers) - cpu) / watched_moves
        watched_kernel = (
            sum(cpu_seconds(p.pid, kernel=True) for p in servers) - kernel
        ) / watched_moves
        if spy is not None:
            spy.wait(60)
        took = racing.took
        time.sleep(1.0)  # the last events on their way
        stop.write_text("stop")
        watcher.wait(60)
        after = sum(rss_mib(p.pid) for p in servers)
        seen = json.loads(out.read_text())
        found = latencies(seen, racing.sent)
        after_answer = latencies(seen, racing.answered)
        moves = sum(len(s) for s in racing.sent)
        pairs = moves * args.watchers
        # The machine is shared: the rate with no stream is measured again once the streams
        # have closed, and the two bracket the rate with them (drift cancels out).
        racing.sent = [{} for _ in games]
        again = racing.run(args.seconds) / args.seconds
        bare_first, bare = bare, (bare + again) / 2
        print(f"{label}: {RACERS} racers, {args.watchers} streams, {args.seconds:g} s a phase")
        share = 100 * watched / bare
        print(f"  move rate: {bare:.0f}/s with no stream ({bare_first:.0f} before the streams, "
              f"{again:.0f} after), {watched:.0f}/s with {args.watchers} streams: "
              f"{share:.0f} % (target >= 80 %)")  # fmt: skip
        print(f"  server CPU a move: {1000 * bare_cpu:.2f} ms with no stream, "
              f"{1000 * watched_cpu:.2f} ms with {args.watchers} streams (their events "
              f"included): {100 * bare_cpu / watched_cpu:.0f} % of the rate a core allows "
              "(the share above, without the clients' use of the cores); of which the "
              f"kernel's: {1000 * bare_kernel:.2f} and {1000 * watched_kernel:.2f} ms")  # fmt: skip
        print(f"  the bench's clients' CPU a move: racers {1000 * bare_racers:.2f} ms with no "
              f"stream, {1000 * watched_racers:.2f} ms with streams; the watchers' process "
              f"{1000 * watchers:.2f} ms (they share the machine's cores with the "
              "servers)")  # fmt: skip
        print(f"  a move's own time (request to answer): p50 {1000 * bare_took:.1f} ms with no "
              f"stream, {1000 * percentile(took, 0.5):.1f} ms with streams")  # fmt: skip
        print(f"  move to every stream: p50 {1000 * percentile(found, 0.5):.1f} ms, "
              f"p95 {1000 * percentile(found, 0.95):.1f} ms from its request, "
              f"p50 {1000 * percentile(after_answer, 0.5):.1f} ms, "
              f"p95 {1000 * percentile(after_answer, 0.95):.1f} ms from its answer (the "
              "commit lies between; target p95 <= 100 ms); "
              f"{len(found)} of {pairs} (move, stream) pairs seen")  # fmt: skip
        print(f"  server memory: {before:.1f} MiB before the streams, {idle:.1f} MiB with them "
              f"open ({1024 * (idle - before) / max(1, args.watchers):.1f} KiB a stream), "
              f"{after:.1f} MiB after the run: growth {after - before:+.1f} MiB "
              "(target <= 100 MiB)")  # fmt: skip
        if not found:
            raise SystemExit("no move reached a stream")
    finally:
        for process in servers:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(10)
        if pg is not None:
            pg.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
