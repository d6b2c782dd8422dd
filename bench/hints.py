"""Hints, "Still winnable?" and "Show solution" over HTTP, from positions in play.

    .venv/bin/python bench/hints.py [--game freecell|montana] [--games 200] [--seed 1] [--smoke]

Each game is a random deal of 1…1,000,000 (standard FreeCell, or Montana's Expert) started
with POST /games and played a random number of moves (0-40) by a simple player (FreeCell:
a card home when it can, else a random move not into a free cell, so many such games are
lost somewhere; Montana: a card put in place when it can, else any move, a redeal when
stuck). Then, in
turn: a hint (POST …/hint, as htmx posts it), "Still winnable?" (GET …?check=1) and the
solution (GET …/solution?step=0: the game helped by that hint already, its line is shown
without asking first), each timed from the client through the site (in process) and
its solver pool (real solver processes), as the site runs them. A hint is *sure* when it
names the move of a winning line or says no move helps (the position is proved lost); it
is *not sure* when the search ran out of budget, *thinking* when it did not answer within
the wait. The first ask (the solver processes starting) is not counted. Target: p95 at
most 100 ms for a hint and a verdict, 300 ms for a solution (FreeCell); a hint 1 s
(Montana, whose round is searched to its end by the site's own engine).
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
from app.games import game_kind
from app.games.freecell import fcsolve
from app.games.freecell import rules as freecell
from app.games.montana import hints as montana_hints
from app.serving import tune_for_serving
from app.store import Database
from app.store.migrate import upgrade
from app.web import create_app
from bench.move_latency import CHOOSERS, HX, percentile

GAME_STATE = re.compile(r'data-version="(\d+)" data-status="(\w+)"')
UNLIMITED = {
    f"rate_limit_{cost}{who}": "1000000/second"
    for cost in ("", "search_", "new_game_", "replay_", "new_player_")
    for who in ("player", "address")
}
"""The bench asks far faster than a person: no rate limit here."""


def site(url: str, db: Database) -> object:
    """The site as ``solitaire serve`` runs it (its solver pool included)."""
    app = create_app(Settings(database_url=url, secret_key="bench", **UNLIMITED), db)
    tune_for_serving()
    return app


async def start_in_play(client: httpx.AsyncClient, rng: random.Random, kind: str) -> str:
    """A game of a random deal, a random number of moves into play."""
    deal = str(rng.randint(1, freecell.MAX_DEAL))
    start = await client.post("/games", data={"kind": kind, "deal": deal})
    assert start.status_code == 303, (start.status_code, start.text[-800:])
    game_id = start.headers["location"].rsplit("/", 1)[1]
    version = 0
    rules = game_kind(kind).rules
    for _ in range(rng.randint(0, 40)):
        text = (await client.get(f"/games/{game_id}/position")).text
        action = CHOOSERS[kind](rules.parse(text), rng)
        if action is None:
            break
        fields = {"action": action, "version": str(version)}
        response = await client.post(f"/games/{game_id}/actions", data=fields, headers=HX)
        found = GAME_STATE.search(response.text)
        assert found, response.text[:300]
        version = int(found.group(1))
        if found.group(2) != "playing":
            break
    return game_id


def kind_of_hint(text: str) -> str:
    if "Still thinking: the solver" in text:
        return "thinking"
    if "Still thinking" in text:
        return "not sure"
    if "No move helps" in text:
        return "sure: lost"
    if "Hint:" in text:
        return "sure: a move"
    return "other"


async def timed(client: httpx.AsyncClient, method: str, url: str) -> tuple[float, httpx.Response]:
    began = time.perf_counter()
    response = await client.request(method, url, headers=HX)
    return (time.perf_counter() - began) * 1000, response


async def bench(kind: str, games: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        upgrade(url)
        db = Database(url)
        app = site(url, db)
        rng = random.Random(seed)
        times: dict[str, list[float]] = {"hint": [], "verdict": [], "solution": []}
        kinds: dict[str, int] = {}
        statuses: dict[int, int] = {}
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            warm = await start_in_play(client, rng, kind)  # the solver processes start here
            await client.post(f"/games/{warm}/hint", headers=HX)
            await client.get(f"/games/{warm}?check=1", headers=HX)
            await client.get(f"/games/{warm}/solution?step=0", headers=HX)
            for _ in range(games):
                game_id = await start_in_play(client, rng, kind)
                for name, method, path in (
                    ("hint", "POST", f"/games/{game_id}/hint"),
                    ("verdict", "GET", f"/games/{game_id}?check=1"),
                    # Helped by the hint just before: its solution is shown, not asked for.
                    ("solution", "GET", f"/games/{game_id}/solution?step=0"),
                ):
                    spent, response = await timed(client, method, path)
                    statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
                    if response.status_code != 200:
                        continue
                    times[name].append(spent)
                    if name == "hint":
                        said = kind_of_hint(response.text)
                        kinds[said] = kinds.get(said, 0) + 1
        app.state.solvers.close()
        db.dispose()
    if kind == "freecell":
        print(f"FreeCell engine: {fcsolve.engine_name()}")
    else:
        print(f"Montana engine: {montana_hints.MontanaSearches.engine()}")
    print(f"{game_kind(kind).rules.name} hints from {games} positions in play "
          "(random deals of 1-1,000,000): "
          f"{', '.join(f'{count} {said}' for said, count in sorted(kinds.items()))}; "
          f"HTTP statuses {dict(sorted(statuses.items()))}")  # fmt: skip
    for name, values in times.items():
        if values:
            print(f"  {name}: p50 {statistics.median(values):.0f} ms, "
                  f"p95 {percentile(values, 0.95):.0f} ms, slowest {max(values):.0f} ms "
                  f"({len(values)} answers)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("freecell", "montana"), default="freecell")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="a few positions, a few seconds")
    args = parser.parse_args()
    asyncio.run(bench(args.game, 3 if args.smoke else args.games, args.seed))


if __name__ == "__main__":
    main()
