"""The deal of the day, a deal's records, a display name, watch links and winnable starts
in a real browser: with the mouse, with JavaScript off, in Hindi and Arabic, at 1280 and
375 px, with axe; screenshots in tests/artifacts/."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.service import proofs
from tests.browser.test_accessibility import describe
from tests.browser.test_play_fixes import axe_violations

WIDTHS = (1280, 375)


def audit(page: Page, artifacts: Path, name: str) -> None:
    """No axe violation at either width; a screenshot at each."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        violations = axe_violations(page)
        assert violations == [], f"axe on {name} at {width}px:\n{describe(violations)}"
        page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def game_id_of(page: Page) -> str:
    match = re.search(r"/games/([\w-]+)$", page.url)
    assert match, page.url
    return match.group(1)


def test_the_deal_of_the_day_and_its_records(page: Page, artifacts: Path) -> None:
    page.goto("/")
    page.get_by_role("link", name="Deal of the day").click()
    expect(page.locator("h1")).to_have_text("Deal of the day")
    expect(page.locator("main")).to_contain_text("UTC")
    audit(page, artifacts, "daily")
    freecell = page.locator(
        "section.daily-table", has=page.locator("h2", has_text="FreeCell · Standard")
    )
    deal = proofs.daily_deal("freecell", "standard", datetime.now(UTC).date())
    expect(freecell.locator("h2")).to_contain_text(f"#{deal}")
    freecell.get_by_role("button", name="Play today's deal").click()
    page.wait_for_url("**/games/*")
    expect(page.locator("#game-title")).to_contain_text(f"#{deal}")
    first = game_id_of(page)
    page.locator("details.give-up summary").click()
    page.get_by_role("button", name="Yes, give up").click()
    records = page.get_by_role("link", name="Records of this deal")
    records.click()
    page.wait_for_url(f"**/deals/freecell/{deal}?variant=standard")
    expect(page.locator("main")).to_contain_text("Played 1 time")
    expect(page.locator("main")).to_contain_text("Proved winnable.")
    expect(page.locator("main")).to_contain_text("by themselves")  # the metric defined
    assert first not in page.content()
    audit(page, artifacts, "deal")
    page.get_by_role("button", name="Play this deal").click()
    page.wait_for_url("**/games/*")
    expect(page.locator("#game-title")).to_contain_text(f"#{deal}")
    assert game_id_of(page) != first
    page.goto("/daily")
    expect(page.locator("main")).to_contain_text("Played 1 time today")


def test_a_winnable_deal_from_the_home_page(page: Page) -> None:
    page.goto("/")
    section = page.locator("section.winnable")
    montana = section.locator("form", has=page.locator('input[name="kind"][value="montana"]'))
    montana.get_by_label("Variant").select_option("easy")
    montana.get_by_role("button", name="Play a winnable Montana deal").click()
    page.wait_for_url("**/games/*")
    title = page.locator("#game-title").inner_text()
    number = int(re.search(r"#(\d+)", title).group(1))  # type: ignore[union-attr]
    assert proofs.proofs("montana", "easy").verdict(number) == "solved"


@pytest.fixture
def plain_context(browser: Browser, live_server: str) -> Iterator[BrowserContext]:
    """A browser with JavaScript off."""
    context = browser.new_context(base_url=live_server, java_script_enabled=False)
    yield context
    context.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_a_display_name(
    new_context: Callable[[], BrowserContext], plain_context: BrowserContext, javascript: bool
) -> None:
    page = (new_context() if javascript else plain_context).new_page()
    page.goto("/games")
    field = page.get_by_label("Display name")
    field.fill("\u202eevil")
    field.press("Enter")
    alert = page.locator("#display-name-error")
    expect(alert).to_contain_text("only letters")
    expect(page.get_by_label("Display name")).to_have_attribute("aria-invalid", "true")
    name = f"Ada {'js' if javascript else 'plain'}"
    page.get_by_label("Display name").fill(f"  {name}  ")
    page.get_by_role("button", name="Save name").click()
    expect(page.locator("#display-name strong")).to_have_text(name)
    if javascript:
        expect(page.locator("#display-name")).to_contain_text("Saved.")
    else:
        page.wait_for_url("**/games")
    page.goto("/games")
    expect(page.get_by_label("Display name")).to_have_value(name)
    page.get_by_role("button", name="Remove my name").click()
    expect(page.locator("#display-name")).to_contain_text("anonymous until you choose a name")
    expect(page.get_by_role("button", name="Remove my name")).to_have_count(0)


def test_share_watch_and_revoke(new_context: Callable[[], BrowserContext], artifacts: Path) -> None:
    owner = new_context().new_page()
    owner.goto("/")
    form = owner.locator("form.start-form", has=owner.locator('input[name="deal"]')).filter(
        has=owner.locator('input[name="kind"][value="freecell"]')
    )
    form.get_by_role("textbox", name="Deal number").fill("1")
    form.get_by_role("button", name="Play FreeCell").click()
    owner.wait_for_url("**/games/*")
    game_id = game_id_of(owner)
    owner.get_by_role("link", name="Watch link").click()
    owner.get_by_role("button", name="Make a watch link").click()
    link = owner.get_by_role("textbox", name="Watch link").input_value()
    assert "/watch/" in link and game_id not in link
    audit(owner, artifacts, "share")

    watcher = new_context().new_page()
    watcher.goto(link)
    expect(watcher.locator("#replay")).to_be_visible()
    html = watcher.content()
    assert game_id not in html
    assert not re.search(r'<form[^>]*method="post"[^>]*action="[^"]*/games', html)
    audit(watcher, artifacts, "watch")
    expect(watcher.locator(".status")).to_contain_text("0/0")

    # The owner moves: the watcher's page shows it by itself (htmx polls every 5 s).
    version = owner.request.get(f"/games/{game_id}/history").text().count("\n")
    owner.request.post(
        f"/games/{game_id}/actions",
        form={"action": "3a", "version": str(version)},
        headers={"Origin": link.split("/watch/")[0]},
    )
    expect(watcher.locator("#replay")).to_contain_text("3a")
    assert game_id not in watcher.content()

    owner.goto(f"/games/{game_id}/share")
    owner.get_by_role("button", name="Revoke the link").click()
    expect(owner.get_by_role("button", name="Make a watch link")).to_be_visible()
    watcher.goto(link)
    expect(watcher.locator("main")).to_contain_text("revoked")


@pytest.mark.parametrize("language", ["hi", "ar"])
def test_the_new_pages_in_hindi_and_arabic(
    new_context: Callable[[], BrowserContext], artifacts: Path, language: str
) -> None:
    context = new_context()
    page = context.new_page()
    page.goto("/")
    page.locator(f'.language-switch button[value="{language}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.goto("/daily")
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if language == "ar" else "ltr")
    assert "Deal of the day" not in page.locator("h1").inner_text()
    audit(page, artifacts, f"daily-{language}")
    page.goto("/deals/montana/1?variant=easy")
    audit(page, artifacts, f"deal-{language}")
    page.goto("/games")
    page.locator("#display-name-field").fill("x" * 30)
    page.locator("#display-name-field").press("Enter")
    expect(page.locator("#display-name-error")).to_be_visible()
    assert "characters" not in page.locator("#display-name-error").inner_text()
    audit(page, artifacts, f"name-{language}")
