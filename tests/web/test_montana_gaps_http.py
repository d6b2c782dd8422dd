"""A column-1 gap that several 2s fit is drawn alike in every view of a Montana board: the
game page, its replay, a watch page and a race's small boards all say it "wants a 2", in
its text, title and screen-reader label, never one 2 of them (Expert #5: A1 and D1)."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.service.model import utcnow
from app.store import Database
from app.store.models import GameRecord
from app.store.race_models import RaceRecord, RacerRecord
from tests.web.helpers import start


def gaps(page: str) -> dict[str, str]:
    """Each gap of column 1 drawn in the page: its markup (attributes and face)."""
    found = re.findall(r'(<[^>]*data-cell="([A-D]1)"[^>]*>[^<]*<)', html.unescape(page))
    return {cell: markup for markup, cell in found if "gap" in markup}


def assert_wants_a_two(page: str, *, labelled: bool = True) -> None:
    """``labelled`` False: a race's small board, inert, carries no label or title (the
    racers' table says it in words), only the face."""
    drawn = gaps(page)
    assert set(drawn) >= {"A1", "D1"}, drawn
    for cell in ("A1", "D1"):
        markup = drawn[cell]
        assert ">2<" in markup and "♦" not in markup and "wants 2" not in markup
        if not labelled:
            assert "aria-label" not in markup and "title" not in markup
            continue
        assert f'aria-label="gap, row {cell[0]}, column 1: wants a 2' in markup, markup
        assert f'title="Gap {cell}: wants a 2"' in markup.replace("\u2068", "").replace(
            "\u2069", ""
        ), markup


def test_the_game_page_and_its_replay_say_a_gap_wants_a_2(client: TestClient) -> None:
    game_id = start(client, "montana", "5", variant="expert")
    assert_wants_a_two(client.get(f"/games/{game_id}").text)
    assert_wants_a_two(client.get(f"/games/{game_id}/replay?step=0").text)


def test_a_watch_page_says_a_gap_wants_a_2(client: TestClient) -> None:
    game_id = start(client, "montana", "5", variant="expert")
    assert client.post(f"/games/{game_id}/share").status_code == 303
    token = re.search(r"/watch/([A-Za-z0-9_-]+)", client.get(f"/games/{game_id}/share").text)
    assert token
    with TestClient(client.app, follow_redirects=False) as watcher:  # type: ignore[arg-type]
        assert_wants_a_two(watcher.get(f"/watch/{token.group(1)}").text)


def test_a_race_board_says_a_gap_wants_a_2(client: TestClient, db: Database) -> None:
    made = client.post("/races", data={"kind": "montana", "variant": "expert", "deal": "5"})
    token = made.headers["location"].rsplit("/", 1)[1]
    client.post(f"/races/{token}/start")
    past = utcnow() - timedelta(seconds=1)
    with db.write() as session:
        session.execute(update(RaceRecord).where(RaceRecord.token == token).values(started_at=past))
        games = select(RacerRecord.game_id).where(RacerRecord.race_token == token)
        session.execute(update(GameRecord).where(GameRecord.id.in_(games)).values(created_at=past))
    with TestClient(client.app, follow_redirects=False) as watcher:  # type: ignore[arg-type]
        page = watcher.get(f"/races/{token}").text
    assert 'class="race-board-view"' in page
    # The caption keeps the racer's name apart from their progress (issue 43).
    assert re.search(r"<figcaption><bdi>[^<]+</bdi> · <span class=\"muted\">", page)
    assert_wants_a_two(page[page.index('class="race-boards"') :], labelled=False)
