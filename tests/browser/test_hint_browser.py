"""Press Hint, see the move it points at, play it; ask whether the game can still be won."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import MontanaUI


def test_hint_highlights_a_move_that_can_then_be_played(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    history_before = page.request.get(montana.game_path + "/history").text()
    with montana.swap(new_version=False):
        page.keyboard.press("h")  # the Hint key
    # A move is lit: the hint's own, or the best found so far if its search ran out.
    expect(page.locator(".message")).to_contain_text(re.compile("Hint:|best move found so far"))
    hinted = page.locator("#board [data-cell].hint")
    expect(hinted).to_have_count(2)  # the card and the gap it goes to
    expect(montana.status("Hints")).to_have_text("1")
    assert page.request.get(montana.game_path + "/history").text() == history_before
    # The hinted card is playable: a click on it plays the hinted move.
    card = page.locator("#board [data-cell].hint:not(.gap)")
    target_gap = page.locator("#board [data-cell].hint.gap").get_attribute("data-cell")
    montana.act(card)
    expect(montana.cell(target_gap or "")).not_to_have_class(re.compile(r"\bgap\b"))
    assert page.request.get(montana.game_path + "/history").text().count("\n") == 1


def test_still_winnable_answers_in_words(montana: MontanaUI) -> None:
    """The answer in words; on a busy machine the solver may still be searching after the
    second the page waits for it: then the page says so, and asking again, as a player
    would, gets the answer."""
    page = montana.page
    montana.start(1)
    message = page.locator(".message")
    answer = "Yes: this round can be cleared without a redeal (proved for this deal)"  # its proof
    for _ask in range(15):
        page.get_by_role("button", name="Still winnable?").click()
        expect(message).to_contain_text(re.compile(f"{re.escape(answer)}|Still thinking"))
        if answer in message.inner_text():
            break
        page.wait_for_timeout(1000)
    expect(message).to_contain_text(answer)


def test_a_stale_tab_shows_the_message_and_the_current_board(montana: MontanaUI) -> None:
    """htmx swaps the 409 answer in: the old tab gets the fresh board, not a frozen one."""
    page = montana.page
    path = montana.start(1)
    other = page.context.new_page()
    other.goto(path)
    expect(other.locator("#game")).to_have_attribute("data-version", "0")
    montana.act(montana.cell("C4"))  # 5♥ into C4 in the first tab
    # The second tab still shows version 0: its click is stale.
    other.locator('#board [data-cell="A13"]').click()
    expect(other.locator(".message")).to_contain_text("moved on in another tab")
    expect(other.locator("#game")).to_have_attribute("data-version", "1")
    other.close()
