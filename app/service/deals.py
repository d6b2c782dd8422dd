"""A deal's records, the deals of the day, and starting a deal proved winnable.

Every game and variant of the registry has them; a variant none of whose deals has been
classified (:mod:`app.service.proofs`) has no deal of the day and no winnable start, and
says so. Records rank wins by moves as the site counts them (moves and redeals in force;
automatic moves and undone moves do not count) and by play time, unassisted wins (no
hint, no solution seen) first.
"""

from __future__ import annotations

import functools
import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Final

from app.games import CELLS_GAME, KINDS, game_kind
from app.rules.protocol import Position, Rules, Verdict
from app.service import proofs
from app.service.model import Game, UnknownGameKind, utcnow, view
from app.service.play import start
from app.service.players import ensure_player
from app.store import Database, Session, records
from app.store.records import Win

TOP: Final = 10
"""Wins shown in each table."""
STREAK_DAYS: Final = 400
"""Days of wins read for a streak: longer streaks show as this many."""


@dataclass(frozen=True, slots=True)
class DealRecords:
    kind: str
    variant: str
    deal: int
    played: int
    won: int
    by_moves: list[Win]
    by_time: list[Win]
    verdict: Verdict | None
    """What the shipped proofs say of the deal (None: never classified)."""
    in_rounds: bool
    """A game dealt again between rounds (a redeal): its proof is of the first round."""
    has_cells: bool = False
    """Whether the deal's game has a proved difficulty (``CELLS_GAME``)."""
    fewest_cells: int | None = None
    """The fewest free cells the deal is won with (0-4, 5: not even
    with four, ``proofs.INTRACTABLE``: its proof ran past the budget); None: not searched."""


@dataclass(frozen=True, slots=True)
class DailyTable:
    """One game and variant's deal of a day, and its results that day."""

    kind: str
    variant: str
    day: date
    deal: int | None
    """None: no deal of this variant is proved winnable yet."""
    played: int
    won: int
    wins: list[Win]


@dataclass(frozen=True, slots=True)
class Daily:
    today: date
    tables: list[DailyTable]
    yesterday: list[DailyTable]
    streak: int
    """Days in a row, up to today (or yesterday, before today's is won), on which the
    player won a deal of the day."""
    mine: list[Game]
    """The player's games started as today's deals."""


def checked(
    kind: str, variant: str | None, deal: int | None = None, *, proved: bool = False
) -> tuple[Rules[Position], str]:
    """The rules of ``kind`` and the variant meant (its default when none is given);
    raises :class:`UnknownGameKind` for a kind, variant or deal the site does not offer,
    and (``proved``) for a variant none of whose deals is proved winnable. The routes ask
    before they make a player, so a refusal stores nothing."""
    try:
        rules = game_kind(kind).rules
    except KeyError:
        raise UnknownGameKind(f"unknown game {kind!r}", "game.unknown", text=kind[:32]) from None
    variant = variant or rules.default_variant
    if variant not in rules.variants:
        raise UnknownGameKind(
            f"{rules.name} has no variant {variant!r}",
            "game.unknown_variant",
            game=kind,
            text=variant[:32],
        )
    if deal is not None and not 1 <= deal <= rules.max_deal:
        raise UnknownGameKind(
            f"deal numbers run from 1 to {rules.max_deal:,}, not {deal:,}",
            "game.deal_range",
            max=rules.max_deal,
            deal=deal,
        )
    if proved and not has_winnable(kind, variant):
        raise _none_proved(kind, variant)
    return rules, variant


SHOWN_TEXT: Final = 24
"""Characters of a refused deal number shown back to the player (then an ellipsis)."""


def deal_number(kind: str, variant: str | None, text: str) -> int:
    """The deal ``text`` names (as in a deal's address: digits only); raises
    :class:`UnknownGameKind` for a kind or variant the site does not offer, or a text
    that is no deal number of the game (shown back printable, and cut short)."""
    rules, _variant = checked(kind, variant)
    if text.isascii() and text.isdigit() and len(text) <= len(str(rules.max_deal)):
        deal = int(text)
        if 1 <= deal <= rules.max_deal:
            return deal
    shown = "".join(c if c.isprintable() else "\ufffd" for c in text[:SHOWN_TEXT])
    raise UnknownGameKind(
        f"{text[:SHOWN_TEXT]!r} is not a deal number of {kind}",
        "deal.not_a_number",
        text=shown + ("…" if len(text) > SHOWN_TEXT else ""),
        max=rules.max_deal,
    )


def deal_records(
    *, db: Database, kind: str, variant: str | None, deal: int, now: datetime | None = None
) -> DealRecords:
    """The deal's records: its games but those of a tournament whose week still runs."""
    rules, variant = checked(kind, variant, deal)
    in_rounds = bool(game_kind(kind).other_actions(rules.new_game(deal, variant)))
    now = now or utcnow()
    with db.read() as session:
        played, won = records.deal_counts(session, kind, variant, deal, now)
        wins = functools.partial(records.deal_wins, session, kind, variant, deal)
        by_moves = wins("moves", TOP, now) if won else []
        by_time = wins("time", TOP, now) if won else []
    verdict = proofs.proofs(kind, variant).verdict(deal)
    has_cells = (kind, variant) == CELLS_GAME
    cells = proofs.fewest_cells(deal) if has_cells else None
    return DealRecords(
        kind, variant, deal, played, won, by_moves, by_time, verdict, in_rounds, has_cells, cells
    )


def today(now: datetime | None = None) -> date:
    """The day of the deals of the day: the UTC date."""
    return (now or utcnow()).date()


def daily(*, db: Database, player_id: str | None, now: datetime | None = None) -> Daily:
    now = now or utcnow()
    day = today(now)
    with db.read() as session:
        counts = records.daily_counts(session, day, now)
        tables = [_table(session, kind, v, day, counts, now) for kind, v in _variants()]
        before = day - timedelta(days=1)
        counts = records.daily_counts(session, before, now)
        yesterday = [_table(session, k, v, before, counts, now) for k, v in _variants()]
        won = records.daily_days_won(session, player_id, STREAK_DAYS) if player_id else []
        mine = (
            [view(row) for row in records.daily_games(session, player_id, day)] if player_id else []
        )
    return Daily(day, tables, yesterday, streak(won, day), mine)


def streak(days_won: list[date], day: date) -> int:
    """Days in a row won, newest first in ``days_won``, ending today or yesterday.

    >>> from datetime import date
    >>> streak([date(2026, 12, 1), date(2026, 11, 30), date(2026, 11, 28)], date(2026, 12, 1))
    2
    >>> streak([date(2026, 11, 30)], date(2026, 12, 1)), streak([], date(2026, 12, 1))
    (1, 0)
    """
    expected = day if days_won and days_won[0] == day else day - timedelta(days=1)
    count = 0
    for won in days_won:
        if won != expected:
            break
        count += 1
        expected -= timedelta(days=1)
    return count


def _table(
    session: Session,
    kind: str,
    variant: str,
    day: date,
    counts: dict[tuple[str, str, int], tuple[int, int]],
    now: datetime,
) -> DailyTable:
    deal = proofs.daily_deal(kind, variant, day)
    if deal is None:
        return DailyTable(kind, variant, day, None, 0, 0, [])
    played, won = counts.get((kind, variant, deal), (0, 0))
    wins = records.daily_wins(session, kind, variant, day, deal, TOP, now) if won else []
    return DailyTable(kind, variant, day, deal, played, won, wins)


def _variants() -> list[tuple[str, str]]:
    return [(kind, variant) for kind, game in KINDS.items() for variant in game.rules.variants]


def start_daily(
    *, db: Database, player_id: str, kind: str, variant: str | None, now: datetime | None = None
) -> Game:
    """A new game on today's deal of ``kind``'s ``variant``, marked as today's."""
    _rules, variant = checked(kind, variant)
    now = now or utcnow()
    deal = proofs.daily_deal(kind, variant, today(now))
    if deal is None:
        raise _none_proved(kind, variant)
    return start(
        db=db, player_id=player_id, kind=kind, variant=variant, deal=deal, now=now,
        daily_on=today(now),
    )  # fmt: skip


def start_winnable(
    *, db: Database, player_id: str, kind: str, variant: str | None, now: datetime | None = None
) -> Game:
    """A new game on a deal proved winnable, picked at random among them; never a search."""
    _rules, variant = checked(kind, variant)
    deal = proofs.random_winnable(kind, variant, secrets.randbelow(1 << 30))
    if deal is None:
        raise _none_proved(kind, variant)
    return start(db=db, player_id=player_id, kind=kind, variant=variant, deal=deal, now=now)


def has_winnable(kind: str, variant: str) -> bool:
    return proofs.proofs(kind, variant).winnable_count() > 0


DIFFICULTIES: Final = tuple(proofs.DIFFICULTIES)
"""A new game's difficulty: the fewest free cells its deal needs, proved."""


def start_of_difficulty(
    *, db: Database, player_id: str, difficulty: str, now: datetime | None = None
) -> Game:
    """A new game of ``CELLS_GAME`` on a deal of ``difficulty`` (see
    :data:`proofs.DIFFICULTIES`), picked at random among the deals proved so."""
    check_difficulty(difficulty)
    deal = proofs.random_of_difficulty(difficulty, secrets.randbelow(1 << 30))
    assert deal is not None
    return start(
        db=db,
        player_id=player_id,
        kind=CELLS_GAME[0],
        variant=CELLS_GAME[1],
        deal=deal,
        now=now,
        difficulty=difficulty,
    )


def check_difficulty(difficulty: str) -> None:
    """Raise :class:`UnknownGameKind` when no deal of ``difficulty`` is proved."""
    if not proofs.difficulty_count(difficulty):
        raise _none_proved(*CELLS_GAME)


@dataclass(frozen=True, slots=True)
class Choice:
    """What a new game is dealt on: ``number``, else a deal of ``difficulty`` (the game
    with four free cells), else (``winnable``) a deal proved winnable, else any deal."""

    kind: str
    variant: str | None = None
    number: int | None = None
    difficulty: str | None = None
    winnable: bool = False


def start_chosen(*, db: Database, player_id: str | None, choice: Choice) -> Game:
    """A new game as ``choice`` says, for the player (made now if there is none yet):
    the choice is checked first, so a refusal stores nothing."""
    if choice.number is None and choice.difficulty is not None:
        check_difficulty(choice.difficulty)
    else:
        proved = choice.number is None and choice.winnable
        checked(choice.kind, choice.variant, choice.number, proved=proved)
    owner = ensure_player(db=db, player_id=player_id)
    if choice.number is None and choice.difficulty is not None:
        return start_of_difficulty(db=db, player_id=owner, difficulty=choice.difficulty)
    if choice.number is None and choice.winnable:
        return start_winnable(db=db, player_id=owner, kind=choice.kind, variant=choice.variant)
    return start(
        db=db, player_id=owner, kind=choice.kind, variant=choice.variant, deal=choice.number
    )


def _none_proved(kind: str, variant: str) -> UnknownGameKind:
    return UnknownGameKind(
        f"no deal of {kind} {variant} is proved winnable yet",
        "game.none_proved",
        game=kind,
        variant=variant,
    )
