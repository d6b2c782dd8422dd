"""A deal's par in the browser: its records page shows it, and winning says how the win
compares with it, in English, Hindi and Arabic (1280 and 375 pixels wide)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import COUNT_SETTLES
from tests.browser.test_freecell_browser import (  # noqa: F401 (a fixture)
    FreeCellUI,
    force_position,
)

LOAD_MS = 60_000
"""A page load on a loaded machine (the first par search starts a solver process)."""
SIZES = {"1280": {"width": 1280, "height": 900}, "375": {"width": 375, "height": 812}}
ALMOST_WON = "Foundations: H-K C-K D-Q S-Q\n: KD\n: KS\n:\n:\n:\n:\n:\n:\n"
PAR_WORDS = {
    "en": "Par: {par} moves.",
    "hi": "पार (न्यूनतम चालें): {par} चालें।",
    "ar": "الرقم المرجعي: {par} نقلة.",
}
WON_WORDS = {
    "en": "You won in 1 move; the shortest line we know has {par}.",
    "hi": "आप 1 चाल में जीते; हमें ज्ञात सबसे छोटे चाल-क्रम में {par} चालें हैं।",
    "ar": "فزت بنقلة واحدة؛ وأقصر تسلسل نقلات نعرفه عدد نقلاته {par}.",
}


@pytest.fixture
def in_language(browser: Browser, live_server: str) -> Iterator[Callable[[str, str], Page]]:
    contexts = []

    def make(language: str, size: str) -> Page:
        context = browser.new_context(
            viewport=SIZES[size],  # type: ignore[arg-type]
            base_url=live_server,
            locale=language,
            reduced_motion="reduce",  # still screenshots, no cards in flight
        )
        context.set_default_timeout(LOAD_MS)
        context.add_init_script(COUNT_SETTLES)  # FreeCellUI waits for htmx's swaps
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
@pytest.mark.parametrize("size", ["1280", "375"])
def test_the_records_page_shows_par_and_a_win_compares_with_it(
    in_language: Callable[[str, str], Page],
    force_position: Callable[[str, str], None],  # noqa: F811
    artifacts: Path,
    language: str,
    size: str,
) -> None:
    page = in_language(language, size)
    page.goto("/deals/freecell/1", timeout=LOAD_MS)
    # Being worked out, the page asks again by itself until the par is known.
    par = page.locator("#par-area p.par")
    expect(par).to_have_attribute("data-par", re.compile(r"^\d+$"), timeout=LOAD_MS)
    moves = int(par.get_attribute("data-par") or "0")
    assert 40 < moves < 120  # a real FreeCell line
    expect(par).to_contain_text(PAR_WORDS[language].format(par=moves))
    par.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"par-records-{language}-{size}.png"))

    # Play this deal, to a nearly won position, and win it with one move.
    page.locator("form.action-form button.primary").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"), timeout=LOAD_MS)
    fc = FreeCellUI(page)
    force_position(fc.game_id, ALMOST_WON)
    page.reload()
    fc.double_click(fc.exposed("1"))
    said = page.locator("#game .end-screen p.par-said")
    expected = WON_WORDS[language].format(par=moves)
    expect(said).to_have_text(expected)
    expect(said).to_have_attribute("data-par", str(moves))
    expect(page.locator("#announcer")).to_contain_text(expected)
    if language == "ar":
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.screenshot(path=str(artifacts / f"par-won-{language}-{size}.png"))
