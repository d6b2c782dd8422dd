"""Both FreeCell engines, fc-solve's library and our own search, on the same deals of
every variant: a verdict of one is never contradicted by the other, and each line wins."""

from __future__ import annotations

import pytest

from app.games.freecell import fcsolve
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
