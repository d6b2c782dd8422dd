"""The rows the hot path reads and the changes it writes, as types.

A :class:`~app.store.link.Link` reads a row as a plain tuple named by its columns (no ORM
object: :mod:`app.store.link` says why). These protocols say what each query's row holds,
so a misspelt column is a type error, not an ``AttributeError`` at run time; an ORM
record (:class:`~app.store.models.GameRecord`) has the same members and reads the same.
:class:`GameChanges` is an update of a game's row: its columns, each with its type.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Protocol, TypedDict

from app.store.models import GameResult, GameStatus


class GameRow(Protocol):
    """A game's row (``queries.GAME_ROW``): every column, then its owner's table
    (``owner_deck``, … read with ``getattr``: None when the owner is no player)."""

    @property
    def id(self) -> str: ...
    @property
    def player_id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def deal(self) -> int: ...
    @property
    def status(self) -> GameStatus: ...
    @property
    def resigned(self) -> bool: ...
    @property
    def version(self) -> int: ...
    @property
    def position(self) -> str: ...
    @property
    def score(self) -> int | None: ...
    @property
    def cards_left(self) -> int: ...
    @property
    def moves_count(self) -> int: ...
    @property
    def play_ms(self) -> int: ...
    @property
    def hints_used(self) -> int: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def last_action_at(self) -> datetime: ...
    @property
    def finished_at(self) -> datetime | None: ...
    @property
    def result(self) -> GameResult | None: ...
    @property
    def verdict_position(self) -> str | None: ...
    @property
    def redo_count(self) -> int: ...
    @property
    def undo_top(self) -> int | None: ...
    @property
    def daily_on(self) -> date | None: ...
    @property
    def difficulty(self) -> str | None: ...


class SettingsRow(Protocol):
    """A player's table (``queries.SETTINGS``): each setting's word."""

    @property
    def deck(self) -> str: ...
    @property
    def card_size(self) -> str: ...
    @property
    def hand(self) -> str: ...
    @property
    def auto_home(self) -> str: ...
    @property
    def motion(self) -> str: ...
    @property
    def theme(self) -> str: ...


class SnapshotRow(Protocol):
    """What undo reads at a ply: the position before the move and the undo top below."""

    @property
    def before(self) -> str | None: ...
    @property
    def below(self) -> int | None: ...


class MoveRow(Protocol):
    """A history row as redo and an old game's undo read it."""

    @property
    def kind(self) -> str: ...
    @property
    def notation(self) -> str: ...


class HistoryRow(MoveRow, Protocol):
    """A history row as a replay lists it."""

    @property
    def ply(self) -> int: ...
    @property
    def created_at(self) -> datetime: ...


class GameChanges(TypedDict, total=False):
    """What an action changes in a game's row (a compare-and-set writes these columns)."""

    version: int
    resigned: bool
    moves_count: int
    play_ms: int
    last_action_at: datetime
    undo_top: int | None
    redo_count: int
    hints_used: int
    verdict_position: str | None
    status: GameStatus
    position: str
    score: int | None
    cards_left: int
    result: GameResult | None
    finished_at: datetime | None
