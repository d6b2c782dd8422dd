"""Everything a game's page shows, gathered before rendering: rendering does no I/O."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.protocol import Answer
from app.service import race_feed, tournament_marks
from app.service.help import known_answer
from app.service.model import Game, get_row, view
from app.service.pars import WinPar, after_win
from app.service.players import Settings, table_settings
from app.service.players import settings as player_settings
from app.service.solvers import SolverPool
from app.service.tournament_marks import Mark
from app.store import Database


@dataclass(frozen=True, slots=True)
class Table:
    """A game with what its page needs besides: the player's settings (their table's look
    and automatic moves) and a sure verdict already found for its position."""

    game: Game
    settings: Settings
    known: Answer | None
    par: WinPar | None = None
    """A won game of a deal with a par: its moves beside the par (:mod:`.pars`)."""
    race: str | None = None
    """The race the game is played in (its token), if any: the page shows it beside."""
    tournament: Mark | None = None
    """The weekly tournament the game is played in, if any (:mod:`.tournament_marks`)."""

    @property
    def blind(self) -> bool:
        """A tournament game while its week runs: no deal number, no solver's help."""
        return self.tournament is not None and self.tournament.blind()


def table(
    *,
    db: Database,
    solvers: SolverPool,
    game: Game,
    player_id: str | None,
    settings: Settings | None = None,
) -> Table:
    """The page's view of ``game``; ``settings`` when already read (a move's answer)."""
    if settings is None:
        settings = player_settings(db=db, player_id=player_id, owner=game.player_id)
    mark = tournament_marks.mark(db, game.id)
    if mark is not None and mark.blind():  # the deal's verdict and par wait for the week's end
        return Table(game, settings, None, None, race_feed.race_of(db, game.id), mark)
    known = None if game.is_over else known_answer(solvers, game)
    if known is not None and known.verdict == "unknown":
        known = None
    par = after_win(db=db, solvers=solvers, game=game)
    return Table(game, settings, known, par, race_feed.race_of(db, game.id), mark)


def game_and_settings(
    *, db: Database, game_id: str, player_id: str | None
) -> tuple[Game, Settings]:
    """A game and the player's settings in one read (its page shows both)."""
    with db.look() as link:
        row = get_row(link, game_id)
        return view(row), table_settings(link, player_id, row)
