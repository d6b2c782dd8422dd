"""A deal's records, the deals of the day and winnable starts, over HTTP: every route with
and without htmx, and every way to get it wrong (nothing is stored then)."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app import i18n, service
from app.games import KINDS
from app.service import deals, proofs
from app.store import Database
from app.store.models import GameRecord, PlayerRecord
from tests.web.helpers import HX, start


def games_stored(db: Database) -> int:
    with db.read() as session:
        return int(session.scalar(select(func.count()).select_from(GameRecord)) or 0)


def players_stored(db: Database) -> int:
    with db.read() as session:
        return int(session.scalar(select(func.count()).select_from(PlayerRecord)) or 0)


def game_of(db: Database, game_id: str) -> GameRecord:
    with db.read() as session:
        record = session.get(GameRecord, game_id)
        assert record is not None
        return record


def finish(db: Database, game_id: str, *, moves: int, play_ms: int, hints: int = 0) -> None:
    """Mark a game won with these figures (the records read only the games table)."""
    with db.write() as session:
        session.execute(
            update(GameRecord)
            .where(GameRecord.id == game_id)
            .values(
                status="won",
                moves_count=moves,
                play_ms=play_ms,
                hints_used=hints,
                finished_at=service.utcnow(),
            )
        )


def no_proofs(monkeypatch: pytest.MonkeyPatch, kind: str, variant: str) -> None:
    """As if ``kind``'s ``variant`` had never been classified."""
    real = proofs.proofs

    def fake(k: str, v: str) -> proofs.Proofs:
        return proofs.Proofs({}) if (k, v) == (kind, variant) else real(k, v)

    monkeypatch.setattr(proofs, "proofs", fake)


# Winnable deals only


def test_the_shipped_proofs_are_of_the_registry_and_read_without_searching() -> None:
    files = sorted([*proofs.FOLDER.glob("*.txt"), *proofs.FOLDER.glob("*.bits")])
    assert files
    known = {f"{kind}-{variant}" for kind, variant in proofs.variants()}
    for file in files:
        assert file.stem in known, file
    for kind, variant in (("freecell", "standard"), ("montana", "expert"), ("montana", "easy")):
        shipped = proofs.proofs(kind, variant)
        assert shipped.winnable_count() >= 10, (kind, variant)
        for k in range(0, shipped.winnable_count(), max(shipped.winnable_count() // 50, 1)):
            assert shipped.verdict(shipped.winnable_at(k)) == "solved"


def test_every_variant_of_the_registry_has_a_deal_proved_winnable() -> None:
    # So that the deal of the day and "winnable deals only" are offered everywhere: a
    # variant added to the registry ships with its proofs (solitaire classify).
    day = deals.today()
    for kind, game in KINDS.items():
        for variant in game.rules.variants:
            shipped = proofs.proofs(kind, variant)
            assert shipped.winnable_count(), f"{kind} {variant}: no deal proved winnable"
            assert deals.has_winnable(kind, variant)
            daily = proofs.daily_deal(kind, variant, day)
            assert daily is not None and shipped.verdict(daily) == "solved"


def test_a_winnable_start_is_on_a_deal_proved_winnable(client: TestClient, db: Database) -> None:
    for kind, game in KINDS.items():
        for variant in game.rules.variants:
            if not deals.has_winnable(kind, variant):
                continue  # a variant not yet classified: test_a_variant_never_classified
            response = client.post(
                "/games", data={"kind": kind, "variant": variant, "winnable": "1"}
            )
            assert response.status_code == 303
            record = game_of(db, response.headers["location"].rsplit("/", 1)[1])
            assert (record.kind, record.variant) == (kind, variant)
            assert proofs.proofs(kind, variant).verdict(record.deal) == "solved"
            assert record.daily_on is None


def test_a_deal_given_wins_over_winnable(client: TestClient, db: Database) -> None:
    game_id = start(client, "freecell", "11982", winnable="1")
    assert game_of(db, game_id).deal == 11982


@pytest.mark.parametrize(
    "form",
    [
        {"kind": "nope", "winnable": "1"},
        {"kind": "montana", "variant": "nope", "winnable": "1"},
        {"kind": "freecell", "winnable": "yes"},
        {"kind": "freecell", "deal": "0"},
        {"kind": "freecell", "deal": "99999999"},
        {"kind": "montana", "deal": "0", "winnable": "1"},
        {"kind": "nope", "deal": "5"},
    ],
)
def test_a_bad_start_is_refused_and_stores_nothing(
    client: TestClient, db: Database, form: dict[str, str]
) -> None:
    response = client.post("/games", data=form)
    assert response.status_code == 422
    assert "<h1>" in response.text
    assert games_stored(db) == 0
    assert players_stored(db) == 0


def test_a_variant_never_classified_says_so(
    client: TestClient, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_proofs(monkeypatch, "montana", "easy")
    response = client.post("/games", data={"kind": "montana", "variant": "easy", "winnable": "1"})
    assert response.status_code == 422
    assert "proved winnable yet" in response.text
    assert games_stored(db) == 0
    assert players_stored(db) == 0  # refused before a player is made
    home = client.get("/")
    assert home.status_code == 200
    assert "not yet classified" in home.text
    daily = client.get("/daily")
    assert daily.status_code == 200
    assert "has no deal of the day" in daily.text
    assert client.post("/daily", data={"kind": "montana", "variant": "easy"}).status_code == 422
    assert games_stored(db) == 0
    assert players_stored(db) == 0


def test_the_home_page_offers_winnable_deals_and_the_daily_page(client: TestClient) -> None:
    page = client.get("/").text
    assert 'name="winnable" value="1"' in page
    assert 'href="http://testserver/daily"' in page or 'href="/daily"' in page


# A deal's records


def test_a_deal_page_counts_and_ranks_wins_unassisted_first(
    client: TestClient, db: Database
) -> None:
    ids = [start(client, "freecell", "1") for _ in range(4)]
    finish(db, ids[0], moves=90, play_ms=200_000)
    finish(db, ids[1], moves=80, play_ms=300_000, hints=2)  # fewest moves, but assisted
    finish(db, ids[2], moves=100, play_ms=100_000)
    start(client, "freecell", "2")  # another deal: not counted
    page = client.get("/deals/freecell/1")
    assert page.status_code == 200
    text = page.text
    assert "Played 4 times" in text
    assert "won 3 times" in text
    assert "Proved winnable." in text
    assert "automatic" not in text or "by themselves" in text
    assert "by themselves" in text  # the move count is defined on the page
    by_moves, by_time = text.split('id="by-moves"')[1].split('id="by-time"')
    assert [int(n) for n in re.findall(r"<td[^>]*>(\d+)</td>\s*<td[^>]*>\d+:\d\d", by_moves)] == [
        90,
        100,
        80,
    ]
    assert [int(n) for n in re.findall(r"<td[^>]*>(\d+)</td>\s*<td[^>]*>\d+:\d\d", by_time)] == [
        100,
        90,
        80,
    ]
    assert "assisted: 2 hints" in by_moves
    assert text.count("anonymous") >= 3
    for game_id in ids:
        assert game_id not in text  # no game's address on a public page
    assert 'name="deal" value="1"' in text  # "Play this deal"


def test_play_this_deal_starts_a_new_game_on_it(client: TestClient, db: Database) -> None:
    page = client.get("/deals/montana/7?variant=easy").text
    form = re.search(
        r'<form method="post" action="([^"]+)" class="action-form">(.*?)</form>', page, re.S
    )
    assert form
    fields = dict(re.findall(r'name="(\w+)" value="(\w*)"', form.group(2)))
    response = client.post(form.group(1), data=fields)
    assert response.status_code == 303
    record = game_of(db, response.headers["location"].rsplit("/", 1)[1])
    assert (record.kind, record.variant, record.deal) == ("montana", "easy", 7)


def test_a_deal_page_says_what_the_proofs_know(client: TestClient) -> None:
    assert "Proved impossible." in client.get("/deals/freecell/11982").text
    assert "Proved winnable." in client.get("/deals/freecell/999999").text
    intractable = proofs.proofs("freecell", "standard").verdict(57148)
    assert intractable == "unknown"  # the atomic scan ran past its bound
    assert "Unknown." in client.get("/deals/freecell/57148").text
    unsolvable = [
        d for d, v in proofs.proofs("montana", "expert").verdicts.items() if v == "unsolvable"
    ]
    if unsolvable:
        assert "Proved impossible." in client.get(f"/deals/montana/{unsolvable[0]}").text


def test_a_finished_game_links_to_its_deals_records(client: TestClient, db: Database) -> None:
    game_id = start(client, "montana", "3", variant="easy")
    client.post(f"/games/{game_id}/actions", data={"action": "resign", "version": "0"})
    page = client.get(f"/games/{game_id}").text
    assert "/deals/montana/3?variant=easy" in page
    assert f"/games/{game_id}/share" in page


@pytest.mark.parametrize(
    "path",
    [
        "/deals/nope/1",
        "/deals/freecell/0",
        "/deals/freecell/1000001",
        "/deals/freecell/x1",
        "/deals/freecell/%C2%B2",
        "/deals/montana/1?variant=nope",
        "/deals/freecell/99999999999999999999",
    ],
)
def test_a_bad_deal_address_is_a_readable_404(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "<h1>" in response.text
    htmx = client.get(path, headers=HX)
    assert htmx.status_code == 404
    assert "<html" not in htmx.text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("abc", "“abc”"),
        ("-1", "“-1”"),
        ("0", "“0”"),
        ("99999999999999", "“99999999999999”"),
        ("1000001", "“1000001”"),
        ("x" * 200, "“" + "x" * 24 + "…”"),
        ("%E2%80%AEevil", "“\ufffdevil”"),  # a bidi override is not shown as one
    ],
)
def test_a_deal_address_that_is_no_deal_number_says_so(
    client: TestClient, text: str, shown: str
) -> None:
    response = client.get(f"/deals/freecell/{text}")
    assert response.status_code == 404
    assert f"{shown} is not a deal number: deals run from 1 to 1,000,000." in response.text
    assert "not 0" not in response.text
    arabic = client.get("/deals/freecell/abc", headers={"Accept-Language": "ar"})
    assert "«\u2068abc\u2069»" in arabic.text  # what was typed, isolated in a right-to-left line


def test_a_deal_page_for_htmx_is_the_page(client: TestClient) -> None:
    # The records page has no fragment of its own: htmx (a boosted link) gets it whole.
    assert client.get("/deals/freecell/1", headers=HX).status_code == 200


# The deal of the day


def test_the_daily_page_names_the_utc_day_and_a_deal_per_variant(client: TestClient) -> None:
    page = client.get("/daily").text
    assert "UTC" in page
    day = deals.today()
    for kind, game in KINDS.items():
        for variant in game.rules.variants:
            deal = proofs.daily_deal(kind, variant, day)
            if deal is None:
                assert "has no deal of the day" in page
            else:
                assert f"#{deal}" in page
    assert "Your streak: 0 days" in page


def test_the_daily_deal_is_the_same_for_everyone_and_proved_winnable() -> None:
    day = deals.today()
    for kind, variant in proofs.variants():
        deal = proofs.daily_deal(kind, variant, day)
        assert deal == proofs.daily_deal(kind, variant, day)
        if deal is not None:
            assert proofs.proofs(kind, variant).verdict(deal) == "solved"
    days = {proofs.daily_deal("freecell", "standard", day + timedelta(days=n)) for n in range(30)}
    assert len(days) > 20  # a different deal (nearly) every day


def test_a_daily_game_says_so_on_its_page_and_in_my_games(client: TestClient, db: Database) -> None:
    daily_id = client.post("/daily", data={"kind": "freecell"}).headers["location"].rsplit("/")[-1]
    other_id = start(client, "freecell", "5")
    day = deals.today()
    english = i18n_day(day, "en")
    page = client.get(f"/games/{daily_id}").text
    heading = page.split('id="game-title"', 1)[1].split("</h1>", 1)[0]
    assert (
        f'Deal of the day, <time datetime="{day.isoformat()}"><bdi>{english}</bdi></time> (UTC)'
        in heading
    )
    assert "Deal of the day," not in client.get(f"/games/{other_id}").text
    fragment = client.get(f"/games/{daily_id}", headers=HX).text  # every move's fragment too
    assert "Deal of the day, " in fragment
    arabic = client.get(f"/games/{daily_id}", headers={"Accept-Language": "ar"}).text
    dated = f'<time datetime="{day.isoformat()}"><bdi>{i18n_day(day, "ar")}</bdi></time>'
    assert f"توزيعة اليوم، {dated} (UTC)" in arabic
    mine = client.get("/games").text
    row = mine.split(f"/games/{daily_id}", 1)[1].split("</tr>", 1)[0]
    assert (
        f'(deal of the day, <time datetime="{day.isoformat()}"><bdi>{english}</bdi></time>)' in row
    )
    assert "deal of the day" not in mine.split(f"/games/{other_id}", 1)[1].split("</tr>", 1)[0]
    hindi = client.get("/games", headers={"Accept-Language": "hi"}).text
    assert (
        f'(दिन की डील, <time datetime="{day.isoformat()}"><bdi>{i18n_day(day, "hi")}</bdi></time>)'
        in hindi
    )


def i18n_day(day: date, language: str) -> str:
    with i18n.use_locale(language):
        return i18n.day(day)


def test_starting_the_daily_deal_marks_a_normal_game(client: TestClient, db: Database) -> None:
    response = client.post("/daily", data={"kind": "montana", "variant": "easy"})
    assert response.status_code == 303
    game_id = response.headers["location"].rsplit("/", 1)[1]
    record = game_of(db, game_id)
    assert record.daily_on == deals.today()
    assert record.deal == proofs.daily_deal("montana", "easy", deals.today())
    assert client.get(f"/games/{game_id}").status_code == 200  # resumable by its address
    finish(db, game_id, moves=120, play_ms=400_000)
    page = client.get("/daily").text
    assert "Your streak: 1 day" in page
    assert "Played 1 time today" in page
    assert game_id in page  # the player's own game, to continue
    other = TestClient(client.app, follow_redirects=False)
    assert game_id not in other.get("/daily").text  # and nobody else's


def test_the_streak_counts_days_in_a_row(client: TestClient, db: Database) -> None:
    today = deals.today()
    ids = [client.post("/daily", data={"kind": "freecell"}).headers["location"] for _ in range(3)]
    for back, location in enumerate(ids):
        game_id = location.rsplit("/", 1)[1]
        finish(db, game_id, moves=50, play_ms=60_000)
        day = today - timedelta(days=back + 1)
        with db.write() as session:
            session.execute(
                update(GameRecord)
                .where(GameRecord.id == game_id)
                .values(daily_on=day, deal=proofs.daily_deal("freecell", "standard", day))
            )
    page = client.get("/daily").text
    assert "Your streak: 3 days" in page  # yesterday and the two days before
    yesterday = page.split('id="yesterday"')[1]
    assert "Played 1 time" in yesterday


@pytest.mark.parametrize(
    "form", [{"kind": "nope"}, {"kind": "montana", "variant": "nope"}, {"variant": "easy"}]
)
def test_a_bad_daily_start_is_refused_and_stores_nothing(
    client: TestClient, db: Database, form: dict[str, str]
) -> None:
    response = client.post("/daily", data=form)
    assert response.status_code == 422
    assert client.post("/daily", data=form, headers=HX).status_code == 422
    assert games_stored(db) == 0
    assert players_stored(db) == 0


def test_the_daily_page_for_htmx_is_the_page(client: TestClient) -> None:
    assert client.get("/daily", headers=HX).status_code == 200


def test_restarting_a_game_that_is_not_there_makes_no_player(
    db: Database, client: TestClient
) -> None:
    before = players_stored(db)
    answer = client.post("/games/" + "x" * 24 + "/restart", data={"version": "0"})
    assert answer.status_code == 404
    assert "set-cookie" not in answer.headers
    assert players_stored(db) == before


def test_a_daily_deal_not_played_today_says_so_in_words(client: TestClient) -> None:
    page = client.get("/daily").text
    assert "Not played yet today" in page and "Played 0 times today" not in page
    hindi = client.get("/daily", headers={"Accept-Language": "hi"}).text
    assert "आज अभी तक नहीं खेली गई" in hindi
