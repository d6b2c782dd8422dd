"""The weekly tournaments' queries (their rows: :mod:`app.store.tournament_models`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import NamedTuple, cast

from sqlalchemy import BindParameter, Table, and_, bindparam, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from app.store.link import Link
from app.store.models import GameRecord, PlayerRecord
from app.store.tournament_models import (
    TournamentEntrantRecord,
    TournamentGameRecord,
    TournamentRecord,
)


class EntrantRow(NamedTuple):
    """An entrant's totals in one tournament (their row of ``tournament_entrants``)."""

    player_id: str
    entered: int
    """Deals begun."""
    played: int
    """Deals finished (won, lost or given up)."""
    won: int
    won_ms: int
    """Play time of the wins, in all."""
    won_moves: int


class EntryRow(NamedTuple):
    """A player's game of one of a tournament's deals."""

    k: int
    game_id: str
    status: str
    result: str | None
    resigned: bool


def tournament(session: Session, tournament_id: int) -> TournamentRecord | None:
    return session.get(TournamentRecord, tournament_id)


def of_week(session: Session, kind: str, variant: str, week: date) -> TournamentRecord | None:
    return session.scalars(
        select(TournamentRecord).where(
            TournamentRecord.kind == kind,
            TournamentRecord.variant == variant,
            TournamentRecord.week == week,
        )
    ).first()


def past(session: Session, before: datetime, limit: int) -> Sequence[TournamentRecord]:
    """The tournaments whose week ended by ``before``, the latest first."""
    return session.scalars(
        select(TournamentRecord)
        .where(TournamentRecord.ends_at <= before)
        .order_by(TournamentRecord.week.desc(), TournamentRecord.id)
        .limit(limit)
    ).all()


_ENTRANTS = cast(Table, TournamentEntrantRecord.__table__)
_ENTRIES = cast(Table, TournamentGameRecord.__table__)
_TOURNAMENTS = cast(Table, TournamentRecord.__table__)
_RANK = (
    _ENTRANTS.c.won.desc(),
    _ENTRANTS.c.won_ms,
    _ENTRANTS.c.won_moves,
    _ENTRANTS.c.played.desc(),
    _ENTRANTS.c.player_id,
)
"""The table's order, as ``ix_tournament_entrants_rank`` holds it."""
_ROW = (
    _ENTRANTS.c.player_id,
    _ENTRANTS.c.entered,
    _ENTRANTS.c.played,
    _ENTRANTS.c.won,
    _ENTRANTS.c.won_ms,
    _ENTRANTS.c.won_moves,
)
TABLE_PAGE = (
    select(*_ROW)
    .where(_ENTRANTS.c.tournament_id == bindparam("tournament_id"))
    .order_by(*_RANK)
    .limit(bindparam("limit"))
    .offset(bindparam("offset"))
)
ENTRANT = select(*_ROW).where(
    _ENTRANTS.c.tournament_id == bindparam("tournament_id"),
    _ENTRANTS.c.player_id == bindparam("player_id"),
)
ENTRANTS = select(func.count()).where(_ENTRANTS.c.tournament_id == bindparam("tournament_id"))
_won: BindParameter[int] = bindparam("won")
_ms: BindParameter[int] = bindparam("won_ms")
_moves: BindParameter[int] = bindparam("won_moves")
AHEAD = select(func.count()).where(
    _ENTRANTS.c.tournament_id == bindparam("tournament_id"),
    or_(
        _ENTRANTS.c.won > _won,
        and_(_ENTRANTS.c.won == _won, _ENTRANTS.c.won_ms < _ms),
        and_(_ENTRANTS.c.won == _won, _ENTRANTS.c.won_ms == _ms, _ENTRANTS.c.won_moves < _moves),
    ),
)
"""Entrants ranked strictly ahead of a score (wins, time, moves): its place is one more."""
COUNT_RESULT = (
    update(_ENTRANTS)
    .where(
        _ENTRANTS.c.player_id == bindparam("player_id"),
        _ENTRANTS.c.tournament_id
        == select(_ENTRIES.c.tournament_id)
        .join(_TOURNAMENTS, _TOURNAMENTS.c.id == _ENTRIES.c.tournament_id)
        .where(
            _ENTRIES.c.game_id == bindparam("game_id"),
            _TOURNAMENTS.c.ends_at > bindparam("now"),
        )
        .scalar_subquery(),
    )
    .values(
        played=_ENTRANTS.c.played + bindparam("add_played"),
        won=_ENTRANTS.c.won + bindparam("add_won"),
        won_ms=_ENTRANTS.c.won_ms + bindparam("add_ms"),
        won_moves=_ENTRANTS.c.won_moves + bindparam("add_moves"),
    )
)


def table_page(session: Session, tournament_id: int, offset: int, limit: int) -> list[EntrantRow]:
    """A page of the table, in its order (one range of its index)."""
    keys = {"tournament_id": tournament_id, "offset": offset, "limit": limit}
    return [EntrantRow(*row) for row in session.execute(TABLE_PAGE, keys)]


def entrant(session: Session, tournament_id: int, player_id: str) -> EntrantRow | None:
    row = session.execute(ENTRANT, {"tournament_id": tournament_id, "player_id": player_id}).first()
    return EntrantRow(*row) if row is not None else None


def entrant_count(session: Session, tournament_id: int) -> int:
    return int(session.scalar(ENTRANTS, {"tournament_id": tournament_id}) or 0)


def place(session: Session, tournament_id: int, row: EntrantRow) -> int:
    """The place of ``row``'s score: one more than the entrants ahead of it (equal scores
    share a place)."""
    keys = {"tournament_id": tournament_id, "won": row.won, "won_ms": row.won_ms}
    ahead = session.scalar(AHEAD, {**keys, "won_moves": row.won_moves})
    return 1 + int(ahead or 0)


def enter(session: Session, tournament_id: int, player_id: str) -> None:
    """One more deal begun by the player: their row is made with the first."""
    values = {"tournament_id": tournament_id, "player_id": player_id, "entered": 1,
              "played": 0, "won": 0, "won_ms": 0, "won_moves": 0}  # fmt: skip
    upsert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    statement = upsert(_ENTRANTS).values(values)
    session.execute(
        statement.on_conflict_do_update(
            index_elements=[_ENTRANTS.c.tournament_id, _ENTRANTS.c.player_id],
            set_={"entered": _ENTRANTS.c.entered + 1},
        )
    )


def count_result(
    link: Link, *, game_id: str, player_id: str, won: bool, play_ms: int, moves: int, now: datetime
) -> None:
    """A game has its result (in the transaction that gives it): if it is a tournament
    game and its week has not ended, its player's totals count it. A game of no
    tournament costs one probe of ``tournament_games``' unique index on the game."""
    link.count(
        COUNT_RESULT,
        {"player_id": player_id, "game_id": game_id, "now": now, "add_played": 1,
         "add_won": int(won), "add_ms": play_ms if won else 0, "add_moves": moves if won else 0},
    )  # fmt: skip


def names(session: Session, player_ids: Sequence[str]) -> dict[str, str | None]:
    """The display names of a few players (a page of a table)."""
    found = session.execute(
        select(PlayerRecord.id, PlayerRecord.name).where(PlayerRecord.id.in_(player_ids))
    ).all()
    return {row[0]: row[1] for row in found}


def entries(session: Session, tournament_id: int, player_id: str) -> list[EntryRow]:
    """The player's games in the tournament, by deal."""
    rows = session.execute(
        select(
            TournamentGameRecord.k,
            GameRecord.id,
            GameRecord.status,
            GameRecord.result,
            GameRecord.resigned,
        )
        .join(GameRecord, GameRecord.id == TournamentGameRecord.game_id)
        .where(
            TournamentGameRecord.tournament_id == tournament_id,
            TournamentGameRecord.player_id == player_id,
        )
        .order_by(TournamentGameRecord.k)
    ).all()
    return [EntryRow(*row) for row in rows]


def entered(session: Session, player_id: str, limit: int) -> Sequence[TournamentRecord]:
    """The tournaments the player has a game in, the latest first."""
    ids = select(TournamentGameRecord.tournament_id).where(
        TournamentGameRecord.player_id == player_id
    )
    return session.scalars(
        select(TournamentRecord)
        .where(TournamentRecord.id.in_(ids))
        .order_by(TournamentRecord.week.desc(), TournamentRecord.id)
        .limit(limit)
    ).all()


class GameEntry(NamedTuple):
    """A stored game's place in the tournaments: ``tournament`` is None for a game in none."""

    tournament: TournamentRecord | None
    k: int


def game_of(session: Session, game_id: str) -> GameEntry | None:
    """The tournament a stored game is played in and which of its deals; None when no game
    has this id (so that only ids of stored games are ever kept)."""
    row = session.execute(
        select(GameRecord.id, TournamentRecord, TournamentGameRecord.k)
        .outerjoin(TournamentGameRecord, TournamentGameRecord.game_id == GameRecord.id)
        .outerjoin(TournamentRecord, TournamentRecord.id == TournamentGameRecord.tournament_id)
        .where(GameRecord.id == game_id)
    ).first()
    return GameEntry(row[1], row[2] or 0) if row is not None else None


def running_games(session: Session, player_id: str, now: datetime) -> Sequence[str]:
    """The player's games in tournaments whose week has not ended."""
    return session.scalars(
        select(TournamentGameRecord.game_id)
        .join(TournamentRecord, TournamentRecord.id == TournamentGameRecord.tournament_id)
        .where(TournamentGameRecord.player_id == player_id, TournamentRecord.ends_at > now)
    ).all()


def archive(session: Session, tournament_id: int, entrants: int, winners: str) -> None:
    """Keep the week's entrants and winners on its row (once: the first reader after the
    week writes them, a later one finds them there)."""
    session.execute(
        update(TournamentRecord)
        .where(TournamentRecord.id == tournament_id, TournamentRecord.entrants.is_(None))
        .values(entrants=entrants, winners=winners)
    )
