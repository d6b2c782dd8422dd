"""The races' queries (their rows: :mod:`app.store.race_models`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple, cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.orm import Session

from app.store.link import Link
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
    """The race a game is played in (``""``: none), or None: there is no such game."""
    found = session.execute(
        select(RacerRecord.race_token)
        .select_from(GameRecord)
        .outerjoin(RacerRecord, RacerRecord.game_id == GameRecord.id)
        .where(GameRecord.id == game_id)
    ).first()
    return None if found is None else (found[0] or "")


def clock(session: Session, token: str) -> tuple[datetime | None, int | None] | None:
    """A race's start and time limit in minutes (None: no such race)."""
    found = session.execute(
        select(RaceRecord.started_at, RaceRecord.limit_minutes).where(RaceRecord.token == token)
    ).first()
    return None if found is None else (found[0], found[1])


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


# A race as its streams read it, twenty times a second a process while its racers move:
# one Core statement on the hot path's connection (:class:`~app.store.link.Link`), the race
# row, each racer's row and the columns of their game the race shows, where loading the
# records through a session cost several times the reading.


class RaceRow(NamedTuple):
    token: str
    kind: str
    variant: str
    deal: int
    limit_minutes: int | None
    creator_id: str
    state: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class RacerRow(NamedTuple):
    joined: int
    name: str | None
    player_id: str
    game_id: str | None
    watch_token: str | None
    outcome: str | None
    race_ms: int | None
    moves: int | None
    cards_left: int | None
    hinted: bool | None
    position: str | None


class RacerGameRow(NamedTuple):
    """What a race shows of a racer's game while it runs."""

    status: str
    resigned: bool
    last_action_at: datetime
    moves_count: int
    cards_left: int
    hints_used: int
    position: str
    version: int


RACES = cast(Table, RaceRecord.__table__)
RACERS = cast(Table, RacerRecord.__table__)
GAMES = cast(Table, GameRecord.__table__)
RACE_AND_RACERS = (
    select(
        *(RACES.c[name] for name in RaceRow._fields),
        *(RACERS.c[name].label(f"racer_{name}") for name in RacerRow._fields),
        GAMES.c.id.label("game_found"),
        *(GAMES.c[name].label(f"game_{name}") for name in RacerGameRow._fields),
    )
    .select_from(
        RACES.outerjoin(RACERS, RACERS.c.race_token == RACES.c.token).outerjoin(
            GAMES, GAMES.c.id == RACERS.c.game_id
        )
    )
    .where(RACES.c.token == bindparam("token"))
    .order_by(RACERS.c.joined)
)
_RACE_END = len(RaceRow._fields)
_RACER_END = _RACE_END + len(RacerRow._fields)


def race_and_racers(
    link: Link, token: str
) -> tuple[RaceRow, list[tuple[RacerRow, RacerGameRow | None]]] | None:
    """The race and its racers in the order they joined, each with their game (once
    dealt), in one statement (one snapshot); None if there is no such race."""
    found = link.all(RACE_AND_RACERS, {"token": token})
    if not found:
        return None
    racers = [
        (
            RacerRow._make(row[_RACE_END:_RACER_END]),
            RacerGameRow._make(row[_RACER_END + 1 :]) if row[_RACER_END] is not None else None,
        )
        for row in found
        if row[_RACE_END] is not None  # a racer's "joined" (a race has one at least)
    ]
    return RaceRow._make(found[0][:_RACE_END]), racers
