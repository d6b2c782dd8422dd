"""The race form's deal box reads a deal number as the game form's does (the reader's own
digits, digit groups, a leading #), and a number it cannot deal comes back in the home
page's race form beside the box, with the reason (422, JavaScript off: a plain form post),
nothing stored."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app import i18n
from app.store import Database
from app.store.models import PlayerRecord
from app.store.race_models import RaceRecord
from tests.web.helpers import ARABIC_INDIC, DEVANAGARI


def races_made(db: Database) -> list[int]:
    with db.read() as session:
        return sorted(session.scalars(select(RaceRecord.deal)))


@pytest.mark.parametrize(
    ("typed", "deal"),
    [
        ("17".translate(ARABIC_INDIC), 17),
        ("17".translate(DEVANAGARI), 17),
        (" #1,000 ", 1000),
        ("1,000".translate(ARABIC_INDIC), 1000),
    ],
)
def test_a_race_deal_is_read_as_the_game_form_reads_it(
    client: TestClient, db: Database, typed: str, deal: int
) -> None:
    game = client.post("/games", data={"kind": "montana", "deal": typed})
    assert game.status_code == 303 and game.headers["location"].startswith("/games/")
    race = client.post("/races", data={"kind": "montana", "deal": typed})
    assert race.status_code == 303 and race.headers["location"].startswith("/races/")
    assert races_made(db) == [deal]


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("0", "Deal numbers run from 1 to 1,000,000, not 0."),
        ("99999999", "Deal numbers run from 1 to 1,000,000, not 99,999,999."),
        ("abc", "A deal number is a whole number, such as 11982."),
    ],
)
def test_a_race_deal_the_game_does_not_deal_is_told_beside_the_box(
    client: TestClient, db: Database, typed: str, words: str
) -> None:
    response = client.post(
        "/races", data={"kind": "freecell", "variant": "bakers", "deal": typed, "limit": "5"}
    )
    assert response.status_code == 422
    page = html.unescape(response.text)
    form = page[page.index('class="start-form race-form" data-kind="freecell"') :]
    form = form[: form.index("</form>")]
    marked = 'aria-invalid="true" aria-describedby="race-deal-error-freecell"'
    assert f'value="{typed}" {marked}' in form
    assert f'<p class="form-error" id="race-deal-error-freecell" role="alert">{words}</p>' in form
    assert re.search(r'<option value="bakers" selected>', form)
    # The game forms' boxes are not marked: the race's was the one typed in.
    assert page.count('aria-invalid="true"') == 1
    assert races_made(db) == []
    with db.read() as session:
        assert session.scalar(select(func.count()).select_from(PlayerRecord)) == 0


def test_the_refusal_is_in_the_readers_language_and_digits(client: TestClient) -> None:
    typed = "0".translate(ARABIC_INDIC)
    response = client.post(
        "/races", data={"kind": "montana", "deal": typed}, headers={"Accept-Language": "ar"}
    )
    assert response.status_code == 422
    with i18n.use_locale("ar"):
        words = i18n.gettext("Deal numbers run from 1 to %(max)s, not %(deal)s.") % {
            "max": i18n.number(1_000_000),
            "deal": i18n.number(0),
        }
    assert words in html.unescape(response.text)
