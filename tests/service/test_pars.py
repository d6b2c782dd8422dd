"""Par: the shortest line known for a FreeCell deal, kept per deal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app import service
from app.games import game_kind
from app.games.freecell import fcsolve
from app.games.freecell.hints import shortest_answer
from app.rules.protocol import Answer, Position
from app.service import pars
from app.service.solvers import Job, SolverPool
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
    position, moved = RULES.new_game(1, "standard"), False
    for text in line:
        automatic = position.automatic_move("safe") if moved else None
        if automatic is not None and automatic.notation == text:
            position = position.play(automatic)
            continue
        position, moved = position.play(position.parse_action(text)), True
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


@pytest.fixture
def pool() -> Iterator[SolverPool]:
    solvers = SolverPool(workers=1, queue=2, waiters=4, par_wait=120.0)
    yield solvers
    solvers.close()


def test_a_deals_par_is_searched_in_the_pool_replayed_and_kept(
    db: Database, pool: SolverPool
) -> None:
    found = pars.deal_par(db=db, solvers=pool, variant="eight-off", deal=2)
    assert found is not None and found.moves is not None and not found.working
    with db.read() as session:
        row = store_pars.par(session, "freecell", "eight-off", 2)
        assert row is not None and row.source == "solver" and row.moves == found.moves
        start = RULES.new_game(2, "eight-off")
        assert pars.counted(start, row.line.split()) == row.moves
    # Kept: a pool that cannot search any more still answers it.
    pool.close()
    assert pars.deal_par(db=db, solvers=pool, variant="eight-off", deal=2) == found


def test_a_deal_proved_impossible_has_no_par(db: Database, pool: SolverPool) -> None:
    assert pars.deal_par(db=db, solvers=pool, variant="standard", deal=11982) is None
    assert pars.known(db=db, variant="standard", deal=11982) is None


def test_a_par_not_found_within_the_wait_is_being_worked_out(db: Database) -> None:
    solvers = SolverPool(workers=1, queue=2, waiters=4, par_wait=0.0)
    try:
        assert pars.deal_par(db=db, solvers=solvers, variant="standard", deal=3) == pars.DealPar(
            None
        )
        assert pars.known(db=db, variant="standard", deal=3) is None
    finally:
        solvers.close()


def test_a_win_is_measured_against_par_and_a_shorter_one_takes_it(
    db: Database, pool: SolverPool
) -> None:
    line = _line(1)
    moves = pars.counted(RULES.new_game(1, "standard"), line)
    slow = _win(db, line)  # the line card by card: as many moves as par, or more
    game = service.load(db=db, game_id=slow)
    said = pars.after_win(db=db, solvers=pool, game=game)
    solver_par = pars.known(db=db, variant="standard", deal=1)
    assert solver_par is not None and solver_par.source == "solver"
    assert said == pars.WinPar(game.moves_count, solver_par.moves)
    assert game.moves_count >= solver_par.moves
    with db.write() as session:  # a longer par known before the next win
        row = store_pars.par(session, "freecell", "standard", 1)
        assert row is not None
        row.moves = moves + 9
    fast = service.load(db=db, game_id=_win(db, line))
    assert pars.after_win(db=db, solvers=pool, game=fast) == pars.WinPar(
        fast.moves_count, moves + 9, new=True
    )
    # Asked again (the page seen again): the same words, the par it beat kept.
    assert pars.after_win(db=db, solvers=pool, game=fast) == pars.WinPar(
        fast.moves_count, moves + 9, new=True
    )
    assert pars.known(db=db, variant="standard", deal=1) == pars.Par(fast.moves_count, "player")
    # The first game, seen again, is measured against the new par.
    assert pars.after_win(db=db, solvers=pool, game=game) == pars.WinPar(
        game.moves_count, fast.moves_count
    )


def test_first_pars_offered_at_once_keep_one_and_fail_none(db: Database) -> None:
    from concurrent.futures import ThreadPoolExecutor

    line = _line(1)
    with ThreadPoolExecutor(4) as threads:
        kept = list(
            threads.map(
                lambda _: pars.offer_solver_line(db=db, variant="standard", deal=1, line=line),
                range(8),
            )
        )
    assert kept.count(True) == 1
    assert pars.known(db=db, variant="standard", deal=1) is not None


def test_a_win_before_the_par_is_known_says_so_and_a_later_view_measures_it(
    db: Database, pool: SolverPool
) -> None:
    line = _line(1)
    game = service.load(db=db, game_id=_win(db, line))
    waiting = SolverPool(workers=1, queue=2, waiters=4, par_wait=0.0)
    try:
        said = pars.after_win(db=db, solvers=waiting, game=game)
    finally:
        waiting.close()
    assert said == pars.WinPar(game.moves_count, None, working=True)
    assert pars.known(db=db, variant="standard", deal=1) is None  # nothing kept meanwhile
    said = pars.after_win(db=db, solvers=pool, game=game)
    par = pars.known(db=db, variant="standard", deal=1)
    assert par is not None and par.source == "solver"
    assert said == pars.WinPar(game.moves_count, par.moves)


def test_a_par_search_runs_on_the_verdicts_workers_never_a_pool_of_its_own() -> None:
    solvers = SolverPool(workers=1, queue=2, waiters=4)
    try:
        job = Job("par", "freecell", RULES.new_game(2, "eight-off").to_text())
        answer = solvers.ask(job, 120.0)
        assert isinstance(answer, Answer) and answer.verdict == "solved"
        assert set(solvers._executors) == {"answer"}
        assert solvers.known(job) == answer  # kept: asking again does not search
        start = RULES.new_game(2, "eight-off")
        assert pars.counted(start, answer.moves) <= pars.counted(start, _plain(start))
    finally:
        solvers.close()


def _plain(start: Position) -> tuple[str, ...]:
    """fc-solve's plain line (no solution optimisation)."""
    return fcsolve.solve(start, fcsolve.Budget(seconds=30)).moves  # type: ignore[arg-type]
