"""The weekly tournaments' queries (their rows: :mod:`app.store.tournament_models`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import NamedTuple

from sqlalchemy import case, func, select, update
from sqlalchemy.orm import Session

from app.store.models import GameRecord, PlayerRecord
from app.store.tournament_models import TournamentGameRecord, TournamentRecord


class EntrantRow(NamedTuple):
    """An entrant's totals in one tournament, from their games' rows."""

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


def entrants(session: Session, tournament_id: int, ends_at: datetime) -> list[EntrantRow]:
    """Every entrant's totals (a game counts as played once it has a result reached before
    ``ends_at``, the week's end), in the table's order: most wins, then least time of the
    wins, then fewest moves."""
    in_time = GameRecord.finished_at < ends_at
    won = (GameRecord.result == "won") & in_time
    wins = func.sum(case((won, 1), else_=0))
    won_ms = func.sum(case((won, GameRecord.play_ms), else_=0))
    won_moves = func.sum(case((won, GameRecord.moves_count), else_=0))
    played = func.count(case((in_time, GameRecord.result)))
    rows = session.execute(
        select(TournamentGameRecord.player_id, func.count(), played, wins, won_ms, won_moves)
        .join(GameRecord, GameRecord.id == TournamentGameRecord.game_id)
        .where(TournamentGameRecord.tournament_id == tournament_id)
        .group_by(TournamentGameRecord.player_id)
        .order_by(wins.desc(), won_ms, won_moves, played.desc(), TournamentGameRecord.player_id)
    ).all()
    return [
        EntrantRow(p, int(e), int(pl), int(w or 0), int(ms or 0), int(mv or 0))
        for p, e, pl, w, ms, mv in rows
    ]


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
