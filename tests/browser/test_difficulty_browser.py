"""Choosing a FreeCell deal's difficulty on the home page: by mouse, by keyboard, with
JavaScript off, and in Hindi and Arabic; the game started is a deal proved that hard."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from app.service import proofs

LOAD_MS = 60_000
"""A page load on a loaded machine (the first one starts the site's worker)."""
SIZES = {"1280": {"width": 1280, "height": 900}, "375": {"width": 375, "height": 800}}


def deal_started(page: Page) -> int:
    """The deal of the game page the start form went to (its title says ``#N``)."""
    page.wait_for_url(re.compile(r"/games/[^/]+$"), timeout=LOAD_MS)
    found = re.search(r"#(\d+)", page.title())
    assert found, page.title()
    return int(found.group(1))


def form(page: Page):  # type: ignore[no-untyped-def]
    return page.locator("form.start-form").filter(has=page.locator("select[name=difficulty]"))


def test_hard_by_mouse(page: Page, artifacts: Path) -> None:
    page.goto("/", timeout=LOAD_MS)
    page.select_option("#freecell-difficulty", "hard")
    page.screenshot(path=str(artifacts / "difficulty-en-1280.png"), full_page=False)
    form(page).get_by_role("button").click()
    assert proofs.fewest_cells(deal_started(page)) == 3


def test_hard_by_keyboard(page: Page) -> None:
    page.goto("/", timeout=LOAD_MS)
    select = page.locator("#freecell-difficulty")
    select.focus()
    # Any → Easy → Medium → Hard, then Enter submits the form from its button.
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    assert select.input_value() == "hard"
    form(page).get_by_role("button").focus()
    page.keyboard.press("Enter")
    assert proofs.fewest_cells(deal_started(page)) == 3


def test_hard_with_javascript_off(no_script_page: Page) -> None:
    no_script_page.goto("/", timeout=LOAD_MS)
    no_script_page.select_option("#freecell-difficulty", "hard")
    form(no_script_page).get_by_role("button").click()
    assert proofs.fewest_cells(deal_started(no_script_page)) == 3


@pytest.fixture
def in_language(browser: Browser, live_server: str) -> Iterator[object]:
    contexts = []

    def make(language: str, size: str) -> Page:
        context = browser.new_context(viewport=SIZES[size], base_url=live_server, locale=language)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("language", ["hi", "ar"])
@pytest.mark.parametrize("size", ["1280", "375"])
def test_hard_in_hindi_and_arabic(
    in_language: object, artifacts: Path, language: str, size: str
) -> None:
    page: Page = in_language(language, size)  # type: ignore[operator]
    page.goto("/", timeout=LOAD_MS)
    select = page.locator("#freecell-difficulty")
    label = select.locator("option[value=hard]").inner_text()
    assert label and "Hard" not in label
    select.select_option("hard")
    select.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"difficulty-{language}-{size}.png"))
    form(page).get_by_role("button").click()
    assert proofs.fewest_cells(deal_started(page)) == 3
