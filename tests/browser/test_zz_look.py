"""Temporary: screenshots to look at (deleted before commit)."""
from playwright.sync_api import Page
from tests.browser.conftest import MontanaUI
from tests.browser.test_freecell_browser import FreeCellUI

SIZES = [(1280, 800), (1280, 720), (1366, 768), (375, 740)]

def test_look(page: Page) -> None:
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        fc = FreeCellUI(page)
        fc.start(1)
        fc.pick(fc.exposed("6"))
        with fc.swap(new_version=False):
            page.get_by_role("button", name="Hint").click() if False else page.keyboard.press("Escape")
        with fc.swap(new_version=False):
            page.keyboard.press("h")
        page.screenshot(path=f"/tmp/shots/fc-{w}x{h}.png")
        m = MontanaUI(page)
        m.start(1)
        with m.swap(new_version=False):
            page.keyboard.press("h")
        page.screenshot(path=f"/tmp/shots/mt-{w}x{h}.png")
