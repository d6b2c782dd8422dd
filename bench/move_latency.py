"""Server time and bytes per move: plays complete games through the ASGI app in-process.

    .venv/bin/python bench/move_latency.py [--games 20] [--seed 1] [--kind montana|freecell]
                                           [--smoke]

Each game is started with POST /games and played to its end with htmx-style
POST /games/{id}/actions requests. A simple player reads the position (GET …/position,
not timed) and picks: in Montana a move that puts a card in place when it can, any other
move otherwise, a redeal when stuck; in FreeCell a card home when it can, else a random
move. A game still going after 400 actions is given up. The server's own time comes
from the ``Server-Timing`` header the app sets on every response; bytes are the fragment
as rendered and as sent (gzip).

Then the cost of ``undo`` by the length of the game: a Montana game is played to 10 and
to 1,000 actions (moves, redeals when stuck, undos when no redeal is left), and undo and a
move are timed there in turn. ``--smoke`` plays one short game of each kind and measures
undo at 10 and 100 actions, in a few seconds (``make test`` runs it).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import service
from app.config import Settings
from app.games import rules_for
from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from app.serving import tune_for_serving
from app.store import Database
from app.store.migrate import upgrade
from app.web import create_app

HX = {"HX-Request": "true"}
GAME_STATE = re.compile(r'data-version="(\d+)" data-status="(\w+)"')


def choose_montana(position: montana.MontanaPosition, rng: random.Random) -> str | None:
    """Put a card in place when possible, else any move; redeal when stuck."""
    moves = position.legal_moves()
    if not moves:
        return "redeal" if position.can_redeal() else None
    scoring = [m for m in moves if position.play(m).score > position.score]
    return (scoring[0] if scoring else rng.choice(moves)).notation


def choose_freecell(position: freecell.FreeCellPosition, rng: random.Random) -> str | None:
    """Send a card home when possible, else a random move that is not into a free cell."""
    moves = position.legal_moves()
    if not moves:
        return None
    home = [m for m in moves if m.target == "h"]
    useful = [m for m in moves if m.target not in freecell.CELL_NAMES] or list(moves)
    return (home[0] if home else rng.choice(useful)).notation


CHOOSERS: dict[str, Callable[[Any, random.Random], str | None]] = {
    "montana": choose_montana,
    "freecell": choose_freecell,
}
MAX_ACTIONS = 400
"""A game the simple player has not finished by then is given up (that is an action too)."""


def server_ms(response: httpx.Response) -> float:
    match = re.search(r"app;dur=([\d.]+)", response.headers["server-timing"])
    assert match, response.headers
    return float(match.group(1))


async def play_game(
    client: httpx.AsyncClient,
    kind: str,
    rng: random.Random,
    samples: dict[str, list[float]],
    max_actions: int = MAX_ACTIONS,
) -> str:
    deal = str(rng.randint(1, 1_000_000))
    start = await client.post("/games", data={"kind": kind, "deal": deal})
    game_id = start.headers["location"].rsplit("/", 1)[1]
    version = 0
    # What the board's form posts besides: "shown" when it is drawn plainly (the answer
    # then sends only the cells that changed), as a browser's page would post it.
    shown = board_shown((await client.get(f"/games/{game_id}", headers=HX)).text, "")
    for _ in range(max_actions):
        text = (await client.get(f"/games/{game_id}/position")).text
        action = CHOOSERS[kind](rules_for(kind).parse(text), rng)
        response = await timed_action(client, game_id, action or "resign", version, samples, shown)
        found = GAME_STATE.search(response.text)
        assert found, response.text[:300]
        version, status = int(found.group(1)), found.group(2)
        shown = board_shown(response.text, shown)
        if status != "playing" or action is None:
            return status
    await timed_action(client, game_id, "resign", version, samples, shown)
    return "lost"


SHOWN = re.compile(r'name="shown" value="(\w+)"')


def board_shown(fragment: str, before: str) -> str:
    """The board's "shown" field after an answer: the kept board keeps its own."""
    if '<form id="board" hx-preserve="true">' in fragment:
        return before
    found = SHOWN.search(fragment)
    return found.group(1) if found else ""


async def timed_action(
    client: httpx.AsyncClient,
    game_id: str,
    action: str,
    version: int,
    samples: dict[str, list[float]],
    shown: str = "",
) -> httpx.Response:
    began = time.perf_counter()
    fields = {"action": action, "version": str(version)}
    if shown:
        fields["shown"] = shown
    response = await client.post(f"/games/{game_id}/actions", data=fields, headers=HX)
    samples["client_ms"].append((time.perf_counter() - began) * 1000)
    assert response.status_code == 200, response.text[:300]
    samples["server_ms"].append(server_ms(response))
    samples["bytes"].append(len(response.content))
    samples["wire_bytes"].append(response.num_bytes_downloaded)
    return response


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def site(url: str, db: Database) -> Any:
    """The site as ``solitaire serve`` runs it, its garbage collector tuned the same way."""
    app = create_app(
        Settings(
            database_url=url,
            secret_key="bench",
            # The simple player plays far faster than a person: no rate limit here.
            rate_limit_player="1000000/second",
            rate_limit_address="1000000/second",
        ),
        db,
    )
    tune_for_serving()
    return app


async def bench(kind: str, games: int, seed: int, max_actions: int = MAX_ACTIONS) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        upgrade(url)
        db = Database(url)
        app = site(url, db)
        samples: dict[str, list[float]] = {
            "server_ms": [],
            "client_ms": [],
            "bytes": [],
            "wire_bytes": [],
        }
        rng = random.Random(seed)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            results = [
                await play_game(client, kind, rng, samples, max_actions) for _ in range(games)
            ]
        db.dispose()
    name = rules_for(kind).name
    won, actions = results.count("won"), len(samples["server_ms"])
    print(f"{name}: {games} complete games ({won} won), {actions} actions")
    for label, key in (("server time", "server_ms"), ("in-process round trip", "client_ms")):
        values = samples[key]
        median, p99 = statistics.median(values), percentile(values, 0.99)
        print(f"  {label} per action: median {median:.2f} ms, p99 {p99:.2f} ms")
    reference = await bare_render_ms(200 if games < 5 else 2000)
    trip = statistics.median(samples["client_ms"])
    print(f"  the bare render's round trip (bench/ceiling.py) in the same run: {reference:.2f} ms; "
          f"an action's is {trip / reference:.2f} times it")  # fmt: skip
    rendered, wire = statistics.mean(samples["bytes"]), statistics.mean(samples["wire_bytes"])
    print(f"  fragment per action: {rendered:,.0f} bytes rendered, {wire:,.0f} bytes gzip")


async def bare_render_ms(requests: int) -> float:
    """The reference of the same run: the median round trip, in-process and through the same
    client, of ``bench/ceiling.py`` (bare FastAPI + Jinja2 rendering a 52-cell board, the
    load bench's ceiling). The machines are shared and vary: an action's time compares
    across runs as a multiple of this one."""
    spec = importlib.util.spec_from_file_location("ceiling", Path(__file__).parent / "ceiling.py")
    assert spec is not None and spec.loader is not None
    ceiling = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ceiling)
    times = []
    transport = httpx.ASGITransport(app=ceiling.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        for number in range(requests):
            began = time.perf_counter()
            response = await client.post(
                "/games/x/actions", data={"action": "8C B7", "version": str(number)}
            )
            times.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200
    return statistics.median(times[requests // 5 :])


def grow(db: Database, game: service.Game, length: int, rng: random.Random) -> service.Game:
    """Play ``game`` on to ``length`` actions through the service (not timed): a random
    move, a redeal when stuck, an undo when no redeal is left."""
    while game.version < length:
        position = game.position
        assert isinstance(position, montana.MontanaPosition)
        moves = position.legal_moves()
        if moves:
            action = rng.choice(moves).notation
        else:
            action = "redeal" if position.can_redeal() else "undo"
        game = service.act(db=db, game_id=game.id, action=action, version=game.version)
    return game


async def undo_cost(lengths: tuple[int, ...], seed: int, samples: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/undo.db"
        upgrade(url)
        db = Database(url)
        transport = httpx.ASGITransport(app=site(url, db))
        player = service.ensure_player(db=db, player_id=None)
        rng = random.Random(seed)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for length in lengths:
                game = service.start(db=db, player_id=player, kind="montana", deal=seed)
                game = grow(db, game, length, rng)
                times: dict[str, list[float]] = {"undo": [], "move": []}
                for _ in range(samples):
                    for action in ("undo", "move"):
                        if action == "move":
                            game = service.load(db=db, game_id=game.id)
                            position = game.position
                            assert isinstance(position, montana.MontanaPosition)
                            moves = position.legal_moves()
                            action_text = moves[0].notation if moves else "redeal"
                        else:
                            action_text = "undo"
                        response = await client.post(
                            f"/games/{game.id}/actions",
                            data={
                                "action": action_text,
                                "version": str(game.version),
                                "shown": "en",  # a plain board, as a browser's page posts
                            },
                            headers=HX,
                        )
                        assert response.status_code == 200, response.text[:300]
                        times[action].append(server_ms(response))
                        game = service.load(db=db, game_id=game.id)
                undo, move = statistics.median(times["undo"]), statistics.median(times["move"])
                print(
                    f"Montana game {length:,} actions long: undo median {undo:.2f} ms, "
                    f"move median {move:.2f} ms (undo / move {undo / move:.2f})"
                )
        db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kind", choices=["montana", "freecell", "all"], default="all")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: one short game")
    args = parser.parse_args()
    games, max_actions = (1, 30) if args.smoke else (args.games, MAX_ACTIONS)
    for kind in ("montana", "freecell") if args.kind == "all" else (args.kind,):
        asyncio.run(bench(kind, games, args.seed, max_actions))
    lengths = (10, 100) if args.smoke else (10, 1_000)
    asyncio.run(undo_cost(lengths, args.seed, 5 if args.smoke else 50))


if __name__ == "__main__":
    main()
