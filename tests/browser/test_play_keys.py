"""The keyboard: the "?" panel lists every key (Redo's Y too) in a dialog over the table
that does not scroll the board away; a skip link is the first Tab stop and reaches the
table; FreeCell's arrow keys move between the columns, the free cells and the foundations,
and Enter or Space picks up and puts down, so a game is played with the keyboard alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import MontanaUI
from tests.browser.test_freecell_browser import FreeCellUI


def focused_drop(page: Page) -> str | None:
    value: str | None = page.evaluate(
        "(() => { const a = document.activeElement;"
        " const p = a && a.closest('[data-drop]'); return p ? p.dataset.drop : null; })()"
    )
    return value


@pytest.mark.parametrize("kind", ["freecell", "montana"])
@pytest.mark.parametrize("width", [1280, 375])
def test_the_keys_panel_is_a_dialog_that_keeps_the_table_in_place(
    page: Page, kind: str, width: int, artifacts: Path
) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    ui = FreeCellUI(page) if kind == "freecell" else MontanaUI(page)
    ui.start(1)
    board = page.locator("#board")
    before = board.bounding_box()
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("dt", has_text="Y")).to_be_visible()
    expect(dialog.get_by_text("Redo (bring back what undo took back)")).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    assert board.bounding_box() == before
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    page.screenshot(path=str(artifacts / f"play-keys-{kind}-{width}.png"))
    page.keyboard.press("?")
    expect(dialog).to_have_count(0)


@pytest.mark.parametrize("kind", ["freecell", "montana"])
def test_the_skip_link_is_the_first_tab_and_reaches_the_table(page: Page, kind: str) -> None:
    ui = FreeCellUI(page) if kind == "freecell" else MontanaUI(page)
    ui.start(1)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the table")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    inside: bool = page.evaluate("!!document.activeElement.closest('#board')")
    assert inside


def test_freecell_played_with_arrows_and_enter_or_space(page: Page) -> None:
    fc = FreeCellUI(page)
    fc.start(1)
    fc.set_auto_home("off")
    page.reload()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the skip link: column 1's card has focus
    assert focused_drop(page) == "1"
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert focused_drop(page) == "6"
    with fc.swap(new_version=False):
        page.keyboard.press("Enter")  # picks up 3♦
    expect(fc.selected).to_have_count(1)
    assert focused_drop(page) == "6"
    page.keyboard.press("ArrowUp")  # to the row of free cells and foundations
    for _ in range(8):
        if focused_drop(page) == "a":
            break
        page.keyboard.press("ArrowLeft")
    assert focused_drop(page) == "a"
    with fc.swap():
        page.keyboard.press(" ")  # puts 3♦ in free cell a
    assert fc.history() == ["6a"]
    assert focused_drop(page) == "a"
    page.keyboard.press("ArrowDown")
    assert focused_drop(page) == "1"
    page.keyboard.press("ArrowLeft")  # wraps to column 8
    assert focused_drop(page) == "8"
    with fc.swap(new_version=False):
        page.keyboard.press("Enter")  # 10♣
    page.keyboard.press("ArrowUp")
    for _ in range(8):
        if focused_drop(page) == "b":
            break
        page.keyboard.press("ArrowRight")
    assert focused_drop(page) == "b"
    with fc.swap():
        page.keyboard.press("Enter")
    assert fc.history() == ["6a", "8b"]
