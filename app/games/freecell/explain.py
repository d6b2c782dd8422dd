"""Why a FreeCell move is good: facts read from the position before it and the one after
it (with the automatic moves that follow), never guessed. :func:`facts` computes them,
:func:`explain` says them, a whole sentence each (tests re-check every fact by playing the
move on the engine)."""

from __future__ import annotations

from dataclasses import dataclass

from app.games.freecell.rules import FreeCellMove, FreeCellPosition, shown_name
from app.i18n import gettext as _
from app.i18n import isolate, ngettext
from app.rules.protocol import Action


@dataclass(frozen=True, slots=True)
class Facts:
    home: int
    """Cards the move sends home, the automatic moves that follow it included."""
    emptied: tuple[str, ...]
    """Columns (as the board names them) that had cards before and none after."""
    cells_freed: int
    """Free cells empty after less those empty before (below 0: cells taken)."""
    at_once: int
    """How many cards one move can then carry onto a card."""
    line: int | None
    """Moves the solver's line still needs after this one (None: not known)."""


def settled(position: FreeCellPosition) -> FreeCellPosition:
    """``position`` after the safe cards go home by themselves, as the game plays them."""
    while (move := position.automatic_move("safe")) is not None:
        position = position.play(move)
    return position


def facts(before: FreeCellPosition, action: Action, line: int | None = None) -> Facts:
    assert isinstance(action, FreeCellMove), action
    after = settled(before.play(action))
    names = before.variant.column_names
    emptied = tuple(
        shown_name(names[index])
        for index, (was, now) in enumerate(zip(before.columns, after.columns, strict=True))
        if was and not now
    )
    return Facts(
        home=sum(after.foundations) - sum(before.foundations),
        emptied=emptied,
        cells_freed=after.empty_cells - before.empty_cells,
        at_once=after.max_run(),
        line=line,
    )


def explain(before: FreeCellPosition, action: Action, line: int | None = None) -> str:
    """The facts of :func:`facts` in words, one whole sentence each."""
    found = facts(before, action, line)
    said: list[str] = []
    if found.home:
        said.append(
            ngettext(
                "It sends %(num)s card home, the automatic moves included.",
                "It sends %(num)s cards home, the automatic moves included.",
                found.home,
            )
            % {"num": isolate(found.home)}
        )
    for column in found.emptied:
        said.append(_("It empties column %(column)s.") % {"column": isolate(column)})
    if found.cells_freed > 0:
        freed = found.cells_freed
        said.append(
            ngettext("It frees %(num)s free cell.", "It frees %(num)s free cells.", freed)
            % {"num": isolate(freed)}
        )
    elif found.cells_freed < 0:
        taken = -found.cells_freed
        said.append(
            ngettext("It takes %(num)s free cell.", "It takes %(num)s free cells.", taken)
            % {"num": isolate(taken)}
        )
    said.append(
        ngettext(
            "Then %(num)s card can move at once.",
            "Then %(num)s cards can move at once.",
            found.at_once,
        )
        % {"num": isolate(found.at_once)}
    )
    if found.line is not None:
        said.append(_line(found.line))
    return " ".join(said)


def _line(left: int) -> str:
    if left == 0:
        return _("It wins the game.")
    return ngettext(
        "The solver's line then needs %(num)s more move.",
        "The solver's line then needs %(num)s more moves.",
        left,
    ) % {"num": isolate(left)}
