"""Every word on every page goes through the catalogues.

The pages are rendered in the ``qps`` pseudo-locale, where every translated message comes
out as ``⟦…⟧``. Any visible text node or ``aria-label``/``title``/``alt``/``placeholder``
with a letter outside such marks was built without gettext (in Python or a template) and
would stay English in Hindi and Arabic. Numbers, card ranks and suits, cells and move
notation, keyboard keys in ``<kbd>`` and the language names in the switch (each in its own
``lang``) are not words and are let through.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Final

import httpx
import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.games.freecell import rules as freecell
from app.games.freecell.solver import solve
from app.service import tournaments
from app.store import Database
from app.web import create_app
from tests.conftest import FAST
from tests.web.helpers import HX, act, start

MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
NOT_WORDS = re.compile(
    r"""
      (?:10|[2-9AJQK])[♣♦♥♠]                # a card: 8♣, 10♦, K♠
    | \b(?:[2-9TJQKA][CDHS])\b               # card notation: 8C
    | \b[A-D](?:1[0-3]|[1-9])\b              # a Montana cell: B7
    | \b[1-8a-dh](?:[1-8a-dh])(?:v\d+)?\b   # FreeCell notation: 3a, 36v4
    | \b[a-dA-DJQK]\b                        # a free cell, a row letter, a rank
    | \bredeal\b|\bundo\b|\bresign\b         # history notation
    | \#?\d[\d,.:%\u066b\u066c]*             # numbers, deal numbers, times, percentages
    """,
    re.VERBOSE,
)
LETTERS = re.compile(r"[^\W\d_]", re.UNICODE)
CHECKED_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder", "aria-description")
SKIPPED_TAGS = {"script", "style", "kbd", "code", "samp", "time"}
"""Not words: code, keys, and dates and times that Babel writes from CLDR for the locale."""


def unmarked(text: str) -> str | None:
    """The part of ``text`` that is a word outside the marks, or None."""
    rest, previous = text, ""
    while rest != previous:  # messages inside messages: take the innermost out first
        previous, rest = rest, MARKED.sub(" ", rest)
    rest = NOT_WORDS.sub(" ", rest)
    return rest.strip() if LETTERS.search(rest) else None


class Scanner(HTMLParser):
    """Collects the page's visible text in document order (a message may hold markup such
    as ``<kbd>`` or ``<bdi>``, so its marks can span several text nodes) and checks every
    label-like attribute on its own."""

    VOID: Final = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.text: list[str] = []
        self.problems: list[str] = []

    def _skipping(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        foreign = "lang" in values and tag != "html"  # a language named in itself
        dated = "data-date" in values  # a chart's day, written by Babel (SVG has no <time>)
        skip = tag in SKIPPED_TAGS or foreign or dated
        if not self._skipping() and not skip:
            for name in CHECKED_ATTRIBUTES:
                value = values.get(name)
                if value and (word := unmarked(value)):
                    self.problems.append(f"<{tag} {name}={value!r}>: {word!r}")
            if tag == "input" and values.get("type") in ("submit", "button"):
                value = values.get("value")
                if value and (word := unmarked(value)):
                    self.problems.append(f"<input value={value!r}>: {word!r}")
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            open_tag, _skip = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        self.text.append(" " if self._skipping() else data)

    def close(self) -> None:
        super().close()
        page = " ".join(self.text)
        rest = unmarked(page)
        if rest:
            for piece in re.split(r"\s{3,}", rest):
                if LETTERS.search(piece):
                    self.problems.append(f"text: {piece.strip()[:100]!r}")


def problems_in(html: str) -> list[str]:
    scanner = Scanner()
    scanner.feed(html)
    scanner.close()
    return scanner.problems


@pytest.fixture
def pseudo(migrated_file: Path, tmp_path: Path) -> Iterator[TestClient]:
    path = tmp_path / "solitaire.db"
    shutil.copy(migrated_file, path)
    url = f"sqlite:///{path}"
    db = Database(url)
    settings = Settings(database_url=url, secret_key="test-secret", pseudo_locale=True, **FAST)
    with TestClient(create_app(settings, db), follow_redirects=False) as client:
        client.cookies.set("lang", "qps")
        yield client
    db.dispose()


def test_the_scanner_finds_words_outside_the_marks() -> None:
    assert problems_in("<p>⟦Moves⟧ 12 · 8♣ B7 <span>3a</span></p>") == []
    assert problems_in("<p>⟦Moves⟧ and more</p>")
    assert problems_in('<button aria-label="Undo">⟦Undo⟧</button>')
    assert problems_in('<li lang="hi">हिन्दी</li><kbd>Esc</kbd>') == []


def _check(client: TestClient, url: str, **headers: str) -> None:
    response = client.get(url, headers=headers)
    assert response.status_code < 500, (url, response.status_code)
    found = problems_in(response.text)
    assert not found, f"{url}: text not through gettext:\n" + "\n".join(found)


def _montana_in_play(client: TestClient) -> tuple[str, int]:
    game = start(client, "montana", "1")
    page = client.get(f"/games/{game}").text
    moves = re.findall(r'name="action" value="([2-9TJQK][CDHS] [A-D]\d+)"', page)
    version = 0
    if moves:
        act(client, game, moves[0], version)
        version += 1
    return game, version


def test_home_stats_and_my_games_pages(pseudo: TestClient) -> None:
    _montana_in_play(pseudo)
    for url in ("/", "/games", "/stats", "/stats?who=all", "/stats?game=freecell"):
        _check(pseudo, url)


def test_montana_pages_in_every_state(pseudo: TestClient) -> None:
    game, version = _montana_in_play(pseudo)
    for url in (
        f"/games/{game}",
        f"/games/{game}?pick=A1",
        f"/games/{game}/replay",
        f"/games/{game}/replay?step=0",
    ):
        _check(pseudo, url)
        _check(pseudo, url, **HX)
    refused = act(pseudo, game, "KS A1", version, **HX)
    assert not problems_in(refused.text), problems_in(refused.text)
    stale = act(pseudo, game, "redeal", version + 5, **HX)
    assert not problems_in(stale.text), problems_in(stale.text)
    redealt = act(pseudo, game, "redeal", version, **HX)
    assert not problems_in(redealt.text), problems_in(redealt.text)
    given_up = act(pseudo, game, "resign", version + 1, **HX)
    assert not problems_in(given_up.text), problems_in(given_up.text)


def test_freecell_pages_in_every_state(pseudo: TestClient) -> None:
    game = start(pseudo, "freecell", "1")
    for url in (f"/games/{game}", f"/games/{game}?sel=1", f"/games/{game}/replay"):
        _check(pseudo, url)
        _check(pseudo, url, **HX)
    moved = act(pseudo, game, "1a", 0, **HX)
    assert not problems_in(moved.text), problems_in(moved.text)
    _check(pseudo, f"/games/{game}?sel=a")
    refused = act(pseudo, game, "a1", 1, **HX)
    assert not problems_in(refused.text), problems_in(refused.text)


def _assert_marked(response: httpx.Response) -> None:
    found = problems_in(response.text)
    assert not found, f"{response.request.url}: text not through gettext:\n" + "\n".join(found)


def test_error_pages(pseudo: TestClient) -> None:
    _check(pseudo, "/games/no-such-game")
    _check(pseudo, "/no-such-page")
    _assert_marked(pseudo.post("/games", data={"kind": "chess"}))
    _assert_marked(pseudo.post("/games", data={"kind": "montana", "deal": "x1"}))
    _assert_marked(pseudo.post("/games", data={}))
    game = start(pseudo, "freecell", "1")
    _assert_marked(pseudo.post(f"/games/{game}/actions", data={"action": "1a"}))
    _assert_marked(pseudo.post(f"/games/{game}/actions", data={"action": "1a", "version": "v"}))


def test_hints_verdicts_solutions_and_no_javascript_answers(pseudo: TestClient) -> None:
    for kind in ("montana", "freecell"):
        game = start(pseudo, kind, "1")
        _assert_marked(pseudo.post(f"/games/{game}/hint", headers=HX))
        _assert_marked(pseudo.post(f"/games/{game}/hint"))
        _check(pseudo, f"/games/{game}?check=1", **HX)
        _check(pseudo, f"/games/{game}?check=1")
        _check(pseudo, f"/games/{game}/solution")  # asks first: nothing counted by a GET
        _assert_marked(pseudo.post(f"/games/{game}/solution"))
        _check(pseudo, f"/games/{game}/solution?step=1", **HX)
        refused = "KS A1" if kind == "montana" else "a1"
        _check(pseudo, f"/games/{game}?refused={refused}")
        _check(pseudo, f"/games/{game}?stale=1")
    game = start(pseudo, "freecell", "1")
    _check(pseudo, f"/games/{game}?fewer=2-4")


def test_a_won_freecell_game_and_its_replay(pseudo: TestClient) -> None:
    game = start(pseudo, "freecell", "1")
    pseudo.post("/settings", data={"auto_moves": "off"})  # play the solver's line as it is
    result = solve(freecell.new_game(1), max_nodes=20_000)
    assert result.verdict == "solved"
    version = 0
    for notation in result.moves:
        response = act(pseudo, game, notation, version, **HX)
        assert response.status_code == 200, response.text[:300]
        version = _version_in(response.text)
    assert 'data-status="won"' in response.text
    _assert_marked(response)
    _check(pseudo, f"/games/{game}")
    _check(pseudo, f"/games/{game}/replay")
    _check(pseudo, "/games")
    _check(pseudo, "/stats")
    _check(pseudo, "/")


def _version_in(html: str) -> int:
    match = re.search(r'data-version="(\d+)"', html)
    assert match
    return int(match.group(1))


def test_the_settings_page_and_its_answers(pseudo: TestClient) -> None:
    _check(pseudo, "/settings")
    _check(pseudo, "/settings?back=/games&saved=1")
    game = start(pseudo, "freecell", "1")
    saved = pseudo.post("/settings", data={"deck": "four", "next": "/settings"}, headers=HX)
    _assert_marked(saved)
    control = pseudo.post(
        "/settings",
        data={"auto_home": "all", "next": f"/games/{game}"},
        headers={**HX, "HX-Target": "auto-home"},
    )
    _assert_marked(control)
    _check(pseudo, f"/games/{game}")
    _check(pseudo, "/settings")  # every setting changed from its default
    for bad in ({"deck": "nine"}, {"next": "/"}):
        refused = pseudo.post("/settings", data=bad)
        assert refused.status_code == 422
        _assert_marked(refused)


def test_rules_and_transfer_pages(pseudo: TestClient) -> None:
    for url in ("/rules", "/rules/montana", "/rules/freecell"):
        _check(pseudo, url)
    start(pseudo, "montana", "2")
    made = pseudo.post("/players/transfer")
    if made.status_code == 303:
        _check(pseudo, made.headers["location"])
    _check(pseudo, "/games")


def test_records_daily_names_and_watch_pages(pseudo: TestClient) -> None:
    game = start(pseudo, "montana", "1")
    pseudo.post("/settings/name", data={"name": "77", "next": "/games"})  # a name, not a word
    act(pseudo, game, "resign", 0)
    for url in ("/daily", "/deals/montana/1", "/deals/montana/1?variant=easy", "/deals/freecell/3"):
        _check(pseudo, url)
    _check(pseudo, "/deals/freecell/999999")  # not classified
    _check(pseudo, "/deals/nope/1")
    _check(pseudo, f"/games/{game}")  # the records and watch links of a finished game
    _check(pseudo, f"/games/{game}/share")
    pseudo.post(f"/games/{game}/share")
    _check(pseudo, f"/games/{game}/share")
    token = re.search(r"/watch/([\w-]+)", pseudo.get(f"/games/{game}/share").text)
    assert token
    _check(pseudo, f"/watch/{token.group(1)}")
    _check(pseudo, f"/watch/{token.group(1)}?step=0", **HX)
    playing = start(pseudo, "freecell", "1")
    pseudo.post(f"/games/{playing}/share")
    token = re.search(r"/watch/([\w-]+)", pseudo.get(f"/games/{playing}/share").text)
    assert token
    _check(pseudo, f"/watch/{token.group(1)}")  # in play: polled, with a plain link
    pseudo.post(f"/games/{game}/share/revoke")
    _check(pseudo, f"/watch/{token.group(1)}x")
    _check(pseudo, "/games")  # the name's partial
    for name in ("x" * 30, "a\u202eb", ""):
        _assert_marked(pseudo.post("/settings/name", data={"name": name}))
        _assert_marked(pseudo.post("/settings/name", data={"name": name}, headers=HX))
    _assert_marked(pseudo.post("/games", data={"kind": "montana", "variant": "x", "winnable": "1"}))
    _assert_marked(pseudo.post("/games", data={"kind": "freecell", "winnable": "2"}))
    _assert_marked(pseudo.post("/daily", data={"kind": "chess"}))


def test_tournament_pages(pseudo: TestClient) -> None:
    _check(pseudo, "/tournaments")
    answer = pseudo.post("/tournaments/1/deals/1")
    game = answer.headers["location"].rsplit("/", 1)[1]
    for url in ("/tournaments/1", f"/games/{game}", "/games"):
        _check(pseudo, url)
    _check(pseudo, "/tournaments/1", **HX, **{"HX-Target": "standings-rows"})
    _assert_marked(pseudo.post(f"/games/{game}/hint", headers=HX))
    _check(pseudo, f"/games/{game}/replay")
    act(pseudo, game, "resign", 0)
    _check(pseudo, f"/games/{game}")
    for bad in ("/tournaments/1/deals/1", "/tournaments/1/deals/12", "/tournaments/99/deals/1"):
        _assert_marked(pseudo.post(bad))
    db = pseudo.app.state.db  # type: ignore[attr-defined]
    old = tournaments.ensure_week(db=db, secret="s", now=datetime.now(UTC) - timedelta(14))[0]
    _check(pseudo, f"/tournaments/{old}")
    _assert_marked(pseudo.post(f"/tournaments/{old}/deals/1"))
    _check(pseudo, "/tournaments")
