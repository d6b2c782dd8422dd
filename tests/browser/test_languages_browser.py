"""Hindi and Arabic in a real browser: the language chosen, the chrome mirrored in Arabic,
the card table never mirrored, notation kept left to right, and axe clean in each language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import MontanaUI
from tests.browser.test_accessibility import assert_accessible
from tests.browser.test_freecell_browser import force_position

__all__ = ["force_position"]  # a fixture of the FreeCell tests, used here too

SCRIPT = {"hi": re.compile("[\u0900-\u097f]"), "ar": re.compile("[\u0600-\u06ff]")}
"""Letters of the language's own script: an announcement in English has none."""
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 740}}


@pytest.fixture
def in_language(new_context: Callable[..., BrowserContext]) -> Callable[[str, str], Page]:
    """A fresh page whose browser asks for ``language`` first, at ``size``."""

    def make(language: str, size: str) -> Page:
        return new_context(viewport=SIZES[size], locale=language).new_page()

    return make


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


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("language", ["hi", "ar"])
def test_every_page_type_in_each_language(
    in_language: Callable[[str, str], Page], artifacts: Path, language: str, size: str
) -> None:
    page = in_language(language, size)
    ui = _start(page, "montana")
    ui.act(ui.clickable.first)
    game = ui.game_path
    with ui.swap():
        page.keyboard.press("u")  # a replay shows an undo in words alone
    for name, path in (
        ("home", "/"),
        ("games", "/games"),
        ("stats", "/stats"),
        ("replay", f"{game}/replay"),
        ("solution", f"{game}/solution"),
        ("rules", "/rules"),
        ("rules-montana", "/rules/montana"),
        ("rules-freecell", "/rules/freecell"),
    ):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.screenshot(path=str(artifacts / f"page-{name}-{language}-{size}.png"), full_page=True)
        assert_accessible(page)
    page.goto(f"{game}/solution")  # it asks first; the button shows the solver's line
    page.locator("form[action$='/solution'] button").click()
    page.wait_for_url("**/solution?step=0")
    page.screenshot(path=str(artifacts / f"page-solution-steps-{language}-{size}.png"))
    assert_accessible(page)


LATIN_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2,}(?![A-Za-z0-9])")
"""Two or more Latin letters that are not notation: notation touches a digit (``A1``,
``3a``, ``8C``) or is one letter (free cell ``a``, ``h`` for home)."""
LATIN_KEPT = frozenset({"UTC", "KiB", "Gaps"})
"""Latin words the catalogues keep on purpose (GLOSSARY.md): a time zone, a unit, and the
game's other name as the Arabic seed writes it."""
WORDS_SHOWN = """el => {
  const copy = el.cloneNode(true);
  copy.querySelectorAll("kbd, code, script, style, [hidden]").forEach((k) => k.remove());
  return copy.textContent;
}"""
"""The text of an element as it reads, keys (``<kbd>``) and notation (``<code>``) aside."""


def _assert_no_english(page: Page, language: str, when: str) -> None:
    """Neither the game's visible text nor the live region holds a Latin-script word."""
    for selector in ("main", "#announcer"):
        text = page.locator(selector).evaluate(WORDS_SHOWN)
        left = sorted(set(LATIN_WORD.findall(text)) - LATIN_KEPT)
        assert not left, f"{when}, {language}, {selector}: {left} in {' '.join(text.split())!r}"
    said = page.locator("#announcer").evaluate("e => e.textContent")
    assert not re.search("[♠♥♦♣]", said), f"{when}: the live region says cards in words: {said!r}"


@pytest.mark.parametrize("language", ["hi", "ar"])
def test_a_whole_game_has_no_english_word(
    in_language: Callable[[str, str], Page],
    force_position: Callable[[str, str], None],
    artifacts: Path,
    language: str,
) -> None:
    """A run held, a move refused, a 2 chosen, a game won and one lost: every sentence on
    the page and in the live region is the language's own."""
    page = in_language(language, "desktop")
    ui = _start(page, "freecell")
    # Deal 1: column 5's 6♣ is held, and column 1's 6♠ cannot take it.
    with ui.swap(new_version=False):
        page.keyboard.press("5")
    expect(page.locator("#game .pick-note")).to_be_visible()
    _assert_no_english(page, language, "a card held")
    with ui.swap(new_version=False):
        page.keyboard.press("1")
    expect(page.locator("#game .message")).to_be_visible()
    _assert_no_english(page, language, "a move refused")
    page.screenshot(path=str(artifacts / f"words-refused-{language}.png"))
    with ui.swap(new_version=False):
        page.keyboard.press("Escape")
    page.locator("details.give-up summary").click()  # the question opens in a dialog
    with ui.swap():
        page.locator("dialog.confirm-dialog[open] button[value=resign]").click()
    expect(ui.game).to_have_attribute("data-status", "lost")
    _assert_no_english(page, language, "a game given up")

    ui = _start(page, "freecell")
    game_id = ui.game_path.rsplit("/", 1)[1]
    force_position(game_id, NEARLY_WON)
    page.reload()
    with ui.swap(new_version=False):
        page.keyboard.press("4")  # the run of six from K♣
    expect(page.locator("#game .pick-note")).to_be_visible()
    _assert_no_english(page, language, "a run held")
    with ui.swap(new_version=False):
        page.keyboard.press("Escape")
    with ui.swap():
        page.keyboard.press("Home")  # 8♥ home, and every other card after it
    expect(ui.game).to_have_attribute("data-status", "won")
    _assert_no_english(page, language, "a game won")
    page.screenshot(path=str(artifacts / f"words-won-{language}.png"))

    ui = _start(page, "montana")
    with ui.swap():
        page.keyboard.press("r")  # every row's gap is now in column 1: any 2 fits
    with ui.swap(new_version=False):
        ui.cell("A1").click()
    expect(page.locator("#game .pick-note")).to_be_visible()
    _assert_no_english(page, language, "a gap for a 2")
    ui.act(page.locator("#board [data-cell].candidate").first)
    _assert_no_english(page, language, "a 2 chosen")
    page.screenshot(path=str(artifacts / f"words-two-{language}.png"))


NEARLY_WON: Final = """\
Foundations: H-7 C-8 D-Q S-Q
: KD
: KS
: KH QC JH TC 9H
: KC QH JC TH 9C 8H
:
:
:
:
"""
"""Column 4 holds a run of six; once 8♥ goes home every card follows."""
