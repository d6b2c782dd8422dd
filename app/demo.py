"""Demo data: many finished games with real histories, for trying the statistics at scale.

Every game replays from its deal to its stored position (``solitaire verify`` agrees):
wins use the lines a game's quick search finds (``GameKind.quick_line``); losses are a few
legal moves (and other actions, such as a redeal) and then giving up or running out of
moves. A small pool of such
histories is made once and dealt out among the players, as happens when many people play
the same deals.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from app.games import KINDS as GAMES
from app.games import game_kind
from app.rules.history import Entry
from app.rules.protocol import Position
from app.store import Database, queries
from app.store.ids import new_game_id, new_player_id

KINDS: Final = tuple(
    (kind, variant, (2 if variant == game.rules.default_variant else 1) / len(GAMES) / weights)
    for kind, game in GAMES.items()
    for weights in [len(game.rules.variants) + 1]
    for variant in game.rules.variants
)
"""Every game and variant with its share of the demo games: each game an equal share, its
usual variant played twice as often as another."""
POOL: Final = 40
"""Distinct histories made per game and variant."""
DAYS: Final = 90
BATCH: Final = 2_000


@dataclass(frozen=True, slots=True)
class Template:
    kind: str
    variant: str
    deal: int
    entries: tuple[Entry, ...]
    final: Position
    won: bool
    moves_count: int


def _losing(kind: str, variant: str, deal: int, rng: random.Random) -> Template:
    game = game_kind(kind)
    position = game.rules.new_game(deal, variant)
    entries: list[Entry] = []
    for _ in range(rng.randint(3, 40)):
        moves = position.legal_moves()
        others = game.other_actions(position)
        if others and (not moves or rng.random() < 0.05):
            other = rng.choice(others)
            entries.append((other.kind, other.notation))
            position = position.play(other)
            continue
        if not moves:
            break
        move = rng.choice(moves)
        entries.append(("move", move.notation))
        position = position.play(move)
        while (auto := position.automatic_move()) is not None:
            entries.append(("auto", auto.notation))
            position = position.play(auto)
        if position.outcome() is not None:
            break
    if position.outcome() is None:
        entries.append(("resign", "resign"))
    count = sum(1 for kind_, _ in entries if kind_ == "move")
    return Template(kind, variant, deal, tuple(entries), position, position.is_won(), count)


def _winning(kind: str, variant: str, deal: int) -> Template | None:
    game = game_kind(kind)
    start = game.rules.new_game(deal, variant)
    line = game.quick_line(start)
    if line is None:
        return None
    position = start
    for notation in line:
        position = position.play(position.parse_action(notation))
    entries: tuple[Entry, ...] = tuple(("move", notation) for notation in line)
    return Template(kind, variant, deal, entries, position, position.is_won(), len(entries))


def templates(
    rng: random.Random, size: int = POOL
) -> dict[tuple[str, str], tuple[list[Template], list[Template]]]:
    """(wins, losses) per game and variant, ``size`` losses and up to a quarter as many
    wins (for the games that can find a win quickly)."""
    pools: dict[tuple[str, str], tuple[list[Template], list[Template]]] = {}
    for kind, variant, _ in KINDS:
        rules = game_kind(kind).rules
        losses = [_losing(kind, variant, rng.randint(1, rules.max_deal), rng) for _ in range(size)]
        found = (_winning(kind, variant, rng.randint(1, 32_000)) for _ in range(max(1, size // 4)))
        wins = [won for won in found if won is not None and won.won]
        pools[(kind, variant)] = (wins, [t for t in losses if not t.won])
    return pools


def seed(
    *, db: Database, games: int, now: datetime, players: int | None = None, seed: int = 1
) -> int:
    """Add ``games`` finished games spread over ``players`` players and the last 90 days."""
    rng = random.Random(seed)
    pools = templates(rng, min(POOL, games // 10 + 2))
    player_ids = [new_player_id() for _ in range(players or max(1, games // 50))]
    # Each player has a skill: their chance to win a game that has wins to deal out.
    skill = {player: rng.uniform(0.3, 0.9) for player in player_ids}
    joined = now - timedelta(days=DAYS)
    player_rows: list[dict[str, object]] = [
        {"id": player, "created_at": joined} for player in player_ids
    ]
    with db.write() as session:
        queries.bulk_insert(session, player_rows, [], [])
    made = 0
    while made < games:
        size = min(BATCH, games - made)
        rows, moves = _batch(size, rng, pools, player_ids, skill, now)
        with db.write() as session:
            queries.bulk_insert(session, [], rows, moves)
        made += size
    return made


def _batch(
    size: int,
    rng: random.Random,
    pools: dict[tuple[str, str], tuple[list[Template], list[Template]]],
    player_ids: list[str],
    skill: dict[str, float],
    now: datetime,
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    rows: list[dict[str, object]] = []
    moves: list[dict[str, object]] = []
    weights = [weight for _, _, weight in KINDS]
    for _ in range(size):
        kind, variant, _ = rng.choices(KINDS, weights)[0]
        player = rng.choice(player_ids)
        wins, losses = pools[(kind, variant)]
        won = bool(wins) and rng.random() < skill[player]
        template = rng.choice(wins if won else losses)
        play_ms = int(rng.lognormvariate(12.3 if won else 11.8, 0.5))
        finished = now - timedelta(seconds=rng.uniform(0, DAYS * 86_400))
        created = finished - timedelta(milliseconds=play_ms)
        game_id = new_game_id()
        final = template.final
        rows.append(
            {
                "id": game_id,
                "player_id": player,
                "kind": kind,
                "variant": variant,
                "deal": template.deal,
                "status": "won" if template.won else "lost",
                "result": "won" if template.won else "lost",
                "resigned": template.entries[-1][0] == "resign",
                "version": len(template.entries),
                "position": final.to_text(),
                "score": final.score,
                "cards_left": final.cards_left,
                "moves_count": template.moves_count,
                "play_ms": play_ms,
                "created_at": created,
                "last_action_at": finished,
                "finished_at": finished,
            }
        )
        moves.extend(_history(game_id, template.entries, created, finished))
    return rows, moves


def _history(
    game_id: str, entries: tuple[Entry, ...], start: datetime, end: datetime
) -> Iterator[dict[str, object]]:
    step = (end - start) / max(len(entries), 1)
    for ply, (kind, notation) in enumerate(entries, start=1):
        yield {
            "game_id": game_id,
            "ply": ply,
            "kind": kind,
            "notation": notation,
            "created_at": start + step * ply,
        }
