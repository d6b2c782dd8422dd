"""Our FreeCell deals against fc-solve's own generator, when Debian's freecell-solver-bin is
installed (an independent implementation of Microsoft's numbering)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from app.games.freecell import rules as freecell

GENERATOR = shutil.which("make-microsoft-freecell-board")


@pytest.mark.skipif(GENERATOR is None, reason="freecell-solver-bin is not installed")
@pytest.mark.parametrize("deal", [1, 2, 617, 11982, 32000, 146692, 1_000_000])
def test_deals_match_fc_solves_generator(deal: int) -> None:
    assert GENERATOR is not None
    made = subprocess.run([GENERATOR, "-t", str(deal)], capture_output=True, text=True, check=True)
    expected = freecell.parse(made.stdout)
    assert freecell.new_game(deal) == expected
