"""The races' queries (their rows: :mod:`app.store.race_models`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.store.models import GameRecord, MoveRecord, PlayerRecord
from app.store.race_models import RaceRecord, RacerRecord


def race(session: Session, token: str, *, lock: bool = False) -> RaceRecord | None:
    statement = select(RaceRecord).where(RaceRecord.token == token)
    if lock:
        statement = statement.with_for_update()
    return session.scalars(statement).first()


def racers(session: Session, token: str) -> Sequence[tuple[RacerRecord, GameRecord | None]]:
    """The race's racers in the order they joined, each with their game (once dealt)."""
    rows = session.execute(
        select(RacerRecord, GameRecord)
        .outerjoin(GameRecord, GameRecord.id == RacerRecord.game_id)
        .where(RacerRecord.race_token == token)
        .order_by(RacerRecord.joined)
    ).all()
    return [(racer, game) for racer, game in rows]


def racer_count(session: Session, token: str) -> int:
    return int(session.scalar(select(func.count()).where(RacerRecord.race_token == token)) or 0)


def player_name(session: Session, player_id: str) -> str | None:
    return session.scalar(select(PlayerRecord.name).where(PlayerRecord.id == player_id))


def race_of_game(session: Session, game_id: str) -> str | None:
    """The race a game is played in, if any."""
    return session.scalar(select(RacerRecord.race_token).where(RacerRecord.game_id == game_id))


def claim_state(
    session: Session, token: str, was: str, now_state: str, values: dict[str, object]
) -> bool:
    """Move the race from ``was`` to ``now_state`` (with ``values``) unless another request
    did first."""
    result = session.execute(
        update(RaceRecord)
        .where(RaceRecord.token == token, RaceRecord.state == was)
        .values(state=now_state, **values)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def keep_results(session: Session, racer_id: int, values: dict[str, object]) -> None:
    session.execute(update(RacerRecord).where(RacerRecord.id == racer_id).values(**values))


def actions_until(session: Session, game_id: str, moment: datetime) -> list[tuple[str, str]]:
    """A game's history rows (kind, notation) made by ``moment``, in order."""
    rows = session.execute(
        select(MoveRecord.kind, MoveRecord.notation)
        .where(MoveRecord.game_id == game_id, MoveRecord.created_at <= moment)
        .order_by(MoveRecord.ply)
    ).all()
    return [(kind, notation) for kind, notation in rows]
