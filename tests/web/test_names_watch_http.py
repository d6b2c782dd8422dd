"""Display names (POST /settings/name) and read-only watch links (/games/{id}/share,
/watch/{token}) over HTTP: with and without htmx, and every refusal (nothing stored)."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app import service
from app.config import Settings
from app.store import Database
from app.store.models import GameRecord, PlayerRecord, ShareRecord
from app.web.throttle import Throttle
from tests.conftest import FAST
from tests.web.helpers import HX, act, start


def names_stored(db: Database) -> list[str | None]:
    with db.read() as session:
        return list(session.scalars(select(PlayerRecord.name).order_by(PlayerRecord.name)))


def post_name(client: TestClient, name: str, **headers: str) -> object:
    return client.post("/settings/name", data={"name": name, "next": "/games"}, headers=headers)


# Display names


def test_a_name_is_trimmed_kept_and_shown_on_my_games(client: TestClient, db: Database) -> None:
    start(client)
    response = client.post("/settings/name", data={"name": "  Ada   Lovelace ", "next": "/games"})
    assert response.status_code == 303
    assert response.headers["location"] == "/games"
    assert names_stored(db) == ["Ada Lovelace"]
    page = client.get("/games").text
    assert 'value="Ada Lovelace"' in page
    assert 'id="display-name"' in page


def test_a_name_in_any_script_is_kept(client: TestClient, db: Database) -> None:
    for name in ("अनुराधा", "ليلى", "O'Brien-Smith_2.0"):
        assert post_name(client, name).status_code == 303  # type: ignore[attr-defined]
        assert names_stored(db) == [name]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("x" * 25, "at most 24"),
        ("evil\u202egnp.exe", "only letters"),
        ("a\u200fb", "only letters"),
        ("tab\there", "only letters"),
        ("bell\x07", "only letters"),
        ("<script>", "only letters"),
        ("a@b", "only letters"),
        ("\u0301accent", "only letters"),
        ("...", "at least one letter or digit"),
        ("- _ '", "at least one letter or digit"),
        ("\u3164", "only letters"),  # Hangul fillers: letters by category, drawn as nothing
        ("\u115f", "only letters"),
        ("\u1160", "only letters"),
        ("\uffa0", "only letters"),
        ("Ada\u3164", "only letters"),
        ("a\u034fb", "only letters"),  # combining grapheme joiner: a mark, invisible
        ("a\ufe0fb", "only letters"),  # a variation selector
        ("a\u00adb", "only letters"),  # soft hyphen
        ("a\U000e0041b", "only letters"),  # a tag character
        ("   ", "Type a name"),
        ("", "Type a name"),
        ("\u3000\t", "Type a name"),
    ],
)
def test_a_name_that_breaks_the_rules_is_refused(
    client: TestClient, db: Database, name: str, reason: str
) -> None:
    start(client)
    assert post_name(client, "Kept").status_code == 303  # type: ignore[attr-defined]
    response = client.post("/settings/name", data={"name": name, "next": "/games"})
    assert response.status_code == 422
    assert reason in response.text
    assert "<script>" not in response.text.split("<main", 1)[1]  # escaped
    assert names_stored(db) == ["Kept"]
    htmx = client.post("/settings/name", data={"name": name}, headers=HX)
    assert htmx.status_code == 422
    assert htmx.text.lstrip().startswith("<section")  # the partial alone
    assert 'aria-invalid="true"' in htmx.text
    assert names_stored(db) == ["Kept"]


def test_remove_my_name_clears_it(client: TestClient, db: Database) -> None:
    start(client)
    assert "Remove my name" not in client.get("/games").text  # no name to remove
    assert post_name(client, "Kept").status_code == 303  # type: ignore[attr-defined]
    assert 'name="clear" value="1"' in client.get("/games").text
    response = client.post("/settings/name", data={"clear": "1", "next": "/games"})
    assert response.status_code == 303
    assert names_stored(db) == [None]
    assert post_name(client, "Kept").status_code == 303  # type: ignore[attr-defined]
    htmx = client.post("/settings/name", data={"name": "Kept", "clear": "1"}, headers=HX)
    assert htmx.status_code == 200
    assert "anonymous" in htmx.text
    assert "Remove my name" not in htmx.text
    assert names_stored(db) == [None]


def test_a_browser_without_a_player_gets_one_only_with_a_name_kept(
    client: TestClient, db: Database
) -> None:
    for form in ({"name": ""}, {"name": "..."}, {"clear": "1"}, {"name": "x" * 25}):
        fresh = TestClient(client.app, follow_redirects=False)
        assert fresh.post("/settings/name", data=form).status_code in (303, 422)
        assert "player" not in fresh.cookies
    assert names_stored(db) == []
    assert post_name(client, "Ada").status_code == 303  # type: ignore[attr-defined]
    stranger = TestClient(client.app, follow_redirects=False)
    assert stranger.post("/settings/name", data={"name": "ada"}).status_code == 422  # taken
    assert "player" not in stranger.cookies
    assert names_stored(db) == ["Ada"]


def test_players_made_for_a_name_are_rate_limited(
    client: TestClient, db: Database, app: FastAPI
) -> None:
    app.state.throttle = Throttle(Settings(**{**FAST, "rate_limit_new_player_address": "3/minute"}))
    statuses = [
        TestClient(app, follow_redirects=False)
        .post("/settings/name", data={"name": f"Ada {n}"})
        .status_code
        for n in range(5)
    ]
    assert statuses == [303, 303, 303, 429, 429]
    assert len(names_stored(db)) == 3
    assert post_name(client, "...").status_code == 422  # type: ignore[attr-defined]
    start(client)  # a player already: names are not counted as new players
    assert [post_name(client, f"Bea {n}").status_code for n in range(5)] == [303] * 5  # type: ignore[attr-defined]


def test_names_are_unique_whatever_their_case(client: TestClient, db: Database) -> None:
    start(client)
    assert post_name(client, "Ada").status_code == 303  # type: ignore[attr-defined]
    other = TestClient(client.app, follow_redirects=False)
    start(other)
    response = other.post("/settings/name", data={"name": "aDA"})
    assert response.status_code == 422
    assert "Another player has this name" in response.text
    assert names_stored(db) == [None, "Ada"] or names_stored(db) == ["Ada", None]
    assert post_name(client, "ADA").status_code == 303  # type: ignore[attr-defined]
    assert sorted(n or "" for n in names_stored(db)) == ["", "ADA"]


def test_a_name_for_htmx_is_the_partial_again(client: TestClient, db: Database) -> None:
    response = client.post("/settings/name", data={"name": "Grace", "next": "/games"}, headers=HX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section class="panel display-name"')
    assert "Saved." in response.text
    assert "player" in response.cookies  # a player made for the name
    assert names_stored(db) == ["Grace"]


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example", "/\\evil", "games"])
def test_a_name_goes_back_only_to_a_path_of_this_site(client: TestClient, target: str) -> None:
    response = client.post("/settings/name", data={"name": "Linus", "next": target})
    assert response.status_code == 303
    assert response.headers["location"] == "/games"


def test_a_name_is_escaped_in_the_records_and_never_beside_a_game(
    client: TestClient, db: Database
) -> None:
    game_id = start(client, "freecell", "5")
    assert post_name(client, "Bob's.Game").status_code == 303  # type: ignore[attr-defined]
    with db.write() as session:
        session.execute(
            update(GameRecord)
            .where(GameRecord.id == game_id)
            .values(status="won", moves_count=88, finished_at=service.utcnow())
        )
    records = client.get("/deals/freecell/5").text
    assert "Bob&#39;s.Game" in records
    assert game_id not in records
    assert "Bob" not in client.get(f"/games/{game_id}").text


def test_a_name_longer_than_the_form_allows_is_refused(client: TestClient, db: Database) -> None:
    assert client.post("/settings/name", data={"name": "x" * 300}).status_code == 422
    assert names_stored(db) == []


# Watch links


def share(client: TestClient, game_id: str) -> str:
    response = client.post(f"/games/{game_id}/share")
    assert response.status_code == 303
    page = client.get(f"/games/{game_id}/share").text
    match = re.search(r"/watch/([A-Za-z0-9_-]+)", page)
    assert match
    return match.group(1)


def test_a_watch_link_shows_the_replay_and_never_the_game(client: TestClient, db: Database) -> None:
    game_id = start(client, "freecell", "1")
    act(client, game_id, "3a", 0)
    token = share(client, game_id)
    assert token != game_id and len(token) >= 22  # 128 bits and more
    assert share(client, game_id) == token  # one link in force
    watcher = TestClient(client.app, follow_redirects=False)
    page = watcher.get(f"/watch/{token}")
    assert page.status_code == 200
    assert game_id not in page.text
    assert "/games/" not in page.text.replace('action="/games"', "")
    posts = re.findall(r'<form[^>]*method="post"[^>]*action="([^"]*)"', page.text)
    assert all("/games" not in action for action in posts), posts
    assert "Step 1/" in page.text or "1/" in page.text
    assert 'hx-trigger="every 5s"' in page.text  # in play: polled
    assert page.headers["cache-control"] == "no-store"
    step = watcher.get(f"/watch/{token}?step=0", headers=HX)
    assert step.status_code == 200
    assert step.text.lstrip().startswith("<section")
    assert game_id not in step.text


def test_a_watched_game_in_play_is_polled_for_news(client: TestClient) -> None:
    game_id = start(client, "freecell", "1")
    token = share(client, game_id)
    quiet = client.get(f"/watch/{token}?since=0", headers=HX)
    assert quiet.status_code == 204
    act(client, game_id, "3a", 0)
    news = client.get(f"/watch/{token}?since=0", headers=HX)
    assert news.status_code == 200
    assert "3a" in news.text
    assert game_id not in news.text


def test_a_finished_game_is_watched_without_polling(client: TestClient) -> None:
    game_id = start(client, "montana", "2")
    act(client, game_id, "resign", 0)
    token = share(client, game_id)
    page = client.get(f"/watch/{token}").text
    assert "every 5s" not in page
    assert game_id not in page


def test_a_revoked_link_shows_nothing(client: TestClient, db: Database) -> None:
    game_id = start(client, "montana", "2")
    token = share(client, game_id)
    response = client.post(f"/games/{game_id}/share/revoke")
    assert response.status_code == 303
    gone = client.get(f"/watch/{token}")
    assert gone.status_code == 404
    assert "revoked" in gone.text
    assert client.get(f"/watch/{token}", headers=HX).status_code == 404
    fresh = share(client, game_id)
    assert fresh != token
    assert client.get(f"/watch/{token}").status_code == 404
    assert client.get(f"/watch/{fresh}").status_code == 200
    with db.read() as session:
        assert session.scalar(select(func.count()).select_from(ShareRecord)) == 2  # kept


@pytest.mark.parametrize("token", ["x", "A" * 24, "%00" * 8, "a" * 200, "A" * 23 + "%E2%80%AE"])
def test_a_malformed_or_unknown_token_is_a_404(client: TestClient, token: str) -> None:
    response = client.get(f"/watch/{token}")
    assert response.status_code == 404


@pytest.mark.parametrize("path", ["/games/nope/share", "/games/nope/share/revoke"])
def test_sharing_an_unknown_game_is_a_404_and_stores_nothing(
    client: TestClient, db: Database, path: str
) -> None:
    response = client.post(path)
    assert response.status_code == 404
    assert client.get("/games/nope/share").status_code == 404
    with db.read() as session:
        assert session.scalar(select(func.count()).select_from(ShareRecord)) == 0
