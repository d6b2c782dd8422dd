"""Races in real browsers: two racers in two browser contexts (make, join, start, a move
seen live by the other, giving up, the result with watch links), the screen reader's
words, keyboard only, JavaScript off, and the page in three languages at two widths."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from tests.browser.test_accessibility import assert_accessible
from tests.browser.test_freecell_browser import FreeCellUI

LIVE_MS = 30_000
"""How long a live change may take to reach the other browser on a loaded machine (what
is checked is that it comes, never how fast)."""
COUNTDOWN_MS = 40_000
STREAM = re.compile(r"/races/[\w-]+/events(\?|$)")


def make_race(page: Page, deal: int = 1, limit: str = "") -> str:
    """Start a FreeCell race from the home page's form; the race's path."""
    page.goto("/")
    form = page.locator('form.race-form[data-kind="freecell"]')
    form.get_by_role("textbox", name="Deal number").fill(str(deal))
    if limit:
        form.get_by_label("Time limit").select_option(limit)
    form.get_by_role("button", name="Start a FreeCell race").click()
    page.wait_for_url("**/races/*")
    return page.url.split(page.url.split("/races/")[0], 1)[1]


def racers(page: Page) -> object:
    return page.locator("#racers tr")


def play_link(page: Page) -> str:
    link = page.get_by_role("link", name="Play your game")
    expect(link).to_be_visible(timeout=COUNTDOWN_MS)
    href = link.get_attribute("href")
    assert href is not None and href.startswith("/games/")
    return href


def blocked(page: Page) -> list[str]:
    """What the page's Content-Security-Policy refuses (filled as it happens)."""
    found: list[str] = []
    page.on(
        "console",
        lambda message: (
            found.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return found


def give_up(ui: FreeCellUI) -> None:
    page = ui.page
    page.locator("details.give-up summary").click()
    ui.act(page.get_by_role("button", name="Yes, give up"))


def test_two_racers_race_live_and_see_the_result(
    new_context: Callable[[], BrowserContext], artifacts: Path
) -> None:
    maker, joiner = new_context().new_page(), new_context().new_page()
    refused = blocked(maker)
    race = make_race(maker)
    expect(maker.get_by_role("heading", name="Race: FreeCell #1")).to_be_visible()
    expect(racers(maker)).to_have_count(1)  # type: ignore[attr-defined]

    joiner.goto(race)
    joiner.get_by_role("button", name="Join the race").click()
    expect(joiner.get_by_text("You are in this race as anonymous 2.")).to_be_visible()
    # The maker's lobby hears of it live, and the screen reader is told.
    expect(racers(maker)).to_have_count(2, timeout=LIVE_MS)  # type: ignore[attr-defined]
    expect(maker.locator("#race-said")).to_have_text(
        "anonymous 2 has joined the race.", timeout=LIVE_MS
    )
    maker.screenshot(path=str(artifacts / "race-lobby-en-1280.png"))

    maker.get_by_role("button", name="Start the race").click()
    expect(joiner.locator("#race-said")).to_contain_text("The race", timeout=LIVE_MS)
    mine, theirs = play_link(maker), play_link(joiner)
    assert mine != theirs
    # Nobody's page shows another racer's game: only watch links.
    assert joiner.locator(f'a[href="{mine}"]').count() == 0
    assert maker.locator(f'a[href="{theirs}"]').count() == 0
    expect(maker.locator('#racers a[href^="/watch/"]')).to_have_count(2)
    expect(joiner.locator("#race-said")).to_have_text("The race has started: go!", timeout=LIVE_MS)

    # The maker plays a move (keyboard) in their own game; the joiner sees it live.
    game = maker.context.new_page()
    game.goto(mine)
    ui = FreeCellUI(game)
    ui.press("3", new_version=False)
    ui.press("a")
    expect(joiner.locator("#racers tr").first.locator(".moves")).to_have_text("1", timeout=LIVE_MS)
    joiner.screenshot(path=str(artifacts / "race-running-en-1280.png"))
    # Beside the maker's board, the race's table, live.
    beside = game.locator(".race-beside tbody tr")
    expect(beside).to_have_count(2, timeout=LIVE_MS)
    expect(beside.first.locator(".moves")).to_have_text("1", timeout=LIVE_MS)
    game.screenshot(path=str(artifacts / "race-game-en-1280.png"))

    give_up(ui)
    expect(joiner.locator("#race-said")).to_have_text("anonymous 1 has given up.", timeout=LIVE_MS)
    other = FreeCellUI(joiner.context.new_page())
    other.page.goto(theirs)
    give_up(other)

    for page in (maker, joiner):
        expect(page.get_by_role("heading", name="Result")).to_be_visible(timeout=LIVE_MS)
        expect(page.locator("#racers tr")).to_have_count(2)
        expect(page.locator('#racers a[href*="/replays/"]')).to_have_count(2)  # the race's own
        expect(page.get_by_role("link", name="replay")).to_have_count(2)
    joiner.screenshot(path=str(artifacts / "race-result-en-1280.png"), full_page=True)
    assert not refused  # nothing the page does is refused by the site's script policy
    # A replay link opens the game read-only, never its address.
    joiner.get_by_role("link", name="replay").first.click()
    joiner.wait_for_url("**/replays/*")
    assert "/games/" not in joiner.content().split("<main", 1)[1].split("</main>")[0]


def test_keyboard_only_join_and_start(new_context: Callable[[], BrowserContext]) -> None:
    maker, joiner = new_context().new_page(), new_context().new_page()
    race = make_race(maker)
    joiner.goto(race)
    join = joiner.get_by_role("button", name="Join the race")
    for _ in range(40):
        joiner.keyboard.press("Tab")
        if join.evaluate("b => b === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached Join")
    joiner.keyboard.press("Enter")
    expect(joiner.get_by_text("You are in this race as anonymous 2.")).to_be_visible()
    # The maker's page hears of the join and draws its part again: then the key goes to
    # the button as drawn.
    expect(maker.get_by_text("2 racers")).to_be_visible(timeout=COUNTDOWN_MS)
    start = maker.get_by_role("button", name="Start the race")
    start.focus()
    maker.keyboard.press("Enter")
    play_link(maker)
    assert_accessible(maker)


def test_without_javascript_a_race_is_made_joined_and_followed_by_refreshing(
    no_script_page: Page, browser: object, live_server: str
) -> None:
    page = no_script_page
    race = make_race(page, deal=7, limit="5")
    expect(page.get_by_text("time limit 5 minutes")).to_be_visible()
    refresh = page.get_by_role("link", name="Refresh")
    expect(refresh).to_be_visible()
    page.get_by_role("button", name="Start the race").click()
    page.wait_for_url(f"**{race}")
    link = page.get_by_role("link", name="Play your game")
    for _ in range(60):  # the countdown: a plain reload shows the game once it is over
        if link.count():
            break
        page.wait_for_timeout(500)
        page.get_by_role("link", name="Refresh").click()
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href is not None
    page.goto(href)
    expect(page.locator("#game")).to_be_visible()


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
@pytest.mark.parametrize("width", [1280, 375])
def test_the_race_page_in_each_language_and_width(
    new_context: Callable[[], BrowserContext], artifacts: Path, language: str, width: int
) -> None:
    maker = new_context().new_page()
    maker.set_viewport_size({"width": width, "height": 900})
    make_race(maker)
    maker.context.set_extra_http_headers({"Accept-Language": language})
    maker.reload()
    if language == "ar":
        expect(maker.locator("html")).to_have_attribute("dir", "rtl")
    expect(maker.locator("#race h1")).to_be_visible()
    script = {"hi": r"[\u0900-\u097f]", "ar": r"[\u0600-\u06ff]"}.get(language, "Race")
    assert re.search(script, maker.locator("#race h1").inner_text())
    # Nothing wider than the screen.
    assert maker.evaluate("document.documentElement.scrollWidth") <= width + 1
    maker.screenshot(path=str(artifacts / f"race-lobby-{language}-{width}.png"), full_page=True)
    # Started, and given up (the game's own form, posted as a page would): the result.
    maker.locator(".race-actions form button").last.click()
    link = maker.locator(".race-play a")
    expect(link).to_be_visible(timeout=COUNTDOWN_MS)
    game = link.get_attribute("href")
    assert game is not None
    answer = maker.request.post(f"{game}/actions", form={"action": "resign", "version": "0"})
    assert answer.ok
    expect(maker.locator("#race h2")).to_be_visible(timeout=LIVE_MS)
    assert maker.evaluate("document.documentElement.scrollWidth") <= width + 1
    maker.screenshot(path=str(artifacts / f"race-result-{language}-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", [1280, 375])
def test_the_home_pages_race_panel(page: Page, artifacts: Path, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/")
    panel = page.locator("section.race-start")
    expect(panel.get_by_role("button", name="Start a Montana race")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    panel.screenshot(path=str(artifacts / f"race-home-en-{width}.png"))


def test_without_a_live_stream_the_page_asks_every_two_seconds(
    new_context: Callable[[], BrowserContext], artifacts: Path
) -> None:
    maker, joiner = new_context().new_page(), new_context().new_page()
    maker.route(STREAM, lambda route: route.abort())  # a stream refused
    refused = blocked(maker)
    race = make_race(maker)
    joiner.goto(race)
    joiner.get_by_role("button", name="Join the race").click()
    expect(racers(maker)).to_have_count(2, timeout=LIVE_MS)  # type: ignore[attr-defined]
    expect(maker.get_by_text("2 racers")).to_be_visible(timeout=LIVE_MS)
    notice = maker.locator(".race-live > .race-reconnecting")
    expect(notice).to_have_text("Reconnecting…")  # brief, and nothing more alarming
    expect(maker.get_by_role("alert")).to_have_count(0)
    for width in (1280, 375):
        maker.set_viewport_size({"width": width, "height": 800})
        maker.screenshot(path=str(artifacts / f"race-reconnecting-en-{width}.png"))
    maker.unroute(STREAM)  # the stream is back: the notice goes
    expect(notice).to_have_count(0, timeout=LIVE_MS)
    assert not refused


def test_the_race_clock_keeps_the_servers_time_through_live_updates(
    new_context: Callable[[], BrowserContext],
) -> None:
    """The clock's offset comes with the #race part it was drawn with: a live update of
    the table (a move) never sets it back to the page's first server time."""
    maker, watcher = new_context().new_page(), new_context().new_page()
    race = make_race(maker)
    maker.get_by_role("button", name="Start the race").click()
    game = play_link(maker)
    watcher.clock.install()
    watcher.goto(race)
    shown = watcher.locator("[data-race-clock]")
    expect(shown).to_have_text(re.compile(r"^0:0\d$"))
    watcher.clock.fast_forward(90_000)  # a minute and a half on the watcher's clock
    expect(shown).to_have_text(re.compile(r"^1:3\d$"))
    answer = maker.request.post(f"{game}/actions", form={"action": "3a", "version": "0"})
    assert answer.ok
    moves = watcher.locator("#racers tr").first.locator(".moves")
    expect(moves).to_have_text("1", timeout=LIVE_MS)
    watcher.clock.run_for(1000)
    expect(shown).to_have_text(re.compile(r"^1:3\d$"))  # not back to the first reading


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("ar", 375), ("hi", 375)])
def test_a_watcher_sees_each_racers_board_live_and_cannot_play_on_it(
    new_context: Callable[[], BrowserContext], artifacts: Path, language: str, width: int
) -> None:
    maker = new_context().new_page()
    race = make_race(maker)
    maker.get_by_role("button", name="Start the race").click()
    mine = play_link(maker)
    watcher = new_context().new_page()
    watcher.set_viewport_size({"width": width, "height": 900})
    watcher.context.set_extra_http_headers({"Accept-Language": language})
    watcher.goto(race)
    board = watcher.locator("figure.race-board")
    expect(board).to_have_count(1)
    if language == "en":
        expect(watcher.get_by_role("figure", name="anonymous 1's board")).to_be_visible()
    if language == "ar":
        expect(watcher.locator("html")).to_have_attribute("dir", "rtl")
        expect(board.locator(".race-board-view")).to_have_attribute("dir", "ltr")
    cards = board.locator(".fc-cell .fc-card")
    expect(cards).to_have_count(0)
    expect(board.locator(".race-board-view")).to_have_attribute("inert", "")

    # The racer moves a card to a free cell in their own game: the watcher's small board
    # shows it, live; the live region stays quiet (a move is not news).
    game = maker.context.new_page()
    game.goto(mine)
    ui = FreeCellUI(game)
    ui.press("3", new_version=False)
    ui.press("a")
    expect(cards).to_have_count(1, timeout=LIVE_MS)
    expect(watcher.locator("#racers tr").first.locator(".moves")).to_have_text("1")
    expect(watcher.locator("#race-said")).to_have_text("")
    # Nothing on a small board is played or reached by the keyboard (it is inert).
    for _ in range(30):
        watcher.keyboard.press("Tab")
        assert not watcher.evaluate("() => !!document.activeElement.closest('.race-board')"), (
            "the keyboard reached a small board"
        )
    assert watcher.evaluate("document.documentElement.scrollWidth") <= width + 1
    watcher.screenshot(path=str(artifacts / f"race-boards-{language}-{width}.png"), full_page=True)


def test_without_javascript_a_watcher_sees_the_boards_after_refresh(
    new_context: Callable[[], BrowserContext], no_script_page: Page
) -> None:
    maker = new_context().new_page()
    race = make_race(maker)
    maker.get_by_role("button", name="Start the race").click()
    mine = play_link(maker)
    page = no_script_page
    page.goto(race)
    cards = page.locator("figure.race-board .fc-cell .fc-card")
    expect(page.locator("figure.race-board")).to_have_count(1)
    expect(cards).to_have_count(0)
    answer = maker.request.post(f"{mine}/actions", form={"action": "3a", "version": "0"})
    assert answer.ok
    page.get_by_role("link", name="Refresh").click()
    expect(cards).to_have_count(1)


def test_a_join_answered_slowly_is_not_overwritten_by_the_change_it_made(
    new_context: Callable[[], BrowserContext],
) -> None:
    """The stream tells the joiner's page of the join before the join's own answer is
    in: the race's part must not be asked for then (without the joiner's new cookie it
    would show "Join" again) but once the answer is in."""
    maker, joiner = new_context().new_page(), new_context().new_page()
    race = make_race(maker)
    joiner.context.add_init_script(
        "document.addEventListener('htmx:sseOpen', () => { window.sseOpen = true; });"
    )
    joiner.goto(race)
    joiner.wait_for_function("window.sseOpen === true", timeout=LIVE_MS)

    def slow(route: Route) -> None:
        # Sent past the browser (whose cookies the answer would set at once): the join is
        # stored and the stream tells of it while the page waits for this answer.
        request = route.request
        answer = httpx.post(request.url, headers=request.headers, content=request.post_data_buffer)
        time.sleep(2)
        route.fulfill(status=answer.status_code, headers=dict(answer.headers), body=answer.content)

    joiner.route(re.compile(r"/races/[\w-]+/join$"), slow)
    joiner.get_by_role("button", name="Join the race").click()
    expect(joiner.get_by_text("You are in this race as anonymous 2.")).to_be_visible()
    expect(joiner.get_by_role("button", name="Join the race")).to_have_count(0)
    expect(maker.get_by_text("2 racers")).to_be_visible(timeout=LIVE_MS)
    # A later change (the start) still reaches the joiner's part.
    maker.get_by_role("button", name="Start the race").click()
    play_link(joiner)
