"""Races: a few players on the same deal at once, live.

A race is rows (:mod:`app.store.race_models`): made by one player on a deal (a number, a
random deal or a random deal proved winnable) with an optional time limit, joined by up to
:data:`MAX_RACERS`, started by whoever made it. The start deals every racer an ordinary
game of that deal (so resume, replay, records and statistics work on it) and a read-only
watch link to it; the racers' clocks start :data:`COUNTDOWN` later, in server time. Each
racer's progress is read from their game's row; the race ends when every racer has won or
given up, or when its time is up, and its result is then kept on the racers' rows.

It never names a game: the registry says what a deal is and where a position stands.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Final

from app.games import game_kind
from app.rules.history import effective, entry, replay
from app.rules.kind import AnyGameKind
from app.rules.protocol import Position, RuleError
from app.service import deals, proofs, race_feed
from app.service.model import position_of, utcnow
from app.service.play import new_record
from app.service.players import ensure_player
from app.store import Conflict, Database, Session, records
from app.store import races as rows
from app.store.models import GameRecord
from app.store.race_models import RaceRecord, RacerOutcome, RacerRecord, RaceState

MAX_RACERS: Final = 8
LIMITS: Final[tuple[int, ...]] = (5, 10, 15)
"""The time limits offered, in minutes (or none)."""
COUNTDOWN: Final = timedelta(seconds=3)
IDLE_AFTER = timedelta(minutes=30)
"""A race under way in which nobody has moved for this long is ended (``RACE_IDLE_MINUTES``:
:func:`configure`): a racer who closed their tab does not keep it running for ever."""
TOKEN_BYTES: Final = 18
"""144 random bits, 24 URL-safe characters: as unguessable as a game's id."""
TOKEN_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{24}")

Standing = str
"""A racer's standing: ``won``, ``gave_up``, ``playing`` (in the race), ``unfinished``
(the race ended first) or ``waiting`` (not dealt yet)."""


class RaceNotFound(LookupError):
    """No race has this token."""


class RaceRefused(RuleError):
    """What a race cannot do now (a code the web words): ``race.full``, ``race.started``,
    ``race.finished``, ``race.not_creator``, ``race.end_not_creator``, ``race.limit``."""


def configure(*, idle_minutes: int) -> None:
    """The site's settings for races (its app is made with them)."""
    global IDLE_AFTER
    IDLE_AFTER = timedelta(minutes=idle_minutes)


@dataclass(frozen=True, slots=True)
class Racer:
    """A racer as the race's page shows them."""

    joined: int
    name: str | None
    """The display name (None: "anonymous N", N = :attr:`joined`)."""
    player_id: str
    game_id: str | None
    watch_token: str | None
    standing: Standing
    race_ms: int | None
    """Time from the start to the win (a racer who won), else None."""
    moves: int
    cards_left: int
    hinted: bool
    position: Position | None
    version: int = 0
    """The game's version (its actions so far) as read."""
    last_action_at: datetime | None = None
    """When the racer's game last changed (a race in play), for the race's idle end."""


@dataclass(frozen=True, slots=True)
class Race:
    """A race as its page shows it, read at ``now`` (server time)."""

    token: str
    kind: str
    variant: str
    deal: int
    limit_minutes: int | None
    creator_id: str
    state: RaceState
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    racers: tuple[Racer, ...]
    """In the order they joined; once the race is over, in the result's order."""
    now: datetime
    said: tuple[str, ...] = field(default=())

    @property
    def game(self) -> AnyGameKind:
        return game_kind(self.kind)

    @property
    def deadline(self) -> datetime | None:
        if self.started_at is None or self.limit_minutes is None:
            return None
        return self.started_at + timedelta(minutes=self.limit_minutes)

    @property
    def counting_down(self) -> bool:
        """Started, but the racers' clocks have not begun yet."""
        return (
            self.state == "running" and self.started_at is not None and self.now < self.started_at
        )

    @property
    def under_way(self) -> bool:
        return self.state == "running" and not self.counting_down

    @property
    def is_full(self) -> bool:
        return len(self.racers) >= MAX_RACERS

    def racer(self, player_id: str | None) -> Racer | None:
        return next((r for r in self.racers if r.player_id == player_id), None)

    @property
    def elapsed_ms(self) -> int:
        """Race time so far (at its end: when it ended)."""
        if self.started_at is None:
            return 0
        end = self.finished_at or self.now
        return max(0, (end - self.started_at) // timedelta(milliseconds=1))

    @property
    def last_activity(self) -> datetime | None:
        """The race's start, or its racers' last action since (None: not started)."""
        if self.started_at is None:
            return None
        moved = [r.last_action_at for r in self.racers if r.last_action_at is not None]
        return max([self.started_at, *moved])

    @property
    def idle_end(self) -> datetime | None:
        """When the race ends if nobody moves before then (a race under way)."""
        last = self.last_activity
        return None if last is None or self.state != "running" else last + IDLE_AFTER

    @property
    def time_up(self) -> bool:
        """Its time limit has run out (whether or not the race was read as over since)."""
        deadline = self.deadline
        return deadline is not None and self.now >= deadline

    def place_of(self, racer: Racer) -> int | None:
        """A racer who won: their place among the winners (1 for the first), by race time
        then moves, as the result orders them."""
        if racer.standing != "won":
            return None
        ahead = [
            r
            for r in self.racers
            if r.standing == "won" and _result_order(r) < _result_order(racer)
        ]
        return len(ahead) + 1

    @property
    def change(self) -> tuple[object, ...]:
        """What the live region announces changes of: the state, the countdown's end, who
        joined, and each racer's standing (not their moves)."""
        return (self.state, self.under_way, tuple((r.joined, r.standing) for r in self.racers))


def limit_of(text: str) -> int | None:
    """A time limit as a form sends it (minutes, or empty/``none``); refuses any other."""
    text = text.strip()
    if text in ("", "0", "none"):
        return None
    if text.isdecimal() and int(text) in LIMITS:
        return int(text)
    raise RaceRefused(f"no time limit of {text[:8]!r}", "race.limit", text=text[:8])


def checked(kind: str, variant: str | None, deal: int | None, *, winnable: bool) -> str:
    """The variant meant; raises for a game, variant or deal the site does not offer (the
    routes ask before they make a player: a refusal stores nothing)."""
    _rules, variant = deals.checked(kind, variant, deal, proved=winnable and deal is None)
    return variant


@dataclass(frozen=True, slots=True)
class RaceChoice:
    """What a new race is to be: a game, a variant (None: the game's own), a deal (None:
    a random one, proved winnable with ``winnable``) and a time limit in minutes."""

    kind: str
    variant: str | None
    deal: int | None
    winnable: bool
    limit_minutes: int | None


def open_race(*, db: Database, player_id: str | None, choice: RaceChoice) -> tuple[str, str]:
    """A new race as chosen, its maker (made a player if need be, after every check: a
    refusal stores nothing) its first racer: its token and the maker's id."""
    checked(choice.kind, choice.variant, choice.deal, winnable=choice.winnable)
    maker = ensure_player(db=db, player_id=player_id)
    token = create(
        db=db,
        player_id=maker,
        kind=choice.kind,
        variant=choice.variant,
        deal=choice.deal,
        winnable=choice.winnable,
        limit_minutes=choice.limit_minutes,
    )
    return token, maker


def create(
    *,
    db: Database,
    player_id: str,
    kind: str,
    variant: str | None,
    deal: int | None = None,
    winnable: bool = False,
    limit_minutes: int | None = None,
    now: datetime | None = None,
) -> str:
    """A new race, its maker its first racer; its token. ``deal`` None: a random deal (one
    proved winnable with ``winnable``)."""
    if limit_minutes is not None and limit_minutes not in LIMITS:
        raise RaceRefused(f"no time limit of {limit_minutes}", "race.limit", text=limit_minutes)
    rules, variant = deals.checked(kind, variant, deal, proved=winnable and deal is None)
    if deal is None and winnable:
        deal = proofs.random_winnable(kind, variant, secrets.randbelow(1 << 30))
    if deal is None:
        deal = secrets.randbelow(rules.max_deal) + 1
    now = now or utcnow()
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with db.write() as session:
        session.add(
            RaceRecord(
                token=token,
                kind=kind,
                variant=variant,
                deal=deal,
                limit_minutes=limit_minutes,
                creator_id=player_id,
                state="lobby",
                created_at=now,
            )
        )
        session.flush()
        session.add(_racer(session, token, player_id, 1))
    return token


def _racer(session: Session, token: str, player_id: str, joined: int) -> RacerRecord:
    return RacerRecord(
        race_token=token,
        player_id=player_id,
        joined=joined,
        name=rows.player_name(session, player_id),
    )


def refuse_to_join(race: Race, player_id: str | None) -> None:
    """Refuse a join the race cannot take, before a player is made for it (``join``
    checks again, under its lock)."""
    if race.racer(player_id) is not None:
        return
    if race.state == "running":
        raise RaceRefused("the race has started", "race.started")
    if race.state == "finished":
        raise RaceRefused("the race is over", "race.finished")
    if race.is_full:
        raise RaceRefused("the race is full", "race.full", max=MAX_RACERS)


def join(*, db: Database, token: str, player_id: str) -> None:
    """The player joins the race's lobby (joining again changes nothing). Raises
    :class:`RaceNotFound`, or :class:`RaceRefused` for a race full, started or over."""
    _shape(token)
    try:
        with db.write() as session:
            found = _found(session, token, lock=True)
            racers = rows.racers(session, token)
            if any(racer.player_id == player_id for racer, _ in racers):
                return
            _refuse_unless_lobby(found)
            if len(racers) >= MAX_RACERS:
                raise RaceRefused("the race is full", "race.full", max=MAX_RACERS)
            session.add(_racer(session, token, player_id, len(racers) + 1))
    except Conflict:  # another player took that place at the same moment
        raise RaceRefused("the race is full", "race.full", max=MAX_RACERS) from None
    race_feed.changed(db, token)


def start(*, db: Database, token: str, player_id: str, now: datetime | None = None) -> None:
    """Start the race (its maker only): every racer is dealt their game of the deal and a
    watch link to it; the clocks start after the countdown."""
    _shape(token)
    now = now or utcnow()
    begins = now + COUNTDOWN
    with db.write() as session:
        found = _found(session, token, lock=True)
        if found.creator_id != player_id:
            raise RaceRefused("only whoever made the race starts it", "race.not_creator")
        _refuse_unless_lobby(found)
        if not rows.claim_state(session, token, "lobby", "running", {"started_at": begins}):
            raise RaceRefused("the race has started", "race.started")
        for racer, _game in rows.racers(session, token):
            record, _position = new_record(
                racer.player_id, found.kind, found.variant, found.deal, begins
            )
            session.add(record)
            session.flush()
            watch = secrets.token_urlsafe(TOKEN_BYTES)
            records.add_share(session, watch, record.id, now)
            racer.game_id, racer.watch_token = record.id, watch
    race_feed.changed(db, token)


def race(*, db: Database, token: str, now: datetime | None = None) -> Race:
    """The race as it stands at ``now``; a race found over (every racer done, or its time
    up) is ended here, and its result kept. Raises :class:`RaceNotFound`."""
    _shape(token)
    now = now or utcnow()
    with db.look() as link:  # one statement: a race's streams read it often
        read = rows.race_and_racers(link, token)
    if read is None:
        raise RaceNotFound(token[:8])
    seen = _race(*read, now)
    if seen.state == "running" and _over(seen):
        with db.write() as session:
            found = _found(session, token, lock=True)
            if found.state == "running":
                racers = rows.racers(session, token)
                seen = _race(found, racers, now)
                if _over(seen):
                    _finish(session, found, racers, _end_moment(seen))
            found = _found(session, token)
            seen = _race(found, rows.racers(session, token), now)
        race_feed.changed(db, token)
    return seen


def end(*, db: Database, token: str, player_id: str, now: datetime | None = None) -> None:
    """End the race now (its maker only): a race that would otherwise wait for a racer who
    left. The result is kept as the games stand; a lobby ends with nobody dealt."""
    _shape(token)
    now = now or utcnow()
    with db.write() as session:
        found = _found(session, token, lock=True)
        if found.creator_id != player_id:
            raise RaceRefused("only whoever made the race ends it", "race.end_not_creator")
        if found.state == "finished":
            raise RaceRefused("the race is over", "race.finished")
        racers = rows.racers(session, token)
        if found.state == "lobby":
            rows.claim_state(session, token, "lobby", "finished", {"finished_at": now})
            for racer, _game in racers:
                rows.keep_results(session, racer.id, {"outcome": "unfinished", "moves": 0})
        else:
            started = found.started_at or now
            _finish(session, found, racers, max(now, started))
    race_feed.changed(db, token)


def _finish(
    session: Session,
    found: RaceRecord,
    racers: Sequence[tuple[RacerRecord, GameRecord | None]],
    ended: datetime,
) -> None:
    """The race ends at ``ended``: each racer's result as their game stood then."""
    rows.claim_state(session, found.token, "running", "finished", {"finished_at": ended})
    for racer, game in racers:
        kept = _kept(found, game, ended)
        if game is not None and game.last_action_at > ended:
            kept.update(_as_it_was(session, found, game, ended))
        rows.keep_results(session, racer.id, kept)


@dataclass(frozen=True, slots=True)
class Seat:
    """A game's place in its race, as the game's page shows it: the race, the racer whose
    game it is (the race's table and the win's banner read the same values)."""

    race: Race
    racer: Racer

    @property
    def place(self) -> int | None:
        return self.race.place_of(self.racer)


def seat(*, db: Database, token: str, game_id: str) -> Seat | None:
    """The race ``token`` and the racer playing ``game_id`` in it."""
    try:
        found = race(db=db, token=token)
    except RaceNotFound:
        return None
    racer = next((r for r in found.racers if r.game_id == game_id), None)
    return None if racer is None else Seat(found, racer)


def _shape(token: str) -> None:
    if not TOKEN_SHAPE.fullmatch(token):
        raise RaceNotFound(token[:8])


def _found(session: Session, token: str, *, lock: bool = False) -> RaceRecord:
    found = rows.race(session, token, lock=lock)
    if found is None:
        raise RaceNotFound(token[:8])
    return found


def _refuse_unless_lobby(found: RaceRecord) -> None:
    if found.state == "running":
        raise RaceRefused("the race has started", "race.started")
    if found.state == "finished":
        raise RaceRefused("the race is over", "race.finished")


def _over(seen: Race) -> bool:
    if seen.time_up:
        return True
    idle = seen.idle_end
    if seen.under_way and idle is not None and seen.now >= idle:
        return True
    return seen.under_way and all(r.standing in ("won", "gave_up") for r in seen.racers)


def _end_moment(seen: Race) -> datetime:
    """When the race ended: its deadline if its time ran out, the end of its idle spell
    if nobody moved for :data:`IDLE_AFTER`, else the last racer's end."""
    ends = [seen.now]
    if seen.deadline is not None:
        ends.append(seen.deadline)
    if seen.idle_end is not None:
        ends.append(seen.idle_end)
    return min(ends)


_RaceFields = rows.RaceRow | RaceRecord
"""A race's row as read: the streams' one-statement read, or its record (a write)."""
_RacerFields = rows.RacerRow | RacerRecord
_GameFields = rows.RacerGameRow | GameRecord
"""What a race reads of a racer's game."""


def _won_ms(found: _RaceFields, game: _GameFields) -> int | None:
    """Race time of a won game: the start to its winning move (its last action)."""
    if game.status != "won" or found.started_at is None:
        return None
    return max(0, (game.last_action_at - found.started_at) // timedelta(milliseconds=1))


def _kept(found: RaceRecord, game: GameRecord | None, ended: datetime) -> dict[str, object]:
    """A racer's result as the race ended, kept on their row."""
    if game is None:
        return {"outcome": "unfinished", "moves": 0, "hinted": False}
    won_ms = _won_ms(found, game)
    won = won_ms is not None and game.last_action_at <= ended
    outcome: RacerOutcome = "won" if won else "gave_up" if game.resigned else "unfinished"
    return {
        "outcome": outcome,
        "race_ms": won_ms if won else None,
        "moves": game.moves_count,
        "cards_left": game.cards_left,
        "hinted": game.hints_used > 0,
        "position": game.position,
    }


def _as_it_was(
    session: Session, found: RaceRecord, game: GameRecord, ended: datetime
) -> dict[str, object]:
    """A racer who played on past the race's end (its time up before anyone looked): their
    game as it stood then, replayed from its history."""
    actions = [
        entry(kind, notation) for kind, notation in rows.actions_until(session, game.id, ended)
    ]
    kept = effective(actions)
    position = replay(game_kind(found.kind).rules, found.deal, found.variant, kept)
    resigned = any(kind == "resign" for kind, _ in actions)
    return {
        "outcome": "gave_up" if resigned else "unfinished",
        "race_ms": None,
        "moves": sum(1 for kind, _ in kept if kind != "auto"),
        "cards_left": position.cards_left,
        "position": position.to_text(),
    }


def _race(
    found: _RaceFields,
    pairs: Sequence[tuple[_RacerFields, _GameFields | None]],
    now: datetime,
) -> Race:
    racers = [_racer_view(found, racer, game) for racer, game in pairs]
    if found.state == "finished":
        racers.sort(key=_result_order)
    return Race(
        token=found.token,
        kind=found.kind,
        variant=found.variant,
        deal=found.deal,
        limit_minutes=found.limit_minutes,
        creator_id=found.creator_id,
        state=found.state,  # type: ignore[arg-type]  # the CHECK constraint holds it
        created_at=found.created_at,
        started_at=found.started_at,
        finished_at=found.finished_at,
        racers=tuple(racers),
        now=now,
    )


def _racer_view(found: _RaceFields, racer: _RacerFields, game: _GameFields | None) -> Racer:
    who = (racer.joined, racer.name, racer.player_id)  # the first three of every view
    if racer.outcome is not None:  # the race is over: its result as it ended
        text = racer.position
        return Racer(
            *who,
            game_id=racer.game_id,
            watch_token=racer.watch_token,
            standing=racer.outcome,
            race_ms=racer.race_ms,
            moves=racer.moves or 0,
            cards_left=racer.cards_left or 0,
            hinted=bool(racer.hinted),
            position=position_of(found.kind, text) if text else None,
        )
    if game is None:
        return Racer(
            *who,
            game_id=None,
            watch_token=None,
            standing="waiting",
            race_ms=None,
            moves=0,
            cards_left=0,
            hinted=False,
            position=None,
        )
    won_ms = _won_ms(found, game)
    standing = "won" if won_ms is not None else "gave_up" if game.resigned else "playing"
    return Racer(
        *who,
        game_id=racer.game_id,
        watch_token=racer.watch_token,
        standing=standing,
        race_ms=won_ms,
        moves=game.moves_count,
        cards_left=game.cards_left,
        hinted=game.hints_used > 0,
        position=position_of(found.kind, game.position),
        version=game.version,
        last_action_at=game.last_action_at,
    )


def _result_order(racer: Racer) -> tuple[int, int, int, int]:
    """Won first, by time then moves; then the others by progress (fewest cards left);
    ties in the order they joined."""
    if racer.standing == "won":
        return (0, racer.race_ms or 0, racer.moves, racer.joined)
    return (1, racer.cards_left, 0, racer.joined)


__all__ = [
    "COUNTDOWN",
    "LIMITS",
    "MAX_RACERS",
    "Race",
    "RaceNotFound",
    "RaceRefused",
    "Racer",
    "Seat",
    "configure",
    "create",
    "end",
    "join",
    "limit_of",
    "race",
    "seat",
    "start",
]
