"""Par: the shortest line known for a FreeCell deal, kept per deal."""

from __future__ import annotations

import pytest

from app import service
from app.games import game_kind
from app.games.freecell.hints import shortest_answer
from app.service import pars
from app.store import Database
from app.store import pars as store_pars

RULES = game_kind("freecell").rules


def _line(deal: int) -> tuple[str, ...]:
    answer = shortest_answer(RULES.new_game(deal, "standard"), 15_000)
    assert answer.verdict == "solved"
    return answer.moves


def test_a_solver_line_for_deal_1_is_counted_and_kept(db: Database) -> None:
    line = _line(1)
    moves = pars.counted(RULES.new_game(1, "standard"), line)
    assert 0 < moves <= len(line)
    assert pars.offer_solver_line(db=db, variant="standard", deal=1, line=line)
    assert pars.known(db=db, variant="standard", deal=1) == pars.Par(moves, "solver")
    # The same line again is no shorter: the par stays.
    assert not pars.offer_solver_line(db=db, variant="standard", deal=1, line=line)


def test_a_line_that_does_not_win_is_never_kept(db: Database) -> None:
    line = _line(1)
    with pytest.raises(pars.BadLine):
        pars.offer_solver_line(db=db, variant="standard", deal=1, line=line[:-3])
    with pytest.raises(pars.BadLine):
        pars.offer_solver_line(db=db, variant="standard", deal=1, line=("zz", *line))
    with pytest.raises(pars.BadLine):
        pars.offer_solver_line(db=db, variant="standard", deal=2, line=line)
    assert pars.known(db=db, variant="standard", deal=1) is None
    assert pars.known(db=db, variant="standard", deal=2) is None


def _win(db: Database, line: tuple[str, ...]) -> str:
    """Plays ``line`` on deal #1 as a player would: the game sends the safe cards home."""
    player = service.ensure_player(db=db, player_id=None)
    game = service.start(db=db, player_id=player, kind="freecell", variant="standard", deal=1)
    position = RULES.new_game(1, "standard")
    for text in line:
        automatic = position.automatic_move("safe")
        if automatic is not None and automatic.notation == text:
            position = position.play(automatic)
            continue
        position = position.play(position.parse_action(text))
        game = service.act(db=db, game_id=game.id, action=text, version=game.version)
    assert service.load(db=db, game_id=game.id).status == "won"
    return game.id


def test_a_player_shorter_than_par_becomes_par_and_a_longer_one_does_not(db: Database) -> None:
    line = _line(1)
    moves = pars.counted(RULES.new_game(1, "standard"), line)
    with db.write() as session:  # a longer line known before
        store_pars.keep(
            session,
            "freecell",
            "standard",
            1,
            moves=moves + 5,
            line=" ".join(line),
            source="solver",
        )
    game_id = _win(db, line)
    assert pars.offer_game(db=db, game_id=game_id)
    assert pars.known(db=db, variant="standard", deal=1) == pars.Par(moves, "player")
    with db.read() as session:
        row = store_pars.par(session, "freecell", "standard", 1)
        assert row is not None and row.game_id == game_id
        assert pars.counted(RULES.new_game(1, "standard"), row.line.split()) == moves
    # The same line again, by another player: not shorter, the first player keeps par.
    again = _win(db, line)
    assert not pars.offer_game(db=db, game_id=again)
    with db.read() as session:
        row = store_pars.par(session, "freecell", "standard", 1)
        assert row is not None and row.game_id == game_id


def test_a_game_not_won_is_never_par(db: Database) -> None:
    player = service.ensure_player(db=db, player_id=None)
    game = service.start(db=db, player_id=player, kind="freecell", variant="standard", deal=1)
    assert not pars.offer_game(db=db, game_id=game.id)
    assert not pars.offer_game(db=db, game_id="nothing-here")
    assert pars.known(db=db, variant="standard", deal=1) is None
