"""The site in three languages over HTTP: negotiation, the switch, the rules pages."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.store import Database
from app.web import create_app

RULES = ("/rules", "/rules/montana", "/rules/freecell")
TEXT_TAGS = frozenset({"title", "h1", "h2", "p", "li", "dd", "a", "summary", "legend"})
SCRIPT = {"hi": re.compile("[\u0900-\u097f]"), "ar": re.compile("[\u0600-\u06ff]")}


@pytest.fixture
def client(migrated_file: Path, tmp_path: Path) -> Iterator[TestClient]:
    path = tmp_path / "solitaire.db"
    shutil.copy(migrated_file, path)
    url = f"sqlite:///{path}"
    settings = Settings(database_url=url, secret_key="test-secret", pseudo_locale=True)
    db = Database(url)
    with TestClient(create_app(settings, db), follow_redirects=False) as test_client:
        yield test_client
    db.dispose()


class _Blocks(HTMLParser):
    """The text of each block of ``<main>`` (and the title), one string a block."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[str] = []
        self.open: list[list[str]] = []
        self.in_main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.in_main = True
        if tag in TEXT_TAGS and (self.in_main or tag == "title"):
            self.open.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main = False
        if tag in TEXT_TAGS and self.open and (self.in_main or tag in ("title", "main")):
            text = " ".join("".join(self.open.pop()).split())
            if re.search("[A-Za-z\u0900-\u097f\u0600-\u06ff]", text):
                self.blocks.append(text)

    def handle_data(self, data: str) -> None:
        for block in self.open:
            block.append(data)


def blocks(html: str) -> list[str]:
    parser = _Blocks()
    parser.feed(html)
    return parser.blocks


def page(client: TestClient, path: str, lang: str) -> str:
    client.cookies.set("lang", lang)
    response = client.get(path)
    assert response.status_code == 200, (path, lang)
    assert response.headers["content-language"] == lang
    return response.text


@pytest.mark.parametrize("path", RULES)
@pytest.mark.parametrize(("lang", "direction"), [("en", "ltr"), ("hi", "ltr"), ("ar", "rtl")])
def test_rules_pages_answer_in_each_language(
    client: TestClient, path: str, lang: str, direction: str
) -> None:
    html = page(client, path, lang)
    assert f'<html lang="{lang}" dir="{direction}">' in html


@pytest.mark.parametrize("path", RULES)
@pytest.mark.parametrize("lang", ["hi", "ar"])
def test_no_english_left_on_the_rules_pages(client: TestClient, path: str, lang: str) -> None:
    english = set(blocks(page(client, path, "en")))
    translated = blocks(page(client, path, lang))
    assert len(translated) == len(blocks(page(client, path, "en")))
    left = [block for block in translated if block in english]
    assert not left, f"English on the {lang} page: {left}"
    unscripted = [block for block in translated if not SCRIPT[lang].search(block)]
    assert not unscripted, f"blocks with no {lang} word: {unscripted}"


@pytest.mark.parametrize("path", RULES)
def test_every_word_of_the_rules_pages_goes_through_gettext(client: TestClient, path: str) -> None:
    """In the pseudo-locale every translated message comes out ``⟦…⟧``: a block
    without the mark was not a message."""
    unmarked = [block for block in blocks(page(client, path, "qps")) if "⟦" not in block]
    assert not unmarked


def test_rules_of_an_unknown_game_are_not_found(client: TestClient) -> None:
    assert client.get("/rules/klondike").status_code == 404


def test_the_rules_are_linked_from_every_page_and_the_home_page(client: TestClient) -> None:
    home = page(client, "/", "en")
    for target in ("/rules", "/rules/montana", "/rules/freecell"):
        assert re.search(f'href="[^"]*{target}"', home), target
    index = page(client, "/rules", "en")
    for target in ("/rules/montana", "/rules/freecell"):
        assert re.search(f'href="[^"]*{target}"', index), target


@pytest.mark.parametrize(
    ("accept", "lang", "direction"),
    [("hi-IN,hi;q=0.9,en;q=0.5", "hi", "ltr"), ("ar", "ar", "rtl"), ("fr, de", "en", "ltr")],
)
def test_accept_language_chooses_the_language(
    client: TestClient, accept: str, lang: str, direction: str
) -> None:
    response = client.get("/rules/montana", headers={"Accept-Language": accept})
    assert response.status_code == 200
    assert response.headers["content-language"] == lang
    assert "Accept-Language" in response.headers["vary"]
    assert f'<html lang="{lang}" dir="{direction}">' in response.text


def test_the_cookie_beats_accept_language(client: TestClient) -> None:
    client.cookies.set("lang", "ar")
    response = client.get("/", headers={"Accept-Language": "hi"})
    assert response.headers["content-language"] == "ar"


def test_every_page_offers_the_switch(client: TestClient) -> None:
    html = page(client, "/rules/freecell", "ar")
    assert re.search('action="[^"]*/language"', html)
    assert 'name="next" value="/rules/freecell"' in html
    for code in ("en", "hi", "ar"):
        assert f'name="lang" value="{code}"' in html


def test_the_switch_sets_the_cookie_and_goes_back(client: TestClient) -> None:
    response = client.post("/language", data={"lang": "ar", "next": "/rules/montana?x=1"})
    assert response.status_code == 303
    assert response.headers["location"] == "/rules/montana?x=1"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("lang=ar;") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    client.cookies.set("lang", "ar")
    assert client.get("/rules/montana").headers["content-language"] == "ar"


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/",
        "/\\evil.example",
        "\\\\evil.example",
        "evil.example",
        "javascript:alert(1)",
        "/\t/evil.example",
    ],
)
def test_the_switch_goes_back_to_a_relative_path_only(client: TestClient, target: str) -> None:
    response = client.post("/language", data={"lang": "hi", "next": target})
    assert response.status_code == 303
    location = response.headers["location"]
    assert location.startswith("/")
    stripped = re.sub(r"[\t\r\n]", "", location)
    assert not stripped.startswith(("//", "/\\")), location
    assert "evil.example" not in location or location.startswith("/%09")


def test_an_unknown_language_falls_back_to_negotiation(client: TestClient) -> None:
    response = client.post(
        "/language", data={"lang": "xx", "next": "/"}, headers={"Accept-Language": "hi"}
    )
    assert response.headers["set-cookie"].startswith("lang=hi;")


@pytest.mark.parametrize("first", ["hi", "en", "ar"])
def test_a_number_on_a_page_is_in_each_readers_language(client: TestClient, first: str) -> None:
    """The rules page names the last deal, 1000000: formatted when each page is drawn, in
    its reader's language, never once when the template compiles (Hindi groups it
    10,00,000). Each order draws the page first in another language."""
    order = [first, *(lang for lang in ("en", "hi", "ar") if lang != first)]
    wanted = {"en": "#1,000,000", "hi": "10,00,000 डीलों", "ar": "1,000,000 توزيعة"}
    for lang in order:
        html = page(client, "/rules/freecell", lang)
        assert wanted[lang] in html, (lang, order)
        assert {w for w in wanted.values() if w != wanted[lang]}.isdisjoint(
            {*re.findall(r"#[\d,]+", html)}
        )
