import pytest
from pathlib import Path
from playwright.sync_api import Page
from tests.browser.test_play_fixes import SIZES, start

@pytest.mark.parametrize("kind", ["freecell", "montana"])
@pytest.mark.parametrize("size", [SIZES[0], SIZES[3]], ids=lambda s: f"{s['width']}")
def test_shot(page: Page, kind, size) -> None:
    page.set_viewport_size(size)
    start(page, kind)
    page.screenshot(path=f"/tmp/shot-{kind}-{size['width']}.png", full_page=True)
