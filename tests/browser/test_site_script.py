"""site.js with a game's own script: the timer counts as the server does (its idle cap, its
clock), a drop posts the places it joins, and a replay's board plays nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Request, expect

from app.web.templating import clock
from tests.browser.conftest import MontanaUI
from tests.browser.test_freecell_browser import FreeCellUI

TIMES = [0, 999, 1_000, 59_999, 60_000, 754_000, 3_599_999, 3_600_000, 3_723_000, 360_000_000]


@pytest.fixture
def fc(page: Page) -> FreeCellUI:
    return FreeCellUI(page)


def _posts(page: Page) -> list[Request]:
    posted: list[Request] = []
    page.on("request", lambda request: posted.append(request) if request.method == "POST" else None)
    return posted


def test_the_scripts_clock_writes_what_the_server_writes(montana: MontanaUI) -> None:
    montana.start(1)
    shown = montana.page.evaluate(
        """times => {
          const formats = document.querySelector(".play[data-clock]").dataset.clock;
          return times.map((ms) => window.Solitaire.clock(ms, formats));
        }""",
        TIMES,
    )
    assert shown == [clock(ms) for ms in TIMES]
    assert montana.page.evaluate("typeof window.Solitaire.register") == "function"


def test_the_timer_stops_at_the_idle_cap_it_is_given(montana: MontanaUI) -> None:
    montana.start(1)
    time = montana.page.locator("#game time[data-play-ms]")
    play = montana.page.locator(".play")
    expect(play).to_have_attribute("data-idle-cap-ms", "60000")
    montana.act(montana.clickable.first)  # the clock starts at the first move
    # Just short of an hour, with a cap of 2 s: the hour shows, and the count stops there.
    play.evaluate("p => { p.dataset.idleCapMs = '2000'; }")
    time.evaluate("t => { t.dataset.playMs = '3599000'; }")
    expect(time).to_have_text("1:00:01")
    montana.page.wait_for_timeout(2_500)
    expect(time).to_have_text("1:00:01")


def test_a_drop_posts_its_places_not_a_move(fc: FreeCellUI) -> None:
    fc.start(1)
    posted = _posts(fc.page)
    with fc.swap():
        fc.drag(fc.exposed("6"), fc.free_cell("a"))
    assert fc.history()[0] == "6a"
    (body,) = [request.post_data or "" for request in posted]
    fields = dict(pair.split("=", 1) for pair in body.split("&"))
    # A drag says so ("drag"): refused, it lets the card go rather than leave it held.
    assert fields == {"version": "0", "held": "1", "source": "6", "target": "a", "drag": "1"}


def test_a_key_naming_a_place_the_card_cannot_go_posts_the_places(fc: FreeCellUI) -> None:
    fc.start(1)
    fc.pick(fc.exposed("1"))  # 6♠: not home yet
    posted = _posts(fc.page)
    with fc.swap(new_version=False):
        fc.page.keyboard.press("h")
    expect(fc.message).to_contain_text("cannot go home yet")
    (body,) = [request.post_data or "" for request in posted]
    fields = dict(pair.split("=", 1) for pair in body.split("&"))
    assert fields == {"version": "0", "held": "1", "source": "1", "target": "h"}


def test_a_right_click_on_the_replay_board_plays_nothing(fc: FreeCellUI) -> None:
    fc.start(1)
    with fc.swap():
        fc.drag(fc.exposed("6"), fc.free_cell("a"))
    played, game_path = fc.history(), fc.game_path
    page = fc.page
    page.goto(f"{game_path}/replay?step=0")
    posted = _posts(page)
    page.locator("#replay #board .fc-column").nth(0).locator(".fc-card").last.click(button="right")
    page.wait_for_timeout(500)
    assert posted == [], "a right-click on a replay's card sent it home in the game"
    page.locator("#replay #board .fc-tableau").click(button="right", position={"x": 5, "y": 5})
    page.wait_for_timeout(500)
    assert posted == []
    assert page.request.get(f"{game_path}/history").text().splitlines() == played
