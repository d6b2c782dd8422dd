"""What the shipped proofs say over HTTP: a deal's verdict and the fewest free cells it
needs on its page, and a new FreeCell game of a proved difficulty (plain form posts with
JavaScript off, and htmx), with a bad difficulty refused and nothing stored."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.service import proofs
from app.store import Database
from app.store.models import GameRecord, PlayerRecord
from tests.web.helpers import HX


def stored(db: Database) -> tuple[int, int]:
    with db.read() as session:
        games = session.scalar(select(func.count()).select_from(GameRecord)) or 0
        players = session.scalar(select(func.count()).select_from(PlayerRecord)) or 0
        return int(games), int(players)


def deal_of(db: Database, location: str) -> int:
    with db.read() as session:
        record = session.get(GameRecord, location.rsplit("/", 1)[1])
        assert record is not None
        assert (record.kind, record.variant) == ("freecell", "standard")
        return record.deal


def fewest_cells_of(text: str) -> str:
    found = re.search(r'<p class="fewest-cells" data-fewest-cells="([^"]+)">([^<]*)', text)
    assert found, "no fewest-cells paragraph"
    return found.group(1)


def test_the_three_verdicts_in_words(client: TestClient) -> None:
    shipped = proofs.proofs("freecell", "standard")
    assert shipped.verdict(11982) == "unsolvable"
    assert "Proved impossible." in client.get("/deals/freecell/11982").text
    assert shipped.verdict(1) == "solved"
    assert "Proved winnable." in client.get("/deals/freecell/1").text
    unknown = [d for d, v in proofs.proofs("freecell", "seahaven").classified().items()]
    unknown = [d for d in unknown if proofs.proofs("freecell", "seahaven").verdict(d) == "unknown"]
    if unknown:  # an intractable deal of the shipped run
        page = client.get(f"/deals/freecell/{unknown[0]}?variant=seahaven").text
        assert "Unknown." in page


def test_a_deal_page_shows_its_fewest_cells(client: TestClient) -> None:
    page = client.get("/deals/freecell/11982").text
    assert fewest_cells_of(page) == "5"
    assert "cannot be won even with four free cells" in page
    cells = proofs.fewest_cells_file()
    assert cells is not None
    for wanted in (0, 1, 2, 3):
        deal = cells.select((wanted,), 0)
        page = client.get(f"/deals/freecell/{deal}").text
        assert fewest_cells_of(page) == str(wanted), deal
        if wanted:
            assert f"this deal needs {wanted} free cell" in page
        else:
            assert "without using a free cell" in page
    # Not searched (beyond the run) or intractable: said so, never a number.
    page = client.get(f"/deals/freecell/{cells.last + 1}").text
    assert fewest_cells_of(page) == "unknown"
    assert "is not settled" in page
    # Other variants and games say nothing of free cells needed.
    assert "fewest-cells" not in client.get("/deals/freecell/5?variant=bakers").text


def test_a_deal_page_in_hindi_and_arabic_says_the_fewest_cells(client: TestClient) -> None:
    for language in ("hi", "ar"):
        page = client.get("/deals/freecell/11982", headers={"Accept-Language": language}).text
        assert fewest_cells_of(page) == "5"
        assert "cannot be won even with four" not in page


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
def test_a_new_game_of_each_difficulty_plain_form(
    client: TestClient, db: Database, difficulty: str
) -> None:
    wanted = proofs.DIFFICULTIES[difficulty]
    if not proofs.difficulty_count(difficulty):
        pytest.skip(f"no deal proved {difficulty} is shipped")
    response = client.post(
        "/games", data={"kind": "freecell", "variant": "standard", "difficulty": difficulty}
    )
    assert response.status_code == 303
    deal = deal_of(db, response.headers["location"])
    assert proofs.fewest_cells(deal) in wanted


def test_a_new_game_of_a_difficulty_with_htmx(client: TestClient, db: Database) -> None:
    response = client.post("/games", data={"kind": "freecell", "difficulty": "hard"}, headers=HX)
    assert response.status_code in (200, 204, 303)
    location = response.headers.get("hx-redirect") or response.headers["location"]
    assert proofs.fewest_cells(deal_of(db, location)) == 3


def test_any_difficulty_is_any_deal_and_a_deal_number_wins(
    client: TestClient, db: Database
) -> None:
    response = client.post("/games", data={"kind": "freecell", "difficulty": "any"})
    assert response.status_code == 303
    response = client.post(
        "/games", data={"kind": "freecell", "difficulty": "expert", "deal": "11982"}
    )
    assert deal_of(db, response.headers["location"]) == 11982


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"difficulty": "impossible"}, "A difficulty is one of"),
        ({"difficulty": "HARD"}, "A difficulty is one of"),
        ({"difficulty": "hard", "variant": "bakers"}, "the game with four free cells"),
        ({"difficulty": "easy", "kind": "montana"}, "the game with four free cells"),
    ],
)
def test_a_bad_difficulty_is_a_readable_422_and_stores_nothing(
    client: TestClient, db: Database, fields: dict[str, str], words: str
) -> None:
    before = stored(db)
    for headers in ({}, HX):
        response = client.post("/games", data={"kind": "freecell", **fields}, headers=headers)
        assert response.status_code == 422
        assert words in response.text
    assert stored(db) == before
    response = client.post(
        "/games",
        data={"kind": "freecell", **fields},
        headers={"Accept-Language": "ar"},
    )
    assert response.status_code == 422
    assert words not in response.text


def test_the_home_page_offers_the_difficulties_in_every_language(client: TestClient) -> None:
    for language in ("en", "hi", "ar"):
        page = client.get("/", headers={"Accept-Language": language}).text
        select = re.search(r'<select name="difficulty".*?</select>', page, re.S)
        assert select, language
        options = re.findall(r'<option value="([a-z]+)"', select.group(0))
        assert options == ["any", "easy", "medium", "hard", "expert"], language
        assert 'name="difficulty"' in page
    english = client.get("/", headers={"Accept-Language": "en"}).text
    assert "Hard: needs three free cells" in english
    arabic = client.get("/", headers={"Accept-Language": "ar"}).text
    assert "Hard: needs three free cells" not in arabic
