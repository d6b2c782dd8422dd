"""Statistics as SQL aggregates over indexed columns: nothing loads every game.

Each function takes a :class:`Scope`: one game kind and variant, and optionally one player.
Only finished games count (won or lost); their order is ``finished_at`` then ``id``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, and_, case, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from app.store.models import GameRecord

FINISHED = ("won", "lost")


@dataclass(frozen=True, slots=True)
class Scope:
    kind: str
    variant: str
    player_id: str | None = None

    def where(self) -> ColumnElement[bool]:
        conditions = [
            GameRecord.kind == self.kind,
            GameRecord.variant == self.variant,
            GameRecord.status.in_(FINISHED),
        ]
        if self.player_id is not None:
            conditions.append(GameRecord.player_id == self.player_id)
        return and_(*conditions)


@dataclass(frozen=True, slots=True)
class Totals:
    won: int
    lost: int
    fastest_win_ms: int | None
    mean_win_ms: float | None
    mean_moves_per_win: float | None
    mean_score: float | None
    mean_cards_left_lost: float | None


def totals(session: Session, scope: Scope) -> Totals:
    won = GameRecord.status == "won"
    lost = GameRecord.status == "lost"
    row = session.execute(
        select(
            func.count().filter(won),
            func.count().filter(lost),
            func.min(GameRecord.play_ms).filter(won),
            func.avg(GameRecord.play_ms).filter(won),
            func.avg(GameRecord.moves_count).filter(won),
            func.avg(GameRecord.score),
            func.avg(GameRecord.cards_left).filter(lost),
        ).where(scope.where())
    ).one()
    return Totals(
        won=row[0],
        lost=row[1],
        fastest_win_ms=row[2],
        mean_win_ms=_float(row[3]),
        mean_moves_per_win=_float(row[4]),
        mean_score=_float(row[5]),
        mean_cards_left_lost=_float(row[6]),
    )


def median_win_ms(session: Session, scope: Scope, wins: int) -> float | None:
    """The median winning time: the middle one or two of the wins ordered by time."""
    if wins == 0:
        return None
    middle = (
        select(GameRecord.play_ms)
        .where(scope.where(), GameRecord.status == "won")
        .order_by(GameRecord.play_ms)
        .offset((wins - 1) // 2)
        .limit(2 if wins % 2 == 0 else 1)
    )
    values = session.scalars(middle).all()
    return sum(values) / len(values)


def _ordered(scope: Scope) -> Select[tuple[str, int, int]]:
    order = (GameRecord.finished_at, GameRecord.id)
    return select(
        GameRecord.status,
        func.row_number().over(order_by=order).label("n"),
        func.row_number().over(partition_by=GameRecord.status, order_by=order).label("m"),
    ).where(scope.where())


def streaks(session: Session, scope: Scope) -> tuple[int, int]:
    """(current, best) winning streak: runs of consecutive wins, gaps and islands in SQL."""
    ordered = _ordered(scope).subquery()
    runs = (
        select(func.count().label("length"))
        .where(ordered.c.status == "won")
        .group_by(ordered.c.n - ordered.c.m)
        .subquery()
    )
    best = session.scalar(select(func.coalesce(func.max(runs.c.length), 0)))
    last_loss = (
        select(func.coalesce(func.max(ordered.c.n), 0))
        .where(ordered.c.status == "lost")
        .scalar_subquery()
    )
    current = session.scalar(
        select(func.count()).where(ordered.c.status == "won", ordered.c.n > last_loss)
    )
    return int(current or 0), int(best or 0)


def recent_results(session: Session, scope: Scope, limit: int) -> list[bool]:
    """Won or not, for the last ``limit`` finished games, oldest first."""
    rows = session.scalars(
        select(GameRecord.status == "won")
        .where(scope.where())
        .order_by(GameRecord.finished_at.desc(), GameRecord.id.desc())
        .limit(limit)
    ).all()
    return [bool(value) for value in reversed(rows)]


WIN_TIME_BINS_MINUTES = (1, 2, 3, 4, 5, 7, 10, 15, 20, 30)
"""Upper edges of the winning-time histogram's bins; a last bin holds the longer ones."""


def win_time_histogram(session: Session, scope: Scope) -> list[int]:
    bucket = case(
        *(
            (GameRecord.play_ms < minutes * 60_000, index)
            for index, minutes in enumerate(WIN_TIME_BINS_MINUTES)
        ),
        else_=len(WIN_TIME_BINS_MINUTES),
    )
    counts = [0] * (len(WIN_TIME_BINS_MINUTES) + 1)
    rows = session.execute(
        select(bucket, func.count())
        .where(scope.where(), GameRecord.status == "won")
        .group_by(bucket)
    ).all()
    for index, count in rows:
        counts[int(index)] = int(count)
    return counts


def results_per_day(session: Session, scope: Scope, since: datetime) -> dict[str, tuple[int, int]]:
    """``{'2026-11-29': (won, lost)}`` for the days (UTC) since ``since``."""
    day = func.date(GameRecord.finished_at)
    rows = session.execute(
        select(
            day,
            func.count().filter(GameRecord.status == "won"),
            func.count().filter(GameRecord.status == "lost"),
        )
        .where(scope.where(), GameRecord.finished_at >= since)
        .group_by(day)
    ).all()
    return {str(row[0]): (int(row[1]), int(row[2])) for row in rows}


def _float(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]
