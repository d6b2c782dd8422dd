"""SQLAlchemy 2 models. Rows are ``…Record``s; "position" always means the engine value."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Final, Literal

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from app.rules.protocol import AUTO_HOME_MODES

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


Deck = Literal["two", "four"]
"""Suit colours: red and black, or four (spades black, hearts red, diamonds blue, clubs
green)."""
DECKS: Final[tuple[Deck, ...]] = ("two", "four")
CardSize = Literal["normal", "large"]
CARD_SIZES: Final[tuple[CardSize, ...]] = ("normal", "large")
Hand = Literal["right", "left"]
"""Which hand plays: a left hand has the foundations on the left, the free cells right."""
HANDS: Final[tuple[Hand, ...]] = ("right", "left")
Motion = Literal["on", "reduced"]
"""Motion on, or reduced whatever the system asks."""
MOTIONS: Final[tuple[Motion, ...]] = ("on", "reduced")
Theme = Literal["system", "light", "dark"]
"""The page's colours: the system's choice (prefers-color-scheme), or light or dark."""
THEMES: Final[tuple[Theme, ...]] = ("system", "light", "dark")


GameResult = Literal["won", "lost"]
"""The result on a player's record: a loss stays there even when Undo takes the game back."""
GAME_RESULTS: Final[tuple[GameResult, ...]] = ("won", "lost")

STATS_COLUMNS = ("result", "play_ms", "moves_count", "score", "cards_left", "id")
"""The columns statistics read besides the keys: kept in their indexes."""


WON = text("status = 'won'")
DAILY = text("daily_on IS NOT NULL")
DAILY_WON = text("daily_on IS NOT NULL AND status = 'won'")


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class PlayerRecord(Base):
    """An anonymous player, known by a signed cookie holding ``id``."""

    __tablename__ = "players"
    __table_args__ = (
        Index("ix_players_name_key", "name_key", unique=True),
        # ck_players_deck, …: each setting one of its words (a migration widens them).
        CheckConstraint(_one_of("deck", DECKS), name="deck"),
        CheckConstraint(_one_of("card_size", CARD_SIZES), name="card_size"),
        CheckConstraint(_one_of("hand", HANDS), name="hand"),
        CheckConstraint(_one_of("auto_home", AUTO_HOME_MODES), name="auto_home"),
        CheckConstraint(_one_of("motion", MOTIONS), name="motion"),
        CheckConstraint(_one_of("theme", THEMES), name="theme"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # The player's own table (/settings); the defaults are the site's look.
    deck: Mapped[str] = mapped_column(String(8), server_default="two")
    card_size: Mapped[str] = mapped_column(String(8), server_default="normal")
    hand: Mapped[str] = mapped_column(String(8), server_default="right")
    auto_home: Mapped[str] = mapped_column(String(8), server_default="safe")
    """Which cards go home by themselves (games that make automatic moves)."""
    motion: Mapped[str] = mapped_column(String(8), server_default="on")
    theme: Mapped[str] = mapped_column(String(8), server_default="system")
    name: Mapped[str | None] = mapped_column(String(24))
    """The display name records show (None: "anonymous"), as the player wrote it."""
    name_key: Mapped[str | None] = mapped_column(String(96))
    """The name case-folded: two players cannot take names that differ only in case."""


class GameKindRecord(Base):
    """A kind of game the site has offered: a row per game, added by the migration that
    brings the game (``games.kind`` refers to it, so no table is rebuilt for a new game)."""

    __tablename__ = "game_kinds"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)


class GameRecord(Base):
    """One game: what it is, where it stands, and who started it."""

    __tablename__ = "games"
    __table_args__ = (
        # Named by the convention: ck_games_status. The kind is a row of game_kinds
        # (fk_games_kind_game_kinds): a new game brings a migration that inserts it.
        CheckConstraint(_one_of("status", GAME_STATUSES), name="status"),
        CheckConstraint(_one_of("result", GAME_RESULTS), name="result"),
        Index("ix_games_player_status", "player_id", "status", "last_action_at"),
        # A restart is applied once: the game and version it restarted, at most one game.
        Index("ix_games_restart_of", "restart_of", unique=True),
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
        # A deal's records and the deals of the day (app.store.records). The wins' indexes
        # are partial: a game in play is in none of them, so a move never touches them.
        Index("ix_games_deal", "kind", "variant", "deal", "status"),
        Index(
            "ix_games_deal_wins",
            "kind",
            "variant",
            "deal",
            "hints_used",
            "moves_count",
            "play_ms",
            sqlite_where=WON,
            postgresql_where=WON,
        ),
        Index(
            "ix_games_deal_fastest",
            "kind",
            "variant",
            "deal",
            "hints_used",
            "play_ms",
            "moves_count",
            sqlite_where=WON,
            postgresql_where=WON,
        ),
        Index(
            "ix_games_daily",
            "daily_on",
            "kind",
            "variant",
            "deal",
            "status",
            sqlite_where=DAILY,
            postgresql_where=DAILY,
        ),
        Index(
            "ix_games_daily_wins",
            "daily_on",
            "kind",
            "variant",
            "deal",
            "hints_used",
            "moves_count",
            "play_ms",
            sqlite_where=DAILY_WON,
            postgresql_where=DAILY_WON,
        ),
        Index(
            "ix_games_player_daily",
            "player_id",
            "daily_on",
            sqlite_where=DAILY,
            postgresql_where=DAILY,
        ),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="RESTRICT")
    )
    kind: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_kinds.kind", ondelete="RESTRICT")
    )
    """A key of :data:`app.games.GAMES`, and a row of ``game_kinds``."""
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
    daily_on: Mapped[date | None] = mapped_column(Date)
    """The UTC day whose deal of the day this game was started as (None: any other game)."""
    restart_of: Mapped[str | None] = mapped_column(String(48))
    """For a game dealt by a restart: ``<game id>:<version>`` of the game restarted."""
    difficulty: Mapped[str | None] = mapped_column(String(8))
    """The difficulty the game was dealt for (``easy`` … ``expert``), None: not chosen."""


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
    """``move``, ``auto``, ``undo``, ``redo`` or ``resign`` (``redeal`` before migration 0012)."""
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


class ShareRecord(Base):
    """A read-only watch link to a game (``/watch/{token}``): its own random token, never
    the game's id; revoked, never deleted."""

    __tablename__ = "shares"

    token: Mapped[str] = mapped_column(String(32), primary_key=True)
    """144 random bits, URL-safe (as a game's id, and as unguessable)."""
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


from app.store import par_models  # noqa: E402, F401, I001  (the deals' pars, on the same metadata)
from app.store import race_models  # noqa: E402, F401  (the races' rows, on the same metadata)
from app.store import rating_models  # noqa: E402, F401  (the ratings, on the same metadata)
from app.store import tournament_models  # noqa: E402, F401  (the weekly tournaments' rows)
