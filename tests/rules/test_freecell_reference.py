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


@pytest.mark.skipif(GENERATOR is None, reason="freecell-solver-bin is not installed")
@pytest.mark.parametrize("deal", [1, 2, 46, 11982, 32000])
def test_forecell_deals_are_microsoft_deals_with_the_last_four_cards_in_the_cells(
    deal: int,
) -> None:
    """PySolFC's ForeCell (and fc-solve's make_pysol_freecell_board.py ``forecell``) deal
    Microsoft's shuffle six rows across the columns and the last four cards into the free
    cells: the seventh row of fc-solve's board goes to cells a-d."""
    assert GENERATOR is not None
    made = subprocess.run([GENERATOR, "-t", str(deal)], capture_output=True, text=True, check=True)
    rows = [line.split() for line in made.stdout.splitlines() if line.strip()]
    board = "Variant: forecell\nFreecells: " + " ".join(row[6] for row in rows[:4]) + "\n"
    board += "".join(": " + " ".join(row[:6]) + "\n" for row in rows)
    assert freecell.new_game(deal, "forecell") == freecell.parse(board)
