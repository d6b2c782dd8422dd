"""The race form's deal box in the browser, JavaScript on and off: a deal typed in the
player's own digits starts the race; a number the game does not deal comes back beside
the box, the box marked invalid and focused."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.helpers import ARABIC_INDIC

ZERO, SEVENTEEN = "0".translate(ARABIC_INDIC), "17".translate(ARABIC_INDIC)


@pytest.mark.parametrize("script", [True, False])
def test_the_race_form_reads_the_players_digits_and_refuses_beside_the_box(
    page: Page, no_script_page: Page, script: bool
) -> None:
    browser = page if script else no_script_page
    browser.goto("/")
    form = browser.locator('form.race-form[data-kind="montana"]')
    form.locator('input[name="deal"]').fill(ZERO)
    form.get_by_role("button", name="Start a Montana race").click()
    form = browser.locator('form.race-form[data-kind="montana"]')
    box = form.locator('input[name="deal"]')
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(box).to_have_value(ZERO)
    expect(form.locator(".form-error")).to_have_text("Deal numbers run from 1 to 1,000,000, not 0.")
    if script:
        expect(box).to_be_focused()
    box.fill(SEVENTEEN)
    form.get_by_role("button", name="Start a Montana race").click()
    expect(browser).to_have_url(re.compile(r"/races/[\w-]{24}$"))
    expect(browser.locator("h1")).to_contain_text("#17")
