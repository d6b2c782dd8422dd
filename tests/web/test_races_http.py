"""Races over HTTP: make, join, start, the page for racers and watchers, the event stream
of a race that is over, and every refusal (plain forms and htmx)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app import i18n
from app.i18n import gettext
from app.service import races
from app.service.model import utcnow
from app.store import Database
from app.store.models import GameRecord, MoveRecord, PlayerRecord
from app.store.race_models import RaceRecord, RacerRecord
from tests.web.helpers import HX

RACE_URL = re.compile(r"/races/([\w-]{24})$")


@pytest.fixture
def other(app: FastAPI) -> Iterator[TestClient]:
    """A second browser (its own cookie) on the same site."""
    with TestClient(app, follow_redirects=False) as browser:
        yield browser


def make(client: TestClient, **form: str) -> str:
    response = client.post("/races", data={"kind": "freecell", "deal": "617", **form})
    assert response.status_code == 303, response.text
    match = RACE_URL.search(response.headers["location"])
    assert match
    return match.group(1)


def count(db: Database, table: type[object]) -> int:
    with db.read() as session:
        return int(session.scalar(select(func.count()).select_from(table)) or 0)


def begun(db: Database, token: str) -> None:
    """The countdown over (tests only: the race's start, and its games' deal, moved into
    the past)."""
    past = utcnow() - timedelta(seconds=1)
    with db.write() as session:
        session.execute(update(RaceRecord).where(RaceRecord.token == token).values(started_at=past))
        games = select(RacerRecord.game_id).where(RacerRecord.race_token == token)
        session.execute(update(GameRecord).where(GameRecord.id.in_(games)).values(created_at=past))


def game_links(page: str) -> set[str]:
    return set(re.findall(r'href="/games/([\w-]+)"', page))


def test_the_home_page_offers_a_race_for_every_game(client: TestClient) -> None:
    page = client.get("/").text
    assert "Race your friends" in page
    assert 'action="/races"' in page
    assert "Start a FreeCell race" in page and "Start a Montana race" in page
    assert page.count('name="limit"') == 2


def test_a_finished_game_offers_to_race_its_deal(client: TestClient) -> None:
    game = client.post("/games", data={"kind": "freecell", "deal": "5"}).headers["location"]
    version = 0
    client.post(f"{game}/actions", data={"action": "resign", "version": str(version)})
    page = client.get(game).text
    form = page[page.index('action="/races"') - 40 :]
    assert "Race this deal" in form
    assert 'name="kind" value="freecell"' in form and 'name="deal" value="5"' in form


def test_making_a_race_opens_its_lobby_with_its_maker_in_it(client: TestClient) -> None:
    response = client.post("/races", data={"kind": "montana", "variant": "easy", "deal": "7",
                                           "limit": "10"})  # fmt: skip
    assert response.status_code == 303 and "player" in response.cookies
    page = client.get(response.headers["location"]).text
    assert "Race: Montana #7" in page
    assert "time limit 10 minutes" in page and "1 racer" in page
    assert "You are in this race as anonymous 1." in page
    assert "Start the race" in page and "Join the race" not in page
    assert 'sse-connect="/races/' in page and 'hx-trigger="sse:state, race-poll"' in page
    assert ">Refresh<" in page


def test_a_random_race_deal_and_a_winnable_one(client: TestClient, db: Database) -> None:
    make(client, deal="")
    make(client, deal="", winnable="1")
    with db.read() as session:
        deals = list(session.scalars(select(RaceRecord.deal)))
    assert len(deals) == 2 and all(1 <= deal <= 1_000_000 for deal in deals)


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"limit": "7"}, "A race's time limit is 5, 10 or 15 minutes, or none."),
        ({"limit": "forever"}, "A race's time limit is 5, 10 or 15 minutes, or none."),
        ({"kind": "chess"}, "There is no game called"),
        ({"variant": "nine"}, "has no variant"),
    ],
)
def test_a_race_the_site_cannot_make_is_refused_and_nothing_stored(
    client: TestClient, db: Database, form: dict[str, str], words: str
) -> None:
    response = client.post("/races", data={"kind": "freecell", "deal": "1", **form})
    assert response.status_code == 422
    assert words in html.unescape(response.text)
    assert count(db, RaceRecord) == 0 and count(db, PlayerRecord) == 0
    assert "player" not in response.cookies


def test_a_second_player_joins_with_a_plain_form(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = make(client)
    page = other.get(f"/races/{token}").text
    assert "Join the race" in page and "Start the race" not in page
    response = other.post(f"/races/{token}/join")
    assert response.status_code == 303 and response.headers["location"].endswith(token)
    page = other.get(f"/races/{token}").text
    assert "You are in this race as anonymous 2." in page and "2 racers" in page
    assert "Join the race" not in page
    assert count(db, RacerRecord) == 2


def test_joining_with_htmx_answers_the_race_part(client: TestClient, other: TestClient) -> None:
    token = make(client)
    response = other.post(f"/races/{token}/join", headers=HX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="race"')
    assert "<html" not in response.text
    assert "You are in this race as anonymous 2." in response.text
    assert "player" in response.cookies  # a first visit: the new player is remembered
    again = other.get(f"/races/{token}", headers=HX).text
    assert "You are in this race as anonymous 2." in again


def test_a_full_race_refuses_a_ninth_racer_and_stores_nothing(
    app: FastAPI, client: TestClient, db: Database
) -> None:
    token = make(client)
    for _ in range(7):
        with TestClient(app, follow_redirects=False) as browser:
            assert browser.post(f"/races/{token}/join").status_code == 303
    players = count(db, PlayerRecord)
    with TestClient(app, follow_redirects=False) as late:
        response = late.post(f"/races/{token}/join")
        assert response.status_code == 409
        assert "This race is full: you can still watch it." in response.text
        assert late.post(f"/races/{token}/join", headers=HX).status_code == 409
    assert count(db, RacerRecord) == 8 and count(db, PlayerRecord) == players


def test_only_the_maker_starts_and_a_started_race_takes_no_one(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = make(client)
    other.post(f"/races/{token}/join")
    refused = other.post(f"/races/{token}/start")
    assert refused.status_code == 403
    assert "Only the player who made this race can start it." in refused.text
    assert other.post(f"/races/{token}/start", headers=HX).status_code == 403
    assert client.post(f"/races/{token}/start").status_code == 303
    with TestClient(other.app, follow_redirects=False) as late:  # type: ignore[arg-type]
        response = late.post(f"/races/{token}/join")
        assert response.status_code == 409
        assert "This race has started: you can watch it, but no longer join." in response.text
    again = client.post(f"/races/{token}/start", headers=HX)
    assert again.status_code == 409 and 'id="race"' in again.text
    assert count(db, RacerRecord) == 2


def test_starting_with_htmx_shows_the_countdown_and_no_game_yet(client: TestClient) -> None:
    token = make(client)
    response = client.post(f"/races/{token}/start", headers=HX)
    assert response.status_code == 200
    assert "Get ready: the race starts in a few seconds." in response.text
    assert not game_links(response.text)
    assert "data-started=" in response.text


def test_a_move_during_the_countdown_is_refused_in_words_and_not_stored(
    client: TestClient, db: Database
) -> None:
    token = make(client)
    client.post(f"/races/{token}/start")
    with db.read() as session:
        game_id = session.scalar(select(RacerRecord.game_id).where(RacerRecord.race_token == token))
    assert game_id
    hx = client.post(f"/games/{game_id}/actions", data={"action": "3a", "version": "0"}, headers=HX)
    assert hx.status_code == 422
    assert "This game has not begun yet: wait for the countdown to end." in html.unescape(hx.text)
    shown = client.post(
        f"/games/{game_id}/actions",
        data={"action": "3a", "version": "0"},
        headers={**HX, "Accept-Language": "hi"},
    )
    with i18n.use_locale("hi"):
        words = gettext("This game has not begun yet: wait for the countdown to end.")
    assert words != "This game has not begun yet: wait for the countdown to end."
    assert shown.status_code == 422 and words in html.unescape(shown.text)
    plain = client.post(
        f"/games/{game_id}/actions",
        data={"action": "3a", "version": "0"},
        headers={"Sec-Fetch-Mode": "navigate"},
    )
    assert plain.status_code == 303  # JavaScript off: back to the game, which says why
    page = client.get(plain.headers["location"]).text
    assert "This game has not begun yet: wait for the countdown to end." in html.unescape(page)
    with db.read() as session:
        assert session.scalar(select(func.count()).select_from(MoveRecord)) == 0
        assert session.get(GameRecord, game_id).version == 0  # type: ignore[union-attr]
    begun(db, token)
    moved = client.post(f"/games/{game_id}/actions", data={"action": "3a", "version": "0"})
    assert moved.status_code == 303
    with db.read() as session:
        assert session.get(GameRecord, game_id).version >= 1  # type: ignore[union-attr]


def test_each_racer_sees_their_own_game_only_and_watchers_none(
    app: FastAPI, client: TestClient, other: TestClient, db: Database
) -> None:
    token = make(client)
    other.post(f"/races/{token}/join")
    client.post(f"/races/{token}/start")
    begun(db, token)
    mine, theirs = client.get(f"/races/{token}").text, other.get(f"/races/{token}").text
    assert "Play your game" in mine and "Play your game" in theirs
    assert len(game_links(mine)) == 1 and len(game_links(theirs)) == 1
    assert game_links(mine) != game_links(theirs)
    with TestClient(app, follow_redirects=False) as watcher:
        page = watcher.get(f"/races/{token}").text
    assert not game_links(page) and "Play your game" not in page
    watch = re.findall(r'href="(/watch/[\w-]+)"', page)
    assert len(watch) == 2
    # The racer's game is an ordinary game; the watch link shows it read-only.
    (game_id,) = game_links(mine)
    assert client.get(f"/games/{game_id}").status_code == 200
    shown = client.get(watch[0]).text
    assert game_id not in shown


def test_a_watcher_sees_every_racers_board_small_and_read_only(
    app: FastAPI, client: TestClient, other: TestClient, db: Database
) -> None:
    token = make(client)
    other.post(f"/races/{token}/join")
    assert "race-board" not in client.get(f"/races/{token}").text  # the lobby: none dealt
    client.post(f"/races/{token}/start")
    begun(db, token)
    (game_id,) = game_links(client.get(f"/races/{token}").text)
    client.post(f"/games/{game_id}/actions", data={"action": "3a", "version": "0"})
    with TestClient(app, follow_redirects=False) as watcher:
        page = watcher.get(f"/races/{token}").text
        part = watcher.get(f"/races/{token}", headers=HX).text
        arabic = watcher.get(f"/races/{token}", headers={"Accept-Language": "ar"}).text
    for shown in (page, part):
        figures = re.findall(r'<figure class="race-board[^>]*sse-swap="(board-\d)"', shown)
        assert figures == ["board-1", "board-2"]
        assert "anonymous 1's board" in html.unescape(shown)
        assert shown.count('class="race-board-view" inert dir="ltr"') == 2
        boards = shown[shown.index('class="race-boards"') :]
        assert 'id="board"' not in boards and "hx-post" not in boards and "hx-get" not in boards
        assert not game_links(shown)  # no game's own address, on a board either
    # A racer sees the others' boards, not their own.
    mine = client.get(f"/races/{token}").text
    assert re.findall(r'sse-swap="(board-\d)"', mine) == ["board-2"]
    with i18n.use_locale("ar"):
        label = gettext("%(name)s's board")
    assert label != "%(name)s's board" and label.split("%(name)s")[0] in html.unescape(arabic)


def test_a_racers_game_page_shows_the_race_beside_the_board(
    client: TestClient, db: Database
) -> None:
    token = make(client)
    client.post(f"/races/{token}/start")
    begun(db, token)
    (game_id,) = game_links(client.get(f"/races/{token}").text)
    page = client.get(f"/games/{game_id}").text
    assert f'sse-connect="/races/{token}/events"' in page
    assert f'href="/races/{token}"' in page and "This game is in a race: see the others" in page
    fragment = client.post(
        f"/games/{game_id}/actions", data={"action": "3a", "version": "0"}, headers=HX
    ).text
    assert "race-beside" not in fragment  # the page's, not each move's
    other = client.post("/games", data={"kind": "freecell", "deal": "617"}).headers["location"]
    assert "race-beside" not in client.get(other).text


def test_a_race_over_shows_its_result_and_its_stream_ends(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = make(client)
    other.post(f"/races/{token}/join")
    client.post(f"/races/{token}/start")
    begun(db, token)
    for browser in (client, other):
        (game_id,) = game_links(browser.get(f"/races/{token}").text)
        browser.post(f"/games/{game_id}/actions", data={"action": "resign", "version": "0"})
    page = client.get(f"/races/{token}").text
    assert "Result" in page and "The race took" in page
    assert page.count("gave up") == 2 and page.count(">replay<") == 2
    assert "sse-connect" not in page
    stream = client.get(f"/races/{token}/events")
    assert stream.status_code == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert "event: state\ndata: finished" in stream.text and "event: end" in stream.text
    late = other.post(f"/races/{token}/join", headers={"Accept-Language": "en"})
    assert late.status_code == 200 or late.status_code == 303  # a racer already: no change
    with TestClient(client.app, follow_redirects=False) as newcomer:  # type: ignore[arg-type]
        refused = newcomer.post(f"/races/{token}/join")
        assert refused.status_code == 409
        assert "This race is over: you can see its result, but no longer join." in refused.text


@pytest.mark.parametrize("token", ["nope", "a" * 24, "%21" * 24])
@pytest.mark.parametrize("path", ["", "/events"])
def test_an_unknown_race_is_a_404_in_words(client: TestClient, token: str, path: str) -> None:
    response = client.get(f"/races/{token}{path}")
    assert response.status_code == 404
    assert "There is no race at this address" in response.text


@pytest.mark.parametrize("action", ["join", "start"])
def test_joining_or_starting_an_unknown_race_is_a_404(
    client: TestClient, db: Database, action: str
) -> None:
    response = client.post(f"/races/{'b' * 24}/{action}")
    assert response.status_code == 404
    assert "There is no race at this address" in response.text
    assert count(db, PlayerRecord) == 0


@pytest.mark.parametrize("language", ["hi", "ar"])
def test_refusals_are_in_the_players_language(
    client: TestClient, other: TestClient, language: str
) -> None:
    headers = {"Accept-Language": language}
    token = make(client)
    with i18n.use_locale(language):  # type: ignore[arg-type]
        not_yours = gettext("Only the player who made this race can start it.")
        limit = gettext("A race's time limit is 5, 10 or 15 minutes, or none.")
        unknown = gettext("There is no race at this address: check the link, or start a new race.")
        started = gettext("This race has started: you can watch it, but no longer join.")
    assert not_yours != "Only the player who made this race can start it."
    other.post(f"/races/{token}/join")
    response = other.post(f"/races/{token}/start", headers=headers)
    assert response.status_code == 403 and not_yours in response.text
    response = client.post("/races", data={"kind": "freecell", "limit": "3"}, headers=headers)
    assert response.status_code == 422 and limit in html.unescape(response.text)
    response = client.get(f"/races/{'c' * 24}", headers=headers)
    assert response.status_code == 404 and unknown in response.text
    client.post(f"/races/{token}/start")
    with TestClient(client.app, follow_redirects=False) as late:  # type: ignore[arg-type]
        response = late.post(f"/races/{token}/join", headers=headers)
    assert response.status_code == 409 and started in response.text
    if language == "ar":
        assert 'dir="rtl"' in response.text


def test_too_many_streams_from_one_address_are_refused(app: FastAPI, client: TestClient) -> None:
    from app.service import race_feed

    token = make(client)
    feed = race_feed.feed_of(app.state.db)
    assert feed is not None
    feed.per_address = 0
    feed.max_streams = 0
    response = client.get(f"/races/{token}/events")
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert "Too many live pages are open" in response.text


def test_the_race_time_limits_offered_are_the_services(client: TestClient) -> None:
    page = client.get("/").text
    for minutes in races.LIMITS:
        assert f'<option value="{minutes}">{minutes} minutes</option>' in page


_ = httpx
