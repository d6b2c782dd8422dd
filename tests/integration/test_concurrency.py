"""Many clients, several worker processes, one SQLite file in WAL mode: nothing is applied
twice, nothing accepted is lost, every history replays."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Callable

import httpx

from app import service
from app.games.montana import rules as montana
from app.store import Database
from tests.integration.conftest import Server

VERSION = re.compile(r'data-version="(\d+)"')
GAMES = 3
CLIENTS = 8
ACTIONS_PER_CLIENT = 30


def play(
    server: Server,
    game_ids: list[str],
    seed: int,
    accepted: list[tuple[str, int, str]],
    statuses: list[int],
    lock: threading.Lock,
) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for _ in range(ACTIONS_PER_CLIENT):
            game_id = rng.choice(game_ids)
            page = client.get(f"/games/{game_id}", headers={"HX-Request": "true"})
            found = VERSION.search(page.text)
            assert found, page.text[:200]
            version = int(found.group(1))
            position = montana.parse(client.get(f"/games/{game_id}/position").text)
            legal = [move.notation for move in position.legal_moves()]
            choices = [*legal, "undo"] + (["redeal"] if position.can_redeal() else [])
            action = rng.choice(choices)
            # Sometimes send the same request twice, as a double click would.
            for _ in range(2 if rng.random() < 0.2 else 1):
                response = client.post(
                    f"/games/{game_id}/actions",
                    data={"action": action, "version": str(version)},
                    headers={"HX-Request": "true"},
                )
                with lock:
                    statuses.append(response.status_code)
                    if response.status_code == 200:
                        accepted.append((game_id, version, action))


def test_concurrent_clients_on_several_workers(start_server: Callable[..., Server]) -> None:
    server = start_server(workers=2)
    with httpx.Client(base_url=server.url) as client:
        game_ids = [
            client.post("/games", data={"kind": "montana", "deal": str(n)}).headers["location"]
            .rsplit("/", 1)[1]
            for n in range(1, GAMES + 1)
        ]  # fmt: skip
    accepted: list[tuple[str, int, str]] = []
    statuses: list[int] = []
    lock = threading.Lock()
    threads = [
        threading.Thread(target=play, args=(server, game_ids, seed, accepted, statuses, lock))
        for seed in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    server.stop()

    assert all(status < 500 for status in statuses), sorted(set(statuses))
    assert statuses.count(409) > 0, "the clients never collided: the test proves nothing"
    db = Database(server.database_url)
    try:
        for game_id in game_ids:
            rows = service.history(db=db, game_id=game_id)
            assert [row.ply for row in rows] == list(range(1, len(rows) + 1))
            mine = sorted((v, a) for g, v, a in accepted if g == game_id)
            assert mine == [(row.ply - 1, row.notation) for row in rows]
        assert service.verify(db=db) == (GAMES, [])
    finally:
        db.dispose()
