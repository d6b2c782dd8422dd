"""The engine's refusals in the player's language.

The rules raise :class:`~app.rules.protocol.RuleError` with a ``code`` and ``params``
(cards, numbers, notation); this module words the codes every game shares, and each game
words its own (``GameKind.refusals``). Cards are shown as symbols (``8♣``) and cells,
columns and move text as notation, each isolated so it keeps its direction inside a
right-to-left sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from app.games import KINDS
from app.i18n import gettext as _
from app.web.names import game_name, variant_name
from app.words import Params, fill

WORDS: Final[dict[str, Callable[[Params], str]]] = {
    "nothing_to_undo": lambda p: _("There is nothing to undo."),
    "nothing_to_redo": lambda p: _(
        "There is nothing to redo: only a move you undid can come back."
    ),
    # Starting a game
    "game.unknown": lambda p: fill(_("There is no game called %(text)s here."), p),
    "game.unknown_variant": lambda p: fill(
        _("%(name)s has no variant %(text)s: choose one on the home page."),
        {**p, "name": game_name(str(p.get("game", "")))},
    ),
    "game.deal_range": lambda p: fill(_("Deal numbers run from 1 to %(max)s, not %(deal)s."), p),
    "deal.not_a_number": lambda p: fill(
        _("%(text)s is not a deal number: deals run from 1 to %(max)s."), p
    ),
    "game.none_proved": lambda p: fill(
        _("No deal of %(name)s (%(variant)s) has been proved winnable yet: play any deal."),
        {
            "name": game_name(str(p.get("game", ""))),
            "variant": variant_name(str(p.get("game", "")), str(p.get("variant", ""))),
        },
    ),
    "not_a_card": lambda p: fill(_("%(text)s is not a card (for example 8C, TD, KH)."), p),
    # A game that is over
    "game.won": lambda p: _("This game is won: start a new one."),
    "game.given_up": lambda p: _("This game was given up: start a new one."),
    "game.no_moves_left": lambda p: _("No moves are left: undo, or start a new game."),
    "game.over": lambda p: _("The game is over: there is nothing to hint."),
    "game.not_begun": lambda p: _("This game has not begun yet: wait for the countdown to end."),
    "game.time_up": lambda p: _("The race's time is up: this game takes no more moves."),
    # Races
    "race.full": lambda p: _("This race is full: you can still watch it."),
    "race.started": lambda p: _("This race has started: you can watch it, but no longer join."),
    "race.finished": lambda p: _("This race is over: you can see its result, but no longer join."),
    "race.not_creator": lambda p: _("Only the player who made this race can start it."),
    "race.end_not_creator": lambda p: _("Only the player who made this race can end it."),
    "race.limit": lambda p: _("A race's time limit is 5, 10 or 15 minutes, or none."),
    # Weekly tournaments
    "tournament.no_help": lambda p: _(
        "No help in a tournament: hints, the winnable check and solutions come back "
        "when its week is over."
    ),
    "tournament.no_restart": lambda p: _(
        "A tournament deal is played once: it cannot be restarted."
    ),
    "tournament.played": lambda p: fill(
        _("You have played tournament deal %(num)s already: one try a deal."), p
    ),
    "tournament.over": lambda p: _(
        "This tournament is over: its week has ended, so no game can be started in it."
    ),
    "tournament.hidden": lambda p: _(
        "A tournament game's replay, position and watch links wait until its week is over."
    ),
    "tournament.not_begun": lambda p: _("This tournament has not begun yet."),
    "tournament.no_deal": lambda p: fill(
        _("This tournament has no deal %(num)s: its deals are 1 to %(count)s."), p
    ),
}
"""The refusals every game shares; each game words its own (``GameKind.refusals``)."""

for _game in KINDS.values():
    WORDS.update(_game.refusals)


def refusal(error: Exception) -> str:
    """The refusal in the player's language (English text for an error without a code)."""
    code = getattr(error, "code", "")
    words = WORDS.get(code) if isinstance(code, str) else None
    if words is not None:
        return words(getattr(error, "params", {}))
    text = str(error)
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
