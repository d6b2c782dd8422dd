"""The site on several servers behind HAProxy (app/cluster.py), on PostgreSQL.

    .venv/bin/python bench/cluster.py [--seconds 5] [--connections 8] [--watchers 1000] [--smoke]

1. **Moves** (wrk, a move and ``undo`` alternating on its own Montana game per connection,
   as bench/load.py): through HAProxy with 1, 2 and 3 app servers (the others set to
   ``maint`` at the proxy), beside the same load on one server without the proxy (the
   proxy's cost as a ratio); moves a second, p99, and the CPU a move costs the app servers
   and the proxy (from /proc), the figure that carries to bigger hosts.
2. **A race watched**: eight racers moving through the proxy while ``--watchers`` pages
   stream its events (spread over the three servers by the proxy), with races' changes
   carried between servers by Redis pub/sub, then by PostgreSQL's ``LISTEN/NOTIFY``
   (``REDIS_URL`` unset): first at a person's pace (``--pace``: a move every 0.5 s a
   racer), then flat out (each racer's next move as soon as its answer comes): moves a
   second, p50 and p95 from a move's answer to its event on every stream (target p95 <=
   150 ms), the app servers' CPU a move, and their memory a stream. The watchers are
   lean clients (bench/races.py ``--watch``: bare sockets, only each table's ``id`` read)
   in a few processes on the same machine.

PostgreSQL runs with ``fsync=off`` here (a bench, not the data of record): on real hosts a
commit also waits for the disk. ``--smoke`` runs one second a step with 30 watchers.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402
import races  # noqa: E402

from app.cluster import Cluster, free_port  # noqa: E402

FAST = "1000000/second"
SETTINGS = {
    **{
        f"RATE_LIMIT_{cost}{who}": FAST
        for cost in ("", "SEARCH_", "NEW_GAME_", "REPLAY_", "WRITE_", "NEW_PLAYER_")
        for who in ("PLAYER", "ADDRESS")
    },
    "RACE_STREAMS_PER_ADDRESS": "0",
    "BASE_URL": "",  # wrk's Host names a server too: no host is refused
}


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants (an app server: its supervisor and its worker)."""
    found = [pid]
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        found += tree(int(child))
    return found


def cpu(cluster: Cluster, names: list[str]) -> float:
    total = 0.0
    for name in names:
        pid = cluster.pid(name)
        if pid is not None:
            total += sum(races.cpu_seconds(each) for each in tree(pid))
    return total


def memory(cluster: Cluster) -> float:
    """The app servers' resident memory, MiB."""
    return sum(
        races.rss_mib(each) for name in cluster.app_names for each in tree(cluster.pid(name) or 0)
    )


def moves(cluster: Cluster, seconds: float, connections: int) -> None:
    direct = f"http://127.0.0.1:{cluster.ports['app-1']}"
    rows = []
    for servers in (0, 1, 2, 3):  # 0: one server, no proxy
        for number, name in enumerate(cluster.app_names, 1):
            state = "ready" if number <= max(servers, 1) else "maint"
            cluster.proxy(f"set server app/{name} state {state}")
        cluster.wait_until_up(*cluster.app_names[: max(servers, 1)])
        url = direct if servers == 0 else cluster.url
        games = load.new_games(url, connections)
        before_apps, before_proxy = cpu(cluster, cluster.app_names), cpu(cluster, ["haproxy"])
        label = "1 server, no proxy" if servers == 0 else f"HAProxy, {servers} server(s)"
        result = load.wrk(label, url, load.moves_script(games), seconds, connections)
        done = max(1.0, result.rate * seconds)
        app_ms = 1000 * (cpu(cluster, cluster.app_names) - before_apps) / done
        proxy_ms = 1000 * (cpu(cluster, ["haproxy"]) - before_proxy) / done
        rows.append((result, app_ms, proxy_ms))
    bare = rows[0][0].rate
    print(f"moves (wrk -t{connections} -c{connections}, {seconds:g} s a step), PostgreSQL:")
    for result, app_ms, proxy_ms in rows:
        print(f"  {result.label:<22} {result.rate:6,.0f} moves/s ({result.rate / bare:4.0%} of "
              f"one server without the proxy), p50 {result.p50_ms:5.1f} ms, p99 "
              f"{result.p99_ms:6.1f} ms, errors {result.errors}; CPU a move: app servers "
              f"{app_ms:.2f} ms, proxy {proxy_ms:.2f} ms")  # fmt: skip
    for name in cluster.app_names:
        cluster.proxy(f"set server app/{name} state ready")
    cluster.wait_until_up(*cluster.app_names)


def watched(
    cluster: Cluster, label: str, seconds: float, watchers: int, folder: Path, direct: bool,
    pace: float,
) -> None:  # fmt: skip
    race, games = races.set_up(cluster.url)
    racing = races.Racing(games, [0] * races.RACERS)
    racing.run(min(1.0, seconds))  # warm up
    before = memory(cluster)
    # The watchers in a few processes (a Python process reads some 250 streams in time).
    parts = max(1, min(4, round(watchers / 250)))
    stop = folder / "stop"
    stop.unlink(missing_ok=True)
    readers = []
    for part in range(parts):
        count = len(range(part, watchers, parts))
        urls, ready, out = (folder / f"{name}-{part}" for name in ("urls.json", "ready", "seen"))
        ready.unlink(missing_ok=True)
        out.unlink(missing_ok=True)
        where = [cluster.url] * count
        if direct:  # each stream straight to a server, the proxy's part left out
            servers = [f"http://127.0.0.1:{cluster.ports[name]}" for name in cluster.app_names]
            where = [servers[(part + parts * i) % len(servers)] for i in range(count)]
        urls.write_text(json.dumps([f"{url}{race}/events" for url in where]))
        reader = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "races.py"), "--watch", str(urls),
             str(ready), str(out), str(stop)],
        )  # fmt: skip
        readers.append((reader, ready, out))
    deadline = time.monotonic() + 180
    while not all(ready.exists() for _, ready, _ in readers):
        if any(r.poll() is not None for r, _, _ in readers) or time.monotonic() > deadline:
            raise SystemExit("the watchers did not connect")
        time.sleep(0.1)
    time.sleep(0.5)
    idle = memory(cluster)
    how = "straight to them" if direct else "through the proxy"
    print(f"a race watched by {watchers} streams over 3 servers ({how}), {label}: servers' "
          f"memory {before:.0f} MiB, {idle:.0f} MiB with the streams open: "
          f"{1024 * (idle - before) / watchers:.1f} KiB a stream")  # fmt: skip
    phases = []
    for each in dict.fromkeys((pace, 0.0)):  # people's pace, then as fast as answers come
        racing.pace = each
        racing.sent = [{} for _ in games]
        racing.answered = [{} for _ in games]
        spent = cpu(cluster, cluster.app_names)
        reading = sum(races.cpu_seconds(reader.pid) for reader, _, _ in readers)
        done = racing.run(seconds)
        spent = cpu(cluster, cluster.app_names) - spent
        reading = sum(races.cpu_seconds(reader.pid) for reader, _, _ in readers) - reading
        phases.append((each, done, spent, reading, racing.answered))
        time.sleep(1.0)  # the last events on their way
    stop.write_text("stop")
    seen = []
    for reader, _, out in readers:
        reader.wait(60)
        seen += json.loads(out.read_text())
    for each, done, spent, reading, answered in phases:
        found = races.latencies(seen, answered)
        p50, p95 = (1000 * races.percentile(found, share) for share in (0.5, 0.95))
        who = f"a move every {each:g} s a racer" if each else "racers flat out"
        print(f"  {who}: {done / seconds:.0f} moves/s; move's answer to every stream p50 "
              f"{p50:.1f} ms, p95 {p95:.1f} ms (target <= 150 ms), {len(found)} of "
              f"{done * watchers} (move, stream) pairs seen; app servers' CPU a move "
              f"{1000 * spent / max(1, done):.2f} ms, the watchers' processes' "
              f"{1000 * reading / max(1, done):.2f} ms (of {2000 * seconds / max(1, done):.0f} "
              "ms the machine's two cores give a move)")  # fmt: skip
        if not found:
            raise SystemExit("no move reached a stream")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument(
        "--pace",
        type=float,
        default=0.5,
        help="seconds between a racer's moves (then flat out, 0, as well)",
    )
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--streams-only", action="store_true", help="only the race watched")
    parser.add_argument("--direct", action="store_true", help="streams not through the proxy")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.connections, args.watchers = 1.0, 4, 30
    if shutil.which("wrk") is None:
        sys.exit("bench/cluster.py needs wrk: apt-get install wrk (make bench does)")
    folder = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    try:
        for redis in (True, False):
            cluster = Cluster(
                folder=folder / ("redis" if redis else "postgres"),
                proxy_port=free_port(),
                redis=redis,
                per_address=args.watchers + 1000,
                env=SETTINGS,
                postgres_options="-c fsync=off -c max_connections=300",
            )
            try:
                cluster.up()
                if redis and not args.streams_only:
                    moves(cluster, args.seconds, args.connections)
                label = "Redis pub/sub" if redis else "PostgreSQL LISTEN/NOTIFY"
                watched(cluster, label, args.seconds, args.watchers, cluster.folder, args.direct,
                        args.pace)  # fmt: skip
            finally:
                cluster.down()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
