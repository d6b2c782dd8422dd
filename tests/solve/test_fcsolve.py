"""fc-solve's library in process: boards in, lines out through our rules, honest verdicts."""

from __future__ import annotations

import logging

import pytest

from app.cli import main
from app.games.freecell import fcsolve, hints
from app.games.freecell import rules as freecell
from app.games.freecell.solver import replay_wins
from app.rules.protocol import Hint, IllegalMoveError
from app.solve import memory

needs_library = pytest.mark.skipif(
    not fcsolve.available(), reason="fc-solve's library (libfreecell-solver0) is not installed"
)

MID_GAME = """\
Foundations: H-0 C-3 D-A S-A
Freecells: - 3D 4H JS
: JD KD 2S 4C 3S 6D 6S
: 2D KC KS 5C TD 8S 9C 8H 7S
: 9H 9S 9D TS 4S 8D 2H
: JC 5S QD QH TH QS 6H
: 8C 7D 6C 5D
: 7H QC
: 7C KH AH 4D JH TC
: 5H 3H
"""


def test_a_mid_game_board_is_written_as_fc_solve_reads_it() -> None:
    position = freecell.parse(MID_GAME)
    text = fcsolve.board_text(position)
    assert text.splitlines()[:2] == ["Foundations: H-0 C-3 D-A S-A", "Freecells: - 3D 4H JS"]
    assert text.splitlines()[2] == ": JD KD 2S 4C 3S 6D 6S"
    assert freecell.parse(text) == position  # the same board, read back by our parser


def test_a_variant_board_leaves_out_our_variant_line() -> None:
    position = freecell.new_game(1, "seahaven")
    text = fcsolve.board_text(position)
    assert "Variant" not in text
    assert text.splitlines()[1] == "Freecells: - 2H 6H -"
    assert len(text.splitlines()) == 2 + 10


@pytest.mark.parametrize(
    ("variant", "cells", "stacks", "suit", "kings", "preset"),
    [
        ("standard", 4, 8, False, False, "freecell"),
        ("bakers", 4, 8, True, False, "bakers_game"),
        ("cells-3", 3, 8, False, False, None),
        ("cells-2", 2, 8, False, False, None),
        ("cells-1", 1, 8, False, False, None),
        ("eight-off", 8, 8, True, True, "eight_off"),
        ("seahaven", 4, 10, True, True, "seahaven_towers"),
        ("forecell", 4, 8, False, True, "forecell"),
    ],
)
def test_each_variant_maps_to_fc_solves_own_settings(
    variant: str, cells: int, stacks: int, suit: bool, kings: bool, preset: str | None
) -> None:
    # fc-solve's presets (scripts/gen-presets.pl): bakers_game = freecell + suit;
    # eight_off = kings_only_bakers_game + 8 cells; seahaven_towers = bakers_game + kings
    # only + 10 stacks; forecell = freecell + kings only; all with the limited sequence
    # move, which is (cells + 1) << empty columns when any card fills one, and cells + 1
    # when only kings do.
    rules = freecell.variant_named(variant)
    settings = fcsolve.settings_for(rules)
    assert settings.freecells == cells and settings.stacks == stacks
    assert settings.built_by == (
        fcsolve.BUILT_BY_SUIT if suit else fcsolve.BUILT_BY_ALTERNATE_COLOR
    )
    assert settings.empty_filled_by == (
        fcsolve.FILLED_BY_KINGS_ONLY if kings else fcsolve.FILLED_BY_ANY_CARD
    )
    assert settings.unlimited_sequence_move is False
    assert rules.doubling is not kings  # our supermove rule agrees with fc-solve's
    assert settings.preset == preset
    assert fcsolve.settings_for(rules, freecells=0).freecells == 0
    # The deal's last cards in the free cells as PySol (and fc-solve's board generator,
    # make_pysol_freecell_board.py) lay them out: Eight Off a card in every other cell
    # from the first, Seahaven Towers the second and third, Forecell all four.
    dealt = {"eight-off": (0, 2, 4, 6), "seahaven": (1, 2), "forecell": (0, 1, 2, 3)}
    assert rules.dealt_cells == dealt.get(variant, ())


@needs_library
@pytest.mark.parametrize(
    "preset", ["freecell", "bakers_game", "eight_off", "seahaven_towers", "forecell"]
)
def test_fc_solves_game_presets_exist(preset: str) -> None:
    lib = fcsolve.library()
    assert lib is not None
    with fcsolve.Instance(lib) as instance:
        instance.apply_preset(preset)
        with pytest.raises(fcsolve.LibraryError):
            instance.apply_preset("no_such_game")


@needs_library
@pytest.mark.parametrize("variant", freecell.VARIANTS)
def test_deal_1_of_every_variant_replays_through_our_rules(variant: str) -> None:
    start = freecell.new_game(1, variant)
    answer = fcsolve.solve(start, fcsolve.Budget(seconds=60))
    if variant in ("cells-1", "cells-2", "forecell"):
        # Proved by the atomic scan (ours agrees); Forecell's deal #1 has no move at all.
        assert answer.verdict == "unsolvable"
        return
    assert answer.verdict == "solved"
    assert replay_wins(start, answer.moves)  # with automatic moves off: they are in the line


@needs_library
def test_deal_10028_is_solved_quickly_and_11982_proved_unsolvable() -> None:
    quick = fcsolve.solve(freecell.new_game(10028), fcsolve.Budget(seconds=60))
    assert quick.verdict == "solved" and quick.positions < 50_000
    assert replay_wins(freecell.new_game(10028), quick.moves)
    proof = fcsolve.solve(freecell.new_game(11982), fcsolve.Budget(seconds=60))
    assert proof.verdict == "unsolvable" and proof.moves == ()


@needs_library
def test_a_meta_move_scan_that_runs_out_proves_nothing() -> None:
    lib = fcsolve.library()
    assert lib is not None
    start = freecell.new_game(11982)
    settings = fcsolve.settings_for(start.variant)
    board = fcsolve.board_text(start)
    fast = fcsolve.search(
        lib, board, settings, fcsolve.FAST_ARGS, max_iterations=2000, max_seconds=60
    )
    assert fast.status == "stopped"  # out of iterations: not a verdict
    tiny = fcsolve.Budget(seconds=60, fast_iterations=100, atomic_iterations=100)
    assert fcsolve.solve(start, tiny).verdict == "unknown"


@needs_library
def test_a_mid_game_position_solves_from_where_it_stands() -> None:
    position = freecell.parse(MID_GAME)
    answer = fcsolve.solve(position, fcsolve.Budget(seconds=60))
    assert answer.verdict == "solved"
    assert replay_wins(position, answer.moves)


def test_moves_of_cards_our_game_already_sent_home_are_skipped() -> None:
    # fc-solve sends the hearts home one by one; our game sends each (safe) at once.
    near = freecell.parse(
        """\
Foundations: H-A C-K D-K S-K
: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
"""
    )
    raw = [fcsolve.RawMove(fcsolve.STACK_TO_FOUNDATION, 0, 0, 1)] * 12
    line = fcsolve.replay(near, raw)
    assert line == tuple(["1h"] * 12)  # each sent home once: by our automatic moves
    with pytest.raises(fcsolve.ReplayError):
        fcsolve.replay(near, [fcsolve.RawMove(fcsolve.FREECELL_TO_FOUNDATION, 2, 0, 1)])


def _seahaven_with(run: str, onto: str) -> freecell.FreeCellPosition:
    """Seahaven with two empty free cells, one empty column, ``run`` in column 1 and
    ``onto`` in column 2 (the other spades in column 9)."""
    spades = [f"{rank}S" for rank in "23456789TJQK"]
    rest = [card for card in spades if card not in (run + " " + onto).split()]
    tail = (
        ("2H", "3H", "4H", "5H", "6H", "7H"),
        ("8H", "9H", "TH", "JH", "QH", "KH"),
        ("2D", "3D", "4D", "5D", "6D", "7D"),
        ("8D", "9D", "TD", "JD", "QD", "KD"),
        ("4C", "5C", "6C", "7C", "8C", "9C"),
        ("TC", "JC", "QC", "KC", "AS"),
        tuple(rest),
    )
    text = f"Variant: seahaven\nFoundations: C-2\nFreecells: AH AD - -\n: {run}\n: 3C {onto}\n"
    return freecell.parse(text + "".join(f": {' '.join(cards)}\n" for cards in tail))


def test_a_run_longer_than_our_supermove_does_not_replay() -> None:
    # Seahaven: empty columns do not double a supermove (only kings fill them): with two
    # empty free cells a run of 3 moves as one, a run of 4 is refused (fc-solve's limit
    # is the same: such a line would be a bug).
    line: list[str] = []
    after = fcsolve._play(_seahaven_with("5S 4S 3S", "6S"), "1", "2", 3, line)
    assert line == ["12"]
    assert [card.text for card in after.columns[1]] == ["3C", "6S", "5S", "4S", "3S"]
    with pytest.raises(IllegalMoveError):
        fcsolve._play(_seahaven_with("6S 5S 4S 3S", "7S"), "1", "2", 4, [])


@needs_library
def test_a_nearly_won_position_and_the_hint_that_finishes_it() -> None:
    nearly = freecell.parse("Foundations: H-K C-K D-Q S-Q\n: KD\n: KS\n")
    assert fcsolve.board_text(nearly).startswith("Foundations: H-K C-K D-Q S-Q\n")
    answer = fcsolve.solve(nearly, fcsolve.Budget(seconds=60))
    assert answer.verdict == "solved" and replay_wins(nearly, answer.moves)
    assert hints.hint(nearly, 900) == Hint(answer.moves[0], True)


@needs_library
def test_a_position_proved_lost_gets_a_sure_hint_that_no_move_helps() -> None:
    assert hints.hint(freecell.new_game(11982), 10_000) == Hint(None, True)


def test_without_the_library_our_own_search_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fcsolve.DISABLE_ENV, "off")
    assert fcsolve.library() is None and not fcsolve.available()
    assert "Python search" in fcsolve.engine_name()

    def no_library(*_: object, **__: object) -> None:
        raise AssertionError("the library was called")

    monkeypatch.setattr(fcsolve, "solve", no_library)
    start = freecell.new_game(1)
    answer = hints.answer(start, 10_000)
    assert answer.verdict == "solved" and replay_wins(start, answer.moves)
    suggestion = hints.hint(start, 10_000)
    assert suggestion.sure and suggestion.move == answer.moves[0]


@needs_library
@pytest.mark.parametrize("failure", [fcsolve.LibraryError, fcsolve.ReplayError])
def test_a_library_failure_is_logged_and_our_own_search_answers(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, failure: type[Exception]
) -> None:
    def failing(*_: object, **__: object) -> None:
        raise failure("refused")

    monkeypatch.setattr(fcsolve, "solve", failing)
    start = freecell.new_game(1)
    with caplog.at_level(logging.ERROR, logger="solitaire.freecell"):
        answer = hints.answer(start, 10_000)
    assert answer.verdict == "solved" and replay_wins(start, answer.moves)
    assert "fc-solve failed us" in caplog.text and "refused" in caplog.text


@needs_library
def test_a_board_the_library_refuses_is_our_error_not_a_verdict() -> None:
    lib = fcsolve.library()
    assert lib is not None
    start = freecell.new_game(1)
    board = fcsolve.board_text(start).replace("JD", "QD", 1)  # two queens of diamonds
    scan = fcsolve.search(
        lib,
        board,
        fcsolve.settings_for(start.variant),
        fcsolve.FAST_ARGS,
        max_iterations=1000,
        max_seconds=10,
    )
    assert scan.status == "refused" and scan.error


def test_doctor_says_which_freecell_solver_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor"]) == 0
    found = "fc-solve's library 5." if fcsolve.available() else "the Python search"
    assert f"FreeCell solver: {found}" in capsys.readouterr().out
    monkeypatch.setenv(fcsolve.DISABLE_ENV, "off")
    assert main(["doctor"]) == 0
    assert "FreeCell solver: the Python search (fc-solve's" in capsys.readouterr().out


@needs_library
def test_a_classifier_gives_verdicts_board_after_board() -> None:
    standard = freecell.variant_named("standard")
    deals = (1, 11982, 617, 10028)
    with (
        fcsolve.Classifier(standard) as checked,
        fcsolve.Classifier(standard, check=False) as quick,
    ):
        for deal in deals:
            start = freecell.new_game(deal)
            line = checked.classify(start, fcsolve.Budget(seconds=60))
            word = quick.classify(start, fcsolve.Budget(seconds=60))
            assert line.verdict == word.verdict == ("unsolvable" if deal == 11982 else "solved")
            assert word.moves == ()
            assert line.verdict == "unsolvable" or replay_wins(start, line.moves)
        with pytest.raises(fcsolve.LibraryError):
            quick.classify(freecell.new_game(1, "bakers"), fcsolve.Budget(seconds=60))


@needs_library
def test_a_deal_played_with_fewer_free_cells() -> None:
    # Deal #1 with no free cell is proved impossible (with 2 too: the cells-2 variant);
    # with three its line uses cells a-c only, and replays in the standard game.
    standard = freecell.variant_named("standard")
    start = freecell.new_game(1)
    assert fcsolve.board_text(start, 1).splitlines()[1] == "Freecells: -"
    assert fcsolve.board_text(start, 0).splitlines()[1] == "Freecells: "
    verdicts = []
    for cells in (0, 3):
        with fcsolve.Classifier(standard, freecells=cells) as classifier:
            answer = classifier.classify(start, fcsolve.Budget(seconds=60))
        verdicts.append(answer.verdict)
        if answer.verdict == "solved":
            assert replay_wins(start, answer.moves)
            used = {move[1] for move in answer.moves} | {move[0] for move in answer.moves}
            assert not used & set("abcd"[cells:])
    assert verdicts == ["unsolvable", "solved"]
    with pytest.raises(ValueError, match="beyond the 2"):
        fcsolve.board_text(freecell.parse(MID_GAME), 2)  # cells c and d hold cards


@needs_library
def test_a_scan_stops_at_the_processs_memory_bound() -> None:
    # Deal #617's single-card scan stores 237,000 positions (about 140 MiB) before its line.
    lib = fcsolve.library()
    assert lib is not None
    start = freecell.new_game(617)
    try:
        memory.limit(memory.resident_bytes() + 16 * 1024 * 1024)
        left = fcsolve.states_left()
        assert left < 40_000
        scan = fcsolve.search(
            lib,
            fcsolve.board_text(start),
            fcsolve.settings_for(start.variant),
            fcsolve.ATOMIC_ARGS,
            max_iterations=10_000_000,
            max_seconds=600,
            max_states=left,
        )
        assert scan.status == "stopped" and scan.iterations < 100_000
        budget = fcsolve.Budget(seconds=600, fast_iterations=10)
        assert fcsolve.solve(start, budget).verdict == "unknown"  # not sure, within bounds
    finally:
        memory.limit(None)
    assert fcsolve.states_left() == fcsolve.UNBOUNDED_STATES  # the command line's bound


def test_a_sure_hint_is_kept_and_an_unsure_one_searched_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = iter([Hint("1a", False), Hint("1b", True)])
    asked: list[str] = []

    def fake(position: freecell.FreeCellPosition, budget_ms: int) -> Hint:
        asked.append(position.to_text())
        return next(answers)

    monkeypatch.setattr(hints, "hint", fake)
    searches = hints.FreeCellSearches()
    start = freecell.new_game(5)
    assert searches.hint(start, 900) == Hint("1a", False)
    assert searches.hint(start, 900) == Hint("1b", True)  # searched again
    assert searches.hint(start, 900) == Hint("1b", True)  # kept
    assert len(asked) == 2
    searches.forget()


@needs_library
def test_fc_solves_solution_optimisation_gives_a_line_that_wins() -> None:
    start = freecell.new_game(1)
    with fcsolve.Classifier(start.variant, optimize=True) as classifier:
        answer = classifier.classify(start, fcsolve.Budget(seconds=60))
    assert answer.verdict == "solved" and replay_wins(start, answer.moves)
