"""Ratings' rows: each rated subject's Glicko-2 rating, a player's rating after each period
they played (their chart), the games a period rated, and the last period computed.

A subject is a player (``subject_id``: the player's id) or a deal (its number, as text),
rated apart in each game and variant. A rating stands as it was after the last period the
subject played in (``period``); its deviation grows with every period since, worked out
when it is read (:func:`app.ratings.glicko2.idle`), so a period writes only the subjects
that played in it."""

from __future__ import annotations

from datetime import date
from typing import Final, Literal

from sqlalchemy import CheckConstraint, Date, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.store.models import Base, _one_of

Subject = Literal["player", "deal"]
SUBJECTS: Final[tuple[Subject, ...]] = ("player", "deal")


class RatingRecord(Base):
    """One subject's rating in one game and variant."""

    __tablename__ = "ratings"
    __table_args__ = (CheckConstraint(_one_of("subject", SUBJECTS), name="subject"),)

    subject: Mapped[str] = mapped_column(String(8), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    subject_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    """Rated games, all periods together."""
    period: Mapped[date] = mapped_column(Date)
    """The last period (a UTC day) the subject played in: the rating as it stood after it."""


class RatingHistoryRecord(Base):
    """A player's rating after a period they played in (the statistics' chart)."""

    __tablename__ = "rating_history"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    period: Mapped[date] = mapped_column(Date, primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)


class RatedGameRecord(Base):
    """A game whose result moved its player's and its deal's ratings, and in which period."""

    __tablename__ = "rated_games"
    __table_args__ = (Index("ix_rated_games_period", "period"),)

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    period: Mapped[date] = mapped_column(Date)


class RatingPeriodRecord(Base):
    """The one row saying which periods are computed: every day up to ``last`` (None:
    none yet). A period's writer locks it, so two servers never rate a day twice."""

    __tablename__ = "rating_periods"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    last: Mapped[date | None] = mapped_column(Date)
