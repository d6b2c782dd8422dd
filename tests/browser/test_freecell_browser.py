"""FreeCell in a real browser: clicks, drag and drop (mouse and touch), double- and
right-clicks, the keyboard, a won game and the layout at desktop and phone widths."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect
from sqlalchemy import update

from app.games.freecell import rules as freecell
from app.games.freecell.view import FOUNDATION_SUITS
from app.rules.cards import SUIT_NAMES, Suit
from app.store import Database
from app.store.models import GameRecord
from tests.browser.conftest import ACTION_TIMEOUT_MS, COUNT_SETTLES, GameUI, card_text

DEAL_ONE: Final = freecell.new_game(1)
DEAL_ONE_COLUMNS: Final = [
    "JD KD 2S 4C 3S 6D 6S",
    "2D KC KS 5C TD 8S 9C",
    "9H 9S 9D TS 4S 8D 2H",
    "JC 5S QD QH TH QS 6H",
    "5D AD JS 4H 8H 6C",
    "7H QC AS AC 2C 3D",
    "7C KH AH 4D JH 8C",
    "5H 3H 3C 7S 7D TC",
]
OPENING: Final = ["6a", "6b", "6h", "6h", "bh"]
"""Deal #1 after ``6a`` and ``6b``: AC, AS and 2C go home by themselves."""

ALMOST_WON: Final = """\
Foundations: H-K C-K D-Q S-Q
: KD
: KS
:
:
:
:
:
:
"""
"""Two kings left: one move home, and the automatic move finishes the game."""

PHONE: Final[ViewportSize] = {"width": 375, "height": 812}
DESKTOP: Final[ViewportSize] = {"width": 1280, "height": 900}
WON: Final = re.compile(r"You won FreeCell #1 in \d+:\d\d!")


def engine(*moves: str, auto: bool = True) -> freecell.FreeCellPosition:
    """Deal #1 after ``moves`` (``'all-home'`` too), with the server's automatic moves."""
    position = DEAL_ONE
    for text in moves:
        if text == "all-home":
            while (home := position.any_home_move()) is not None:
                position = position.play(home)
            continue
        position = position.play(position.parse_action(text))
        while auto and (move := position.automatic_move()) is not None:
            position = position.play(move)
    return position


# -- driving FreeCell through the page ---------------------------------------------------------


AUTO_HOME_LABELS: Final = {
    "off": "Auto home: off",
    "safe": "Auto home: safe cards",
    "all": "Auto home: every card",
}


@dataclass
class FreeCellUI(GameUI):
    """A FreeCell game page, driven as a player would."""

    # where things are

    @property
    def board(self) -> Locator:
        return self.page.locator("#board")

    def column(self, name: str) -> Locator:
        return self.page.locator(f'#board .fc-column[data-drop="{name}"]')

    def free_cell(self, name: str) -> Locator:
        return self.page.locator(f'#board .fc-cell[data-drop="{name}"]')

    def foundation(self, suit: Suit) -> Locator:
        """The foundation of ``suit`` (``'C'``), found by its label."""
        return self.page.locator(
            f'#board .fc-foundation[aria-label^="{SUIT_NAMES[suit]} foundation"]'
        )

    def exposed(self, column: str) -> Locator:
        """The bottom card of a column (the one a player can always move)."""
        return self.column(column).locator(".fc-card").last

    @property
    def selected(self) -> Locator:
        return self.page.locator("#board .fc-card.selected")

    @property
    def targets(self) -> Locator:
        """The places a click would put the held cards on."""
        return self.page.locator("#board button.target")

    @property
    def message(self) -> Locator:
        return self.page.locator("#game .message-area .message")

    # reading the board back

    def columns(self) -> list[str]:
        """The eight columns as notation, top card first, read from the cards' labels."""
        labels: list[list[str]] = self.page.eval_on_selector_all(
            "#board .fc-column",
            "cols => cols.map(c => Array.from(c.querySelectorAll('.fc-card'),"
            " e => e.getAttribute('aria-label')))",
        )
        assert len(labels) == 8, labels
        return [" ".join(card_text(label) for label in column) for column in labels]

    def cells(self) -> list[str]:
        """The four free cells (``'--'`` when empty)."""
        labels: list[str | None] = self.page.eval_on_selector_all(
            "#board .fc-cell",
            "cells => cells.map(c => { const card = c.querySelector('.fc-card');"
            " return card ? card.getAttribute('aria-label') : null; })",
        )
        assert len(labels) == 4, labels
        return ["--" if label is None else card_text(label) for label in labels]

    @property
    def game_id(self) -> str:
        return self.game_path.rsplit("/", 1)[1]

    def position(self) -> freecell.FreeCellPosition:
        response = self.page.request.get(f"{self.game_path}/position")
        assert response.ok, response.status
        return freecell.parse(response.text())

    def history(self) -> list[str]:
        response = self.page.request.get(f"{self.game_path}/history")
        assert response.ok, response.status
        return response.text().splitlines()

    # acting

    def start(self, deal: int = 1) -> str:
        """Start FreeCell deal ``deal`` from the home page form; return the game's path."""
        return self.start_from_home("freecell", deal, "Play FreeCell")

    @contextmanager
    def swap(self, *, new_version: bool = True) -> Iterator[None]:
        """As :meth:`GameUI.swap`; without ``new_version`` the version must stay (a pick-up,
        a cancel, a refused move)."""
        version = self.version()
        with super().swap(new_version=new_version):
            yield
        if not new_version:
            expect(self.game).to_have_attribute("data-version", version)

    def pick(self, card: Locator) -> None:
        """Click a card to pick it up (site.js waits ~230 ms for a possible double-click)."""
        with self.swap(new_version=False):
            card.click()
        expect(self.board).to_have_class(re.compile(r"\bholding\b"))

    def act(self, target: Locator, *, button: Literal["left", "right"] = "left") -> None:
        """Click ``target`` and wait until htmx has swapped in the game's next version."""
        with self.swap():
            target.click(button=button)

    def double_click(self, card: Locator) -> None:
        with self.swap():
            card.dblclick()

    def press(self, key: str, *, new_version: bool = True) -> None:
        with self.swap(new_version=new_version):
            self.page.keyboard.press(key)

    def drag(self, card: Locator, target: Locator, *, steps: int = 8) -> None:
        """Drag ``card`` with the mouse onto ``target`` (the middle of its top card slot)."""
        card.scroll_into_view_if_needed()
        start, end = _grip(card), _drop_point(target)
        mouse = self.page.mouse
        mouse.move(*start)
        mouse.down()
        mouse.move(*end, steps=steps)
        mouse.up()

    def set_auto_home(self, mode: str) -> None:
        """Press the "Auto home" control (htmx swaps it alone, the page stays) until it
        says ``mode``: ``off``, ``safe`` or ``all``."""
        button = self.page.locator("#auto-home-button")
        for _ in range(len(AUTO_HOME_LABELS)):
            if button.inner_text().strip() == AUTO_HOME_LABELS[mode]:
                return
            settled = self.settled()
            button.click()
            self.page.wait_for_function("n => window.__htmxSettled > n", arg=settled)
        expect(button).to_have_text(AUTO_HOME_LABELS[mode])


def _grip(card: Locator) -> tuple[float, float]:
    """A point on the visible part of a card: near its top, where the fan shows it."""
    box = card.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(12.0, box["height"] / 4)


def _drop_point(place: Locator) -> tuple[float, float]:
    box = place.bounding_box()
    assert box is not None
    width = box["width"]
    return box["x"] + width / 2, box["y"] + min(box["height"] / 2, width * 0.7)


# -- fixtures -------------------------------------------------------------------------------


@pytest.fixture
def fc(page: Page) -> FreeCellUI:
    return FreeCellUI(page)


@pytest.fixture(scope="session")
def force_position(
    live_server: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str, str], None]]:
    """Write a constructed position into a game on the live server (tests only).

    The conftest's live server keeps its SQLite file in a ``browser*`` folder of the
    session's temporary directory; the game's row is updated on whichever file has it.
    """
    files = sorted(tmp_path_factory.getbasetemp().glob("browser*/solitaire.db"))
    assert files, "the live server's database file was not found"
    databases = [Database(f"sqlite:///{path}") for path in files]

    def force(game_id: str, text: str) -> None:
        position = freecell.parse(text)
        values = {"position": position.to_text(), "cards_left": position.cards_left}
        for database in databases:
            with database.write() as session:
                query = update(GameRecord).where(GameRecord.id == game_id).values(**values)
                if session.execute(query).rowcount:  # type: ignore[attr-defined]
                    return
        pytest.fail(f"game {game_id} is in no live-server database ({files})")

    yield force
    for database in databases:
        database.dispose()


@pytest.fixture
def touch_context(browser: Browser, live_server: str) -> Iterator[BrowserContext]:
    """A phone-sized context with a touch screen (fresh, no cookies)."""
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, base_url=live_server
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.add_init_script(COUNT_SETTLES)
    yield context
    context.close()


# -- 1. the deal from the home page ---------------------------------------------------------


def test_deal_one_from_the_home_page(fc: FreeCellUI) -> None:
    page = fc.page
    fc.start(1)
    expect(page).to_have_title("FreeCell #1 · Solitaire")
    assert fc.columns() == DEAL_ONE_COLUMNS
    assert fc.cells() == ["--"] * 4
    for suit in FOUNDATION_SUITS:
        expect(fc.foundation(suit)).to_have_attribute(
            "aria-label", f"{SUIT_NAMES[suit]} foundation, empty"
        )
    assert fc.position() == DEAL_ONE
    assert fc.history() == []
    expect(fc.status("Cards left")).to_have_text("52")
    expect(fc.status("Moves")).to_have_text("0")
    expect(fc.status("Time")).to_have_text(re.compile(r"^0:0\d$"))
    expect(fc.button("u")).to_be_disabled()
    expect(fc.column("1")).to_have_attribute("aria-label", "column 1, 6 of spades at the bottom")
    # Only the exposed cards can move: 8 links, the other 44 cards are still images.
    expect(page.locator("#board .fc-column a.fc-card")).to_have_count(8)
    expect(page.locator('#board .fc-column span.fc-card[role="img"]')).to_have_count(44)

    page.evaluate("window.__marker = 42")
    fc.pick(fc.exposed("8"))
    fc.act(fc.free_cell("a"))  # 8a
    fc.pick(fc.exposed("8"))
    fc.act(fc.column("7"))  # 87: 7♦ onto 8♣
    expected = engine("8a", "87")
    assert fc.columns() == [" ".join(c.text for c in col) for col in expected.columns]
    assert fc.cells() == ["TC", "--", "--", "--"]
    assert fc.position() == expected
    expect(fc.status("Moves")).to_have_text("2")
    expect(fc.button("u")).to_be_enabled()
    assert page.evaluate("window.__marker") == 42, "the page reloaded instead of swapping #game"


# -- 2. click, click -----------------------------------------------------------------------


def test_click_a_card_then_its_place(fc: FreeCellUI) -> None:
    page = fc.page
    fc.start(1)
    page.evaluate("window.__marker = 7")

    fc.pick(fc.exposed("6"))
    expect(fc.selected).to_have_count(1)
    expect(fc.selected).to_have_attribute(
        "aria-label",
        "3 of diamonds, column 6, bottom card, selected, choose it again to put it back",
    )
    expect(page.locator("#game .pick-note")).to_contain_text("Holding 3♦")
    # 3♦ fits no column and cannot go home: the four free cells are its only places.
    expect(fc.targets).to_have_count(4)
    for name in "abcd":
        target = fc.free_cell(name)
        expect(target).to_have_class(re.compile(r"\btarget\b"))
        expect(target).to_have_attribute("value", f"6{name}")
        expect(target).to_have_attribute("data-key", name)
    assert fc.history() == [], "picking a card up is not a move"

    fc.act(fc.free_cell("a"))
    expect(fc.selected).to_have_count(0)
    expect(fc.targets).to_have_count(0)
    assert fc.cells() == ["3D", "--", "--", "--"]
    assert fc.history() == ["6a"]

    fc.pick(fc.exposed("6"))
    expect(fc.selected).to_have_attribute(
        "aria-label", "2 of clubs, column 6, bottom card, selected, choose it again to put it back"
    )
    expect(fc.targets).to_have_count(3)  # free cell a is taken now
    fc.act(fc.free_cell("b"))

    # The automatic moves: A♣, then 2♣ from free cell b, and A♠.
    assert fc.history() == OPENING
    expect(fc.foundation("C")).to_have_attribute("aria-label", "clubs foundation, up to 2 of clubs")
    expect(fc.foundation("C").locator(".fc-card")).to_have_attribute("aria-label", "2 of clubs")
    expect(fc.foundation("S")).to_have_attribute(
        "aria-label", "spades foundation, up to ace of spades"
    )
    expect(fc.foundation("S").locator(".fc-card")).to_have_attribute("aria-label", "ace of spades")
    expect(fc.foundation("H")).to_have_attribute("aria-label", "hearts foundation, empty")
    assert fc.cells() == ["3D", "--", "--", "--"]
    assert fc.columns()[5] == "7H QC"
    assert fc.position() == engine("6a", "6b")
    expect(fc.status("Cards left")).to_have_text("49")
    expect(fc.status("Moves")).to_have_text("2")
    assert page.evaluate("window.__marker") == 7, "the page reloaded instead of swapping #game"


# -- 3. letting go -------------------------------------------------------------------------


def test_click_again_or_escape_puts_the_card_back(fc: FreeCellUI) -> None:
    page = fc.page
    fc.start(1)
    version = fc.version()

    fc.pick(fc.exposed("5"))
    expect(fc.selected).to_have_attribute(
        "aria-label", "6 of clubs, column 5, bottom card, selected, choose it again to put it back"
    )
    with fc.swap(new_version=False):
        fc.selected.click()  # the held card again: put it back
    expect(fc.board).not_to_have_class(re.compile(r"\bholding\b"))
    expect(fc.selected).to_have_count(0)
    expect(fc.targets).to_have_count(0)

    fc.pick(fc.exposed("5"))
    expect(fc.targets).to_have_count(4)
    fc.press("Escape", new_version=False)
    expect(fc.selected).to_have_count(0)
    expect(fc.targets).to_have_count(0)
    expect(page.locator("#game .pick-note")).to_have_count(0)

    # The "put it back" link in the note cancels as well.
    fc.pick(fc.exposed("1"))
    with fc.swap(new_version=False):
        page.locator("#game .pick-note").get_by_role("link", name="put it back").click()
    expect(fc.selected).to_have_count(0)

    assert fc.version() == version
    assert fc.history() == []
    assert fc.position() == DEAL_ONE


# -- 4. drag and drop with the mouse --------------------------------------------------------


def test_drag_and_drop_with_the_mouse(fc: FreeCellUI) -> None:
    page = fc.page
    fc.start(1)
    page.evaluate("window.__marker = 4")

    # While dragging: a ghost follows the pointer and a legal place under it is marked.
    card = fc.exposed("8")
    start, end = _grip(card), _drop_point(fc.free_cell("a"))
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    expect(page.locator(".fc-ghost")).to_have_count(1)
    expect(fc.free_cell("a")).to_have_class(re.compile(r"\bfc-drop-hover\b"))
    with fc.swap():
        page.mouse.up()  # 8a
    expect(page.locator(".fc-ghost")).to_have_count(0)
    assert fc.cells() == ["TC", "--", "--", "--"]

    with fc.swap():
        fc.drag(fc.exposed("8"), fc.column("7"))  # 87: 7♦ onto 8♣
    with fc.swap():
        fc.drag(fc.exposed("5"), fc.column("7"))  # 57: 6♣ onto 7♦
    assert fc.history() == ["8a", "87", "57"]
    assert fc.position() == engine("8a", "87", "57")
    assert fc.columns()[6] == "7C KH AH 4D JH 8C 7D 6C"

    # A drop the rules refuse posts nothing new: the server explains, the board stays.
    with fc.swap(new_version=False):
        fc.drag(fc.exposed("2"), fc.column("1"))  # 9♣ onto 6♠
    expect(fc.message).to_contain_text("9♣ cannot go on 6♠")
    # A drag that ends outside the table is no move at all.
    settled = fc.settled()
    fc.drag(fc.exposed("2"), page.locator("#game-title"))
    expect(page.locator(".fc-ghost")).to_have_count(0)
    assert fc.settled() == settled
    assert fc.history() == ["8a", "87", "57"]
    assert page.evaluate("window.__marker") == 4


# -- 5. drag and drop with a finger ----------------------------------------------------------


def test_drag_and_drop_by_touch(touch_context: BrowserContext) -> None:
    page = touch_context.new_page()
    fc = FreeCellUI(page)
    fc.start(1)
    page.evaluate(
        "window.__pointers = [];"
        "for (const t of ['pointerdown', 'pointermove', 'pointerup'])"
        "  document.addEventListener(t, e => window.__pointers.push(e.pointerType), true);"
    )
    cdp = touch_context.new_cdp_session(page)

    def touch_drag(card: Locator, target: Locator, steps: int = 8) -> None:
        (x0, y0), (x1, y1) = _grip(card), _drop_point(target)
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
        )
        for i in range(1, steps + 1):
            x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
            cdp.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    with fc.swap():
        touch_drag(fc.exposed("6"), fc.free_cell("a"))  # 6a
    with fc.swap():
        touch_drag(fc.exposed("6"), fc.free_cell("b"))  # 6b, then the automatic moves
    with fc.swap():
        touch_drag(fc.exposed("8"), fc.free_cell("c"))  # 8c
    with fc.swap():
        touch_drag(fc.exposed("8"), fc.column("7"))  # 87: 7♦ onto 8♣
    assert fc.history() == [*OPENING, "8c", "87"]
    assert fc.position() == engine("6a", "6b", "8c", "87")
    assert fc.cells() == ["3D", "--", "TC", "--"]
    kinds = set(page.evaluate("window.__pointers"))
    assert kinds == {"touch"}, f"site.js saw pointer events of type {kinds}"
    # Phone width: the table still fits without scrolling sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


# -- 6. double-click and right-click ---------------------------------------------------------


def test_double_click_and_right_click(fc: FreeCellUI) -> None:
    page = fc.page
    fc.start(1)
    fc.set_auto_home("off")
    expect(page.get_by_role("button", name="Auto home: off")).to_be_visible()
    page.evaluate("window.__marker = 6")

    fc.double_click(fc.exposed("6"))  # 3♦ cannot go home: the first empty free cell
    assert fc.history() == ["6a"]
    page.wait_for_timeout(300)  # past site.js's 230 ms: the first click picked nothing up
    expect(fc.selected).to_have_count(0)
    fc.double_click(fc.exposed("6"))  # 2♣ neither (no A♣ home yet): free cell b
    assert fc.history() == ["6a", "6b"]
    assert fc.cells() == ["3D", "2C", "--", "--"]
    # Auto home is off, so A♣ waits at the bottom of column 6.
    assert fc.columns()[5] == "7H QC AS AC"
    expect(fc.button("home")).to_be_enabled()

    fc.double_click(fc.exposed("6"))  # A♣ can go home: it does
    assert fc.history() == ["6a", "6b", "6h"]
    expect(fc.foundation("C")).to_have_attribute(
        "aria-label", "clubs foundation, up to ace of clubs"
    )

    fc.act(fc.exposed("6"), button="right")  # A♠: right-click sends it home
    assert fc.history() == ["6a", "6b", "6h", "6h"]
    expect(fc.foundation("S")).to_have_attribute(
        "aria-label", "spades foundation, up to ace of spades"
    )
    expect(page.locator("#board .fc-card.selected")).to_have_count(0)

    # A card that cannot go home: right-click says why and changes nothing.
    with fc.swap(new_version=False):
        fc.exposed("1").click(button="right")
    expect(fc.message).to_contain_text("6♠ cannot go home")
    assert fc.history() == ["6a", "6b", "6h", "6h"]

    # Right-click the empty table (below column 3's cards): All home, here the 2♣.
    box = fc.column("3").bounding_box()
    assert box is not None
    with fc.swap():
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 8, button="right")
    assert fc.history() == ["6a", "6b", "6h", "6h", "bh"]
    assert fc.position() == engine("6a", "6b", "6h", "6h", "bh", auto=False)
    expect(fc.button("home")).to_be_disabled()  # nothing more can go home: it stays, disabled
    expect(fc.foundation("C")).to_have_attribute("aria-label", "clubs foundation, up to 2 of clubs")

    # Right-click the empty table with nothing to send posts nothing.
    settled = fc.settled()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 8, button="right")
    page.wait_for_timeout(300)
    assert fc.settled() == settled
    assert page.evaluate("window.__marker") == 6


def test_right_click_the_table_sends_every_card_home(fc: FreeCellUI) -> None:
    fc.start(1)
    fc.set_auto_home("off")
    fc.double_click(fc.exposed("6"))  # 6a
    fc.double_click(fc.exposed("6"))  # 6b
    box = fc.column("8").bounding_box()
    assert box is not None
    with fc.swap():
        fc.page.mouse.click(
            box["x"] + box["width"] / 2, box["y"] + box["height"] - 8, button="right"
        )
    # A♣, then A♠, then 2♣ from free cell b: everything that could go, in one action.
    assert fc.history() == OPENING
    assert fc.position() == engine("6a", "6b", "all-home", auto=False)
    expect(fc.status("Moves")).to_have_text("3")


# -- 7. the keyboard ------------------------------------------------------------------------


def test_keyboard_only(fc: FreeCellUI) -> None:
    page = fc.page
    fc.start(1)
    page.evaluate("window.__marker = 8")

    fc.press("6", new_version=False)
    expect(fc.selected).to_have_attribute(
        "aria-label",
        "3 of diamonds, column 6, bottom card, selected, choose it again to put it back",
    )
    fc.press("a")
    fc.press("6", new_version=False)
    fc.press("b")
    assert fc.history() == OPENING
    assert fc.position() == engine("6a", "6b")

    fc.press("u")  # takes back 6b and the automatic moves after it
    assert fc.position() == engine("6a")
    assert fc.columns()[5] == "7H QC AS AC 2C"
    fc.press("Control+z")
    assert fc.position() == DEAL_ONE
    assert fc.columns() == DEAL_ONE_COLUMNS
    expect(fc.button("u")).to_be_disabled()

    # h with a card that cannot go home says why, and so does a column that cannot take
    # it (no other card is picked up instead); the card stays held. Esc lets go.
    fc.press("5", new_version=False)
    fc.press("h", new_version=False)
    expect(fc.message).to_contain_text("6♣")
    expect(page.locator("#announcer")).to_contain_text("6 of clubs")  # in words, as labels
    expect(fc.selected).to_have_attribute(
        "aria-label", re.compile("^6 of clubs, column 5, bottom card, selected")
    )
    fc.press("1", new_version=False)  # column 1's 6♠ takes no 6♣
    expect(fc.message).to_contain_text("6♠")
    expect(fc.selected).to_have_attribute(
        "aria-label", re.compile("^6 of clubs, column 5, bottom card, selected")
    )
    fc.press("Escape", new_version=False)
    expect(fc.selected).to_have_count(0)
    assert fc.history() == ["6a", "6b", "6h", "6h", "bh", "undo", "undo"]

    # ? shows the keys in a dialog and closes it; Esc closes it too.
    help_panel = page.get_by_role("dialog")
    page.keyboard.press("?")
    expect(help_panel).to_be_visible()
    expect(help_panel.locator("dl.keys")).to_be_visible()
    page.keyboard.press("?")
    expect(help_panel).to_have_count(0)
    page.keyboard.press("?")
    page.keyboard.press("Escape")
    expect(help_panel).to_have_count(0)
    assert page.evaluate("window.__marker") == 8


def test_keyboard_home_and_all_home(fc: FreeCellUI) -> None:
    page = fc.page
    fc.start(1)
    fc.set_auto_home("off")
    for key in "6a6b":
        fc.press(key, new_version=key in "ab")
    assert fc.history() == ["6a", "6b"]
    fc.press("6", new_version=False)  # A♣
    fc.press("h")  # home with a card held: that card
    assert fc.history() == ["6a", "6b", "6h"]
    expect(fc.button("home")).to_be_enabled()
    fc.press("Home")  # nothing held: the Home key sends all home (A♠, 2♣)
    assert fc.history() == ["6a", "6b", "6h", "6h", "bh"]
    expect(fc.button("home")).to_be_disabled()
    fc.press("u")  # one undo takes the whole All home back
    assert fc.position() == engine("6a", "6b", "6h", auto=False)

    # n: a new game (a plain form: a new page with a new game).
    path = fc.game_path
    with page.expect_navigation():
        page.keyboard.press("n")
    expect(page.locator("#game-title")).to_contain_text("FreeCell")
    assert fc.game_path != path


# -- 8. winning ---------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["click", "double-click", "drag", "keyboard"])
def test_winning_a_constructed_position(
    fc: FreeCellUI, force_position: Callable[[str, str], None], how: str
) -> None:
    page = fc.page
    fc.start(1)
    force_position(fc.game_id, ALMOST_WON)
    page.reload()
    assert fc.columns() == ["KD", "KS", "", "", "", "", "", ""]
    expect(fc.status("Cards left")).to_have_text("2")
    expect(fc.foundation("D")).to_have_attribute(
        "aria-label", "diamonds foundation, up to queen of diamonds"
    )

    if how == "click":
        fc.pick(fc.exposed("1"))
        expect(fc.targets).to_have_count(4 + 4 + 6)  # home, the free cells, columns 3-8
        fc.act(fc.foundation("D"))
    elif how == "double-click":
        fc.double_click(fc.exposed("1"))
    elif how == "drag":
        with fc.swap():
            fc.drag(fc.exposed("1"), fc.foundation("D"))
    else:
        fc.press("1", new_version=False)
        fc.press("h")

    end = page.locator("#game .end-screen")
    expect(end).to_be_visible()
    expect(end.get_by_role("heading")).to_have_text(WON)
    expect(page.locator("#announcer")).to_contain_text(
        re.compile(
            r"king of diamonds home from column 1\. 1 card went home by itself\. "
            r"You won FreeCell #1 in"
        )
    )
    expect(fc.game).to_have_attribute("data-status", "won")
    assert fc.history() == ["1h", "2h"]
    assert fc.position().is_won()
    expect(fc.status("Cards left")).to_have_text("0")
    # A finished game offers nothing to play: no card links, no places to click.
    expect(page.locator("#board a.fc-card")).to_have_count(0)
    expect(page.locator("#board button")).to_have_count(0)
    expect(end.get_by_role("button", name="Play this deal again")).to_be_visible()


def test_a_double_click_handled_late_on_a_busy_page_still_sends_the_card_home(
    fc: FreeCellUI, force_position: Callable[[str, str], None]
) -> None:
    """The second click of a double-click counts by when it was made: a page too busy to
    handle it within the double-click time (a slow phone, a loaded machine) still moves."""
    page = fc.page
    fc.start(1)
    force_position(fc.game_id, ALMOST_WON)
    page.reload()
    # The first click's handling holds the page for 1.2 s: the second waits in the queue.
    page.evaluate(
        """() => document.addEventListener("click", (event) => {
            if (event.detail !== 1) return;
            const until = performance.now() + 1200;
            while (performance.now() < until) {}
        }, { capture: true, once: true })"""
    )
    fc.double_click(fc.exposed("1"))
    expect(page.locator("#game .end-screen")).to_be_visible()
    assert fc.history() == ["1h", "2h"]


# -- 9. layout and screenshots ----------------------------------------------------------------


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x900", "375x812"])
def test_layout_and_screenshots(fc: FreeCellUI, artifacts: Path, size: ViewportSize) -> None:
    page = fc.page
    page.set_viewport_size(size)
    fc.start(1)
    width = size["width"]
    name = f"freecell-{width}x{size['height']}"

    def check_fits() -> None:
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"the page scrolls sideways at {width}px ({scroll}px wide)"
        checked, outside = page.eval_on_selector_all(
            "#board .fc-card, #board .fc-place, #game .controls button, #game .controls summary",
            """(els, width) => [els.length, els.map(e => [e.getAttribute('aria-label')
                 || e.textContent.trim(), e.getBoundingClientRect()])
                 .filter(([, r]) => r.left < 0 || r.right > width + 0.5)
                 .map(([name, r]) => `${name}: ${r.left}..${r.right}`)]""",
            width,
        )
        assert checked >= 52 + 16 + 4, checked  # cards, places, controls
        assert outside == [], f"off-screen at {width}px: {outside}"

    check_fits()
    # Every card's corner index is readable: the fan leaves at least its height in view.
    corners = page.eval_on_selector_all(
        "#board .fc-column",
        "cols => cols.map(c => { const cards = c.querySelectorAll('.fc-card');"
        " if (cards.length < 2) return 999;"
        " const range = document.createRange(); range.selectNodeContents(cards[0]);"
        " const corner = range.getBoundingClientRect();"
        " const gap = cards[1].getBoundingClientRect().top - cards[0].getBoundingClientRect().top;"
        " return gap - (corner.bottom - cards[0].getBoundingClientRect().top); })",
    )
    assert min(corners) >= 0, f"the fan hides the cards' corners: {corners}"
    page.screenshot(path=artifacts / f"{name}-fresh.png", full_page=True)

    fc.pick(fc.exposed("6"))
    expect(fc.targets).to_have_count(4)
    check_fits()
    page.screenshot(path=artifacts / f"{name}-holding.png", full_page=True)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x900", "375x812"])
def test_picking_a_card_up_does_not_move_the_table(fc: FreeCellUI, size: ViewportSize) -> None:
    fc.page.set_viewport_size(size)
    fc.start(1)
    before = fc.free_cell("a").bounding_box()
    fc.pick(fc.exposed("6"))
    after = fc.free_cell("a").bounding_box()
    assert before is not None and after is not None
    assert abs(after["y"] - before["y"]) < 1, f"the table moved by {after['y'] - before['y']} px"


def test_keyboard_focus_stays_on_the_table_across_swaps(fc: FreeCellUI) -> None:
    page = fc.page
    fc.start(1)
    in_board = "() => !!document.activeElement.closest('#board')"
    fc.exposed("6").focus()
    with fc.swap(new_version=False):
        page.keyboard.press("Enter")  # pick up 3♦ the way a Tab-and-Enter player does
    assert page.evaluate(in_board), "focus left the table after picking a card up"
    fc.free_cell("a").focus()
    with fc.swap():
        page.keyboard.press("Enter")  # 6a
    assert page.evaluate(in_board), "focus left the table after a move"
