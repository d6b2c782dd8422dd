"""Moving games to another device: a page that says what will happen, a same-site POST
that merges the receiving browser's games into the sender's list, single-use links that
My games can cancel."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import transfers
from tests.web.helpers import start


def make_link(client: TestClient) -> str:
    page = client.post("/players/transfer")
    assert page.status_code == 200
    link = re.search(r'id="transfer-link" type="text" readonly value="([^"]+)"', page.text)
    assert link
    return link.group(1).removeprefix("http://testserver")


def listed(client: TestClient) -> set[str]:
    return set(
        re.findall(
            r'href="(?:http://testserver)?/games/([A-Za-z0-9_-]{20,})"', client.get("/games").text
        )
    )


def test_opening_the_link_changes_nothing_and_the_button_merges_the_games(
    app: FastAPI, client: TestClient
) -> None:
    sender_game = start(client)
    link = make_link(client)
    with TestClient(app, follow_redirects=False) as device:
        own_game = start(device, deal="9")
        cookie = device.cookies.get("player")
        page = device.get(link)
        assert page.status_code == 200
        assert "set-cookie" not in page.headers
        assert "Move my games here" in page.text
        assert "The 1 game on this browser moves into that list too." in page.text
        assert device.cookies.get("player") == cookie
        joined = device.post(link)
        assert joined.status_code == 303
        assert "HttpOnly" in joined.headers["set-cookie"]
        assert listed(device) == {sender_game, own_game}  # nothing of this browser is lost
    assert listed(client) == {sender_game, own_game}


def test_a_cross_site_page_cannot_use_a_link(app: FastAPI, client: TestClient) -> None:
    start(client)
    link = make_link(client)
    with TestClient(app, follow_redirects=False) as victim:
        own_game = start(victim, deal="9")
        cookie = victim.cookies.get("player")
        forged = victim.get(link, headers={"Sec-Fetch-Site": "cross-site"})
        assert "set-cookie" not in forged.headers
        assert victim.post(link, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
        assert victim.cookies.get("player") == cookie
        assert listed(victim) == {own_game}


def test_a_link_works_once(app: FastAPI, client: TestClient) -> None:
    start(client)
    link = make_link(client)
    with TestClient(app, follow_redirects=False) as first:
        assert first.post(link).status_code == 303
    with TestClient(app, follow_redirects=False) as second:
        again = second.post(link)
        assert again.status_code == 400
        assert "used already" in again.text
        assert "set-cookie" not in again.headers
        assert second.get(link).status_code == 400


def test_my_games_cancels_the_link_and_a_new_link_replaces_the_old(
    app: FastAPI, client: TestClient
) -> None:
    start(client)
    old = make_link(client)
    new = make_link(client)
    assert "A link you made is waiting to be used." in client.get("/games").text
    with TestClient(app, follow_redirects=False) as device:
        assert device.post(old).status_code == 400
        assert client.post("/players/transfer/cancel").status_code == 303
        assert "waiting to be used" not in client.get("/games").text
        refused = device.post(new)
        assert refused.status_code == 400
        assert "not valid or was cancelled" in refused.text


def test_bad_and_expired_links_are_refused(app: FastAPI, client: TestClient) -> None:
    start(client)
    assert client.get("/players/join/not-a-token").status_code == 400
    assert client.post("/players/join/" + "x" * 5000).status_code == 400
    player_id = app.state.cookie_signer.loads(client.cookies["player"])
    two_days_ago = datetime.now(UTC) - timedelta(days=2)
    token = transfers.make_link(db=app.state.db, player_id=player_id, now=two_days_ago)
    response = client.get(f"/players/join/{token}")
    assert response.status_code == 400
    assert "expired" in response.text


def test_only_a_hash_of_the_token_is_stored(app: FastAPI, client: TestClient) -> None:
    start(client)
    token = make_link(client).rsplit("/", 1)[-1]
    from sqlalchemy import select

    from app.store.models import TransferRecord

    with app.state.db.read() as session:
        stored = session.scalars(select(TransferRecord.id)).all()
    assert len(stored) == 1
    assert token not in stored[0]
