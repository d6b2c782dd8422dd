"""A game's review in a real browser: it fills in while the verdicts arrive, the arrow
keys step through it, T jumps to the turning point (the live region says each step's
verdict), the mouse shows the board before it, JavaScript off, and Arabic at 375 px."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from app.games.montana import rules as montana

DONE_MS = 180_000
"""The review's verdicts come from the live server's solver pool (a loaded machine)."""


def lost_montana_game(context: BrowserContext) -> str:
    """Montana Expert #1 played at random (seeded) until no move is left, then given up:
    its first round turns at step 4 (the solvers' verdicts)."""
    started = context.request.post("/games", form={"kind": "montana", "deal": "1"}, max_redirects=0)
    game_id = started.headers["location"].rsplit("/", 1)[1]
    position, rng = montana.new_game(1), random.Random(3)
    version = 0
    while legal := [m for m in position.legal_moves() if isinstance(m, montana.MontanaMove)]:
        move = rng.choice(legal)
        context.request.post(
            f"/games/{game_id}/actions",
            form={"action": move.notation, "version": str(version)},
            max_redirects=0,
        )
        position, version = position.play(move), version + 1
    context.request.post(
        f"/games/{game_id}/actions",
        form={"action": "resign", "version": str(version)},
        max_redirects=0,
    )
    return game_id


@pytest.fixture(scope="module")
def game_id(browser, live_server: str) -> str:  # type: ignore[no-untyped-def]
    context = browser.new_context(base_url=live_server)
    try:
        return lost_montana_game(context)
    finally:
        context.close()


def test_the_review_fills_in_and_the_keys_step_through_it(
    page: Page, game_id: str, artifacts: Path
) -> None:
    page.goto(f"/games/{game_id}/review")
    review = page.locator("#replay")
    expect(review).to_have_attribute("data-review", "done", timeout=DONE_MS)
    point = page.locator("[data-turning-point]")
    expect(point).to_have_count(1)
    step = int(point.get_attribute("data-turning-point") or "0")
    assert step > 0
    expect(point).to_contain_text(f"Step {step}, ")
    expect(page.locator(".kept-move")).to_contain_text("It opens a gap at")
    # Opened at the board before the turning point; the keys step from there.
    expect(review).to_have_attribute("data-step", str(step - 1))
    live = page.locator(".replay-now[aria-live]")
    expect(live).to_contain_text("winnable")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(step))
    expect(page.locator(".replay-now[aria-live]")).to_contain_text("lost")
    page.keyboard.press("Home")
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    page.keyboard.press("t")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(step))
    expect(page.locator(".replay-now[aria-live]")).to_contain_text(f"Step {step}:")
    # The mouse: the board before the move that lost.
    page.get_by_role("link", name="Show the board before it").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", str(step - 1))
    assert f"step={step - 1}" in page.url
    verdicts = page.locator("[data-verdict]")
    expect(verdicts.first).to_have_attribute("data-verdict", "winnable")
    expect(verdicts.last).to_have_attribute("data-verdict", "lost")
    page.screenshot(path=artifacts / "review-1280.png", full_page=True)
    violations = Axe().run(page).response["violations"]
    blocking = [v["id"] for v in violations if v["impact"] in ("serious", "critical")]
    assert not blocking, blocking


def test_the_review_without_javascript_is_plain_links(
    no_script_page: Page, game_id: str, page: Page
) -> None:
    page.goto(f"/games/{game_id}/review")  # worked out (and kept) by a page that polls
    expect(page.locator("#replay")).to_have_attribute("data-review", "done", timeout=DONE_MS)
    no_script_page.goto(f"/games/{game_id}/review")
    expect(no_script_page.locator("#replay")).to_have_attribute("data-review", "done")
    no_script_page.locator("[data-verdict] a").nth(2).click()
    assert re.search(r"step=2\b", no_script_page.url)
    expect(no_script_page.locator("#replay")).to_have_attribute("data-step", "2")


def test_the_review_in_arabic_on_a_phone(
    new_context: Callable[..., BrowserContext], game_id: str, artifacts: Path
) -> None:
    page = new_context(viewport={"width": 375, "height": 812}, locale="ar").new_page()
    page.goto(f"/games/{game_id}/review")
    expect(page.locator("#replay")).to_have_attribute("data-review", "done", timeout=DONE_MS)
    assert page.locator("html").get_attribute("dir") == "rtl"
    expect(page.locator("[data-turning-point]")).to_contain_text("خسرت الجولة")
    expect(page.get_by_role("button", name="حاول مجددًا من هنا")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, width
    page.screenshot(path=artifacts / "review-ar-375.png", full_page=True)
    hindi = new_context(viewport={"width": 1280, "height": 900}, locale="hi").new_page()
    hindi.goto(f"/games/{game_id}/review")
    expect(hindi.locator("[data-turning-point]")).to_contain_text("से दौर 1 हारा")
    hindi.screenshot(path=artifacts / "review-hi-1280.png")


def test_the_redeal_that_lost_the_whole_game_at_1280_and_in_arabic_at_375(
    new_context: Callable[..., BrowserContext], artifacts: Path
) -> None:
    """Montana Expert #16 redealt twice at once (the round after one redeal could be
    cleared, the one after two cannot, and none is left), then twelve random moves."""
    page = new_context(viewport={"width": 1280, "height": 900}).new_page()
    started = page.request.post("/games", form={"kind": "montana", "deal": "16"}, max_redirects=0)
    game_id = started.headers["location"].rsplit("/", 1)[1]
    position, rng = montana.new_game(16).redeal().redeal(), random.Random(16)
    actions = ["redeal", "redeal"]
    for _ in range(12):
        move = rng.choice(position.legal_moves())
        actions.append(move.notation)
        position = position.play(move)
    for version, action in enumerate([*actions, "resign"]):
        page.request.post(
            f"/games/{game_id}/actions",
            form={"action": action, "version": str(version)},
            max_redirects=0,
        )
    page.goto(f"/games/{game_id}/review")
    expect(page.locator("#replay")).to_have_attribute("data-review", "done", timeout=DONE_MS)
    point = page.locator("[data-game-turning-point]")
    expect(point).to_have_attribute("data-game-turning-point", "2")
    expect(point).to_contain_text("Step 2, ")
    expect(point).to_contain_text("lost the whole game")
    expect(page.locator("[data-turning-point]")).to_have_count(0)
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")  # the board before
    page.keyboard.press("End")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(len(actions)))
    page.keyboard.press("t")  # the key jumps to the only turning point: the whole game's
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")
    expect(page.locator(".replay-now[aria-live]")).to_contain_text("Step 2:")
    page.locator("[data-game-turning-point]").get_by_role("link").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    page.screenshot(path=artifacts / "review-game-1280.png", full_page=True)
    phone = new_context(viewport={"width": 375, "height": 812}, locale="ar").new_page()
    phone.goto(f"/games/{game_id}/review")
    expect(phone.locator("[data-game-turning-point]")).to_contain_text("خسرت اللعبة كلها")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, width
    phone.screenshot(path=artifacts / "review-game-ar-375.png", full_page=True)
