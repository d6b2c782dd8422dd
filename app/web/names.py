"""The names of games, variants and statistics groups in the player's language.

The engine names its games in English for the command line (``Rules.name``); the site
names them through the catalogues, from the glossary (``locales/GLOSSARY.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from app.games import GAMES
from app.i18n import gettext as _
from app.stats import Group

GAME_NAMES: Final[dict[str, Callable[[], str]]] = {
    "montana": lambda: _("Montana"),
    "freecell": lambda: _("FreeCell"),
}
VARIANT_NAMES: Final[dict[str, Callable[[], str]]] = {
    "expert": lambda: _("Expert"),
    "easy": lambda: _("Easy"),
    "standard": lambda: _("Standard"),
}


def game_name(kind: str) -> str:
    name = GAME_NAMES.get(kind)
    return name() if name else kind


def variant_name(variant: str) -> str:
    name = VARIANT_NAMES.get(variant)
    return name() if name else variant


def group_name(group: Group) -> str:
    """``Montana Expert``; a game with one variant is named alone (``FreeCell``)."""
    if len(GAMES[group.kind].variants) == 1:
        return game_name(group.kind)
    names = {"game": game_name(group.kind), "variant": variant_name(group.variant)}
    return _("%(game)s %(variant)s") % names
