"""Both FreeCell engines, fc-solve's library and our own search, on the same deals of
every variant: a verdict of one is never contradicted by the other, and each line wins."""

from __future__ import annotations

import pytest

from app.games.freecell import fcsolve, hints
from app.games.freecell import rules as freecell
from app.games.freecell.hints import python_answer
from app.games.freecell.solver import replay_wins

DEALS = range(1, 21)
PYTHON_MS = 1_000
"""Our search's budget a deal: most deals are solved or proved within it; one that is
not ("unknown") contradicts nothing."""


@pytest.mark.skipif(not fcsolve.available(), reason="fc-solve's library is not installed")
@pytest.mark.parametrize("variant", freecell.VARIANTS)
def test_both_engines_agree_on_every_variant(variant: str) -> None:
    rules = freecell.variant_named(variant)
    both = 0
    with fcsolve.Classifier(rules) as library:
        for deal in DEALS:
            start = freecell.new_game(deal, variant)
            theirs = library.classify(start, fcsolve.Budget(seconds=60))
            ours = python_answer(start, PYTHON_MS)
            assert theirs.verdict != "unknown", f"{variant} #{deal}"
            if ours.verdict != "unknown":
                assert ours.verdict == theirs.verdict, f"{variant} #{deal}"
                both += 1
            for answer in (theirs, ours):
                assert answer.verdict != "solved" or replay_wins(start, answer.moves)
    assert both >= len(DEALS) // 2  # (most deals: a verdict from both)


@pytest.mark.skipif(not fcsolve.available(), reason="fc-solve's library is not installed")
@pytest.mark.parametrize("deal", [2, 3, 9, 10])
def test_forecell_hints_agree_with_fc_solve_off_and_on(
    deal: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Forecell hint from fc-solve's forecell preset and one from our own search (the
    library switched off, as on a machine without it): each starts a winning line, or both
    say that no move helps (deals #9 and #10 are proved lost)."""
    start = freecell.new_game(deal, "forecell")
    library = hints.hint(start, 5_000)
    with monkeypatch.context() as off:
        off.setenv(fcsolve.DISABLE_ENV, "off")
        assert fcsolve.library() is None
        python = hints.hint(start, 5_000)
    assert library.sure and fcsolve.library() is not None
    if library.move is None:
        assert python.move is None or not python.sure
        assert hints.python_answer(start, 5_000).verdict == "unsolvable"
        return
    assert python.sure and python.move is not None
    for move in (library.move, python.move):
        after = start.play(start.parse_action(move))
        assert fcsolve.solve(after, fcsolve.Budget(seconds=60)).verdict == "solved", move
