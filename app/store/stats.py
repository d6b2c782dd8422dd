"""Statistics as SQL aggregates over indexed columns: nothing loads every game.

Each function takes a :class:`Scope`: one game kind and variant, and optionally one player.
Games with a result count (won or lost: exactly those with a ``finished_at``; a loss
stays one even when Undo took the game back into play); their order is ``finished_at``
then ``id``. Unfinished games (in play, no result yet) are counted apart. Two covering
indexes (see the models) hold every column these queries read, so they scan an index range
and never the games table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from app.store.models import GameRecord


@dataclass(frozen=True, slots=True)
class Scope:
    kind: str
    variant: str
    player_id: str | None = None

    def where(self) -> ColumnElement[bool]:
        conditions = [
            GameRecord.kind == self.kind,
            GameRecord.variant == self.variant,
            GameRecord.finished_at.is_not(None),
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
    won = GameRecord.result == "won"
    lost = GameRecord.result == "lost"
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


def unfinished(session: Session, scope: Scope) -> int:
    """Games in play with no result yet in which at least one move is in force."""
    conditions = [
        GameRecord.kind == scope.kind,
        GameRecord.variant == scope.variant,
        GameRecord.status == "playing",
        GameRecord.result.is_(None),
        GameRecord.moves_count > 0,
    ]
    if scope.player_id is not None:
        conditions.append(GameRecord.player_id == scope.player_id)
    return int(session.scalar(select(func.count()).where(*conditions)) or 0)


def median_win_ms(session: Session, scope: Scope, wins: int) -> float | None:
    """The median winning time: the middle one or two of the wins ordered by time."""
    if wins == 0:
        return None
    middle = (
        select(GameRecord.play_ms)
        .where(scope.where(), GameRecord.result == "won")
        .order_by(GameRecord.play_ms)
        .offset((wins - 1) // 2)
        .limit(2 if wins % 2 == 0 else 1)
    )
    values = session.scalars(middle).all()
    return sum(values) / len(values)


def streaks(session: Session, scope: Scope, losses: int) -> tuple[int, int]:
    """(current, best) winning streak, in one ordered pass, given the number of losses.

    Number each win by the losses before it: the wins between two losses share a number,
    so a streak is a group, the best streak the largest group and the current streak the
    group numbered by all the losses (the wins after the last one).
    """
    lost = case((GameRecord.result == "lost", 1), else_=0)
    ordered = (
        select(
            GameRecord.result,
            func.sum(lost)
            .over(order_by=(GameRecord.finished_at, GameRecord.id), rows=(None, 0))
            .label("losses_before"),
        )
        .where(scope.where())
        .subquery()
    )
    runs = (
        select(ordered.c.losses_before, func.count().label("length"))
        .where(ordered.c.result == "won")
        .group_by(ordered.c.losses_before)
        .subquery()
    )
    total_losses = select(func.coalesce(func.max(ordered.c.losses_before), 0)).scalar_subquery()
    row = session.execute(
        select(
            func.coalesce(func.max(runs.c.length), 0),
            func.coalesce(
                func.max(case((runs.c.losses_before == total_losses, runs.c.length), else_=0)), 0
            ),
        )
    ).one()
    return int(row[1]), int(row[0])


def recent_results(session: Session, scope: Scope, limit: int) -> list[bool]:
    """Won or not, for the last ``limit`` finished games, oldest first."""
    rows = session.scalars(
        select(GameRecord.result == "won")
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
        .where(scope.where(), GameRecord.result == "won")
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
            func.count().filter(GameRecord.result == "won"),
            func.count().filter(GameRecord.result == "lost"),
        )
        .where(scope.where(), GameRecord.finished_at >= since)
        .group_by(day)
    ).all()
    return {str(row[0]): (int(row[1]), int(row[2])) for row in rows}


def _float(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]
