"""Rating periods: a day's unassisted games rated once, races and assisted games left out."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select

from app.service import proofs, ratings
from app.store import Database
from app.store.models import GameRecord, PlayerRecord
from app.store.race_models import RaceRecord, RacerRecord
from app.store.rating_models import RatedGameRecord, RatingHistoryRecord, RatingRecord

DAY = date(2026, 11, 20)
NOW = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


def add_game(
    db: Database,
    game_id: str,
    player: str,
    deal: int,
    result: str,
    *,
    day: date = DAY,
    kind: str = "freecell",
    variant: str = "standard",
    hints: int = 0,
) -> None:
    finished = datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=10)
    with db.write() as session:
        if session.get(PlayerRecord, player) is None:
            session.add(PlayerRecord(id=player, created_at=finished))
            session.flush()
        session.add(
            GameRecord(
                id=game_id,
                player_id=player,
                kind=kind,
                variant=variant,
                deal=deal,
                status=result,
                resigned=False,
                version=1,
                position="",
                score=None,
                cards_left=0 if result == "won" else 30,
                moves_count=90,
                play_ms=200_000,
                hints_used=hints,
                created_at=finished,
                last_action_at=finished,
                finished_at=finished,
                result=result,
            )
        )


def in_race(db: Database, game_id: str, player: str) -> None:
    when = datetime.combine(DAY, datetime.min.time(), tzinfo=UTC)
    with db.write() as session:
        session.add(
            RaceRecord(
                token="race-1",
                kind="freecell",
                variant="standard",
                deal=5,
                creator_id=player,
                state="finished",
                created_at=when,
            )
        )
        session.flush()
        session.add(RacerRecord(race_token="race-1", player_id=player, joined=1, game_id=game_id))


def count(db: Database, table: type[object]) -> int:
    with db.read() as session:
        return int(session.scalar(select(func.count()).select_from(table)) or 0)


def test_a_day_is_rated_once_without_assisted_or_race_games(db: Database) -> None:
    add_game(db, "g-won", "ann", 1, "won")
    add_game(db, "g-lost", "ann", 2, "lost")
    add_game(db, "g-bob", "bob", 1, "lost")
    add_game(db, "g-hinted", "ann", 3, "won", hints=1)
    add_game(db, "g-raced", "ann", 5, "won")
    in_race(db, "g-raced", "ann")
    done = ratings.compute(db=db, until=DAY, now=NOW)
    assert [(p.day, p.games, p.players, p.deals) for p in done] == [(DAY, 3, 2, 2)]
    with db.read() as session:
        assert set(session.scalars(select(RatedGameRecord.game_id))) == {"g-won", "g-lost", "g-bob"}
    ann = ratings.player_rating(db=db, player_id="ann", kind="freecell", variant="standard")
    assert ann is not None and ann.shown.games == 2 and ann.shown.provisional
    assert [point[0] for point in ann.history] == [DAY]
    before = (count(db, RatingRecord), count(db, RatingHistoryRecord), count(db, RatedGameRecord))
    # Again, and up to a later day: nothing rated twice, the days between rated empty.
    again = ratings.compute(db=db, until=DAY, now=NOW)
    assert again == []
    later = ratings.compute(db=db, now=NOW)
    assert [p.day for p in later] == [DAY + timedelta(days=n) for n in range(1, 5)]
    assert all(p.games == 0 for p in later)
    after = (count(db, RatingRecord), count(db, RatingHistoryRecord), count(db, RatedGameRecord))
    assert after == before
    assert ratings.rate_period(db=db, day=DAY).rated is False


def test_a_win_beats_the_deal_and_a_loss_loses_to_it(db: Database) -> None:
    add_game(db, "w", "ann", 7, "won")
    add_game(db, "l", "bob", 8, "lost")
    ratings.compute(db=db, until=DAY, now=NOW)
    ann = ratings.player_rating(db=db, player_id="ann", kind="freecell", variant="standard")
    bob = ratings.player_rating(db=db, player_id="bob", kind="freecell", variant="standard")
    assert ann is not None and bob is not None
    assert ann.shown.rating > 1500 > bob.shown.rating
    beaten = ratings.deal_rating(db=db, kind="freecell", variant="standard", deal=7)
    seed = ratings.seed("freecell", "standard", 7)
    assert beaten is not None and not beaten.seeded and beaten.games == 1
    assert beaten.rating < seed.rating


def test_a_day_not_over_is_refused(db: Database) -> None:
    with pytest.raises(ratings.PeriodNotOver):
        ratings.compute(db=db, until=NOW.date(), now=NOW)


def test_a_deal_never_played_is_seeded_from_its_fewest_cells(db: Database) -> None:
    by_cells = {}
    for deal in range(1, 200):
        cells = proofs.fewest_cells(deal)
        if cells is not None and cells in ratings.SEED_BY_CELLS:
            by_cells.setdefault(cells, deal)
    assert len(by_cells) >= 3
    for cells, deal in by_cells.items():
        shown = ratings.deal_rating(db=db, kind="freecell", variant="standard", deal=deal)
        assert shown is not None and shown.seeded and shown.games == 0
        assert shown.rating == ratings.SEED_BY_CELLS[cells]
    assert ratings.seed("freecell", "standard", 11982).rating == ratings.SEED_BY_CELLS[5]


def test_montana_deals_are_seeded_from_their_first_round_verdict() -> None:
    verdicts = proofs.proofs("montana", "expert").classified()
    clearable = next(d for d, v in verdicts.items() if v == "solved")
    stuck = next(d for d, v in verdicts.items() if v == "unsolvable")
    assert ratings.seed("montana", "expert", clearable).rating < 1500
    assert 1500 < ratings.seed("montana", "expert", stuck).rating < ratings.SEED_BY_CELLS[5]


def test_another_variant_is_rated_once_it_has_enough_games(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratings, "ENOUGH_GAMES", 3)
    add_game(db, "b1", "ann", 1, "won", variant="bakers", day=DAY)
    add_game(db, "b2", "ann", 2, "lost", variant="bakers", day=DAY + timedelta(days=1))
    add_game(db, "b3", "bob", 3, "won", variant="bakers", day=DAY + timedelta(days=2))
    done = ratings.compute(db=db, until=DAY + timedelta(days=2), now=NOW)
    assert [p.games for p in done] == [0, 0, 1]
    assert ratings.deal_rating(db=db, kind="freecell", variant="bakers", deal=1) is None
    shown = ratings.deal_rating(db=db, kind="freecell", variant="bakers", deal=3)
    assert shown is not None and shown.games == 1


def test_the_daily_run_waits_for_the_next_utc_midnight() -> None:
    at = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    assert ratings.seconds_to_next_run(at) == 12 * 3600 + ratings.AFTER_MIDNIGHT_SECONDS


def test_two_servers_rating_at_once_rate_each_game_once(db: Database) -> None:
    for k in range(30):
        add_game(db, f"g{k}", f"player{k % 7}", 1 + k % 11, "won" if k % 3 else "lost")
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda _: ratings.compute(db=db, until=DAY, now=NOW), range(2)))
    rated = [period for periods in done for period in periods if period.rated]
    assert [period.games for period in rated] == [30]
    with db.read() as session:
        counted = session.scalars(
            select(RatingRecord.games).where(RatingRecord.subject == "player")
        )
        assert sum(counted) == 30
    assert count(db, RatedGameRecord) == 30
