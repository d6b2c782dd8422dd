"""Ratings: how well Glicko-2 finds simulated players' skill, and how long a day's period takes.

    .venv/bin/python bench/ratings.py [--players 1000] [--games 50] [--period-games 100000]

**Quality.** Players of known skill (normal, mean 1500, sd 250) play real standard FreeCell
deals: a deal's hardness is drawn from its proved fewest free cells (:data:`HARDNESS`, plus
noise of sd 100), and a player wins with the chance ``1 / (1 + 10^((hardness - skill) / 400))``.
Each plays ``--games`` games over ten days, rated by the site's own periods
(:func:`app.service.ratings.compute` on an SQLite database); then ten more games each are
held back and predicted twice: by the ratings (Glicko-2's expected score of the player
against the deal, both deviations taken together: :func:`~app.ratings.glicko2.predicted`)
and by the player's plain win rate. Reported: Spearman's correlation
between rating and true skill, and both Brier scores (the goals: ≥ 0.9, and the ratings'
Brier at least 10 % below the win rate's).

**Speed.** One day of ``--period-games`` games (ten a player) rated by one period, timed;
the reference, measured in the same run, is reading that day's games alone (the period's
own query), so the ratio says what the rating itself costs over its read.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert

from app.ratings.glicko2 import Rating, predicted
from app.service import proofs, ratings
from app.store import Database
from app.store import ratings as store
from app.store.migrate import upgrade
from app.store.models import GameRecord, PlayerRecord

HARDNESS: Final = {cells: ratings.SEED_BY_CELLS[cells] for cells in range(5)}
"""A simulated deal's mean hardness by its proved fewest free cells: the site's seeds (each
deal's own hardness is drawn around it, sd :data:`SPREAD`)."""
SPREAD: Final = 100.0
DAYS: Final = 10
FIRST_DAY: Final = date(2026, 1, 5)
HELD_BACK: Final = 10


def deals_by_cells(count: int) -> dict[int, int]:
    """The first ``count`` standard deals whose fewest free cells are proved (0-4)."""
    found: dict[int, int] = {}
    deal = 0
    while len(found) < count:
        deal += 1
        cells = proofs.fewest_cells(deal)
        if cells is not None and cells in HARDNESS:
            found[deal] = cells
    return found


def add_games(db: Database, rows: list[tuple[str, str, int, bool, date]]) -> None:
    """Finished games (id, player, deal, won, day) and their players, in bulk."""
    players = sorted({row[1] for row in rows})
    at = datetime(2026, 1, 1, tzinfo=UTC)
    with db.write() as session:
        known = set(
            session.scalars(PlayerRecord.__table__.select().with_only_columns(PlayerRecord.id))
        )
        new = [{"id": p, "created_at": at} for p in players if p not in known]
        if new:
            session.execute(insert(PlayerRecord), new)
        session.execute(
            insert(GameRecord),
            [
                {
                    "id": game_id,
                    "player_id": player,
                    "kind": "freecell",
                    "variant": "standard",
                    "deal": deal,
                    "status": "won" if won else "lost",
                    "resigned": False,
                    "version": 1,
                    "position": "",
                    "score": None,
                    "cards_left": 0 if won else 30,
                    "moves_count": 90,
                    "play_ms": 200_000,
                    "hints_used": 0,
                    "created_at": finished,
                    "last_action_at": finished,
                    "finished_at": finished,
                    "result": "won" if won else "lost",
                }
                for game_id, player, deal, won, day in rows
                for finished in (
                    datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=12),
                )
            ],
        )


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        for rank, index in enumerate(order):
            out[index] = float(rank)
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5


FIT_ROUNDS: Final = 25


def joint_fit(
    rows: list[tuple[str, str, int, bool, date]], seeds: dict[int, float], spread: float
) -> tuple[dict[str, float], dict[int, float]]:
    """The best a rating could do with these games, as a bound: every player's skill and
    every deal's hardness fitted to all the games at once (maximum a posteriori, players
    from 1500 ± 350, deals from their seed ± ``spread``, Newton steps taken in turn), no
    periods, no order. Ratings are worked out a day at a time and cannot know more."""
    k = math.log(10) / 400
    skill = {row[1]: 1500.0 for row in rows}
    hard = {deal: seeds[deal] for deal in {row[2] for row in rows}}
    by_player: dict[str, list[tuple[int, float]]] = defaultdict(list)
    by_deal: dict[int, list[tuple[str, float]]] = defaultdict(list)
    for _id, player, deal, won, _day in rows:
        by_player[player].append((deal, float(won)))
        by_deal[deal].append((player, float(won)))
    for _ in range(FIT_ROUNDS):
        for player, games in by_player.items():
            slope, curve = -(skill[player] - 1500) / 350**2, 1 / 350**2
            for deal, won in games:
                chance = 1 / (1 + math.exp(-k * (skill[player] - hard[deal])))
                slope, curve = slope + k * (won - chance), curve + k * k * chance * (1 - chance)
            skill[player] += slope / curve
        for deal, games in by_deal.items():
            slope, curve = -(hard[deal] - seeds[deal]) / spread**2, 1 / spread**2
            for player, won in games:
                chance = 1 / (1 + math.exp(-k * (skill[player] - hard[deal])))
                slope, curve = slope - k * (won - chance), curve + k * k * chance * (1 - chance)
            hard[deal] += slope / curve
    return skill, hard


def quality(
    db: Database, players: int, games: int, pool: dict[int, int], rng: random.Random
) -> None:
    skill = {f"p{i:05d}": rng.gauss(1500, 250) for i in range(players)}
    deals = list(pool)
    hardness = {d: rng.gauss(HARDNESS[c], SPREAD) for d, c in pool.items()}

    def play(player: str, deal: int) -> bool:
        return rng.random() < 1 / (1 + 10 ** ((hardness[deal] - skill[player]) / 400))

    rows = []
    per_day = -(-games // DAYS)
    for player in skill:
        for k in range(games):
            deal = rng.choice(deals)
            rows.append(
                (
                    f"{player}-{k}",
                    player,
                    deal,
                    play(player, deal),
                    FIRST_DAY + timedelta(days=k // per_day),
                )
            )
    add_games(db, rows)
    last = FIRST_DAY + timedelta(days=DAYS - 1)
    began = time.perf_counter()
    ratings.compute(
        db=db,
        until=last,
        now=datetime.combine(last + timedelta(days=2), datetime.min.time(), tzinfo=UTC),
    )
    took = time.perf_counter() - began
    won_by = defaultdict(list)
    for _id, player, _deal, won, _day in rows:
        won_by[player].append(won)
    with db.read() as session:
        rated = store.standings(session, "player", "freecell", "standard", skill)
        deal_rows = store.standings(
            session, "deal", "freecell", "standard", (str(d) for d in deals)
        )

    def deal_rating(deal: int) -> Rating:
        row = deal_rows.get(str(deal))
        return (
            ratings.seed("freecell", "standard", deal)
            if row is None
            else Rating(row.rating, row.deviation, row.volatility)
        )

    fitted, fitted_hard = joint_fit(rows, {d: HARDNESS[c] for d, c in pool.items()}, SPREAD)
    rho = spearman([rated[p].rating for p in skill], list(skill.values()))
    brier_rating = brier_rate = brier_truth = brier_skill = brier_hardness = brier_fit = 0.0
    n = 0
    for player in skill:
        me = Rating(rated[player].rating, rated[player].deviation, rated[player].volatility)
        rate = sum(won_by[player]) / len(won_by[player])
        for _ in range(HELD_BACK):
            deal = rng.choice(deals)
            truth = 1 / (1 + 10 ** ((hardness[deal] - skill[player]) / 400))
            outcome = 1.0 if rng.random() < truth else 0.0
            brier_truth += (truth - outcome) ** 2
            brier_rating += (predicted(me, deal_rating(deal)) - outcome) ** 2
            brier_rate += (rate - outcome) ** 2
            # Where the ratings' error is: each side's rating replaced by the truth in turn.
            known_skill = 1 / (1 + 10 ** ((deal_rating(deal).rating - skill[player]) / 400))
            brier_skill += (known_skill - outcome) ** 2
            known_hardness = 1 / (1 + 10 ** ((hardness[deal] - me.rating) / 400))
            brier_hardness += (known_hardness - outcome) ** 2
            hard = fitted_hard.get(deal, HARDNESS[pool[deal]])
            brier_fit += (1 / (1 + 10 ** ((hard - fitted[player]) / 400)) - outcome) ** 2
            n += 1
    brier_rating, brier_rate, brier_truth = brier_rating / n, brier_rate / n, brier_truth / n
    print(
        f"{players:,} players x {games} games over {DAYS} days ({len(rows):,} games, "
        f"{len(deals):,} deals): rated in {took:.1f} s"
    )
    print(f"Spearman(rating, true skill) = {rho:.3f} (goal >= 0.9)")
    print(
        f"held-back games ({n:,}): Brier {brier_rating:.4f} from the ratings, "
        f"{brier_rate:.4f} from the plain win rate: "
        f"{100 * (1 - brier_rating / brier_rate):.1f} % lower (goal >= 10 %); "
        f"the true chances would score {brier_truth:.4f}"
    )
    print(
        f"the ratings' error by side: the players' true skills against the deals' ratings "
        f"would be {100 * (1 - brier_skill / n / brier_rate):.1f} % lower, the players' ratings "
        f"against the deals' true hardness {100 * (1 - brier_hardness / n / brier_rate):.1f} %, "
        f"the true chances {100 * (1 - brier_truth / brier_rate):.1f} %"
    )
    print(
        f"the bound: all games fitted at once (players and deals, deals from their seeds ± "
        f"{SPREAD:.0f}, the simulation's own spread) would be "
        f"{100 * (1 - brier_fit / n / brier_rate):.1f} % lower"
    )


def speed(db: Database, games: int, pool: dict[int, int], rng: random.Random) -> None:
    day = FIRST_DAY + timedelta(days=DAYS + 5)
    deals = list(pool)
    players = max(games // 10, 1)
    rows = [
        (f"s{k}", f"s{k % players:06d}", rng.choice(deals), rng.random() < 0.5, day)
        for k in range(games)
    ]
    add_games(db, rows)
    start = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
    began = time.perf_counter()
    with db.read() as session:
        read = store.period_games(session, "freecell", "standard", start, start + timedelta(days=1))
    reference = time.perf_counter() - began
    assert len(read) == games
    began = time.perf_counter()
    period = ratings.rate_period(db=db, day=day)
    took = time.perf_counter() - began
    assert period.rated and period.games == games
    print(
        f"one day's period: {games:,} games, {period.players:,} players, {period.deals:,} deals "
        f"rated in {took:.2f} s (goal <= 30 s); reading them alone {reference:.2f} s "
        f"(the period {took / reference:.1f} x its read)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--period-games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--deals", type=int, default=1_000, help="the deals played (the first proved ones)"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="a few seconds: 100 players, 2,000 games a day"
    )
    args = parser.parse_args()
    if args.smoke:
        args.players, args.period_games = 100, 2_000
    rng = random.Random(args.seed)
    pool = deals_by_cells(args.deals)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/ratings.db"
        upgrade(url)
        db = Database(url)
        quality(db, args.players, args.games, pool, rng)
        speed(db, args.period_games, pool, rng)
        db.dispose()


if __name__ == "__main__":
    main()
