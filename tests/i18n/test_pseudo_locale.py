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
from html.parser import HTMLParser
from pathlib import Path
from typing import Final

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
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
    | \b[a-dA-D]\b                           # a free cell or a row letter
    | \bredeal\b|\bundo\b|\bresign\b         # history notation
    | \#?\d[\d,.:%\u066b\u066c]*             # numbers, deal numbers, times, percentages
    """,
    re.VERBOSE,
)
LETTERS = re.compile(r"[^\W\d_]", re.UNICODE)
CHECKED_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder", "aria-description")
SKIPPED_TAGS = {"script", "style", "kbd", "code", "samp"}


def unmarked(text: str) -> str | None:
    """The part of ``text`` that is a word outside the marks, or None."""
    rest = NOT_WORDS.sub(" ", MARKED.sub(" ", text))
    return rest.strip() if LETTERS.search(rest) else None


class Scanner(HTMLParser):
    VOID: Final = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.problems: list[str] = []

    def _skipping(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        foreign = "lang" in values and tag != "html"  # a language named in itself
        skip = tag in SKIPPED_TAGS or foreign
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
        if self._skipping() or not data.strip():
            return
        if word := unmarked(data):
            where = "/".join(tag for tag, _skip in self.stack[-3:])
            self.problems.append(f"{where}: {data.strip()[:80]!r} → {word!r}")


def problems_in(html: str) -> list[str]:
    scanner = Scanner()
    scanner.feed(html)
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


SWEEP = pytest.mark.xfail(reason="templates not yet swept for gettext", strict=False)


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


@SWEEP
def test_home_stats_and_my_games_pages(pseudo: TestClient) -> None:
    _montana_in_play(pseudo)
    for url in ("/", "/games", "/stats", "/stats?who=all", "/stats?game=freecell"):
        _check(pseudo, url)


@SWEEP
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


@SWEEP
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


@SWEEP
def test_error_pages(pseudo: TestClient) -> None:
    _check(pseudo, "/games/no-such-game")
    _check(pseudo, "/no-such-page")
    response = pseudo.post("/games", data={"kind": "chess"})
    assert not problems_in(response.text), problems_in(response.text)
