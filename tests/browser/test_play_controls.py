"""Controls stay put: picking cards up moves no button and keeps the Hint key's room;
Montana's "No card can move: redeal to go on." is said in the message area, not among
the buttons."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.games.montana import rules as montana_rules
from tests.browser.conftest import MontanaUI
from tests.browser.test_freecell_browser import FreeCellUI

BOXES = """() => Array.from(document.querySelectorAll(
  '#game .controls .button, #game .controls summary'))
  .filter(e => e.getClientRects().length)
  .map(e => { const r = e.getBoundingClientRect();
    return [e.textContent.trim().slice(0, 20), Math.round(r.x), Math.round(r.y),
            Math.round(r.width), Math.round(r.height)]; })"""


@pytest.mark.parametrize("width", [1280, 375])
def test_picking_up_moves_no_button(page: Page, width: int, artifacts: Path) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    fc = FreeCellUI(page)
    fc.start(1)
    before = page.evaluate(BOXES)
    fc.pick(fc.exposed("6"))
    after = page.evaluate(BOXES)
    assert after == before
    hint = page.locator("#game .controls button", has_text="Hint")
    expect(hint).not_to_have_attribute("data-key", "h")  # H sends the held card home
    page.screenshot(path=str(artifacts / f"play-controls-holding-{width}.png"))
    fc.press("Escape", new_version=False)
    assert page.evaluate(BOXES) == before
    expect(hint).to_have_attribute("data-key", "h")


def test_montana_says_redeal_in_the_message_area(page: Page, artifacts: Path) -> None:
    ui = MontanaUI(page)
    ui.start(1)
    version = 0
    while True:
        text = page.request.get(f"{ui.game_path}/position").text()
        position = montana_rules.parse(text)
        if not position.has_moves():
            break
        move = position.legal_moves()[0].notation
        answer = page.request.post(
            f"{ui.game_path}/actions", form={"action": move, "version": str(version)}
        )
        assert answer.ok, answer.status
        version += 1
    page.reload()
    note = page.get_by_text("No card can move: redeal to go on.")
    expect(note).to_be_visible()
    expect(page.locator("#game .message-area .stuck-note")).to_have_count(1)
    expect(page.locator("#game .controls .stuck-note")).to_have_count(0)
    page.screenshot(path=str(artifacts / "play-controls-montana-stuck-1280.png"))
