"""The home page's deal box in a real browser: a number typed as the reader writes it
starts that deal, and one the site cannot deal is refused on the home page itself (the box
again, what was typed in it, focused, the reason read with it), by mouse, touch, keyboard
and with JavaScript off, in English, Hindi and Arabic."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.web.helpers import ARABIC_INDIC, DEVANAGARI

Way = Literal["mouse", "touch", "keyboard", "nojs"]
SIZES: Final = {1280: {"width": 1280, "height": 800}, 375: {"width": 375, "height": 740}}
TYPED: Final = {
    "en": (" 17 ", "1,000", "1,000,001"),
    "hi": tuple(n.translate(DEVANAGARI) for n in ("17", "1,000", "10,00,001")),
    "ar": tuple(n.translate(ARABIC_INDIC) for n in ("17", "1,000", "1000001")),
}
"""Per language: 17 with spaces or in its digits, 1,000 grouped, and one past the last deal."""
REFUSED: Final = {
    "en": "Deal numbers run from 1 to 1,000,000, not 1,000,001.",
    "hi": "डील नंबर 1 से 10,00,000 तक होते हैं, 10,00,001 नहीं।",
    "ar": "أرقام التوزيعات من 1 إلى 1,000,000، وليس 1,000,001.",
}


@pytest.fixture
def visitor(new_context: Callable[..., BrowserContext]) -> Callable[[Way, str, int], Page]:
    """A fresh page reading ``language``, ``width`` wide, set up for one way of playing."""

    def make(way: Way, language: str, width: int = 1280) -> Page:
        return new_context(
            viewport=SIZES[375 if way == "touch" else width],
            locale=language,
            has_touch=way == "touch",
            is_mobile=way == "touch",
            java_script_enabled=way != "nojs",
        ).new_page()

    return make


def freecell_form(page: Page) -> Locator:
    return page.locator("form").filter(has=page.locator('input[name="kind"][value="freecell"]'))


def deal(page: Page, way: Way, typed: str) -> int:
    """Type ``typed`` in FreeCell's deal box and send it as ``way`` does; the status."""
    form = freecell_form(page)
    field, button = form.locator('input[name="deal"]'), form.locator('button[type="submit"]')
    with page.expect_navigation() as sent:
        if way == "touch":
            field.tap()
            field.fill(typed)
            button.tap()
        elif way == "keyboard":
            field.focus()
            page.keyboard.press("ControlOrMeta+a")
            page.keyboard.type(typed)
            page.keyboard.press("Enter")
        else:
            field.fill(typed)
            button.click()
    response = sent.value
    assert response is not None
    return response.status


@pytest.mark.parametrize(
    ("way", "language"),
    [
        ("mouse", "en"),
        ("touch", "hi"),
        ("keyboard", "ar"),
        ("nojs", "en"),
        ("nojs", "hi"),
        ("nojs", "ar"),
    ],
)
def test_the_deal_box_reads_the_readers_numbers_and_refuses_on_the_home_page(
    visitor: Callable[[Way, str, int], Page], way: Way, language: str
) -> None:
    page = visitor(way, language, 1280)
    seventeen, thousand, too_far = TYPED[language]
    for typed, title in ((seventeen, "#17"), (thousand, "#1000")):
        page.goto("/")
        assert deal(page, way, typed) == 200
        expect(page).to_have_url(re.compile(r"/games/[\w-]{24}$"))
        expect(page.locator("#game-title")).to_contain_text(title)
    page.goto("/")
    assert deal(page, way, too_far) == 422
    form = freecell_form(page)
    field = form.locator('input[name="deal"]')
    expect(form.get_by_role("alert")).to_have_text(REFUSED[language])
    expect(field).to_have_value(too_far)
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(REFUSED[language])
    # Corrected in place, the same box starts the deal.
    assert deal(page, way, seventeen) == 200
    expect(page.locator("#game-title")).to_contain_text("#17")


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_a_refused_deal_number_looks_right(
    visitor: Callable[[Way, str, int], Page], artifacts: Path, language: str, width: int
) -> None:
    page = visitor("mouse", language, width)
    page.goto("/")
    assert deal(page, "mouse", TYPED[language][2]) == 422
    alert = freecell_form(page).get_by_role("alert")
    expect(alert).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=artifacts / f"deal-box-refused-{language}-{width}.png")
