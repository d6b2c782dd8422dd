"""The queries the service needs, in one place."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import case, func, insert, select, update
from sqlalchemy.orm import Session

from app.store.models import GameRecord, MoveRecord, PlayerRecord


def player(session: Session, player_id: str) -> PlayerRecord | None:
    return session.get(PlayerRecord, player_id)


def game(session: Session, game_id: str) -> GameRecord | None:
    return session.get(GameRecord, game_id)


def history(session: Session, game_id: str) -> Sequence[MoveRecord]:
    return session.scalars(
        select(MoveRecord).where(MoveRecord.game_id == game_id).order_by(MoveRecord.ply)
    ).all()


def unfinished_games(session: Session, player_id: str, limit: int) -> Sequence[GameRecord]:
    return session.scalars(
        select(GameRecord)
        .where(GameRecord.player_id == player_id, GameRecord.status == "playing")
        .order_by(GameRecord.last_action_at.desc())
        .limit(limit)
    ).all()


def claim_version(session: Session, game_id: str, version: int, values: dict[str, object]) -> bool:
    """Compare-and-set: update the game only if it is still at ``version``."""
    result = session.execute(
        update(GameRecord)
        .where(GameRecord.id == game_id, GameRecord.version == version)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def player_games(
    session: Session,
    player_id: str,
    *,
    kind: str | None,
    status: str | None,
    offset: int,
    limit: int,
) -> tuple[Sequence[GameRecord], int]:
    """A page of the player's games, unfinished first, then newest first; and the total."""
    conditions = [GameRecord.player_id == player_id]
    if kind:
        conditions.append(GameRecord.kind == kind)
    if status:
        conditions.append(GameRecord.status == status)
    total = session.scalar(select(func.count()).select_from(GameRecord).where(*conditions))
    rows = session.scalars(
        select(GameRecord)
        .where(*conditions)
        .order_by(
            case((GameRecord.status == "playing", 0), else_=1),
            GameRecord.last_action_at.desc(),
            GameRecord.id,
        )
        .offset(offset)
        .limit(limit)
    ).all()
    return rows, int(total or 0)


def games_after(session: Session, after_id: str, limit: int) -> Sequence[GameRecord]:
    """The next ``limit`` games in id order (for walking every game)."""
    return session.scalars(
        select(GameRecord).where(GameRecord.id > after_id).order_by(GameRecord.id).limit(limit)
    ).all()


def histories(session: Session, game_ids: Sequence[str]) -> dict[str, list[MoveRecord]]:
    """Every history row of these games, by game, in ply order."""
    result: dict[str, list[MoveRecord]] = {game_id: [] for game_id in game_ids}
    rows = session.scalars(
        select(MoveRecord)
        .where(MoveRecord.game_id.in_(game_ids))
        .order_by(MoveRecord.game_id, MoveRecord.ply)
    )
    for row in rows:
        result[row.game_id].append(row)
    return result


def bulk_insert(
    session: Session,
    players: list[dict[str, object]],
    games: list[dict[str, object]],
    moves: list[dict[str, object]],
) -> None:
    """Insert many rows at once (the demo data generator)."""
    for model, rows in ((PlayerRecord, players), (GameRecord, games), (MoveRecord, moves)):
        if rows:
            session.execute(insert(model), rows)
