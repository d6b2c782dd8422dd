"""Weekly tournaments in a real browser: a deal entered from the keyboard and played blind,
the table heard and updated, JavaScript off, and the pages in three languages at two
widths (screenshots in tests/artifacts/)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.service import tournaments
from app.store import Database
from tests.browser.test_accessibility import assert_accessible

SETTLED = (
    "new Promise(done => document.addEventListener('htmx:afterSettle', event => {"
    " if (event.detail.target.id === 'standings-rows') done(true); }))"
)
"""Resolves once the table's rows have been swapped by their next poll and settled."""


def open_first(page: Page) -> None:
    page.goto("/tournaments")
    page.locator(".tournament-item h3 a").first.click()
    expect(page.locator("#tournament-title")).to_be_visible()


def test_a_deal_entered_by_keyboard_is_played_blind(page: Page, artifacts: Path) -> None:
    page.goto("/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Tournaments").click()
    expect(page.get_by_role("heading", name="Weekly tournaments", level=1)).to_be_visible()
    page.locator(".tournament-item h3 a").first.focus()
    page.keyboard.press("Enter")
    play = page.get_by_role("button", name="Play deal 2")
    play.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#game-title")).to_contain_text("Tournament deal 2")
    assert not re.search(r"#\d", page.locator("#game-title").inner_text())
    expect(page.locator(".tournament-note")).to_be_visible()
    for name in ("Hint", "Still winnable?", "Restart deal", "Play this deal"):
        expect(page.get_by_role("button", name=name)).to_have_count(0)
    expect(page.get_by_role("link", name="Show solution")).to_have_count(0)
    page.screenshot(path=str(artifacts / "tournament-game-en-1280.png"))
    # Back on the tournament: the deal goes on, the table shows the player, and asks again.
    page.get_by_role("link", name="Back to the tournament").first.click()
    expect(page.get_by_role("button", name="Continue deal 2")).to_be_visible()
    standings = page.locator("#standings")
    expect(standings.locator("tr.mine")).to_contain_text("0 of")
    assert standings.locator("tbody").get_attribute("hx-trigger") == "every 5s"
    # The rows ask for themselves; focus in the table's region stays there across the swap.
    region = standings.get_by_role("region")
    region.focus()
    assert page.evaluate(SETTLED) is True
    expect(standings.locator("tr.mine")).to_be_visible()
    expect(region).to_be_focused()
    assert_accessible(page)


def test_without_javascript_a_deal_is_entered_given_up_and_counted(
    no_script_page: Page, artifacts: Path
) -> None:
    page = no_script_page
    open_first(page)
    page.get_by_role("button", name="Play deal 1").click()
    expect(page.locator("#game-title")).to_contain_text("Tournament deal 1")
    page.locator("details.give-up summary").click()
    page.get_by_role("button", name="Yes, give up").click()
    expect(page.get_by_role("heading", name="You gave up")).to_be_visible()
    page.get_by_role("link", name="Back to the tournament").first.click()
    expect(page.get_by_text("You gave it up.")).to_be_visible()
    expect(page.get_by_role("button", name="Play deal 1")).to_have_count(0)
    expect(page.locator("#standings tr.mine")).to_contain_text("1 of")
    # My games: the game without its deal number, and the player's tournaments.
    page.goto("/games")
    expect(page.get_by_role("heading", name="My tournaments")).to_be_visible()
    expect(page.locator("#my-tournaments + ul")).to_contain_text("Place 1")
    assert not re.search(r"#\d", page.locator("table").inner_text())
    expect(page.get_by_role("link", name="Replay")).to_have_count(0)
    page.screenshot(path=str(artifacts / "tournament-my-games-en-1280.png"), full_page=True)


@pytest.mark.parametrize(
    ("language", "width"), [("en", 1280), ("en", 375), ("hi", 375), ("ar", 1280), ("ar", 375)]
)
def test_the_pages_in_each_language_and_width(
    page: Page, artifacts: Path, language: str, width: int
) -> None:
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/tournaments")
    if language == "ar":
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
    script = {"hi": r"[\u0900-\u097f]", "ar": r"[\u0600-\u06ff]"}.get(language, "tournament")
    assert re.search(script, page.locator("h1").inner_text(), re.IGNORECASE)
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=str(artifacts / f"tournaments-{language}-{width}.png"), full_page=True)
    page.locator(".tournament-item h3 a").first.click()
    page.locator(".tournament-deal form button").first.click()
    expect(page.locator("#game")).to_be_visible()
    assert not re.search(r"#\d", page.locator("#game-title").inner_text())
    page.screenshot(path=str(artifacts / f"tournament-game-{language}-{width}.png"))
    page.go_back()
    page.reload()
    expect(page.locator("#standings tr.mine")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=str(artifacts / f"tournament-{language}-{width}.png"), full_page=True)
    assert_accessible(page)


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("ar", 375)])
def test_a_past_week_shows_its_deals(
    page: Page,
    artifacts: Path,
    live_server: str,
    tmp_path_factory: pytest.TempPathFactory,
    language: str,
    width: int,
) -> None:
    # The live server's own database (its folder, made by tmp_path_factory.mktemp).
    (file,) = tmp_path_factory.getbasetemp().glob("browser[0-9]*/solitaire.db")
    db = Database(f"sqlite:///{file}")
    past = datetime.now(UTC) - timedelta(days=7)
    old = tournaments.ensure_week(db=db, secret="browser-test", now=past)[0]
    db.dispose()
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"/tournaments/{old}")
    expect(page.locator(".tournament-deal").first.locator("bdi.deal")).to_be_visible()
    expect(page.locator(".tournament-deal form")).to_have_count(0)
    expect(page.locator("#standings tbody")).not_to_have_attribute("hx-trigger", "every 5s")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=str(artifacts / f"tournament-past-{language}-{width}.png"), full_page=True)
    assert_accessible(page)
