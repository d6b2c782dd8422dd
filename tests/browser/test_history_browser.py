"""My games, statistics, replays and the "move my games" link in a real browser.

One player (a module-scoped browser context) plays three games through the pages: Montana
Expert #1 (two moves, then given up), FreeCell #1 (``6a``, ``6b`` by keyboard, three cards
go home by themselves, then given up) and Montana Easy #2 (left unfinished). Each test
then opens a fresh context carrying that player's cookie, so the tests stay independent
of each other's order and of the other browser tests sharing the live server.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Cookie,
    Locator,
    Page,
    ViewportSize,
    expect,
)

from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES, VIEWPORT, MontanaUI

DESKTOP: Final[ViewportSize] = {"width": 1280, "height": 900}
PHONE: Final[ViewportSize] = {"width": 375, "height": 812}
BLOCKING: Final = frozenset({"serious", "critical"})

MONTANA_STEPS: Final = [
    "Step 1: 5H C4 · 5♥ to C4",
    "Step 2: 6S A13 · 6♠ to A13",
    "Step 3: resign",
]
FREECELL_STEPS: Final = [
    "Step 1: 6a · 3♦ from column 6 to free cell a",
    "Step 2: 6b · 2♣ from column 6 to free cell b",
    "Step 3: 6h · A♣ home from column 6 (automatic)",
    "Step 4: 6h · A♠ home from column 6 (automatic)",
    "Step 5: bh · 2♣ home from free cell b (automatic)",
    "Step 6: resign",
]
THE_DEAL: Final = "The deal, before the first move."


@dataclass(frozen=True)
class Played:
    """The module's player: their cookies and the paths of their three games."""

    cookies: list[Cookie]
    montana: str
    freecell: str
    unfinished: str


# -- helpers -----------------------------------------------------------------------------


def give_up(ui: MontanaUI) -> None:
    """Give the game up through ``<details class="give-up">`` and wait for the end screen."""
    ui.page.locator("details.give-up summary").click()
    ui.act(ui.page.get_by_role("button", name="Yes, give up"))
    expect(ui.page.locator("#game .end-screen")).to_contain_text("You gave up")
    expect(ui.game).to_have_attribute("data-status", "lost")


def start_freecell(page: Page, deal: int) -> str:
    page.goto("/")
    form = page.locator("form").filter(has=page.locator('input[name="kind"][value="freecell"]'))
    form.get_by_role("textbox", name="Deal number").fill(str(deal))
    form.get_by_role("button", name="Play FreeCell").click()
    page.wait_for_url("**/games/*")
    expect(page.locator("#game-title")).to_contain_text(f"FreeCell #{deal}")
    return MontanaUI(page).game_path


def history(page: Page, path: str) -> list[str]:
    response = page.request.get(f"{path}/history")
    assert response.ok, response.status
    return response.text().splitlines()


def rows(page: Page) -> Locator:
    return page.locator("table.games-table tbody tr")


def listed(page: Page) -> list[list[str]]:
    """My games as [game, status, links] per row, in the page's order."""
    cells: list[list[str]] = rows(page).evaluate_all(
        "trs => trs.map(tr => Array.from(tr.cells, td => td.innerText.trim()))"
    )
    return [[row[0], row[1], row[6]] for row in cells]


def stats_row(page: Page, caption: str, group: str) -> dict[str, str]:
    """One row of a statistics table, keyed by the column headings."""
    table = page.locator("table.stats-table").filter(
        has=page.locator("caption", has_text=re.compile(f"^{caption}$"))
    )
    expect(table).to_have_count(1)
    heads = [" ".join(t.split()) for t in table.locator("thead th").all_text_contents()]
    row = table.locator("tbody tr").filter(
        has=page.get_by_role("rowheader", name=group, exact=True)
    )
    expect(row).to_have_count(1)
    values = [" ".join(t.split()) for t in row.locator("th, td").all_text_contents()]
    return dict(zip(heads, values, strict=True))


def settled(page: Page) -> int:
    count: int = page.evaluate("window.__htmxSettled")
    return count


def replay_key(page: Page, key: str, step: int) -> None:
    """Press ``key`` on a replay page and wait until htmx has swapped in ``step``."""
    before = settled(page)
    page.keyboard.press(key)
    page.wait_for_function("n => window.__htmxSettled > n", arg=before)
    expect(page.locator("#replay")).to_have_attribute("data-step", str(step))
    expect(page).to_have_url(re.compile(rf"/replay\?step={step}$"))


WIDER_THAN_THE_PAGE: Final = """
limit => Array.from(document.querySelectorAll("body *"))
  .filter(e => e.getBoundingClientRect().right > limit + 0.5)
  .filter(e => !(e.parentElement && e.parentElement.closest(".table-wrap"))
    || ["absolute", "fixed"].includes(getComputedStyle(e).position))
  .slice(0, 8)
  .map(e => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${e.className}`
    + ` right=${Math.round(e.getBoundingClientRect().right)}`)
"""
"""What sticks out to the right, leaving out what a ``.table-wrap`` scrolls (and clips)."""


def sideways_scroll(page: Page) -> str | None:
    """Why the page scrolls sideways at its viewport's width, or None if it does not."""
    width = page.evaluate("document.documentElement.scrollWidth")
    limit = page.viewport_size["width"] if page.viewport_size else PHONE["width"]
    if width <= limit:
        return None
    wide = page.evaluate(WIDER_THAN_THE_PAGE, limit)
    return f"{page.url} scrolls sideways at {limit} px: scrollWidth {width}; sticking out: {wide}"


def describe_violations(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:8]:
            lines.append(f"  - {' '.join(map(str, node['target']))}: {node['html'][:160]}")
            if node.get("failureSummary"):
                lines.append(f"    {' '.join(node['failureSummary'].split())}")
    return "\n".join(lines)


# -- fixtures ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(browser: Browser, live_server: str) -> Iterator[Played]:
    """Play the three games through the pages, once for the module."""
    context = browser.new_context(viewport=VIEWPORT, base_url=live_server)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_init_script(COUNT_SETTLES)
    try:
        page = context.new_page()
        ui = MontanaUI(page)

        montana = ui.start(1)
        ui.act(page.locator('#board [aria-label^="5 of hearts, row"][aria-label*="move to"]'))
        ui.act(page.locator('#board [aria-label^="6 of spades, row"][aria-label*="move to"]'))
        expect(ui.status("Moves")).to_have_text("2")
        give_up(ui)
        assert history(page, montana) == ["5H C4", "6S A13", "resign"]

        freecell = start_freecell(page, 1)
        for key, moves in (("6", False), ("a", True), ("6", False), ("b", True)):
            with ui.swap(new_version=moves):
                page.keyboard.press(key)
        expect(ui.status("Cards left")).to_have_text("49")  # AC, AS, 2C went home
        give_up(ui)
        assert history(page, freecell) == ["6a", "6b", "6h", "6h", "bh", "resign"]

        unfinished = ui.start(2, "easy")
        yield Played(context.cookies(), montana, freecell, unfinished)
    finally:
        context.close()


@pytest.fixture
def player(new_context: Callable[[], BrowserContext], played: Played) -> Page:
    """A page in a fresh context that is the module's player."""
    context = new_context()
    context.add_cookies(played.cookies)  # type: ignore[arg-type]
    return context.new_page()


@pytest.fixture
def no_js(browser: Browser, live_server: str, played: Played) -> Iterator[Page]:
    """A page with JavaScript off, as the module's player."""
    context = browser.new_context(
        viewport=VIEWPORT, base_url=live_server, java_script_enabled=False
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_cookies(played.cookies)  # type: ignore[arg-type]
    try:
        yield context.new_page()
    finally:
        context.close()


# -- 1. My games ---------------------------------------------------------------------------


def test_my_games_lists_the_finished_and_unfinished_games(player: Page, played: Played) -> None:
    page = player
    page.goto("/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="My games").click()
    expect(page).to_have_url(re.compile(r"/games$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("My games")

    assert listed(page) == [
        ["Montana #2 Easy", "in play", "Continue · Replay"],
        ["FreeCell #1 Standard", "given up", "Replay · Review"],  # newest finished first
        ["Montana #1 Expert", "given up", "Replay · Review"],
    ]
    first, fc_row, montana_row = (rows(page).nth(i) for i in range(3))
    expect(first).to_have_class("status-playing")
    expect(first.get_by_role("link", name="Continue")).to_have_attribute(
        "href", re.compile(f"{played.unfinished}$")
    )
    expect(fc_row.locator("td").nth(2)).to_have_text("49 left")
    expect(fc_row.locator("td").nth(3)).to_have_text("2")  # the player's moves: 6a, 6b
    expect(montana_row.locator("td").nth(3)).to_have_text("2")
    for row, path in ((fc_row, played.freecell), (montana_row, played.montana)):
        expect(row).to_have_class("status-lost")
        expect(row.get_by_role("link", name="Continue")).to_have_count(0)
        expect(row.get_by_role("link", name="Replay")).to_have_attribute(
            "href", re.compile(f"{path}/replay$")
        )

    # "Continue" opens the unfinished game; "Replay" opens a finished one at its deal.
    first.get_by_role("link", name="Continue").click()
    expect(page).to_have_url(re.compile(f"{played.unfinished}$"))
    expect(page.locator("#game-title")).to_contain_text("Montana #2")
    page.go_back()
    montana_row.get_by_role("link", name="Replay").click()
    expect(page).to_have_url(re.compile(f"{played.montana}/replay$"))
    expect(page.locator(".replay-now")).to_have_text(THE_DEAL)
    expect(page.locator("#replay .status")).to_contain_text("0/3")

    # The filter form narrows the list.
    page.goto("/games")
    form = page.locator("form.filters")
    form.get_by_label("Game").select_option(label="FreeCell")
    form.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"/games\?game=freecell&status=$"))
    assert listed(page) == [["FreeCell #1 Standard", "given up", "Replay · Review"]]
    expect(form.get_by_label("Game")).to_have_value("freecell")

    form.get_by_label("Game").select_option(label="Montana")
    form.get_by_label("Status").select_option(label="In play")
    form.get_by_role("button", name="Show").click()
    assert listed(page) == [["Montana #2 Easy", "in play", "Continue · Replay"]]

    form.get_by_label("Status").select_option(label="Won")
    form.get_by_role("button", name="Show").click()
    expect(page.get_by_text("No games match.")).to_be_visible()
    expect(rows(page)).to_have_count(0)


# -- 2. statistics -------------------------------------------------------------------------


def test_statistics_count_the_games_and_draw_charts(player: Page) -> None:
    page = player
    page.goto("/stats")
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistics")
    for group in ("Montana Expert", "FreeCell Standard"):
        row = stats_row(page, "Your games", group)
        assert row["Played"] == "1", row
        assert row["Won"] == "0", row
        assert row["Lost"] == "1", row
        assert row["Win %"] == "0%", row
        assert row["Streak now / best"] == "0 / 0", row
        assert row["Fastest win"] == "–", row
    # Opened, never moved in: no game yet, folded into the line of variants not played.
    expect(page.get_by_text(re.compile(r"No games yet: .*Montana Easy")).first).to_be_visible()
    everyone = stats_row(page, "Everyone on this site", "FreeCell Standard")
    # Everyone's figures are recomputed at most once a minute: a number, maybe not yet ours.
    assert everyone["Played"].isdigit(), everyone

    # The first group's charts, for this player: two losses of Montana Expert.
    charts = page.locator("section[aria-labelledby=charts-title]")
    expect(charts.get_by_role("heading", level=2)).to_have_text("Charts: Montana Expert · you")
    tabs = page.get_by_role("navigation", name="Choose the charts")
    expect(tabs.get_by_role("link", name="Montana Expert")).to_have_attribute(
        "aria-current", "page"
    )
    expect(tabs.get_by_role("link", name="You")).to_have_attribute("aria-current", "page")
    figures = page.locator("figure.chart")
    expect(figures.locator("figcaption")).to_have_text(
        ["Win percentage over 1 finished game", "Winning times", "Results per day, last 30 days"]
    )
    expect(page.locator("figure.chart svg")).to_have_count(2)  # no wins: no winning times
    expect(figures.nth(1)).to_contain_text("No wins yet.")
    svg = figures.first.locator("svg")
    expect(svg).to_have_attribute("role", "img")
    expect(svg).to_be_visible()
    expect(svg.locator("circle.dot")).to_have_count(1)
    expect(figures.nth(2).locator("rect.bar-loss")).to_have_count(1)
    expect(figures.nth(2).locator("rect.bar-loss title")).to_have_text(re.compile(r": 1 lost$"))

    # The tabs switch the group (and keep "you").
    tabs.get_by_role("link", name="FreeCell Standard").click()
    expect(page).to_have_url(re.compile(r"/stats\?game=freecell-standard$"))
    expect(charts.get_by_role("heading", level=2)).to_have_text("Charts: FreeCell Standard · you")
    expect(tabs.get_by_role("link", name="FreeCell Standard")).to_have_attribute(
        "aria-current", "page"
    )
    expect(page.locator("figure.chart svg")).to_have_count(2)
    expect(page.locator("#win-rate-desc")).to_have_text(
        "Running win percentage over 1 finished game, ending at 0%."
    )

    tabs.get_by_role("link", name="Everyone").click()
    expect(page).to_have_url(re.compile(r"/stats\?game=freecell-standard&who=all$"))
    expect(charts.get_by_role("heading", level=2)).to_have_text(
        "Charts: FreeCell Standard · everyone"
    )


# -- 3. replay: keyboard and autoplay -------------------------------------------------------


def test_replay_with_the_keyboard_and_autoplay(player: Page, played: Played) -> None:
    page = player
    page.goto(f"{played.montana}/replay")
    replay = page.locator("#replay")
    now = page.locator(".replay-now")
    expect(replay).to_have_attribute("data-step", "0")  # a replay opens at the deal
    expect(now).to_have_text(THE_DEAL)
    page.goto(f"{played.montana}/replay?step=3")
    expect(replay).to_have_attribute("data-step", "3")
    expect(now).to_have_text(MONTANA_STEPS[2])
    expect(page.locator("#replay .status")).to_contain_text("3/3")
    page.evaluate("window.__marker = 42")

    replay_key(page, "Home", 0)
    expect(now).to_have_text(THE_DEAL)
    expect(page.locator("#replay .status")).to_contain_text("0/3")
    expect(page.locator('#replay [data-replay="first"]')).to_have_count(0)
    replay_key(page, "ArrowRight", 1)
    expect(now).to_have_text(MONTANA_STEPS[0])
    expect(page.locator('#replay [data-cell="C4"]')).to_have_attribute("aria-label", "5 of hearts")
    replay_key(page, "ArrowRight", 2)
    expect(now).to_have_text(MONTANA_STEPS[1])
    expect(page.locator('#replay [data-cell="A13"]')).to_have_attribute("aria-label", "6 of spades")
    replay_key(page, "ArrowLeft", 1)
    expect(now).to_have_text(MONTANA_STEPS[0])
    expect(page.locator(".replay-list li[aria-current=step]")).to_contain_text("5H C4")
    replay_key(page, "End", 3)
    expect(now).to_have_text(MONTANA_STEPS[2])
    expect(page.locator('#replay [data-replay="next"]')).to_have_count(0)
    assert page.evaluate("window.__marker") == 42, "the replay reloaded instead of swapping"

    # The browser's Back button goes back through the pushed steps.
    page.go_back()
    expect(page).to_have_url(re.compile(r"\?step=1$"))
    expect(now).to_have_text(MONTANA_STEPS[0])

    # Autoplay at "fast" from the deal of the FreeCell game: it reaches the end and stops.
    page.goto(f"{played.freecell}/replay?step=0")
    page.evaluate("window.__marker = 43")
    play = page.locator("#replay [data-autoplay]")
    expect(play).to_be_visible()
    expect(play).to_have_text("▶ Play")
    page.locator("#replay [data-speed]").select_option(label="fast")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(replay).to_have_attribute("data-step", "6")  # it plays on (how fast: not a test)
    expect(now).to_have_text(FREECELL_STEPS[5])
    expect(page).to_have_url(re.compile(r"\?step=6$"))
    next_step = page.locator("#replay .replay-controls .button", has_text="Next ▶")
    expect(next_step).to_have_attribute("aria-disabled", "true")
    expect(next_step).to_have_class(re.compile(r"\bdisabled\b"))
    expect(play).to_have_attribute("aria-pressed", "false")
    expect(play).to_have_text("▶ Play")
    expect(page.locator("#replay [data-speed]")).to_have_value("250")  # the speed is kept
    swaps = settled(page)
    page.wait_for_timeout(600)  # more than two intervals: nothing more happens
    assert settled(page) == swaps
    assert page.evaluate("window.__marker") == 43


# -- 4. the transfer link -------------------------------------------------------------------


def test_the_transfer_link_moves_the_games_to_another_browser(
    player: Page, new_context: Callable[[], BrowserContext], live_server: str
) -> None:
    page = player
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.goto("/games")
    mine = listed(page)
    page.get_by_role("button", name="Make a link").click()
    link = page.locator("#transfer-link")
    value = link.input_value()
    assert value.startswith(f"{live_server}/players/join/"), value
    copy = page.locator("button[data-copy='#transfer-link']")
    expect(copy).to_have_text("Copy link")
    copy.click()
    expect(copy).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == value

    other = new_context()
    assert other.cookies() == []
    device = other.new_page()
    device.goto("/games")
    expect(device.get_by_text("You have not started a game in this browser yet.")).to_be_visible()
    device.goto(value)
    expect(device.get_by_text("Only go on if you made the link yourself.")).to_be_visible()
    assert other.cookies() == []  # opening the link changed nothing
    device.get_by_role("button", name="Move my games here").click()
    expect(device).to_have_url(re.compile(r"/games$"))
    assert listed(device) == mine
    assert len(mine) == 3
    device.goto("/stats")
    assert stats_row(device, "Your games", "FreeCell Standard")["Played"] == "1"

    device.goto(value)
    expect(device.get_by_text("This link has been used already")).to_be_visible()


# -- 5. without JavaScript ------------------------------------------------------------------


def test_replay_and_filters_work_without_javascript(no_js: Page, played: Played) -> None:
    page = no_js
    page.goto(f"{played.montana}/replay?step=0")
    expect(page.locator(".replay-now")).to_have_text(THE_DEAL)
    page.get_by_role("link", name="Next ▶").click()
    expect(page).to_have_url(re.compile(r"/replay\?step=1$"))
    expect(page.locator(".replay-now")).to_have_text(MONTANA_STEPS[0])
    page.get_by_role("link", name="Next ▶").click()
    expect(page.locator(".replay-now")).to_have_text(MONTANA_STEPS[1])

    slider = page.get_by_role("slider", name="Step")
    slider.focus()
    page.keyboard.press("Home")  # the native range input, no script
    expect(slider).to_have_value("0")
    page.get_by_role("button", name="Go").click()
    expect(page).to_have_url(re.compile(r"/replay\?step=0$"))
    expect(page.locator(".replay-now")).to_have_text(THE_DEAL)
    slider.focus()
    page.keyboard.press("End")
    page.get_by_role("button", name="Go").click()
    expect(page).to_have_url(re.compile(r"/replay\?step=3$"))
    expect(page.locator(".replay-now")).to_have_text(MONTANA_STEPS[2])
    # Controls that only the script can work must stay hidden (they carry ``hidden``).
    shown = []
    if page.locator("#replay [data-autoplay-controls]").is_visible():
        shown.append("the replay's autoplay controls ([data-autoplay-controls])")

    page.goto("/games")
    if page.locator("button[data-copy]").is_visible():
        shown.append("My games' Copy link button (button[data-copy])")
    form = page.locator("form.filters")
    form.get_by_label("Game").select_option("freecell")
    form.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"/games\?game=freecell&status=$"))
    assert listed(page) == [["FreeCell #1 Standard", "given up", "Replay · Review"]]
    page.get_by_role("link", name="Replay").click()
    expect(page.locator(".replay-now")).to_have_text(THE_DEAL)  # a replay opens at the deal

    assert not shown, f"shown without JavaScript although marked hidden: {shown}"


# -- 6. screenshots and layout --------------------------------------------------------------


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280", "375"])
def test_screenshots(player: Page, played: Played, artifacts: Path, size: ViewportSize) -> None:
    page = player
    page.set_viewport_size(size)
    width = size["width"]
    shots = {
        "stats": "/stats",
        "my-games": "/games",
        "replay-montana": f"{played.montana}/replay?step=2",
        "replay-freecell": f"{played.freecell}/replay?step=4",
    }
    problems = []
    for name, url in shots.items():
        page.goto(url)
        expect(page.locator("main h1")).to_be_visible()
        page.screenshot(path=artifacts / f"history-{name}-{width}.png", full_page=True)
        problems.append(sideways_scroll(page))
    if width == PHONE["width"]:  # each game a block of its own: nothing scrolls sideways
        page.goto("/stats")
        wrap = page.locator(".table-wrap").first
        overflow = wrap.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert overflow[0] <= overflow[1], overflow
    assert not list(filter(None, problems)), "\n".join(filter(None, problems))


# -- 7. accessibility -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "which", ["/stats", "/games", "montana-replay", "freecell-replay"], ids=str
)
def test_axe_finds_nothing_serious(player: Page, played: Played, which: str) -> None:
    page = player
    url = {
        "montana-replay": f"{played.montana}/replay?step=1",
        "freecell-replay": f"{played.freecell}/replay?step=3",
    }.get(which, which)
    page.goto(url)
    expect(page.locator("main h1")).to_be_visible()
    violations = Axe().run(page).response["violations"]
    if violations:
        print(f"axe on {page.url}:\n{describe_violations(violations)}")
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    assert not blocking, f"axe on {page.url}:\n{describe_violations(blocking)}"
