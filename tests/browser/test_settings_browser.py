"""A player's own table in a real browser: each setting changed with the mouse, the
keyboard and without JavaScript, seen at once on the page and on the games; axe on the
settings page and both games for every deck × size × hand at 1280 and 375 px; Hindi and
Arabic."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, Page, expect

from app.games.freecell import rules as freecell
from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES, VIEWPORT, MontanaUI
from tests.browser.test_accessibility import describe
from tests.browser.test_freecell_browser import FreeCellUI
from tests.browser.test_play_fixes import axe_violations

BLUE: Final = "rgb(26, 86, 196)"
GREEN: Final = "rgb(10, 107, 45)"
RED: Final = "rgb(193, 18, 31)"
BLACK: Final = "rgb(21, 23, 26)"


def html(page: Page) -> str:
    return page.evaluate("document.documentElement.className")


SAVED: Final = {"en": "Saved", "hi": "सहेज लिया", "ar": "تم الحفظ"}


def saved(page: Page, language: str = "en") -> None:
    """The settings page's live region says the choice was kept."""
    expect(page.locator("#settings-saved")).to_contain_text(SAVED[language])


def colour_of(page: Page, selector: str) -> str:
    colour: str = page.eval_on_selector(selector, "e => getComputedStyle(e).color")
    return colour


def corner_px(page: Page) -> float:
    size: str = page.eval_on_selector("#board .fc-card", "e => getComputedStyle(e).fontSize")
    return float(size.removesuffix("px"))


def test_each_setting_with_the_mouse_takes_effect_at_once(page: Page, artifacts: Path) -> None:
    fc = FreeCellUI(page)
    game = fc.start(1)
    normal_corner = corner_px(page)
    assert colour_of(page, '#board .fc-card[aria-label^="3 of diamonds"]') == RED
    cells_x = page.locator(".fc-cells").bounding_box()
    homes_x = page.locator(".fc-foundations").bounding_box()
    assert cells_x and homes_x and cells_x["x"] < homes_x["x"]

    page.get_by_role("link", name="Settings").click()
    page.wait_for_url(re.compile(r"/settings\?back=/games/"))
    page.evaluate("window.__stayed = true")  # gone if the page reloads
    for name in ("Four colours", "Large", "Left-handed", "Every card", "Reduced"):
        page.get_by_role("radio", name=re.compile(f"^{name}")).click()
        saved(page)
    expect(page.locator("html")).to_have_class(
        re.compile(
            r"^(?=.*\bdeck-4\b)(?=.*\bcards-large\b)(?=.*\bhand-left\b)(?=.*\bmotion-reduced\b)"
        )
    )
    assert page.evaluate("window.__stayed") is True
    assert colour_of(page, ".sample-card.s-D") == BLUE
    assert colour_of(page, ".sample-card.s-C") == GREEN
    page.screenshot(path=artifacts / "settings-all-changed-1280.png")

    page.get_by_role("link", name="Back to where you were").click()
    page.wait_for_url(f"**{game}")
    assert colour_of(page, '#board .fc-card[aria-label^="3 of diamonds"]') == BLUE
    assert colour_of(page, '#board .fc-card[aria-label^="8 of clubs"]') == GREEN
    assert colour_of(page, '#board .fc-card[aria-label^="6 of spades"]') == BLACK
    assert corner_px(page) >= 1.25 * normal_corner
    cells_x = page.locator(".fc-cells").bounding_box()
    homes_x = page.locator(".fc-foundations").bounding_box()
    assert cells_x and homes_x and homes_x["x"] < cells_x["x"]  # foundations on the left
    expect(page.locator("#auto-home-button")).to_have_text("Auto home: every card")
    page.screenshot(path=artifacts / "settings-freecell-four-large-left-1280.png")


def test_the_game_pages_auto_home_control_changes_in_place(page: Page) -> None:
    fc = FreeCellUI(page)
    fc.start(2)
    page.evaluate("window.__stayed = true")
    fc.set_auto_home("all")
    assert page.evaluate("window.__stayed") is True  # no reload
    expect(page.locator("#auto-home-button")).to_be_focused()
    fc.pick(fc.exposed("8"))
    fc.act(fc.free_cell("a"))  # 8a, and AS goes home
    fc.pick(fc.exposed("1"))
    fc.act(fc.free_cell("b"))  # 1b: then AH, 2H and (not safe) 3H go home
    assert fc.history() == ["8a", "1h", "1b", "1h", "8h", "bh"]
    fc.press("u")  # the move and its three automatic moves come back together
    assert fc.history()[-1] == "undo"
    after = freecell.new_game(2).play(freecell.FreeCellMove("8", "a"))
    assert fc.position() == after.play(freecell.FreeCellMove("1", "h"))


def test_the_settings_with_the_keyboard_alone(page: Page) -> None:
    page.goto("/settings")
    deck = page.get_by_role("radio", name=re.compile("^Two colours"))
    deck.focus()
    page.keyboard.press("ArrowDown")  # a radio group moves and checks with the arrows
    saved(page)
    expect(page.get_by_role("radio", name=re.compile("^Four colours"))).to_be_focused()
    expect(page.locator("html")).to_have_class(re.compile(r"\bdeck-4\b"))
    page.keyboard.press("Tab")  # on to the next group: card size
    page.keyboard.press("ArrowDown")
    expect(page.locator("html")).to_have_class(re.compile(r"\bcards-large\b"))
    page.reload()
    expect(page.get_by_role("radio", name=re.compile("^Large"))).to_be_checked()


def test_without_javascript_a_plain_form_comes_back(no_script_page: Page) -> None:
    page = no_script_page
    fc = FreeCellUI(page)
    game = fc.start(1)
    page.get_by_role("link", name="Settings").click()
    page.get_by_role("radio", name=re.compile("^Four colours")).check()
    page.get_by_role("radio", name=re.compile("^Left-handed")).check()
    page.locator("form.settings-form").get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/settings\?.*saved=1"))
    expect(page.locator("#settings-saved")).to_contain_text("Saved")
    assert "deck-4" in html(page) and "hand-left" in html(page)
    page.get_by_role("link", name="Back to where you were").click()
    page.wait_for_url(f"**{game}")
    assert colour_of(page, '#board .fc-card[aria-label^="3 of diamonds"]') == BLUE
    # The game page's control: a plain form, back to the game.
    page.get_by_role("button", name="Auto home: safe cards").click()
    page.wait_for_url(f"**{game}")
    expect(page.get_by_role("button", name="Auto home: every card")).to_be_visible()


def test_the_game_pages_own_table_changes_the_look_in_place(page: Page) -> None:
    """ "Your table" under the game: a choice made with the mouse or the keyboard is saved
    and drawn at once, the game page never reloaded, the board as it was."""
    fc = FreeCellUI(page)
    fc.start(1)
    fc.pick(fc.exposed("1"))  # the game goes on as it is: a card held stays held
    page.evaluate("window.__stayed = true")
    table = page.locator("details.table-settings")
    table.locator("summary").click()
    table.get_by_role("radio", name="Four colours").click()
    expect(page.locator("#table-saved")).to_contain_text("Saved")
    expect(page.locator("html")).to_have_class(re.compile(r"\bdeck-4\b"))
    assert colour_of(page, '#board .fc-card[aria-label^="3 of diamonds"]') == BLUE
    table.get_by_role("radio", name="Large").focus()
    page.keyboard.press("Space")
    expect(page.locator("html")).to_have_class(re.compile(r"\bcards-large\b"))
    page.keyboard.press("Tab")  # Theme (as the device), then Hand
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")  # Hand: left-handed, by the arrow keys alone
    expect(page.locator("html")).to_have_class(re.compile(r"\bhand-left\b"))
    assert page.evaluate("window.__stayed") is True
    expect(page.locator("#board .fc-card.selected").first).to_be_visible()
    page.reload()
    assert {"deck-4", "cards-large", "hand-left"} <= set(html(page).split())


def test_the_game_pages_own_table_without_javascript(no_script_page: Page) -> None:
    page = no_script_page
    game = FreeCellUI(page).start(1)
    table = page.locator("details.table-settings")
    table.locator("summary").click()
    table.get_by_role("radio", name="Four colours").check()
    table.get_by_role("radio", name="Reduced").check()
    table.get_by_role("button", name="Save").click()
    page.wait_for_url(f"**{game}")  # Post/Redirect/Get, back to the game
    assert {"deck-4", "motion-reduced"} <= set(html(page).split())
    assert colour_of(page, '#board .fc-card[aria-label^="3 of diamonds"]') == BLUE


NUDGE: Final = """() => { const e = Object.assign(document.createElement("span"),
  {className: "next-step"}); document.body.append(e);
  const s = getComputedStyle(e); const found = [s.animationName, s.animationDuration];
  e.remove(); return found; }"""
"""How the highlighted next step (Redeal when nothing else moves) would move."""


def test_reduced_motion_stops_what_moves_whatever_the_system_asks(page: Page) -> None:
    page.emulate_media(reduced_motion="no-preference")
    page.goto("/")
    assert page.evaluate(NUDGE) == ["nudge", "1.6s"]
    page.goto("/settings")
    page.get_by_role("radio", name=re.compile("^Reduced")).click()
    saved(page)
    assert page.evaluate(NUDGE)[0] == "none"  # at once, on this page
    page.goto("/")
    assert "motion-reduced" in html(page)
    assert page.evaluate(NUDGE)[0] == "none"


@pytest.mark.parametrize("width", [375, 414, 600, 1280])
@pytest.mark.parametrize("kind", ["freecell", "montana"])
def test_large_corners_are_a_quarter_bigger_at_every_width(
    page: Page, kind: str, width: int
) -> None:
    """Large cards' corners (FreeCell) and faces (Montana) measured as drawn: at least
    1.25 times the normal ones on a phone as on a desktop (a phone's own rule once won
    over the large one, so the phone's large corners were no bigger)."""
    page.set_viewport_size({"width": width, "height": 800})
    card = "#board .fc-card" if kind == "freecell" else "#board [data-cell]:not(.gap)"
    ui = FreeCellUI(page) if kind == "freecell" else MontanaUI(page)
    sizes = []
    for size in ("normal", "large"):
        page.request.post("/settings", form={"card_size": size, "next": "/"})
        ui.start(1)
        drawn: str = page.eval_on_selector(card, "e => getComputedStyle(e).fontSize")
        sizes.append(float(drawn.removesuffix("px")))
    normal, large = sizes
    assert large >= 1.25 * normal, f"{kind} at {width}px: {normal}px, large {large}px"


def test_left_handed_leaves_montanas_table_and_controls_as_they_are(
    page: Page, live_server: str
) -> None:
    """The hand changes FreeCell's top row (and its phone controls); Montana is unchanged,
    in either direction."""
    page.set_viewport_size({"width": 375, "height": 740})
    game = MontanaUI(page).start(1)
    page.context.add_cookies([{"name": "lang", "value": "ar", "url": live_server}])
    boxes = []
    for hand in ("right", "left"):
        page.request.post("/settings", form={"hand": hand, "next": "/"})
        page.goto(game)
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        boxes.append(
            page.eval_on_selector_all(
                "#game .controls > *, #board [data-cell]",
                "els => els.map(e => { const r = e.getBoundingClientRect(); "
                "return [Math.round(r.x), Math.round(r.y)]; })",
            )
        )
    assert boxes[0] == boxes[1]


@pytest.mark.parametrize("language", ["hi", "ar"])
def test_the_settings_in_hindi_and_arabic(
    browser: Browser, live_server: str, language: str, artifacts: Path
) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, base_url=live_server, locale=language
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_init_script(COUNT_SETTLES)
    try:
        page = context.new_page()
        page.goto("/settings")
        expect(page.locator("html")).to_have_attribute("lang", language)
        legend = "पत्तों के रंग" if language == "hi" else "تلوين الأوراق"
        expect(page.locator("legend").first).to_have_text(legend)
        page.locator('input[name="hand"][value="left"]').click()
        saved(page, language)
        assert "hand-left" in html(page)
        assert axe_violations(page) == []
        page.screenshot(path=artifacts / f"settings-{language}-375.png", full_page=True)
    finally:
        context.close()


# -- axe on every combination, one browser page for them all ------------------------------

COMBINATIONS: Final = [
    (deck, size, hand)
    for deck in ("two", "four")
    for size in ("normal", "large")
    for hand in ("right", "left")
]


@pytest.fixture(scope="module")
def shared_page(browser: Browser, live_server: str) -> Iterator[tuple[Page, dict[str, str]]]:
    """One page (one player) for the whole matrix, with a game of each kind."""
    context = browser.new_context(viewport=VIEWPORT, base_url=live_server)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    page = context.new_page()
    games = {}
    for kind in ("freecell", "montana"):
        response = page.request.post("/games", form={"kind": kind, "deal": "1"}, max_redirects=0)
        games[kind] = response.headers["location"]
    yield page, games
    context.close()


def width_for(combination: tuple[str, str, str]) -> int:
    """The window each combination is seen in: half at 1280 px, half at 375, chosen so that
    every pair of the four choices (deck, size, hand, width) is seen together (a half
    fraction of the whole matrix, as each setting is a class of its own on the page)."""
    deck, size, hand = combination
    odd = (deck == "four") ^ (size == "large") ^ (hand == "left")
    return 375 if odd else 1280


@pytest.mark.parametrize(
    "combination", COMBINATIONS, ids=lambda c: "-".join((*c, str(width_for(c))))
)
def test_axe_finds_nothing_in_any_combination(
    shared_page: tuple[Page, dict[str, str]],
    combination: tuple[str, str, str],
    artifacts: Path,
) -> None:
    page, games = shared_page
    deck, size, hand = combination
    width = width_for(combination)
    form = {"deck": deck, "card_size": size, "hand": hand, "next": "/"}
    assert page.request.post("/settings", form=form, max_redirects=0).status == 303
    page.set_viewport_size({"width": width, "height": 800})
    expected = {
        "deck-4": deck == "four",
        "cards-large": size == "large",
        "hand-left": hand == "left",
    }
    for name, path in (("settings", "/settings"), *games.items()):
        page.goto(path)
        classes = set(html(page).split())
        assert {name for name, on in expected.items() if on} == classes, classes
        violations = axe_violations(page)
        assert violations == [], (
            f"axe on {name} {combination} at {width}px:\n{describe(violations)}"
        )
        if width == 375 or name != "settings":
            page.screenshot(path=artifacts / f"table-{name}-{'-'.join(combination)}-{width}.png")
