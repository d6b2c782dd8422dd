"""The engine's refusals in the player's language.

The rules raise :class:`~app.rules.protocol.RuleError` with a ``code`` and ``params``
(cards, numbers, notation); this module is the one place that words each code. Cards are
shown as symbols (``8♣``) and cells, columns and move text as notation, each isolated so
it keeps its direction inside a right-to-left sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from app.i18n import gettext as _
from app.i18n import isolate, ngettext, number
from app.rules.cards import Card
from app.web.names import game_name

Params = Mapping[str, object]


def _shown(value: object) -> str:
    """A param as the player sees it: a card as ``8♣``, a run as ``9♣ 8♥``, else as is."""
    if isinstance(value, Card):
        return isolate(value.symbol)
    if isinstance(value, int):
        return isolate(number(value))
    if isinstance(value, tuple):
        return isolate(" ".join(card.symbol for card in value if isinstance(card, Card)))
    return isolate(value)


def _fill(template: str, params: Params) -> str:
    return template % {key: _shown(value) for key, value in params.items()}


def _count(params: Params, key: str) -> int:
    value = params.get(key, 0)
    return value if isinstance(value, int) else 0


WORDS: Final[dict[str, Callable[[Params], str]]] = {
    "nothing_to_undo": lambda p: _("There is nothing to undo."),
    # Starting a game
    "game.unknown": lambda p: _fill(_("There is no game called %(text)s here."), p),
    "game.unknown_variant": lambda p: _fill(
        _("%(name)s has no variant %(text)s: choose one on the home page."),
        {**p, "name": game_name(str(p.get("game", "")))},
    ),
    "game.deal_range": lambda p: _fill(_("Deal numbers run from 1 to %(max)s, not %(deal)s."), p),
    "not_a_card": lambda p: _fill(_("%(text)s is not a card (for example 8C, TD, KH)."), p),
    # FreeCell
    "freecell.not_a_move": lambda p: _fill(
        _("%(text)s is not a FreeCell move (for example 3a, a5, 3h, 36)."), p
    ),
    "freecell.not_a_place": lambda p: _fill(
        _("%(text)s is not a column or a free cell (columns 1 to 8, free cells a to d)."), p
    ),
    "freecell.not_a_target": lambda p: _fill(
        _(
            "%(text)s is not a column, a free cell or home "
            "(columns 1 to 8, free cells a to d, h for home)."
        ),
        p,
    ),
    "freecell.same_place": lambda p: _("A card cannot move to where it already is."),
    "freecell.cell_to_cell": lambda p: _("A card cannot move from one free cell to another."),
    "freecell.no_cards": lambda p: _("A move carries at least one card."),
    "freecell.several_only_columns": lambda p: _(
        "Only a move from one column to another can carry several cards."
    ),
    "freecell.empty_column": lambda p: _fill(_("Column %(column)s is empty."), p),
    "freecell.empty_cell": lambda p: _fill(_("Free cell %(cell)s is empty."), p),
    "freecell.cell_full": lambda p: _fill(_("Free cell %(cell)s is taken: %(card)s is there."), p),
    "freecell.not_home_yet": lambda p: _fill(
        _("%(card)s cannot go home yet: its foundation takes %(wanted)s next."), p
    ),
    "freecell.king_to_empty": lambda p: _fill(
        _("%(card)s cannot go on %(onto)s: a King moves only into an empty column."), p
    ),
    "freecell.nothing_on_ace": lambda p: _fill(
        _("Nothing goes on an Ace: %(onto)s can go home."), p
    ),
    "freecell.wants": lambda p: _fill(
        _("%(card)s cannot go on %(onto)s: only %(first)s or %(second)s goes there."), p
    ),
    "freecell.run_does_not_fit": lambda p: _fill(
        _("No card of column %(column)s's run %(run)s goes on %(onto)s."), p
    ),
    "freecell.count_does_not_fit": lambda p: _fill(
        ngettext(
            "Only the run of %(fitting)s card from %(card)s fits on %(onto)s.",
            "Only the run of %(fitting)s cards from %(card)s fits on %(onto)s.",
            _count(p, "fitting"),
        ),
        p,
    ),
    "freecell.run_too_short": lambda p: _fill(
        ngettext(
            "Column %(column)s's run is %(run)s card long: %(count)s cards cannot move together.",
            "Column %(column)s's run is %(run)s cards long: %(count)s cards cannot move together.",
            _count(p, "run"),
        ),
        p,
    ),
    "freecell.run_too_long": lambda p: _fill(
        ngettext(
            "A run of %(count)s cards cannot move onto column %(column)s: with "
            "%(free_cells)s empty free cells and %(empty_columns)s empty columns, "
            "at most %(limit)s card moves at once.",
            "A run of %(count)s cards cannot move onto column %(column)s: with "
            "%(free_cells)s empty free cells and %(empty_columns)s empty columns, "
            "at most %(limit)s cards move at once.",
            _count(p, "limit"),
        ),
        p,
    ),
    "freecell.run_too_long_empty": lambda p: _fill(
        ngettext(
            "A run of %(count)s cards cannot move into empty column %(column)s: with "
            "%(free_cells)s empty free cells and %(empty_columns)s other empty columns, "
            "at most %(limit)s card moves at once.",
            "A run of %(count)s cards cannot move into empty column %(column)s: with "
            "%(free_cells)s empty free cells and %(empty_columns)s other empty columns, "
            "at most %(limit)s cards move at once.",
            _count(p, "limit"),
        ),
        p,
    ),
    # Montana
    "montana.not_a_move": lambda p: _fill(
        _("%(text)s is not a Montana move (for example 8C B7)."), p
    ),
    "montana.not_a_cell": lambda p: _fill(_("%(text)s is not a cell (cells are A1 to D13)."), p),
    "montana.no_aces": lambda p: _("Aces take no part in Montana."),
    "montana.no_card": lambda p: _fill(_("%(cell)s is a gap: there is no card to move."), p),
    "montana.not_a_gap": lambda p: _fill(_("%(cell)s is not a gap: %(card)s is there."), p),
    "montana.only_a_two": lambda p: _fill(_("Only a 2 may go to column 1, not %(card)s."), p),
    "montana.already_first": lambda p: _fill(_("%(card)s is already in column 1."), p),
    "montana.dead_after_gap": lambda p: _fill(
        _("%(cell)s is dead until the gap to its left is filled."), p
    ),
    "montana.dead_after_king": lambda p: _fill(
        _("%(cell)s is dead: nothing goes after a King."), p
    ),
    "montana.wrong_card": lambda p: _fill(
        _("%(card)s does not fit %(cell)s: only %(wanted)s follows %(left)s there."), p
    ),
    "montana.won": lambda p: _("The game is won: there is nothing to redeal."),
    "montana.no_redeals": lambda p: _("No redeals are left."),
}


def refusal(error: Exception) -> str:
    """The refusal in the player's language (English text for an error without a code)."""
    code = getattr(error, "code", "")
    words = WORDS.get(code) if isinstance(code, str) else None
    if words is not None:
        return words(getattr(error, "params", {}))
    text = str(error)
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
