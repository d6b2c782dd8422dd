"""Everything a game's page shows, gathered before rendering: rendering does no I/O."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.protocol import Answer
from app.service.help import known_answer
from app.service.model import Game
from app.service.players import auto_moves as wants_auto_moves
from app.service.solvers import SolverPool
from app.store import Database


@dataclass(frozen=True, slots=True)
class Table:
    """A game with what its page needs besides: the player's automatic-moves setting (for
    a game that makes them) and a sure verdict already found for its position."""

    game: Game
    auto_moves: bool
    known: Answer | None


def table(
    *,
    db: Database,
    solvers: SolverPool,
    game: Game,
    player_id: str | None,
    auto_moves: bool | None = None,
) -> Table:
    """The page's view of ``game``; ``auto_moves`` when already read (a move's answer)."""
    if auto_moves is None:
        # Only a game that makes automatic moves asks for the player's setting.
        uses = game.game.uses_auto_moves
        auto_moves = wants_auto_moves(db=db, player_id=player_id) if uses else True
    known = None if game.is_over else known_answer(solvers, game)
    if known is not None and known.verdict == "unknown":
        known = None
    return Table(game, auto_moves, known)
