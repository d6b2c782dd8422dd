"""Checking the store: every game replays from its deal to its stored position."""

from __future__ import annotations

from dataclasses import dataclass

from app.games import game_kind
from app.rules.history import entry, replay
from app.rules.protocol import Position, Rules
from app.store import Database, queries
from app.store.models import GameRecord, MoveRecord


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
    rules = game_kind(record.kind).rules
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


def _check_snapshots(
    rules: Rules[Position], record: GameRecord, rows: list[MoveRecord]
) -> str | None:
    """Each move's stored position before it, and the chain undo follows, as a replay from
    the deal gives them (games begun before snapshots have none: ``undo_top`` is None)."""
    position = rules.new_game(record.deal, record.variant)
    pushed: list[tuple[int, Position]] = []  # the moves undo can take back, and before each
    for row in rows:
        if row.kind == "undo":
            _, position = pushed.pop()
            continue
        if row.kind in ("move", "redo"):
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
