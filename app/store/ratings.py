"""The ratings' queries (rows: :mod:`app.store.rating_models`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime
from typing import NamedTuple, TypeVar, cast

from sqlalchemy import CompoundSelect, Select, Table, delete, func, insert, select, union
from sqlalchemy.orm import Session

from app.store.models import GameRecord
from app.store.race_models import RacerRecord
from app.store.rating_models import (
    RatedGameRecord,
    RatingHistoryRecord,
    RatingPeriodRecord,
    RatingRecord,
    Subject,
)
from app.store.tournament_models import TournamentGameRecord, TournamentRecord

RATINGS = cast(Table, RatingRecord.__table__)
HISTORY = cast(Table, RatingHistoryRecord.__table__)
RATED = cast(Table, RatedGameRecord.__table__)
"""Written in bulk by Core (the ORM's bulk insert cost a third of a period's time)."""

CHUNK = 500
"""Keys a statement names at once (``IN (…)``): well inside every database's limit."""

T = TypeVar("T")


class PeriodGame(NamedTuple):
    id: str
    player_id: str
    deal: int
    won: bool


class Standing(NamedTuple):
    """A rating as stored: after the last period its subject played in."""

    subject_id: str
    rating: float
    deviation: float
    volatility: float
    games: int
    period: date


def excluded_game_ids() -> CompoundSelect[tuple[str | None]]:
    """The games whose result never moves a rating, whatever their help: the games of races
    (a race has its own result). Tournament games, until their week ends, join this union:
    every rating period reads its exclusions here and nowhere else. No part may yield NULL
    (``NOT IN`` a set holding NULL keeps nothing)."""
    return union(
        select(RacerRecord.game_id).where(RacerRecord.game_id.is_not(None)),
        select(TournamentGameRecord.game_id),  # rated once their week is over (below)
    )


def _week_ended(start: datetime, end: datetime) -> Select[str]:
    """Tournament games whose week ends in ``(start, end]``: the period holding a week's
    last day rates that week's games, finished (and unassisted) before the week's end."""
    ended = (
        select(TournamentGameRecord.game_id)
        .join(TournamentRecord, TournamentRecord.id == TournamentGameRecord.tournament_id)
        .join(GameRecord, GameRecord.id == TournamentGameRecord.game_id)
        .where(
            TournamentRecord.ends_at > start,
            TournamentRecord.ends_at <= end,
            GameRecord.finished_at < TournamentRecord.ends_at,
        )
    )
    return ended


def _finished(kind: str, variant: str, start: datetime, end: datetime) -> list[object]:
    """Finished, unassisted (no hint, no solution seen) games of ``kind``'s ``variant``
    whose result was reached in ``[start, end)``."""
    return [
        GameRecord.kind == kind,
        GameRecord.variant == variant,
        GameRecord.finished_at >= start,
        GameRecord.finished_at < end,
        GameRecord.result.is_not(None),
        GameRecord.hints_used == 0,
    ]


def period_games(
    session: Session, kind: str, variant: str, start: datetime, end: datetime
) -> list[PeriodGame]:
    """The games a period rates: finished in ``[start, end)``, unassisted, not excluded
    (:func:`excluded_game_ids`), in the order they finished."""
    columns = (
        GameRecord.id,
        GameRecord.player_id,
        GameRecord.deal,
        GameRecord.result,
        GameRecord.finished_at,
    )
    rows = session.execute(
        select(*columns)
        .where(*_finished(kind, variant, start, end))  # type: ignore[arg-type]
        .where(GameRecord.id.not_in(excluded_game_ids()))
        .union_all(
            select(*columns).where(
                GameRecord.kind == kind,
                GameRecord.variant == variant,
                GameRecord.result.is_not(None),
                GameRecord.hints_used == 0,
                GameRecord.id.in_(_week_ended(start, end)),
            )
        )
        .order_by("finished_at", "id")
    )
    return [PeriodGame(id_, player, deal, result == "won") for id_, player, deal, result, _ in rows]


def finished_count(session: Session, kind: str, variant: str, end: datetime) -> int:
    """Unassisted games of ``kind``'s ``variant`` finished before ``end``: whether the
    variant has enough games to be rated."""
    return int(
        session.scalar(
            select(func.count())
            .select_from(GameRecord)
            .where(
                GameRecord.kind == kind,
                GameRecord.variant == variant,
                GameRecord.finished_at < end,
                GameRecord.result.is_not(None),
                GameRecord.hints_used == 0,
            )
        )
        or 0
    )


def first_finished(session: Session) -> datetime | None:
    """When the first game still on record was finished (where periods start)."""
    return session.scalar(select(func.min(GameRecord.finished_at)))


def _chunks(items: Sequence[T]) -> Iterator[Sequence[T]]:
    for at in range(0, len(items), CHUNK):
        yield items[at : at + CHUNK]


def standings(
    session: Session, subject: Subject, kind: str, variant: str, ids: Iterable[str]
) -> dict[str, Standing]:
    """The stored ratings of ``ids`` (subjects never rated are not in it)."""
    found: dict[str, Standing] = {}
    wanted = sorted(set(ids))
    for part in _chunks(wanted):
        rows = session.execute(
            select(
                RatingRecord.subject_id,
                RatingRecord.rating,
                RatingRecord.deviation,
                RatingRecord.volatility,
                RatingRecord.games,
                RatingRecord.period,
            ).where(
                RatingRecord.subject == subject,
                RatingRecord.kind == kind,
                RatingRecord.variant == variant,
                RatingRecord.subject_id.in_(part),
            )
        )
        found.update((row[0], Standing(*row)) for row in rows)
    return found


def keep_standings(
    session: Session, subject: Subject, kind: str, variant: str, rows: Sequence[Standing]
) -> None:
    """Stores ``rows`` in place of what their subjects had."""
    for part in _chunks(rows):
        session.execute(
            delete(RatingRecord).where(
                RatingRecord.subject == subject,
                RatingRecord.kind == kind,
                RatingRecord.variant == variant,
                RatingRecord.subject_id.in_([row.subject_id for row in part]),
            )
        )
    if rows:
        session.execute(
            insert(RATINGS),
            [
                {"subject": subject, "kind": kind, "variant": variant, **row._asdict()}
                for row in rows
            ],
        )


def keep_history(
    session: Session, kind: str, variant: str, period: date, rows: Sequence[Standing]
) -> None:
    """Players' ratings after ``period``, for their charts."""
    if rows:
        session.execute(
            insert(HISTORY),
            [
                {
                    "player_id": row.subject_id,
                    "kind": kind,
                    "variant": variant,
                    "period": period,
                    "rating": row.rating,
                    "deviation": row.deviation,
                }
                for row in rows
            ],
        )


def keep_rated(session: Session, period: date, game_ids: Sequence[str]) -> None:
    if game_ids:
        session.execute(
            insert(RATED),
            [{"game_id": id_, "period": period} for id_ in game_ids],
        )


def last_period(session: Session, *, lock: bool = False) -> date | None:
    """The last period computed; ``lock``: the row is held until the transaction ends (a
    database server's other writers of periods wait here; SQLite's write lock is already
    the whole database's)."""
    query = select(RatingPeriodRecord.last).where(RatingPeriodRecord.id == 1)
    return session.scalar(query.with_for_update() if lock else query)


def set_last_period(session: Session, period: date) -> None:
    row = session.get(RatingPeriodRecord, 1)
    assert row is not None  # made by the migration
    row.last = period


def history(
    session: Session, player_id: str, kind: str, variant: str, limit: int
) -> list[tuple[date, float, float]]:
    """The player's last ``limit`` ratings after a period, oldest first."""
    rows = session.execute(
        select(
            RatingHistoryRecord.period, RatingHistoryRecord.rating, RatingHistoryRecord.deviation
        )
        .where(
            RatingHistoryRecord.player_id == player_id,
            RatingHistoryRecord.kind == kind,
            RatingHistoryRecord.variant == variant,
        )
        .order_by(RatingHistoryRecord.period.desc())
        .limit(limit)
    ).all()
    return [(period, rating, deviation) for period, rating, deviation in reversed(rows)]


def rated_among(session: Session, game_ids: Sequence[str]) -> set[str]:
    """Which of ``game_ids`` a period rated."""
    found: set[str] = set()
    for part in _chunks(game_ids):
        found.update(
            session.scalars(
                select(RatedGameRecord.game_id).where(RatedGameRecord.game_id.in_(part))
            )
        )
    return found
