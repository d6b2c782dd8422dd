"""Reading games: one game, its history, a player's list a page at a time, a replay."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from app.rules.history import entry, positions_between
from app.rules.protocol import Position
from app.service.model import Game, HistoryEntry, get_record, get_row, read_steps, view
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


STEPS_SHOWN: Final = 50
"""Steps a replay's page lists (and words) at once: its cost is bounded whatever the length
of the history; the others are a page away."""


@dataclass(frozen=True, slots=True)
class Steps:
    """A window of a game's steps: the step shown (0: the deal) and ``entries``, the actions
    from ply ``first`` on, with ``positions`` (the one before ``first``, then the one after
    each of them). ``last`` is the number of actions in all."""

    game: Game
    step: int
    last: int
    first: int
    entries: Sequence[HistoryEntry]
    positions: Sequence[Position]

    @property
    def position(self) -> Position:
        """The position at the step shown."""
        return self.positions[self.step - self.first + 1]

    @property
    def entry(self) -> HistoryEntry | None:
        """The action that made the step shown (None at the deal)."""
        return self.entries[self.step - self.first] if self.step else None

    @property
    def earlier(self) -> int | None:
        """The last step before the window, if any."""
        return self.first - 1 if self.first > 1 else None

    @property
    def later(self) -> int | None:
        """The first step after the window, if any."""
        after = self.first + len(self.entries)
        return after if after <= self.last else None


def window_first(step: int, size: int = STEPS_SHOWN) -> int:
    """The first ply of the window that lists ``step``: windows are fixed pages of
    ``size`` steps, so stepping on inside one keeps its list."""
    return (max(step, 1) - 1) // size * size + 1


def steps_window(
    game: Game,
    entries: Sequence[HistoryEntry],
    positions: Sequence[Position],
    step: int,
    size: int = STEPS_SHOWN,
) -> Steps:
    """The window around ``step`` of steps already worked out in full (a solver's line)."""
    last = len(entries)
    step = min(max(step, 0), last)
    first = window_first(step, size)
    stop = min(first + size - 1, last)
    return Steps(
        game, step, last, first, entries[first - 1 : stop], positions[first - 1 : stop + 1]
    )


def replay_window(
    *, db: Database, game_id: str, step: int | None, size: int = STEPS_SHOWN
) -> Steps:
    """The game's replay around ``step`` (None: the last): the history is read up to the
    window's end, and only the window's steps are played, from the positions stored
    before the moves in force (:func:`~app.rules.history.positions_between`)."""
    with db.look() as link:
        game = view(get_row(link, game_id))
        last = queries.history_count(link, game_id)
        shown = last if step is None else min(max(step, 0), last)
        first = window_first(shown, size)
        stop = min(first + size - 1, last)
        # Before the window only the kinds are read (which actions are in force); a
        # notation or a stored position is read when a position must be played from it.
        earlier = queries.kinds_between(link, game_id, 1, first - 1)
        rows = queries.history_between(link, game_id, first, stop)

        def snapshot(ply: int) -> str | None:
            found = queries.undo_snapshot(link, game_id, ply)
            return None if found is None else found.before

        actions = [*(entry(kind, "") for kind in earlier)]
        actions += [entry(row.kind, row.notation) for row in rows]
        window = positions_between(
            game.rules,
            game.deal,
            game.variant,
            actions,
            first - 1,
            stop,
            snapshot,
            lambda ply: queries.notation_at(link, game_id, ply),
        )
    listed = [HistoryEntry(r.ply, r.kind, r.notation, r.created_at) for r in rows]
    return Steps(game, shown, last, first, read_steps(listed, window), window)


def history_export(*, db: Database, game_id: str) -> Iterator[str]:
    """The game's actions in notation, one a line, a chunk of rows at a time (each read is
    short, and the answer is sent as it is read: never the whole history in memory). The game is
    looked up at once (:class:`GameNotFound` before anything is sent)."""
    with db.look() as link:
        get_row(link, game_id)

    def lines() -> Iterator[str]:
        after = 0
        while True:
            with db.read() as session:
                rows = queries.history_after(session, game_id, after)
            if not rows:
                return
            yield "".join(f"{row.notation}\n" for row in rows)
            after = rows[-1].ply

    return lines()
