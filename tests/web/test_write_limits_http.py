"""Every write is limited: watch links made and revoked and display names kept count as
writes (``RATE_LIMIT_WRITE_*``, 429 with the form again and the reason), and a game keeps
at most ``shares.MOST_LINKS`` watch links however often they are made and revoked."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import func, select

from app.config import Settings
from app.service import shares
from app.store import Database
from app.store.models import PlayerRecord, ShareRecord
from app.web.throttle import Throttle
from tests.conftest import FAST
from tests.web.helpers import HX, start

SLOW = {
    "en": "That was a lot of changes at once: wait a moment, then try again.",
    "hi": "एक साथ बहुत सारे बदलाव हो गए: थोड़ा रुकें, फिर दोबारा कोशिश करें।",
    "ar": "هذه تغييرات كثيرة دفعة واحدة: انتظر لحظة ثم حاول مرة أخرى.",
}


def limit_writes(app: FastAPI, per_player: str, per_address: str = "1000/minute") -> None:
    app.state.throttle = Throttle(
        Settings(
            **{
                **FAST,
                "rate_limit_write_player": per_player,
                "rate_limit_write_address": per_address,
            }
        )
    )


def rows(db: Database, game_id: str) -> int:
    with db.read() as session:
        query = select(func.count()).select_from(ShareRecord).where(ShareRecord.game_id == game_id)
        return int(session.scalar(query) or 0)


def watch_token(client: TestClient, game_id: str) -> str | None:
    found = re.search(r"/watch/([A-Za-z0-9_-]{24})", client.get(f"/games/{game_id}/share").text)
    return found.group(1) if found else None


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_making_and_revoking_watch_links_is_rate_limited(
    client: TestClient, app: FastAPI, db: Database, language: str
) -> None:
    client.cookies.set("lang", language)
    game_id = start(client, "freecell", "1")
    limit_writes(app, "4/minute")
    answers = []
    for _cycle in range(3):
        answers.append(client.post(f"/games/{game_id}/share").status_code)
        answers.append(client.post(f"/games/{game_id}/share/revoke").status_code)
    assert answers == [303, 303, 303, 303, 429, 429]
    refused = client.post(f"/games/{game_id}/share")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert escape(SLOW[language]) in refused.text  # the share page again, with why
    assert f'action="/games/{game_id}/share"' in refused.text
    assert rows(db, game_id) == 2  # nothing more was stored


def test_a_player_without_a_cookie_is_limited_by_address(
    client: TestClient, app: FastAPI, db: Database
) -> None:
    game_id = start(client, "freecell", "1")
    limit_writes(app, "1000/minute", per_address="3/minute")
    stranger = TestClient(app, follow_redirects=False)  # holds the address, not the cookie
    statuses = [stranger.post(f"/games/{game_id}/share/revoke").status_code for _ in range(5)]
    assert statuses == [303, 303, 303, 429, 429]


def test_a_game_keeps_a_bounded_number_of_watch_links(client: TestClient, db: Database) -> None:
    game_id = start(client, "freecell", "1")
    tokens = []
    for _cycle in range(shares.MOST_LINKS * 3):
        assert client.post(f"/games/{game_id}/share").status_code == 303
        token = watch_token(client, game_id)
        assert token
        tokens.append(token)
        assert client.post(f"/games/{game_id}/share/revoke").status_code == 303
        assert rows(db, game_id) <= shares.MOST_LINKS
    assert client.post(f"/games/{game_id}/share").status_code == 303
    live = watch_token(client, game_id)
    assert rows(db, game_id) == shares.MOST_LINKS
    assert client.get(f"/watch/{live}").status_code == 200
    for token in (tokens[0], tokens[-1]):  # deleted long ago, or revoked just now: both dead
        dead = client.get(f"/watch/{token}")
        assert dead.status_code == 404
        assert "This watch link is not valid, or its owner revoked it." in dead.text
    # Other games' links are not touched.
    other = start(client, "freecell", "2")
    assert client.post(f"/games/{other}/share").status_code == 303
    assert rows(db, other) == 1 and rows(db, game_id) == shares.MOST_LINKS


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_names_are_rate_limited(
    client: TestClient, app: FastAPI, db: Database, language: str
) -> None:
    client.cookies.set("lang", language)
    start(client)
    limit_writes(app, "3/minute")
    statuses = [
        client.post("/settings/name", data={"name": f"Name {n}"}).status_code for n in range(3)
    ]
    assert statuses == [303, 303, 303]
    for headers in ({}, HX):
        refused = client.post("/settings/name", data={"name": "Name 9"}, headers=headers)
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) >= 1
        assert escape(SLOW[language]) in refused.text
        assert 'id="display-name-field"' in refused.text  # the form again
    cleared = client.post("/settings/name", data={"clear": "1"})
    assert cleared.status_code == 429  # clearing is a write too
    with db.read() as session:
        assert list(session.scalars(select(PlayerRecord.name))) == ["Name 2"]
