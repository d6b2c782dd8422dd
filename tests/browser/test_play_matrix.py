"""Every way to play, every kind of move, in a real browser: one test per cell of the matrix.

The ways: mouse click-then-click, mouse drag and drop (FreeCell), touch tap-then-tap,
the keyboard alone from page load, and JavaScript off (plain links and forms). Each test
makes one move the way a player would and then reads the board back from the page and
from the server, and (with JavaScript) what the live region announced.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final, Literal

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from app.rules.cards import FULL_DECK
from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES, MontanaUI
from tests.browser.test_freecell_browser import FreeCellUI
from tests.browser.test_freecell_browser import force_position as force_position  # the fixture

Way = Literal["mouse", "drag", "touch", "keyboard", "nojs"]
CLICKING: Final[tuple[Way, ...]] = ("mouse", "touch", "keyboard", "nojs")
FREECELL_WAYS: Final[tuple[Way, ...]] = ("mouse", "drag", "touch", "keyboard", "nojs")


@pytest.fixture
def way_context(browser: Browser, live_server: str) -> Iterator[Callable[[Way], BrowserContext]]:
    contexts: list[BrowserContext] = []

    def make(way: Way) -> BrowserContext:
        options: dict[str, object] = {"base_url": live_server}
        if way == "touch":
            options.update(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
        else:
            options.update(viewport={"width": 1280, "height": 800})
        if way == "nojs":
            options["java_script_enabled"] = False
        context = browser.new_context(**options)  # type: ignore[arg-type]
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        if way != "nojs":
            context.add_init_script(COUNT_SETTLES)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@dataclass
class Player:
    """One way of playing: how it picks things, presses buttons and waits for the answer."""

    way: Way
    page: Page

    @contextmanager
    def answer(self, ui: FreeCellUI | MontanaUI, *, new_version: bool = True) -> Iterator[None]:
        if self.way == "nojs":
            with self.page.expect_navigation():
                yield
        else:
            with ui.swap(new_version=new_version):
                yield

    def choose(self, target: Locator, *, top: bool = False) -> None:
        """Click, tap or (keyboard, no mouse) focus and press Enter; ``top`` aims at the top
        edge (a fanned card shows only that)."""
        box = target.bounding_box() if top else None
        position = {"x": box["width"] / 2, "y": 6} if box else None
        if self.way == "touch":
            target.tap(position=position)  # type: ignore[arg-type]
        elif self.way == "keyboard":
            target.focus()
            self.page.keyboard.press("Enter")
        else:
            target.click(position=position)  # type: ignore[arg-type]

    def control(self, button: Locator, key: str | None) -> None:
        """A control: its key on the keyboard, else chosen like anything else."""
        if self.way == "keyboard" and key:
            self.page.keyboard.press(key)
        else:
            self.choose(button)

    def announced(self) -> Locator:
        return self.page.locator("#announcer")


# -- FreeCell ------------------------------------------------------------------------------

FOUNDATIONS: Final = {"H": 3, "C": 1, "D": 2, "S": 1}
CELLS: Final = ["4H", "6S", None, None]
BOTTOMS: Final = {
    "1": ["7D"],
    "2": [],
    "3": ["9C", "8H", "7S", "6D"],
    "4": ["TH"],
    "5": ["5C"],
    "6": ["3D"],
    "7": ["6H"],
    "8": ["KC"],
}


def _matrix_position() -> freecell.FreeCellPosition:
    """A table where every kind of move is one move away: 4♥ and 6♠ in free cells, 7♦ to
    put 6♠ on, an empty column, a run of 4 (9♣ 8♥ 7♠ 6♦) and 10♥ to put it on, 5♣ for 6♥,
    3♦ ready to go home; no card safe to go home by itself."""
    used = {card for cards in BOTTOMS.values() for card in cards} | {c for c in CELLS if c}
    home = {
        f"{'A23456789TJQK'[r - 1]}{s}" for s, top in FOUNDATIONS.items() for r in range(1, top + 1)
    }
    rest = [c.text for c in FULL_DECK if c.text not in used | home]
    rng = random.Random(11)
    for _ in range(1000):
        rng.shuffle(rest)
        columns = {name: list(cards) for name, cards in BOTTOMS.items()}
        fill = [n for n in columns if n != "2"]
        for i, card in enumerate(rest):
            columns[fill[i % len(fill)]].insert(0, card)
        text = "Foundations: " + " ".join(
            f"{s}-{'A23456789TJQK'[t - 1]}" for s, t in FOUNDATIONS.items()
        )
        text += "\nFreecells: " + " ".join(c or "-" for c in CELLS) + "\n"
        text += "".join(": " + " ".join(columns[n]) + "\n" for n in "12345678")
        position = freecell.parse(text)
        runs = [position.movable_run_length(i) for i in range(8)]
        if runs == [1, 0, 4, 1, 1, 1, 1, 1] and position.automatic_move() is None:
            return position
    raise AssertionError("no filler order fits")


MATRIX: Final = _matrix_position()

FREECELL_MOVES: Final = {
    # name: (source, cards picked up by a click, target, notation)
    "column to column": ("5", 1, "7", "57"),
    "run to column": ("3", 4, "4", "34"),
    "column to free cell": ("5", 1, "c", "5c"),
    "free cell to column": ("b", 1, "1", "b1"),
    "free cell to empty column": ("b", 1, "2", "b2"),
    "free cell to home": ("a", 1, "h", "ah"),
    "column to home": ("6", 1, "h", "6h"),
    "run to empty column": ("3", 3, "2", "32v3"),
}


def expected_after(notation: str) -> freecell.FreeCellPosition:
    position = MATRIX.play(MATRIX.parse_action(notation))
    while (move := position.automatic_move()) is not None:
        position = position.play(move)
    return position


def place(fc: FreeCellUI, name: str) -> Locator:
    if name == "h":
        return fc.page.locator("#board .fc-foundation").first
    return fc.free_cell(name) if name in "abcd" else fc.column(name)


def held_card(fc: FreeCellUI, source: str, count: int) -> Locator:
    cards = place(fc, source).locator(".fc-card")
    return cards.nth(cards.count() - count)


def board_matches(fc: FreeCellUI, expected: freecell.FreeCellPosition) -> None:
    assert fc.position() == expected
    assert fc.columns() == [" ".join(c.text for c in column) for column in expected.columns]
    assert fc.cells() == [c.text if c else "--" for c in expected.cells]


@pytest.fixture
def start_matrix(
    way_context: Callable[[Way], BrowserContext], request: pytest.FixtureRequest
) -> Callable[[Way], tuple[Player, FreeCellUI]]:
    force = request.getfixturevalue("force_position")

    def start(way: Way) -> tuple[Player, FreeCellUI]:
        page = way_context(way).new_page()
        fc = FreeCellUI(page)
        page.goto("/")
        form = page.locator("form").filter(has=page.locator('input[name="kind"][value="freecell"]'))
        with page.expect_navigation():
            form.get_by_role("button", name="Play FreeCell").click()
        force(fc.game_id, MATRIX.to_text())
        page.reload()
        return Player(way, page), fc

    return start


@pytest.mark.parametrize("move", list(FREECELL_MOVES))
@pytest.mark.parametrize("way", FREECELL_WAYS)
def test_freecell_move(
    start_matrix: Callable[[Way], tuple[Player, FreeCellUI]], way: Way, move: str
) -> None:
    player, fc = start_matrix(way)
    source, count, target, notation = FREECELL_MOVES[move]
    if way == "keyboard":
        count = MATRIX.movable_run_length(int(source) - 1) if source.isdigit() else 1
    card = held_card(fc, source, count)
    if way == "drag":
        with player.answer(fc):
            fc.drag(card, place(fc, target))
    elif way == "keyboard":
        with player.answer(fc, new_version=False):
            fc.page.keyboard.press(source)
        expect(player.announced()).to_contain_text("Holding")
        with player.answer(fc):
            fc.page.keyboard.press(target)
    else:
        with player.answer(fc, new_version=False):
            player.choose(card, top=True)
        expect(fc.board).to_have_class(re.compile(r"\bholding\b"))
        with player.answer(fc):
            player.choose(place(fc, target))
    board_matches(fc, expected_after(notation))
    # The cards it played wear the last move's dashed ring, every way (without JavaScript
    # the server says where they lie and the stylesheet rings them), and no others.
    ringed = fc.page.eval_on_selector_all(
        "#board .fc-card",
        "cards => cards.filter(c => getComputedStyle(c).outlineStyle === 'dashed')"
        ".map(c => c.parentElement.id)",
    )
    assert len(ringed) == MATRIX.parse_action(notation).count, ringed
    assert len(set(ringed)) == 1
    if way == "nojs":
        return
    announced = player.announced()
    expect(announced).to_contain_text(re.compile(r"\d+ cards? left\."))
    if count > int(notation.partition("v")[2] or count):
        # The note names the cards that went and the limit with its numbers.
        fewer = re.compile(r"Only .+ went to the empty column \d+: at most 3 cards can move")
        expect(fc.message).to_contain_text(fewer)
        expect(announced).to_contain_text(fewer)


@pytest.mark.parametrize("way", CLICKING)
def test_freecell_undo_hint_all_home_give_up_restart(
    start_matrix: Callable[[Way], tuple[Player, FreeCellUI]], way: Way
) -> None:
    player, fc = start_matrix(way)
    page = fc.page
    with player.answer(fc):
        player.control(page.get_by_role("button", name=re.compile("^All home")), "Home")
    swept = MATRIX
    while (home := swept.any_home_move()) is not None:
        swept = swept.play(home)
    board_matches(fc, swept)
    if way != "nojs":
        expect(player.announced()).to_contain_text(re.compile(r"\d+ cards went home\."))
    # A real deal from here on (undo replays the history from the deal).
    fc.start(1)
    with player.answer(fc, new_version=False):
        if way == "keyboard":
            page.keyboard.press("8")
        else:
            player.choose(fc.exposed("8"), top=True)
    with player.answer(fc):
        player.control(fc.free_cell("a"), "a")
    board_matches(fc, freecell.new_game(1).play(freecell.FreeCellMove("8", "a")))
    with player.answer(fc):
        player.control(fc.button("u"), "u")
    board_matches(fc, freecell.new_game(1))
    if way != "nojs":
        expect(player.announced()).to_contain_text("Move undone.")
    with player.answer(fc, new_version=False):
        player.control(page.get_by_role("button", name=re.compile("^Hint")), "h")
    expect(fc.message).to_contain_text(re.compile("Hint:|best move found so far"))  # a lit move
    expect(page.locator("#board .hint").first).to_be_visible()
    # Restart asks first; answering no changes nothing.
    # With JavaScript the question opens in a modal dialog beside its <details>.
    asked = "dialog.confirm-dialog[open]" if way != "nojs" else "details[open]"
    player.choose(page.locator("details.restart summary"))
    restart = page.locator(asked)
    expect(restart.get_by_text("The game in play counts as lost.")).to_be_visible()
    path = fc.game_path
    with page.expect_navigation():
        player.choose(restart.get_by_role("button", name="Yes, restart"))
    assert fc.game_path != path
    assert fc.history() == []
    player.choose(page.locator("details.give-up summary"))
    give_up = page.locator(asked)
    with player.answer(fc):
        player.choose(give_up.get_by_role("button", name="Yes, give up"))
    expect(page.locator(".end-screen")).to_contain_text("You gave up")
    if way != "nojs":
        expect(player.announced()).to_have_text("You gave up.")


# -- Montana -------------------------------------------------------------------------------

DEAL_ONE: Final = montana.new_game(1, "expert")


def montana_after(*actions: str) -> list[str]:
    position = DEAL_ONE
    for action in actions:
        position = position.play(position.parse_action(action))
    return position.grid_text().splitlines()


@pytest.fixture
def start_montana(
    way_context: Callable[[Way], BrowserContext],
) -> Callable[[Way], tuple[Player, MontanaUI]]:
    def start(way: Way) -> tuple[Player, MontanaUI]:
        page = way_context(way).new_page()
        ui = MontanaUI(page)
        page.goto("/")
        form = page.locator("form").filter(has=page.locator('input[name="kind"][value="montana"]'))
        form.get_by_role("radio", name="Expert").check()
        form.get_by_role("textbox", name="Deal number").fill("1")
        with page.expect_navigation():
            form.get_by_role("button", name="Play Montana").click()
        return Player(way, page), ui

    return start


def keyboard_to(ui: MontanaUI, name: str) -> None:
    """From wherever focus is, Tab to the board, then arrow keys to cell ``name``."""
    page = ui.page
    for _ in range(40):
        focused = page.evaluate("document.activeElement.dataset.cell || ''")
        if focused:
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the board")
    row, col = "ABCD".index(focused[0]), int(focused[1:])
    for _ in range(("ABCD".index(name[0]) - row) % 4):
        page.keyboard.press("ArrowDown")
    for _ in range((int(name[1:]) - col) % 13):
        page.keyboard.press("ArrowRight")
    expect(ui.cell(name)).to_be_focused()


def montana_choose(player: Player, ui: MontanaUI, name: str) -> None:
    if player.way == "keyboard":
        keyboard_to(ui, name)
        player.page.keyboard.press("Enter")
    else:
        player.choose(ui.cell(name))


@pytest.mark.parametrize("way", CLICKING)
def test_montana_card_gap_two_redeal_undo_hint(
    start_montana: Callable[[Way], tuple[Player, MontanaUI]], way: Way
) -> None:
    player, ui = start_montana(way)
    announced = player.announced()
    with player.answer(ui):
        montana_choose(player, ui, "D10")  # 6♠ goes to the gap after 5♠
    assert ui.grid() == ui.position_grid() == montana_after("6S A13")
    if way != "nojs":
        expect(announced).to_have_text(re.compile(r"^6 of spades to A13\. \d+ cards? in place\.$"))
    with player.answer(ui):
        montana_choose(player, ui, "B9")  # the gap after J♠: Q♠ comes in
    assert ui.grid() == ui.position_grid() == montana_after("6S A13", "QS B9")
    with player.answer(ui):
        player.control(ui.button("r"), "r")
    assert ui.grid() == ui.position_grid() == montana_after("6S A13", "QS B9", "redeal")
    if way != "nojs":
        expect(announced).to_contain_text("Redeal 1 of 2.")
    # A column-1 gap takes any 2: choose it, then pick one of the marked 2s.
    after_redeal = DEAL_ONE.play(DEAL_ONE.parse_action("6S A13"))
    after_redeal = after_redeal.play(after_redeal.parse_action("QS B9"))
    after_redeal = after_redeal.play(after_redeal.parse_action("redeal"))
    gap = next(
        montana.cell_name(i)
        for i, card in enumerate(after_redeal.cells)
        if card is None and i % 13 == 0 and len(after_redeal.moves_to(i)) > 1
    )
    with player.answer(ui, new_version=False):
        montana_choose(player, ui, gap)
    candidates = ui.page.locator("#board [data-cell].candidate")
    expect(candidates).not_to_have_count(0)
    if way != "nojs":
        expect(announced).to_have_text(f"Choose the 2 to put in {gap}.")
    chosen = candidates.first
    card_name = (chosen.get_attribute("aria-label") or "").split(",")[0]
    card = next(c for c in FULL_DECK if c.label == card_name)
    with player.answer(ui):
        montana_choose(player, ui, chosen.get_attribute("data-cell") or "")
    played = montana_after("6S A13", "QS B9", "redeal", f"{card.text} {gap}")
    assert ui.grid() == ui.position_grid() == played
    # Undo twice: the 2, then the redeal; the same redeal again deals the same cards.
    for _ in range(2):
        with player.answer(ui):
            player.control(ui.button("u"), "u")
    assert ui.grid() == montana_after("6S A13", "QS B9")
    with player.answer(ui):
        player.control(ui.button("r"), "r")
    assert ui.grid() == montana_after("6S A13", "QS B9", "redeal")
    with player.answer(ui, new_version=False):
        player.control(ui.page.get_by_role("button", name=re.compile("^Hint")), "h")
    expect(ui.page.locator("#game .message")).to_contain_text(re.compile("Hint:|Still thinking"))
    if way != "nojs":
        expect(announced).to_contain_text(re.compile("Hint:|Still thinking"))
