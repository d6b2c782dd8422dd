"""The registry of games: the one module outside a game's own package that names one.

A game is a package here (``app/games/<kind>/``: its rules, solver, hints, view and words)
exposing a :class:`~app.rules.kind.GameKind` named ``KIND``, plus its templates
(``templates/<kind>/``) and script (``static/js/<kind>.js``). Everything else asks this
registry; an import-linter contract keeps it so.
"""

from __future__ import annotations

from typing import Final

from app.games import freecell, montana
from app.games.freecell import proofs as freecell_proofs
from app.rules.kind import AnyGameKind
from app.rules.protocol import Position, Rules

KINDS: Final[dict[str, AnyGameKind]] = {game.kind: game for game in (montana.KIND, freecell.KIND)}
"""Every game the site offers, in the order the home page shows them."""

GAMES: Final[dict[str, Rules[Position]]] = {kind: game.rules for kind, game in KINDS.items()}


def game_kind(kind: str) -> AnyGameKind:
    """The game ``kind``; raise ``KeyError`` for an unknown kind."""
    return KINDS[kind]


def rules_for(kind: str) -> Rules[Position]:
    """The rules of game ``kind``; raise ``KeyError`` for an unknown kind."""
    return KINDS[kind].rules


CELLS_GAME: Final = (freecell.KIND.kind, freecell.rules.DEFAULT_VARIANT)
"""The game and variant whose deals have a proved difficulty: the fewest free cells each
is won with (:mod:`app.service.proofs`)."""
PROOF_SEARCHES: Final = {freecell.KIND.kind: freecell_proofs}
"""Games whose shipped proofs are made on a library (packed files, two bits a deal)."""
PAR_GAME: Final = freecell.KIND.kind
"""The game whose deals have a par, the shortest line known (:mod:`app.service.pars`)."""
TOURNAMENT_GAMES: Final = (
    (freecell.KIND.kind, freecell.rules.DEFAULT_VARIANT),
    (montana.KIND.kind, montana.rules.DEFAULT_VARIANT),
)
"""The games and variants with a weekly tournament (:mod:`app.service.tournaments`), in the
order its page shows them."""
