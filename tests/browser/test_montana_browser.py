"""Montana in a real browser: clicks, keyboard, htmx swaps, reloads, a whole game, layout."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

from playwright.sync_api import BrowserContext, Page, expect

from app.games.montana.rules import new_game
from tests.browser.conftest import MontanaUI, card_text

DEAL_ONE: Final = new_game(1, "expert")
MAX_ACTIONS: Final = 400
"""The whole-game test's bound; clicking the first move each time ends deal #1 in ~100."""


def engine_grid(*actions: str) -> list[str]:
    """Deal #1 (Expert) after ``actions`` (``'6S A13'`` or ``'redeal'``), as four lines."""
    position = DEAL_ONE
    for action in actions:
        position = position.play(position.parse_action(action))
    return position.grid_text().splitlines()


def test_deal_one_from_the_home_page(montana: MontanaUI) -> None:
    montana.start(1)
    assert montana.grid() == engine_grid()
    assert montana.position_grid() == engine_grid()
    expect(montana.status("Score")).to_have_text("0/48")
    expect(montana.status("Redeals left")).to_have_text("2")
    expect(montana.status("Moves")).to_have_text("0")
    expect(montana.button("u")).to_be_disabled()
    expect(montana.cell("D10")).to_have_attribute(
        "aria-label", "6 of spades, row D, column 10: move to A13"
    )
    expect(montana.cell("B9")).to_have_attribute(
        "aria-label", "gap, row B, column 9: wants queen of spades"
    )
    expect(montana.cell("B10")).to_have_attribute(
        "aria-label", "gap, row B, column 10: dead, after a gap"
    )
    expect(montana.cell("A1")).to_have_attribute("aria-label", "jack of diamonds, row A, column 1")


def test_clicking_cards_and_gaps_plays_without_a_reload(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    page.evaluate("window.__marker = 42")

    montana.act(montana.cell("D10"))  # the 6♠ card: it goes to the gap after 5♠
    assert montana.grid() == engine_grid("6S A13")
    expect(montana.cell("A13")).to_have_attribute("aria-label", "6 of spades, row A, column 13")
    expect(montana.cell("D10")).to_have_class("open gap")

    montana.act(montana.cell("B9"))  # the gap after J♠: Q♠ comes in
    montana.act(montana.cell("C4"))  # the gap after 4♥: 5♥ comes in
    expected = engine_grid("6S A13", "QS B9", "5H C4")
    assert montana.grid() == expected
    assert montana.position_grid() == expected
    expect(montana.status("Moves")).to_have_text("3")
    expect(montana.button("u")).to_be_enabled()
    assert page.evaluate("window.__marker") == 42, "the page reloaded instead of swapping #game"


def test_undo_restores_the_previous_position(montana: MontanaUI) -> None:
    montana.start(1)
    montana.act(montana.cell("D10"))
    montana.act(montana.cell("B9"))
    montana.act(montana.button("u"))
    assert montana.grid() == engine_grid("6S A13")
    assert montana.position_grid() == engine_grid("6S A13")
    expect(montana.status("Moves")).to_have_text("1")
    montana.act(montana.button("u"))
    assert montana.grid() == engine_grid()
    expect(montana.status("Moves")).to_have_text("0")
    expect(montana.button("u")).to_be_disabled()


def test_redeal_changes_the_board_and_counts_down(montana: MontanaUI) -> None:
    montana.start(1)
    expect(montana.button("r")).to_contain_text("Redeal (2 left)")
    montana.act(montana.button("r"))
    assert montana.grid() == engine_grid("redeal")
    assert montana.grid() != engine_grid()
    assert montana.position_text().splitlines()[1:3] == ["Redeals-left: 1", "Redeals-done: 1"]
    expect(montana.status("Redeals left")).to_have_text("1")
    expect(montana.button("r")).to_contain_text("Redeal (1 left)")
    for row in "ABCD":  # no row had a sequence, so every row's gap is in column 1
        expect(montana.cell(f"{row}1")).to_have_class("choose gap")


def test_keyboard_play(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    assert page.locator('#board [data-cell][tabindex="0"]').count() == 1, "roving tabindex"
    montana.cell("A1").focus()

    page.keyboard.press("ArrowUp")  # wraps to the bottom row
    expect(montana.cell("D1")).to_be_focused()
    page.keyboard.press("End")
    expect(montana.cell("D13")).to_be_focused()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(montana.cell("D10")).to_be_focused()
    expect(montana.cell("D10")).to_have_attribute("tabindex", "0")
    expect(montana.cell("A1")).to_have_attribute("tabindex", "-1")

    montana.press("Enter")  # 6♠ to A13
    assert montana.grid() == engine_grid("6S A13")
    expect(montana.cell("D10")).to_be_focused()  # the place is kept across the swap

    montana.press("u")
    assert montana.grid() == engine_grid()
    expect(montana.status("Moves")).to_have_text("0")

    montana.cell("D10").focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    expect(montana.cell("B9")).to_be_focused()
    montana.press(" ")  # the gap after J♠ takes Q♠
    assert montana.grid() == engine_grid("QS B9")

    # ? shows the keys in a dialog over the table; Esc closes it, focus comes back.
    help_panel = page.get_by_role("dialog")
    expect(help_panel).to_have_count(0)
    page.keyboard.press("?")
    expect(help_panel).to_be_visible()
    expect(help_panel.get_by_role("button", name="Close")).to_be_focused()
    expect(help_panel.get_by_text("Cancel choosing a 2")).to_be_visible()
    page.keyboard.press("Escape")
    expect(help_panel).to_have_count(0)
    expect(montana.cell("B9")).to_be_focused()

    montana.press("r")
    expect(montana.status("Redeals left")).to_have_text("1")


def test_keyboard_focus_survives_the_undo_and_redeal_buttons(montana: MontanaUI) -> None:
    montana.start(1)
    montana.act(montana.cell("D10"))
    montana.act(montana.cell("B9"))  # two moves: Undo stays enabled after one undo
    for key in ("u", "r"):
        montana.button(key).focus()
        montana.press("Enter")
        expect(montana.button(key)).to_be_focused()


def test_cell_tooltips_keep_the_cell_names(montana: MontanaUI) -> None:
    montana.start(1)
    expect(montana.cell("B9")).to_have_attribute("title", "Gap B9: wants queen of spades")


def test_choosing_a_two_for_a_column_one_gap(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    montana.act(montana.button("r"))  # every row's gap is now in column 1; four 2s fit each

    with montana.swap(new_version=False):
        montana.cell("A1").click()
    expect(page.locator("#board.picking")).to_be_visible()
    expect(page.locator(".pick-note")).to_contain_text("Choose the 2 to put in A1")
    candidates = page.locator("#board [data-cell].candidate")
    expect(candidates).to_have_count(4)
    expect(montana.cell("A1")).to_have_class("picked gap")
    labels = candidates.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert all(label.startswith("2 of ") and label.endswith("put it in A1") for label in labels)

    with montana.swap(new_version=False):
        page.keyboard.press("Escape")  # cancels the choice
    expect(candidates).to_have_count(0)
    expect(montana.cell("A1")).to_have_class("choose gap")

    with montana.swap(new_version=False):
        montana.cell("A1").click()
    expect(candidates).to_have_count(4)
    chosen = candidates.nth(2)
    label = chosen.get_attribute("aria-label") or ""
    card = label.split(",")[0]
    from_cell = chosen.get_attribute("data-cell") or ""
    montana.act(chosen)
    expect(candidates).to_have_count(0)
    expect(montana.cell("A1")).to_have_attribute("aria-label", f"{card}, row A, column 1, in place")
    expect(montana.cell(from_cell)).to_have_attribute(
        "aria-label", re.compile(f"^gap, row {from_cell[0]}, column {from_cell[1:]}: ")
    )
    expected = engine_grid("redeal", f"{card_text(label)} A1")
    assert montana.grid() == expected
    assert montana.position_grid() == expected
    expect(montana.status("Score")).not_to_have_text("0/48")


def test_reload_shows_the_same_position(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    montana.act(montana.cell("D10"))
    montana.act(montana.cell("D5"))  # Q♠ after J♠
    page.evaluate("window.__marker = 42")
    page.reload()
    assert page.evaluate("window.__marker") is None
    assert montana.grid() == engine_grid("6S A13", "QS B9")
    expect(montana.status("Moves")).to_have_text("2")
    montana.act(montana.cell("C4"))  # and play on after the reload
    assert montana.position_grid() == engine_grid("6S A13", "QS B9", "5H C4")


def test_the_game_url_plays_on_in_a_fresh_context(
    montana: MontanaUI, new_context: Callable[[], BrowserContext]
) -> None:
    path = montana.start(1)
    montana.act(montana.cell("D10"))

    context = new_context()
    assert context.cookies() == []
    other = MontanaUI(context.new_page())
    other.page.goto(path)
    assert other.grid() == engine_grid("6S A13")
    expect(other.status("Moves")).to_have_text("1")
    other.act(other.cell("B9"))
    assert other.grid() == engine_grid("6S A13", "QS B9")

    montana.page.reload()
    assert montana.grid() == engine_grid("6S A13", "QS B9")
    assert montana.position_grid() == engine_grid("6S A13", "QS B9")


def test_a_whole_game_to_the_end(montana: MontanaUI, artifacts: Path) -> None:
    page = montana.page
    montana.start(1)
    end_screen = page.locator("#game .end-screen")
    choose = page.locator("#board a.choose")
    candidates = page.locator("#board [data-cell].candidate")
    actions = 0
    while not end_screen.is_visible():
        assert actions < MAX_ACTIONS, f"no end after {actions} actions"
        if montana.clickable.count():
            montana.act(montana.clickable.first)
        elif choose.count():
            with montana.swap(new_version=False):
                choose.first.click()
            expect(candidates.first).to_be_visible()
            montana.act(candidates.first)
        else:
            redeal = montana.button("r")
            expect(redeal).to_have_class("button primary next-step")  # the obvious next step
            expect(page.locator(".stuck-note")).to_be_visible()
            montana.act(redeal)
        actions += 1

    expect(end_screen).to_have_class("end-screen end-lost")  # first-move play loses deal #1
    expect(end_screen).to_contain_text("No moves left: game over")
    expect(montana.status("Redeals left")).to_have_text("0")
    expect(montana.clickable).to_have_count(0)
    expect(montana.button("r")).to_be_disabled()
    expect(montana.button("u")).to_be_enabled()  # undo takes a lost game back into play
    score = montana.status("Score").inner_text()
    expect(end_screen).to_contain_text(f"Score {score.split('/')[0]}")
    page.screenshot(path=artifacts / "game-lost-1280.png", full_page=True)


def test_giving_up_shows_the_end_screen(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    montana.act(montana.cell("D10"))
    page.locator("details.give-up summary").click()
    confirm = page.get_by_role("button", name="Yes, give up")
    expect(confirm).to_be_visible()
    montana.act(confirm)
    end_screen = page.locator("#game .end-screen")
    expect(end_screen).to_have_class("end-screen end-lost")
    expect(end_screen).to_contain_text("You gave up")
    expect(montana.game).to_have_attribute("data-status", "lost")
    expect(montana.clickable).to_have_count(0)
    expect(montana.button("u")).to_be_disabled()
    expect(page.locator("details.give-up")).to_be_hidden()


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"{page.url} scrolls sideways at 375 px: scrollWidth {width}"


def test_screenshots_at_desktop_and_phone_widths(montana: MontanaUI, artifacts: Path) -> None:
    page = montana.page
    page.goto("/")
    page.screenshot(path=artifacts / "home-1280.png", full_page=True)
    montana.start(1)
    montana.act(montana.cell("D10"))
    page.screenshot(path=artifacts / "game-1280.png", full_page=True)

    page.set_viewport_size({"width": 375, "height": 812})
    page.reload()
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "game-375.png", full_page=True)
    montana.act(montana.button("r"))
    with montana.swap(new_version=False):
        montana.cell("B1").click()
    expect(page.locator("#board [data-cell].candidate")).to_have_count(4)
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "game-picking-375.png", full_page=True)

    page.goto("/")
    no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "home-375.png", full_page=True)


def test_a_move_answer_keeps_the_board_and_sends_the_cells_that_changed(
    montana: MontanaUI,
) -> None:
    """Clicks and keys: each answer keeps the board in the page and puts back only the
    cells that changed; the board is then exactly what a reload draws, and focus stays."""
    page = montana.page
    answers: list[str] = []
    page.on(
        "response",
        lambda response: (
            answers.append(response.text())
            if response.request.method == "POST" and "/actions" in response.url
            else None
        ),
    )
    montana.start(1)

    def board() -> list[tuple[str, str, str]]:
        cells = page.locator("#board [data-cell]")
        return [
            (c.get_attribute("data-cell") or "", c.get_attribute("class") or "",
             c.get_attribute("aria-label") or "")
            for c in cells.all()
        ]  # fmt: skip

    montana.act(montana.cell("D10"))  # a click
    montana.cell("B9").focus()
    montana.press("Enter")  # a key
    expect(montana.cell("B9")).to_be_focused()
    montana.press("u")  # undo
    assert len(answers) == 3
    assert all('<form id="board" hx-preserve="true">' in answer for answer in answers)
    assert all(answer.count("data-cell") <= 8 for answer in answers)
    played = board()
    assert page.locator("#board-version").get_attribute("value") == "3"
    page.reload()
    assert board() == played
    assert montana.grid() == montana.position_grid()
