"""Read-only watch links (``/watch/{token}``): a game shown to whoever holds the link,
which can neither play it nor find the game's own address.

A link has its own token (144 random bits, as a game's id, never derived from it); a game
has at most one link in force; whoever holds the game's address (its key) can make one
and revoke it. A revoked link stays dead. A game keeps at most :data:`MOST_LINKS` links:
the one in force and the most recently revoked; an older revoked one is deleted when a
new link is made (it answers as it did, "not valid", its token never made again).
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from typing import Final

from app.service.model import Game, GameNotFound, get_record, utcnow, view
from app.store import Database, records

TOKEN_BYTES: Final = 18
TOKEN_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{24}")
MOST_LINKS: Final = 10
"""Watch links one game keeps (made and revoked again and again, rows would pile up)."""


class WatchNotFound(LookupError):
    """No link in force has this token (malformed, unknown or revoked)."""


def link(*, db: Database, game_id: str) -> str | None:
    """The game's watch token in force, if any (raises :class:`GameNotFound`)."""
    with db.read() as session:
        get_record(session, game_id)
        share = records.active_share(session, game_id)
        return None if share is None else share.token


def share(*, db: Database, game_id: str, now: datetime | None = None) -> str:
    """The game's watch token, made now unless one is in force."""
    with db.write() as session:
        get_record(session, game_id)
        found = records.active_share(session, game_id)
        if found is not None:
            return found.token
        token = secrets.token_urlsafe(TOKEN_BYTES)
        records.prune_shares(session, game_id, keep=MOST_LINKS - 1)
        records.add_share(session, token, game_id, now or utcnow())
        return token


def revoke(*, db: Database, game_id: str, now: datetime | None = None) -> int:
    """End the game's watch link: whoever opens it then is told it is not valid."""
    with db.write() as session:
        get_record(session, game_id)
        return records.revoke_shares(session, game_id, now or utcnow())


def watched(*, db: Database, token: str) -> Game:
    """The game a watch link in force shows (raises :class:`WatchNotFound`)."""
    if not TOKEN_SHAPE.fullmatch(token):
        raise WatchNotFound(token[:8])
    with db.read() as session:
        record = records.shared_game(session, token)
        if record is None:
            raise WatchNotFound(token[:8])
        return view(record)


__all__ = ["GameNotFound", "WatchNotFound", "link", "revoke", "share", "watched"]
