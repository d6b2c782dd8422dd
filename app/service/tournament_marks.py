"""Whether a game is played in a weekly tournament, and what that forbids while its week
runs: no help from the solver (a hint, "Still winnable?", a solution) and no restart.

A game is dealt into its tournament in the transaction that makes it, so a game found in
none stays in none: the answer is kept (bounded by bytes) and read once a game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from app.caches import Kept, text_size
from app.rules.protocol import IllegalMoveError
from app.service.model import Game, utcnow
from app.store import Database
from app.store import tournaments as rows
from app.store.ids import GAME_ID_SHAPE


@dataclass(frozen=True, slots=True)
class Mark:
    """A tournament game: its tournament, which of its deals, and when its week ends."""

    tournament_id: int
    k: int
    ends_at: datetime

    def blind(self, now: datetime | None = None) -> bool:
        """Whether its week still runs: the deal's number, verdict and par are hidden, and
        the solver's help is off."""
        return (now or utcnow()) < self.ends_at


class TournamentRefused(IllegalMoveError):
    """What a tournament does not allow (its ``code`` says which)."""


NONE: Final = Mark(0, 0, datetime.min)
"""Kept for a game in no tournament."""
_MARKS: Final = Kept[str, Mark]("tournament marks", 1 << 20, lambda key, mark: text_size(key) + 96)


def mark(db: Database, game_id: str) -> Mark | None:
    """The tournament ``game_id`` is played in, if any. Kept only for stored games, so a
    flood of made-up ids neither reaches the cache nor (when no id has that shape) the
    database."""
    found = _MARKS.get(game_id)
    if found is None:
        if not GAME_ID_SHAPE.fullmatch(game_id):
            return None
        with db.read() as session:
            entry = rows.game_of(session, game_id)
        if entry is None:
            return None
        tournament = entry.tournament
        found = NONE if tournament is None else Mark(tournament.id, entry.k, tournament.ends_at)
        _MARKS.put(game_id, found)
    return None if found is NONE else found


def refuse_help(db: Database, game: Game) -> None:
    """Refuse the solver's help to a tournament game while its week runs."""
    found = mark(db, game.id)
    if found is not None and found.blind():
        error = TournamentRefused("no help from the solver in a tournament", "tournament.no_help")
        error.game = game
        raise error


def refuse_restart(db: Database, game_id: str) -> None:
    """A tournament game is one try: never dealt again."""
    if mark(db, game_id) is not None:
        raise TournamentRefused("a tournament deal is played once", "tournament.no_restart")


def refuse_while_blind(db: Database, game_id: str) -> None:
    """While its week runs, a tournament game's replay, position text and watch links
    (which name its deal) wait for the week's end."""
    found = mark(db, game_id)
    if found is not None and found.blind():
        raise TournamentRefused("hidden until the week is over", "tournament.hidden")
