"""A server killed with SIGKILL under steady play loses no answered action."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

import httpx

from app import service
from app.games.montana import rules as montana
from app.store import Database
from tests.integration.conftest import Server

VERSION = re.compile(r'data-version="(\d+)"')


def steady_play(
    server: Server, game_id: str, answered: list[tuple[int, str]], stop: threading.Event
) -> None:
    """Play one game as fast as answers come; remember every action answered with 200."""
    with httpx.Client(base_url=server.url, timeout=5) as client:
        version = 0
        position = montana.parse(client.get(f"/games/{game_id}/position").text)
        while not stop.is_set():
            legal = position.legal_moves()
            action = legal[0].notation if legal else "undo"
            try:
                response = client.post(
                    f"/games/{game_id}/actions",
                    data={"action": action, "version": str(version)},
                    headers={"HX-Request": "true"},
                )
            except httpx.HTTPError:
                return  # the server is gone
            if response.status_code != 200:
                return
            answered.append((version, action))
            found = VERSION.search(response.text)
            assert found
            version = int(found.group(1))
            if legal:
                position = position.play(position.parse_action(action))
                continue
            try:
                position = montana.parse(client.get(f"/games/{game_id}/position").text)
            except httpx.HTTPError:
                return  # the server is gone


def test_sigkill_mid_load_loses_no_answered_action(start_server: Callable[..., Server]) -> None:
    server = start_server(workers=1)
    with httpx.Client(base_url=server.url) as client:
        game_ids = [
            client.post("/games", data={"kind": "montana", "deal": str(n)}).headers["location"]
            .rsplit("/", 1)[1]
            for n in (11, 12, 13, 14)
        ]  # fmt: skip
    answered: dict[str, list[tuple[int, str]]] = {game_id: [] for game_id in game_ids}
    stop = threading.Event()
    threads = [
        threading.Thread(target=steady_play, args=(server, game_id, answered[game_id], stop))
        for game_id in game_ids
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120  # enough answered actions to test (a liveness bound)
    while sum(len(done) for done in answered.values()) <= 10 and time.monotonic() < deadline:
        time.sleep(0.1)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(30)
    assert sum(len(done) for done in answered.values()) > 10, "too little load to test"

    restarted = start_server(workers=1)
    with httpx.Client(base_url=restarted.url) as client:
        for game_id, done in answered.items():
            stored = client.get(f"/games/{game_id}/history").text.splitlines()
            # Every answered action is there, in order; at most one more that was being
            # written when the process died (stored, but its answer never sent).
            assert stored[: len(done)] == [action for _, action in done]
            assert len(stored) - len(done) <= 1
    restarted.stop()
    db = Database(restarted.database_url)
    try:
        checked, problems = service.verify(db=db)
        assert (checked, problems) == (len(game_ids), [])
    finally:
        db.dispose()
