"""SQLAlchemy 2 models. Rows are ``…Record``s; "position" always means the engine value."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final, Literal

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from app.games import GAMES

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s_%(column_1_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware (SQLite forgets)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


GameStatus = Literal["playing", "won", "lost"]
"""Where a game stands: in play, or finished one way or the other."""
GAME_STATUSES: Final[tuple[GameStatus, ...]] = ("playing", "won", "lost")


def _one_of(column: str, values: tuple[str, ...]) -> str:
    """A CHECK condition: ``column`` holds one of ``values`` (plain words, quoted here)."""
    if not all(value.isidentifier() for value in values):
        raise ValueError(f"not a plain word among {values!r}")
    quoted = ", ".join(f"'{value}'" for value in values)
    return f"{column} IN ({quoted})"


GameResult = Literal["won", "lost"]
"""The result on a player's record: a loss stays there even when Undo takes the game back."""
GAME_RESULTS: Final[tuple[GameResult, ...]] = ("won", "lost")

STATS_COLUMNS = ("result", "play_ms", "moves_count", "score", "cards_left", "id")
"""The columns statistics read besides the keys: kept in their indexes."""


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class PlayerRecord(Base):
    """An anonymous player, known by a signed cookie holding ``id``."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    auto_moves: Mapped[bool] = mapped_column(Boolean, server_default=true())
    """Send safe cards home automatically (games that make automatic moves)."""


class GameRecord(Base):
    """One game: what it is, where it stands, and who started it."""

    __tablename__ = "games"
    __table_args__ = (
        # Named by the convention: ck_games_status, ck_games_kind. The kinds are the
        # registry's, sorted: a new game brings a migration that widens ck_games_kind.
        CheckConstraint(_one_of("status", GAME_STATUSES), name="status"),
        CheckConstraint(_one_of("kind", tuple(sorted(GAMES))), name="kind"),
        CheckConstraint(_one_of("result", GAME_RESULTS), name="result"),
        Index("ix_games_player_status", "player_id", "status", "last_action_at"),
        # Covering indexes for the statistics (app.store.stats): every column they read.
        Index("ix_games_finished", "kind", "variant", "finished_at", *STATS_COLUMNS),
        Index(
            "ix_games_player_finished",
            "player_id",
            "kind",
            "variant",
            "finished_at",
            *STATS_COLUMNS,
        ),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="RESTRICT")
    )
    kind: Mapped[str] = mapped_column(String(16))
    """A key of :data:`app.games.GAMES`."""
    variant: Mapped[str] = mapped_column(String(16))
    deal: Mapped[int] = mapped_column(Integer)
    status: Mapped[GameStatus] = mapped_column(String(8))
    resigned: Mapped[bool] = mapped_column(Boolean, server_default=false())
    version: Mapped[int] = mapped_column(Integer)
    """Number of actions applied: the ply of the last history row."""
    position: Mapped[str] = mapped_column(Text)
    score: Mapped[int | None] = mapped_column(Integer)
    cards_left: Mapped[int] = mapped_column(Integer)
    moves_count: Mapped[int] = mapped_column(Integer)
    play_ms: Mapped[int] = mapped_column(BigInteger)
    hints_used: Mapped[int] = mapped_column(Integer, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_action_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the result on the record was reached (it stays when Undo takes a loss back)."""
    result: Mapped[GameResult | None] = mapped_column(String(8))
    """``won`` or ``lost`` once the game reached either: what the statistics count. A loss
    stays a loss whatever follows (an undo, a win after it)."""
    verdict_position: Mapped[str | None] = mapped_column(Text)
    """The position at which "Still winnable?" was last asked in this game: its answer is
    shown there only (and when the game comes back to it), never to a game that did not
    ask."""
    redo_count: Mapped[int] = mapped_column(Integer, server_default="0")
    """How many undone moves Redo can bring back, in order (a new move makes it 0)."""
    undo_top: Mapped[int | None] = mapped_column(Integer)
    """The ply of the move or redeal the next ``undo`` takes back (0: none). ``None`` for
    games begun before undo snapshots: their undo replays the history from the deal."""


class MoveRecord(Base):
    """One action in a game's append-only history."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "ply"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    """``move``, ``auto``, ``redeal``, ``undo`` or ``resign``."""
    notation: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    before: Mapped[str | None] = mapped_column(Text)
    """On a move or redeal (the rows an undo takes back): the position before it, so that
    undo restores it without replaying the game. ``solitaire verify`` checks it."""
    below: Mapped[int | None] = mapped_column(Integer)
    """On a move or redeal: the game's ``undo_top`` before it, the next one undo reaches."""


class TransferRecord(Base):
    """A "move my games" link: single use, cancelled from My games, valid for a day.

    Only a hash of the link's token is kept: the database alone cannot open it."""

    __tablename__ = "transfers"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the token, in hex."""
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
