"""What a racer, a race's maker and a player asking for help meet over HTTP (plain forms and
htmx): no hint in a race's countdown, the result's own replay links, the maker's end and
the idle end, the time limit enforced, the win's banner, the game page's race table, the
difficulty a game was dealt for, and a solution counted only when asked for by a POST."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.rules.protocol import Answer
from app.service import races
from app.service.model import utcnow
from app.store import Database
from app.store.models import GameRecord
from app.store.race_models import RaceRecord, RacerRecord
from tests.web.helpers import HX, start
from tests.web.test_freecell_http import ALMOST_WON, _force
from tests.web.test_races_http import begun, make

PLAIN = {"Sec-Fetch-Mode": "navigate"}
"""A form posted by a browser without JavaScript."""


@pytest.fixture
def other(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, follow_redirects=False) as browser:
        yield browser


def games_of(db: Database, token: str) -> list[str]:
    with db.read() as session:
        found = session.scalars(
            select(RacerRecord.game_id)
            .where(RacerRecord.race_token == token)
            .order_by(RacerRecord.joined)
        ).all()
    return [game for game in found if game]


def hints_used(db: Database, game_id: str) -> int:
    with db.read() as session:
        record = session.get(GameRecord, game_id)
        assert record is not None
        return record.hints_used


def two_racers(client: TestClient, other: TestClient, db: Database, **form: str) -> str:
    token = make(client, **form)
    assert other.post(f"/races/{token}/join").status_code == 303
    assert client.post(f"/races/{token}/start").status_code == 303
    return token


def back_in_time(db: Database, token: str, minutes: float) -> None:
    """The race (and its games) started ``minutes`` ago."""
    past = utcnow() - timedelta(minutes=minutes)
    with db.write() as session:
        session.execute(update(RaceRecord).where(RaceRecord.token == token).values(started_at=past))
        games = select(RacerRecord.game_id).where(RacerRecord.race_token == token)
        session.execute(
            update(GameRecord)
            .where(GameRecord.id.in_(games))
            .values(created_at=past, last_action_at=past)
        )


# -- 5: no help during the countdown; the result's replay links are the race's own ----------


def test_a_hint_or_a_solution_during_the_countdown_is_refused_and_not_counted(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db)
    game = games_of(db, token)[0]
    hx = client.post(f"/games/{game}/hint", headers=HX)
    assert hx.status_code == 422
    assert "This game has not begun yet: wait for the countdown to end." in html.unescape(hx.text)
    assert 'class="hinted' not in hx.text
    plain = client.post(f"/games/{game}/hint", headers=PLAIN)
    assert plain.status_code == 303  # JavaScript off: back to the game, which says why
    page = html.unescape(client.get(plain.headers["location"]).text)
    assert "This game has not begun yet: wait for the countdown to end." in page
    assert client.post(f"/games/{game}/solution", headers=HX).status_code == 422
    assert hints_used(db, game) == 0
    begun(db, token)
    assert client.post(f"/games/{game}/hint", headers=HX).status_code == 200
    assert hints_used(db, game) == 1


def test_the_results_replay_link_outlives_a_revoked_watch_link(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db)
    begun(db, token)
    mine, theirs = games_of(db, token)
    client.post(f"{'/games/' + mine}/actions", data={"action": "resign", "version": "0"})
    other.post(f"/games/{theirs}/actions", data={"action": "resign", "version": "0"})
    result = client.get(f"/races/{token}").text
    replays = re.findall(rf'href="(/races/{token}/replays/\d)"', result)
    assert len(replays) == 2
    assert "/watch/" not in result  # the result links to its own replays
    other.post(f"/games/{theirs}/share/revoke")  # a racer takes their watch link back
    for link in replays:
        replay = other.get(link)
        assert replay.status_code == 200
        assert mine not in replay.text and theirs not in replay.text  # no game's address
    assert client.get(f"/races/{token}/replays/3").status_code == 404
    assert client.get(f"/races/{token}/replays/0").status_code in (404, 422)


def test_a_replay_link_waits_for_the_result(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db)
    begun(db, token)
    assert client.get(f"/races/{token}/replays/1").status_code == 404


# -- 9: the difficulty a game was dealt for ---------------------------------------------------


def test_the_game_page_says_its_difficulty_and_new_game_keeps_it(client: TestClient) -> None:
    dealt = client.post("/games", data={"kind": "freecell", "difficulty": "medium"})
    assert dealt.status_code == 303
    page = client.get(dealt.headers["location"]).text
    assert 'data-difficulty="medium"' in page and 'data-fewest-cells="2"' in page
    assert "Medium" in page and "needs 2 free cells" in page
    forms = re.findall(r'<form method="post" action="/games"[^>]*>.*?</form>', page, re.S)
    new_game = [form for form in forms if 'name="deal"' not in form]
    assert new_game and all('name="difficulty" value="medium"' in form for form in new_game)
    again = client.post("/games", data={"kind": "freecell", "difficulty": "medium"})
    assert 'data-fewest-cells="2"' in client.get(again.headers["location"]).text
    plain = client.get(client.post("/games", data={"kind": "freecell"}).headers["location"])
    assert "data-difficulty" not in plain.text and 'name="difficulty"' not in plain.text


# -- 10: a GET never counts a solution seen ----------------------------------------------------


def test_a_get_of_the_solution_counts_nothing_and_asks_first(
    client: TestClient, app: FastAPI, db: Database
) -> None:
    game = start(client, "freecell", "1")
    with TestClient(app, follow_redirects=False) as stranger:  # no cookie: a link preview
        for url in (f"/games/{game}/solution", f"/games/{game}/solution?step=3"):
            asked = stranger.get(url)
            assert asked.status_code == 200
            assert "Show the solution (counts as a hint)" in asked.text
            assert 'method="post"' in asked.text and "Step 1:" not in asked.text
    assert hints_used(db, game) == 0
    page = client.get(f"/games/{game}").text
    button = page[page.index(f'action="/games/{game}/solution"') :][:400]
    assert 'method="post"' in page[page.index(f'action="/games/{game}/solution"') - 40 :]
    assert "counts as a hint" in button
    counted = client.post(f"/games/{game}/solution")  # the holder's form, JavaScript off
    assert counted.status_code == 303
    assert hints_used(db, game) == 1
    shown = client.get(counted.headers["location"]).text
    assert "Solution: FreeCell" in shown
    client.get(f"/games/{game}/solution?step=2")  # looking on counts nothing more
    assert hints_used(db, game) == 1
    assert "(assisted)" in client.get("/games").text


# -- 11: the maker's end, the idle end, the time limit, the banner -------------------------------


def test_the_maker_ends_a_race_and_nobody_else_can(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db)
    begun(db, token)
    page = client.get(f"/races/{token}").text
    assert "End race" in page and f'action="/races/{token}/end"' in page
    assert "End this race now?" in page  # it asks first
    assert "End race" not in other.get(f"/races/{token}").text
    refused = other.post(f"/races/{token}/end", headers=HX)
    assert refused.status_code == 403
    assert "Only the player who made this race can end it." in html.unescape(refused.text)
    assert races.race(db=db, token=token).state == "running"
    ended = client.post(f"/races/{token}/end")  # JavaScript off
    assert ended.status_code == 303
    result = races.race(db=db, token=token)
    assert result.state == "finished"
    assert {r.standing for r in result.racers} == {"unfinished"}
    again = client.post(f"/races/{token}/end", headers=HX)
    assert again.status_code == 409


def test_the_maker_ends_a_lobby_with_htmx(client: TestClient, db: Database) -> None:
    token = make(client)
    ended = client.post(f"/races/{token}/end", headers=HX)
    assert ended.status_code == 200 and "Result" in ended.text
    assert races.race(db=db, token=token).state == "finished"


def test_a_race_nobody_moves_in_ends_by_itself(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db)
    back_in_time(db, token, races.IDLE_AFTER.total_seconds() / 60 - 1)
    assert races.race(db=db, token=token).state == "running"  # a minute to go
    back_in_time(db, token, races.IDLE_AFTER.total_seconds() / 60 + 1)
    ended = races.race(db=db, token=token)
    assert ended.state == "finished"
    assert ended.finished_at is not None and ended.started_at is not None
    assert ended.finished_at - ended.started_at == races.IDLE_AFTER


def test_restart_in_a_race_says_it_leaves_the_race(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db)
    begun(db, token)
    page = client.get(f"/games/{games_of(db, token)[0]}").text
    assert "Restart this deal? You leave the race, and the game in play counts as lost." in page
    alone = client.get(f"/games/{start(client, 'freecell', '1')}").text
    assert "Restart this deal? The game in play counts as lost." in alone


def test_moves_after_the_time_limit_are_refused_and_the_page_says_so(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db, limit="5")
    game = games_of(db, token)[0]
    back_in_time(db, token, 6)
    words = "The race's time is up: this game takes no more moves."
    hx = client.post(f"/games/{game}/actions", data={"action": "3a", "version": "0"}, headers=HX)
    assert hx.status_code == 422 and words in html.unescape(hx.text)
    plain = client.post(
        f"/games/{game}/actions", data={"action": "3a", "version": "0"}, headers=PLAIN
    )
    assert plain.status_code == 303
    assert words in html.unescape(client.get(plain.headers["location"]).text)
    assert client.post(f"/games/{game}/hint", headers=HX).status_code == 422
    with db.read() as session:
        record = session.get(GameRecord, game)
        assert record is not None and record.version == 0 and record.hints_used == 0
    assert races.race(db=db, token=token).state == "finished"
    resigned = client.post(f"/games/{game}/actions", data={"action": "resign", "version": "0"})
    assert resigned.status_code == 303  # giving up still closes the game


def test_the_win_banner_has_the_race_tables_time_and_the_placing(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db)
    begun(db, token)
    mine, theirs = games_of(db, token)
    other.post(f"/games/{theirs}/actions", data={"action": "resign", "version": "0"})
    back_in_time(db, token, 0.2)  # 12 seconds into the race
    _force(client, mine, ALMOST_WON)
    assert client.post(f"/games/{mine}/actions", data={"action": "1h", "version": "0"})
    page = client.get(f"/games/{mine}").text
    table = client.get(f"/races/{token}").text
    time = re.search(r"<td[^>]*>(\d+:\d\d)</td>", table)
    assert time is not None
    banner = page[page.index('class="end-screen') :]
    assert f"in {time.group(1)}!" in banner and f"time {time.group(1)}" in banner
    assert 'data-place="1" data-racers="2"' in banner
    assert "Place 1 of 2 racers in the race." in banner


# -- 12: the game page's race table without JavaScript ----------------------------------------


def test_a_racers_game_page_has_the_race_tables_rows(
    client: TestClient, other: TestClient, db: Database
) -> None:
    token = two_racers(client, other, db)
    begun(db, token)
    page = client.get(f"/games/{games_of(db, token)[0]}").text
    aside = page[page.index('<aside class="race-beside"') : page.index("</aside>")]
    assert aside.count('<tr class="racer') == 2
    assert "anonymous 1" in aside and "anonymous 2" in aside
    assert "<summary>" in aside and "2 racers" in aside


# -- 14: words ----------------------------------------------------------------------------------


def test_a_deal_that_cannot_be_won_is_said_of_the_deal_at_its_start(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client, "freecell", "11982")
    solvers = client.app.state.solvers  # type: ignore[attr-defined]
    monkeypatch.setattr(solvers, "ask", lambda job, wait: Answer("unsolvable", (), 1000, 0.5))
    first = html.unescape(client.get(f"/games/{game}?check=1", headers=HX).text)
    assert "No: this deal cannot be won" in first and "no longer" not in first
    client.post(f"/games/{game}/actions", data={"action": "3a", "version": "0"})
    later = html.unescape(client.get(f"/games/{game}?check=1", headers=HX).text)
    assert "this game can no longer be won" in later


def test_a_full_lobby_invites_nobody_and_says_full_once(
    client: TestClient, app: FastAPI, db: Database
) -> None:
    token = make(client)
    for _ in range(races.MAX_RACERS - 1):
        with TestClient(app, follow_redirects=False) as racer:
            assert racer.post(f"/races/{token}/join").status_code == 303
    mine = client.get(f"/races/{token}").text
    assert "friends" not in mine
    assert "Every place in this race is taken." in mine
    with TestClient(app, follow_redirects=False) as late:
        looked = late.get(f"/races/{token}").text
        assert looked.count("This race is full") == 1 and "friends" not in looked
        refused = late.post(f"/races/{token}/join")
        assert refused.status_code == 409
        assert refused.text.count("This race is full") == 1


# -- 13: statistics on a phone; what the win rates count ---------------------------------------


def test_statistics_fold_the_games_never_played_into_one_line(client: TestClient) -> None:
    game = start(client, "montana", "1")
    client.post(f"/games/{game}/actions", data={"action": "resign", "version": "0"})
    page = client.get("/stats").text
    mine = page[page.index("Your games") : page.index("Everyone on this site")]
    assert '<th scope="row">Montana Expert</th>' in mine
    assert "FreeCell Standard</th>" not in mine
    folded = re.search(r'<p class="stats-unplayed muted" data-unplayed="(\d+)">([^<]*)</p>', mine)
    assert folded is not None
    assert "No games yet:" in folded.group(2) and "FreeCell Standard" in folded.group(2)
    assert int(folded.group(1)) >= 11  # every other game and variant, in one line
    assert "an unfinished game counts as not won in the win percentage" in page


def test_open_pages_are_woken_when_the_race_would_end_idle(
    client: TestClient, other: TestClient, db: Database
) -> None:
    """A race's streams read it again at the end of its idle spell, so open pages see it
    end then, not at their next reload."""
    from app.web.race_stream import Reading

    token = two_racers(client, other, db)
    back_in_time(db, token, races.IDLE_AFTER.total_seconds() / 60 - 1)
    running = races.race(db=db, token=token)
    assert running.state == "running" and running.deadline is None
    (moment,) = Reading(running, None).moments()
    assert 55 < moment < 65  # the minute left of its idle spell
