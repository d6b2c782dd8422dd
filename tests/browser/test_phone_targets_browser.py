"""Montana's cells are targets a finger can hit on a phone (WCAG 2.5.8): at 375 px every
cell is at least 24 px wide and 44 px tall, and the whole row stays in view, in every
variant (the Moons' rows hold a fixed ace too), with large cards, in each language."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import MontanaUI

MIN_WIDTH: Final = 24
MIN_HEIGHT: Final = 44


@pytest.fixture
def phone(new_context: Callable[..., BrowserContext]) -> Callable[[str, int], Page]:
    """A touch phone (or a desktop, by ``width``) reading ``language``."""

    def make(language: str, width: int = 375) -> Page:
        touch = width < 600
        return new_context(
            viewport={"width": width, "height": 740 if touch else 800},
            locale=language,
            has_touch=touch,
            is_mobile=touch,
        ).new_page()

    return make


def start(page: Page, variant: str) -> MontanaUI:
    """Montana deal 1 in ``variant``, from the home page's form (in any language)."""
    page.goto("/")
    form = page.locator("form").filter(has=page.locator('input[name="kind"][value="montana"]'))
    form.locator(f'input[name="variant"][value="{variant}"]').check()
    form.locator('input[name="deal"]').fill("1")
    with page.expect_navigation():
        form.locator('button[type="submit"]').click()
    return MontanaUI(page)


def cell_boxes(page: Page) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = page.eval_on_selector_all(
        "#board [data-cell]",
        "cells => cells.map(c => { const r = c.getBoundingClientRect();"
        " return {x: r.left, y: r.top, width: r.width, height: r.height}; })",
    )
    assert len(boxes) == 52
    return boxes


@pytest.mark.parametrize("size", ["normal", "large"])
@pytest.mark.parametrize("variant", ["expert", "easy", "blue-moon", "red-moon"])
def test_every_cell_is_a_finger_sized_target_at_375_px(
    phone: Callable[[str, int], Page], variant: str, size: str
) -> None:
    page = phone("en", 375)
    page.request.post("/settings", form={"card_size": size, "next": "/"})
    start(page, variant)
    for box in cell_boxes(page):
        assert box["width"] >= MIN_WIDTH, (variant, box)
        assert box["height"] >= MIN_HEIGHT, (variant, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, (variant, box)  # in view
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_a_tapped_cell_plays_and_the_board_looks_right(
    phone: Callable[[str, int], Page], artifacts: Path, language: str
) -> None:
    page = phone(language, 375)
    ui = start(page, "blue-moon")
    boxes = cell_boxes(page)
    assert min(b["height"] for b in boxes) >= MIN_HEIGHT
    before = ui.version()
    with ui.swap():
        ui.clickable.first.tap()
    assert ui.version() != before
    expect(page.locator("#board")).to_be_in_viewport()
    page.screenshot(path=artifacts / f"montana-targets-{language}-375.png")


def test_cells_on_a_desktop_stay_as_they_were(
    phone: Callable[[str, int], Page], artifacts: Path
) -> None:
    page = phone("en", 1280)
    start(page, "expert")
    boxes = cell_boxes(page)
    assert min(b["height"] for b in boxes) >= MIN_HEIGHT
    # Desktop cells keep the card's 5 : 7 shape (the phone's rule stays on the phone).
    assert all(abs(b["height"] / b["width"] - 7 / 5) < 0.05 for b in boxes)
    page.screenshot(path=artifacts / "montana-targets-en-1280.png")
