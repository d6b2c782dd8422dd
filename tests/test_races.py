"""The race service: make, join, start, progress read from each racer's game, the end
and its result (on SQLite and PostgreSQL, as every service test)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from app import service
from app.service import proofs, race_clock, races, shares
from app.service.model import TimeUp, UnknownGameKind
from app.store import Database
from app.store.models import GameRecord
from app.store.race_models import RaceRecord, RacerRecord
from tests.own_loop import in_own_thread

T0 = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
ALMOST_WON = "Foundations: H-K C-K D-Q S-Q\n: KD\n: KS\n"


def player(db: Database) -> str:
    return service.ensure_player(db=db, player_id=None)


def count(db: Database, table: type[RaceRecord] | type[RacerRecord]) -> int:
    with db.read() as session:
        return int(session.scalar(select(func.count()).select_from(table)) or 0)


def started(db: Database, racers: int = 2, **options: object) -> tuple[str, list[str]]:
    """A FreeCell race on deal 1 with ``racers`` racers, started at T0 (clocks at T0+3 s)."""
    players = [player(db) for _ in range(racers)]
    token = races.create(db=db, player_id=players[0], kind="freecell", variant=None, deal=1,
                         now=T0, **options)  # type: ignore[arg-type]  # fmt: skip
    for other in players[1:]:
        races.join(db=db, token=token, player_id=other)
    races.start(db=db, token=token, player_id=players[0], now=T0)
    return token, players


def game_of(race: races.Race, player_id: str) -> str:
    racer = race.racer(player_id)
    assert racer is not None and racer.game_id is not None
    return racer.game_id


def test_a_race_is_made_in_its_lobby_with_its_maker_the_first_racer(db: Database) -> None:
    maker = player(db)
    token = races.create(db=db, player_id=maker, kind="montana", variant="easy", deal=7, now=T0)
    race = races.race(db=db, token=token, now=T0)
    assert len(token) == 24 and races.TOKEN_SHAPE.fullmatch(token)
    assert (race.kind, race.variant, race.deal, race.state) == ("montana", "easy", 7, "lobby")
    assert race.limit_minutes is None and race.started_at is None
    assert [(r.joined, r.player_id, r.standing) for r in race.racers] == [(1, maker, "waiting")]


def test_a_random_deal_and_a_random_winnable_deal(db: Database) -> None:
    maker = player(db)
    token = races.create(db=db, player_id=maker, kind="freecell", variant=None, winnable=True)
    race = races.race(db=db, token=token)
    assert proofs.proofs("freecell", "standard").verdict(race.deal) == "solved"
    token = races.create(db=db, player_id=maker, kind="montana", variant=None, limit_minutes=15)
    race = races.race(db=db, token=token)
    assert 1 <= race.deal <= race.game.rules.max_deal and race.limit_minutes == 15


@pytest.mark.parametrize("limit", [1, 3, 20, 60])
def test_a_time_limit_not_offered_is_refused_and_nothing_stored(db: Database, limit: int) -> None:
    maker = player(db)
    with pytest.raises(races.RaceRefused) as refused:
        races.create(db=db, player_id=maker, kind="freecell", variant=None, limit_minutes=limit)
    assert refused.value.code == "race.limit"
    assert count(db, RaceRecord) == 0


@pytest.mark.parametrize("text", ["", "0", "none", "5", "10", "15"])
def test_the_limits_a_form_may_send(text: str) -> None:
    assert races.limit_of(text) == (int(text) if text.isdecimal() and text != "0" else None)


@pytest.mark.parametrize("text", ["7", "-5", "5.0", "abc", "16"])
def test_other_limits_a_form_sends_are_refused(text: str) -> None:
    with pytest.raises(races.RaceRefused):
        races.limit_of(text)


@pytest.mark.parametrize(
    ("kind", "variant", "deal"),
    [("chess", None, 1), ("freecell", "nine-cells", 1), ("freecell", None, 0),
     ("freecell", None, 10**9), ("montana", None, -3)],
)  # fmt: skip
def test_a_game_variant_or_deal_not_offered_is_refused(
    db: Database, kind: str, variant: str | None, deal: int
) -> None:
    maker = player(db)
    with pytest.raises(UnknownGameKind):
        races.create(db=db, player_id=maker, kind=kind, variant=variant, deal=deal)
    assert count(db, RaceRecord) == 0


def test_players_join_in_order_once_each_up_to_eight(db: Database) -> None:
    players = [player(db) for _ in range(9)]
    token = races.create(db=db, player_id=players[0], kind="freecell", variant=None, deal=1)
    for other in players[1:8]:
        races.join(db=db, token=token, player_id=other)
    races.join(db=db, token=token, player_id=players[3])  # again: nothing changes
    race = races.race(db=db, token=token)
    assert [r.player_id for r in race.racers] == players[:8]
    assert [r.joined for r in race.racers] == list(range(1, 9))
    assert race.is_full
    with pytest.raises(races.RaceRefused) as refused:
        races.join(db=db, token=token, player_id=players[8])
    assert refused.value.code == "race.full"
    assert count(db, RacerRecord) == 8


def test_a_racer_is_named_as_in_the_records_or_anonymous(db: Database) -> None:
    named, unnamed = player(db), player(db)
    from app.service import names

    names.set_name(db=db, player_id=named, text="Asha")
    token = races.create(db=db, player_id=unnamed, kind="freecell", variant=None, deal=1)
    races.join(db=db, token=token, player_id=named)
    race = races.race(db=db, token=token)
    assert [(r.joined, r.name) for r in race.racers] == [(1, None), (2, "Asha")]


@pytest.mark.parametrize("token", ["", "x", "a" * 24, "!" * 24, "a" * 200])
def test_an_unknown_or_malformed_token_names_no_race(db: Database, token: str) -> None:
    with pytest.raises(races.RaceNotFound):
        races.race(db=db, token=token)
    with pytest.raises(races.RaceNotFound):
        races.join(db=db, token=token, player_id=player(db))
    with pytest.raises(races.RaceNotFound):
        races.start(db=db, token=token, player_id=player(db))


def test_only_its_maker_starts_a_race(db: Database) -> None:
    maker, other = player(db), player(db)
    token = races.create(db=db, player_id=maker, kind="freecell", variant=None, deal=1)
    races.join(db=db, token=token, player_id=other)
    with pytest.raises(races.RaceRefused) as refused:
        races.start(db=db, token=token, player_id=other)
    assert refused.value.code == "race.not_creator"
    race = races.race(db=db, token=token)
    assert race.state == "lobby" and all(r.game_id is None for r in race.racers)


def test_the_start_deals_every_racer_an_ordinary_game_and_a_watch_link(db: Database) -> None:
    token, players = started(db, 3)
    race = races.race(db=db, token=token, now=T0)
    assert race.state == "running" and race.started_at == T0 + races.COUNTDOWN
    for racer, who in zip(race.racers, players, strict=True):
        game = service.load(db=db, game_id=game_of(race, who))
        assert (game.kind, game.variant, game.deal) == ("freecell", "standard", 1)
        assert game.player_id == who
        assert game.version == 0 and game.status == "playing"
        assert racer.watch_token is not None
        assert shares.watched(db=db, token=racer.watch_token).id == game.id
    assert len({r.game_id for r in race.racers}) == 3


def test_a_started_race_takes_no_one_more_and_is_not_started_again(db: Database) -> None:
    token, players = started(db)
    with pytest.raises(races.RaceRefused) as refused:
        races.join(db=db, token=token, player_id=player(db))
    assert refused.value.code == "race.started"
    with pytest.raises(races.RaceRefused):
        races.start(db=db, token=token, player_id=players[0])
    races.join(db=db, token=token, player_id=players[1])  # a racer already: nothing changes


def test_the_countdown_is_three_seconds_of_server_time(db: Database) -> None:
    token, _ = started(db)
    assert races.race(db=db, token=token, now=T0 + timedelta(seconds=2.9)).counting_down
    race = races.race(db=db, token=token, now=T0 + timedelta(seconds=3))
    assert race.under_way and not race.counting_down
    assert races.race(db=db, token=token, now=T0 + timedelta(seconds=63)).elapsed_ms == 60_000


def test_progress_moves_and_hints_are_read_from_each_racers_game(db: Database) -> None:
    token, players = started(db)
    race = races.race(db=db, token=token, now=T0)
    first = game_of(race, players[0])
    later = T0 + timedelta(seconds=10)
    service.act(db=db, game_id=first, action="3a", version=0, now=later)
    service.apply(db=db, game_id=first, action=service.CountHint(), version=None, now=later)
    race = races.race(db=db, token=token, now=later)
    one, two = race.racers
    assert (one.moves, one.hinted, one.standing) == (1, True, "playing")
    assert (two.moves, two.hinted) == (0, False)
    assert one.position is not None and race.game.progress(one.position) == "Cards home: 0"


def _force(db: Database, game_id: str, text: str) -> None:
    with db.write() as session:
        session.execute(update(GameRecord).where(GameRecord.id == game_id).values(position=text))


def test_a_race_ends_when_every_racer_has_won_or_given_up_and_keeps_its_result(
    db: Database,
) -> None:
    token, players = started(db, 3)
    race = races.race(db=db, token=token, now=T0)
    winner, quitter, slower = (game_of(race, p) for p in (players[1], players[0], players[2]))
    _force(db, winner, ALMOST_WON)
    service.act(db=db, game_id=winner, action="1h", version=0, now=T0 + timedelta(seconds=75))
    _force(db, slower, ALMOST_WON)
    service.act(db=db, game_id=slower, action="1h", version=0, now=T0 + timedelta(seconds=90))
    service.act(db=db, game_id=quitter, action="resign", version=0, now=T0 + timedelta(seconds=95))
    race = races.race(db=db, token=token, now=T0 + timedelta(seconds=96))
    assert race.state == "finished" and race.finished_at == T0 + timedelta(seconds=96)
    assert [r.player_id for r in race.racers] == [players[1], players[2], players[0]]
    assert [r.standing for r in race.racers] == ["won", "won", "gave_up"]
    assert [r.race_ms for r in race.racers] == [72_000, 87_000, None]
    # What a racer does afterwards changes no result.
    service.restart(db=db, game_id=winner, version=2, player_id=players[1])
    assert races.race(db=db, token=token).racers == race.racers


def test_when_the_time_is_up_the_others_are_ranked_by_progress(db: Database) -> None:
    token, players = started(db, 3, limit_minutes=5)
    race = races.race(db=db, token=token, now=T0)
    ahead = game_of(race, players[2])
    service.act(db=db, game_id=ahead, action="6a", version=0, now=T0 + timedelta(seconds=30))
    version = service.load(db=db, game_id=ahead).version
    service.act(db=db, game_id=ahead, action="6b", version=version, now=T0 + timedelta(seconds=40))
    behind = game_of(race, players[0])
    service.act(db=db, game_id=behind, action="6a", version=0, now=T0 + timedelta(seconds=50))
    race = races.race(db=db, token=token, now=T0 + timedelta(minutes=4))
    assert race.state == "running"
    race = races.race(db=db, token=token, now=T0 + timedelta(minutes=6))
    assert race.state == "finished"
    assert race.finished_at == T0 + races.COUNTDOWN + timedelta(minutes=5)
    assert [r.player_id for r in race.racers] == [players[2], players[0], players[1]]
    assert [r.standing for r in race.racers] == ["unfinished"] * 3
    assert [r.cards_left for r in race.racers] == [49, 52, 52]
    assert [r.moves for r in race.racers] == [2, 1, 0]
    with pytest.raises(races.RaceRefused) as refused:
        races.join(db=db, token=token, player_id=player(db))
    assert refused.value.code == "race.finished"


def test_the_result_order_wins_by_time_then_moves_then_progress() -> None:
    def racer(joined: int, standing: str, ms: int | None, moves: int, left: int) -> races.Racer:
        return races.Racer(joined, None, str(joined), None, None, standing, ms, moves, left,
                           False, None)  # fmt: skip

    field = [
        racer(1, "gave_up", None, 10, 40),
        racer(2, "won", 90_000, 120, 0),
        racer(3, "unfinished", None, 50, 12),
        racer(4, "won", 90_000, 100, 0),
        racer(5, "won", 60_000, 130, 0),
    ]
    assert [r.joined for r in sorted(field, key=races._result_order)] == [5, 4, 2, 3, 1]


def test_a_move_in_a_race_game_is_announced_after_its_commit(db: Database) -> None:
    from app.service import race_feed

    token, players = started(db)

    async def run() -> None:
        feed = race_feed.install(db, max_streams=10, per_address=10)
        heard: list[str] = []
        feed.deliver = heard.append  # type: ignore[method-assign]
        feed.start()
        await asyncio.wait_for(feed.listening.wait(), 30)  # PostgreSQL: its LISTEN is in place

        def moves() -> None:
            race = races.race(db=db, token=token, now=T0)
            game = service.start(db=db, player_id=players[0], kind="freecell")  # in no race
            service.act(db=db, game_id=game.id, action="3a", version=0)
            service.act(db=db, game_id=game_of(race, players[0]), action="3a", version=0)

        await asyncio.to_thread(moves)  # as the move route's worker threads
        deadline = time.monotonic() + 30
        while not heard and time.monotonic() < deadline:  # another connection's NOTIFY
            await asyncio.sleep(0.01)
        assert heard == [token]
        await feed.aclose()

    in_own_thread(run)


def test_with_redis_a_move_reaches_every_process_through_pub_sub(
    db: Database, redis_url: str | None
) -> None:
    from app.service import race_fanout, race_feed

    if redis_url is None:
        pytest.skip("no redis-server")
    token, players = started(db)
    game = game_of(races.race(db=db, token=token, now=T0), players[0])

    async def run() -> None:
        feeds = [race_feed.Feed(race_fanout.Redis(redis_url), max_streams=10, per_address=10)
                 for _ in range(2)]  # fmt: skip
        heard: list[list[str]] = [[], []]
        for feed, notes in zip(feeds, heard, strict=True):
            feed.deliver = notes.append  # type: ignore[method-assign]
            feed.start()
            await asyncio.wait_for(feed.listening.wait(), 30)
        await asyncio.to_thread(lambda: feeds[0].publish(race_clock.race_of(db, game)))
        deadline = time.monotonic() + 30
        while not all(heard) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert heard == [[token], [token]]
        for feed in feeds:
            await feed.aclose()

    in_own_thread(run)


def test_what_a_racer_plays_after_the_time_is_up_does_not_count(db: Database) -> None:
    token, players = started(db, 2, limit_minutes=5)
    race = races.race(db=db, token=token, now=T0)
    late, quitter = game_of(race, players[0]), game_of(race, players[1])
    service.act(db=db, game_id=late, action="6a", version=0, now=T0 + timedelta(seconds=30))
    version = service.load(db=db, game_id=late).version
    # Past the limit, before anyone looked at the race: a move is refused (whether or not
    # the site has a live feed), a give-up is taken but counts for nothing.
    with pytest.raises(TimeUp):
        service.act(
            db=db, game_id=late, action="6b", version=version, now=T0 + timedelta(minutes=7)
        )
    assert service.load(db=db, game_id=late).version == version
    service.act(db=db, game_id=quitter, action="resign", version=0, now=T0 + timedelta(minutes=7))
    race = races.race(db=db, token=token, now=T0 + timedelta(minutes=8))
    assert race.state == "finished"
    kept = {r.player_id: r for r in race.racers}
    assert (kept[players[0]].moves, kept[players[0]].cards_left) == (1, 52)
    assert kept[players[0]].standing == "unfinished"
    assert kept[players[1]].standing == "unfinished"  # gave up only after the end
    assert race_clock.race_of(db, late) == token


def test_a_games_race_is_kept_only_for_a_game_that_exists(db: Database) -> None:
    token, players = started(db, 1)
    raced = game_of(races.race(db=db, token=token, now=T0), players[0])
    alone = service.start(db=db, player_id=players[0], kind="freecell").id
    made_up = "Q" * len(alone)
    assert race_clock.race_of(db, raced) == token
    assert race_clock.race_of(db, alone) == ""
    assert race_clock.race_of(db, made_up) == ""
    kept = race_clock._races  # bounded by bytes; an id a client made up takes no place
    assert kept.get((db.serial, raced)) == token and kept.get((db.serial, alone)) == ""
    assert kept.get((db.serial, made_up)) is None


def test_a_montana_racers_progress_is_cards_in_place_and_redeals_left(db: Database) -> None:
    maker = player(db)
    token = races.create(db=db, player_id=maker, kind="montana", variant="easy", deal=7, now=T0)
    races.start(db=db, token=token, player_id=maker, now=T0)
    (racer,) = races.race(db=db, token=token, now=T0).racers
    assert racer.position is not None
    game = service.load(db=db, game_id=game_of(races.race(db=db, token=token), maker))
    left = game.position.redeals_left  # type: ignore[attr-defined]
    words = races.race(db=db, token=token).game.progress(racer.position)
    assert words == f"In place: {game.score} · redeals left: {left}"
