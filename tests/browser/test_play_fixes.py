"""What a player meets on the way, each fixed and held here in a real browser: the layout
above the fold, messages that never move the board, the focus ring and where focus goes,
Back, searches that say they are busy, no-JS refusals and axe-core on every page type."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize, expect

from app.games import KINDS
from app.web.names import variant_name
from tests.browser.conftest import ACTION_TIMEOUT_MS, MontanaUI
from tests.browser.test_accessibility import describe
from tests.browser.test_freecell_browser import FreeCellUI
from tests.browser.test_freecell_browser import force_position as force_position  # the fixture

SIZES: Final[list[ViewportSize]] = [
    {"width": 1280, "height": 720},
    {"width": 1366, "height": 768},
    {"width": 375, "height": 740},
]
"""The short laptop screen (a page that fits 1280 × 720 fits 1280 × 800), the common wide
one, and a phone."""
AXE: Final = Axe()
WCAG_22_AA: Final = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


VARIANTS: Final = [
    (kind, variant) for kind, game in KINDS.items() for variant in game.rules.variants
]
"""Every game and variant the registry lists: the shared checks run on each."""
FITS: Final = [(kind, variant, "normal") for kind, variant in VARIANTS] + [
    (kind, game.rules.default_variant, "large") for kind, game in KINDS.items()
]
"""Every variant at the normal card size, and each game's usual one with large cards."""


def start(page: Page, kind: str, variant: str = "") -> FreeCellUI | MontanaUI:
    """Deal #1 of ``kind`` (a variant other than the usual one from the home page's form;
    the first deal with a move where #1 has none, as Forecell's)."""
    ui = FreeCellUI(page) if kind == "freecell" else MontanaUI(page)
    rules = KINDS[kind].rules
    if variant and variant != rules.default_variant:
        deal = next(deal for deal in range(1, 10) if not rules.new_game(deal, variant).is_lost())
        ui.start_from_home(kind, deal, f"Play {rules.name}", variant_name(kind, variant))
    else:
        ui.start(1)
    return ui


def below_the_fold(page: Page, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the viewport."""
    result: list[str] = page.eval_on_selector_all(
        selector,
        """els => els.map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
             .filter(([, r]) => r.width && (r.bottom > innerHeight + 0.5 || r.top < 0))
             .map(([name, r]) => `${name}: ${Math.round(r.top)}..${Math.round(r.bottom)}`)""",
    )
    return result


@pytest.mark.parametrize(("kind", "variant", "cards"), FITS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_control_and_message_fits_and_messages_do_not_move_the_board(
    page: Page, kind: str, variant: str, cards: str, size: ViewportSize, artifacts: Path
) -> None:
    page.set_viewport_size(size)
    if cards != "normal":  # the player's card size (/settings), kept before the game starts
        page.request.post("/settings", form={"card_size": cards, "next": "/"})
    ui = start(page, kind, variant)
    large = re.compile(r"\bcards-large\b")
    if cards == "large":
        expect(page.locator("html")).to_have_class(large)
    else:
        expect(page.locator("html")).not_to_have_class(large)
    board = page.locator("#board")
    before = board.bounding_box()
    with ui.swap(new_version=False):
        page.get_by_role("button", name=re.compile("^Hint")).click()
    expect(page.locator("#game .message")).to_be_visible()
    after = board.bounding_box()
    assert before is not None and after is not None
    assert abs(after["y"] - before["y"]) < 1, (
        f"a message moved the board {after['y'] - before['y']}px"
    )
    controls = (
        "#game .controls button:not([hidden]), #game .controls summary, #more button, "
        "#more summary, #game .message, #board"
    )
    assert below_the_fold(page, controls) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    give_up = page.locator("details.give-up")
    give_up.locator("summary").click()
    # The question opens in a dialog (site.js), its buttons in view.
    expect(page.get_by_role("dialog").get_by_role("button", name="Cancel")).to_be_visible()
    assert below_the_fold(page, "dialog .confirm button") == [], "a confirmation opens off screen"
    name = f"play-{kind}-{variant}-{size['width']}x{size['height']}"
    page.screenshot(path=artifacts / f"{name}{'-large' if cards == 'large' else ''}.png")


def contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        r, g, b_ = (int(x) / 255 for x in re.findall(r"\d+", colour)[:3])

        def channel(c: float) -> float:
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b_)

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("kind", ["freecell", "montana"])
def test_the_focus_ring_stands_out_on_cards_and_on_the_felt(page: Page, kind: str) -> None:
    start(page, kind)
    card = page.locator("#board a.fc-card, #board [data-cell]:not(.gap)").first
    card.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus by keyboard, so :focus-visible applies
    focused = page.evaluate(
        """() => { const e = document.activeElement, s = getComputedStyle(e);
             return [s.outlineColor, s.outlineStyle, s.boxShadow, s.backgroundColor]; }"""
    )
    outline, style, shadow, card_colour = focused
    assert style == "solid"
    felt = "rgb(29, 92, 63)"
    assert contrast(outline, card_colour) >= 3, (outline, card_colour)
    ring = re.match(r"rgb\([^)]*\)", shadow)
    assert ring is not None, shadow
    assert contrast(ring.group(0), felt) >= 3, (ring.group(0), felt)
    assert contrast(ring.group(0), outline) >= 3


def test_back_from_statistics_shows_the_board_as_it_is(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    for cell in ("D10", "B9", "C4"):
        montana.act(montana.cell(cell))
    expect(montana.status("Moves")).to_have_text("3")
    page.get_by_role("link", name="Statistics").click()
    page.wait_for_url("**/stats")
    page.go_back()
    expect(montana.status("Moves")).to_have_text("3")
    response = page.request.get(montana.game_path)
    assert response.headers["cache-control"] == "no-store"


def test_focus_never_drops_to_the_body(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)
    montana.cell("D10").focus()
    montana.press("Enter")
    on_body = "() => document.activeElement === document.body"
    for key in ("u", "r"):
        montana.press(key)
        assert not page.evaluate(on_body), f"focus fell to <body> after {key}"
    check = page.locator("#check-button")
    check.focus()
    with montana.swap(new_version=False):
        page.keyboard.press("Enter")
    expect(check).to_be_focused()


def test_still_winnable_is_busy_at_once_and_its_answer_is_kept(montana: MontanaUI) -> None:
    page = montana.page
    montana.start(1)

    held: list[Route] = []  # the question is held until the page has been seen busy

    def hold(route: Route) -> None:
        held.append(route)

    page.route(re.compile(r".*\?check=1(&v=[0-9]+)?$"), hold)
    button = page.locator("#check-button")
    button.click()
    expect(page.locator("#game")).to_have_attribute("aria-busy", "true")
    expect(button).to_be_disabled()
    expect(page.locator("#announcer")).to_have_text("Searching…")
    # A click on the board meanwhile does not throw the answer away.
    montana.cell("D10").click(force=True, no_wait_after=True)
    for _ in range(300):  # Playwright hands the held request over (a bound for liveness)
        if held:
            break
        page.wait_for_timeout(100)
    (question,) = held
    question.continue_()
    # The answer arrives (a verdict, or on a loaded machine "still thinking") and stays.
    answer = re.compile("^(Yes|Not|No|Still thinking)")
    expect(page.locator("#game .message")).to_contain_text(answer)
    expect(page.locator("#announcer")).to_contain_text(answer)
    expect(page.locator("#game")).not_to_have_attribute("aria-busy", "true")


def test_a_pick_up_asks_the_server_at_once(page: Page) -> None:
    """Before, site.js waited ~230 ms for a possible double-click before asking."""
    fc = FreeCellUI(page)
    fc.start(1)
    # No clock in this check (the machine may be slow): the request must start in the
    # very task of the click, before any timer could run, as a pick-up that waited for a
    # possible double-click cannot.
    page.evaluate(
        """() => { window.__asked = null; window.__inClick = false;
             document.addEventListener('click', () => {
               window.__inClick = true;
               setTimeout(() => { window.__inClick = false; }, 0); }, true);
             document.addEventListener('htmx:beforeRequest', () => {
               window.__asked = window.__asked ?? window.__inClick; }); }"""
    )
    fc.pick(fc.exposed("6"))
    assert page.evaluate("window.__asked") is True, "the pick-up waited before asking"
    # A double-click still sends the card on: home, or else to a free cell.
    fc.page.keyboard.press("Escape")
    expect(fc.selected).to_have_count(0)
    fc.double_click(fc.exposed("6"))
    assert fc.history() == ["6a"]


@pytest.fixture
def nojs(browser: Browser, live_server: str) -> Callable[[], BrowserContext]:
    def make() -> BrowserContext:
        context = browser.new_context(base_url=live_server, java_script_enabled=False)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        return context

    return make


def test_without_javascript_a_stale_tab_is_sent_back_to_the_game(
    nojs: Callable[[], BrowserContext],
) -> None:
    context = nojs()
    first = context.new_page()
    ui = MontanaUI(first)
    ui.start(1)
    second = context.new_page()
    second.goto(ui.game_path)
    with first.expect_navigation():
        ui.cell("D10").click()
    with second.expect_navigation():
        second.locator('#board [data-cell="B9"]').click()
    assert second.url.endswith(f"{ui.game_path}?stale=1")
    expect(second.locator("#game .message")).to_contain_text("moved on in another tab")
    context.close()


def axe_violations(page: Page) -> list[dict[str, Any]]:
    options = {"runOnly": {"type": "tag", "values": WCAG_22_AA}}
    violations: list[dict[str, Any]] = AXE.run(page, options=options).response["violations"]
    return violations


PAGE_TYPES: Final = [
    "home",
    "montana",
    "montana-choosing",
    "montana-over",
    "freecell",
    "freecell-holding",
    "freecell-over",
    "replay",
    "solution",
    "my-games",
    "stats",
    *(
        f"variant:{kind}:{variant}"
        for kind, variant in VARIANTS
        if variant != KINDS[kind].rules.default_variant
    ),
]


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("kind", PAGE_TYPES)
def test_axe_finds_nothing(page: Page, kind: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    if kind.startswith("variant:"):
        _, game, variant = kind.split(":")
        start(page, game, variant)
    elif kind == "home":
        page.goto("/")
    elif kind in ("my-games", "stats"):
        page.goto("/games" if kind == "my-games" else "/stats")
    elif kind.startswith("montana") or kind in ("replay", "solution"):
        montana = MontanaUI(page)
        montana.start(1)
        montana.act(montana.cell("D10"))
        if kind == "montana-choosing":
            montana.act(montana.button("r"))
            with montana.swap(new_version=False):
                montana.cell("A1").click()
        elif kind == "montana-over":
            page.locator("details.give-up summary").click()
            montana.act(page.get_by_role("button", name="Yes, give up"))
        elif kind in ("replay", "solution"):
            page.goto(f"{montana.game_path}/{kind}")
            if kind == "solution":  # it asks first: the button shows the solver's line
                page.locator("form[action$='/solution'] button").click()
                page.wait_for_url("**/solution?step=0")
    else:
        fc = FreeCellUI(page)
        fc.start(1)
        if kind == "freecell-holding":
            fc.pick(fc.exposed("6"))
        elif kind == "freecell-over":
            page.locator("details.give-up summary").click()
            fc.act(page.get_by_role("button", name="Yes, give up"))
    violations = axe_violations(page)
    assert violations == [], f"axe on {kind} at {width}px:\n{describe(violations)}"


def _reach(page: Page, kind: str, state: str, force: Callable[[str, str], None]) -> None:
    """Bring a fresh game of ``kind`` to ``state`` (the page then shows it)."""
    from app.games.montana import rules as montana_rules
    from tests.browser.test_freecell_browser import ALMOST_WON

    ui = start(page, kind)
    path = ui.game_path

    def post(action: str, version: int) -> None:
        answer = page.request.post(  # its answer (the game page's address) is not followed
            f"{path}/actions", form={"action": action, "version": str(version)}, max_redirects=0
        )
        assert answer.status in (200, 303), answer.status

    def position() -> montana_rules.MontanaPosition:
        return montana_rules.parse(page.request.get(f"{path}/position").text())

    if state == "holding":
        target = "#board .fc-column a.fc-card" if kind == "freecell" else "#board a[href*='?pick=']"
        if kind == "montana":
            post("redeal", 0)
            page.reload()
        with ui.swap(new_version=False):
            page.locator(target).last.click()
        return
    if kind == "freecell":
        force(path.rsplit("/", 1)[1], ALMOST_WON)
        if state == "won":
            post("1h", 0)
        page.reload()
        return
    version, now = 0, position()
    while not now.is_lost():
        legal = now.legal_moves()
        if state == "stuck" and not legal:
            break
        post(legal[0].notation if legal else "redeal", version)
        version += 1
        # A move is played here as the server plays it; a redeal's shuffle is read back.
        now = now.play(legal[0]) if legal else position()
    assert now.to_text() == position().to_text()
    page.reload()


@pytest.mark.parametrize(
    ("kind", "state"),
    [
        ("freecell", "holding"),
        ("freecell", "won"),
        ("montana", "holding"),
        ("montana", "stuck"),
        ("montana", "lost"),
    ],
)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_state_keeps_board_controls_and_message_on_screen(
    page: Page,
    kind: str,
    state: str,
    size: ViewportSize,
    artifacts: Path,
    force_position: Callable[[str, str], None],
) -> None:
    """Playing, choosing a 2 or holding cards, stuck, won, lost: the board, the controls
    and the message (or the end panel) stay on screen, as when playing (above)."""
    page.set_viewport_size(size)
    _reach(page, kind, state, force_position)
    shown = (
        "#game .controls button:not([hidden]), #game .controls summary, #more button, "
        "#more summary, #game .message, #game .pick-note, #game .stuck-note, "
        "#game .end-screen, #board"
    )
    assert below_the_fold(page, shown) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.screenshot(path=artifacts / f"state-{kind}-{state}-{size['width']}x{size['height']}.png")
