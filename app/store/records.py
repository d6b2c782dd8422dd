"""A deal's records, the deals of the day, display names and watch links: the queries, in
one place. Every one reads an index of its own (app.store.models: ``ix_games_deal*``,
``ix_games_daily*``); the wins' indexes hold won games only.

Counts are of the games table: "played" is every game started on the deal (finished or
not), "won" the games won.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Final, Literal, cast

from sqlalchemy import ColumnElement, Select, Table, bindparam, delete, func, select, update
from sqlalchemy.orm import Session

from app.store.models import DAILY, WON, GameRecord, PlayerRecord, ShareRecord
from app.store.tournament_models import TournamentGameRecord, TournamentRecord

Order = Literal["moves", "time"]


@dataclass(frozen=True, slots=True)
class Win:
    """One won game in a table of records: who (a display name or None), how."""

    name: str | None
    moves: int
    play_ms: int
    hints: int
    finished_at: datetime | None


GAMES = cast(Table, GameRecord.__table__)
PLAYERS = cast(Table, PlayerRecord.__table__)
_ENTRIES = cast(Table, TournamentGameRecord.__table__)
_TOURNAMENTS = cast(Table, TournamentRecord.__table__)
PUBLIC: Final = ~(
    select(_ENTRIES.c.game_id)
    .join(_TOURNAMENTS, _TOURNAMENTS.c.id == _ENTRIES.c.tournament_id)
    .where(_ENTRIES.c.game_id == GAMES.c.id, _TOURNAMENTS.c.ends_at > bindparam("now"))
    .exists()
)
"""A game public records may show: not a game of a tournament whose week still runs (at
``now``). A tournament is blind until its week ends, its games then count as any other.
Every record of a deal reads the games through it (one probe of the unique index on
``tournament_games.game_id`` a game)."""
Scope = Literal["deal", "daily"]
_SCOPES: Final[dict[Scope, tuple[ColumnElement[bool], ...]]] = {
    "deal": (
        GAMES.c.kind == bindparam("kind"),
        GAMES.c.variant == bindparam("variant"),
        GAMES.c.deal == bindparam("deal"),
        PUBLIC,
    ),
    # The deal too: the proofs shipped may change within a day, and with them its deal.
    "daily": (
        GAMES.c.daily_on == bindparam("day"),
        GAMES.c.kind == bindparam("kind"),
        GAMES.c.variant == bindparam("variant"),
        GAMES.c.deal == bindparam("deal"),
        PUBLIC,
    ),
}
"""A deal's games, or a day's deal of the day's: each statement is made once (made anew
at each ask, the ORM's expressions cost more than the indexed query itself)."""


# Cached: one statement per scope (an enumeration).
@functools.cache
def _counting(scope: Scope) -> Select[Any]:  # a select of any columns: SQLAlchemy's type
    return select(GAMES.c.status, func.count()).where(*_SCOPES[scope]).group_by(GAMES.c.status)


# Cached: one statement per scope, order and help (enumerations).
@functools.cache
def _winning(scope: Scope, order: Order, assisted: bool) -> Select[Any]:  # as above
    """The best wins, unassisted (no hint, no solution seen) or assisted, by fewest moves
    then least time (or the other way round), as the partial index orders them."""
    keys = (GAMES.c.moves_count, GAMES.c.play_ms)
    help_ = GAMES.c.hints_used > 0 if assisted else GAMES.c.hints_used == 0
    return (
        select(
            PLAYERS.c.name,
            GAMES.c.moves_count,
            GAMES.c.play_ms,
            GAMES.c.hints_used,
            GAMES.c.finished_at,
        )
        .join(PLAYERS, PLAYERS.c.id == GAMES.c.player_id)
        .where(*_SCOPES[scope], WON, help_)  # WON as the partial index says it, to be read
        .order_by(*(keys if order == "moves" else keys[::-1]))
        .limit(bindparam("limit"))
    )


def _counts(session: Session, scope: Scope, keys: dict[str, object]) -> tuple[int, int]:
    by_status: dict[str, int] = {row[0]: row[1] for row in session.execute(_counting(scope), keys)}
    return sum(by_status.values()), by_status.get("won", 0)


def _wins(
    session: Session, scope: Scope, keys: dict[str, object], order: Order, limit: int
) -> list[Win]:
    """The best ``limit`` wins: unassisted ones first, then assisted ones."""
    found: list[Win] = []
    for assisted in (False, True):
        if len(found) >= limit:
            break
        rows = session.execute(
            _winning(scope, order, assisted), {**keys, "limit": limit - len(found)}
        )
        found += [Win(*row) for row in rows]
    return found


def deal_counts(
    session: Session, kind: str, variant: str, deal: int, now: datetime
) -> tuple[int, int]:
    """Games played (started) and won on this deal, of those shown at ``now``
    (:data:`PUBLIC`)."""
    return _counts(session, "deal", {"kind": kind, "variant": variant, "deal": deal, "now": now})


def deal_wins(
    session: Session, kind: str, variant: str, deal: int, order: Order, limit: int, now: datetime
) -> list[Win]:
    keys = {"kind": kind, "variant": variant, "deal": deal, "now": now}
    return _wins(session, "deal", keys, order, limit)


DAILY_COUNTS = (
    select(GAMES.c.kind, GAMES.c.variant, GAMES.c.deal, GAMES.c.status, func.count())
    .where(DAILY, GAMES.c.daily_on == bindparam("day"), PUBLIC)
    .group_by(GAMES.c.kind, GAMES.c.variant, GAMES.c.deal, GAMES.c.status)
)
"""Every table of a day at once, on ``ix_games_daily`` alone (one statement, not one a
game and variant: the daily page has a table for each)."""


def daily_counts(
    session: Session, day: date, now: datetime
) -> dict[tuple[str, str, int], tuple[int, int]]:
    """Games started as ``day``'s deals of the day, and won, by game, variant and deal
    (a day whose deal changed has two), of those shown at ``now``."""
    found: dict[tuple[str, str, int], tuple[int, int]] = {}
    for kind, variant, deal, status, count in session.execute(
        DAILY_COUNTS, {"day": day, "now": now}
    ):
        played, won = found.get((kind, variant, deal), (0, 0))
        found[kind, variant, deal] = (played + count, won + (count if status == "won" else 0))
    return found


def daily_wins(
    session: Session, kind: str, variant: str, day: date, deal: int, limit: int, now: datetime
) -> list[Win]:
    keys = {"day": day, "kind": kind, "variant": variant, "deal": deal, "now": now}
    return _wins(session, "daily", keys, "moves", limit)


def daily_days_won(session: Session, player_id: str, limit: int) -> list[date]:
    """The days (newest first) on which the player won a deal of the day."""
    return list(
        session.scalars(
            select(GameRecord.daily_on)
            .where(GameRecord.player_id == player_id, DAILY, GameRecord.status == "won")
            .group_by(GameRecord.daily_on)
            .order_by(GameRecord.daily_on.desc())
            .limit(limit)
        )
    )


def daily_games(session: Session, player_id: str, day: date) -> Sequence[GameRecord]:
    """The player's games started as ``day``'s deals of the day."""
    return session.scalars(
        select(GameRecord)
        .where(GameRecord.player_id == player_id, DAILY, GameRecord.daily_on == day)
        .order_by(GameRecord.created_at.desc())
    ).all()


def player_name(session: Session, player_id: str) -> str | None:
    return session.scalar(select(PlayerRecord.name).where(PlayerRecord.id == player_id))


def name_taken(session: Session, key: str, player_id: str) -> bool:
    """Whether another player has a name that folds to ``key``."""
    owner = session.scalar(select(PlayerRecord.id).where(PlayerRecord.name_key == key))
    return owner is not None and owner != player_id


def set_name(session: Session, player_id: str, name: str | None, key: str | None) -> None:
    """Set (or clear) the name; the unique index on ``name_key`` refuses a name taken
    meanwhile (:class:`~app.store.errors.Conflict`)."""
    session.execute(
        update(PlayerRecord).where(PlayerRecord.id == player_id).values(name=name, name_key=key)
    )


def active_share(session: Session, game_id: str) -> ShareRecord | None:
    return session.scalars(
        select(ShareRecord)
        .where(ShareRecord.game_id == game_id, ShareRecord.revoked_at.is_(None))
        .order_by(ShareRecord.created_at.desc())
        .limit(1)
    ).first()


def shared_game(session: Session, token: str) -> GameRecord | None:
    """The game a watch link that is not revoked shows."""
    return session.scalars(
        select(GameRecord)
        .join(ShareRecord, ShareRecord.game_id == GameRecord.id)
        .where(ShareRecord.token == token, ShareRecord.revoked_at.is_(None))
    ).first()


def add_share(session: Session, token: str, game_id: str, now: datetime) -> None:
    session.add(ShareRecord(token=token, game_id=game_id, created_at=now))


def prune_shares(session: Session, game_id: str, keep: int) -> int:
    """Delete the game's revoked links but the ``keep`` most recently revoked; how many
    went. A deleted link answers as a revoked one does (its token is never made again)."""
    kept = (
        select(ShareRecord.token)
        .where(ShareRecord.game_id == game_id, ShareRecord.revoked_at.is_not(None))
        .order_by(ShareRecord.revoked_at.desc(), ShareRecord.created_at.desc())
        .limit(keep)
    )
    result = session.execute(
        delete(ShareRecord).where(
            ShareRecord.game_id == game_id,
            ShareRecord.revoked_at.is_not(None),
            ShareRecord.token.not_in(kept),
        )
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def revoke_shares(session: Session, game_id: str, now: datetime) -> int:
    result = session.execute(
        update(ShareRecord)
        .where(ShareRecord.game_id == game_id, ShareRecord.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]
