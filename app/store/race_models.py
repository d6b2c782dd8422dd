"""A race's rows: the race (one deal, a time limit, who started it, where it stands) and
its racers (who joined, in order, and the ordinary game each one plays).

A racer's result is read from their game's row while the race runs; when the race ends it
is kept on the racer's row (time, moves, cards left, the position then), so the result
table stays as it was whatever the games do afterwards."""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.store.models import Base, UTCDateTime, _one_of

RaceState = Literal["lobby", "running", "finished"]
"""Where a race stands: racers joining, under way (its countdown included), over."""
RACE_STATES: Final[tuple[RaceState, ...]] = ("lobby", "running", "finished")

RacerOutcome = Literal["won", "gave_up", "unfinished"]
"""How a racer's race ended (kept when the race ends)."""
RACER_OUTCOMES: Final[tuple[RacerOutcome, ...]] = ("won", "gave_up", "unfinished")


class RaceRecord(Base):
    """One race on one deal: its own unguessable token (144 random bits, as a game's id)."""

    __tablename__ = "races"
    __table_args__ = (CheckConstraint(_one_of("state", RACE_STATES), name="state"),)

    token: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_kinds.kind", ondelete="RESTRICT")
    )
    variant: Mapped[str] = mapped_column(String(16))
    deal: Mapped[int] = mapped_column(Integer)
    limit_minutes: Mapped[int | None] = mapped_column(Integer)
    """The time limit (None: none)."""
    creator_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="RESTRICT")
    )
    state: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the racers' clocks start: the start asked plus the countdown (server time)."""
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class RacerRecord(Base):
    """One racer: a player in a race, in the order they joined, and their game."""

    __tablename__ = "racers"
    __table_args__ = (
        UniqueConstraint("race_token", "player_id"),
        UniqueConstraint("race_token", "joined"),
        CheckConstraint("outcome IS NULL OR " + _one_of("outcome", RACER_OUTCOMES), name="outcome"),
        Index("ix_racers_game_id", "game_id", unique=True),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    race_token: Mapped[str] = mapped_column(
        String(32), ForeignKey("races.token", ondelete="CASCADE")
    )
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="RESTRICT")
    )
    joined: Mapped[int] = mapped_column(Integer)
    """1 for whoever started the race, then 2, 3, … in the order they joined."""
    name: Mapped[str | None] = mapped_column(String(24))
    """The display name the player had when joining (None: "anonymous N", N = joined)."""
    game_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="SET NULL")
    )
    """The racer's ordinary game, dealt when the race starts."""
    watch_token: Mapped[str | None] = mapped_column(String(32))
    """The read-only watch link to that game (a row of ``shares``) others are shown."""
    outcome: Mapped[str | None] = mapped_column(String(12))
    """Kept when the race ends (None while it runs: read from the game)."""
    race_ms: Mapped[int | None] = mapped_column(BigInteger)
    moves: Mapped[int | None] = mapped_column(Integer)
    cards_left: Mapped[int | None] = mapped_column(Integer)
    hinted: Mapped[bool | None] = mapped_column()
    position: Mapped[str | None] = mapped_column(Text)
