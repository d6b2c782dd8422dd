"""The rules engine: pure Python, no I/O, no web, no database, no clock.

Each game is one module exposing a :class:`~app.rules.protocol.Rules` value named
``RULES``; :data:`GAMES` maps a game's kind to it, so the layers above handle every game
the same way.
"""

from __future__ import annotations

from typing import Final

from app.rules import freecell, montana
from app.rules.protocol import Rules

GAMES: Final[dict[str, Rules]] = {
    montana.RULES.kind: montana.RULES,
    freecell.RULES.kind: freecell.RULES,
}


def rules_for(kind: str) -> Rules:
    """The rules of game ``kind``; raise ``KeyError`` for an unknown kind."""
    return GAMES[kind]
