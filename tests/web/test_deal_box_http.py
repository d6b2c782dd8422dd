"""The deal box on the home page: a number as the reader types it (spaces, digit groups,
their own digits) starts that deal; one the site cannot deal is refused on the home page
itself, the box shown again with the range (422), nothing stored."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import ARABIC_INDIC, DEVANAGARI, GAME_URL


def dealt(client: TestClient, location: str) -> str:
    title = re.search(r'<bdi dir="ltr" class="deal">(#\d+)</bdi>', client.get(location).text)
    assert title
    return title.group(1)


@pytest.mark.parametrize(
    ("language", "typed", "deal"),
    [
        ("en", " 17 ", "#17"),
        ("en", "1,000", "#1000"),
        ("en", "#1,000,000", "#1000000"),
        ("hi", "17".translate(DEVANAGARI), "#17"),
        ("hi", "10,00,000".translate(DEVANAGARI), "#1000000"),
        ("hi", "10,00,000", "#1000000"),
        ("ar", "17".translate(ARABIC_INDIC), "#17"),
        ("ar", "1,000".translate(ARABIC_INDIC), "#1000"),
        ("ar", "1,000", "#1000"),
        ("en", "\u06f1\u06f7", "#17"),  # Extended Arabic-Indic (Persian, Urdu),
    ],
)
def test_the_deal_box_reads_a_number_as_the_reader_writes_it(
    client: TestClient, language: str, typed: str, deal: str
) -> None:
    client.cookies.set("lang", language)
    answer = client.post("/games", data={"kind": "freecell", "deal": typed})
    assert answer.status_code == 303
    assert GAME_URL.search(answer.headers["location"])
    assert dealt(client, answer.headers["location"]) == deal


@pytest.mark.parametrize(
    ("language", "typed", "words"),
    [
        ("en", "0", "Deal numbers run from 1 to 1,000,000, not 0."),
        ("en", "1,000,001", "Deal numbers run from 1 to 1,000,000, not 1,000,001."),
        ("en", "12.5", "A deal number is a whole number, such as 11982."),
        ("en", "1e5", "A deal number is a whole number, such as 11982."),
        ("hi", "10,00,001".translate(DEVANAGARI), "डील नंबर 1 से 10,00,000 तक होते हैं, 10,00,001 नहीं।"),
        ("ar", "0".translate(ARABIC_INDIC), "أرقام التوزيعات من 1 إلى 1,000,000، وليس 0."),
    ],
)
def test_a_deal_the_site_cannot_deal_is_refused_on_the_home_page(
    client: TestClient, language: str, typed: str, words: str
) -> None:
    client.cookies.set("lang", language)
    answer = client.post("/games", data={"kind": "montana", "variant": "easy", "deal": typed})
    assert answer.status_code == 422
    page = answer.text
    assert 'id="start-montana"' in page and 'id="start-freecell"' in page  # the home page
    assert f'<p class="form-error" id="deal-error-montana" role="alert">{words}</p>' in page
    field = re.search(r'<input type="text" name="deal"[^>]*aria-invalid="true"[^>]*>', page)
    assert field
    assert f'value="{typed}"' in field[0] and 'aria-describedby="deal-error-montana"' in field[0]
    assert "autofocus" in field[0]
    assert 'value="easy" checked' in page  # the variant chosen stays chosen
    assert page.count('aria-invalid="true"') == 1  # FreeCell's box is untouched
    assert client.get("/games").text.count('class="status-playing"') == 0  # nothing started
