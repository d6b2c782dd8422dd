"""The outside review's attacks on a real ``solitaire serve``, scaled to this machine, with
what each costs the server: its memory (resident, the server's processes together), the
time and bytes of the answers, and the rows it made.

    .venv/bin/python bench/attacks.py [--root DIR] [--smoke]

- **parts**: GETs of ``/rules?q=<i><8 KB of &>`` (the review sent 4,096 of 64 KB: a
  server that kept a page part per query grew by 3 GiB);
- **history**: one Montana game of 10,000 actions (a move and its undo, over and over,
  stored as the site stores them), then its replay at the last step, 8 replays at once,
  and its history export: time, bytes and memory;
- **settings**: cookieless ``POST /settings`` requests, and the player rows they made.

``--root`` serves another checkout of the site (the code before a change) with this
bench's shapes. ``--smoke`` runs each shape small, in a few seconds (``make test``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
MIB = 1024 * 1024


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def memory(group: int) -> int:
    """Resident bytes of every process in the server's process group."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getpgid(int(entry.name)) != group:
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except (OSError, ValueError):
            continue
    return total


class Served:
    def __init__(self, root: Path, folder: Path) -> None:
        self.db = folder / "attack.db"
        env = {
            **os.environ,
            "PYTHONPATH": str(root),
            "DATABASE_URL": f"sqlite:///{self.db}",
            "SECRET_KEY": "attack-bench",
        }
        subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=root, env=env, check=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--no-migrate", "--port", str(self.port)],
            cwd=root,
            env=env,
            start_new_session=True,
            stderr=(folder / "server.log").open("wb"),
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise SystemExit("the server did not start")

    def memory(self) -> int:
        return memory(self.process.pid)

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(10)


def parts(served: Served, count: int) -> None:
    before = served.memory()
    with httpx.Client(base_url=served.url, timeout=30) as client:
        for number in range(count):
            client.get(f"/rules?q={number}{'&' * 8192}")
    after = served.memory()
    print(
        f"parts: {count} GETs of /rules?q=<i><8 KB of &>: server {before / MIB:.0f} MiB → "
        f"{after / MIB:.0f} MiB ({(after - before) / MIB:+.1f} MiB)"
    )


def long_game(served: Served, actions: int) -> str:
    """A Montana game of ``actions`` actions: a move and its undo, stored row for row as
    the site stored the first pair."""
    with httpx.Client(base_url=served.url, timeout=30) as client:
        game_id = client.post("/games", data={"kind": "montana"}).headers["location"]
        game_id = game_id.rsplit("/", 1)[-1]
        from app.games import rules_for  # this checkout's engine: only to pick a move

        position = rules_for("montana").parse(client.get(f"/games/{game_id}/position").text)
        move = position.legal_moves()[0].notation
        for version, action in enumerate((move, "undo")):
            client.post(f"/games/{game_id}/actions", data={"action": action, "version": version})
    with sqlite3.connect(served.db) as db:
        rows = db.execute(
            "SELECT kind, notation, created_at, before, below FROM moves WHERE game_id = ? "
            "ORDER BY ply",
            (game_id,),
        ).fetchall()
        db.executemany(
            "INSERT INTO moves (game_id, ply, kind, notation, created_at, before, below) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, ply, *rows[(ply - 1) % 2]) for ply in range(3, actions + 1)],
        )
        db.execute("UPDATE games SET version = ?, moves_count = 0 WHERE id = ?", (actions, game_id))
    return game_id


def history(served: Served, actions: int) -> None:
    game_id = long_game(served, actions)
    url = f"{served.url}/games/{game_id}"
    with httpx.Client(timeout=60) as client:
        began = time.perf_counter()
        replay = client.get(f"{url}/replay")
        took = time.perf_counter() - began
        began = time.perf_counter()
        exported = client.get(f"{url}/history")
        export_took = time.perf_counter() - began
    print(
        f"history: {actions:,} actions: replay {replay.status_code} in {took * 1000:.0f} ms, "
        f"{len(replay.content) / 1024:.0f} KB; export {exported.status_code} in "
        f"{export_took * 1000:.0f} ms, {len(exported.content) / 1024:.0f} KB "
        f"({exported.text.count(chr(10)):,} lines)"
    )
    peak = served.memory()
    before = peak
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, served.memory())
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    times: list[float] = []

    def one() -> None:
        began = time.perf_counter()
        httpx.get(f"{url}/replay", timeout=120)
        times.append(time.perf_counter() - began)

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    watcher.join()
    print(
        f"history: 8 replays at once: slowest {max(times) * 1000:.0f} ms, server memory "
        f"{before / MIB:.0f} → peak {peak / MIB:.0f} MiB"
    )


def settings(served: Served, count: int) -> None:
    with sqlite3.connect(served.db) as db:
        players = db.execute("SELECT count(*) FROM players").fetchone()[0]
    statuses: dict[int, int] = {}
    for _ in range(count):
        status = httpx.post(
            served.url + "/settings", data={"auto_moves": "on", "next": "/"}
        ).status_code
        statuses[status] = statuses.get(status, 0) + 1
    with sqlite3.connect(served.db) as db:
        made = db.execute("SELECT count(*) FROM players").fetchone()[0] - players
    print(f"settings: {count} cookieless POST /settings ({statuses}): {made} new player rows")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--smoke", action="store_true", help="each shape small")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="attacks-"))
    served = Served(args.root.resolve(), folder)
    try:
        parts(served, 20 if args.smoke else 1000)
        history(served, 200 if args.smoke else 10_000)
        settings(served, 10 if args.smoke else 200)
    except Exception:
        sys.stderr.write((folder / "server.log").read_text()[-3000:])
        raise
    finally:
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
