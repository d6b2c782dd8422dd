"""Ratings: Glicko-2 for players and for deals, per game and variant, one period a UTC day.

A finished, unassisted game is a match between its player and its deal: a win beats the
deal, a loss or a give-up loses to it. Games with a hint or a solution seen, and the games
of races, never move a rating (:func:`app.store.ratings.excluded_game_ids` is the one
place that says which games are left out). Every game's default variant is rated (the
registry's: standard deals, the Expert grid); any other variant once it has
:data:`ENOUGH_GAMES` unassisted games finished (its games from that day on are rated).

A day is rated once it is over, by the site itself (:func:`compute`: ``solitaire ratings``,
and a task of each server at start-up and then daily). Its matches are read and the
ratings worked out outside any write; then one short write transaction takes the periods'
row lock, checks that no one rated the day meanwhile, and stores it. Running it again, on
any server, at any time, rates nothing twice.

A deal never played yet has a rating all the same, seeded from its proof: the fewest free
cells it needs (:data:`SEED_BY_CELLS`), else its verdict (:func:`seed`)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from app.games import CELLS_GAME, KINDS, game_kind
from app.ratings.glicko2 import Match, Rating, idle, rate
from app.service import proofs
from app.service.model import utcnow
from app.store import Database, Session
from app.store import ratings as store
from app.store.rating_models import Subject
from app.store.ratings import PeriodGame, Standing

ENOUGH_GAMES: Final = 200
"""Unassisted games a variant other than its game's default needs before it is rated: with
fewer, most of its deals and players would stay at their seeds and the figures say little."""
PROVISIONAL: Final = 110.0
"""A deviation above this is shown as "provisional" (a newcomer starts at 350; about 15
games at an even chance bring it below)."""
SEED_BY_CELLS: Final[dict[int, float]] = {0: 1250, 1: 1350, 2: 1500, 3: 1650, 4: 1800, 5: 2400}
"""A first rating of a deal of ``CELLS_GAME`` from the fewest free cells it needs (5: cannot
be won even with four, so no one beats it)."""
SEED_DEVIATION: Final = 200.0
"""How sure a seed is: a proof says much of a deal, less than a few hundred games."""
SEED_BY_VERDICT: Final[dict[str, float]] = {"solved": 1400, "unsolvable": 2400}
"""Any other deal's first rating from its verdict (unknown: 1500)."""
SEED_IN_ROUNDS_UNSOLVABLE: Final = 1650
"""A game dealt again between rounds whose first round cannot be cleared: still winnable
after a redeal, only harder."""
HISTORY_SHOWN: Final = 120
"""Periods a player's chart draws at most."""

logger = logging.getLogger("solitaire.ratings")


class PeriodNotOver(ValueError):
    """A day is rated once it is over (UTC)."""

    def __init__(self, day: date) -> None:
        super().__init__(f"the period {day.isoformat()} is not over yet (UTC)")
        self.day = day


@dataclass(frozen=True, slots=True)
class Period:
    """What rating one day did (``rated`` False: another server had rated it already)."""

    day: date
    games: int
    players: int
    deals: int
    rated: bool = True


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as a page shows it: rounded, its deviation grown with the periods since."""

    rating: int
    deviation: int
    games: int
    provisional: bool
    seeded: bool = False
    """A deal not played yet: its rating is its seed."""


def _rated_variants() -> list[tuple[str, str]]:
    return [(kind, variant) for kind, game in KINDS.items() for variant in game.rules.variants]


def is_default(kind: str, variant: str) -> bool:
    return game_kind(kind).rules.default_variant == variant


@functools.cache
def _in_rounds(kind: str, variant: str) -> bool:
    """Whether ``kind``'s ``variant`` is dealt again between rounds (its proofs are of the
    first round). Cached: one answer a game and variant of the registry."""
    rules = game_kind(kind).rules
    return bool(game_kind(kind).other_actions(rules.new_game(1, variant)))


def seed(kind: str, variant: str, deal: int) -> Rating:
    """A deal's rating before its first rated game, from what is proved of it."""
    if (kind, variant) == CELLS_GAME:
        cells = proofs.fewest_cells(deal)
        if cells is not None and cells in SEED_BY_CELLS:
            return Rating(SEED_BY_CELLS[cells], SEED_DEVIATION)
    verdict = proofs.proofs(kind, variant).verdict(deal)
    if verdict == "unsolvable" and _in_rounds(kind, variant):
        return Rating(SEED_IN_ROUNDS_UNSOLVABLE, SEED_DEVIATION)
    if verdict in SEED_BY_VERDICT:
        return Rating(SEED_BY_VERDICT[verdict], SEED_DEVIATION)
    return Rating()


def _bounds(day: date) -> tuple[datetime, datetime]:
    start = datetime.combine(day, time(), tzinfo=UTC)
    return start, start + timedelta(days=1)


def _days_idle(period: date, since: date) -> int:
    """Periods with no match between the one ``since`` and ``period``, both excluded."""
    return max((period - since).days - 1, 0)


def _before(standing: Standing | None, period: date, fallback: Rating) -> Rating:
    """A subject's rating at the start of ``period``: as stored, grown by the idle periods."""
    if standing is None:
        return fallback
    kept = Rating(standing.rating, standing.deviation, standing.volatility)
    return idle(kept, _days_idle(period, standing.period))


@dataclass(slots=True)
class _Worked:
    games: list[str]
    players: list[Standing]
    deals: list[Standing]


def _work(session: Session, kind: str, variant: str, day: date) -> _Worked | None:
    """One game and variant's period: its games and every rating they move (no write)."""
    start, end = _bounds(day)
    if not is_default(kind, variant) and (
        store.finished_count(session, kind, variant, end) < ENOUGH_GAMES
    ):
        return None
    games = store.period_games(session, kind, variant, start, end)
    if not games:
        return None
    by_player: dict[str, list[PeriodGame]] = defaultdict(list)
    by_deal: dict[int, list[PeriodGame]] = defaultdict(list)
    for game in games:
        by_player[game.player_id].append(game)
        by_deal[game.deal].append(game)
    players = store.standings(session, "player", kind, variant, by_player)
    deals = store.standings(session, "deal", kind, variant, (str(d) for d in by_deal))
    player_before = {p: _before(players.get(p), day, Rating()) for p in by_player}
    deal_before = {d: _before(deals.get(str(d)), day, seed(kind, variant, d)) for d in by_deal}

    def standing(subject_id: str, after: Rating, old: Standing | None, played: int) -> Standing:
        games_before = old.games if old is not None else 0
        return Standing(
            subject_id,
            after.rating,
            after.deviation,
            after.volatility,
            games_before + played,
            day,
        )

    new_players = []
    for player, played in by_player.items():
        matches: list[Match] = [(deal_before[g.deal], 1.0 if g.won else 0.0) for g in played]
        after = rate(player_before[player], matches)
        new_players.append(standing(player, after, players.get(player), len(played)))
    new_deals = []
    for deal, played in by_deal.items():
        matches = [(player_before[g.player_id], 0.0 if g.won else 1.0) for g in played]
        after = rate(deal_before[deal], matches)
        new_deals.append(standing(str(deal), after, deals.get(str(deal)), len(played)))
    return _Worked([game.id for game in games], new_players, new_deals)


def _first_day(db: Database) -> date | None:
    with db.read() as session:
        last = store.last_period(session)
        if last is not None:
            return last + timedelta(days=1)
        first = store.first_finished(session)
    return first.date() if first is not None else None


def compute(
    *, db: Database, until: date | None = None, now: datetime | None = None
) -> list[Period]:
    """Rates every day not rated yet up to ``until`` (default: yesterday, UTC), oldest
    first; a day not over yet raises :class:`PeriodNotOver`."""
    today = (now or utcnow()).astimezone(UTC).date()
    until = until or today - timedelta(days=1)
    if until >= today:
        raise PeriodNotOver(until)
    day = _first_day(db)
    done: list[Period] = []
    while day is not None and day <= until:
        done.append(rate_period(db=db, day=day))
        day += timedelta(days=1)
    return done


def rate_period(*, db: Database, day: date) -> Period:
    """Rates one day, if it is the next one to rate (else nothing: :attr:`Period.rated`
    False). The day before it must be rated already, or none yet."""
    with db.read() as session:
        seen = store.last_period(session)
        if seen is not None and seen >= day:
            return Period(day, 0, 0, 0, rated=False)
        worked = {
            (kind, variant): found
            for kind, variant in _rated_variants()
            if (found := _work(session, kind, variant, day)) is not None
        }
    with db.write() as session:
        if store.last_period(session, lock=True) != seen:
            return Period(day, 0, 0, 0, rated=False)  # another server rated it meanwhile
        for (kind, variant), found in worked.items():
            _keep(session, kind, variant, day, found)
        store.set_last_period(session, day)
    period = Period(
        day,
        sum(len(w.games) for w in worked.values()),
        sum(len(w.players) for w in worked.values()),
        sum(len(w.deals) for w in worked.values()),
    )
    logger.info(
        "rated %s: %d games, %d players, %d deals",
        day.isoformat(),
        period.games,
        period.players,
        period.deals,
    )
    return period


def _keep(session: Session, kind: str, variant: str, day: date, found: _Worked) -> None:
    store.keep_standings(session, "player", kind, variant, found.players)
    store.keep_standings(session, "deal", kind, variant, found.deals)
    store.keep_history(session, kind, variant, day, found.players)
    store.keep_rated(session, day, found.games)


def _shown(rating: Rating, games: int, seeded: bool = False) -> Shown:
    return Shown(
        round(rating.rating),
        round(rating.deviation),
        games,
        rating.deviation > PROVISIONAL,
        seeded,
    )


def _now_of(
    session: Session, subject: Subject, kind: str, variant: str, id_: str
) -> tuple[Rating, int] | None:
    found = store.standings(session, subject, kind, variant, [id_]).get(id_)
    if found is None:
        return None
    last = store.last_period(session) or found.period
    kept = Rating(found.rating, found.deviation, found.volatility)
    return idle(kept, (last - found.period).days), found.games


def deal_rating(*, db: Database, kind: str, variant: str, deal: int) -> Shown | None:
    """A deal's rating now: its seed before its first rated game in its game's default
    variant; None in another variant before its first rated game."""
    with db.read() as session:
        found = _now_of(session, "deal", kind, variant, str(deal))
    if found is not None:
        return _shown(*found)
    return _shown(seed(kind, variant, deal), 0, seeded=True) if is_default(kind, variant) else None


@dataclass(frozen=True, slots=True)
class PlayerRating:
    kind: str
    variant: str
    shown: Shown
    history: list[tuple[date, float, float]]
    """The rating and deviation after each period played, oldest first."""


def player_rating(*, db: Database, player_id: str, kind: str, variant: str) -> PlayerRating | None:
    """The player's rating in ``kind``'s ``variant`` and its history; None before their
    first rated game there."""
    with db.read() as session:
        found = _now_of(session, "player", kind, variant, player_id)
        if found is None:
            return None
        points = store.history(session, player_id, kind, variant, HISTORY_SHOWN)
    return PlayerRating(kind, variant, _shown(*found), points)


def rated_games(*, db: Database, game_ids: Sequence[str]) -> set[str]:
    """Which of ``game_ids`` moved their player's rating."""
    if not game_ids:
        return set()
    with db.read() as session:
        return store.rated_among(session, game_ids)


RETRY_SECONDS: Final = 600.0
"""A daily run that failed (the database away) tries again this much later."""
AFTER_MIDNIGHT_SECONDS: Final = 60.0
"""The daily run starts this long after midnight (UTC): the day's last games are in."""


def seconds_to_next_run(now: datetime) -> float:
    """From ``now`` to the next daily run.

    >>> seconds_to_next_run(datetime(2026, 12, 4, 23, 59, tzinfo=UTC))
    120.0
    """
    midnight = datetime.combine(now.astimezone(UTC).date() + timedelta(days=1), time(), tzinfo=UTC)
    return (midnight - now).total_seconds() + AFTER_MIDNIGHT_SECONDS


async def daily(db: Database) -> None:
    """Rates the days not rated yet, now and then each day after midnight (UTC), until
    cancelled; a run that fails is logged and tried again later. Each run is a thread's:
    the server's loop goes on meanwhile."""
    while True:
        try:
            await asyncio.to_thread(compute, db=db)
            wait = seconds_to_next_run(utcnow())
        except Exception:
            logger.exception("rating the days not rated yet failed; trying again later")
            wait = RETRY_SECONDS
        await asyncio.sleep(wait)
