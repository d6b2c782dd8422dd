"""Real-browser fixtures: the site on a loopback port, Debian's Chromium driven by Playwright.

Every test in this folder is marked ``browser``. The live server is uvicorn in a background
thread on ``127.0.0.1`` and a free port, on a copy of the migrated test database; the
browser is one headless Chromium for the session, with a fresh context (no cookies) per
test. :class:`MontanaUI` drives the game through the page the way a player does.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect, sync_playwright

from app.config import Settings
from app.rules.cards import FULL_DECK
from app.web import create_app
from tests.conftest import FAST, SEARCHES

CHROMIUM: Final = Path("/usr/bin/chromium")
CHROMIUM_ARGS: Final = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
VIEWPORT: Final = {"width": 1280, "height": 900}
ARTIFACTS: Final = Path(__file__).resolve().parent.parent / "artifacts"
"""Screenshots go here (``tests/artifacts/``, git-ignored)."""
SERVER_START_TIMEOUT: Final = 15.0
SERVER_STOP_TIMEOUT: Final = 10.0
ACTION_TIMEOUT_MS: Final = 60_000
"""A bound for liveness, never a speed: a wait ends as soon as what it waits for is there,
and a loaded machine may take this long (a hint waits up to 30 s for its search). Actions,
waits and every ``expect`` assertion (whose own default is 5 s) have it."""
expect.set_options(timeout=ACTION_TIMEOUT_MS)

COUNT_SETTLES: Final = """
window.__htmxSettled = 0;
document.addEventListener("htmx:afterSettle", () => { window.__htmxSettled += 1; });
"""
"""An init script in every page: counts the htmx swaps that have settled."""

CARD_TEXT: Final = {card.label: card.text for card in FULL_DECK}
"""``'8 of clubs'`` → ``'8C'``: reads a cell's aria-label back into notation."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    folder = Path(__file__).resolve().parent
    for item in items:
        if folder in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


# -- the live server -----------------------------------------------------------------------


LIVE_DATABASES: dict[str, str] = {}
"""Each live server's database URL, by its base URL (a test that sets rows up itself)."""


@pytest.fixture(scope="session")
def live_server(migrated_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site's base URL (``http://127.0.0.1:PORT``), served for the whole session."""
    path = tmp_path_factory.mktemp("browser") / "solitaire.db"
    shutil.copy(migrated_file, path)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    settings = Settings(
        database_url=f"sqlite:///{path}",
        secret_key="browser-test",
        port=port,
        **FAST,
        **SEARCHES,  # a hint waits for its search: a loaded machine still lights its move
    )
    app = create_app(settings)  # its links name the address it serves
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="live-server", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            pytest.fail(f"the live server did not start on 127.0.0.1:{port}")
        time.sleep(0.02)
    LIVE_DATABASES[f"http://127.0.0.1:{port}"] = settings.database_url
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(SERVER_STOP_TIMEOUT)
        sock.close()
        app.state.db.dispose()


# -- the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM} (apt install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_context(browser: Browser, live_server: str) -> Iterator[Callable[..., BrowserContext]]:
    """Open fresh browser contexts (no cookies, 1280 × 900 unless ``options`` say other:
    Playwright's own, such as ``viewport``, ``locale``, ``has_touch``); all closed after
    the test."""
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        context = browser.new_context(**{"viewport": VIEWPORT, "base_url": live_server, **options})
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.add_init_script(COUNT_SETTLES)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context: Callable[[], BrowserContext]) -> Page:
    return new_context().new_page()


@pytest.fixture
def no_script_page(browser: Browser, live_server: str) -> Iterator[Page]:
    """A page in a fresh context with JavaScript off (1280 × 900), closed after the test."""
    context = browser.new_context(
        viewport=VIEWPORT, base_url=live_server, java_script_enabled=False
    )
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    yield context.new_page()
    context.close()


@pytest.fixture
def montana(page: Page) -> MontanaUI:
    return MontanaUI(page)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# -- playing Montana through the page --------------------------------------------------------


@dataclass
class GameUI:
    """What every game page offers a test: the game section, its keys, its status line,
    its version, and waiting for htmx swaps. URLs are relative to the live server."""

    page: Page

    @property
    def game(self) -> Locator:
        return self.page.locator("#game")

    def button(self, key: str) -> Locator:
        return self.page.locator(f'#game button[data-key="{key}"]')

    def status(self, term: str) -> Locator:
        """The value next to ``term`` in the status line ("Score", "Moves", "Time", …)."""
        return (
            self.page.locator("#game dl.status > div")
            .filter(has=self.page.get_by_text(term, exact=True))
            .locator("dd")
        )

    @property
    def game_path(self) -> str:
        path = urlsplit(self.page.url).path
        assert path.startswith("/games/"), self.page.url
        return path

    def start_from_home(self, kind: str, deal: int, play: str, variant: str = "") -> str:
        """Start a game from its form on the home page; return the game's path."""
        self.page.goto("/")
        form = self.page.locator("form").filter(
            has=self.page.locator(f'input[name="kind"][value="{kind}"]')
        )
        if variant:
            form.get_by_role("radio", name=variant.capitalize()).check()
        form.get_by_role("textbox", name="Deal number").fill(str(deal))
        form.get_by_role("button", name=play).click()
        self.page.wait_for_url("**/games/*")
        expect(self.page.locator("#game-title")).to_contain_text(f"#{deal}")
        return self.game_path

    def version(self) -> str:
        value = self.game.get_attribute("data-version")
        assert value is not None
        return value

    def settled(self) -> int:
        """How many htmx swaps have settled on this page (counted by :data:`COUNT_SETTLES`)."""
        count: int = self.page.evaluate("window.__htmxSettled")
        return count

    @contextmanager
    def swap(self, *, new_version: bool = True) -> Iterator[None]:
        """Wait, after the body, until htmx has swapped ``#game`` and settled.

        With ``new_version`` the game must have moved on (a move, undo, redeal); without
        it the swap only redraws (choosing a 2, cancelling). htmx wires up the new content
        only when it settles (20 ms after the swap): a click or key before that is not
        handled by htmx, so waiting for the settle, not only for the new DOM, keeps the
        next step reliable.
        """
        version, settled = self.version(), self.settled()
        yield
        self.page.wait_for_function("n => window.__htmxSettled > n", arg=settled)
        if new_version:
            expect(self.game).not_to_have_attribute("data-version", version)


@dataclass
class MontanaUI(GameUI):
    """A Montana game page, driven as a player would."""

    def cell(self, name: str) -> Locator:
        return self.page.locator(f'#board [data-cell="{name}"]')

    @property
    def clickable(self) -> Locator:
        """Everything on the board whose click posts a move."""
        return self.page.locator("#board button[name=action]")

    def start(self, deal: int, variant: str = "expert") -> str:
        """Start Montana deal ``deal`` from the home page form; return the game's path."""
        return self.start_from_home("montana", deal, "Play Montana", variant)

    def act(self, target: Locator) -> None:
        """Click ``target`` and wait until htmx has swapped in the game's next version."""
        with self.swap():
            target.click()

    def press(self, key: str) -> None:
        """Press ``key`` and wait until htmx has swapped in the game's next version."""
        with self.swap():
            self.page.keyboard.press(key)

    def grid(self) -> list[str]:
        """The board as four lines of notation (``--`` for a gap), read from the DOM."""
        cells = self.page.eval_on_selector_all(
            "#board [data-cell]",
            "els => els.map(e => [e.dataset.cell, e.getAttribute('aria-label')])",
        )
        assert len(cells) == 52, cells
        tokens = {
            name: "--" if label.startswith("gap") else card_text(label) for name, label in cells
        }
        return [" ".join(tokens[f"{row}{column}"] for column in range(1, 14)) for row in "ABCD"]

    def position_text(self) -> str:
        response = self.page.request.get(f"{self.game_path}/position")
        assert response.ok, response.status
        return response.text()

    def position_grid(self) -> list[str]:
        """The board as the server's ``GET /games/{id}/position`` has it."""
        return self.position_text().splitlines()[-4:]  # after the headers


def card_text(label: str) -> str:
    """``'8 of clubs, row B, column 6: move to B7'`` → ``'8C'``."""
    name = label.split(",", 1)[0]
    assert name in CARD_TEXT, label
    return CARD_TEXT[name]
