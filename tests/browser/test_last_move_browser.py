"""The last move shown: the cards a move played carry ``data-last-move`` (a dashed ring,
not a colour alone) until the next move, the live region says the move, in both games,
by mouse and keyboard, and on a replay's step."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import MontanaUI
from tests.browser.test_freecell_browser import FreeCellUI, fc  # noqa: F401 (a fixture)

MARKED = "#board [data-last-move]"


def test_a_montana_click_marks_the_card_until_the_next_move(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    expect(page.locator(MARKED)).to_have_count(0)
    montana.act(montana.cell("D10"))  # 6♠ to A13
    expect(page.locator(MARKED)).to_have_count(1)
    expect(page.locator(MARKED)).to_have_attribute("data-cell", "A13")
    expect(page.locator("#announcer")).to_contain_text("A13")
    ring = page.locator(MARKED).evaluate("e => getComputedStyle(e).outlineStyle")
    assert ring == "dashed"
    page.screenshot(path="tests/artifacts/last-move-montana.png")
    page.reload()  # no move since: still marked
    expect(page.locator(MARKED)).to_have_attribute("data-cell", "A13")
    montana.press("u")  # an undo moves no card: nothing marked
    expect(page.locator(MARKED)).to_have_count(0)


def test_a_montana_key_marks_the_card(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    montana.cell("D10").focus()
    montana.press("Enter")  # 6♠ to A13
    expect(page.locator(MARKED)).to_have_attribute("data-cell", "A13")
    montana.cell("D10").focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    montana.press(" ")  # Q♠ to B9: the mark moves there, A13's goes
    expect(page.locator(MARKED)).to_have_count(1)
    expect(page.locator(MARKED)).to_have_attribute("data-cell", "B9")


def test_a_freecell_move_marks_the_cards_it_moved(fc: FreeCellUI) -> None:  # noqa: F811
    page = fc.page
    fc.start(1)
    with fc.swap(new_version=False):
        fc.exposed("1").click()
    target = fc.targets.first
    place = target.get_attribute("id")
    with fc.swap():
        target.click()
    marked = page.locator(MARKED)
    expect(marked).to_have_count(1)
    assert marked.evaluate("(e, id) => e.closest('#' + id) !== null", place)
    last = "e => Array.from(e.parentElement.querySelectorAll('.fc-card')).pop() === e"
    assert marked.evaluate(last)  # the card moved lies last in its place
    page.screenshot(path="tests/artifacts/last-move-freecell.png")


def test_a_replay_marks_the_step_shown(montana: MontanaUI) -> None:
    page = montana.page
    path = montana.start(1)
    montana.act(montana.cell("D10"))  # 6♠ to A13
    page.goto(f"{path}/replay?step=0")
    expect(page.locator(MARKED)).to_have_count(0)
    page.locator('[data-replay="next"]').click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    expect(page.locator(MARKED)).to_have_attribute("data-cell", "A13")
    page.goto(f"{path}/replay?step=1")  # a step's own address marks it too
    expect(page.locator(MARKED)).to_have_attribute("data-cell", "A13")


def ringed(page: Page) -> list[str]:
    """The cells whose card wears the dashed ring (read from the styles, as drawn)."""
    found: list[str] = page.eval_on_selector_all(
        "#board [data-cell]",
        "cells => cells.filter(c => getComputedStyle(c).outlineStyle === 'dashed')"
        ".map(c => c.dataset.cell)",
    )
    return found


def test_without_javascript_the_page_rings_the_card_and_a_replay_step_too(
    no_script_page: Page,
) -> None:
    """No script sets ``data-last-move``: the page the move's form goes back to says where
    the card lies, and the stylesheet rings it; a later visit to the game does not."""
    page = no_script_page
    montana = MontanaUI(page)
    path = montana.start(1)
    assert ringed(page) == []
    with page.expect_navigation():
        montana.cell("D10").click()  # 6♠ to A13
    assert ringed(page) == ["A13"]
    page.screenshot(path="tests/artifacts/last-move-montana-nojs.png")
    page.goto(path)  # the game's own address, later: the mark was for that answer
    assert ringed(page) == []
    page.goto(f"{path}/replay?step=1")
    assert ringed(page) == ["A13"]
