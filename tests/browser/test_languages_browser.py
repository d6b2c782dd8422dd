"""Hindi and Arabic in a real browser: the language chosen, the chrome mirrored in Arabic,
the card table never mirrored, notation kept left to right, and axe clean in each language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES, MontanaUI
from tests.browser.test_accessibility import assert_accessible

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


def _start_montana(page: Page, deal: int = 1) -> MontanaUI:
    ui = MontanaUI(page)
    page.goto("/")
    form = page.locator("form").filter(has=page.locator('input[name="kind"][value="montana"]'))
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

    ui = _start_montana(page)
    expect(html).to_have_attribute("lang", language)
    # The card table never flips: A1 is the leftmost cell, A13 the rightmost.
    first, last = _box(page, '#board [data-cell="A1"]'), _box(page, '#board [data-cell="A13"]')
    assert first["x"] < last["x"]
    page.screenshot(path=str(artifacts / f"montana-{language}-{size}.png"), full_page=False)
    assert_accessible(page)

    # A refused move names its cell as notation, isolated from the sentence around it.
    ui.act(ui.clickable.first)
    expect(ui.game).to_have_attribute("data-status", "playing")


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
def test_statistics_and_my_games_in_each_language(
    in_language: Callable[[str, str], Page], language: str
) -> None:
    page = in_language(language, "desktop")
    _start_montana(page)
    for path in ("/games", "/stats"):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert_accessible(page)
