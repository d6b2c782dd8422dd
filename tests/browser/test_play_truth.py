"""A held run says the truth: the pick-up note names, for each place, which of the held
cards would go there, and the note after a partial move gives the real reason (the card
left behind does not build on the target, or an empty column takes no more at once)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES
from tests.browser.test_freecell_browser import FreeCellUI
from tests.browser.test_freecell_browser import force_position as force_position  # the fixture

HELD_RUN: Final = """\
Foundations: H-0 C-0 D-0 S-0
Freecells: KH KD
: QC JD TS 9H 8C
: AC 2C 3C 4C 5C 6C 7C
: AD 2D 3D 4D 5D 6D 7D 8D 9D TD
: AH 2H 3H 4H 5H 6H 7H 8H TH
: AS 2S 3S 4S 5S 6S 7S 8S 9S
: JS QS KS JH QH KC
: QD JC 9C TC
:
"""
"""Column 1 ends 10♠ 9♥ 8♣; column 7 ends 10♣ (only 9♥ 8♣ build on it); column 8 is
empty and, with two free cells, takes a run of 3."""

PICKED: Final = (
    "Holding 3 cards from 10♠: all 3 can go to column 8. "
    "Only 9♥ and 8♣ can go on 10♣ in column 7: 10♠ cannot go on 10♣."
)
PARTIAL: Final = "Only 9♥ and 8♣ went on 10♣ in column 7: 10♠ cannot go on 10♣."
EMPTY_LIMIT: Final = (
    "Only 10♠, 9♥, and 8♣ went to the empty column 8: at most 3 cards can move into an "
    "empty column at once now (empty free cells: 2, other empty columns: 0)."
)


def pick_at(fc: FreeCellUI, depth: int) -> None:
    """Click the card ``depth`` down column 1 on its visible strip: pick up from there."""
    with fc.swap(new_version=False):
        fc.column("1").locator(".fc-card").nth(depth).click(position={"x": 8, "y": 6})


@pytest.fixture
def held(page: Page, force_position: Callable[[str, str], None]) -> FreeCellUI:
    fc = FreeCellUI(page)
    fc.start(1)
    force_position(fc.game_id, HELD_RUN)
    page.reload()
    fc.set_auto_home("off")
    return fc


def test_picking_up_a_run_names_what_goes_where(held: FreeCellUI, artifacts: Path) -> None:
    fc = held
    pick_at(fc, 2)
    note = fc.page.locator("#game .pick-note")
    expect(note).to_contain_text(PICKED)
    expect(fc.page.locator("#announcer")).to_contain_text(
        "Only 9 of hearts and 8 of clubs can go on 10 of clubs in column 7"
    )
    fc.page.screenshot(path=str(artifacts / "play-truth-held-1280.png"))
    fc.act(fc.column("7"))
    expect(fc.message).to_have_text(PARTIAL)
    assert fc.history() == ["17"]
    assert fc.columns()[6].endswith("TC 9H 8C")


def test_a_drag_to_an_empty_column_names_the_limit(held: FreeCellUI) -> None:
    fc = held
    pick_at(fc, 1)  # 4 from J♦
    expect(fc.page.locator("#game .pick-note")).to_contain_text(
        "Holding 4 cards from J♦: not all of them can move together now."
    )
    fc.press("Escape", new_version=False)
    with fc.swap():
        fc.drag(fc.column("1").locator(".fc-card").nth(1), fc.column("8"))
    expect(fc.message).to_have_text(EMPTY_LIMIT)
    assert fc.columns()[7] == "TS 9H 8C"


def test_keyboard_drop_says_the_building_reason(held: FreeCellUI) -> None:
    fc = held
    pick_at(fc, 2)
    fc.press("7")
    expect(fc.message).to_have_text(PARTIAL)
    expect(fc.page.locator("#announcer")).to_contain_text("10 of spades cannot go on 10 of clubs")


def test_without_javascript_the_same_words(
    browser: Browser, live_server: str, held: FreeCellUI
) -> None:
    game = held.game_path
    context = browser.new_context(base_url=live_server, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{game}?sel=1:3")
        expect(page.locator("#game .pick-note")).to_contain_text(PICKED)
        page.locator('#board button[data-drop="7"]').click()
        expect(page.locator("#game .message-area .message")).to_have_text(PARTIAL)
    finally:
        context.close()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("hi", re.compile("10♣")),
        ("ar", re.compile("10♣")),
    ],
)
def test_the_note_in_hindi_and_arabic(
    browser: Browser,
    live_server: str,
    held: FreeCellUI,
    artifacts: Path,
    language: str,
    words: re.Pattern[str],
) -> None:
    game = held.game_path
    for width in (1280, 375):
        context = browser.new_context(
            base_url=live_server, locale=language, viewport={"width": width, "height": 800}
        )
        page = context.new_page()
        try:
            page.goto(f"{game}?sel=1:3")
            note = page.locator("#game .pick-note")
            expect(note).to_contain_text(words)
            text = note.inner_text()
            assert "Only" not in text and "Holding" not in text, text
            page.screenshot(path=str(artifacts / f"play-truth-held-{language}-{width}.png"))
        finally:
            context.close()


def test_a_touch_tap_picks_up_and_puts_down(
    browser: Browser, live_server: str, held: FreeCellUI, artifacts: Path
) -> None:
    context = browser.new_context(
        base_url=live_server, viewport={"width": 375, "height": 812}, has_touch=True
    )
    context.add_init_script(COUNT_SETTLES)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        fc = FreeCellUI(context.new_page())
        fc.page.goto(held.game_path)
        with fc.swap(new_version=False):
            fc.column("1").locator(".fc-card").nth(2).tap(position={"x": 8, "y": 6})
        expect(fc.page.locator("#game .pick-note")).to_contain_text(PICKED)
        fc.page.screenshot(path=str(artifacts / "play-truth-held-375.png"))
        with fc.swap():
            fc.column("7").tap()
        expect(fc.message).to_have_text(PARTIAL)
    finally:
        context.close()
