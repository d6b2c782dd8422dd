"""A display name that would pass for another player's, or for the site's own word, is
refused in the player's language on the form itself: by mouse, touch, keyboard and with
JavaScript off, read with the field by a screen reader, at 1280 and 375 px."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal

import pytest
from playwright.sync_api import BrowserContext, Page, expect

Way = Literal["mouse", "touch", "keyboard", "nojs"]
TO_CYRILLIC: Final = str.maketrans("aceopxA", "\u0430\u0441\u0435\u043e\u0440\u0445\u0410")
"""Latin letters and the Cyrillic ones drawn the same."""
LOOKS_TAKEN: Final = {
    "en": "Another player has this name, or one that looks the same: choose another.",
    "hi": "किसी दूसरे खिलाड़ी का यही नाम है, या ऐसा नाम जो देखने में बिल्कुल इसी जैसा है: कोई और नाम चुनें।",
    "ar": "لدى لاعب آخر هذا الاسم، أو اسم يبدو مثله تمامًا: اختر اسمًا آخر.",
}
SITE_WORD: Final = {
    "en": "This name looks like one of the site's own words: choose another.",
    "hi": "यह नाम साइट के अपने शब्दों में से किसी एक जैसा दिखता है: कोई और नाम चुनें।",
    "ar": "يبدو هذا الاسم مثل إحدى كلمات الموقع نفسه: اختر اسمًا آخر.",
}


@pytest.fixture
def visitor(new_context: Callable[..., BrowserContext]) -> Callable[[Way, str, int], Page]:
    def make(way: Way, language: str, width: int = 1280) -> Page:
        return new_context(
            viewport={"width": 375 if way == "touch" else width, "height": 800},
            locale=language,
            has_touch=way == "touch",
            is_mobile=way == "touch",
            java_script_enabled=way != "nojs",
        ).new_page()

    return make


def save_name(page: Page, way: Way, name: str) -> None:
    field = page.locator("#display-name-field")
    button = page.locator("#display-name").get_by_role("button").first
    if way == "touch":
        field.tap()
        field.fill(name)
        button.tap()
    elif way == "keyboard":
        field.focus()
        page.keyboard.press("ControlOrMeta+a")
        page.keyboard.insert_text(name)
        page.keyboard.press("Enter")
    elif way == "nojs":
        field.fill(name)
        with page.expect_navigation():
            button.click()
    else:
        field.fill(name)
        button.click()


def unique_name() -> str:
    """``Ada`` and six letters each of which has a Cyrillic double."""
    return "Ada" + "".join(secrets.choice("aceopx") for _ in range(6))


@pytest.mark.parametrize(
    ("way", "language"),
    [("mouse", "en"), ("keyboard", "hi"), ("touch", "ar"), ("nojs", "hi"), ("nojs", "ar")],
)
def test_a_lookalike_name_is_refused_on_the_form(
    visitor: Callable[[Way, str, int], Page], way: Way, language: str
) -> None:
    name = unique_name()
    first = visitor("mouse", "en", 1280)
    first.goto("/games")
    save_name(first, "mouse", name)
    expect(first.locator("#display-name strong")).to_have_text(name)

    page = visitor(way, language, 1280)
    page.goto("/games")
    field = page.locator("#display-name-field")
    for typed, words in ((name.translate(TO_CYRILLIC), LOOKS_TAKEN), ("anonym\u043eus", SITE_WORD)):
        save_name(page, way, typed)
        alert = page.locator("#display-name-error")
        expect(alert).to_have_text(words[language])
        expect(alert).to_have_attribute("role", "alert")
        expect(field).to_have_attribute("aria-invalid", "true")
        expect(field).to_have_accessible_description(re.compile(re.escape(words[language])))
        expect(field).to_have_value(typed)
    expect(page.locator("#display-name strong")).to_have_count(0)  # still anonymous


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_a_refused_name_looks_right(
    visitor: Callable[[Way, str, int], Page], artifacts: Path, language: str, width: int
) -> None:
    page = visitor("mouse", language, width)
    page.goto("/games")
    save_name(page, "mouse", "\uff41\uff4e\uff4f\uff4e\uff59\uff4d\uff4f\uff55\uff53")  # fullwidth
    alert = page.locator("#display-name-error")
    expect(alert).to_have_text(SITE_WORD[language])
    alert.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#display-name").screenshot(
        path=artifacts / f"name-refused-{language}-{width}.png"
    )
