"""FreeCell's solver seen in the browser: a hint on a deal proved lost says so, at once,
in the player's language (no "still thinking" without a move)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.games.freecell import fcsolve
from tests.browser.conftest import MontanaUI

NO_MOVE_HELPS = {
    "en": "No move helps from here.",
    "hi": "यहाँ से कोई भी चाल मदद नहीं करती।",
    "ar": "لا نقلة تفيد من هنا.",
}
SIZES = {"1280": {"width": 1280, "height": 800}, "375": {"width": 375, "height": 740}}


@pytest.fixture
def in_language(new_context: Callable[..., BrowserContext]) -> Callable[[str, str], Page]:
    def make(language: str, width: str) -> Page:
        return new_context(viewport=SIZES[width], locale=language).new_page()

    return make


@pytest.mark.skipif(not fcsolve.available(), reason="fc-solve's library is not installed")
@pytest.mark.parametrize(("language", "width"), [("en", "1280"), ("hi", "375"), ("ar", "1280")])
def test_a_hint_on_deal_11982_says_no_move_helps(
    in_language: Callable[[str, str], Page], artifacts: Path, language: str, width: str
) -> None:
    page = in_language(language, width)
    started = page.request.post("/games", form={"kind": "freecell", "deal": "11982"})
    assert started.ok
    page.goto(started.url)
    ui = MontanaUI(page)  # the game section and its htmx swaps (any game alike)
    message = page.locator("#game .message")
    with ui.swap(new_version=False):
        page.keyboard.press("h")  # the Hint key (the same in every language)
    # Proved impossible ahead of time (app/proofs/): said at once, with no search.
    expect(message).to_have_text(NO_MOVE_HELPS[language])
    expect(page.locator("#announcer")).to_contain_text(NO_MOVE_HELPS[language])
    expect(page.locator("#board .hint")).to_have_count(0)  # nothing pointed at
    page.screenshot(path=artifacts / f"freecell-no-move-helps-{language}-{width}.png")
