"""Weekly tournaments: each week (Monday 00:00 UTC to the next) one tournament a game and
variant of :data:`app.games.TOURNAMENT_GAMES`, made by the site when first asked.

Its deals are drawn from a seed of the week, an HMAC of the game, variant and week with the
site's secret key: fixed for the week, not guessable before it starts. The game with a
proved difficulty (:data:`app.games.CELLS_GAME`) gets two deals won with each of 1, 2, 3
and 4 free cells at fewest and one proved impossible (nine deals, in an order from the
seed); any other, eight deals whose verdict is proved (shipped, :mod:`.proofs`).

During the week a tournament is blind (its pages and games show no deal number, verdict
or par, and its games get no help: :mod:`.tournament_marks`); a player has one game a
deal (a unique key holds it). The table ranks entrants by deals won, then the time of the
wins, then their moves; ties share a place. It is kept, not recomputed per request: each
entrant's totals are a row, counted in the transaction that ends one of their games, and a
page of the table is one range of an index in its order.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Final

from app.games import CELLS_GAME, TOURNAMENT_GAMES
from app.rules.protocol import Verdict
from app.service import pars, proofs
from app.service.model import utcnow
from app.service.play import new_record
from app.service.tournament_marks import TournamentRefused
from app.store import Conflict, Database
from app.store import tournaments as rows
from app.store.tournament_models import TournamentGameRecord, TournamentRecord

WEEK: Final = timedelta(days=7)
CELL_DEALS: Final = (1, 2, 3, 4)
"""The fewest free cells of the proved-difficulty game's deals, two deals each."""
EACH: Final = 2
SURE_DEALS: Final = 8
"""Deals of any other game's tournament: proved either way."""
PAGE_SIZE: Final = 50
PAST_SHOWN: Final = 20


class TournamentNotFound(LookupError):
    """No tournament has this id."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One of a tournament's deals as its page shows it: ``number``, ``verdict`` and ``par``
    None while the week runs; ``game_id`` and ``result`` the viewer's game of it, if any."""

    k: int
    number: int | None
    verdict: Verdict | None
    fewest_cells: int | None
    par: int | None
    game_id: str | None
    status: str | None
    result: str | None
    resigned: bool

    @property
    def done(self) -> bool:
        """The viewer's one try of this deal is over (won or given up)."""
        return self.status == "won" or self.resigned


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    player_id: str
    entered: int
    played: int
    won: int
    won_ms: int
    won_moves: int


@dataclass(frozen=True, slots=True)
class Entrant:
    """A row of the table as a page shows it: the standing and the player's display name
    (read for the rows shown, so a name changed shows at once)."""

    standing: Standing
    name: str | None

    @property
    def place(self) -> int:
        return self.standing.place

    @property
    def player_id(self) -> str:
        return self.standing.player_id

    @property
    def played(self) -> int:
        return self.standing.played

    @property
    def won(self) -> int:
        return self.standing.won

    @property
    def won_ms(self) -> int:
        return self.standing.won_ms

    @property
    def won_moves(self) -> int:
        return self.standing.won_moves


@dataclass(frozen=True, slots=True)
class Table:
    """A page of a tournament's table: its rows ranked, how many entered, which page of
    how many, and the viewer's own row (None: not entered)."""

    rows: tuple[Standing, ...]
    entrants: int = 0
    page: int = 1
    pages: int = 1
    mine: Standing | None = None


@dataclass(frozen=True, slots=True)
class Summary:
    """A tournament in a list: what it is, when, whether it is over, its winners (the
    entrants in first place, once over) and how many entered."""

    id: int
    kind: str
    variant: str
    week: date
    starts_at: datetime
    ends_at: datetime
    over: bool
    deals: int
    entrants: int
    winners: tuple[Entrant, ...]
    mine: Standing | None = None

    @property
    def last_moment(self) -> datetime:
        """The week's last second (Sunday 23:59:59 UTC), as players are told it ends."""
        return self.ends_at - timedelta(seconds=1)


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's page: the summary, its deals, and a page of its table."""

    summary: Summary
    deals: tuple[Deal, ...]
    standings: tuple[Entrant, ...]
    page: int
    pages: int


# --- the week and its deals -------------------------------------------------------------


def week_of(moment: datetime) -> date:
    """The Monday (UTC) of ``moment``'s week."""
    day = moment.astimezone(UTC).date()
    return day - timedelta(days=day.weekday())


def week_start(week: date) -> datetime:
    return datetime(week.year, week.month, week.day, tzinfo=UTC)


def seed(secret: str, kind: str, variant: str, week: date) -> int:
    """The week's seed: an HMAC of the game, variant and week with the site's secret."""
    message = f"tournament/{kind}/{variant}/{week.isoformat()}".encode()
    return int.from_bytes(hmac.new(secret.encode(), message, hashlib.sha256).digest(), "big")


def draw(secret: str, kind: str, variant: str, week: date) -> tuple[int, ...]:
    """The week's deals, in the tournament's order."""
    chance = random.Random(seed(secret, kind, variant, week))
    if (kind, variant) == CELLS_GAME:
        found = proofs.fewest_cells_file()
        shipped = proofs.proofs(kind, variant).packed
        if found is None or shipped is None:
            raise LookupError("no fewest free cells shipped to draw a tournament from")
        deals = []
        for cells in CELL_DEALS:
            which = frozenset((cells,))
            picks = chance.sample(range(found.count_of(which)), EACH)
            deals += [found.select(which, pick) for pick in picks]
        impossible = (proofs.CODES["unsolvable"],)
        deals.append(shipped.select(impossible, chance.randrange(shipped.count_of(impossible))))
        chance.shuffle(deals)
        return tuple(deals)
    sure = sorted(
        deal
        for deal, verdict in proofs.proofs(kind, variant).classified().items()
        if verdict != "unknown"
    )
    return tuple(chance.sample(sure, SURE_DEALS))


def deal_numbers(record: TournamentRecord) -> tuple[int, ...]:
    return tuple(int(number) for number in record.deals.split(","))


def ensure_week(*, db: Database, secret: str, now: datetime | None = None) -> list[int]:
    """This week's tournaments (made when first asked: the unique key on the game, variant
    and week lets one request make each, whichever server it is on), in order."""
    now = now or utcnow()
    week = week_of(now)
    return [_ensure(db, secret, kind, variant, week, now) for kind, variant in TOURNAMENT_GAMES]


def _ensure(db: Database, secret: str, kind: str, variant: str, week: date, now: datetime) -> int:
    with db.read() as session:
        found = rows.of_week(session, kind, variant, week)
        if found is not None:
            return found.id
    deals = draw(secret, kind, variant, week)
    start = week_start(week)
    record = TournamentRecord(
        kind=kind,
        variant=variant,
        week=week,
        starts_at=start,
        ends_at=start + WEEK,
        deals=",".join(str(deal) for deal in deals),
        created_at=now,
    )
    try:
        with db.write() as session:
            session.add(record)
            session.flush()
            return record.id
    except Conflict:  # another request (or server) made it first
        with db.read() as session:
            found = rows.of_week(session, kind, variant, week)
            assert found is not None
            return found.id


# --- playing a deal ---------------------------------------------------------------------


def play_deal(
    *, db: Database, tournament_id: int, k: int, player_id: str, now: datetime | None = None
) -> str:
    """The player's one game of the tournament's ``k``-th deal: dealt now, or the one they
    have (in play, or lost and still undoable). Refused (nothing stored): a deal the
    tournament has not, a week that is over, a deal the player won or gave up."""
    now = now or utcnow()
    with db.read() as session:
        record = rows.tournament(session, tournament_id)
        if record is None:
            raise TournamentNotFound(tournament_id)
        deals = deal_numbers(record)
        check_deal(record, k, now)
        mine = {entry.k: entry for entry in rows.entries(session, tournament_id, player_id)}
    existing = mine.get(k)
    if existing is not None:
        if existing.status == "won" or existing.resigned:
            raise TournamentRefused("this deal was played", "tournament.played", num=k)
        return existing.game_id
    game, _position = new_record(player_id, record.kind, record.variant, deals[k - 1], now)
    try:
        with db.write() as session:
            session.add(game)
            session.flush()
            session.add(
                TournamentGameRecord(
                    tournament_id=tournament_id, k=k, game_id=game.id, player_id=player_id
                )
            )
            session.flush()  # the unique key refuses a second game of the deal before the count
            rows.enter(session, tournament_id, player_id)
    except Conflict:  # the same player's other request dealt it first
        with db.read() as session:
            again = {e.k: e for e in rows.entries(session, tournament_id, player_id)}
        if k not in again:
            raise
        return again[k].game_id
    return game.id


def check(*, db: Database, tournament_id: int, k: int, now: datetime | None = None) -> None:
    """Refuse, before anything is stored, a deal that cannot be started: an unknown
    tournament, a deal it has not, a week over or not begun."""
    with db.read() as session:
        record = rows.tournament(session, tournament_id)
        if record is None:
            raise TournamentNotFound(tournament_id)
        check_deal(record, k, now or utcnow())


def check_deal(record: TournamentRecord, k: int, now: datetime) -> None:
    count = len(deal_numbers(record))
    if not 1 <= k <= count:
        raise TournamentRefused("no such deal", "tournament.no_deal", num=k, count=count)
    if now >= record.ends_at:
        raise TournamentRefused("this tournament is over", "tournament.over")
    if now < record.starts_at:
        raise TournamentRefused("this tournament has not begun", "tournament.not_begun")


# --- the table --------------------------------------------------------------------------


def ranked(entrants: Sequence[rows.EntrantRow], first: int = 1, offset: int = 0) -> Table:
    """A page of entrants (in the table's order, from ``offset``) with their places, the
    first row's being ``first``: ties on wins, time and moves share a place (1, 1, 3)."""
    table: list[Standing] = []
    place, last = first, None
    for index, row in enumerate(entrants):
        score = (row.won, row.won_ms, row.won_moves)
        if last is not None and score != last:
            place = offset + index + 1
        last = score
        table.append(Standing(place, *row))
    return Table(tuple(table))


def table(db: Database, tournament_id: int, page: int = 1, player_id: str | None = None) -> Table:
    """A page of the tournament's table, its number of entrants and the player's row: read
    from the entrants' totals (kept as their games end), one range of the table's index
    and a count for the page's first place, whatever the number of entrants or games."""
    with db.read() as session:
        count = rows.entrant_count(session, tournament_id)
        pages = max(1, -(-count // PAGE_SIZE))
        page = min(max(page, 1), pages)
        offset = (page - 1) * PAGE_SIZE
        found = rows.table_page(session, tournament_id, offset, PAGE_SIZE)
        first = rows.place(session, tournament_id, found[0]) if found else 1
        own = rows.entrant(session, tournament_id, player_id) if player_id else None
        mine = Standing(rows.place(session, tournament_id, own), *own) if own else None
    return replace(ranked(found, first, offset), entrants=count, page=page, pages=pages, mine=mine)


def named(db: Database, standings: Sequence[Standing]) -> tuple[Entrant, ...]:
    """The rows shown, with their players' display names."""
    if not standings:
        return ()
    with db.read() as session:
        found = rows.names(session, [standing.player_id for standing in standings])
    return tuple(Entrant(standing, found.get(standing.player_id)) for standing in standings)


# --- pages ------------------------------------------------------------------------------


def _summary(
    db: Database, record: TournamentRecord, now: datetime, player_id: str | None, page: int = 1
) -> tuple[Summary, Table]:
    found = table(db, record.id, page, player_id)
    over = now >= record.ends_at
    first = [s for s in found.rows if s.place == 1 and s.won] if over and found.page == 1 else []
    if over and found.page != 1:
        first = [s for s in table(db, record.id).rows if s.place == 1 and s.won]
    if over and record.entrants is None:
        with db.write() as session:
            winners = ",".join(standing.player_id for standing in first)
            rows.archive(session, record.id, found.entrants, winners[:2000])
    summary = _made(db, record, over, found.entrants, named(db, first), found.mine)
    return summary, found


def _made(
    db: Database,
    record: TournamentRecord,
    over: bool,
    entrants: int,
    winners: tuple[Entrant, ...],
    mine: Standing | None,
) -> Summary:
    return Summary(
        record.id,
        record.kind,
        record.variant,
        record.week,
        record.starts_at,
        record.ends_at,
        over,
        len(deal_numbers(record)),
        entrants,
        winners,
        mine,
    )


def _archived(db: Database, record: TournamentRecord, now: datetime) -> Summary:
    """A past week in a list: from what its row keeps, without reading its table (read
    once, by the first look after the week)."""
    if record.entrants is None or record.winners is None:
        return _summary(db, record, now, None)[0]
    ids = [player_id for player_id in record.winners.split(",") if player_id]
    with db.read() as session:
        found = rows.names(session, ids) if ids else {}
    winners = tuple(
        Entrant(Standing(1, player_id, 0, 0, 0, 0, 0), found.get(player_id)) for player_id in ids
    )
    return _made(db, record, True, record.entrants, winners, None)


def index(
    *, db: Database, secret: str, player_id: str | None, now: datetime | None = None
) -> tuple[list[Summary], list[Summary]]:
    """This week's tournaments (made if need be) and the past ones, the latest first."""
    now = now or utcnow()
    ids = ensure_week(db=db, secret=secret, now=now)
    with db.read() as session:
        current = [rows.tournament(session, id_) for id_ in ids]
        earlier = rows.past(session, now, PAST_SHOWN)
    this_week = [
        _summary(db, record, now, player_id)[0] for record in current if record is not None
    ]
    return this_week, [_archived(db, record, now) for record in earlier]


def tournament(
    *,
    db: Database,
    tournament_id: int,
    player_id: str | None,
    page: int = 1,
    now: datetime | None = None,
) -> Tournament:
    """A tournament's page: blind while its week runs."""
    now = now or utcnow()
    with db.read() as session:
        record = rows.tournament(session, tournament_id)
        if record is None:
            raise TournamentNotFound(tournament_id)
        mine = {e.k: e for e in rows.entries(session, tournament_id, player_id or "")}
    summary, shown = _summary(db, record, now, player_id, page)
    deals = tuple(_deal(db, record, k, number, summary.over, mine.get(k)) for k, number in
                  enumerate(deal_numbers(record), start=1))  # fmt: skip
    return Tournament(summary, deals, named(db, shown.rows), shown.page, shown.pages)


def _deal(
    db: Database,
    record: TournamentRecord,
    k: int,
    number: int,
    over: bool,
    entry: rows.EntryRow | None,
) -> Deal:
    game = (entry.game_id, entry.status, entry.result, entry.resigned) if entry else None
    theirs = game or (None, None, None, False)
    if not over:
        return Deal(k, None, None, None, None, *theirs)
    verdict = proofs.proofs(record.kind, record.variant).verdict(number)
    cells = proofs.fewest_cells(number) if (record.kind, record.variant) == CELLS_GAME else None
    par = None
    if pars.has_par(record.kind):
        known = pars.known(db=db, variant=record.variant, deal=number)
        par = known.moves if known is not None else None
    return Deal(k, number, verdict, cells, par, *theirs)


def history(
    *, db: Database, player_id: str | None, limit: int = 10, now: datetime | None = None
) -> list[Summary]:
    """The tournaments the player entered, the latest first, each with their place."""
    if player_id is None:
        return []
    now = now or utcnow()
    with db.read() as session:
        entered = rows.entered(session, player_id, limit)
    return [_summary(db, record, now, player_id)[0] for record in entered]


def blind_games(
    *, db: Database, player_id: str | None, now: datetime | None = None
) -> frozenset[str]:
    """The player's tournament games whose week still runs (My games hides their deal)."""
    if player_id is None:
        return frozenset()
    with db.read() as session:
        return frozenset(rows.running_games(session, player_id, now or utcnow()))
