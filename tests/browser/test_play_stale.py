"""A stale tab says so: a page left open while the same game moved on in another tab or
on another device shows the current board and says the game moved on, and does not act on
the old click: a pick-up, a move, a drag, a hint, undo and redo, "Still winnable?",
restart and give up, with JavaScript and without."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ACTION_TIMEOUT_MS
from tests.browser.test_freecell_browser import FreeCellUI

MOVED_ON = "moved on in another tab or device"


@pytest.fixture
def two(page: Page, new_context: Callable[[], BrowserContext]) -> tuple[FreeCellUI, FreeCellUI]:
    """FreeCell #1 open on two devices; the first has played 6a (and the cards that went
    home after it), the second still shows the deal."""
    first = FreeCellUI(page)
    first.start(1)
    second = FreeCellUI(new_context().new_page())
    second.page.goto(first.game_path)
    expect(second.game).to_have_attribute("data-version", "0")
    first.press("6", new_version=False)
    first.press("a")
    return first, second


def says_moved_on(old: FreeCellUI, now: FreeCellUI) -> None:
    expect(old.message).to_contain_text(MOVED_ON)
    expect(old.game).to_have_attribute("data-version", now.version())
    assert old.columns() == now.columns()
    expect(old.selected).to_have_count(0)


def test_a_stale_click_picks_nothing_up(two: tuple[FreeCellUI, FreeCellUI]) -> None:
    first, second = two
    history = first.history()
    with second.swap():
        second.exposed("6").click()  # 3♦ on its screen; the game's column 6 ends otherwise
    says_moved_on(second, first)
    assert first.history() == history
    # Now current, the same tab plays on as usual.
    second.pick(second.exposed("6"))
    expect(second.selected).to_have_count(1)


def test_a_stale_key_picks_nothing_up(two: tuple[FreeCellUI, FreeCellUI]) -> None:
    first, second = two
    second.press("6")
    says_moved_on(second, first)


@pytest.mark.parametrize("how", ["drag", "hint", "undo", "check", "give up", "restart"])
def test_a_stale_action_does_nothing(two: tuple[FreeCellUI, FreeCellUI], how: str) -> None:
    first, second = two
    page = second.page
    history = first.history()
    if how == "drag":
        with second.swap():
            second.drag(second.exposed("8"), second.free_cell("b"))
    elif how == "hint":
        second.press("h")
        expect(page.locator("#board .hint")).to_have_count(0)
    elif how == "undo":  # a board with a move to take back, then another move elsewhere
        page.reload()
        first.press("8", new_version=False)
        first.press("b")
        history = first.history()
        second.press("u")
    elif how == "check":
        with second.swap():
            page.get_by_role("button", name="Still winnable?").click()
    elif how == "give up":
        page.locator("#game .give-up summary").click()
        with second.swap():
            page.get_by_role("button", name="Yes, give up").click()
    else:
        page.locator("#game .restart summary").click()
        page.get_by_role("button", name="Yes, restart").click()
    says_moved_on(second, first)
    assert first.history() == history
    expect(first.game).to_have_attribute("data-status", "playing")


def test_without_javascript_a_stale_hint_or_move_is_refused(
    browser: Browser, live_server: str, two: tuple[FreeCellUI, FreeCellUI]
) -> None:
    first, _second = two
    context = browser.new_context(base_url=live_server, java_script_enabled=False)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        old = context.new_page()
        old.goto(first.game_path)
        version = old.locator("#game").get_attribute("data-version")
        first.press("8", new_version=False)
        first.press("b")
        assert old.locator("#game").get_attribute("data-version") == version
        history = first.history()
        old.get_by_role("button", name=re.compile("^Hint")).click()
        assert old.url.endswith("?stale=1")
        expect(old.locator("#game .message")).to_contain_text(MOVED_ON)
        assert first.history() == history
    finally:
        context.close()
