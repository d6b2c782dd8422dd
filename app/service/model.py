"""What the service hands up: a game as plain values, its history entries, and the reasons
an action changes nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Final

from app.caches import Kept, text_size
from app.games import game_kind
from app.rules.kind import AnyGameKind
from app.rules.protocol import Action, IllegalMoveError, Position, RuleError, Rules
from app.store import Link, Session, queries
from app.store.ids import GAME_ID_SHAPE
from app.store.models import GameRecord, GameResult, GameStatus
from app.store.rows import GameChanges, GameRow

IDLE_CAP: Final = timedelta(seconds=60)
"""Play time counts the gaps between actions, each at most this long: time spent away
from the game (a closed tab, a coffee) does not count. The page's running clock gets it
from the page (``data-idle-cap-ms``)."""


class GameNotFound(LookupError):
    """No game has this id."""


class UnknownGameKind(RuleError):
    """A kind, variant or deal number the site does not offer (a code the web words)."""


class GameOver(IllegalMoveError):
    """The game is won or given up: nothing more can be played."""


class NotBegun(IllegalMoveError):
    """The game is dealt for a moment still to come (a race's countdown): nothing can be
    played on it yet."""


class TimeUp(IllegalMoveError):
    """The game's race ran out of time: the game takes no more moves (giving up still)."""


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
    status: GameStatus
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
    result: str | None = None
    """The result on the player's record (``won``, ``lost``): a loss stays one."""
    verdict_position: str | None = None
    """The position at which this game last asked "Still winnable?" (its answer shows
    there, and when the game comes back to it)."""
    redo_count: int = 0
    """Undone moves Redo can bring back."""
    text: str = ""
    """The position as stored (its notation), when read from the row: the key the
    solver's kept answers are found by, without writing the position out again."""
    daily_on: date | None = None
    """The UTC date whose deal of the day this game was started as (None: any other)."""
    difficulty: str | None = None
    """The difficulty the game was dealt for, when one was chosen (:mod:`.deals`)."""

    @property
    def game(self) -> AnyGameKind:
        """The game this is (its rules, view and words), from the registry."""
        return game_kind(self.kind)

    @property
    def rules(self) -> Rules[Position]:
        return self.game.rules

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

    @property
    def can_redo(self) -> bool:
        return not self.is_final and self.redo_count > 0


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One stored action; ``action`` is it read against the position it was made on, for
    the steps a page words (None for an undo or a resign, and for a plain listing)."""

    ply: int
    kind: str
    notation: str
    created_at: datetime
    action: Action | None = None


PLAYED_KINDS: Final = frozenset({"move", "auto", "redo"})
"""The kinds of stored action that play a move on the board."""


def read_steps(
    entries: Iterable[HistoryEntry], positions: Sequence[Position]
) -> list[HistoryEntry]:
    """``entries`` with their actions, each read once against the position before it
    (``positions[i]``)."""
    return [
        replace(e, action=before.parse_action(e.notation)) if e.kind in PLAYED_KINDS else e
        for e, before in zip(entries, positions, strict=False)
    ]


def utcnow() -> datetime:
    return datetime.now(UTC)


def get_record(session: Session, game_id: str) -> GameRecord:
    # An id of any other shape names no game: answer so without asking the database.
    record = queries.game(session, game_id) if GAME_ID_SHAPE.fullmatch(game_id) else None
    if record is None:
        raise GameNotFound("no game at this address")
    return record


def get_row(link: Link, game_id: str) -> GameRow:
    row = queries.game_row(link, game_id) if GAME_ID_SHAPE.fullmatch(game_id) else None
    if row is None:
        raise GameNotFound("no game at this address")
    return row


POSITIONS_BYTES: Final = 16 * 1024 * 1024
"""Parsed positions kept per process, by their text: the games in play (a position holds
its cards as small shared values; :func:`position_size` counts it)."""


def position_size(key: tuple[str, str], position: Position) -> int:
    """A kept position: its text twice (the key, and about as much again in the value's
    tuples of shared cards)."""
    return text_size(*key) + 8 * len(key[1])


_positions = Kept[tuple[str, str], Position]("positions", POSITIONS_BYTES, position_size)


def position_of(kind: str, text: str) -> Position:
    """Positions are immutable values: the position of a game in play is parsed once, not
    at every request (parsing a 52-cell grid costs about 0.1 ms); the ones used last are
    kept by their text, up to :data:`POSITIONS_BYTES`. ``text`` is a stored game's."""
    found = _positions.get((kind, text))
    if found is None:
        found = keep_position(kind, text, game_kind(kind).rules.parse(text))
    return found


def keep_position(kind: str, text: str, position: Position) -> Position:
    """Keep ``position`` under ``text``: the position a move made is the one the next move
    starts from, read back as text from the game's row."""
    return _positions.put((kind, text), position)


GAME_FIELDS: Final = frozenset(field.name for field in dataclasses.fields(Game)) - {
    "position",
    "text",
}


def view(
    record: GameRecord | GameRow,
    position: Position | None = None,
    changes: GameChanges | None = None,
) -> Game:
    """The game as the pages see it; ``changes`` are column values just stored."""
    new = changes or GameChanges()
    text = new.get("position", record.position)
    game = Game(
        id=record.id,
        player_id=record.player_id,
        kind=record.kind,
        variant=record.variant,
        deal=record.deal,
        status=new.get("status", record.status),
        resigned=new.get("resigned", record.resigned),
        version=new.get("version", record.version),
        position=position or position_of(record.kind, text),
        score=new.get("score", record.score),
        cards_left=new.get("cards_left", record.cards_left),
        moves_count=new.get("moves_count", record.moves_count),
        play_ms=new.get("play_ms", record.play_ms),
        hints_used=new.get("hints_used", record.hints_used),
        created_at=record.created_at,
        last_action_at=new.get("last_action_at", record.last_action_at),
        finished_at=new.get("finished_at", record.finished_at),
        result=new.get("result", record.result),
        verdict_position=new.get("verdict_position", record.verdict_position),
        redo_count=new.get("redo_count", record.redo_count),
        text=text,
        daily_on=record.daily_on,
        difficulty=record.difficulty,
    )
    if position is not None:  # made by the service: the next request reads it as text
        keep_position(game.kind, game.text, position)
    return game


def outcome_values(
    position: Position,
    resigned: bool,
    finished_at: datetime | None,
    now: datetime,
    result: GameResult | None = None,
) -> GameChanges:
    """The game row's columns that follow from its position and the result already on
    record (``result``): a loss once reached stays the result, and its moment
    (``finished_at``) stays too, whatever follows (an undo back into play, a win)."""
    ended = position.outcome()
    status: GameStatus = ended or ("lost" if resigned else "playing")
    if result != "lost" and status != "playing":
        result, finished_at = status, finished_at or now
    return GameChanges(
        status=status,
        position=position.to_text(),
        score=position.score,
        cards_left=position.cards_left,
        result=result,
        finished_at=finished_at if result else None,
    )
