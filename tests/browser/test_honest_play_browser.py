"""Honest, friendly play in a real browser (issue 21): every refusal says why, by mouse,
touch, keyboard and with JavaScript off; Redo by button and keys; deal numbers from the
game page; the clock waits for the first move; cards that read on a phone; the new words
in Hindi and Arabic."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES, MontanaUI
from tests.browser.test_freecell_browser import FreeCellUI
from tests.browser.test_freecell_browser import fc as fc  # the fixture
from tests.browser.test_freecell_browser import force_position as force_position  # the fixture
from tests.browser.test_play_matrix import Way
from tests.browser.test_play_matrix import way_context as way_context  # the fixture

REFUSAL = re.compile(r"6♥ cannot go on 9♣")
REFUSAL_SPOKEN = re.compile(r"6 of hearts cannot go on 9 of clubs")
HOLDING = "Holding 6♥: it can go to a free cell."
HOLDING_SPOKEN = "Holding 6 of hearts: it can go to a free cell."
"""What the page shows, and what the live region says (cards in words)."""


def announcer(page: Page) -> str:
    return page.locator("#announcer").inner_text()


@pytest.mark.parametrize("way", ["mouse", "touch", "keyboard"])
def test_a_click_where_the_held_card_cannot_go_says_why(
    way_context: Callable[[Way], BrowserContext], way: Way
) -> None:
    page = way_context(way).new_page()
    fc = FreeCellUI(page)
    fc.start(1)
    six = fc.exposed("4")
    with fc.swap(new_version=False):
        if way == "touch":
            six.tap()
        elif way == "keyboard":
            six.focus()
            page.keyboard.press("Enter")
        else:
            six.click()
    expect(page.locator("#game .pick-note")).to_contain_text(HOLDING)
    expect(page.locator("#announcer")).to_have_text(HOLDING_SPOKEN)
    column = fc.column("2")
    with fc.swap(new_version=False):
        if way == "touch":
            column.tap()
        elif way == "keyboard":
            column.focus()
            page.keyboard.press("Enter")
        else:
            column.click()
    expect(fc.message).to_have_text(REFUSAL)
    expect(page.locator("#announcer")).to_have_text(REFUSAL_SPOKEN)
    expect(fc.selected).to_have_count(1)  # still held: the reason is read, nothing picked up
    assert fc.history() == []


def test_a_click_where_the_held_card_cannot_go_says_why_without_javascript(
    way_context: Callable[[Way], BrowserContext],
) -> None:
    page = way_context("nojs").new_page()
    page.goto("/")
    form = page.locator("form").filter(has=page.locator('input[name="kind"][value="freecell"]'))
    form.get_by_role("textbox", name="Deal number").fill("1")
    with page.expect_navigation():
        form.get_by_role("button", name="Play FreeCell").click()
    with page.expect_navigation():
        page.locator('#board .fc-column[data-drop="4"] a.fc-card').last.click()
    expect(page.locator("#game .pick-note")).to_contain_text(HOLDING)
    with page.expect_navigation():
        page.locator('#board .fc-column[data-drop="2"]').click()
    expect(page.locator("#game .message")).to_have_text(REFUSAL)
    expect(page.locator("#board .fc-card.selected")).to_have_count(1)


def test_a_refused_drag_does_not_leave_the_card_held(fc: FreeCellUI) -> None:
    fc.start(1)
    with fc.swap(new_version=False):
        fc.drag(fc.exposed("4"), fc.column("2"))
    expect(fc.message).to_have_text(REFUSAL)
    expect(fc.selected).to_have_count(0)
    expect(fc.board).not_to_have_class(re.compile(r"\bholding\b"))


@pytest.mark.parametrize("way", ["mouse", "touch", "keyboard", "nojs"])
def test_a_montana_card_that_cannot_move_and_a_dead_gap_say_why(
    way_context: Callable[[Way], BrowserContext], way: Way
) -> None:
    page = way_context(way).new_page()
    ui = MontanaUI(page)
    if way == "nojs":
        page.goto("/")
        form = page.locator("form").filter(has=page.locator('input[name="kind"][value="montana"]'))
        form.get_by_role("textbox", name="Deal number").fill("1")
        with page.expect_navigation():
            form.get_by_role("button", name="Play Montana").click()
    else:
        ui.start(1)
    for cell, words, spoken in (
        (
            "A1",
            "J♦ cannot move: it can only follow 10♦, and the cell after it, C9, is not a gap.",
            "jack of diamonds cannot move: it can only follow 10 of diamonds,"
            " and the cell after it, C9, is not a gap.",
        ),
        ("B10", *["Gap B10 is dead until the gap before it, B9, is filled."] * 2),
    ):
        target = ui.cell(cell)
        if way == "nojs":
            with page.expect_navigation():
                target.click()
        else:
            with ui.swap(new_version=False):
                if way == "touch":
                    target.tap()
                elif way == "keyboard":
                    target.focus()
                    page.keyboard.press("Enter")
                else:
                    target.click()
            expect(page.locator("#announcer")).to_have_text(spoken)
        expect(page.locator("#game .message")).to_have_text(words)


def test_cancelling_the_choice_of_a_two_is_announced(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    montana.act(montana.page.locator('#game button[data-key="r"]'))  # a redeal opens column 1
    gap = page.locator("#board a[href*='?pick=']").first
    with montana.swap(new_version=False):
        gap.click()
    expect(page.locator("#announcer")).to_contain_text("Choose the 2 to put in")
    with montana.swap(new_version=False):
        page.keyboard.press("Escape")
    expect(page.locator("#announcer")).to_have_text("Cancelled: nothing was moved.")


def test_redo_by_button_and_keys(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    redo = montana.button("y")
    expect(redo).to_be_disabled()
    first = montana.clickable.first
    montana.act(first)
    after_move = montana.grid()
    montana.press("u")
    expect(redo).to_be_enabled()
    montana.act(redo)
    assert montana.grid() == after_move
    expect(page.locator("#announcer")).to_contain_text("Move redone:")
    montana.press("Control+z")
    montana.press("Control+y")
    assert montana.grid() == after_move
    montana.press("u")
    montana.press("y")
    assert montana.grid() == after_move
    expect(redo).to_be_disabled()
    history = page.request.get(f"{montana.game_path}/history").text().splitlines()
    assert history[1:] == ["undo", history[0], "undo", history[0], "undo", history[0]]


def test_redo_without_javascript(way_context: Callable[[Way], BrowserContext]) -> None:
    page = way_context("nojs").new_page()
    page.goto("/")
    form = page.locator("form").filter(has=page.locator('input[name="kind"][value="montana"]'))
    form.get_by_role("textbox", name="Deal number").fill("1")
    with page.expect_navigation():
        form.get_by_role("button", name="Play Montana").click()
    with page.expect_navigation():
        page.locator("#board button[name=action]").first.click()
    moved = page.locator("#board").inner_text()
    with page.expect_navigation():
        page.locator('#game button[data-key="u"]').click()
    with page.expect_navigation():
        page.locator('#game button[data-key="y"]').click()
    assert page.locator("#board").inner_text() == moved
    expect(page.locator('#game button[data-key="y"]')).to_be_disabled()


@pytest.mark.parametrize("way", ["mouse", "nojs"])
def test_deal_numbers_from_the_game_page(
    way_context: Callable[[Way], BrowserContext], way: Way
) -> None:
    page = way_context(way).new_page()
    page.goto("/")
    form = page.locator("form").filter(has=page.locator('input[name="kind"][value="freecell"]'))
    form.get_by_role("textbox", name="Deal number").fill("1")
    with page.expect_navigation():
        form.get_by_role("button", name="Play FreeCell").click()
    field = page.locator("#deal-number")
    for typed, words in (
        ("0", "Deal numbers run from 1 to 1,000,000, not 0."),
        ("1,000,001", "Deal numbers run from 1 to 1,000,000, not 1,000,001."),
        ("five", "A deal number is a whole number, such as 11982."),
    ):
        page.locator("#deal-number").fill(typed)
        with page.expect_navigation():
            page.get_by_role("button", name="Play this deal").click()
        expect(page.locator("#game .message")).to_have_text(words)
        expect(page.locator("#game-title")).to_contain_text("#1")
    field = page.locator("#deal-number")
    field.fill(" #42 ")
    with page.expect_navigation():
        field.press("Enter")
    expect(page.locator("#game-title")).to_contain_text("#42")
    with page.expect_navigation():
        page.get_by_role("button", name="Next deal (#43)").click()
    expect(page.locator("#game-title")).to_contain_text("#43")
    with page.expect_navigation():
        page.get_by_role("button", name="Previous deal (#42)").click()
    expect(page.locator("#game-title")).to_contain_text("#42")


def test_the_clock_waits_for_the_first_move(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    clock = page.locator("#game time")
    page.wait_for_timeout(2200)
    expect(clock).to_have_text("0:00")
    montana.act(montana.clickable.first)
    expect(clock).to_have_text(re.compile(r"^0:(0[2-9]|[1-5]\d)$"))  # it runs
    paused = page.locator("#game [data-clock-paused]")
    expect(paused).to_be_hidden()
    # Past the idle cap the page says the clock waits (the cap shortened for the test).
    page.evaluate("document.querySelector('.play').dataset.idleCapMs = '1000'")
    expect(paused).to_be_visible()
    expect(paused).to_have_text("Paused: no move for a minute.")


def test_cards_read_well_on_a_phone(
    way_context: Callable[[Way], BrowserContext], artifacts: Path
) -> None:
    page = way_context("touch").new_page()
    fc = FreeCellUI(page)
    fc.start(1)
    corners = page.eval_on_selector_all(
        "#board .fc-card", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert min(corners) >= 13, min(corners)
    strips = page.eval_on_selector_all(
        "#board .fc-column",
        """cols => cols.flatMap(c => { const k = [...c.querySelectorAll('.fc-card')];
             return k.slice(1).map((e, i) => e.getBoundingClientRect().top
                                   - k[i].getBoundingClientRect().top); })""",
    )
    assert min(strips) >= 24, min(strips)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=artifacts / "phone-freecell-cards.png")
    ui = MontanaUI(page)
    ui.start(1)
    faces = page.eval_on_selector_all(
        "#board [data-cell]", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert min(faces) >= 13, min(faces)
    page.screenshot(path=artifacts / "phone-montana-cards.png")


@pytest.mark.parametrize(
    ("language", "holding", "why"),
    [
        # The live region names cards in words (पान का 6; in Arabic isolated).
        (
            "hi",
            re.compile(r"^हाथ में पान का 6 है: इसे किसी फ्री सेल में रखा जा सकता है।$"),
            "नहीं हिलाया जा सकता",
        ),
        (
            "ar",
            re.compile(r"^في يدك \u2068?6 \S+\u2069?: يمكن نقل الورقة إلى خانة حرة\.$"),
            "لا يمكن نقل",
        ),
    ],
)
def test_the_new_words_in_hindi_and_arabic(
    browser: Browser, live_server: str, language: str, holding: re.Pattern[str], why: str
) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, base_url=live_server, locale=language
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_init_script(COUNT_SETTLES)
    try:
        page = context.new_page()
        fc = FreeCellUI(page)
        start_by_form(page, "freecell", 1)
        with fc.swap(new_version=False):
            fc.exposed("4").click()
        expect(page.locator("#announcer")).to_have_text(holding)
        montana = MontanaUI(page)
        start_by_form(page, "montana", 1)
        with montana.swap(new_version=False):
            montana.cell("A1").click()
        expect(page.locator("#announcer")).to_contain_text(why)
        expect(page.locator('#game button[data-key="y"]')).to_have_text(
            re.compile("फिर से करें" if language == "hi" else "إعادة")
        )
    finally:
        context.close()


def test_statistics_on_a_phone_never_scroll_sideways(
    way_context: Callable[[Way], BrowserContext], artifacts: Path
) -> None:
    page = way_context("touch").new_page()
    MontanaUI(page).start(1)  # a player with a game, so both tables show
    page.goto("/stats")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    wide = page.eval_on_selector_all(
        ".table-wrap", "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).length"
    )
    assert wide == 0, "a table scrolls sideways"
    expect(page.locator(".stats-table td[data-label='Unfinished']").first).to_be_visible()
    page.screenshot(path=artifacts / "phone-stats.png", full_page=True)


def start_by_form(page: Page, kind: str, deal: int) -> None:
    """Start ``deal`` of ``kind`` from the home page's form in any language (no words)."""
    page.goto("/")
    form = f'form:has(input[name="kind"][value="{kind}"]):has(input[name="deal"])'
    page.locator(f'{form} input[name="deal"]').fill(str(deal))
    with page.expect_navigation():
        page.locator(f"{form} button").last.click()


CHART_WORDS = {
    "en": ("Win percentage over 1 finished game", ["won", "lost"]),
    "hi": ("1 पूरे हुए गेम में जीत प्रतिशत", ["जीत", "हार"]),
    "ar": ("نسبة الفوز في لعبة واحدة منتهية", ["فوز", "خسارة"]),
}


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_charts_on_a_phone_have_legends_and_labels_a_person_can_read(
    browser: Browser, live_server: str, artifacts: Path, language: str
) -> None:
    """One game given up: the charts' titles say one game, each names its series in a
    legend, and every label inside the scaled-down SVG is drawn at 11 px or more."""
    context = browser.new_context(
        base_url=live_server,
        viewport={"width": 375, "height": 740},
        has_touch=True,
        is_mobile=True,
        locale=language,
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_init_script(COUNT_SETTLES)
    try:
        page = context.new_page()
        ui = MontanaUI(page)
        start_by_form(page, "montana", 1)
        page.locator("details.give-up summary").click()
        ui.act(page.locator('button[name="action"][value="resign"]'))
        expect(ui.game).to_have_attribute("data-status", "lost")
        page.goto("/stats")  # the player's own charts, Montana Expert first
        title, legend = CHART_WORDS[language]
        figures = page.locator("figure.chart")
        expect(figures.first.locator("figcaption")).to_have_text(title)
        expect(figures.last.locator(".legend li")).to_have_text(legend)
        expect(figures.first.locator(".legend li")).to_have_count(1)
        smallest = page.eval_on_selector_all(
            "figure.chart svg text",
            "els => Math.min(...els.map(e => e.getBoundingClientRect().height))",
        )
        assert smallest >= 11, f"a chart label is {smallest:.1f} px tall"
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        page.locator("section[aria-labelledby=charts-title]").screenshot(
            path=artifacts / f"phone-charts-{language}.png"
        )
    finally:
        context.close()


def _glides_after_a_move(page: Page) -> tuple[int, str]:
    """Play Montana #1's first move; how many cards were animating right after the swap,
    and the card the move took (read from its old cell)."""
    ui = MontanaUI(page)
    ui.start(1)
    page.evaluate(
        """() => document.addEventListener('htmx:afterSwap', () => {
             window.__gliding = document.getAnimations().length; })"""
    )
    ui.act(ui.clickable.first)
    return page.evaluate("window.__gliding || 0"), ui.version()


def test_a_card_glides_to_where_it_goes_and_motion_never_delays_a_click(
    montana: MontanaUI,
) -> None:
    gliding, version = _glides_after_a_move(montana.page)
    assert gliding >= 1, "the moved card glides"
    # The next click is taken at once, while the card is still gliding.
    montana.act(montana.clickable.first)
    assert montana.version() != version


def test_the_win_is_celebrated(fc: FreeCellUI, force_position: Callable[[str, str], None]) -> None:
    from tests.browser.test_freecell_browser import ALMOST_WON

    fc.start(1)
    force_position(fc.game_id, ALMOST_WON)
    fc.page.reload()
    fc.act(fc.exposed("1"), button="right")
    # The end screen carries the animation (over in 0.7 s: a loaded machine may look later).
    won = fc.page.locator(".end-screen.end-won")
    assert won.evaluate("e => getComputedStyle(e).animationName") == "celebrate"


@pytest.mark.parametrize("how", ["system", "preference"])
def test_no_motion_when_reduced_motion_is_asked_for(
    browser: Browser, live_server: str, how: str, force_position: Callable[[str, str], None]
) -> None:
    from tests.browser.test_freecell_browser import ALMOST_WON

    options: dict[str, object] = {
        "base_url": live_server,
        "viewport": {"width": 1280, "height": 800},
    }
    if how == "system":
        options["reduced_motion"] = "reduce"
    context = browser.new_context(**options)  # type: ignore[arg-type]
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_init_script(COUNT_SETTLES)
    if how == "preference":  # issue 26's player preference: a class on <html>
        context.add_init_script(
            "document.addEventListener('DOMContentLoaded', () =>"
            " document.documentElement.classList.add('motion-reduced'))"
        )
    try:
        page = context.new_page()
        gliding, _version = _glides_after_a_move(page)
        assert gliding == 0
        fc = FreeCellUI(page)
        fc.start(1)
        force_position(fc.game_id, ALMOST_WON)
        page.reload()
        fc.act(fc.exposed("1"), button="right")
        assert page.evaluate("document.getAnimations().length") == 0
    finally:
        context.close()
