"""A game's race, and when the game stops taking moves: at its race's time limit, enforced
by the service on every action (the page's clock is only a display).

A game is dealt into its race when the race starts, so a game in a race (or in none) has
its race, its start and its limit fixed for good: each read once and kept.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from app.caches import Kept, text_size
from app.store import Database
from app.store import races as race_rows

KEPT_BYTES: Final = 1 << 20
_races = Kept[tuple[int, str], str]("race games", KEPT_BYTES, lambda k, v: text_size(k[1], v))
_deadlines = Kept[str, tuple[datetime | None]](
    "race deadlines", KEPT_BYTES, lambda k, v: text_size(k) + 64
)


def race_of(db: Database, game_id: str) -> str:
    """The race the game is played in, or ``""`` (read at the game's first action). Kept
    only for a game that exists: an id a client made up is read, never kept."""
    token = _races.get((db.serial, game_id))
    if token is None:
        with db.read() as session:
            token = race_rows.race_of_game(session, game_id)
        if token is None:
            return ""
        _races.put((db.serial, game_id), token)
    return token


def closes_at(db: Database, game_id: str) -> datetime | None:
    """When the game's race runs out of time (None: the game is in no race, or in a race
    without a time limit)."""
    token = race_of(db, game_id)
    if not token:
        return None
    found = _deadlines.get(token)
    if found is None:
        with db.read() as session:
            clock = race_rows.clock(session, token)
        deadline = None
        if clock is not None and clock[0] is not None and clock[1] is not None:
            deadline = clock[0] + timedelta(minutes=clock[1])
        found = _deadlines.put(token, (deadline,))
    return found[0]
