"""The names of games, variants and statistics groups in the player's language.

The engine names its games in English for the command line (``Rules.name``); the site
names them through each game's words (the catalogues, from ``locales/GLOSSARY.md``).
"""

from __future__ import annotations

from app.games import KINDS
from app.i18n import gettext as _
from app.i18n import listing
from app.stats import Group


def game_name(kind: str) -> str:
    game = KINDS.get(kind)
    return game.name() if game else kind


def variant_name(kind: str, variant: str) -> str:
    game = KINDS.get(kind)
    return game.variant_name(variant) if game else variant


def group_name(group: Group) -> str:
    """The game and variant (``Gaps Expert``); a game with one variant is named alone."""
    game = KINDS[group.kind]
    if len(game.rules.variants) == 1:
        return game.name()
    names = {"game": game.name(), "variant": game.variant_name(group.variant)}
    return _("%(game)s %(variant)s") % names


def site_title() -> str:
    """The site and every game it offers, for the page title (``Solitaire: A and B``)."""
    return _("Solitaire: %(games)s") % {"games": listing([g.name() for g in KINDS.values()])}
