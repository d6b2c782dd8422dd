"""The queries the service needs, in one place."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeAlias, cast

from sqlalchemy import Row, Table, Update, bindparam, case, func, insert, select, update
from sqlalchemy.orm import Session

from app.store.models import GameRecord, MoveRecord, PlayerRecord

GAMES = cast(Table, GameRecord.__table__)
MOVES = cast(Table, MoveRecord.__table__)
PLAYERS = cast(Table, PlayerRecord.__table__)
AnyRow: TypeAlias = Row[*tuple[Any, ...]]

# The hot path (load a game, play, store) runs as SQLAlchemy Core on the session's
# connection: plain rows, no ORM identity map, loading or change tracking (the ORM was
# 38 % of a move's server time). Rows read the same as records: ``row.version``. The
# statements are built once, so SQLAlchemy finds their compiled form without rebuilding them.
GAME_ROW = select(GAMES).where(GAMES.c.id == bindparam("game_id"))
AUTO_MOVES = select(PLAYERS.c.auto_moves).where(PLAYERS.c.id == bindparam("player_id"))
UNDO_SNAPSHOT = select(MOVES.c.before, MOVES.c.below).where(
    MOVES.c.game_id == bindparam("game_id"), MOVES.c.ply == bindparam("ply")
)
APPEND_MOVES = insert(MOVES)


def player(session: Session, player_id: str) -> PlayerRecord | None:
    return session.get(PlayerRecord, player_id)


def game(session: Session, game_id: str) -> GameRecord | None:
    return session.get(GameRecord, game_id)


def game_row(session: Session, game_id: str) -> AnyRow | None:
    """The game's row (every column), without loading a :class:`GameRecord`."""
    return session.connection().execute(GAME_ROW, {"game_id": game_id}).first()


def auto_moves(session: Session, player_id: str) -> bool | None:
    """The player's "auto home" setting; ``None`` when there is no such player."""
    value = session.connection().execute(AUTO_MOVES, {"player_id": player_id}).scalar()
    return None if value is None else bool(value)


def undo_snapshot(session: Session, game_id: str, ply: int) -> AnyRow | None:
    """The position before the move at ``ply`` and the undo top below it."""
    return session.connection().execute(UNDO_SNAPSHOT, {"game_id": game_id, "ply": ply}).first()


def append_moves(session: Session, rows: list[dict[str, object]]) -> None:
    """Append history rows (the unique ``(game, ply)`` key refuses a ply stored twice)."""
    session.connection().execute(APPEND_MOVES, rows)


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
    parameters = {f"new_{key}": value for key, value in values.items()}
    result = session.connection().execute(
        _claim(tuple(values)), {**parameters, "game_id": game_id, "version_seen": version}
    )
    return bool(getattr(result, "rowcount", 0) == 1)


@functools.cache
def _claim(columns: tuple[str, ...]) -> Update:
    return (
        update(GAMES)
        .where(GAMES.c.id == bindparam("game_id"), GAMES.c.version == bindparam("version_seen"))
        .values({column: bindparam(f"new_{column}") for column in columns})
    )


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
