"""Moving a player's games to another device, with single-use links.

A player makes a link on My games; the other browser opens it and, with a button (a
same-site POST), merges its own games into the link maker's list and becomes that player.
A link works once, for a day, and can be cancelled; making a new one cancels the old.
Only a hash of the token is stored.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

from sqlalchemy import delete, func, select, update

from app.store import Database
from app.store.models import GameRecord, PlayerRecord, TransferRecord

LIFETIME: Final = timedelta(hours=24)
TOKEN_BYTES: Final = 18


class TransferRefused(ValueError):
    """The link is unknown (or cancelled), used or expired: ``reason`` says which."""

    def __init__(self, reason: Literal["unknown", "used", "expired"]) -> None:
        super().__init__(f"transfer link {reason}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class OpenLink:
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class Offer:
    """What opening a link would do: whose list, and how many games come along."""

    sender: str
    games_here: int


def make_link(*, db: Database, player_id: str, now: datetime | None = None) -> str:
    """A new link token for ``player_id``; any link made before is cancelled."""
    now = now or datetime.now(UTC)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with db.write() as session:
        session.execute(delete(TransferRecord).where(TransferRecord.player_id == player_id))
        session.add(
            TransferRecord(
                id=_hash(token), player_id=player_id, created_at=now, expires_at=now + LIFETIME
            )
        )
    return token


def open_link(*, db: Database, player_id: str, now: datetime | None = None) -> OpenLink | None:
    """The player's link still waiting to be used, if any."""
    now = now or datetime.now(UTC)
    with db.read() as session:
        record = session.scalars(
            select(TransferRecord).where(
                TransferRecord.player_id == player_id,
                TransferRecord.used_at.is_(None),
                TransferRecord.expires_at > now,
            )
        ).first()
        return None if record is None else OpenLink(record.created_at, record.expires_at)


def cancel_links(*, db: Database, player_id: str) -> None:
    with db.write() as session:
        session.execute(delete(TransferRecord).where(TransferRecord.player_id == player_id))


def offer(*, db: Database, token: str, receiver: str | None, now: datetime | None = None) -> Offer:
    """What accepting the link would do (nothing changes). Raises :class:`TransferRefused`."""
    with db.read() as session:
        record = _usable(session.get(TransferRecord, _hash(token[:64])), now)
        count = 0
        if receiver and receiver != record.player_id:
            count = session.scalar(  # type: ignore[assignment]
                select(func.count()).select_from(GameRecord).where(GameRecord.player_id == receiver)
            )
        return Offer(record.player_id, count or 0)


def accept(*, db: Database, token: str, receiver: str | None, now: datetime | None = None) -> str:
    """Use the link: the receiving browser's games join the sender's list. Returns the
    sender's player id (the browser's player from now on). Raises :class:`TransferRefused`."""
    now = now or datetime.now(UTC)
    with db.write() as session:
        record = _usable(session.get(TransferRecord, _hash(token[:64])), now)
        claimed = session.execute(
            update(TransferRecord)
            .where(TransferRecord.id == record.id, TransferRecord.used_at.is_(None))
            .values(used_at=now)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            raise TransferRefused("used")
        sender = record.player_id
        if receiver and receiver != sender and session.get(PlayerRecord, receiver) is not None:
            session.execute(
                update(GameRecord).where(GameRecord.player_id == receiver).values(player_id=sender)
            )
        return sender


def _usable(record: TransferRecord | None, now: datetime | None) -> TransferRecord:
    if record is None:
        raise TransferRefused("unknown")
    if record.used_at is not None:
        raise TransferRefused("used")
    if record.expires_at <= (now or datetime.now(UTC)):
        raise TransferRefused("expired")
    return record


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
