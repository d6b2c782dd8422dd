"""The queries the service needs, in one place."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, cast

from sqlalchemy import Row, Table, Update, bindparam, case, func, insert, select, update
from sqlalchemy.orm import Session

from app.store.link import Link
from app.store.models import GameRecord, MoveRecord, PlayerRecord
from app.store.rows import GameChanges, GameRow, HistoryRow, MoveRow, SettingsRow, SnapshotRow

GAMES = cast(Table, GameRecord.__table__)
MOVES = cast(Table, MoveRecord.__table__)
PLAYERS = cast(Table, PlayerRecord.__table__)

# The hot path (load a game, play, store) runs these Core statements on a Link: compiled
# once per dialect and run on the driver's cursor (app.store.link), with no ORM identity
# map, loading or change tracking (the ORM was 38 % of a move's server time) and none of
# SQLAlchemy's execution machinery. Rows read the same as records: ``row.version``.
SETTINGS_COLUMNS = ("deck", "card_size", "hand", "auto_home", "motion", "theme")
"""A player's own table (:class:`~app.store.models.PlayerRecord`), read in one go."""
OWNER: Final = "owner_"
"""The game's row carries its owner's table too (``owner_deck``, …): a page or a move
that plays at the owner's table, the owner's own above all, reads no second row."""
GAME_ROW = (
    select(GAMES, *(PLAYERS.c[name].label(OWNER + name) for name in SETTINGS_COLUMNS))
    .join(PLAYERS, PLAYERS.c.id == GAMES.c.player_id, isouter=True)
    .where(GAMES.c.id == bindparam("game_id"))
)
SETTINGS = select(*(PLAYERS.c[name] for name in SETTINGS_COLUMNS)).where(
    PLAYERS.c.id == bindparam("player_id")
)
UNDO_SNAPSHOT = select(MOVES.c.before, MOVES.c.below).where(
    MOVES.c.game_id == bindparam("game_id"), MOVES.c.ply == bindparam("ply")
)
APPEND_MOVES = insert(MOVES)
MOVES_OF = (
    select(MOVES.c.kind, MOVES.c.notation)
    .where(MOVES.c.game_id == bindparam("game_id"))
    .order_by(MOVES.c.ply)
)


def player(session: Session, player_id: str) -> PlayerRecord | None:
    return session.get(PlayerRecord, player_id)


def game(session: Session, game_id: str) -> GameRecord | None:
    return session.get(GameRecord, game_id)


def restarted(session: Session, restart_of: str) -> GameRecord | None:
    """The game a restart (``<game id>:<version>``) dealt, if it was applied."""
    return session.scalars(select(GameRecord).where(GameRecord.restart_of == restart_of)).first()


def game_row(link: Link, game_id: str) -> GameRow | None:
    """The game's row (every column), without loading a :class:`GameRecord`."""
    return cast("GameRow | None", link.one(GAME_ROW, {"game_id": game_id}))


def settings(link: Link, player_id: str) -> SettingsRow | None:
    """The player's settings (:data:`SETTINGS_COLUMNS`); ``None`` when there is no such
    player."""
    return cast("SettingsRow | None", link.one(SETTINGS, {"player_id": player_id}))


def undo_snapshot(link: Link, game_id: str, ply: int) -> SnapshotRow | None:
    """The position before the move at ``ply`` and the undo top below it."""
    return cast("SnapshotRow | None", link.one(UNDO_SNAPSHOT, {"game_id": game_id, "ply": ply}))


def append_moves(link: Link, rows: list[dict[str, object]]) -> None:
    """Append history rows (the unique ``(game, ply)`` key refuses a ply stored twice)."""
    link.insert(APPEND_MOVES, rows)


def moves(link: Link, game_id: str) -> list[MoveRow]:
    """The game's history rows (kind and notation), in ply order."""
    return cast("list[MoveRow]", link.all(MOVES_OF, {"game_id": game_id}))


KINDS_BETWEEN = (
    select(MOVES.c.kind)
    .where(
        MOVES.c.game_id == bindparam("game_id"),
        MOVES.c.ply >= bindparam("low"),
        MOVES.c.ply <= bindparam("high"),
    )
    .order_by(MOVES.c.ply)
)
NOTATION_AT = select(MOVES.c.notation).where(
    MOVES.c.game_id == bindparam("game_id"), MOVES.c.ply == bindparam("ply")
)
HISTORY_BETWEEN = (
    select(MOVES.c.ply, MOVES.c.kind, MOVES.c.notation, MOVES.c.created_at)
    .where(
        MOVES.c.game_id == bindparam("game_id"),
        MOVES.c.ply >= bindparam("low"),
        MOVES.c.ply <= bindparam("high"),
    )
    .order_by(MOVES.c.ply)
)


def kinds_between(link: Link, game_id: str, low: int, high: int) -> list[str]:
    """The kinds of the game's actions from ply ``low`` to ``high``, in order."""
    rows = link.all(KINDS_BETWEEN, {"game_id": game_id, "low": low, "high": high})
    return [str(kind) for (kind,) in rows]


def notation_at(link: Link, game_id: str, ply: int) -> str:
    row = link.one(NOTATION_AT, {"game_id": game_id, "ply": ply})
    return "" if row is None else str(row[0])


def history_between(link: Link, game_id: str, low: int, high: int) -> list[HistoryRow]:
    """The game's history rows from ply ``low`` to ``high`` (ply, kind, notation, time)."""
    values = {"game_id": game_id, "low": low, "high": high}
    return cast("list[HistoryRow]", link.all(HISTORY_BETWEEN, values))


HISTORY_AFTER = (
    select(MOVES.c.ply, MOVES.c.notation)
    .where(MOVES.c.game_id == bindparam("game_id"), MOVES.c.ply > bindparam("after"))
    .order_by(MOVES.c.ply)
    .limit(1000)
)
HISTORY_CHUNK = 1000
"""History rows a read of :data:`HISTORY_AFTER` returns at most."""


HISTORY_COUNT = (
    select(func.count().label("actions"))
    .select_from(MOVES)
    .where(MOVES.c.game_id == bindparam("game_id"))
)


def history_count(link: Link, game_id: str) -> int:
    """How many actions the game's history holds."""
    row = link.one(HISTORY_COUNT, {"game_id": game_id})
    return int(cast(int, row[0])) if row is not None else 0


def history_after(session: Session, game_id: str, after: int) -> Sequence[Row[tuple[int, str]]]:
    """At most :data:`HISTORY_CHUNK` of the game's history rows (ply, notation) after ply
    ``after``."""
    rows = session.execute(HISTORY_AFTER, {"game_id": game_id, "after": after}).all()
    return cast("Sequence[Row[tuple[int, str]]]", rows)


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


def claim_version(link: Link, game_id: str, version: int, values: GameChanges) -> bool:
    """Compare-and-set: update the game only if it is still at ``version``."""
    parameters = {f"new_{key}": value for key, value in values.items()}
    changed = link.count(
        _claim(tuple(values)), {**parameters, "game_id": game_id, "version_seen": version}
    )
    return changed == 1


# Cached: one statement per set of columns the code updates (a few, fixed in the code).
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
