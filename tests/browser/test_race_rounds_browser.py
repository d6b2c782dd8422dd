"""What a racer sees on a phone and a laptop: with eight racers the race folds to one line
above the board and the board's controls stay in view; opened, the racers' table fits its
area (its progress in view, in Arabic too), and has its rows without JavaScript; a deal's
records and the statistics on a phone. Screenshots in tests/artifacts/."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from sqlalchemy import update

from app.service.model import utcnow
from app.store import Database
from app.store.models import GameRecord
from tests.browser.test_accessibility import assert_accessible
from tests.browser.test_races_browser import COUNTDOWN_MS, make_race, play_link

SIZES = {1280: (1280, 800), 375: (375, 740)}


def full_race(new_context: Callable[..., BrowserContext], page: Page) -> str:
    """A FreeCell race of eight (``page``'s player made it; seven others joined by plain
    posts), started, its countdown over: the maker's game's path."""
    race = make_race(page, deal=5)
    for _ in range(7):
        joined = new_context().request.post(f"{race}/join")
        assert joined.ok
    page.reload()
    page.get_by_role("button", name="Start the race").click()
    return play_link(page)


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


@pytest.mark.parametrize(
    ("width", "language"), [(1280, "en"), (375, "en"), (375, "ar"), (1280, "hi")]
)
def test_a_racers_board_and_controls_stay_in_view_and_the_table_fits(
    new_context: Callable[..., BrowserContext], artifacts: Path, width: int, language: str
) -> None:
    w, h = SIZES[width]
    page = new_context(viewport={"width": w, "height": h}).new_page()
    game = full_race(new_context, page)
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.goto(game)
    expect(page.locator(".race-fold summary")).to_be_visible()
    page.screenshot(path=str(artifacts / f"race-fold-{language}-{width}.png"))
    controls = box(page, "#game .controls")
    board = box(page, "#board")
    assert board["y"] >= 0
    assert controls["y"] + controls["height"] <= h, (controls, h)  # the controls in view
    page.locator(".race-fold summary").click()
    rows = page.locator(".race-beside tr.racer")
    expect(rows).to_have_count(8)
    area = box(page, ".race-beside .table-wrap")
    table = box(page, ".race-beside table")
    assert table["width"] <= area["width"] + 1
    progress = box(page, ".race-beside tr.racer td:nth-child(4)")
    assert progress["x"] >= 0 and progress["x"] + progress["width"] <= w + 1
    page.screenshot(path=str(artifacts / f"race-fold-open-{language}-{width}.png"), full_page=True)
    assert_accessible(page)
    # The race's own page: its table fits its area too.
    page.locator(".race-fold-link a").click()
    page.wait_for_url("**/races/*")
    area = box(page, "#race .table-wrap")
    table = box(page, "#race table")
    assert table["width"] <= area["width"] + 1, (table, area)
    if width == 375:
        assert area["width"] <= 330
    for column in (2, 3, 4):
        cell = box(page, f"#racers tr td:nth-child({column})")
        assert cell["x"] >= 0 and cell["x"] + cell["width"] <= w + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= w + 1
    page.screenshot(path=str(artifacts / f"race-table-{language}-{width}.png"), full_page=True)


def test_without_javascript_a_racers_game_page_shows_the_racers(no_script_page: Page) -> None:
    page = no_script_page
    race = make_race(page, deal=8)
    page.get_by_role("button", name="Start the race").click()
    page.wait_for_url(f"**{race}")
    link = page.get_by_role("link", name="Play your game")
    for _ in range(COUNTDOWN_MS // 500):  # the countdown: a plain reload shows the game after
        if link.count():
            break
        page.wait_for_timeout(500)
        page.get_by_role("link", name="Refresh").click()
    href = link.get_attribute("href")
    assert href is not None
    page.goto(href)
    page.locator(".race-fold summary").click()  # a details element opens without script
    rows = page.locator(".race-beside tr.racer")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("anonymous 1")
    expect(rows.first).to_contain_text("playing")


def live_database(tmp_path_factory: pytest.TempPathFactory) -> Database:
    """The live server's own database file (the session's ``browser`` folder)."""
    found = sorted(tmp_path_factory.getbasetemp().glob("browser*/solitaire.db"))
    assert found
    return Database(f"sqlite:///{found[0]}")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_deals_records_and_the_statistics_on_a_phone(
    new_context: Callable[..., BrowserContext],
    artifacts: Path,
    tmp_path_factory: pytest.TempPathFactory,
    language: str,
) -> None:
    page = new_context(viewport={"width": 375, "height": 740}).new_page()
    page.context.set_extra_http_headers({"Accept-Language": language})
    deal = 977 if language == "en" else 978
    started = page.request.post("/games", form={"kind": "freecell", "deal": str(deal)})
    assert started.ok
    game_id = started.url.rsplit("/", 1)[1]
    db = live_database(tmp_path_factory)
    try:
        with db.write() as session:  # a win on record (tests only: as the records read it)
            session.execute(
                update(GameRecord)
                .where(GameRecord.id == game_id)
                .values(
                    status="won",
                    result="won",
                    moves_count=91,
                    play_ms=312_000,
                    hints_used=2,
                    finished_at=utcnow() - timedelta(minutes=1),
                )
            )
    finally:
        db.dispose()
    page.goto(f"/deals/freecell/{deal}")
    for column in (5, 6):  # Help and Won on
        cell = box(page, f".records-table tbody tr td:nth-child({column})")
        assert cell["x"] >= 0 and cell["x"] + cell["width"] <= 375 + 1, column
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    page.screenshot(path=str(artifacts / f"deal-records-{language}-375.png"), full_page=True)
    page.goto("/stats")
    unplayed = page.locator(".stats-unplayed")
    expect(unplayed.first).to_be_visible()
    # No card of zeros (the page was 5,600 px of them): each row shown has games. How many
    # rows there are depends on what the live server's other tests played before.
    counts = page.eval_on_selector_all(
        ".stats-table tbody tr",
        "rows => rows.map(r => [2, 5].map(i => r.children[i - 1].textContent.trim()))",
    )
    assert counts and all(any(n.strip("0") for n in pair) for pair in counts), counts
    page.screenshot(path=str(artifacts / f"stats-{language}-375.png"), full_page=True)


def test_show_solution_from_the_game_page_counts_it_by_its_button(page: Page) -> None:
    started = page.request.post("/games", form={"kind": "freecell", "deal": "1"})
    assert started.ok
    page.goto(started.url)
    button = page.get_by_role("button", name="Show solution")
    expect(button).to_have_attribute("title", re.compile("counts as a hint"))
    button.click()
    page.wait_for_url("**/solution?step=0")
    expect(page.locator("#replay-title")).to_contain_text("Solution")
    page.goto(started.url)
    page.goto("/games")
    expect(page.get_by_text("(assisted)")).to_have_count(1)
