"""Ratings in a real browser: the statistics' rating and its chart, a deal's rating, My
games' marks, at 1280 and 375 px, in English and Arabic, with axe; screenshots in
tests/artifacts/."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from playwright.sync_api import Page, expect
from sqlalchemy import update

from app.service import ratings, utcnow
from app.store import Database
from app.store.models import GameRecord
from tests.browser.conftest import LIVE_DATABASES
from tests.browser.test_records_browser import audit


def test_a_players_rating_its_chart_and_a_deals_rating(
    page: Page, live_server: str, artifacts: Path
) -> None:
    page.goto("/")
    days = 12
    ids = []
    for k in range(days):
        response = page.request.post("/games", form={"kind": "freecell", "deal": str(20 + k)})
        assert response.ok, response.status
        ids.append(response.url.rsplit("/", 1)[1])
    db = Database(LIVE_DATABASES[live_server])
    try:
        with db.write() as session:
            for k, game_id in enumerate(ids):
                result = "lost" if k % 3 == 2 else "won"
                session.execute(
                    update(GameRecord)
                    .where(GameRecord.id == game_id)
                    .values(
                        status=result,
                        result=result,
                        finished_at=utcnow() - timedelta(days=days - k),
                    )
                )
        ratings.compute(db=db)
    finally:
        db.dispose()

    page.goto("/stats?game=freecell-standard")
    shown = page.locator("p.player-rating[data-rating]")
    expect(shown).to_contain_text("Your rating")
    assert int(shown.get_attribute("data-rating") or 0) > 1500
    expect(page.locator("#rating-title")).to_have_text("Your rating over time")
    expect(page.locator("figure svg polygon.band")).to_have_count(1)
    audit(page, artifacts, "ratings-stats")

    page.goto("/deals/freecell/20")
    expect(page.locator("p.deal-rating[data-rating]")).to_contain_text("from 1 game.")
    audit(page, artifacts, "ratings-deal")

    page.goto("/games")
    expect(page.locator("[data-rated]")).to_have_count(days)

    page.context.add_cookies([{"name": "lang", "value": "ar", "url": live_server}])
    page.goto("/stats?game=freecell-standard")
    expect(page.locator("p.player-rating")).to_contain_text("تصنيفك")
    audit(page, artifacts, "ratings-stats-ar")
