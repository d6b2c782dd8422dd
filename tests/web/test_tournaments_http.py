"""Weekly tournaments over HTTP: made when first asked, blind during the week, one try a
deal, the table, and every bad input refused with nothing stored."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app.games import CELLS_GAME, TOURNAMENT_GAMES
from app.service import proofs, tournaments
from app.store import Database
from app.store.models import GameRecord, PlayerRecord
from app.store.tournament_models import TournamentGameRecord, TournamentRecord
from tests.web.helpers import HX, act

SECRET = "test-secret"
LINK = re.compile(r'href="/tournaments/(\d+)"')


def counts(db: Database) -> tuple[int, int, int, int]:
    with db.read() as session:
        return tuple(  # type: ignore[return-value]
            int(session.scalar(select(func.count()).select_from(table)) or 0)
            for table in (TournamentRecord, TournamentGameRecord, GameRecord, PlayerRecord)
        )


def this_week(client: TestClient) -> list[int]:
    page = client.get("/tournaments")
    assert page.status_code == 200
    return sorted({int(found) for found in LINK.findall(page.text)})


def record(db: Database, tournament_id: int) -> TournamentRecord:
    with db.read() as session:
        found = session.get(TournamentRecord, tournament_id)
        assert found is not None
        return found


def test_the_week_is_made_once_with_its_deals(client: TestClient, db: Database) -> None:
    ids = this_week(client)
    assert len(ids) == len(TOURNAMENT_GAMES)
    assert this_week(client) == ids  # asked again: the same tournaments, none added
    assert counts(db)[0] == len(TOURNAMENT_GAMES)
    for tournament_id in ids:
        found = record(db, tournament_id)
        deals = tournaments.deal_numbers(found)
        assert found.starts_at.weekday() == 0 and found.ends_at - found.starts_at == timedelta(7)
        assert deals == tournaments.draw(SECRET, found.kind, found.variant, found.week)
        verdicts = [proofs.proofs(found.kind, found.variant).verdict(d) for d in deals]
        if (found.kind, found.variant) == CELLS_GAME:
            cells = sorted(proofs.fewest_cells(deal) or 0 for deal in deals)
            assert cells == [1, 1, 2, 2, 3, 3, 4, 4, proofs.NOT_EVEN_WITH_FOUR]
            assert verdicts.count("unsolvable") == 1
        else:
            assert len(deals) == 8 and "unknown" not in verdicts and None not in verdicts


def test_a_week_drawn_with_another_secret_or_week_differs() -> None:
    kind, variant = CELLS_GAME
    week = tournaments.week_of(datetime(2026, 12, 2, tzinfo=UTC))
    assert week.isoformat() == "2026-11-30"
    drawn = tournaments.draw("one", kind, variant, week)
    assert drawn == tournaments.draw("one", kind, variant, week)
    assert drawn != tournaments.draw("two", kind, variant, week)
    assert drawn != tournaments.draw("one", kind, variant, week + timedelta(7))


def test_concurrent_first_requests_make_one_tournament(db: Database) -> None:
    made: list[list[int]] = []

    def ask() -> None:
        made.append(tournaments.ensure_week(db=db, secret=SECRET))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 6 and all(ids == made[0] for ids in made)
    assert counts(db)[0] == len(TOURNAMENT_GAMES)


def test_a_deal_is_played_blind_and_once(client: TestClient, db: Database) -> None:
    tournament_id = this_week(client)[0]
    deal = tournaments.deal_numbers(record(db, tournament_id))[2]
    page = client.get(f"/tournaments/{tournament_id}")
    assert f"#{deal}" not in page.text and "Play deal 3" in page.text
    answer = client.post(f"/tournaments/{tournament_id}/deals/3")
    assert answer.status_code == 303
    game_url = answer.headers["location"]
    game_id = game_url.rsplit("/", 1)[1]
    # Again: the same game, nothing more stored.
    before = counts(db)
    assert client.post(f"/tournaments/{tournament_id}/deals/3").headers["location"] == game_url
    assert counts(db) == before
    shown = client.get(game_url).text
    assert f"#{deal}" not in shown and "Tournament deal 3" in shown
    assert "check-button" not in shown and "Show solution" not in shown
    assert 'id="deal-number"' not in shown and "Restart deal" not in shown
    # The solver's help is refused on the server too, and counts nothing.
    hint = client.post(f"/games/{game_id}/hint", data={"version": "0"}, headers=HX)
    assert hint.status_code == 422 and "No help in a tournament" in hint.text
    assert client.get(f"/games/{game_id}?check=1", headers=HX).status_code == 422
    assert client.get(f"/games/{game_id}/solution").status_code == 422
    for path in ("position", "replay", "share"):
        hidden = client.get(f"/games/{game_id}/{path}")
        assert hidden.status_code == 422 and f"#{deal}" not in hidden.text
    assert client.post(f"/games/{game_id}/share").status_code == 422
    restart = client.post(f"/games/{game_id}/restart", data={"version": "0"})
    assert restart.status_code == 422 and "cannot be restarted" in restart.text
    with db.read() as session:
        game = session.get(GameRecord, game_id)
        assert game is not None and game.hints_used == 0 and game.verdict_position is None
    assert counts(db) == before
    # Giving up is final: the deal cannot be entered again.
    assert act(client, game_id, "resign", 0).status_code == 303
    again = client.post(f"/tournaments/{tournament_id}/deals/3")
    assert again.status_code == 409 and "one try a deal" in again.text
    assert counts(db) == before
    rows = {**HX, "HX-Target": "standings-rows"}
    table = client.get(f"/tournaments/{tournament_id}", headers=rows)
    assert table.text.lstrip().startswith('<section id="standings"')
    assert "1 of 9 played, 0 won" in table.text or "1 of 8 played, 0 won" in table.text
    mine = client.get("/games").text
    assert "My tournaments" in mine and f"#{deal}" not in mine


def test_bad_deals_and_weeks_are_refused_with_nothing_stored(
    client: TestClient, db: Database
) -> None:
    tournament_id = this_week(client)[-1]
    before = counts(db)
    for k, status in (
        ("0", 404),
        ("10", 404),
        ("-1", 404),
        ("x", 422),
        ("99999999999999999999999", 422),
    ):
        answer = client.post(f"/tournaments/{tournament_id}/deals/{k}")
        assert answer.status_code == status, (k, answer.text)
    assert "has no deal 10" in client.post(f"/tournaments/{tournament_id}/deals/10").text
    assert client.post("/tournaments/987654/deals/1").status_code == 404
    assert client.get("/tournaments/987654").status_code == 404
    assert client.get("/tournaments/nope").status_code == 422
    # A past week's tournament: shown, never entered.
    past = datetime.now(UTC) - timedelta(days=14)
    old = tournaments.ensure_week(db=db, secret=SECRET, now=past)[0]
    before = counts(db)
    refused = client.post(f"/tournaments/{old}/deals/1")
    assert refused.status_code == 409 and "This tournament is over" in refused.text
    assert counts(db) == before
    shown = client.get(f"/tournaments/{old}").text
    first = tournaments.deal_numbers(record(db, old))[0]
    assert f"#{first}" in shown and "Proved" in shown and "Play deal" not in shown
    archived = record(db, old)  # the first look after the week kept its entrants and winners
    assert (archived.entrants, archived.winners) == (0, "")
    assert "Past weeks" in client.get("/tournaments").text


def test_the_table_ranks_wins_then_time_then_moves_and_shares_places() -> None:
    row = tournaments.rows.EntrantRow
    entrants = [  # in the store's order: most wins, least time, fewest moves
        row("b", 4, 4, 3, 12000, 300),
        row("e", 2, 2, 2, 9000, 150),
        row("a", 3, 3, 2, 9000, 200),
        row("c", 3, 3, 2, 9000, 200),
        row("d", 1, 0, 0, 0, 0),
    ]
    table = tournaments.ranked(entrants)
    assert [(s.player_id, s.place) for s in table.rows] == [
        ("b", 1), ("e", 2), ("a", 3), ("c", 3), ("d", 5),
    ]  # fmt: skip
    later = tournaments.ranked(entrants[3:], first=3, offset=3)  # a page that begins in a tie
    assert [(s.player_id, s.place) for s in later.rows] == [("c", 3), ("d", 5)]


def test_the_store_orders_the_table_and_the_page_names_its_players(db: Database) -> None:
    tournament_id = tournaments.ensure_week(db=db, secret=SECRET)[0]
    found = record(db, tournament_id)
    now = datetime.now(UTC)
    results = {  # player: (result, play_ms, moves) of each of their games
        "p1": [("won", 5000, 90), ("lost", 1000, 10)],
        "p2": [("won", 5000, 90), ("won", 9000, 100)],
        "p3": [("won", 5000, 80)],
        "p4": [(None, 0, 3)],
        "p5": [("won", 5000, 90), ("lost", 7000, 50)],
        "p6": [("won", 1000, 10)],  # won after the week's end: not counted
    }
    ended = []
    with db.write() as session:
        for player, games in results.items():
            session.add(
                PlayerRecord(id=player, created_at=now, name="Ada" if player == "p3" else None)
            )
            session.flush()
            for k, (result, play_ms, moves) in enumerate(games, start=1):
                game_id = f"{player}-{k}".ljust(24, "x")
                session.add(
                    GameRecord(
                        id=game_id, player_id=player, kind=found.kind, variant=found.variant,
                        deal=1, status="playing", resigned=False, version=1, position="-",
                        cards_left=0, moves_count=moves, play_ms=play_ms, hints_used=0,
                        created_at=now, last_action_at=now,
                    )
                )  # fmt: skip
                session.flush()
                session.add(
                    TournamentGameRecord(
                        tournament_id=tournament_id, k=k, game_id=game_id, player_id=player
                    )
                )
                tournaments.rows.enter(session, tournament_id, player)
                if result is not None:
                    at = found.ends_at + timedelta(hours=1) if player == "p6" else now
                    ended.append((game_id, player, result == "won", play_ms, moves, at))
    for game_id, player, won, play_ms, moves, at in ended:  # as each game's end counts it
        db.transact(
            lambda link, g=game_id, p=player, w=won, ms=play_ms, mv=moves, at=at: (
                tournaments.rows.count_result(
                    link, game_id=g, player_id=p, won=w, play_ms=ms, moves=mv, now=at
                )
            )
        )
    with db.read() as session:
        p6 = tournaments.rows.entrant(session, tournament_id, "p6")
        assert p6 is not None and (p6.entered, p6.played, p6.won) == (1, 0, 0)  # after the week
    shown = tournaments.tournament(db=db, tournament_id=tournament_id, player_id="p5")
    assert [(row.player_id, row.place, row.name) for row in shown.standings] == [
        ("p2", 1, None), ("p3", 2, "Ada"), ("p1", 3, None), ("p5", 3, None), ("p4", 5, None),
        ("p6", 5, None),
    ]  # fmt: skip
    assert shown.summary.mine is not None and shown.summary.mine.played == 2
    # After the week: its winner, kept on its row, and the list of past weeks reads that.
    later = found.ends_at + timedelta(hours=2)
    over = tournaments.tournament(db=db, tournament_id=tournament_id, player_id=None, now=later)
    assert over.summary.over and [w.player_id for w in over.summary.winners] == ["p2"]
    assert (record(db, tournament_id).entrants, record(db, tournament_id).winners) == (6, "p2")
    _this_week, past = tournaments.index(db=db, secret=SECRET, player_id=None, now=later)
    kept = next(summary for summary in past if summary.id == tournament_id)
    assert kept.entrants == 6 and [w.player_id for w in kept.winners] == ["p2"]


ALMOST_WON = """\
Foundations: H-K C-K D-Q S-Q
: KD
: KS
:
:
:
:
:
:
"""


def test_a_running_weeks_games_stay_out_of_public_records(client: TestClient, db: Database) -> None:
    tournament_id = next(
        found for found in this_week(client) if record(db, found).kind == CELLS_GAME[0]
    )
    found = record(db, tournament_id)
    deal = tournaments.deal_numbers(found)[0]
    game_id = client.post(f"/tournaments/{tournament_id}/deals/1").headers["location"][7:]
    with db.write() as session:  # a position one move from the win (tests only)
        session.execute(
            update(GameRecord).where(GameRecord.id == game_id).values(position=ALMOST_WON)
        )
    assert act(client, game_id, "1h", 0).status_code == 303  # won during the week
    with db.read() as session:
        game = session.get(GameRecord, game_id)
        assert game is not None and game.result == "won"
        mine = tournaments.rows.entrant(session, tournament_id, game.player_id)
    # The win is counted in the entrant's totals by the move that made it.
    assert mine is not None and (mine.entered, mine.played, mine.won) == (1, 1, 1)
    assert mine.won_moves == game.moves_count and mine.won_ms == game.play_ms
    assert "1 of 9 played, 1 won" in client.get(f"/tournaments/{tournament_id}").text
    page = client.get(f"/deals/{found.kind}/{deal}")
    assert page.status_code == 200 and "Played 1 time" not in page.text
    assert 'id="by-moves"' not in page.text
    # The week is over: the game counts as any other.
    with db.write() as session:
        session.execute(
            update(TournamentRecord)
            .where(TournamentRecord.id == tournament_id)
            .values(starts_at=found.starts_at - timedelta(7), ends_at=found.starts_at)
        )
    shown = client.get(f"/deals/{found.kind}/{deal}").text
    assert "Played 1 time" in shown and "won 1 time" in shown and 'id="by-moves"' in shown
