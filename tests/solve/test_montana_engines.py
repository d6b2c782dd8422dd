"""Montana's two engines, the compiled round search and the Python one, answer alike.

Both search the same moves in the same order and stop at the same position count, so on a
budget of positions (not seconds) they give the same verdict, line, score and count; a
line the compiled core returns is replayed through the rules before anyone sees it.
"""

from __future__ import annotations

import logging
import random
import subprocess
import sys

import pytest

from app.games.montana import rules as montana
from app.games.montana import solver
from app.rules.protocol import Answer

core = pytest.importorskip("app.games.montana._search", reason="the compiled search is not built")

NODES = 3000
"""Positions each search may take here: enough to finish many rounds, and to stop others."""


def in_play(deal: int, variant: str, moves: int) -> montana.MontanaPosition:
    """The position after ``moves`` random legal moves (a redeal when stuck)."""
    draw = random.Random(deal * 7919 + moves)
    position = montana.new_game(deal, variant)
    for _ in range(moves):
        legal = position.legal_moves()
        if legal:
            position = position.play(draw.choice(legal))
        elif position.can_redeal():
            position = position.redeal()
        else:
            break
    return position


POSITIONS = [
    (variant, deal, moves)
    for variant in montana.VARIANTS
    for deal in range(1, 26)
    for moves in (0, deal % 7 * 6 + 4)
]
"""200 positions: 25 deal starts and 25 positions met in play of each variant."""


def both(position: montana.MontanaPosition, nodes: int = NODES) -> tuple[Answer, Answer]:
    python = solver.RoundSearch(position).run(max_seconds=600, max_nodes=nodes)
    compiled = solver.CompiledSearch(position).run(max_seconds=600, max_nodes=nodes)
    return python, compiled


def same(python: Answer, compiled: Answer) -> bool:
    return (python.verdict, python.moves, python.best_score, python.positions) == (
        compiled.verdict,
        compiled.moves,
        compiled.best_score,
        compiled.positions,
    )


def test_both_engines_answer_alike_on_200_positions() -> None:
    verdicts = set()
    for variant, deal, moves in POSITIONS:
        python, compiled = both(in_play(deal, variant, moves))
        assert same(python, compiled), (variant, deal, moves, python, compiled)
        verdicts.add(python.verdict)
    assert verdicts == {"solved", "unsolvable", "unknown"}  # the sample meets every answer


@pytest.mark.parametrize(("deal", "variant"), [(10, "expert"), (6, "blue-moon"), (3, "red-moon")])
def test_both_engines_carry_on_alike(deal: int, variant: str) -> None:
    # Stopped, resumed, moved on along the suggested move: the same at every step.
    start = montana.new_game(deal, variant)
    python, compiled = solver.RoundSearch(start), solver.CompiledSearch(start)
    for _ in range(3):
        answers = [s.run(max_seconds=600, max_nodes=2000) for s in (python, compiled)]
        assert same(*answers)
        if answers[0].verdict != "unknown":
            return
        python.advance()
        compiled.advance()
        after = start.play(start.parse_action(answers[0].moves[0]))
        assert python.is_at(after) and compiled.is_at(after)
        assert not compiled.is_at(start)
        start = after


def test_the_compiled_search_finishes_what_the_python_one_finishes() -> None:
    # Deal 10's round, searched to its end by both: the same proof and best line.
    python, compiled = both(montana.new_game(10), nodes=10**7)
    assert python.verdict == "unsolvable"
    assert same(python, compiled)


def test_a_bad_line_from_the_core_is_refused_and_the_python_search_answers(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    position = montana.new_game(1)
    search = solver.CompiledSearch(position)
    monkeypatch.setattr(
        search, "core", _Lying(search.core, [(montana.Card.parse("KS").index, 0)])
    )  # KS into A1: never legal
    with caplog.at_level(logging.ERROR, logger="solitaire.montana"):
        answer = search.run(max_seconds=600, max_nodes=NODES)
    assert "the rules refuse" in caplog.text
    assert search.python is not None
    assert same(answer, solver.RoundSearch(position).run(max_seconds=600, max_nodes=NODES))


class _Lying:
    """A compiled search that claims a line the rules refuse."""

    def __init__(self, real: object, line: list[tuple[int, int]]) -> None:
        self.real, self.line = real, line
        self.nodes, self.seen_bytes = 1, 0

    def run(self, *args: object) -> str:
        return "done"

    def result(self) -> tuple[str, list[tuple[int, int]], int]:
        return "solved", self.line, 48


def test_the_seen_table_stays_within_the_bytes_it_is_given() -> None:
    search = core.Search(solver.board_of(montana.new_game(3)), (bytes(solver.TWOS),) * 4, False)
    stopped = search.run(600.0, 10**9, 4 * 1024 * 1024)
    assert stopped == "room"
    assert search.seen_bytes <= 4 * 1024 * 1024
    assert search.result()[0] is None  # not sure
    assert search.run(600.0, 10**9, 1 << 30) == "done"  # given room, it carries on to the end
    assert search.result()[0] == "unsolvable"


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (bytes(52), "48 cards"),
        (bytes([255] * 52), "48 cards"),
        (bytes(range(4, 52)) + bytes([255] * 3), "48 cards"),
        (bytes(range(4, 52)) + bytes([255] * 3) + b"\x04", "48 cards"),
    ],
)
def test_the_core_refuses_a_board_that_is_not_montana(cells: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        core.Search(cells, (bytes(solver.TWOS),) * 4, False)


def test_the_core_refuses_rows_without_their_twos() -> None:
    board = solver.board_of(montana.new_game(1))
    for twos in [(b"",) * 4, (b"\x08",) * 4, (bytes(solver.TWOS),) * 3]:
        with pytest.raises(ValueError, match="twos"):
            core.Search(board, twos, False)


def engine_in_a_fresh_process(code: str, **environment: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**__import__("os").environ, **environment},
    )
    return done.stdout.strip()


SEARCH_DEAL_10 = (
    "from app.games.montana import solver, rules; "
    "answer = solver.search(rules.new_game(10), max_seconds=600, max_nodes=4000); "
    "print(solver.ENGINE, answer.verdict, answer.best_score, answer.positions)"
)


def test_the_environment_can_ask_for_the_python_engine() -> None:
    forced = engine_in_a_fresh_process(SEARCH_DEAL_10, SOLITAIRE_MONTANA_ENGINE="python")
    default = engine_in_a_fresh_process(SEARCH_DEAL_10)
    assert forced.split()[0] == "python"
    assert default.split()[0] == "compiled"
    assert forced.split()[1:] == default.split()[1:]


def test_without_the_compiled_search_the_python_one_runs() -> None:
    # As on a machine without a C compiler: the module cannot be imported.
    missing = "import sys; sys.modules['app.games.montana._search'] = None; " + SEARCH_DEAL_10
    assert engine_in_a_fresh_process(missing).split()[0] == "python"


def test_the_compiled_search_stops_where_the_process_memory_limit_says() -> None:
    from app.solve import memory

    memory.limit(memory.resident_bytes() // 2)  # already past it: no room to grow, and full
    try:
        answer = solver.CompiledSearch(montana.new_game(3)).run(max_seconds=600)
    finally:
        memory.limit(None)
    assert answer.verdict == "unknown"
    assert answer.positions <= memory.CHECK_EVERY + 1


@pytest.mark.parametrize("engine", [solver.RoundSearch, solver.CompiledSearch])
def test_a_restarted_search_skips_what_was_proved_lost_and_answers_as_a_fresh_one(
    engine: type[solver.Search],
) -> None:
    # Deal 15 after two redeals: five moves of its clearing line, then 8C B11 loses it.
    start = montana.new_game(15).redeal().redeal()
    line = solver.search(start, max_seconds=60).moves
    positions = [start]
    for notation in [*line[:5], "8C B11", "7S A1", "2C A1"]:
        at = positions[-1]
        if notation in {m.notation for m in at.legal_moves()}:
            positions.append(at.play(at.parse_action(notation)))
    order = [len(positions) - 1, 6, 5, 6, 3, len(positions) - 1, 2]
    search = engine(positions[order[0]])
    for step, index in enumerate(order):
        if step:
            search = search.restart(positions[index])
        found = search.run(max_seconds=60)
        fresh = engine(positions[index]).run(max_seconds=60)
        assert found.verdict == fresh.verdict == ("solved" if index <= 5 else "unsolvable")
        if found.verdict == "solved":  # a clearing line, replayed through the rules
            at = positions[index]
            for notation in found.moves:
                at = at.play(at.parse_action(notation))
            assert at.is_won()
    proved = engine(positions[6])
    proved.run(max_seconds=60)
    again = proved.restart(positions[6]).run(max_seconds=60)
    assert (again.verdict, again.positions) == ("unsolvable", 1)  # its root was proved lost
