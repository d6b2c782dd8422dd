"""Confirmations are dialogs: "Restart deal" and "Give up" ask in a modal dialog, one at a
time, with a Cancel button; Esc, Cancel and a click outside close it, focus goes into it
and back to its button. Without JavaScript each opens in place with a Cancel link."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ACTION_TIMEOUT_MS
from tests.browser.test_freecell_browser import FreeCellUI


def opened(page: Page) -> int:
    count: int = page.evaluate("document.querySelectorAll('dialog[open]').length")
    return count


@pytest.fixture
def fc(page: Page) -> FreeCellUI:
    ui = FreeCellUI(page)
    ui.start(1)
    return ui


@pytest.mark.parametrize("name", ["Restart deal", "Give up"])
def test_each_asks_in_a_dialog_that_esc_cancel_and_outside_close(
    fc: FreeCellUI, name: str, artifacts: Path
) -> None:
    page = fc.page
    summary = page.locator("#game summary", has_text=name)
    for close in ("Escape", "Cancel", "outside"):
        summary.click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
        assert opened(page) == 1
        if close == "Escape":
            page.screenshot(path=str(artifacts / f"play-dialog-{name.split()[0].lower()}-1280.png"))
            page.keyboard.press("Escape")
        elif close == "Cancel":
            dialog.get_by_role("button", name="Cancel").click()
        else:
            page.mouse.click(5, 5)
        expect(page.get_by_role("dialog")).to_have_count(0)
        expect(summary).to_be_focused()
    assert fc.history() == []
    expect(fc.game).to_have_attribute("data-status", "playing")


def test_one_at_a_time_and_the_table_keys_wait(fc: FreeCellUI) -> None:
    page = fc.page
    page.locator("#game summary", has_text="Give up").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    page.keyboard.press("6")  # a key for the table does nothing while the dialog is open
    page.keyboard.press("u")
    expect(fc.selected).to_have_count(0)
    # The other confirmation cannot be reached: the table is inert behind the dialog.
    page.locator("#game summary", has_text="Restart deal").click(force=True)
    assert opened(page) <= 1
    expect(page.get_by_text("Restart this deal?")).not_to_be_visible()


def test_keyboard_only_gives_up(fc: FreeCellUI) -> None:
    page = fc.page
    summary = page.locator("#game summary", has_text="Give up")
    summary.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    page.keyboard.press("Shift+Tab")
    expect(dialog.get_by_role("button", name="Yes, give up")).to_be_focused()
    with fc.swap():
        page.keyboard.press("Enter")
    expect(fc.game).to_have_attribute("data-status", "lost")
    assert fc.history() == ["resign"]


def test_restart_from_the_dialog_deals_again(fc: FreeCellUI) -> None:
    page = fc.page
    path = fc.game_path
    page.locator("#game summary", has_text="Restart deal").click()
    with page.expect_navigation():
        page.get_by_role("dialog").get_by_role("button", name="Yes, restart").click()
    assert fc.game_path != path
    expect(page.locator("#game-title")).to_contain_text("#1")


def test_a_tap_opens_it_on_a_phone(browser: Browser, live_server: str, artifacts: Path) -> None:
    context = browser.new_context(
        base_url=live_server, viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        page = context.new_page()
        FreeCellUI(page).start(1)
        page.locator("#game summary", has_text="Give up").tap()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        box = dialog.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
        page.screenshot(path=str(artifacts / "play-dialog-give-375.png"))
        dialog.get_by_role("button", name="Cancel").tap()
        expect(page.get_by_role("dialog")).to_have_count(0)
    finally:
        context.close()


@pytest.mark.parametrize(("language", "cancel"), [("hi", "रद्द करें"), ("ar", "إلغاء")])
def test_cancel_in_each_language(
    browser: Browser, live_server: str, fc: FreeCellUI, language: str, cancel: str, artifacts: Path
) -> None:
    context = browser.new_context(base_url=live_server, locale=language)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(fc.game_path)
        page.locator("#game details.give-up summary").click()
        expect(page.get_by_role("dialog").get_by_role("button", name=cancel)).to_be_focused()
        page.screenshot(path=str(artifacts / f"play-dialog-{language}-1280.png"))
    finally:
        context.close()


def test_without_javascript_it_opens_in_place_with_a_cancel_link(
    no_script_page: Page, fc: FreeCellUI
) -> None:
    page = no_script_page
    page.goto(fc.game_path)
    page.locator("#game summary", has_text="Give up").click()
    cancel = page.locator("#game details.give-up").get_by_role("link", name="Cancel")
    expect(cancel).to_be_visible()
    cancel.click()
    expect(page.locator("#game details.give-up")).not_to_have_attribute("open", "")
    page.locator("#game summary", has_text="Give up").click()
    page.get_by_role("button", name="Yes, give up").click()
    expect(page.locator("#game")).to_have_attribute("data-status", "lost")
