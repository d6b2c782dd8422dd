"""How fast /stats, a deal's records and the deals of the day answer with many stored games.

    .venv/bin/python bench/stats_page.py [--games 100000] [--runs 20]

Seeds a fresh SQLite database with ``solitaire seed-demo``'s generator (real histories,
finished over the last 90 days, about 50 games per player), then times GET /stats for the
whole site and for one player through the ASGI app in-process, GET /games (My games), the
records of the most played deal (``/deals/…``) and ``/daily``. The demo games are not
deals of the day: about 3 % of them are made today's and yesterday's (by their id's first
character: their day and deal set to the day's), so the daily tables have a few thousand
games to rank (those games no longer replay: this database is the bench's alone).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app import demo
from app.config import Settings
from app.service import proofs, utcnow
from app.store import Database
from app.store.migrate import upgrade
from app.store.models import GameRecord
from app.web import create_app

WARM: Final = 2
"""Untimed requests before each page's runs: its statements prepared, its templates
compiled and its rows in the page cache, as on a site that has been up a while."""


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--smoke", action="store_true", help="a few seconds: 300 games, 5 warm runs a page"
    )
    parser.add_argument(
        "--database", default=None, help="an SQLite file to keep: seeded once, reused after"
    )
    args = parser.parse_args()
    if args.smoke:
        args.games, args.runs = 300, 5
    with tempfile.TemporaryDirectory() as folder:
        file = Path(args.database or f"{folder}/stats.db")
        seeded = file.exists()
        url = f"sqlite:///{file}"
        upgrade(url)
        db = Database(url)
        began = time.perf_counter()
        if seeded:
            print(f"reusing {file}")
        else:
            demo.seed(db=db, games=args.games, now=utcnow())
            print(f"seeded {args.games:,} games in {time.perf_counter() - began:.1f} s")
        with db.read() as session:
            player = session.scalar(
                select(GameRecord.player_id)
                .group_by(GameRecord.player_id)
                .order_by(func.count().desc())
                .limit(1)
            )
            mine = session.scalar(select(func.count()).where(GameRecord.player_id == player))
            kind, variant, deal, on_deal = session.execute(
                select(GameRecord.kind, GameRecord.variant, GameRecord.deal, func.count())
                .group_by(GameRecord.kind, GameRecord.variant, GameRecord.deal)
                .order_by(func.count().desc())
                .limit(1)
            ).one()
        today = utcnow().date()
        with db.write() as session:
            for first, day in (("A", today), ("B", today - timedelta(days=1))):
                for kind_, variant_ in proofs.variants():
                    daily = proofs.daily_deal(kind_, variant_, day)
                    session.execute(
                        update(GameRecord)
                        .where(
                            GameRecord.id.startswith(first),
                            GameRecord.kind == kind_,
                            GameRecord.variant == variant_,
                        )
                        .values(daily_on=day, deal=daily or 1)
                    )
        app = create_app(Settings(database_url=url, secret_key="bench"), db)
        with TestClient(app) as client:
            for label, path in (
                (
                    f"/deals/{kind}/{deal} ({on_deal} games)",
                    f"/deals/{kind}/{deal}?variant={variant}",
                ),
                ("/daily", "/daily"),
                ("/stats, whole site", "/stats?who=all"),
                ("/stats, whole site, FreeCell charts", "/stats?who=all&game=freecell-standard"),
            ):
                median, p95 = timed(client, path, args.runs)
                print(f"{label}: median {median:.1f} ms, p95 {p95:.1f} ms ({args.runs} runs)")
            client.cookies.set("player", app.state.cookie_signer.dumps(player))
            for label, path in (
                (f"/stats, one player ({mine} games) and the site", "/stats"),
                ("/games (My games), first page", "/games"),
                ("/daily, with the player's streak", "/daily"),
            ):
                median, p95 = timed(client, path, args.runs)
                print(f"{label}: median {median:.1f} ms, p95 {p95:.1f} ms ({args.runs} runs)")
        db.dispose()


if __name__ == "__main__":
    main()
