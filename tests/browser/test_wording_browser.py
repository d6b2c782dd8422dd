"""The words of each language fit their pages (issue 35, "Words"): at 1280 and 375 px no page
is wider than the window, and an Arabic comma never starts a line (it keeps to the word
before it). Each page is saved as a screenshot to be looked at."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.conftest import ACTION_TIMEOUT_MS

NAVIGATION_TIMEOUT_MS = 60_000
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 740}}
PAGES = {
    "home": "/",
    "stats": "/stats",
    "daily": "/daily",
    "records": "/deals/freecell/1",
    "rules-freecell": "/rules/freecell",
    "rules-montana": "/rules/montana",
    "my-games": "/games",
    "settings": "/settings",
}

STRANDED_COMMAS = """
() => {
  // Every visible character of <main>, in order, with its box; a comma whose box starts a
  // lower line than the character before it was pushed to the start of a line.
  const chars = [];
  const walker = document.createTreeWalker(document.querySelector("main") || document.body,
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const style = node.parentElement && getComputedStyle(node.parentElement);
    if (!style || style.display === "none" || style.visibility === "hidden") continue;
    for (let i = 0; i < node.data.length; i++) {
      if (/\\s|[\\u2066-\\u2069]/.test(node.data[i])) continue;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      chars.push({ch: node.data[i], top: box.top, bottom: box.bottom, text: node.data});
    }
  }
  const stranded = [];
  for (let i = 1; i < chars.length; i++) {
    if (chars[i].ch === "\\u060c" && chars[i].top >= chars[i - 1].bottom - 1) {
      stranded.push(chars[i].text.trim().slice(0, 80));
    }
  }
  return {stranded, commas: chars.filter(c => c.ch === "\\u060c").length};
}
"""


@pytest.fixture
def in_language(browser: Browser, live_server: str) -> Iterator[Callable[[str, str], Page]]:
    contexts: list[BrowserContext] = []

    def make(language: str, size: str) -> Page:
        context = browser.new_context(viewport=SIZES[size], base_url=live_server, locale=language)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)  # a loaded machine
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def start_freecell(page: Page) -> None:
    page.goto("/")
    form = page.locator("form").filter(has=page.locator('input[name="kind"][value="freecell"]'))
    form.locator('input[name="deal"]').fill("1")
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/games/*")


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_the_words_fit_and_no_arabic_comma_starts_a_line(
    in_language: Callable[[str, str], Page], artifacts: Path, language: str, size: str
) -> None:
    page = in_language(language, size)
    start_freecell(page)  # a game of one's own, so stats and records have a row
    shots = {"game": page.url, **PAGES}
    commas = 0
    for name, path in shots.items():
        page.goto(path)
        assert page.locator("html").get_attribute("lang") == language
        page.screenshot(path=str(artifacts / f"words-{name}-{language}-{size}.png"))
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 1, f"{name} is {wide}px wider than the {size} window"
        if language == "ar":
            found = page.evaluate(STRANDED_COMMAS)
            assert not found["stranded"], f"{name}: «،» starts a line: {found['stranded']}"
            commas += found["commas"]
    if language == "ar":
        assert commas > 10, "the Arabic pages have commas to check"


def test_the_comma_check_sees_a_stranded_comma(page: Page) -> None:
    """The check above can fail: a space before «،» lets the line break there."""
    words = "كلمة " * 6
    page.set_content(
        f'<html dir="rtl" lang="ar"><main><p style="width: 9em">{words}طويلة'
        f'<br>، وأخرى</p><p style="width: 9em">{words}طويلة، وأخرى</p></main></html>'
    )
    found = page.evaluate(STRANDED_COMMAS)
    assert found["commas"] == 2
    assert len(found["stranded"]) == 1
