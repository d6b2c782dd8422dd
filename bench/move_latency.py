"""Server time and bytes per move: plays complete games through the ASGI app in-process.

    .venv/bin/python bench/move_latency.py [--games 20] [--seed 1]

Each game is started with POST /games and played to its end (won or lost) with htmx-style
POST /games/{id}/actions requests: a simple player takes a move that puts a card in place
when it can, any other move otherwise, and redeals when stuck. The server's own time comes
from the ``Server-Timing`` header the app sets on every response; bytes are the fragment
as rendered and as sent (gzip).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.config import Settings
from app.rules import montana
from app.store import Database
from app.store.migrate import upgrade
from app.web import create_app

HX = {"HX-Request": "true"}


def choose(position: montana.MontanaPosition, rng: random.Random) -> str | None:
    moves = position.legal_moves()
    if not moves:
        return "redeal" if position.can_redeal() else None
    scoring = [m for m in moves if position.play(m).score > position.score]
    return (scoring[0] if scoring else rng.choice(moves)).notation


def server_ms(response: httpx.Response) -> float:
    match = re.search(r"app;dur=([\d.]+)", response.headers["server-timing"])
    assert match, response.headers
    return float(match.group(1))


async def play_game(
    client: httpx.AsyncClient, rng: random.Random, samples: dict[str, list[float]]
) -> str:
    start = await client.post(
        "/games", data={"kind": "montana", "deal": str(rng.randint(1, 10**6))}
    )
    game_url = start.headers["location"]
    game_id = game_url.rsplit("/", 1)[1]
    position = montana.parse((await client.get(f"/games/{game_id}/position")).text)
    version = 0
    while True:
        action = choose(position, rng)
        if action is None:
            break
        began = time.perf_counter()
        response = await client.post(
            f"/games/{game_id}/actions",
            data={"action": action, "version": str(version)},
            headers=HX,
        )
        samples["client_ms"].append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, response.text[:300]
        samples["server_ms"].append(server_ms(response))
        samples["bytes"].append(len(response.content))
        samples["wire_bytes"].append(response.num_bytes_downloaded)
        version += 1
        position = position.play(position.parse_action(action))
        if position.is_won() or position.is_lost():
            return "won" if position.is_won() else "lost"
    return "lost"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        upgrade(url)
        db = Database(url)
        app = create_app(Settings(database_url=url, secret_key="bench"), db)
        transport = httpx.ASGITransport(app=app)
        samples: dict[str, list[float]] = {
            "server_ms": [],
            "client_ms": [],
            "bytes": [],
            "wire_bytes": [],
        }
        results = []
        rng = random.Random(args.seed)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for _ in range(args.games):
                results.append(await play_game(client, rng, samples))
        db.dispose()
    server, client_ms = samples["server_ms"], samples["client_ms"]
    print(f"Montana: {args.games} complete games ({results.count('won')} won), {len(server)} moves")
    print(
        f"server time per move: median {statistics.median(server):.2f} ms, p99 {percentile(server, 0.99):.2f} ms"
    )
    print(
        f"in-process round trip: median {statistics.median(client_ms):.2f} ms, p99 {percentile(client_ms, 0.99):.2f} ms"
    )
    print(
        f"fragment per move: {statistics.mean(samples['bytes']):,.0f} bytes rendered, "
        f"{statistics.mean(samples['wire_bytes']):,.0f} bytes gzip on the wire"
    )


if __name__ == "__main__":
    asyncio.run(main())
