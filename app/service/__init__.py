"""The service: the one place that changes a game.

Every change runs in one write transaction: load the game, check the version the player
saw, let the engine apply the action, append the history rows and update the game with a
compare-and-set on its version. A game never changes outside :func:`act`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal

from app.games import rules_for
from app.rules.history import Entry, effective, entry, positions, replay
from app.rules.protocol import (
    HasFoundations,
    IllegalMoveError,
    InvalidMoveError,
    Position,
    RuleError,
    Rules,
)
from app.solve import Answer, Verdict
from app.solve.hint import Hint
from app.solve.pool import Job, SolverBusy, pool
from app.store import Conflict, Database, Session, queries
from app.store.models import GameRecord, MoveRecord, PlayerRecord
from app.store.queries import AnyRow

GAME_ID_BYTES: Final = 18
"""144 random bits, 24 URL-safe characters."""
PLAYER_ID_BYTES: Final = 16
IDLE_CAP: Final = timedelta(seconds=60)
"""Play time counts the gaps between actions, each at most this long: time spent away
from the game (a closed tab, a coffee) does not count."""
UNFINISHED_SHOWN: Final = 20
MAX_AUTO_MOVES: Final = 52
ALL_HOME: Final = "all-home"
"""The action that sends every card that can go home there (right-click on the table)."""


class GameNotFound(LookupError):
    """No game has this id."""


class UnknownGameKind(RuleError):
    """A kind, variant or deal number the site does not offer (a code the web words)."""


class GameOver(IllegalMoveError):
    """The game is won or given up: nothing more can be played."""


class StaleVersion(Exception):
    """The player acted on a position that is no longer the current one."""

    def __init__(self, game: Game) -> None:
        super().__init__(f"game {game.id[:6]}… is at version {game.version}")
        self.game = game


@dataclass(frozen=True, slots=True)
class Game:
    """A game as the pages see it: plain values and the engine's position."""

    id: str
    player_id: str
    kind: str
    variant: str
    deal: int
    status: str
    resigned: bool
    version: int
    position: Position
    score: int | None
    cards_left: int
    moves_count: int
    play_ms: int
    hints_used: int
    created_at: datetime
    last_action_at: datetime
    finished_at: datetime | None

    @property
    def rules(self) -> Rules:
        return rules_for(self.kind)

    @property
    def is_over(self) -> bool:
        return self.status != "playing"

    @property
    def is_final(self) -> bool:
        """Won or given up: no action is left, not even undo."""
        return self.status == "won" or self.resigned

    @property
    def can_undo(self) -> bool:
        return not self.is_final and self.moves_count > 0


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    ply: int
    kind: str
    notation: str
    created_at: datetime


def utcnow() -> datetime:
    return datetime.now(UTC)


# -- players -------------------------------------------------------------------------------


def ensure_player(*, db: Database, player_id: str | None, now: datetime | None = None) -> str:
    """The id of an existing player, or of a new one made now."""
    with db.write() as session:
        if player_id and queries.player(session, player_id) is not None:
            return player_id
        new_id = secrets.token_urlsafe(PLAYER_ID_BYTES)
        session.add(PlayerRecord(id=new_id, created_at=now or utcnow(), auto_moves=True))
        return new_id


def player_exists(*, db: Database, player_id: str) -> bool:
    with db.read() as session:
        return queries.player(session, player_id) is not None


def auto_moves(*, db: Database, player_id: str | None) -> bool:
    """Whether safe cards go home by themselves for this player (on unless turned off)."""
    with db.read() as session:
        return _wants_auto_moves(session, player_id)


def set_auto_moves(*, db: Database, player_id: str, on: bool) -> None:
    with db.write() as session:
        player = queries.player(session, player_id)
        if player is not None:
            player.auto_moves = on


# -- games ---------------------------------------------------------------------------------


def start(
    *,
    db: Database,
    player_id: str,
    kind: str,
    variant: str | None = None,
    deal: int | None = None,
    now: datetime | None = None,
) -> Game:
    """Deal a new game for ``player_id``; a random deal when ``deal`` is None."""
    try:
        rules = rules_for(kind)
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
    now = now or utcnow()
    record = GameRecord(
        id=secrets.token_urlsafe(GAME_ID_BYTES),
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
        **_outcome_values(position, resigned=False, finished_at=None, now=now),
    )
    with db.write() as session:
        session.add(record)
    return _view(record, position)


def restart(
    *, db: Database, game_id: str, version: int, player_id: str, now: datetime | None = None
) -> Game:
    """Give up the game (if still in play) and deal the same deal again, from the start."""
    current = load(db=db, game_id=game_id)
    if not current.is_over:
        act(db=db, game_id=game_id, action="resign", version=version, now=now)
    return start(
        db=db,
        player_id=player_id,
        kind=current.kind,
        variant=current.variant,
        deal=current.deal,
        now=now,
    )


HINT_WAIT: Final = 2.5
"""Seconds a hint waits for the solver (its search takes 0.9 s once it runs)."""
CHECK_WAIT: Final = 1.0
"""Seconds "Still winnable?" waits before answering with what is known so far."""
SOLUTION_WAIT: Final = 3.0

CheckVerdict = Literal["solved", "unsolvable", "unknown", "thinking"]
"""A verdict, or ``thinking``: the search goes on, ask again for its answer."""


def ask_hint(*, db: Database, game_id: str) -> tuple[Game, Hint]:
    """The move to play next (never played for the player); the game counts the hint.

    Raises :class:`SolverBusy` when the solver cannot answer in time (nothing counted)."""
    game = load(db=db, game_id=game_id)
    if game.is_over:
        raise GameOver("the game is over: there is nothing to hint")
    suggestion = pool().ask(_job("hint", game), HINT_WAIT)
    if not isinstance(suggestion, Hint):
        raise SolverBusy
    with db.write() as session:
        record = _get(session, game_id)
        record.hints_used += 1
        return _view(record), suggestion


def winnable(*, db: Database, game_id: str) -> tuple[Game, CheckVerdict, int, int]:
    """Can the game still be won from here? (Montana: can this round be cleared?)

    Answers within about a second: ``thinking`` while the search goes on in the solver's
    process; asking again later gets its answer."""
    game = load(db=db, game_id=game_id)
    result = pool().ask(_job("answer", game), CHECK_WAIT)
    if not isinstance(result, Answer):
        return game, "thinking", 0, 0
    return game, result.verdict, len(result.moves), result.positions


def known_verdict(game: Game) -> tuple[Verdict, int, int] | None:
    """The verdict already found for the game's current position (verdict, line length,
    positions searched), or None; never searches. A player coming back to a position
    sees it again."""
    result = pool().known(_job("answer", game))
    if not isinstance(result, Answer):
        return None
    return result.verdict, len(result.moves), result.positions


def solution_known(*, db: Database, game_id: str) -> bool:
    """Whether the solver's line from the game's position is at hand (no search needed)."""
    return pool().known(_job("answer", load(db=db, game_id=game_id))) is not None


def solution_steps(
    *, db: Database, game_id: str, counted: bool = True
) -> tuple[Game, Verdict, list[HistoryEntry], list[Position]]:
    """The solver's line from the current position, as steps to look at (nothing is played):
    the verdict, the moves, and the position before the first and after each move.

    Seeing a solution is help: the game counts it as a hint (``counted``: once per
    opening; a game is always marked as helped once a solution was seen)."""
    game = load(db=db, game_id=game_id)
    result = pool().ask(_job("answer", game), SOLUTION_WAIT)
    if not isinstance(result, Answer):
        raise SolverBusy
    if result.moves and not game.is_over and (counted or not game.hints_used):
        with db.write() as session:
            record = _get(session, game_id)
            record.hints_used += 1
            game = _view(record, game.position)
    positions = [game.position]
    for notation in result.moves:
        positions.append(positions[-1].play(positions[-1].parse_action(notation)))
    entries = [
        HistoryEntry(ply, "move", notation, game.last_action_at)
        for ply, notation in enumerate(result.moves, start=1)
    ]
    return game, result.verdict, entries, positions


def _job(question: Literal["hint", "answer"], game: Game) -> Job:
    return Job(question, game.kind, game.position.to_text())


def load(*, db: Database, game_id: str) -> Game:
    with db.read() as session:
        return _view(_get_row(session, game_id))


def history(*, db: Database, game_id: str) -> list[HistoryEntry]:
    with db.read() as session:
        _get(session, game_id)
        return [
            HistoryEntry(row.ply, row.kind, row.notation, row.created_at)
            for row in queries.history(session, game_id)
        ]


STATUSES: Final = ("playing", "won", "lost")
PAGE_SIZE: Final = 20


@dataclass(frozen=True, slots=True)
class GamePage:
    games: list[Game]
    total: int
    page: int
    pages: int


def my_games(
    *,
    db: Database,
    player_id: str,
    kind: str | None = None,
    status: str | None = None,
    page: int = 1,
) -> GamePage:
    """The player's games, unfinished first, then newest first, a page at a time."""
    page = max(page, 1)
    with db.read() as session:
        rows, total = queries.player_games(
            session,
            player_id,
            kind=kind,
            status=status,
            offset=(page - 1) * PAGE_SIZE,
            limit=PAGE_SIZE,
        )
        items = [_view(row) for row in rows]
    return GamePage(items, total, page, max(1, -(-total // PAGE_SIZE)))


def replay_steps(*, db: Database, game_id: str) -> tuple[Game, list[HistoryEntry], list[Position]]:
    """The game, its whole history, and the position after each action (0: the deal)."""
    with db.read() as session:
        record = _get(session, game_id)
        rows = queries.history(session, game_id)
        game = _view(record)
        entries = [HistoryEntry(row.ply, row.kind, row.notation, row.created_at) for row in rows]
    steps = positions(
        game.rules, game.deal, game.variant, [entry(e.kind, e.notation) for e in entries]
    )
    return game, entries, steps


@dataclass(frozen=True, slots=True)
class Mismatch:
    game_id: str
    problem: str


def verify(*, db: Database, batch: int = 500) -> tuple[int, list[Mismatch]]:
    """Replay every stored game from its deal; report any that does not reach its stored
    position, whose plies are not 1, 2, 3, … or whose version is not its last ply."""
    checked, after = 0, ""
    problems: list[Mismatch] = []
    while True:
        with db.read() as session:
            records = queries.games_after(session, after, batch)
            if not records:
                return checked, problems
            rows = queries.histories(session, [record.id for record in records])
            for record in records:
                checked += 1
                problem = _check(record, rows[record.id])
                if problem:
                    problems.append(Mismatch(record.id, problem))
            after = records[-1].id


def _check(record: GameRecord, rows: list[MoveRecord]) -> str | None:
    plies = [row.ply for row in rows]
    if plies != list(range(1, len(rows) + 1)):
        return f"plies are not consecutive from 1: {plies[:10]}…"
    if record.version != len(rows):
        return f"version {record.version} but {len(rows)} actions stored"
    rules = rules_for(record.kind)
    try:
        replayed = replay(
            rules, record.deal, record.variant, [entry(r.kind, r.notation) for r in rows]
        )
        stored = rules.parse(record.position)
    except ValueError as error:
        return f"cannot replay: {error}"
    if replayed != stored:
        return "the replayed position differs from the stored one"
    return _check_snapshots(rules, record, rows)


def _check_snapshots(rules: Rules, record: GameRecord, rows: list[MoveRecord]) -> str | None:
    """Each move's stored position before it, and the chain undo follows, as a replay from
    the deal gives them (games begun before snapshots have none: ``undo_top`` is None)."""
    position = rules.new_game(record.deal, record.variant)
    pushed: list[tuple[int, Position]] = []  # the moves undo can take back, and before each
    for row in rows:
        if row.kind == "undo":
            _, position = pushed.pop()
            continue
        if row.kind in ("move", "redeal"):
            top = pushed[-1][0] if pushed else 0
            if record.undo_top is not None and row.before is None:
                return f"ply {row.ply}: no position stored before the move"
            if row.before is not None and rules.parse(row.before) != position:
                return f"ply {row.ply}: the position stored before the move is not the replay's"
            if row.before is not None and row.below != top:
                return f"ply {row.ply}: undo would go on to ply {row.below}, not {top}"
            pushed.append((row.ply, position))
        if row.kind != "resign":
            position = position.play(position.parse_action(row.notation))
    top = pushed[-1][0] if pushed else 0
    if record.undo_top is not None and record.undo_top != top:
        return f"undo would take back ply {record.undo_top}, not {top}"
    return None


def unfinished(*, db: Database, player_id: str) -> list[Game]:
    with db.read() as session:
        return [_view(r) for r in queries.unfinished_games(session, player_id, UNFINISHED_SHOWN)]


@dataclass(frozen=True, slots=True)
class Acted:
    """An action applied: the position it was made on, the game after it, and whether the
    acting player has automatic moves on (read in the same transaction, so the answer's
    page needs no second trip to the database)."""

    before: Position
    game: Game
    auto_moves: bool


def act(
    *,
    db: Database,
    game_id: str,
    action: str,
    version: int,
    player_id: str | None = None,
    now: datetime | None = None,
) -> Game:
    """Apply ``action`` (a move in notation, ``undo`` or ``resign``) made on ``version``.

    Automatic moves follow a move unless the acting player (``player_id``) turned them off.

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
    action: str,
    version: int,
    player_id: str | None = None,
    now: datetime | None = None,
) -> Acted:
    """:func:`act`, also saying what the action was made on: one round trip for a move."""
    now = now or utcnow()
    try:
        return _act(db, game_id, action, version, player_id, now)
    except Conflict:
        # Another request stored the same ply first (the unique key held the line).
        raise StaleVersion(load(db=db, game_id=game_id)) from None


def _act(
    db: Database, game_id: str, action: str, version: int, player_id: str | None, now: datetime
) -> Acted:
    def work(session: Session) -> Acted:
        return _store_action(session, game_id, action, version, player_id, now)

    return db.transact(work)


def _store_action(
    session: Session, game_id: str, action: str, version: int, player_id: str | None, now: datetime
) -> Acted:
    """Apply the action and store it with a compare-and-set on the version, in ``session``'s
    transaction."""
    row = _get_row(session, game_id)
    before = _position(row.kind, row.position)
    if row.version != version:
        raise StaleVersion(_view(row, before))
    auto = _wants_auto_moves(session, player_id) if row.kind == "freecell" else True
    change = _apply(session, row, before, action, auto)
    entries, position = change.entries, change.position
    resigned = row.resigned or entries[0][0] == "resign"
    elapsed = min(max(now - row.last_action_at, timedelta(0)), IDLE_CAP)
    values: dict[str, object] = {
        "version": row.version + len(entries),
        "resigned": resigned,
        "moves_count": change.moves_count,
        "play_ms": row.play_ms + elapsed // timedelta(milliseconds=1),
        "last_action_at": now,
        "undo_top": change.undo_top,
        **_outcome_values(position, resigned, row.finished_at, now),
    }
    if not queries.claim_version(session, game_id, version, values):
        raise StaleVersion(_view(row, before))
    rows: list[dict[str, object]] = [
        {"game_id": game_id, "ply": version + i, "kind": kind, "notation": text,
         "created_at": now, "before": None, "below": None}
        for i, (kind, text) in enumerate(entries, start=1)
    ]  # fmt: skip
    if change.pushes:
        # The move an undo will take back keeps the position before it.
        rows[0].update(before=row.position, below=row.undo_top)
    queries.append_moves(session, rows)
    return Acted(before, _view(row, position, values), auto)


@dataclass(frozen=True, slots=True)
class _Change:
    """What an action does: the history rows it adds, the position after it, the new move
    count and undo top, and whether undo can take it back (a move or a redeal)."""

    entries: list[Entry]
    position: Position
    moves_count: int
    undo_top: int | None
    pushes: bool = False


def _apply(session: Session, row: AnyRow, position: Position, action: str, auto: bool) -> _Change:
    text = " ".join(action.split())
    if row.status == "won":
        raise GameOver("this game is won: start a new one")
    if row.resigned:
        raise GameOver("this game was given up: start a new one")
    if text.lower() == "undo":
        return _undo(session, row)
    if text.lower() == "resign":
        return _Change([("resign", "resign")], position, row.moves_count, row.undo_top)
    if row.status == "lost":
        raise GameOver("no moves are left: undo, or start a new game")
    # A game begun before undo snapshots keeps undoing by replay (its undo_top is None).
    pushed = None if row.undo_top is None else row.version + 1
    if text.lower() == ALL_HOME:
        entries, position = _all_home(position)
        return _Change(entries, position, row.moves_count + 1, pushed, pushes=pushed is not None)
    move = position.parse_action(text)
    position = position.play(move)
    entries = [(move.kind, move.notation)]
    automatic = position.automatic_move()
    if automatic is not None and auto:
        while automatic is not None and len(entries) <= MAX_AUTO_MOVES:
            position = position.play(automatic)
            entries.append(("auto", automatic.notation))
            automatic = position.automatic_move()
    return _Change(entries, position, row.moves_count + 1, pushed, pushes=pushed is not None)


def _undo(session: Session, row: AnyRow) -> _Change:
    """Take back the last move or redeal in force (with the automatic moves after it): the
    position before it is stored on its row, so undo costs what a move costs."""
    rules = rules_for(row.kind)
    snapshot = None
    if row.undo_top is not None:
        if row.undo_top == 0:
            raise IllegalMoveError("nothing to undo")
        snapshot = queries.undo_snapshot(session, row.id, row.undo_top)
    if snapshot is not None and snapshot.before is not None:
        position = _position(row.kind, snapshot.before)
        return _Change([("undo", "undo")], position, row.moves_count - 1, snapshot.below)
    past = [entry(r.kind, r.notation) for r in queries.history(session, row.id)]
    remaining = effective([*past, ("undo", "undo")])
    position = replay(rules, row.deal, row.variant, remaining)
    return _Change([("undo", "undo")], position, _count_moves(remaining), None)


def _wants_auto_moves(session: Session, player_id: str | None) -> bool:
    setting = queries.auto_moves(session, player_id) if player_id else None
    return True if setting is None else setting


def _all_home(position: Position) -> tuple[list[Entry], Position]:
    """Every card that can go home goes, again and again: one move and its follow-ups.

    The first card home is the player's move and the rest are stored as automatic moves, so
    one undo takes the whole sweep back.
    """
    if not isinstance(position, HasFoundations):
        raise InvalidMoveError("this game has no foundations to send cards to")
    entries: list[Entry] = []
    while (move := position.any_home_move()) is not None:
        entries.append(("auto" if entries else "move", move.notation))
        position = position.play(move)
    if not entries:
        raise IllegalMoveError("no card can go home now")
    return entries, position


def _count_moves(entries: list[Entry]) -> int:
    """Moves and redeals in force; automatic moves do not count."""
    return sum(1 for kind, _ in entries if kind != "auto")


def _outcome_values(
    position: Position, resigned: bool, finished_at: datetime | None, now: datetime
) -> dict[str, object]:
    if position.is_won():
        status = "won"
    elif resigned or position.is_lost():
        status = "lost"
    else:
        status = "playing"
    return {
        "status": status,
        "position": position.to_text(),
        "score": position.score,
        "cards_left": position.cards_left,
        "finished_at": None if status == "playing" else finished_at or now,
    }


GAME_ID_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _get(session: Session, game_id: str) -> GameRecord:
    # An id of any other shape names no game: answer so without asking the database.
    record = queries.game(session, game_id) if GAME_ID_SHAPE.fullmatch(game_id) else None
    if record is None:
        raise GameNotFound("no game at this address")
    return record


@functools.lru_cache(maxsize=4096)
def _position(kind: str, text: str) -> Position:
    """Positions are immutable values: the position of a game in play is parsed once, not
    at every request (parsing a Montana grid costs about 0.3 ms)."""
    return rules_for(kind).parse(text)


def _get_row(session: Session, game_id: str) -> AnyRow:
    row = queries.game_row(session, game_id) if GAME_ID_SHAPE.fullmatch(game_id) else None
    if row is None:
        raise GameNotFound("no game at this address")
    return row


GAME_FIELDS: Final = frozenset(field.name for field in dataclasses.fields(Game)) - {"position"}


def _view(
    record: GameRecord | AnyRow,
    position: Position | None = None,
    changes: dict[str, object] | None = None,
) -> Game:
    """The game as the pages see it; ``changes`` are column values just stored."""
    game = Game(
        id=record.id,
        player_id=record.player_id,
        kind=record.kind,
        variant=record.variant,
        deal=record.deal,
        status=record.status,
        resigned=record.resigned,
        version=record.version,
        position=position or _position(record.kind, record.position),
        score=record.score,
        cards_left=record.cards_left,
        moves_count=record.moves_count,
        play_ms=record.play_ms,
        hints_used=record.hints_used,
        created_at=record.created_at,
        last_action_at=record.last_action_at,
        finished_at=record.finished_at,
    )
    if changes:
        fields: dict[str, Any] = {k: v for k, v in changes.items() if k in GAME_FIELDS}
        game = dataclasses.replace(game, **fields)
    return game
