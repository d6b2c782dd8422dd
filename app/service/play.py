"""The one place that changes a game: starting, acting, restarting.

Every change runs in one write transaction: load the game, check the version the player
saw, let the engine apply the command, append the history rows and update the game with a
compare-and-set on its version. A game never changes outside :func:`apply`: a hint
counted (:class:`~app.service.commands.CountHint`) and a restart go through it too.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Final, NoReturn

from app.games import game_kind
from app.rules.history import Entry, effective, entry, redoable, replay
from app.rules.kind import Sweep
from app.rules.protocol import (
    Action,
    AutoHome,
    IllegalMoveError,
    Position,
    RuleError,
)
from app.service import race_clock, race_feed
from app.service.commands import (
    AskVerdict,
    Between,
    Command,
    CountHint,
    Play,
    Redo,
    Resign,
    Undo,
    parse,
)
from app.service.model import (
    IDLE_CAP,
    Game,
    GameOver,
    NotBegun,
    StaleVersion,
    TimeUp,
    UnknownGameKind,
    get_row,
    outcome_values,
    position_of,
    utcnow,
    view,
)
from app.service.players import DEFAULT_SETTINGS, Settings, table_settings
from app.service.tournament_marks import refuse_restart
from app.store import Conflict, Database, Link, queries
from app.store import tournaments as tournament_rows
from app.store.ids import new_game_id
from app.store.models import GameRecord
from app.store.rows import GameChanges, GameRow

MAX_AUTO_MOVES: Final = 52
ZERO: Final = timedelta(0)


def start(
    *,
    db: Database,
    player_id: str,
    kind: str,
    variant: str | None = None,
    deal: int | None = None,
    now: datetime | None = None,
    daily_on: date | None = None,
    difficulty: str | None = None,
) -> Game:
    """Deal a new game for ``player_id``; a random deal when ``deal`` is None. ``daily_on``
    marks it as that day's deal of the day (:mod:`app.service.deals`)."""
    record, position = _new_record(player_id, kind, variant, deal, now or utcnow())
    record.daily_on = daily_on
    record.difficulty = difficulty
    with db.write() as session:
        session.add(record)
    return view(record, position)


def restart(
    *, db: Database, game_id: str, version: int, player_id: str, now: datetime | None = None
) -> Game:
    """Give up the game (if still in play) and deal the same deal again, from the start:
    one transaction, so a restart is never half done. The restart names the ``version``
    it was asked on and is applied once: asked again on that version (a double click,
    eight tabs at once), it answers the game the first one dealt."""
    refuse_restart(db, game_id)
    now = now or utcnow()
    restart_of = f"{game_id}:{version}"
    try:
        with db.write() as session:  # rare: a session of its own, for the new record
            link = db.link(session)
            row = get_row(link, game_id)
            if row.version != version:
                raise Conflict("restarted on another version")
            if row.status == "playing":
                _store(link, game_id, Resign(), version, None, now)
            record, position = _new_record(player_id, row.kind, row.variant, row.deal, now)
            record.restart_of = restart_of
            session.add(record)
    except Conflict:
        with db.read() as session:
            dealt = queries.restarted(session, restart_of)
            if dealt is not None:
                return view(dealt)
        _stale(db, game_id)
    return view(record, position)


@dataclass(frozen=True, slots=True)
class Acted:
    """A command applied: the position it was made on, the game after it, and the acting
    player's settings where the game makes automatic moves (read in the same transaction,
    so the answer's page needs no second trip to the database; the defaults otherwise)."""

    before: Position
    game: Game
    settings: Settings
    action: Action | None = None
    """The player's move as the engine read it (a drop's places made into its move), before
    any automatic ones; None for an undo, a resign or a hint."""
    played: Position | None = None
    """The position right after the player's move, before any automatic ones."""
    automatic: int = 0
    """How many automatic moves followed it."""


def act(
    *,
    db: Database,
    game_id: str,
    action: str | Command,
    version: int | None,
    player_id: str | None = None,
    now: datetime | None = None,
) -> Game:
    """Apply ``action`` (a command, or the text of one: a move in notation, ``undo``,
    ``resign``, ``all-home``) made on ``version``.

    Automatic moves follow a move as the acting player (``player_id``) wants them: none,
    the safe cards (the default) or every card that can go home.

    Raises :class:`GameNotFound`, :class:`StaleVersion`, :class:`GameOver`, or the engine's
    ``InvalidMoveError`` / ``IllegalMoveError``; nothing is stored then.
    """
    return apply(
        db=db, game_id=game_id, action=action, version=version, player_id=player_id, now=now
    ).game


def apply(
    *,
    db: Database,
    game_id: str,
    action: str | Command,
    version: int | None,
    player_id: str | None = None,
    now: datetime | None = None,
) -> Acted:
    """:func:`act`, also saying what the action was made on: one round trip for a move.

    ``version`` None applies to whatever version is current (only :class:`CountHint`,
    which adds no ply, may be applied so)."""
    command = parse(action) if isinstance(action, str) else action
    moment = now or utcnow()
    closes = race_clock.closes_at(db, game_id)

    def work(link: Link) -> Acted:
        return _store(link, game_id, command, version, player_id, moment, closes)

    try:
        acted = db.transact(work)
    except Conflict:
        _stale(db, game_id)
    race_feed.moved(db, game_id)  # committed: a race this game is in hears of it
    return acted


def _stale(db: Database, game_id: str) -> NoReturn:
    """Another request stored the same ply first (the unique key held the line)."""
    with db.look() as link:
        raise StaleVersion(view(get_row(link, game_id))) from None


def _new_record(
    player_id: str, kind: str, variant: str | None, deal: int | None, now: datetime
) -> tuple[GameRecord, Position]:
    try:
        rules = game_kind(kind).rules
    except KeyError:
        raise UnknownGameKind(f"unknown game {kind!r}", "game.unknown", text=kind[:32]) from None
    variant = variant or rules.default_variant
    if variant not in rules.variants:
        choices = ", ".join(rules.variants)
        raise UnknownGameKind(
            f"{rules.name} has no variant {variant!r} (choose {choices})",
            "game.unknown_variant",
            game=kind,
            text=variant[:32],
        )
    if deal is None:
        deal = secrets.randbelow(rules.max_deal) + 1
    if not 1 <= deal <= rules.max_deal:
        raise UnknownGameKind(
            f"deal numbers run from 1 to {rules.max_deal:,}, not {deal:,}",
            "game.deal_range",
            max=rules.max_deal,
            deal=deal,
        )
    position = rules.new_game(deal, variant)
    record = GameRecord(
        id=new_game_id(),
        player_id=player_id,
        kind=kind,
        variant=variant,
        deal=deal,
        version=0,
        moves_count=0,
        play_ms=0,
        hints_used=0,
        resigned=False,
        created_at=now,
        last_action_at=now,
        undo_top=0,
        **outcome_values(position, resigned=False, finished_at=None, now=now),
    )
    return record, position


new_record = _new_record
"""A new game's row, not stored yet (a race deals its racers' games in its own transaction)."""


def _store(
    link: Link,
    game_id: str,
    command: Command,
    version: int | None,
    player_id: str | None,
    now: datetime,
    closes: datetime | None = None,
) -> Acted:
    """Apply the command and store it with a compare-and-set on the version, in
    ``link``'s transaction; past ``closes`` (its race's time up), only giving up."""
    row = get_row(link, game_id)
    before = position_of(row.kind, row.position)
    if closes is not None and now >= closes and not isinstance(command, Resign | AskVerdict):
        time_up = TimeUp("the race's time is up: this game takes no more moves", "game.time_up")
        time_up.game = view(row, before)
        raise time_up
    if now < row.created_at:  # a race's game, dealt for the end of its countdown
        error = NotBegun("this game has not begun yet: wait for the countdown", "game.not_begun")
        error.game = view(row, before)
        raise error
    if isinstance(command, CountHint | AskVerdict):
        return _no_ply(link, row, before, command)
    if version is None or row.version != version:
        raise StaleVersion(view(row, before))
    uses = game_kind(row.kind).uses_auto_moves
    wanted = table_settings(link, player_id, row) if uses else DEFAULT_SETTINGS
    try:
        change = _change(link, row, before, command, wanted.auto_home)
    except RuleError as error:
        error.game = view(row, before)  # the page that says why shows the game as it is
        raise
    entries, position = change.entries, change.position
    resigned = row.resigned or isinstance(command, Resign)
    # The clock starts at the first action: the time before it (reading the deal) is free.
    elapsed = min(max(now - row.last_action_at, timedelta(0)), IDLE_CAP) if row.version else ZERO
    values = GameChanges(
        version=row.version + len(entries),
        resigned=resigned,
        moves_count=change.moves_count,
        play_ms=row.play_ms + elapsed // timedelta(milliseconds=1),
        last_action_at=now,
        undo_top=change.undo_top,
        redo_count=change.redo_count,
        **outcome_values(position, resigned, row.finished_at, now, row.result),
    )
    if not queries.claim_version(link, game_id, version, values):
        raise StaleVersion(view(row, before))
    result = values.get("result")
    if result is not None and row.result is None:  # the game ends: a tournament's table counts it
        tournament_rows.count_result(
            link, game_id=game_id, player_id=row.player_id, won=result == "won",
            play_ms=values["play_ms"], moves=values["moves_count"], now=now,
        )  # fmt: skip
    rows: list[dict[str, object]] = [
        {"game_id": game_id, "ply": version + i, "kind": kind, "notation": text,
         "created_at": now, "before": None, "below": None}
        for i, (kind, text) in enumerate(entries, start=1)
    ]  # fmt: skip
    if change.pushes:
        # The move an undo will take back keeps the position before it.
        rows[0].update(before=row.position, below=row.undo_top)
    queries.append_moves(link, rows)
    game = view(row, position, values)
    return Acted(before, game, wanted, change.action, change.played, change.automatic)


def _no_ply(link: Link, row: GameRow, position: Position, command: Command) -> Acted:
    """One more hint (or solution) seen, or "Still winnable?" asked at this position: no
    ply, the version stays."""
    values = (
        GameChanges(hints_used=row.hints_used + 1)
        if isinstance(command, CountHint)
        else GameChanges(verdict_position=row.position)
    )
    if not queries.claim_version(link, row.id, row.version, values):
        raise StaleVersion(view(row, position))
    return Acted(position, view(row, position, values), DEFAULT_SETTINGS)


@dataclass(frozen=True, slots=True)
class _Change:
    """What a command does: the history rows it adds, the position after it, the new move
    count, undo top and redo count, and whether undo can take it back (a move, a redeal
    or a redo)."""

    entries: list[Entry]
    position: Position
    moves_count: int
    undo_top: int | None
    redo_count: int = 0
    pushes: bool = False
    played: Position | None = None
    action: Action | None = None

    @property
    def automatic(self) -> int:
        return sum(1 for kind, _ in self.entries if kind == "auto")


def _change(
    link: Link, row: GameRow, position: Position, command: Command, auto: AutoHome
) -> _Change:
    if row.status == "won":
        raise GameOver("this game is won: start a new one", "game.won")
    if row.resigned:
        raise GameOver("this game was given up: start a new one", "game.given_up")
    if isinstance(command, Undo):
        return _undo(link, row)
    if isinstance(command, Resign):
        return _Change(
            [("resign", "resign")], position, row.moves_count, row.undo_top, row.redo_count
        )
    if isinstance(command, Redo):
        return _redo(link, row, position)
    if row.status == "lost":
        raise GameOver("no moves are left: undo, or start a new game", "game.no_moves_left")
    # A game begun before undo snapshots keeps undoing by replay (its undo_top is None).
    pushed = None if row.undo_top is None else row.version + 1
    moves = row.moves_count + 1
    sweeps = game_kind(row.kind).sweeps
    sweep = sweeps.get(command.text.lower()) if isinstance(command, Play) else None
    if sweep is not None:
        entries, position = _swept(position, sweep)
        return _Change(entries, position, moves, pushed, pushes=pushed is not None)
    if isinstance(command, Between):
        move = position.action_between(command.source, command.target, command.count)
    else:
        assert isinstance(command, Play)
        move = position.parse_action(command.text)  # the one place a move's text is read
    entries, played, position = _play(position, move, auto)
    return _Change(
        entries, position, moves, pushed, pushes=pushed is not None, played=played, action=move
    )


def _play(
    position: Position, move: Action, auto: AutoHome
) -> tuple[list[Entry], Position, Position]:
    """The move, then the automatic moves after it (as many as the player's ``auto`` mode
    sends): the history rows (the actions' notation, as they are stored), the position
    right after the move, and the one after them all."""
    position = played = position.play(move)
    entries: list[Entry] = [(move.kind, move.notation)]
    automatic = position.automatic_move(auto)
    while automatic is not None and len(entries) <= MAX_AUTO_MOVES:
        position = position.play(automatic)
        entries.append(("auto", automatic.notation))
        automatic = position.automatic_move(auto)
    return entries, played, position


def _undo(link: Link, row: GameRow) -> _Change:
    """Take back the last move or redeal in force (with the automatic moves after it): the
    position before it is stored on its row, so undo costs what a move costs."""
    snapshot = None
    if row.undo_top is not None:
        if row.undo_top == 0:
            raise IllegalMoveError("nothing to undo", "nothing_to_undo")
        snapshot = queries.undo_snapshot(link, row.id, row.undo_top)
    if snapshot is not None and snapshot.before is not None:
        position = position_of(row.kind, snapshot.before)
        return _Change(
            [("undo", "undo")], position, row.moves_count - 1, snapshot.below, row.redo_count + 1
        )
    past = [entry(r.kind, r.notation) for r in queries.moves(link, row.id)]
    remaining = effective([*past, ("undo", "undo")])
    position = replay(game_kind(row.kind).rules, row.deal, row.variant, remaining)
    return _Change([("undo", "undo")], position, _count_moves(remaining), None, row.redo_count + 1)


def _redo(link: Link, row: GameRow, position: Position) -> _Change:
    """Bring back what the last undo took back, with the automatic moves that came with
    it, from the history (only a redo reads it): stored as ``redo`` and ``auto`` rows."""
    if row.redo_count <= 0:
        raise IllegalMoveError("nothing to redo", "nothing_to_redo")
    past = [entry(r.kind, r.notation) for r in queries.moves(link, row.id)]
    waiting = redoable(past)
    if not waiting:
        raise IllegalMoveError("nothing to redo", "nothing_to_redo")
    group = waiting[-1]
    played: Position | None = None
    action: Action | None = None
    entries: list[Entry] = []
    for kind, notation in group:
        move = position.parse_action(notation)  # read from the history
        position = position.play(move)
        entries.append(("redo", notation) if not entries else ("auto", notation))
        played, action = played or position, action or move
        assert kind == "auto" or len(entries) == 1
    pushed = None if row.undo_top is None else row.version + 1
    return _Change(
        entries,
        position,
        row.moves_count + 1,
        pushed,
        len(waiting) - 1,
        pushes=pushed is not None,
        played=played,
        action=action,
    )


def _swept(position: Position, sweep: Sweep[Position]) -> tuple[list[Entry], Position]:
    """A game's own command ("All home"): its first action is stored as the player's move
    and the rest as automatic moves, so one undo takes the whole sweep back."""
    entries: list[Entry] = []
    for action in sweep.actions(position):
        entries.append(("auto" if entries else "move", action.notation))
        position = position.play(action)
    return entries, position


def _count_moves(entries: list[Entry]) -> int:
    """Moves and redeals in force; automatic moves do not count."""
    return sum(1 for kind, _ in entries if kind != "auto")
