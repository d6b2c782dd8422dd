"""Help from the solvers: a hint, "still winnable?", and the solver's line to look at.

Searches run in the solver pool's processes (:mod:`app.service.solvers`), never here; a
hint or a solution seen is counted through :func:`app.service.play.apply`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from app.rules.protocol import Answer, Hint, Position
from app.service import proofs
from app.service.commands import AskVerdict, CountHint
from app.service.model import Game, GameOver, HistoryEntry, NotBegun, utcnow
from app.service.play import apply
from app.service.records import load
from app.service.solvers import Job, SolverPool, SolverThinking
from app.service.tournament_marks import refuse_help
from app.store import Database

CHECK_WAIT: Final = 1.0
"""Seconds "Still winnable?" waits before answering with what is known so far (a hint's
and a solution's waits are the pool's: :class:`SolverPool`)."""


def ask_hint(*, db: Database, solvers: SolverPool, game_id: str) -> tuple[Game, Hint]:
    """The move to play next (never played for the player); the game counts the hint.

    When its search is not done in time, a provisional move (:func:`provisional_hint`);
    raises :class:`SolverBusy` when too many others are searching (nothing counted)."""
    game = load(db=db, game_id=game_id)
    if game.is_over:
        raise GameOver("the game is over: there is nothing to hint", "game.over")
    refuse_before_begun(game)
    refuse_help(db, game)
    if proved_lost(game):
        # No position a deal proved impossible leads to can be won: said at once, with no
        # search (a busy machine would otherwise offer moves it is not sure of).
        return _counted(db, game), Hint(None, True)
    suggestion = solvers.ask(_job("hint", game), solvers.hint_wait)
    if not isinstance(suggestion, Hint):
        # The search goes on (asking again gets its move): meanwhile a move to play, marked
        # not sure, never an empty "still thinking".
        suggestion = provisional_hint(game.position)
    return _counted(db, game), suggestion


def refuse_before_begun(game: Game) -> None:
    """A race's game during its countdown: no hint, no solution is given or counted."""
    if utcnow() < game.created_at:
        error = NotBegun("this game has not begun yet: wait for the countdown", "game.not_begun")
        error.game = game
        raise error


def proved_lost(game: Game) -> bool:
    """Whether the game's deal is proved impossible, so that no position it leads to can be
    won (the shipped proofs, :mod:`app.service.proofs`)."""
    if not game.game.proofs_cover_the_game:
        return False
    return proofs.proofs(game.kind, game.variant).verdict(game.deal) == "unsolvable"


def provisional_hint(position: Position) -> Hint:
    """A move to play while the solver's search is not done, marked not sure (``sure``
    False): a card that can go home, else the first legal move, else a redeal where the
    game has one. No move at all: ``Hint(None, True)``, said plainly ("No move helps")."""
    home = position.automatic_move("all")
    if home is not None:
        return Hint(home.notation, False)
    legal = position.legal_moves()
    if legal:
        return Hint(legal[0].notation, False)
    can_redeal = getattr(position, "can_redeal", None)
    if callable(can_redeal) and can_redeal():
        return Hint("redeal", False)
    return Hint(None, True)


def winnable(*, db: Database, solvers: SolverPool, game_id: str) -> tuple[Game, Answer | None]:
    """Can the game still be won from here? (a game played in rounds: can this round be cleared?)

    Answers within about a second: None while the search goes on in the solver's process
    (asking again later gets its answer). The game keeps that it asked, at this position:
    the answer is shown in this game only, there (never to another game on the same deal,
    nor before it was asked)."""
    game = load(db=db, game_id=game_id)
    refuse_help(db, game)
    if game.verdict_position != game.text:
        game = apply(db=db, game_id=game.id, action=AskVerdict(), version=None).game
    job = _job("answer", game)
    proved = proved_answer(game) if solvers.known(job) is None else None
    if proved is not None:  # the deal's kept proof answers at once, whatever the load
        return game, proved
    result = solvers.ask(job, CHECK_WAIT)
    return game, result if isinstance(result, Answer) else None


def proved_answer(game: Game) -> Answer | None:
    """The answer the deal's shipped proof gives at its first position (a line of no move,
    no position searched: said as proved, :func:`from_proof`); None elsewhere or when the
    deal is not classified."""
    if game.text and game.text != game.rules.new_game(game.deal, game.variant).to_text():
        return None
    verdict = proofs.proofs(game.kind, game.variant).verdict(game.deal)
    return Answer(verdict, (), 0, 0.0) if verdict in ("solved", "unsolvable") else None


def from_proof(answer: Answer) -> bool:
    """Whether ``answer`` is a shipped proof's (:func:`proved_answer`), not a search's."""
    return answer.verdict != "unknown" and not answer.moves and not answer.positions


def known_answer(solvers: SolverPool, game: Game) -> Answer | None:
    """The answer already found for the game's current position, when this game asked for
    it there; else None. Never searches: answers kept for a position answer quickly, but
    never unasked (a player coming back to where they asked sees the verdict again)."""
    if game.verdict_position is None or game.verdict_position != game.text:
        return None
    result = solvers.known(_job("answer", game))
    return result if isinstance(result, Answer) else proved_answer(game)


def solution_known(*, db: Database, solvers: SolverPool, game_id: str) -> bool:
    """Whether the solver's line from the game's position is at hand (no search needed)."""
    return solvers.known(_job("answer", load(db=db, game_id=game_id))) is not None


@dataclass(frozen=True, slots=True)
class Solution:
    """The solver's line from a game's position, as steps to look at (nothing is played):
    its answer, the moves, and the position before the first and after each move."""

    game: Game
    answer: Answer
    entries: list[HistoryEntry]
    positions: list[Position]


def solution(*, db: Database, solvers: SolverPool, game_id: str, counted: bool = True) -> Solution:
    """The solver's line from the current position.

    Seeing a solution is help: with ``counted`` (the game's holder asked for it, by a
    POST), the game counts it as a hint; a look without (a GET) counts nothing."""
    game = load(db=db, game_id=game_id)
    if counted:
        refuse_before_begun(game)
    refuse_help(db, game)
    result = solvers.ask(_job("answer", game), solvers.solution_wait)
    if not isinstance(result, Answer):
        raise SolverThinking
    if result.moves and not game.is_over and counted:
        game = _counted(db, game)
    positions = [game.position]
    entries = []
    for ply, notation in enumerate(result.moves, start=1):
        action = positions[-1].parse_action(notation)  # the solver's line comes in as text
        positions.append(positions[-1].play(action))
        entries.append(HistoryEntry(ply, "move", notation, game.last_action_at, action))
    return Solution(game, result, entries, positions)


def _counted(db: Database, game: Game) -> Game:
    return apply(db=db, game_id=game.id, action=CountHint(), version=None).game


def _job(question: Literal["hint", "answer"], game: Game) -> Job:
    return Job(question, game.kind, game.text or game.position.to_text())
