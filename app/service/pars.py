"""Par: the fewest moves of the shortest line known to win a deal of the par game.

A solver's line (fc-solve's solution optimisation, :func:`solver_line`) makes a deal's
first par; a player whose won game is shorter becomes the new par (:func:`offer_game`).
Every line is replayed through our rules from the deal before it is kept: a line that
does not win is never stored. Moves are counted as a game counts them: the automatic
moves (safe cards sent home) are free."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.games import PAR_GAME, game_kind
from app.rules.history import effective, entry
from app.rules.protocol import IllegalMoveError, Position
from app.store import Database, pars, queries
from app.store.models import GameRecord
from app.store.par_models import ParSource

KIND = PAR_GAME
"""The game whose deals have a par (the registry says which)."""


@dataclass(frozen=True, slots=True)
class Par:
    moves: int
    source: ParSource


class BadLine(ValueError):
    """A line that does not replay to a win from the deal (never stored)."""


def counted(start: Position, line: Sequence[str]) -> int:
    """The moves a player makes to play ``line`` from ``start`` (the automatic moves the
    game makes itself are free). Raises :class:`BadLine` unless it wins."""
    position, moves = start, 0
    try:
        for text in line:
            automatic = position.automatic_move("safe")
            if automatic is not None and automatic.notation == text:
                position = position.play(automatic)
                continue
            position = position.play(position.parse_action(text))
            moves += 1
    except (IllegalMoveError, ValueError) as error:
        raise BadLine(str(error)) from None
    if not position.is_won():
        raise BadLine("the line does not win")
    return moves


def known(*, db: Database, variant: str, deal: int) -> Par | None:
    with db.read() as session:
        row = pars.par(session, KIND, variant, deal)
        return Par(row.moves, row.source) if row is not None else None  # type: ignore[arg-type]


def offer_solver_line(*, db: Database, variant: str, deal: int, line: Sequence[str]) -> bool:
    """Keeps a solver's winning line as the deal's par if it is the shortest known."""
    start = game_kind(KIND).rules.new_game(deal, variant)
    moves = counted(start, line)
    with db.write() as session:
        return pars.keep(
            session, KIND, variant, deal, moves=moves, line=" ".join(line), source="solver"
        )


def offer_game(*, db: Database, game_id: str) -> bool:
    """A won game's line, taken from its stored history and replayed by our rules, becomes
    its deal's par when it has fewer moves than the par known (or none is)."""
    with db.read() as session:
        row = session.get(GameRecord, game_id)
        if row is None or row.kind != KIND or row.status != "won":
            return False
        history = [entry(r.kind, r.notation) for r in queries.moves(db.link(session), game_id)]
    line = [notation for _, notation in effective(history)]
    start = game_kind(KIND).rules.new_game(row.deal, row.variant)
    counted(start, line)  # raises BadLine: a history that does not win is never kept
    with db.write() as session:
        return pars.keep(
            session,
            KIND,
            row.variant,
            row.deal,
            moves=row.moves_count,
            line=" ".join(line),
            source="player",
            game_id=game_id,
        )
