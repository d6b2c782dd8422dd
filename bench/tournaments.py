"""How fast a weekly tournament's table answers with many entrants.

    .venv/bin/python bench/tournaments.py [--entrants 10000] [--runs 20]

Seeds a fresh SQLite database with this week's tournaments and, in the first one, each
entrant's games of its deals (a few to all of them, won or lost, with times and moves),
then times through the ASGI app in-process: the table read and ranked from the database
(what happens at most once every few seconds a process while the week runs), and GET
``/tournaments/{id}?page=N`` for the first, a middle and the last page (the table kept),
beside GET ``/rules`` measured in the same run as the reference (a page of the site drawn
with the player's settings and nothing else read): pages are reported as that many times
the reference.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient
from sqlalchemy import insert

from app.config import Settings
from app.service import tournaments, utcnow
from app.store import Database
from app.store.migrate import upgrade
from app.store.models import GameRecord, PlayerRecord
from app.store.tournament_models import TournamentGameRecord
from app.web import create_app

WARM: Final = 2


def timed(client: TestClient, url: str, runs: int) -> tuple[float, float]:
    for _ in range(WARM):
        assert client.get(url).status_code == 200
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, response.text[:200]
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(0.95 * len(samples)))]


def seed(
    db: Database, tournament_id: int, kind: str, variant: str, deals: tuple[int, ...], entrants: int
) -> int:
    """``entrants`` players, each with games of the first few of the tournament's deals."""
    chance = random.Random(7)
    now = utcnow()
    players, games, links = [], [], []
    for n in range(entrants):
        player = f"bench{n:027d}"
        players.append({"id": player, "created_at": now})
        for k in range(1, chance.randint(1, len(deals)) + 1):
            won = chance.random() < 0.6
            game_id = f"g{n:020d}k{k:02d}".ljust(32, "x")
            games.append(
                {"id": game_id, "player_id": player, "kind": kind, "variant": variant,
                 "deal": deals[k - 1], "status": "won" if won else "lost",
                 "resigned": not won, "version": 10, "position": "-", "score": None,
                 "cards_left": 0 if won else 20, "moves_count": chance.randint(80, 200),
                 "play_ms": chance.randint(60_000, 900_000), "hints_used": 0,
                 "created_at": now, "last_action_at": now, "finished_at": now,
                 "result": "won" if won else "lost", "undo_top": 0}
            )  # fmt: skip
            links.append(
                {"tournament_id": tournament_id, "k": k, "game_id": game_id, "player_id": player}
            )
    with db.write() as session:
        session.execute(insert(PlayerRecord), players)
        session.execute(insert(GameRecord), games)
        session.execute(insert(TournamentGameRecord), links)
    return len(games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="200 entrants, 5 runs a page")
    args = parser.parse_args()
    if args.smoke:
        args.entrants, args.runs = 200, 5
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/tournaments.db"
        upgrade(url)
        db = Database(url)
        tournament_id = tournaments.ensure_week(db=db, secret="bench")[0]
        with db.read() as session:
            found = tournaments.rows.tournament(session, tournament_id)
            assert found is not None
            kind, variant, deals = found.kind, found.variant, tournaments.deal_numbers(found)
        began = time.perf_counter()
        count = seed(db, tournament_id, kind, variant, deals, args.entrants)
        print(f"seeded {args.entrants:,} entrants, {count:,} games in "
              f"{time.perf_counter() - began:.1f} s")  # fmt: skip
        samples = []
        for _ in range(max(3, args.runs // 4)):
            began = time.perf_counter()
            with db.read() as session:
                table = tournaments.ranked(
                    tournaments.rows.entrants(session, tournament_id, found.ends_at)
                )
            samples.append((time.perf_counter() - began) * 1000)
        assert len(table.rows) == args.entrants
        print(f"table read and ranked ({args.entrants:,} entrants): median "
              f"{statistics.median(samples):.1f} ms, slowest {max(samples):.1f} ms "
              f"(at most once every {tournaments.REFRESH:.0f} s a process)")  # fmt: skip
        app = create_app(Settings(database_url=url, secret_key="bench"), db)
        with TestClient(app) as client:
            reference, _p95 = timed(client, "/rules", args.runs)
            print(f"reference GET /rules: median {reference:.2f} ms ({args.runs} runs)")
            pages = table.pages
            for label, page in (("first", 1), ("middle", (pages + 1) // 2), ("last", pages)):
                path = f"/tournaments/{tournament_id}?page={page}"
                median, p95 = timed(client, path, args.runs)
                print(f"{path} ({label} page of {pages}): median {median:.1f} ms, "
                      f"p95 {p95:.1f} ms, {median / reference:.1f}x the reference "
                      f"({args.runs} runs)")  # fmt: skip
            hx = {"HX-Request": "true", "HX-Target": "standings"}
            for _ in range(WARM):
                client.get(f"/tournaments/{tournament_id}", headers=hx)
            samples = []
            for _ in range(args.runs):
                began = time.perf_counter()
                assert client.get(f"/tournaments/{tournament_id}", headers=hx).status_code == 200
                samples.append((time.perf_counter() - began) * 1000)
            print(f"the table's fragment (htmx poll): median {statistics.median(samples):.1f} ms "
                  f"({args.runs} runs)")  # fmt: skip
        db.dispose()


if __name__ == "__main__":
    main()
