"""Small things a person sees, in a real browser at 1280 and 375 px: large cards are larger,
Eight Off's free cells read A to H and Seahaven's tenth column 10, a deal with no winning
line says so without empty step controls, the words beside "Deal of the day" can be read
on the felt, the daily tables sit side by side on a wide screen, a watched game says so
above the table, and a date never breaks inside."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import BrowserContext, Page, expect

SIZES: Final = {1280: (1280, 800), 375: (375, 740)}


@pytest.fixture
def visitor(new_context: Callable[..., BrowserContext]) -> Callable[..., Page]:
    """A fresh page ``width`` × ``height``, reading ``language`` (JavaScript on or off)."""

    def make(
        width: int = 1280, height: int = 800, language: str = "en", *, script: bool = True
    ) -> Page:
        phone = width < 600
        return new_context(
            viewport={"width": width, "height": height},
            locale=language,
            has_touch=phone,
            is_mobile=phone,
            java_script_enabled=script,
        ).new_page()

    return make


def start(page: Page, kind: str, deal: int, variant: str = "") -> str:
    """Start ``kind``'s deal from the home page's form (any language); the game's path."""
    page.goto("/")
    form = page.locator("form.start-form").filter(
        has=page.locator(f'input[name="kind"][value="{kind}"]')
    )
    form = form.filter(has=page.locator('input[name="deal"]'))
    if variant:
        form.locator(f'input[name="variant"][value="{variant}"]').check()
    form.locator('input[name="deal"]').fill(str(deal))
    with page.expect_navigation():
        form.locator('button[type="submit"]').click()
    return re.sub(r"^https?://[^/]+", "", page.url)


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two ``rgb(r, g, b)`` or ``#rrggbb`` colours."""

    def luminance(colour: str) -> float:
        if colour.startswith("#"):
            parts = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        else:
            parts = [int(float(p)) for p in re.findall(r"[\d.]+", colour)[:3]]
        linear = [
            c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
            for c in (p / 255 for p in parts)
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# -- large cards ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "card", "height", "bigger"),
    [
        ("freecell", "#board .fc-card", 800, 1.08),
        ("montana", "#board [data-cell]", 720, 1.08),
    ],
)
def test_large_cards_are_larger_cards(
    visitor: Callable[..., Page],
    artifacts: Path,
    kind: str,
    card: str,
    height: int,
    bigger: float,
) -> None:
    """Measured as drawn at 1280 px: the cards themselves, not only their corners (the
    board may grow where the screen's height bounds it; Montana, already near the full
    width, has less room to grow)."""
    page = visitor(1280, height)
    widths = []
    for size in ("normal", "large"):
        page.request.post("/settings", form={"card_size": size, "next": "/"})
        start(page, kind, 1)
        box = page.locator(card).first.bounding_box()
        assert box
        widths.append(box["width"])
        page.screenshot(path=artifacts / f"cards-{size}-{kind}-1280.png")
    normal, large = widths
    assert large >= bigger * normal, f"{kind}: {normal:.1f} px, large {large:.1f} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280


# -- the places' names ----------------------------------------------------------------------


@pytest.mark.parametrize("width", [1280, 375])
def test_eight_off_reads_a_to_h_and_seahaven_10(
    visitor: Callable[..., Page], artifacts: Path, width: int
) -> None:
    page = visitor(*SIZES[width])
    shown = (
        "el => { const after = getComputedStyle(el, '::after');"
        " return after.content + ' ' + after.textTransform; }"
    )
    start(page, "freecell", 1, "eight-off")
    cells = page.locator("#board .fc-cell")
    assert [cells.nth(i).evaluate(shown) for i in range(8)] == [
        f'"{letter}" / "" uppercase'
        for letter in "abcdefgh"  # "/ ''": not read aloud
    ]
    expect(cells.nth(7)).to_have_attribute("aria-label", re.compile(r"^free cell h\b"))
    page.screenshot(path=artifacts / f"eight-off-{width}.png")
    start(page, "freecell", 1, "seahaven")
    tenth = page.locator("#board .fc-column").nth(9)
    assert tenth.evaluate(shown).startswith('"10"')
    expect(tenth).to_have_attribute("aria-label", re.compile(r"^column 10\b"))
    page.screenshot(path=artifacts / f"seahaven-{width}.png")


# -- a deal with no winning line ------------------------------------------------------------


@pytest.mark.parametrize(("width", "language"), [(1280, "en"), (375, "hi"), (375, "ar")])
def test_a_deal_with_no_winning_line_says_so(
    visitor: Callable[..., Page], artifacts: Path, width: int, language: str
) -> None:
    page = visitor(*SIZES[width], language)
    game = start(page, "freecell", 11982)
    titles = {"en": "No winning line", "hi": "कोई जिताने वाला चाल-क्रम नहीं"}
    titles["ar"] = "لا يوجد تسلسل نقلات فائز"
    for _ask in range(30):  # the solver may still be thinking: ask again, as a person would
        answer = page.goto(f"{game}/solution?step=0")  # no line to see: nothing counted
        assert answer is not None
        if answer.status == 200:
            break
        page.wait_for_timeout(1000)
    expect(page.locator("#replay-title")).to_contain_text(titles[language])
    expect(page.locator(".replay-controls")).to_have_count(0)
    expect(page.locator("#replay-step")).to_have_count(0)
    expect(page.locator("#replay #board")).to_be_visible()
    page.screenshot(path=artifacts / f"no-winning-line-{language}-{width}.png", full_page=True)


# -- the home page, the daily page, the watch page ------------------------------------------


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
@pytest.mark.parametrize("width", [1280, 375])
def test_the_words_beside_deal_of_the_day_can_be_read(
    visitor: Callable[..., Page], artifacts: Path, language: str, width: int
) -> None:
    page = visitor(*SIZES[width], language)
    page.goto("/")
    words = page.locator(".daily-link .muted").first  # the deal of the day's (tournaments follow)
    expect(words).to_be_visible()
    colour = words.evaluate("el => getComputedStyle(el).color")
    felts = page.evaluate(
        "['--felt-light', '--felt', '--felt-dark'].map(name =>"
        " getComputedStyle(document.documentElement).getPropertyValue(name).trim())"
    )
    assert min(contrast(colour, felt) for felt in felts) >= 4.5, (colour, felts)
    words.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"home-daily-link-{language}-{width}.png")


@pytest.mark.parametrize("width", [1280, 375])
def test_the_daily_tables_sit_side_by_side_on_a_wide_screen(
    visitor: Callable[..., Page], artifacts: Path, width: int
) -> None:
    page = visitor(*SIZES[width])
    page.goto("/daily")
    tables = page.locator(".daily-table")
    first, second = tables.nth(0).bounding_box(), tables.nth(1).bounding_box()
    assert first and second
    if width == 1280:
        assert abs(first["y"] - second["y"]) < 1 and second["x"] > first["x"] + first["width"]
    else:
        assert second["y"] >= first["y"] + first["height"]  # one under the other
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=artifacts / f"daily-{width}.png", full_page=True)


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_a_daily_games_date_never_breaks_inside(
    visitor: Callable[..., Page], artifacts: Path, language: str
) -> None:
    page = visitor(375, 740, language)
    page.goto("/daily")
    with page.expect_navigation():
        page.locator(".daily-table form button").first.click()
    when = page.locator("#game-title time")
    expect(when).to_be_visible()
    lines = when.evaluate(
        "el => new Set([...el.getClientRects()].map(r => Math.round(r.bottom))).size"
    )
    assert lines == 1, f"the date is drawn on {lines} lines"
    page.screenshot(path=artifacts / f"daily-title-{language}-375.png")


@pytest.mark.parametrize(("width", "script"), [(1280, True), (375, True), (375, False)])
def test_a_watched_game_says_so_above_the_table(
    visitor: Callable[..., Page], artifacts: Path, width: int, script: bool
) -> None:
    owner = visitor(1280, 800)
    game = start(owner, "freecell", 5)
    owner.goto(f"{game}/share")
    with owner.expect_navigation():
        owner.locator("form button.primary").click()
    link = owner.locator("#watch-link").input_value()
    page = visitor(*SIZES[width], script=script)
    page.goto(link)
    notice = page.locator(".watch-note")
    expect(notice).to_contain_text("You are watching a shared game")
    expect(notice).to_be_in_viewport()
    box, board = notice.bounding_box(), page.locator("#replay #board").bounding_box()
    assert box and board and box["y"] < board["y"]
    page.screenshot(path=artifacts / f"watch-{width}{'' if script else '-nojs'}.png")
