"""axe-core audits of the real pages: no serious or critical violations."""

from __future__ import annotations

from typing import Any, Final

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.browser.conftest import MontanaUI

BLOCKING: Final = frozenset({"serious", "critical"})
AXE: Final = Axe()


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        lines.append(f"  {violation['helpUrl']}")
        for node in violation["nodes"][:10]:
            lines.append(f"  - {' '.join(map(str, node['target']))}: {node['html'][:160]}")
            if node.get("failureSummary"):
                lines.append(f"    {' '.join(node['failureSummary'].split())}")
        if len(violation["nodes"]) > 10:
            lines.append(f"  … and {len(violation['nodes']) - 10} more")
    return "\n".join(lines)


def assert_accessible(page: Page) -> None:
    violations = AXE.run(page).response["violations"]
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    if violations:
        print(f"axe on {page.url}:\n{describe(violations)}")
    assert not blocking, f"axe on {page.url}:\n{describe(blocking)}"


def test_home_page(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("button", name="Play Montana")).to_be_visible()
    assert_accessible(page)


def test_game_page_and_after_a_move(montana: MontanaUI) -> None:
    montana.start(1)
    assert_accessible(montana.page)
    montana.act(montana.cell("D10"))
    assert_accessible(montana.page)


def test_game_page_while_choosing_a_two(montana: MontanaUI) -> None:
    montana.start(1)
    montana.act(montana.button("r"))
    with montana.swap(new_version=False):
        montana.cell("B1").click()
    expect(montana.page.locator("#board [data-cell].candidate")).to_have_count(4)
    assert_accessible(montana.page)


def test_end_screen(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    page.locator("details.give-up summary").click()
    montana.act(page.get_by_role("button", name="Yes, give up"))
    expect(page.locator("#game .end-screen")).to_be_visible()
    assert_accessible(page)


def test_home_page_on_a_phone(page: Page) -> None:
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto("/")
    assert_accessible(page)
