"""Players: made on their first game, known by a cookie, with one setting of their own."""

from __future__ import annotations

from datetime import datetime

from app.service.model import utcnow
from app.store import Database, Link, queries
from app.store.ids import new_player_id
from app.store.models import PlayerRecord


def ensure_player(*, db: Database, player_id: str | None, now: datetime | None = None) -> str:
    """The id of an existing player, or of a new one made now."""
    with db.write() as session:
        if player_id and queries.player(session, player_id) is not None:
            return player_id
        new_id = new_player_id()
        session.add(PlayerRecord(id=new_id, created_at=now or utcnow(), auto_moves=True))
        return new_id


def player_exists(*, db: Database, player_id: str) -> bool:
    with db.read() as session:
        return queries.player(session, player_id) is not None


def auto_moves(*, db: Database, player_id: str | None) -> bool:
    """Whether safe cards go home by themselves for this player (on unless turned off)."""
    with db.look() as link:
        return wants_auto_moves(link, player_id)


def set_auto_moves(*, db: Database, player_id: str, on: bool) -> None:
    with db.write() as session:
        player = queries.player(session, player_id)
        if player is not None:
            player.auto_moves = on


def wants_auto_moves(link: Link, player_id: str | None) -> bool:
    setting = queries.auto_moves(link, player_id) if player_id else None
    return True if setting is None else setting
