"""The dark table in the browser: it follows the system's choice by default, a setting
chosen on /settings or under the game ("Your table") puts ``theme-dark`` or ``theme-light``
on ``<html>`` at once, and axe finds no contrast failure in the dark theme on any kind of
page, at 1280 and 375 px (screenshots kept in the artifacts)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.test_accessibility import AXE, describe

SIZES = {"1280": {"width": 1280, "height": 900}, "375": {"width": 375, "height": 812}}


def no_contrast_failure(page: Page, shot: Path) -> None:
    page.screenshot(path=str(shot), full_page=True)
    found = AXE.run(page, options={"runOnly": ["color-contrast"]}).response["violations"]
    assert not found, f"axe on {page.url}:\n{describe(found)}"


def pages_of_every_kind(page: Page) -> list[str]:
    """A URL of every kind of page, made by playing (games, a replay, a watch link, a
    race): home, settings, rules, stats, my games, daily, deal records, errors."""
    page.goto("/")
    montana = page.request.post("/games", form={"kind": "montana", "deal": "5"}).url
    freecell = page.request.post("/games", form={"kind": "freecell", "deal": "617"}).url
    page.request.post(f"{freecell}/share")
    share = page.goto(f"{freecell}/share")
    assert share is not None
    watch = re.search(r"/watch/[A-Za-z0-9_-]+", share.text())
    assert watch
    race = page.request.post("/races", form={"kind": "freecell", "deal": "617"})
    return [
        "/", "/settings", "/rules", "/rules/freecell", "/stats", "/games", "/daily",
        "/deals/freecell/617", montana, freecell, f"{montana}/replay", watch.group(0), race.url,
        "/games/nothing-here",
    ]  # fmt: skip


@pytest.mark.parametrize("size", ["1280", "375"])
def test_every_page_reads_in_the_dark_theme(
    new_context: Callable[..., BrowserContext], artifacts: Path, size: str
) -> None:
    page = new_context(viewport=SIZES[size], color_scheme="dark").new_page()
    for index, url in enumerate(pages_of_every_kind(page)):
        page.goto(url)
        assert "theme-dark" not in (page.locator("html").get_attribute("class") or "")
        no_contrast_failure(page, artifacts / f"dark-{size}-{index}.png")


def test_the_light_theme_chosen_stays_light_on_a_dark_system(
    new_context: Callable[..., BrowserContext], artifacts: Path
) -> None:
    page = new_context(color_scheme="dark").new_page()
    page.goto("/settings")
    dark_felt = page.evaluate("getComputedStyle(document.body).backgroundImage")
    page.get_by_role("radio", name="Light", exact=True).check()
    expect(page.locator("html")).to_have_class(re.compile(r"\btheme-light\b"))
    assert page.evaluate("getComputedStyle(document.body).backgroundImage") != dark_felt
    page.reload()
    expect(page.locator("html")).to_have_class(re.compile(r"\btheme-light\b"))
    no_contrast_failure(page, artifacts / "light-chosen-settings.png")


def test_the_dark_theme_is_chosen_under_the_game_with_the_keyboard(
    new_context: Callable[..., BrowserContext], artifacts: Path
) -> None:
    page = new_context(color_scheme="light").new_page()
    page.goto("/")
    page.goto(page.request.post("/games", form={"kind": "freecell", "deal": "617"}).url)
    page.locator("details.table-settings summary").click()
    dark = page.locator('#table-theme input[value="dark"]')
    dark.focus()
    page.keyboard.press("Space")
    expect(page.locator("html")).to_have_class(re.compile(r"\btheme-dark\b"))
    page.reload()
    expect(page.locator("html")).to_have_class(re.compile(r"\btheme-dark\b"))
    expect(page.locator('#table-theme input[value="dark"]')).to_be_checked()
    no_contrast_failure(page, artifacts / "dark-chosen-freecell.png")
