"""The registry of game kinds: the one module outside a game's own package that names it.

Each game is a package here (its rules, solver and view); :data:`GAMES` maps a game's kind
to its rules, so the layers above handle every game the same way.
"""

from __future__ import annotations

from typing import Final

from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from app.rules.protocol import Rules

GAMES: Final[dict[str, Rules]] = {
    montana.RULES.kind: montana.RULES,
    freecell.RULES.kind: freecell.RULES,
}


def rules_for(kind: str) -> Rules:
    """The rules of game ``kind``; raise ``KeyError`` for an unknown kind."""
    return GAMES[kind]
