"""Hindi and Arabic in a real browser: the language chosen, the chrome mirrored in Arabic,
the card table never mirrored, notation kept left to right, and axe clean in each language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES, MontanaUI
from tests.browser.test_accessibility import assert_accessible

SCRIPT = {"hi": re.compile("[\u0900-\u097f]"), "ar": re.compile("[\u0600-\u06ff]")}
"""Letters of the language's own script: an announcement in English has none."""
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 740}}


@pytest.fixture
def in_language(browser: Browser, live_server: str) -> Iterator[Callable[[str, str], Page]]:
    """A fresh page whose browser asks for ``language`` first, at ``size``."""
    contexts: list[BrowserContext] = []

    def make(language: str, size: str) -> Page:
        context = browser.new_context(viewport=SIZES[size], base_url=live_server, locale=language)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.add_init_script(COUNT_SETTLES)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def _start(page: Page, kind: str, deal: int = 1) -> MontanaUI:
    """Start ``kind`` from its form on the home page, whatever the buttons are called."""
    ui = MontanaUI(page)  # the game section, its version and htmx swaps: any game alike
    page.goto("/")
    form = page.locator("form").filter(has=page.locator(f'input[name="kind"][value="{kind}"]'))
    form.locator('input[name="deal"]').fill(str(deal))
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/games/*")
    return ui


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("language", ["hi", "ar"])
def test_a_game_in_the_players_language(
    in_language: Callable[[str, str], Page], artifacts: Path, language: str, size: str
) -> None:
    page = in_language(language, size)
    page.goto("/")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", language)
    expect(html).to_have_attribute("dir", "rtl" if language == "ar" else "ltr")
    brand, nav = _box(page, ".site-header .brand"), _box(page, ".site-header nav")
    if language == "ar" and size == "desktop":
        assert brand["x"] > nav["x"], "the Arabic header is mirrored: the name on the right"
    elif size == "desktop":
        assert brand["x"] < nav["x"]
    assert_accessible(page)

    ui = _start(page, "montana")
    expect(html).to_have_attribute("lang", language)
    # The card table never flips: A1 is the leftmost cell, A13 the rightmost.
    first, last = _box(page, '#board [data-cell="A1"]'), _box(page, '#board [data-cell="A13"]')
    assert first["x"] < last["x"]
    page.screenshot(path=str(artifacts / f"montana-{language}-{size}.png"), full_page=False)
    assert_accessible(page)

    # A move is announced in the player's language; in Arabic the card and the cell are
    # isolated so "8♣ B7" never comes out scrambled.
    ui.act(ui.clickable.first)
    expect(ui.game).to_have_attribute("data-status", "playing")
    said = page.locator("#announcer").inner_text()
    assert SCRIPT[language].search(said), said
    if language == "ar":
        raw = page.locator("#announcer").evaluate("e => e.textContent")
        assert "\u2068" in raw and "\u2069" in raw, raw
    page.screenshot(path=str(artifacts / f"montana-{language}-{size}-moved.png"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("language", ["hi", "ar"])
def test_freecell_in_the_players_language(
    in_language: Callable[[str, str], Page], artifacts: Path, language: str, size: str
) -> None:
    page = in_language(language, size)
    ui = _start(page, "freecell")
    expect(page.locator("html")).to_have_attribute("lang", language)
    # Columns 1–8 run left to right in every language.
    columns = page.locator("#board .fc-column")
    first, last = columns.first.bounding_box(), columns.last.bounding_box()
    assert first is not None and last is not None and first["x"] < last["x"]
    with ui.swap(new_version=False):
        page.keyboard.press("1")
    with ui.swap():
        page.keyboard.press("a")
    said = page.locator("#announcer").inner_text()
    assert SCRIPT[language].search(said), said
    page.screenshot(path=str(artifacts / f"freecell-{language}-{size}.png"))
    assert_accessible(page)


@pytest.mark.parametrize("language", ["hi", "ar"])
def test_the_switch_changes_and_remembers_the_language(
    in_language: Callable[[str, str], Page], language: str
) -> None:
    page = in_language("en", "desktop")
    page.goto("/stats")
    page.locator(f'.language-switch button[value="{language}"]').click()
    page.wait_for_url("**/stats")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(f'.language-switch button[value="{language}"]')).to_have_attribute(
        "aria-current", "true"
    )
    assert_accessible(page)


@pytest.mark.parametrize("language", ["hi", "ar"])
def test_every_page_type_in_each_language(
    in_language: Callable[[str, str], Page], language: str
) -> None:
    page = in_language(language, "desktop")
    ui = _start(page, "montana")
    ui.act(ui.clickable.first)
    game = ui.game_path
    for path in (
        "/games",
        "/stats",
        f"{game}/replay",
        f"{game}/solution",
        "/rules",
        "/rules/montana",
        "/rules/freecell",
    ):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert_accessible(page)
