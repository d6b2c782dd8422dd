"""The page's scripts: site.js is shared and names no game; each game's own script is
loaded on that game's pages only; the timer gets the idle cap and the clock's formats from
the server, which defines them once."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from app.config import ROOT
from app.games import KINDS
from app.service import IDLE_CAP
from app.web.templating import CLOCK_FORMATS, clock
from tests.web import helpers

SCRIPTS = ROOT / "static" / "js"
SCRIPT = re.compile(r'<script src="[^"]*/static/js/([\w-]+)\.js" defer>')
TIME = re.compile(r"<time ([^>]*)>([^<]*)</time>")


def scripts(page: str) -> list[str]:
    return SCRIPT.findall(page)


def test_site_js_knows_no_game() -> None:
    text = (SCRIPTS / "site.js").read_text()
    # No game's name, board markup, place names, grid size or idle cap.
    for word in ("montana", "freecell", "fc-", "data-cell", "data-drop", "ABCD", "60000"):
        assert word.lower() not in text.lower(), word
    assert not re.search(r"\b13\b", text)


def test_no_script_writes_move_text() -> None:
    """Move text is the engine's: the scripts post places (source, target), never ``36v3``."""
    for path in SCRIPTS.glob("*.js"):
        text = path.read_text()
        assert "toString(16)" not in text, path.name
        assert "IDLE_CAP" not in text, path.name


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_game_page_loads_its_own_script(client: TestClient, kind: str) -> None:
    game_id = helpers.start(client, kind)
    assert (SCRIPTS / f"{kind}.js").is_file()
    assert scripts(client.get(f"/games/{game_id}").text) == ["site", kind]
    assert scripts(client.get(f"/games/{game_id}/replay").text) == ["site", kind]


@pytest.mark.parametrize("path", ["/", *(f"/rules/{kind}" for kind in KINDS), "/stats", "/games"])
def test_pages_without_a_game_load_only_site_js(client: TestClient, path: str) -> None:
    helpers.start(client, "freecell")  # My games lists it
    response = client.get(path, follow_redirects=True)
    assert response.status_code == 200, path
    assert scripts(response.text) == ["site"]


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_timer_is_handed_the_idle_cap_and_the_clock_formats(
    client: TestClient, kind: str
) -> None:
    game_id = helpers.start(client, kind)
    page = client.get(f"/games/{game_id}").text
    match = TIME.search(page)
    assert match, "the status line shows the play time"
    attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', match[1]))
    # The clock starts at the first move: a fresh deal's waits, and says no pause.
    assert attributes["data-running"] == "false"
    assert "data-clock-paused" not in page
    # Said once for the page, on the .play around #game: a move's fragment does not repeat it.
    play = re.search(r'<div class="play"([^>]*)>', page)
    assert play, "the play area"
    shared = dict(re.findall(r'([\w-]+)="([^"]*)"', play[1]))
    assert shared["data-idle-cap-ms"] == str(IDLE_CAP // timedelta(milliseconds=1))
    assert shared["data-clock"] == " ".join(CLOCK_FORMATS)
    assert match[2] == clock(int(attributes["data-play-ms"]))


@pytest.mark.parametrize(
    ("milliseconds", "shown"),
    [
        (0, "0:00"),
        (999, "0:00"),
        (59_999, "0:59"),
        (754_000, "12:34"),
        (3_599_999, "59:59"),
        (3_600_000, "1:00:00"),
        (3_723_000, "1:02:03"),
        (36_000_000 + 61_000, "10:01:01"),
        (360_000_000, "100:00:00"),
    ],
)
def test_clock(milliseconds: int, shown: str) -> None:
    assert clock(milliseconds) == shown
