"""Statistics per game and variant, for one player or the whole site.

Only finished games count. A game's result is its current one: a loss taken back by undo
is no loss any more. Times are play time (see :data:`app.games.IDLE_CAP`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise
from threading import Lock
from time import monotonic
from typing import Final

from app.caches import Kept
from app.games import GAMES
from app.store import Database
from app.store import stats as queries
from app.store.stats import WIN_TIME_BINS_MINUTES, Scope

RECENT_GAMES: Final = 100
DAYS_SHOWN: Final = 30


@dataclass(frozen=True, slots=True)
class Group:
    kind: str
    variant: str

    """A game and variant whose statistics are counted together (its name, in the reader's
    language, is ``app.web.names.group_name``)."""

    @property
    def slug(self) -> str:
        return f"{self.kind}-{self.variant}"


GROUPS: Final[tuple[Group, ...]] = tuple(
    Group(kind, variant)
    for kind, rules in GAMES.items()
    for variant in sorted(rules.variants, key=lambda v: v != rules.default_variant)
)


def group_for(slug: str) -> Group | None:
    return next((group for group in GROUPS if group.slug == slug), None)


@dataclass(frozen=True, slots=True)
class GroupStats:
    group: Group
    won: int
    lost: int
    current_streak: int
    best_streak: int
    fastest_win_ms: int | None
    median_win_ms: float | None
    mean_win_ms: float | None
    mean_moves_per_win: float | None
    mean_score: float | None
    """Mean score over finished games (a game that keeps a score)."""
    mean_cards_left_lost: float | None
    """Mean cards left on the table in lost games."""
    unfinished: int = 0
    """Games in play with a move in force and no result yet."""

    @property
    def played(self) -> int:
        """Games with a result: won, or lost (a loss stays one after an undo)."""
        return self.won + self.lost

    @property
    def win_percent(self) -> float | None:
        """Wins out of every game begun with a move: an unfinished game counts as not won
        (walking away from a game never keeps a record perfect)."""
        counted = self.played + self.unfinished
        return 100 * self.won / counted if counted else None


@dataclass(frozen=True, slots=True)
class Charts:
    recent: list[bool]
    """Won or not, the last games first to last."""
    win_times: list[tuple[str, int]]
    """(bin label, wins) for the winning-time histogram."""
    days: list[tuple[str, int, int]]
    """(day, won, lost) for each of the last days, oldest first."""
    win_time_edges: list[str] = field(default_factory=list)
    """The minutes where each winning-time bin starts (the axis's labels, between bars)."""


def group_stats(*, db: Database, group: Group, player_id: str | None) -> GroupStats:
    scope = Scope(group.kind, group.variant, player_id)
    with db.read() as session:
        totals = queries.totals(session, scope)
        current, best = queries.streaks(session, scope, totals.lost)
        median = queries.median_win_ms(session, scope, totals.won)
        unfinished = queries.unfinished(session, scope)
    return GroupStats(
        group=group,
        won=totals.won,
        lost=totals.lost,
        current_streak=current,
        best_streak=best,
        fastest_win_ms=totals.fastest_win_ms,
        median_win_ms=median,
        mean_win_ms=totals.mean_win_ms,
        mean_moves_per_win=totals.mean_moves_per_win,
        mean_score=totals.mean_score,
        mean_cards_left_lost=totals.mean_cards_left_lost,
        unfinished=unfinished,
    )


SITE_CACHE_SECONDS: Final = 60.0
"""Everyone's statistics are worked out at most once a minute per server process: with
many games they take a few hundred milliseconds, and nobody needs them to the second."""

SITE_CACHE_BYTES: Final = 256 * 1024
"""Everyone's statistics, per database: a few KB each."""

_site_cache = Kept[tuple[str, int], tuple[float, list[GroupStats]]](
    "site statistics", SITE_CACHE_BYTES, lambda key, value: 4096 + 512 * len(value[1])
)
_site_lock = Lock()


def overview(*, db: Database, player_id: str | None) -> list[GroupStats]:
    """Every game and variant's statistics, for a player or (cached) for everyone."""
    if player_id is not None:
        return [group_stats(db=db, group=group, player_id=player_id) for group in GROUPS]
    key = (str(db.url), db.serial)
    with _site_lock:  # one thread works them out at a time; the others wait for it
        cached = _site_cache.get(key)
        if cached and cached[0] > monotonic():
            return cached[1]
        result = [group_stats(db=db, group=group, player_id=None) for group in GROUPS]
        _site_cache.put(key, (monotonic() + SITE_CACHE_SECONDS, result))
        return result


def charts(*, db: Database, group: Group, player_id: str | None, now: datetime) -> Charts:
    scope = Scope(group.kind, group.variant, player_id)
    first_day = (now - timedelta(days=DAYS_SHOWN - 1)).date()
    since = datetime.combine(first_day, datetime.min.time(), tzinfo=now.tzinfo)
    with db.read() as session:
        recent = queries.recent_results(session, scope, RECENT_GAMES)
        histogram = queries.win_time_histogram(session, scope)
        per_day = queries.results_per_day(session, scope, since)
    edges = ["0", *(str(m) for m in WIN_TIME_BINS_MINUTES)]
    labels = [f"{low}–{high}" for low, high in pairwise(edges)]
    labels.append(f"{WIN_TIME_BINS_MINUTES[-1]}+")
    days = []
    for offset in range(DAYS_SHOWN):
        day = (first_day + timedelta(days=offset)).isoformat()
        won, lost = per_day.get(day, (0, 0))
        days.append((day, won, lost))
    return Charts(
        recent=recent,
        win_times=list(zip(labels, histogram, strict=True)),
        days=days,
        win_time_edges=edges,
    )
