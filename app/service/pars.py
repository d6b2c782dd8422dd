"""Par: the fewest moves of the shortest line known to win a deal of the par game.

A solver's line (fc-solve's plain or optimised line, whichever is shorter: the game's
``shortest_line``, searched in the solver pool's processes) makes a deal's first par; a
player whose won game has fewer moves becomes the new par (:func:`after_win`). Any won
game may: a line is a line, whatever help its player had. Every line is replayed through
our rules from the deal before it is kept: a line that does not win is never stored.
Moves are counted as a game counts them (:func:`app.rules.par.counted`): the safe cards
the game sends home are free, and "All home" is one move."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from app.games import PAR_GAME, game_kind
from app.rules import par as counting
from app.rules.history import effective, entry
from app.rules.protocol import Answer, Position
from app.service import proofs
from app.service.model import Game
from app.service.solvers import Job, SolverBusy, SolverPool
from app.store import Database, pars, queries
from app.store.errors import Conflict
from app.store.models import GameRecord
from app.store.par_models import ParSource

KIND = PAR_GAME
"""The game whose deals have a par (the registry says which)."""
BadLine = counting.BadLine
"""A line that does not replay to a win from the deal (never stored)."""

logger = logging.getLogger("solitaire.pars")


@dataclass(frozen=True, slots=True)
class Par:
    moves: int
    source: ParSource


@dataclass(frozen=True, slots=True)
class DealPar:
    """What a deal's records page says of its par: its moves, or that it is being
    worked out (``moves`` None)."""

    moves: int | None
    source: ParSource | None = None

    @property
    def working(self) -> bool:
        return self.moves is None


@dataclass(frozen=True, slots=True)
class WinPar:
    """What a won game's end says of the par: the player's moves and the par they are
    measured against (when this game became the par: the one it beat, None when it is
    the deal's first line known), or that the par is still being worked out."""

    moves: int
    par: int | None
    new: bool = False
    working: bool = False


def counted(start: Position, line: Sequence[str]) -> int:
    """The moves a player makes to play ``line`` from ``start`` (automatic moves free,
    "All home" one move). Raises :class:`BadLine` unless it wins."""
    return _counted(start, line).moves


def _counted(start: Position, line: Sequence[str]) -> counting.Counted:
    sweep = game_kind(KIND).sweeps.get("all-home")
    return counting.counted(start, line, sweep.actions if sweep is not None else None)


def has_par(kind: str) -> bool:
    return kind == KIND


def measured(game: Game) -> bool:
    """Whether the game's page says how it compares with its deal's par (which may search
    for the par and keep it: :func:`after_win`)."""
    return has_par(game.kind) and game.status == "won"


def known(*, db: Database, variant: str, deal: int) -> Par | None:
    with db.read() as session:
        row = pars.par(session, KIND, variant, deal)
        return Par(row.moves, row.source) if row is not None else None  # type: ignore[arg-type]


def offer_solver_line(*, db: Database, variant: str, deal: int, line: Sequence[str]) -> bool:
    """Keeps a solver's winning line as the deal's par if it is the shortest known."""
    start = game_kind(KIND).rules.new_game(deal, variant)
    found = _counted(start, line)
    return _keep(db, variant, deal, moves=found.moves, line=" ".join(found.line), source="solver")


def offer_game(*, db: Database, game_id: str) -> bool:
    """A won game's line, taken from its stored history and replayed by our rules, becomes
    its deal's par when it has fewer moves than the par known (or none is). Its moves are
    the game's own count, the one its end and the records show."""
    with db.read() as session:
        row = session.get(GameRecord, game_id)
        if row is None or row.kind != KIND or row.status != "won":
            return False
        history = [entry(r.kind, r.notation) for r in queries.moves(db.link(session), game_id)]
    line = [notation for _, notation in effective(history)]
    start = game_kind(KIND).rules.new_game(row.deal, row.variant)
    counted(start, line)  # raises BadLine: a history that does not win is never kept
    return _keep(
        db,
        row.variant,
        row.deal,
        moves=row.moves_count,
        line=" ".join(line),
        source="player",
        game_id=game_id,
    )


def _keep(
    db: Database,
    variant: str,
    deal: int,
    *,
    moves: int,
    line: str,
    source: ParSource,
    game_id: str | None = None,
) -> bool:
    """:func:`app.store.pars.keep` in a transaction of its own. Two first pars of one deal
    at once (a database server's concurrent writers): the second, refused by the deal's
    key, is measured again against the first."""
    for attempt in (1, 2):
        try:
            with db.write() as session:
                return pars.keep(
                    session,
                    KIND,
                    variant,
                    deal,
                    moves=moves,
                    line=line,
                    source=source,
                    game_id=game_id,
                )
        except Conflict:
            if attempt == 2:
                raise
    return False  # (never reached: the second attempt returns or raises)


def deal_par(*, db: Database, solvers: SolverPool, variant: str, deal: int) -> DealPar | None:
    """The deal's par, found now when none is kept: its shortest line is searched in the
    solver pool (waiting at most the pool's ``par_wait``), replayed and kept. Being worked
    out: ``DealPar(None)`` (a later view shows it). None when the deal has no par (proved
    impossible, or the search found no line)."""
    found = known(db=db, variant=variant, deal=deal)
    if found is not None:
        return DealPar(found.moves, found.source)
    if proofs.proofs(KIND, variant).verdict(deal) == "unsolvable":
        return None
    start = game_kind(KIND).rules.new_game(deal, variant)
    try:
        answer = solvers.ask(Job("par", KIND, start.to_text()), solvers.par_wait)
    except SolverBusy:
        return DealPar(None)
    if answer is None:
        return DealPar(None)
    if not isinstance(answer, Answer) or answer.verdict != "solved":
        return None
    try:
        offer_solver_line(db=db, variant=variant, deal=deal, line=answer.moves)
    except BadLine as error:  # our bug: said, never kept
        logger.error("a par line for %s %s #%d does not replay: %s", KIND, variant, deal, error)
        return None
    found = known(db=db, variant=variant, deal=deal)
    return DealPar(found.moves, found.source) if found is not None else None


def after_win(*, db: Database, solvers: SolverPool, game: Game) -> WinPar | None:
    """The par a won game is measured against; a game with fewer moves than the par known
    becomes the new par (its line replayed and kept). None for a game with no par."""
    if not measured(game):
        return None
    moves = game.moves_count
    with db.read() as session:
        row = pars.par(session, KIND, game.variant, game.deal)
        before = None if row is None else (row.moves, row.game_id, row.previous)
    if before is None:
        found = deal_par(db=db, solvers=solvers, variant=game.variant, deal=game.deal)
        if found is not None and found.working:
            return WinPar(moves, None, working=True)
        if found is not None and found.moves is not None:
            before = (found.moves, None, None)
    if before is not None and before[1] == game.id:
        return WinPar(moves, before[2], new=True)
    par = None if before is None else before[0]
    if par is None or moves < par:
        try:
            if offer_game(db=db, game_id=game.id):
                return WinPar(moves, par, new=True)
        except BadLine as error:  # our bug: a won game's history always wins
            logger.warning("won game %s does not replay: %s", game.id, error)
    return WinPar(moves, par)
