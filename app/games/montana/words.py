"""Montana in words, in the reader's language: its name, its moves, where a game stands,
what "still winnable?" found, and the engine's refusals."""

from __future__ import annotations

from typing import Final

from app.games.montana.rules import MontanaMove, MontanaPosition, cell_name
from app.i18n import gettext as _
from app.i18n import isolate, ngettext, number
from app.rules.kind import Refusals
from app.rules.protocol import Action, Position, Verdict
from app.words import fill


def name() -> str:
    return _("Montana")


def variant_name(variant: str) -> str:
    names = {
        "expert": _("Expert"),
        "easy": _("Easy"),
        "blue-moon": _("Blue Moon"),
        "red-moon": _("Red Moon"),
    }
    return names.get(variant, variant)


def describe(kind: str, action: Action, before: MontanaPosition, after: MontanaPosition) -> str:
    """Say what a move or redeal did: ``8♣ to B7``, ``redeal 1 of 2``."""
    if isinstance(action, MontanaMove):
        shown = {"card": isolate(action.card.symbol), "cell": isolate(cell_name(action.cell))}
        if kind == "hint":
            # The whole hint, a sentence with its verb (Hindi «… को D11 में रखें।»).
            return _("Hint: %(card)s to %(cell)s.") % shown
        return _("%(card)s to %(cell)s") % shown
    total = after.variant.redeals
    if kind == "hint":
        shown = {"num": isolate(after.redeals_done), "total": isolate(total)}
        return _redeal_hint(after.redeals_done) % shown
    return _redeal_words(after.redeals_done) % {
        "num": isolate(after.redeals_done),
        "total": isolate(total),
    }


def _redeal_words(done: int) -> str:
    """``redeal %(num)s of %(total)s``, a message per redeal so that a language can say
    "the first", "the second" (Hindi «2 में से पहली बार», Arabic «الأولى»)."""
    ordinal = {
        1: _("redeal 1 of %(total)s"),
        2: _("redeal 2 of %(total)s"),
        3: _("redeal 3 of %(total)s"),
        4: _("redeal 4 of %(total)s"),
    }
    return ordinal.get(done) or _("redeal %(num)s of %(total)s")


def _redeal_hint(done: int) -> str:
    """The hint to redeal, a whole sentence per redeal (as :func:`_redeal_words`)."""
    ordinal = {
        1: _("Hint: redeal now, the first of %(total)s redeals."),
        2: _("Hint: redeal now, the second of %(total)s redeals."),
        3: _("Hint: redeal now, the third of %(total)s redeals."),
        4: _("Hint: redeal now, the fourth of %(total)s redeals."),
    }
    return ordinal.get(done) or _("Hint: redeal now, redeal %(num)s of %(total)s.")


def standing(position: Position) -> str:
    """Where a game in play stands: its score."""
    score = position.score or 0
    return ngettext("%(num)s card in place.", "%(num)s cards in place.", score) % {"num": score}


def progress(position: Position) -> str:
    """A racer's progress, for a race's table: cards in place and redeals left."""
    left = position.redeals_left if isinstance(position, MontanaPosition) else 0
    return _("In place: %(cards)s · redeals left: %(num)s") % {
        "cards": position.score or 0,
        "num": left,
    }


def unsure_hint(move: str) -> str:
    """A hint whose search ran out of time (it waits to be carried on)."""
    return _("Still thinking: the best move found so far is %(move)s. Ask again to think on.") % {
        "move": move
    }


def verdict(position: Position, verdict: Verdict, length: int, searched: int) -> str:
    """The answer to "can this round still be cleared?" in words."""
    if verdict == "solved":
        return _("Yes: this round can be cleared without another redeal (%(num)s moves).") % {
            "num": isolate(length)
        }
    if verdict != "unsolvable":
        return _("Not sure: the search ran out of time before it found an answer.")
    tried = isolate(number(searched))
    left = position.redeals_left if isinstance(position, MontanaPosition) else 0
    if left:
        return ngettext(
            "Not this round: it cannot be cleared without a redeal (all %(searched)s "
            "positions it can reach were tried). The game goes on: %(num)s redeal left.",
            "Not this round: it cannot be cleared without a redeal (all %(searched)s "
            "positions it can reach were tried). The game goes on: %(num)s redeals left.",
            left,
        ) % {"num": left, "searched": tried}
    return _(
        "No: this last round cannot be cleared (all %(searched)s positions it can reach "
        "were tried) and no redeal is left."
    ) % {"searched": tried}


def solution(verdict: Verdict) -> str:
    """What the solver's line on the solution page is."""
    if verdict == "solved":
        return _("This line clears the round without another redeal.")
    if verdict == "unsolvable":
        return _("This round cannot be cleared: this line puts the most cards in place.")
    return _("The search ran out of time: this is the best line it found.")


REFUSALS: Final[Refusals] = {
    "montana.not_a_move": lambda p: fill(
        _("%(text)s is not a Montana move (for example 8C B7)."), p
    ),
    "montana.not_a_cell": lambda p: fill(_("%(text)s is not a cell (cells are A1 to D13)."), p),
    "montana.no_aces": lambda p: _("Aces take no part in Montana."),
    "montana.no_card": lambda p: fill(_("%(cell)s is a gap: there is no card to move."), p),
    "montana.not_a_gap": lambda p: fill(_("%(cell)s is not a gap: %(card)s is there."), p),
    "montana.only_a_two": lambda p: fill(_("Only a 2 may go to column 1, not %(card)s."), p),
    "montana.already_first": lambda p: fill(_("%(card)s is already in column 1."), p),
    "montana.row_two": lambda p: fill(
        _("Only %(wanted)s may go to %(cell)s: its row begins with %(ace)s."), p
    ),
    "montana.dead_after_gap": lambda p: fill(
        _("%(cell)s is dead until the gap to its left is filled."), p
    ),
    "montana.dead_after_king": lambda p: fill(_("%(cell)s is dead: nothing goes after a King."), p),
    "montana.wrong_card": lambda p: fill(
        _("%(card)s does not fit %(cell)s: only %(wanted)s follows %(left)s there."), p
    ),
    "montana.won": lambda p: _("The game is won: there is nothing to redeal."),
    "montana.no_redeals": lambda p: _("No redeals are left."),
}
