"""A real ``solitaire serve`` stays bounded under the outside review's attacks (scaled to
this machine): memory from query strings, long histories, slow readers, connections past
the cap (slow senders and one address's share are the reverse proxy's), a killed worker,
and the small gaps (player rows, restarts, file modes, caching, the ``Host`` header). The
figures are in the README and docs/reliability.md; ``bench/attacks.py`` measures the same
shapes."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from app.games import rules_for
from tests.integration.conftest import free_port
from tests.integration.test_solver_flood import FLOOD_SECONDS, server_memory

MIB = 1024 * 1024


@dataclass
class Site:
    url: str
    db: Path
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def memory(self) -> int:
        return server_memory(self)  # type: ignore[arg-type]

    def workers(self) -> list[int]:
        """The supervisor's worker processes (uvicorn's, spawned)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        found = []
        for pid in children.read_text().split():
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"spawn_main" in command:
                found.append(int(pid))
        return found


def children(pid: int) -> list[int]:
    """The processes ``pid`` started, from any of its threads (a worker's solvers)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def wait_for(url: str, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/", timeout=2).status_code == 200:
                return True
        except httpx.HTTPError:
            time.sleep(0.1)
    return False


@pytest.fixture
def site(migrated_file: Path, tmp_path: Path) -> Iterator[Callable[..., Site]]:
    """``solitaire serve`` on a copy of the migrated database (``fresh``: on a path where
    nothing exists yet, which it migrates), with these settings."""
    sites: list[Site] = []

    def start(fresh: bool = False, **settings: str) -> Site:
        folder = tmp_path / f"site-{len(sites)}"
        folder.mkdir()
        path = folder / "data" / "solitaire.db"
        if not fresh:
            path.parent.mkdir()
            shutil.copy(migrated_file, path)
        port = free_port()
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "bounds"}
        env.pop("FORWARDED_ALLOW_IPS", None)
        env.update(settings)
        log = folder / "server.log"
        command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
        process = subprocess.Popen(
            [*command, *([] if fresh else ["--no-migrate"])],
            env=env,
            start_new_session=True,
            stderr=log.open("wb"),
        )
        found = Site(f"http://127.0.0.1:{port}", path, process, log)
        sites.append(found)
        if not wait_for(found.url):
            pytest.fail("solitaire serve did not start: " + log.read_text()[-2000:])
        return found

    yield start
    for found in sites:
        if found.process.poll() is None:
            os.killpg(found.process.pid, signal.SIGTERM)
            try:
                found.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(found.process.pid, signal.SIGKILL)


def new_game(client: httpx.Client, kind: str = "montana") -> str:
    response = client.post("/games", data={"kind": kind})
    assert response.status_code == 303
    return response.headers["location"].rsplit("/", 1)[-1]


def long_game(found: Site, actions: int) -> str:
    """A Montana game of ``actions`` actions (a move and its undo, over and over), stored
    row for row as the site stored its first pair."""
    with httpx.Client(base_url=found.url) as client:
        game_id = new_game(client)
        position = rules_for("montana").parse(client.get(f"/games/{game_id}/position").text)
        for version, action in enumerate((position.legal_moves()[0].notation, "undo")):
            posted = client.post(
                f"/games/{game_id}/actions", data={"action": action, "version": str(version)}
            )
            assert posted.status_code == 303
    with sqlite3.connect(found.db) as db:
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
        db.execute("UPDATE games SET version = ? WHERE id = ?", (actions, game_id))
    return game_id


def test_query_strings_do_not_grow_the_server(site: Callable[..., Site]) -> None:
    """Each page's header was kept per query: 4,096 GETs of 64 KB queries took 3 GiB. Here
    400 GETs of 8 KB queries (the kept header would hold ~40 MiB of them)."""
    found = site()
    with httpx.Client(base_url=found.url) as client:
        for number in range(30):  # every template compiled, every cache warm
            client.get(f"/rules?q=warm{number}")
        before = found.memory()
        for number in range(400):
            assert client.get(f"/rules?q={number}{'&' * 8192}").status_code == 200
    grown = found.memory() - before
    print(f"\n400 GETs of 8 KB queries: the server grew by {grown / MIB:.1f} MiB")
    assert grown < 12 * MIB


def test_language_headers_do_not_grow_the_server(site: Callable[..., Site]) -> None:
    """The language was kept per raw Cookie and Accept-Language pair (1,024 of any size):
    1,100 distinct 100 KB headers grew a worker by 80 MiB. Here 600 distinct 32 KB pairs,
    which the old key would have kept 19 MiB of, and the language still follows them."""
    found = site()
    with httpx.Client(base_url=found.url) as client:
        for number in range(30):
            client.get("/rules", headers={"accept-language": f"hi;q=0.{number % 9 + 1}"})
        before = found.memory()
        for number in range(600):
            headers = {
                "accept-language": f"ar,{number}" + ",x" * 8192,
                "cookie": f"c{number}=" + "y" * 16384,
            }
            page = client.get("/rules", headers=headers)
            assert page.status_code == 200 and 'lang="ar"' in page.text
        chosen = client.get(
            "/rules", headers={"cookie": "theme=x; lang=hi", "accept-language": "ar"}
        )
        assert 'lang="hi"' in chosen.text
    grown = found.memory() - before
    print(f"\n600 GETs of 32 KB language headers: the server grew by {grown / MIB:.1f} MiB")
    assert grown < 12 * MIB


def test_a_long_history_is_replayed_and_exported_in_bounded_pieces(
    site: Callable[..., Site],
) -> None:
    found = site()
    game_id = long_game(found, 10_000)
    url = f"{found.url}/games/{game_id}"
    last = httpx.get(f"{url}/replay", params={"step": 10_000}, timeout=30)
    assert last.status_code == 200
    assert "10000/10000" in last.text
    assert len(last.content) < 1024 * 1024  # the whole list was 2.3 MB
    assert "Earlier steps" in last.text and "Later steps" not in last.text
    middle = httpx.get(f"{url}/replay?step=5000", timeout=30).text
    assert "5000/10000" in middle and "Earlier steps" in middle and "Later steps" in middle
    assert 'href="/games/' + game_id + '/replay?step=5001"' in middle
    exported = httpx.get(f"{url}/history", timeout=30)
    assert exported.headers.get("transfer-encoding") == "chunked"  # sent as it is read
    assert exported.text.count("\n") == 10_000
    assert exported.headers["cache-control"] == "no-store"


def test_replays_and_exports_are_rate_limited(site: Callable[..., Site]) -> None:
    found = site(RATE_LIMIT_REPLAY_ADDRESS="3/minute")
    with httpx.Client(base_url=found.url) as client:
        game_id = new_game(client)
        client.post(f"/games/{game_id}/share")
        token = re.search(r"/watch/([\w-]+)", client.get(f"/games/{game_id}/share").text)
        assert token is not None
        pages = (f"/games/{game_id}/{page}" for page in ("replay", "history", "position"))
        statuses = [
            client.get(page).status_code
            for page in (*pages, f"/watch/{token.group(1)}", f"/games/{game_id}/history")
        ]
    # The position is one row: not counted; a watch link's replay is counted as a replay.
    assert statuses == [200, 200, 200, 200, 429]


def test_a_client_that_stops_reading_holds_its_connection_not_the_answer(
    site: Callable[..., Site],
) -> None:
    """A reader that takes nothing of a ~7 MB export: the export waits for the socket (the
    server's flow control), so the server holds the connection but not the answer, and
    serves everyone else meanwhile. Cutting such a reader off is the proxy's (``timeout
    client``, docs/deploying.md): uvicorn's stock protocol waits for it."""
    found = site()
    game_id = long_game(found, 1_000_000)
    httpx.get(f"{found.url}/games/{game_id}/history")  # once whole: the export's code is warm
    before = found.memory()
    with socket.socket() as reader:
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.connect(("127.0.0.1", found.port))
        reader.sendall(f"GET /games/{game_id}/history HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        deadline = time.monotonic() + 3  # takes nothing: the kernel's buffers fill
        while time.monotonic() < deadline:
            assert httpx.get(found.url + "/", timeout=10).status_code == 200
            time.sleep(0.2)
        grown = found.memory() - before
    assert grown < 4 * MIB, f"{grown / MIB:.1f} MiB held for a reader that took nothing"
    assert httpx.get(found.url + "/").status_code == 200


def test_connections_past_the_cap_are_refused_at_once_and_served_once_freed(
    site: Callable[..., Site],
) -> None:
    """Half-sent requests hold connections: past ``MAX_CONNECTIONS`` a whole request is
    answered 503 at once (uvicorn's ``limit_concurrency``: the server never runs out of
    descriptors), and served again when they go. One address's share and the slow sender's
    deadline are the proxy's (a per-address cap and ``timeout http-request``)."""
    found = site(MAX_CONNECTIONS="60")
    held = []
    try:
        for _ in range(60):
            hog = socket.create_connection(("127.0.0.1", found.port))
            hog.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never finished
            held.append(hog)
        refused = httpx.get(found.url + "/", timeout=10)
        assert refused.status_code == 503
    finally:
        for hog in held:
            hog.close()
    deadline = time.monotonic() + 30  # a bound for liveness: the server sees them close
    while httpx.get(found.url + "/", timeout=10).status_code != 200:
        assert time.monotonic() < deadline, "still refused after the connections closed"
        time.sleep(0.1)


def test_a_killed_worker_is_replaced_and_no_acknowledged_action_is_lost(
    site: Callable[..., Site],
) -> None:
    found = site()
    acknowledged: list[str] = []
    with httpx.Client(base_url=found.url) as client:
        game_id = new_game(client)
        position = rules_for("montana").parse(client.get(f"/games/{game_id}/position").text)
        move = position.legal_moves()[0].notation
        for version in range(20):
            action = move if version % 2 == 0 else "undo"
            posted = client.post(
                f"/games/{game_id}/actions", data={"action": action, "version": str(version)}
            )
            if posted.status_code == 303:
                acknowledged.append(action)
        # A hint starts the worker's solver processes.
        hinted = client.post(f"/games/{game_id}/hint", headers={"HX-Request": "true"}, timeout=30)
        assert hinted.status_code == 200, hinted.text[:300]
    (worker,) = found.workers()
    solvers = children(worker)
    assert solvers, "the worker started no solver process"
    os.kill(worker, signal.SIGKILL)
    assert wait_for(found.url, 60), "the site did not answer again"
    assert found.workers() != [worker]
    deadline = time.monotonic() + 60  # a bound for liveness on a loaded machine
    while any(alive(pid) for pid in solvers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in solvers), "the dead worker's solvers live on"
    history = httpx.get(f"{found.url}/games/{game_id}/history").text.splitlines()
    assert len(acknowledged) == 20
    assert history == acknowledged
    assert f"worker {worker} died (signal 9)" in found.log.read_text()


def test_a_cookieless_settings_post_makes_a_player_only_to_remember_something(
    site: Callable[..., Site],
) -> None:
    found = site(RATE_LIMIT_NEW_PLAYER_ADDRESS="3/minute")

    def players() -> int:
        with sqlite3.connect(found.db) as db:
            return int(db.execute("SELECT count(*) FROM players").fetchone()[0])

    before = players()
    for _ in range(20):
        same = httpx.post(found.url + "/settings", data={"auto_moves": "on", "next": "/stats"})
        assert same.status_code == 303 and same.headers["location"] == "/stats"
        assert "set-cookie" not in same.headers
    assert players() == before
    changed = [
        httpx.post(found.url + "/settings", data={"auto_moves": "off"}).status_code
        for _ in range(4)
    ]
    assert changed == [303, 303, 303, 429]
    assert players() == before + 3


def test_eight_restarts_at_once_deal_one_game(site: Callable[..., Site]) -> None:
    found = site()
    with httpx.Client(base_url=found.url) as client:
        game_id = new_game(client)
        cookie = client.cookies["player"]
    with sqlite3.connect(found.db) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    locations: list[str] = []
    start = threading.Barrier(8)

    def restart() -> None:
        with httpx.Client(base_url=found.url, cookies={"player": cookie}) as client:
            start.wait()
            answer = client.post(f"/games/{game_id}/restart", data={"version": "0"})
            locations.append(f"{answer.status_code} {answer.headers.get('location')}")

    threads = [threading.Thread(target=restart) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with sqlite3.connect(found.db) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == games + 1
    assert len(set(locations)) == 1 and locations[0].startswith("303 /games/")


def test_the_database_is_its_owner_s_alone(site: Callable[..., Site]) -> None:
    found = site(fresh=True)
    assert stat.S_IMODE(found.db.stat().st_mode) == 0o600
    assert stat.S_IMODE(found.db.parent.stat().st_mode) == 0o700
    for suffix in ("-wal", "-shm"):
        side = found.db.with_name(found.db.name + suffix)
        if side.exists():
            assert stat.S_IMODE(side.stat().st_mode) & 0o077 == 0


def test_private_pages_are_not_stored_and_links_ignore_the_host_header(
    site: Callable[..., Site],
) -> None:
    found = site()
    with httpx.Client(base_url=found.url, headers={"Host": "evil.example"}) as client:
        game_id = new_game(client)
        client.post(f"/games/{game_id}/actions", data={"action": "resign", "version": "0"})
        for path in (
            f"/games/{game_id}",
            f"/games/{game_id}/replay",
            f"/games/{game_id}/position",
            f"/games/{game_id}/history",
            "/games",
            "/players/join/nothing-here",
        ):
            answer = client.get(path)
            assert answer.headers.get("cache-control") == "no-store", path
            assert "evil.example" not in answer.text, path
        page = client.get(f"/games/{game_id}").text
    assert f'value="{found.url}/games/{game_id}"' in page


@pytest.mark.heavy  # a flood and a memory peak: never beside the other flood
def test_a_search_flood_from_40_addresses_stays_under_500_mib(site: Callable[..., Site]) -> None:
    """The review's flood reached 553 MiB (the server and its solver processes): here the
    supervisor, its worker and the solver processes together, sampled every 50 ms."""
    found = site()
    peak = found.memory()
    flooding = subprocess.Popen(
        [sys.executable, "-c", "from tests.integration.test_solver_flood import flood; "
         f"flood({found.url!r}, {FLOOD_SECONDS}, spread=True)"],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    while flooding.poll() is None:
        peak = max(peak, found.memory())
        time.sleep(0.05)
    out, _ = flooding.communicate(timeout=60)
    statuses = json.loads(out.decode().strip().splitlines()[-1])["statuses"]
    print(f"\nflood from 40 addresses: {len(statuses)} answers, peak {peak / MIB:.0f} MiB")
    assert all(status < 500 for status in statuses), sorted(set(statuses))
    assert len(statuses) > 40
    assert peak < 500 * MIB
