"""Reading games: one game, its history, a player's list a page at a time, a replay."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.history import entry, positions
from app.rules.protocol import Position
from app.service.model import Game, HistoryEntry, get_record, get_row, view
from app.store import Database, queries

UNFINISHED_SHOWN: Final = 20
STATUSES: Final = ("playing", "won", "lost")
PAGE_SIZE: Final = 20


def load(*, db: Database, game_id: str) -> Game:
    with db.look() as link:
        return view(get_row(link, game_id))


def history(*, db: Database, game_id: str) -> list[HistoryEntry]:
    with db.read() as session:
        get_record(session, game_id)
        return [
            HistoryEntry(row.ply, row.kind, row.notation, row.created_at)
            for row in queries.history(session, game_id)
        ]


@dataclass(frozen=True, slots=True)
class GamePage:
    games: list[Game]
    total: int
    page: int
    pages: int


def my_games(
    *,
    db: Database,
    player_id: str,
    kind: str | None = None,
    status: str | None = None,
    page: int = 1,
) -> GamePage:
    """The player's games, unfinished first, then newest first, a page at a time."""
    page = max(page, 1)
    with db.read() as session:
        rows, total = queries.player_games(
            session,
            player_id,
            kind=kind,
            status=status,
            offset=(page - 1) * PAGE_SIZE,
            limit=PAGE_SIZE,
        )
        items = [view(row) for row in rows]
    return GamePage(items, total, page, max(1, -(-total // PAGE_SIZE)))


def unfinished(*, db: Database, player_id: str) -> list[Game]:
    with db.read() as session:
        return [view(r) for r in queries.unfinished_games(session, player_id, UNFINISHED_SHOWN)]


def replay_steps(*, db: Database, game_id: str) -> tuple[Game, list[HistoryEntry], list[Position]]:
    """The game, its whole history, and the position after each action (0: the deal)."""
    with db.read() as session:
        record = get_record(session, game_id)
        rows = queries.history(session, game_id)
        game = view(record)
        entries = [HistoryEntry(row.ply, row.kind, row.notation, row.created_at) for row in rows]
    steps = positions(
        game.rules, game.deal, game.variant, [entry(e.kind, e.notation) for e in entries]
    )
    return game, entries, steps
