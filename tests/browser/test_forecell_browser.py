"""Forecell in a real browser: started from the home page's choice of variant, played by
clicks at desktop and phone widths, and in Arabic (right to left) with its name in Arabic
and deal #1 lost from the start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from app.games.freecell import rules as freecell
from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES
from tests.browser.test_freecell_browser import DESKTOP, PHONE, FreeCellUI

SIZES = [DESKTOP, PHONE]
SIZE_IDS = ["1280x900", "375x812"]


@pytest.fixture
def fc(page: Page) -> FreeCellUI:
    return FreeCellUI(page)


def assert_fits(page: Page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways at {width}px ({scroll}px wide)"


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_forecell_starts_from_the_home_page_and_plays_by_click(
    fc: FreeCellUI, artifacts: Path, size: ViewportSize
) -> None:
    page = fc.page
    page.set_viewport_size(size)
    fc.start_from_home("freecell", 2, "Play FreeCell", "Forecell")
    expect(page.locator("#game-title")).to_contain_text("Forecell")
    dealt = freecell.new_game(2, "forecell")
    # Six rows in the columns, the deal's last four cards in free cells a to d.
    assert fc.columns() == [" ".join(card.text for card in column) for column in dealt.columns]
    assert fc.cells() == ["AS", "5S", "TH", "JH"]
    assert_fits(page, size["width"])
    page.screenshot(path=artifacts / f"forecell-{size['width']}.png", full_page=True)
    # A♦ from column 2 home by two clicks; the A♠ in free cell a follows by itself.
    fc.pick(fc.exposed("2"))
    fc.act(fc.foundation("D"))
    assert fc.history() == ["2h", "ah"]
    assert fc.cells() == ["--", "5S", "TH", "JH"]
    # Then a card into the free cell that emptied, by clicks too.
    position = fc.position()
    move = next(m for m in position.legal_moves() if m.target == "a")
    fc.pick(fc.exposed(move.source))
    fc.act(fc.free_cell("a"))
    assert fc.history()[2] == move.notation
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")
    page.screenshot(path=artifacts / f"forecell-played-{size['width']}.png", full_page=True)


@pytest.fixture
def arabic(browser: Browser, live_server: str) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, base_url=live_server, locale="ar")
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_init_script(COUNT_SETTLES)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_forecell_in_arabic_is_named_and_deal_1_is_lost_from_the_start(
    arabic: Page, artifacts: Path, size: ViewportSize
) -> None:
    page = arabic
    page.set_viewport_size(size)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    form = page.locator("form").filter(has=page.locator('input[name="kind"][value="freecell"]'))
    choice = form.get_by_role("radio", name="فورسيل")
    choice.check()
    expect(form.locator('input[name="variant"][value="forecell"]')).to_be_checked()
    form.locator('input[name="deal"]').fill("1")
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/games/*")
    expect(page.locator("#game-title .variant")).to_have_text("فورسيل")
    expect(page.locator("#game")).to_have_attribute("data-status", "lost")
    expect(page.locator(".end-screen h2")).to_have_text("لم تبقَ نقلات: انتهت اللعبة")
    expect(page.locator(".end-screen")).to_contain_text(
        "تبدأ هذه التوزيعة بلا أي نقلة ممكنة: ابدأ لعبة جديدة."
    )
    expect(page.locator("#board .fc-cell .fc-card")).to_have_count(4)
    assert_fits(page, size["width"])
    page.screenshot(path=artifacts / f"forecell-ar-lost-{size['width']}.png", full_page=True)
