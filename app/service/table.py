"""Everything a game's page shows, gathered before rendering: rendering does no I/O."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.protocol import Answer
from app.service import proofs, race_clock, tournament_marks
from app.service.help import known_answer
from app.service.model import Game, get_row, view
from app.service.pars import WinPar, after_win
from app.service.players import Settings, table_settings
from app.service.players import settings as player_settings
from app.service.races import Seat, seat
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
    fewest_cells: int | None = None
    """A game dealt for a difficulty: the fewest free cells its deal needs, proved."""
    seat: Seat | None = None
    """The game's race and its racer, read for a whole page or a game over (the banner)."""
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
    whole: bool = False,
) -> Table:
    """The page's view of ``game``; ``settings`` when already read (a move's answer);
    ``whole``: for the whole page (not a move's part), which shows the game's race."""
    if settings is None:
        settings = player_settings(db=db, player_id=player_id, owner=game.player_id)
    mark = tournament_marks.mark(db, game.id)
    if mark is not None and mark.blind():  # the deal's verdict and par wait for the week's end
        return Table(
            game, settings, None, None, race_clock.race_of(db, game.id) or None, tournament=mark
        )
    known = None if game.is_over else known_answer(solvers, game)
    if known is not None and known.verdict == "unknown":
        known = None
    par = after_win(db=db, solvers=solvers, game=game)
    cells = proofs.fewest_cells(game.deal) if game.difficulty else None
    token = race_clock.race_of(db, game.id) or None
    seated = None
    if token and (whole or game.is_over):
        seated = seat(db=db, token=token, game_id=game.id)
    return Table(game, settings, known, par, token, cells, seated, mark)


def game_and_settings(
    *, db: Database, game_id: str, player_id: str | None
) -> tuple[Game, Settings]:
    """A game and the player's settings in one read (its page shows both)."""
    with db.look() as link:
        row = get_row(link, game_id)
        return view(row), table_settings(link, player_id, row)
