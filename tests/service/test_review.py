"""The review's binary search (a few verdicts, not one a move) and the "why this move"
sentences, each fact re-checked by playing the move on the engine."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime

import pytest

from app.games import game_kind
from app.games.freecell import explain as freecell_explain
from app.games.freecell import rules as freecell
from app.games.montana import explain as montana_explain
from app.games.montana import rules as montana
from app.rules.protocol import Answer, Position
from app.service import review
from app.service.model import Game, HistoryEntry
from app.service.solvers import Job, SolverBusy

NOW = datetime(2026, 1, 1, tzinfo=UTC)


class FakePool:
    """A solver pool that answers from a table of verdicts by position text, counting asks."""

    def __init__(self, verdicts: dict[str, str], busy: bool = False) -> None:
        self.verdicts, self.busy = verdicts, busy
        self.asked: list[str] = []

    def known(self, job: Job) -> object | None:
        return None

    def ask(self, job: Job, wait: float) -> object | None:
        if self.busy:
            raise SolverBusy
        self.asked.append(job.text)
        verdict = self.verdicts[job.text]
        moves = ("line",) * 3 if verdict == "solved" else ()
        return Answer(verdict, moves, 1, 0.0)  # type: ignore[arg-type]


def game_of(
    kind: str, deal: int, variant: str, moves: list[str]
) -> tuple[Game, list[HistoryEntry]]:
    rules = game_kind(kind).rules
    position = rules.new_game(deal, variant)
    entries = []
    for ply, notation in enumerate(moves, start=1):
        position = position.play(position.parse_action(notation))
        entries.append(HistoryEntry(ply, "move", notation, NOW))
    game = Game(
        "g" * 24, "p", kind, variant, deal, "lost", True, len(moves), position, None,
        position.cards_left, len(moves), 0, 0, NOW, NOW, NOW, text=position.to_text(),
    )  # fmt: skip
    return game, entries


def random_moves(position: Position, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    moves = []
    seen = {position.to_text()}
    for _ in range(count):
        legal = [
            m
            for m in position.legal_moves()
            if m.notation != "redeal" and position.play(m).to_text() not in seen
        ]
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move.notation)
        position = position.play(move)
        seen.add(position.to_text())
    return moves


@pytest.mark.parametrize("lost_from", [1, 2, 17, 40, 59, 60])
def test_the_binary_search_finds_the_first_lost_position_with_few_verdicts(lost_from: int) -> None:
    review.forget()
    line = game_kind("freecell").quick_line(freecell.new_game(5))
    assert line is not None
    game, entries = game_of("freecell", 5, "standard", list(line[:60]))
    stops = review.stops_of(game, entries)
    truth = {s.text: ("solved" if i < lost_from else "unsolvable") for i, s in enumerate(stops)}
    truth[stops[0].text] = "solved"
    pool = FakePool(truth)
    work = review._Work(game, stops, pool, time.monotonic() + 60)  # type: ignore[arg-type]
    assert work.run()
    assert len(pool.asked) <= 2 + len(stops).bit_length() + 1  # the ends, then halving
    assert [tp.index for tp in work.turning] == [lost_from]
    assert work.turning[0].step == stops[lost_from].step
    assert work.verdicts == ["winnable"] * lost_from + ["lost"] * (len(stops) - lost_from)


def test_a_deal_lost_from_the_start_names_no_turning_point() -> None:
    review.forget()
    impossible = freecell.new_game(11982)
    game, entries = game_of("freecell", 11982, "standard", random_moves(impossible, 8, 1))
    stops = review.stops_of(game, entries)
    pool = FakePool({s.text: "unsolvable" for s in stops})
    work = review._Work(game, stops, pool, time.monotonic() + 60)  # type: ignore[arg-type]
    assert work.run() and work.turning == [] and work.never == [0]


def test_unsure_verdicts_are_stepped_around_and_said_as_such() -> None:
    review.forget()
    line = game_kind("freecell").quick_line(freecell.new_game(5))
    assert line is not None
    game, entries = game_of("freecell", 5, "standard", list(line[:30]))
    stops = review.stops_of(game, entries)
    truth = {s.text: ("solved" if i < 12 else "unsolvable") for i, s in enumerate(stops)}
    truth[stops[15].text] = "unknown"
    work = review._Work(game, stops, FakePool(truth), time.monotonic() + 60)  # type: ignore[arg-type]
    assert work.run()
    assert [tp.index for tp in work.turning] == [12]
    truth.update({stops[i].text: "unknown" for i in (10, 11, 12, 13)})
    review.forget()
    work = review._Work(game, stops, FakePool(truth), time.monotonic() + 60)  # type: ignore[arg-type]
    assert work.run() and work.turning == []
    assert "unsure" in work.verdicts and work.verdicts[0] == "winnable"


def test_a_busy_pool_leaves_the_review_to_be_asked_again() -> None:
    review.forget()
    game, entries = game_of("freecell", 5, "standard", random_moves(freecell.new_game(5), 10, 3))
    stops = review.stops_of(game, entries)
    work = review._Work(game, stops, FakePool({}, busy=True), time.monotonic() + 60)  # type: ignore[arg-type]
    assert not work.run() and work.busy and set(work.verdicts) == {"pending"}


def test_montana_rounds_are_searched_each_on_its_own() -> None:
    review.forget()
    position = montana.new_game(4)  # its first round proved clearable (the shipped proofs)
    moves = random_moves(position, 500, 4)
    after = position
    for notation in moves:
        after = after.play(after.parse_action(notation))
    second = random_moves(after.play(after.parse_action("redeal")), 500, 5)
    game, entries = game_of("montana", 4, "expert", [*moves, "redeal", *second])
    stops = review.stops_of(game, entries)
    assert {s.round for s in stops} == {0, 1}
    first_round = [i for i, s in enumerate(stops) if s.round == 0]
    second_round = [i for i, s in enumerate(stops) if s.round == 1]
    lost = {first_round[len(first_round) // 2], second_round[1]}
    truth = {}
    for i, s in enumerate(stops):
        in_round = first_round if s.round == 0 else second_round
        turning = min(x for x in lost if x in in_round)
        truth[s.text] = "solved" if i < turning else "unsolvable"
    work = review._Work(game, stops, FakePool(truth), time.monotonic() + 60)  # type: ignore[arg-type]
    assert work.run()
    assert sorted(tp.index for tp in work.turning) == sorted(lost)
    assert [tp.round for tp in work.turning] == [0, 1]
    assert work.game_turning is None  # a redeal was left: whether it could save the game


def test_the_longest_stretch_that_went_nowhere() -> None:
    start = freecell.new_game(1)
    game, _ = game_of("freecell", 1, "standard", [])
    entries = [
        HistoryEntry(1, "move", "1a", NOW),
        HistoryEntry(2, "move", "2b", NOW),
        HistoryEntry(3, "undo", "undo", NOW),
        HistoryEntry(4, "undo", "undo", NOW),
        HistoryEntry(5, "resign", "resign", NOW),
    ]
    assert start.play(start.parse_action("1a")).to_text() != start.to_text()
    stretch = review.longest_stretch(game, entries)
    assert stretch == review.Stretch(0, 4)


def settled(position: freecell.FreeCellPosition) -> freecell.FreeCellPosition:
    while (move := position.automatic_move("safe")) is not None:
        position = position.play(move)
    return position


def test_freecell_facts_hold_on_the_engine() -> None:
    """Random positions met in play: every fact a sentence states is read again from the
    engine's own position after the move (and the automatic moves)."""
    rng = random.Random(41)
    checked = 0
    for deal in range(1, 60):
        position = freecell.new_game(deal)
        for _ in range(rng.randrange(0, 40)):
            legal = position.legal_moves()
            if not legal:
                break
            position = settled(position.play(rng.choice(legal)))
        for move in position.legal_moves():
            facts = freecell_explain.facts(position, move, 7)
            after = settled(position.play(move))
            assert facts.home == sum(after.foundations) - sum(position.foundations)
            for name in facts.emptied:
                index = position.variant.column_names.index(name)
                assert position.columns[index] and not after.columns[index]
            assert facts.cells_freed == after.empty_cells - position.empty_cells
            assert facts.at_once == after.max_run()
            said = freecell_explain.explain(position, move, 7)
            assert ("home" in said) == (facts.home > 0)
            assert ("empties" in said) == bool(facts.emptied)
            checked += 1
    assert checked > 200


def test_montana_facts_hold_on_the_engine() -> None:
    rng = random.Random(42)
    checked = 0
    for deal in range(1, 40):
        position = montana.new_game(deal)
        for _ in range(rng.randrange(0, 30)):
            legal = [m for m in position.legal_moves() if isinstance(m, montana.MontanaMove)]
            if not legal:
                break
            position = position.play(rng.choice(legal))
        for move in position.legal_moves():
            facts = montana_explain.facts(position, move, 3)
            after = position.play(move)
            source = position.where(move.card)
            assert after.cells[source] is None and montana.cell_name(source) == facts.gap
            assert facts.in_place == after.in_place(move.cell)
            assert facts.score == after.score
            fits = [m.card for m in after.moves_to(source)]
            if facts.wants is not None:
                assert fits in ([facts.wants], [])  # the card wanted, unless it is in place
            elif facts.any_two:
                assert all(card.rank == 2 for card in fits)
            else:
                assert fits == []
            assert ("in place" in montana_explain.explain(position, move)) or not facts.in_place
            checked += 1
    assert checked > 100


class SearchingPool:
    """A solver pool that searches in this process, as a solver process does (one memory of
    searches), counting its asks."""

    def __init__(self, kind: str) -> None:
        self.searches = game_kind(kind).searches()
        self.kind = kind
        self.asked = 0

    def known(self, job: Job) -> object | None:
        return None

    def ask(self, job: Job, wait: float) -> object | None:
        self.asked += 1
        return self.searches.answer(game_kind(self.kind).rules.parse(job.text), 15_000)


def whole_game(deal: int, moves: list[str]) -> review._Work:
    review.forget()
    game, entries = game_of("montana", deal, "expert", moves)
    stops = review.stops_of(game, entries)
    work = review._Work(game, stops, SearchingPool("montana"), time.monotonic() + 120)  # type: ignore[arg-type]
    assert work.run()
    return work


def test_the_redeal_that_lost_the_whole_game_is_named() -> None:
    # Deal 16: the round after one redeal can be cleared, the one after a second cannot, and
    # no redeal is left then: redealing again lost the whole game.
    start = montana.new_game(16).redeal().redeal()
    work = whole_game(16, ["redeal", "redeal", *random_moves(start, 200, 16)])
    assert work.verdicts[:3] == ["winnable", "winnable", "lost"]
    assert work.never == [2] and work.turning == []
    point = work.game_turning
    assert point is not None and (point.index, point.step) == (2, 2)
    before = work.stops[1].position
    assert point.kept in {m.notation for m in before.legal_moves()}  # clears round 1 instead


def test_a_bad_move_with_no_redeal_left_lost_the_whole_game() -> None:
    # Deal 15 after two redeals (none left) can be cleared: five moves of the solver's
    # line, then 8♣ to B11, after which the round, and so the game, is lost.
    start = montana.new_game(15).redeal().redeal()
    line = game_kind("montana").searches().answer(start, 15_000).moves
    position, moves = start, ["redeal", "redeal", *line[:5]]
    for notation in line[:5]:
        position = position.play(position.parse_action(notation))
    after = position.play(position.parse_action("8C B11"))
    moves += ["8C B11", *random_moves(after, 200, 15)]
    work = whole_game(15, moves)
    assert [tp.index for tp in work.turning] == [8]  # the deal, two redeals, five moves
    assert work.game_turning is not None and work.game_turning.index == 8
    assert work.game_turning.kept == line[5]  # the line's next move kept it winnable
