"""Why a Montana move is good: facts read from the position before it and after it, never
guessed. :func:`facts` computes them, :func:`explain` says them, a whole sentence each
(tests re-check every fact by playing the move on the engine)."""

from __future__ import annotations

from dataclasses import dataclass

from app.games.montana.rules import COLUMNS, MontanaMove, MontanaPosition, cell_name
from app.i18n import gettext as _
from app.i18n import isolate, ngettext
from app.rules.cards import Card
from app.rules.protocol import Action


@dataclass(frozen=True, slots=True)
class Facts:
    in_place: bool
    """The card lands in place (its row's sequence grows)."""
    gap: str
    """The cell the card leaves, a gap after the move (``'B7'``)."""
    wants: Card | None
    """The card that gap then wants (None: it is dead, or takes any 2 in column 1)."""
    any_two: bool
    """The gap is in column 1 and takes any 2."""
    score: int
    """Cards in place after the move."""
    line: int | None
    """Moves the solver's line still needs after this one (None: not known)."""


def facts(before: MontanaPosition, action: Action, line: int | None = None) -> Facts:
    assert isinstance(action, MontanaMove), action
    after = before.play(action)
    source = before.where(action.card)
    wants = after.wanted(source)
    return Facts(
        in_place=after.in_place(action.cell),
        gap=cell_name(source),
        wants=wants,
        any_two=source % COLUMNS == 0 and wants is None,
        score=after.score,
        line=line,
    )


def explain(before: MontanaPosition, action: Action, line: int | None = None) -> str:
    """The facts of :func:`facts` in words, one whole sentence each (a redeal: none)."""
    if not isinstance(action, MontanaMove):
        return ""
    found = facts(before, action, line)
    said: list[str] = []
    if found.in_place:
        said.append(_("It puts %(card)s in place.") % {"card": isolate(action.card.symbol)})
    gap = isolate(found.gap)
    if found.any_two:
        said.append(_("It opens a gap at %(cell)s, which then takes any 2.") % {"cell": gap})
    elif found.wants is None:
        said.append(_("It opens a gap at %(cell)s, which no card can fill.") % {"cell": gap})
    else:
        said.append(
            _("It opens a gap at %(cell)s, which then wants %(card)s.")
            % {"cell": gap, "card": isolate(found.wants.symbol)}
        )
    said.append(
        ngettext("Then %(num)s card is in place.", "Then %(num)s cards are in place.", found.score)
        % {"num": isolate(found.score)}
    )
    if found.line is not None:
        if found.line == 0:
            said.append(_("It clears the round."))
        else:
            said.append(
                ngettext(
                    "The solver's line then needs %(num)s more move to clear the round.",
                    "The solver's line then needs %(num)s more moves to clear the round.",
                    found.line,
                )
                % {"num": isolate(found.line)}
            )
    return " ".join(said)
