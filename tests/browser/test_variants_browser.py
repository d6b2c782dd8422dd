"""FreeCell's variants in a real browser: each started from the home page's choice, played
a few moves by clicking, and its table on screen at desktop and phone widths."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from app.games.freecell import rules as freecell
from tests.browser.conftest import MontanaUI
from tests.browser.test_freecell_browser import DESKTOP, PHONE, FreeCellUI

NAMES: Final = {"eight-off": "Eight Off", "seahaven": "Seahaven Towers", "bakers": "Baker's Game"}


@pytest.fixture
def fc(page: Page) -> FreeCellUI:
    return FreeCellUI(page)


def first_moves(variant: str, count: int) -> list[str]:
    """The first ``count`` moves into a free cell or onto a column from deal #1 (one card)."""
    position, moves = freecell.new_game(1, variant), []
    for _ in range(count):
        move = next(m for m in position.legal_moves() if m.target != "h" and m.count == 1)
        moves.append(move.notation)
        position = position.play(move)
        while (auto := position.automatic_move()) is not None:
            position = position.play(auto)
    return moves


@pytest.mark.parametrize("variant", list(NAMES))
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x900", "375x812"])
def test_a_variant_plays_and_fits(
    fc: FreeCellUI, artifacts: Path, variant: str, size: ViewportSize
) -> None:
    page = fc.page
    page.set_viewport_size(size)
    fc.start_from_home("freecell", 1, "Play FreeCell", NAMES[variant])
    expect(page.locator("#game-title")).to_contain_text(NAMES[variant])
    shape = freecell.VARIANT_VALUES[variant]
    expect(page.locator("#board .fc-column")).to_have_count(shape.columns)
    expect(page.locator("#board .fc-cell")).to_have_count(shape.cells)
    width = size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways at {width}px ({scroll}px wide)"
    outside = page.eval_on_selector_all(
        "#board .fc-card, #board .fc-place",
        """(els, width) => els.map(e => [e.getAttribute('aria-label'),
             e.getBoundingClientRect()]).filter(([, r]) => r.left < 0 || r.right > width + 0.5)
             .map(([name, r]) => `${name}: ${r.left}..${r.right}`)""",
        width,
    )
    assert outside == [], f"off-screen at {width}px: {outside}"
    page.screenshot(path=artifacts / f"freecell-{variant}-{width}.png", full_page=True)
    moves = first_moves(variant, 2)
    for move in moves:
        source, target = move[0], move[1]
        fc.pick(fc.exposed(source))
        place = fc.free_cell(target) if target.isalpha() else fc.column(target)
        fc.act(place)
    assert [line for line in fc.history() if not line.endswith("h")] == moves


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x900", "375x812"])
def test_red_moon_heads_each_row_with_its_ace_and_column_one_takes_that_2(
    page: Page, artifacts: Path, size: ViewportSize
) -> None:
    """Red Moon from the home page: an ace before each row (a row header a screen reader
    names), the board on screen, and a click on gap A1 brings 2♣, the one card it takes."""
    page.set_viewport_size(size)
    ui = MontanaUI(page)
    ui.start_from_home("montana", 1, "Play Montana", "Red Moon")
    expect(page.locator("#game-title")).to_contain_text("Red Moon")
    heads = page.get_by_role("rowheader")
    expect(heads).to_have_count(4)
    expect(heads.first).to_have_accessible_name(
        "ace of clubs, at the head of row A: the row's suit"
    )
    expect(ui.cell("A1")).to_have_attribute("aria-label", "gap, row A, column 1: wants 2 of clubs")
    width = size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    outside = page.eval_on_selector_all(
        "#board .ace-head, #board [data-cell]",
        "(els, w) => els.filter(e => { const r = e.getBoundingClientRect();"
        " return r.left < 0 || r.right > w + 0.5; }).length",
        width,
    )
    assert outside == 0, f"{outside} cells off-screen at {width}px"
    page.screenshot(path=artifacts / f"montana-red-moon-{width}.png", full_page=True)
    ui.act(ui.cell("A1"))
    assert ui.position_grid()[0].startswith("2C ")
    expect(ui.cell("A1")).to_have_class(re.compile(r"\bin-place\b"))
