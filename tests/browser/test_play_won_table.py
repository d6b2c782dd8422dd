"""A won table keeps its card size: the last move home leaves the cards as large as they
were (the empty columns give the end screen its room), with no empty band below."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_freecell_browser import ALMOST_WON, FreeCellUI
from tests.browser.test_freecell_browser import force_position as force_position  # the fixture


@pytest.mark.parametrize("width", [1280, 375])
def test_the_cards_keep_their_size_when_the_game_is_won(
    page: Page, force_position: Callable[[str, str], None], width: int, artifacts: Path
) -> None:
    page.set_viewport_size({"width": width, "height": 800 if width > 400 else 740})
    fc = FreeCellUI(page)
    fc.start(1)
    force_position(fc.game_id, ALMOST_WON)
    page.reload()
    before = fc.foundation("D").bounding_box()
    assert before is not None
    fc.pick(fc.exposed("1"))
    fc.act(fc.foundation("D"))
    expect(page.locator("#game .end-screen")).to_be_visible()
    after = fc.foundation("D").bounding_box()
    assert after is not None
    assert abs(after["width"] - before["width"]) <= 1, (before, after)
    tableau = page.locator("#board .fc-tableau").bounding_box()
    assert tableau is not None
    assert tableau["height"] <= after["height"] * 1.1  # one row of empty slots, no band
    # No empty band between the title and the end screen.
    head = page.locator("#game .game-head").bounding_box()
    end = page.locator("#game .end-screen").bounding_box()
    assert head is not None and end is not None
    assert end["y"] - (head["y"] + head["height"]) <= 24, (head, end)
    page.evaluate("document.getAnimations().forEach(a => a.finish())")
    page.screenshot(path=str(artifacts / f"play-won-table-{width}.png"))
