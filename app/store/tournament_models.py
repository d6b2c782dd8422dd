"""A weekly tournament's rows: the tournament (one game and variant, one week, its deals in
order) and the games played in it (``tournament_games``: which of its deals, whose game).

``tournament_games`` is also what ratings read to leave tournament games out until their
week is over: a game is in at most one tournament (``game_id`` unique)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, Date, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.store.models import Base, UTCDateTime


class TournamentRecord(Base):
    """One week's tournament of one game and variant, made by the site when first asked."""

    __tablename__ = "tournaments"
    __table_args__ = (UniqueConstraint("kind", "variant", "week"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    kind: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_kinds.kind", ondelete="RESTRICT")
    )
    variant: Mapped[str] = mapped_column(String(16))
    week: Mapped[date] = mapped_column(Date)
    """The Monday (UTC) the week starts on."""
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime())
    """The Monday after, 00:00 UTC: the week is over from that moment."""
    deals: Mapped[str] = mapped_column(String(200))
    """The deal numbers, in the tournament's order, comma-separated (deal k is the k-th)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    entrants: Mapped[int | None] = mapped_column(Integer)
    """Kept once the week is over (None before): how many entered."""
    winners: Mapped[str | None] = mapped_column(String(2000))
    """Kept once the week is over: the players in first place with a win, comma-separated
    ids (their display names are read when shown)."""


class TournamentGameRecord(Base):
    """A player's one game of a tournament's k-th deal."""

    __tablename__ = "tournament_games"
    __table_args__ = (
        UniqueConstraint("tournament_id", "player_id", "k"),
        Index("ix_tournament_games_game_id", "game_id", unique=True),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    tournament_id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
    )
    k: Mapped[int] = mapped_column(Integer)
    """Which of the tournament's deals (1, 2, …)."""
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="RESTRICT"), index=True
    )


class TournamentEntrantRecord(Base):
    """An entrant's totals in one tournament, kept as their games end: the table's row.

    Made when the player begins their first deal (``entered`` counts the deals begun);
    ``played``, ``won``, ``won_ms`` and ``won_moves`` grow in the transaction that gives one
    of their games its result, if the week has not ended by then. The table reads a page
    of these rows in its order (``ix_tournament_entrants_rank``), never the games."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"),
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    )
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="RESTRICT"), primary_key=True
    )
    entered: Mapped[int] = mapped_column(Integer)
    played: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    won_ms: Mapped[int] = mapped_column(BigInteger)
    """Play time of the wins, in all (milliseconds)."""
    won_moves: Mapped[int] = mapped_column(Integer)


Index(
    "ix_tournament_entrants_rank",
    TournamentEntrantRecord.tournament_id,
    TournamentEntrantRecord.won.desc(),
    TournamentEntrantRecord.won_ms,
    TournamentEntrantRecord.won_moves,
    TournamentEntrantRecord.played.desc(),
    TournamentEntrantRecord.player_id,
)
"""The table's order: most wins, least time of the wins, fewest moves (then most played,
then the player's id, so that a page is always the same rows)."""
