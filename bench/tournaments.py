"""How fast a weekly tournament's table answers with many entrants.

    .venv/bin/python bench/tournaments.py [--entrants 10000] [--runs 20]

Seeds a fresh SQLite database with this week's tournaments and, in the first one, each
entrant's games of its deals (a few to all of them, won or lost, with times and moves) and
their totals (the rows the site keeps as games end), then times through the ASGI app
in-process GET ``/tournaments/{id}?page=N`` for the first, a middle and the last page and
the table's htmx fragment, **while tournament games end meanwhile**: a thread deals and
gives up games of the same tournament through the service (each end counted in its
player's totals, in the transaction that ends it) as fast as it can. GET ``/rules`` (a page
of the site drawn with the player's settings and nothing else read) is measured in the
same run, with the same games ending, as the reference: pages are reported as that many
times the reference (median and p95).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient
from sqlalchemy import insert

from app.config import Settings
from app.service import act, tournaments, utcnow
from app.store import Database
from app.store.migrate import upgrade
from app.store.models import GameRecord, PlayerRecord
from app.store.tournament_models import TournamentEntrantRecord, TournamentGameRecord
from app.web import create_app

WARM: Final = 2


def timed(
    client: TestClient, asks: dict[str, tuple[str, dict[str, str]]], runs: int
) -> dict[str, list[float]]:
    """Each ask's times (ms), sorted: the asks take turns, so that every one of them (the
    reference too) meets the same load and the same games ending."""
    samples: dict[str, list[float]] = {label: [] for label in asks}
    for run in range(WARM + runs):
        for label, (url, headers) in asks.items():
            began = time.perf_counter()
            response = client.get(url, headers=headers)
            took = (time.perf_counter() - began) * 1000
            assert response.status_code == 200, response.text[:200]
            if run >= WARM:
                samples[label].append(took)
    return {label: sorted(times) for label, times in samples.items()}


def p95(times: list[float]) -> float:
    return times[min(len(times) - 1, int(0.95 * len(times)))]


def seed(
    db: Database, tournament_id: int, kind: str, variant: str, deals: tuple[int, ...], entrants: int
) -> int:
    """``entrants`` players, each with games of the first few of the tournament's deals."""
    chance = random.Random(7)
    now = utcnow()
    players, games, links, totals = [], [], [], []
    for n in range(entrants):
        player = f"bench{n:027d}"
        players.append({"id": player, "created_at": now})
        total = {"tournament_id": tournament_id, "player_id": player, "entered": 0, "played": 0,
                 "won": 0, "won_ms": 0, "won_moves": 0}  # fmt: skip
        totals.append(total)
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
            game = games[-1]
            total["entered"] += 1
            total["played"] += 1
            if won:
                total["won"] += 1
                total["won_ms"] += game["play_ms"]
                total["won_moves"] += game["moves_count"]
        # Players who enter during the timing (the thread below).
        players.append({"id": f"late{n:028d}", "created_at": now})
    with db.write() as session:
        session.execute(insert(PlayerRecord), players)
        session.execute(insert(GameRecord), games)
        session.execute(insert(TournamentGameRecord), links)
        session.execute(insert(TournamentEntrantRecord), totals)
    return len(games)


class Ending(threading.Thread):
    """Deals and gives up tournament games, one after another, until told to stop: each
    end is counted in its player's totals (the service's own path)."""

    def __init__(
        self, db: Database, tournament_id: int, deals: int, entrants: int, rate: float
    ) -> None:
        super().__init__(daemon=True)
        self.db, self.tournament_id, self.deals, self.entrants = db, tournament_id, deals, entrants
        self.pause = 1 / rate
        self.ended = 0
        self.began = self.ended_at = 0.0
        self.stop = threading.Event()

    def run(self) -> None:
        self.began = time.perf_counter()
        for n in range(self.entrants):
            for k in range(1, self.deals + 1):
                if self.stop.wait(
                    max(0.0, self.began + self.ended * self.pause - time.perf_counter())
                ):
                    self.ended_at = time.perf_counter()
                    return
                game_id = tournaments.play_deal(
                    db=self.db, tournament_id=self.tournament_id, k=k,
                    player_id=f"late{n:028d}",
                )  # fmt: skip
                act(db=self.db, game_id=game_id, action="resign", version=0)
                self.ended += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument(
        "--ends", type=float, default=20.0, help="tournament games ended a second meanwhile"
    )
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
        with db.read() as session:
            assert tournaments.rows.entrant_count(session, tournament_id) == args.entrants
        app = create_app(Settings(database_url=url, secret_key="bench"), db)
        ending = Ending(db, tournament_id, len(deals), args.entrants, args.ends)
        with TestClient(app) as client:
            ending.start()
            pages = -(-args.entrants // tournaments.PAGE_SIZE)
            path = f"/tournaments/{tournament_id}"
            hx = {"HX-Request": "true", "HX-Target": "standings"}
            asks = {
                "reference GET /rules": ("/rules", {}),
                f"first page of {pages}": (f"{path}?page=1", {}),
                f"middle page of {pages}": (f"{path}?page={(pages + 1) // 2}", {}),
                f"last page of {pages}": (f"{path}?page={pages}", {}),
                "the table's fragment (htmx poll)": (path, hx),
            }
            found = timed(client, asks, args.runs)
            reference = found.pop("reference GET /rules")
            base, base95 = statistics.median(reference), p95(reference)
            print(f"reference GET /rules: median {base:.2f} ms, p95 {base95:.2f} ms "
                  f"({args.runs} runs)")  # fmt: skip
            for label, times in found.items():
                median = statistics.median(times)
                print(f"{label}: median {median:.1f} ms, p95 {p95(times):.1f} ms, "
                      f"{median / base:.1f}x the reference (p95 {p95(times) / base95:.1f}x) "
                      f"({args.runs} runs)")  # fmt: skip
            ending.stop.set()
            ending.join()
            rate = ending.ended / max(ending.ended_at - ending.began, 1e-9)
            print(f"tournament games ended meanwhile: {ending.ended:,}, {rate:.1f} a second "
                  f"(asked {args.ends:.0f}), each counted in its entrant's totals")  # fmt: skip
        db.dispose()


if __name__ == "__main__":
    main()
