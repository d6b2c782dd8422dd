"""A deal's par: the fewest moves of the shortest line known to win it, and that line.

One row per deal (kind, variant, number). A solver's optimised line makes the first row;
a player whose won game is shorter replaces it, their game's id kept with it."""

from __future__ import annotations

from typing import Final, Literal

from sqlalchemy import CheckConstraint, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.store.models import Base, _one_of

ParSource = Literal["solver", "player"]
PAR_SOURCES: Final[tuple[ParSource, ...]] = ("solver", "player")


class ParRecord(Base):
    """The shortest line known for one deal."""

    __tablename__ = "pars"
    __table_args__ = (
        CheckConstraint(_one_of("source", PAR_SOURCES), name="source"),
        CheckConstraint("moves > 0", name="moves"),
    )

    kind: Mapped[str] = mapped_column(
        String(16), ForeignKey("game_kinds.kind", ondelete="RESTRICT"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    moves: Mapped[int] = mapped_column(Integer)
    """The line's moves, counted as a game's are (the moves a player makes)."""
    line: Mapped[str] = mapped_column(Text)
    """The line in our notation, one move after another, space-separated."""
    source: Mapped[str] = mapped_column(String(8))
    game_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="SET NULL")
    )
    """The player's game whose line this is (None for a solver's)."""
    previous: Mapped[int | None] = mapped_column(Integer)
    """The par's moves before this line took it (None for a deal's first par): a player's
    win says what it beat."""
