"""How a win compares with its deal's par, in words (the end band and the live region)."""

from __future__ import annotations

from app import i18n
from app.i18n import ngettext
from app.service.pars import WinPar


def par_words(par: WinPar) -> str:
    """How a win compares with its deal's par, in one sentence (empty: nothing to say)."""
    values = {"num": i18n.number(par.moves), "par": i18n.number(par.par or 0)}
    if par.working:
        return (
            ngettext(
                "You won in %(num)s move; the shortest line we know for this deal is still being "
                "worked out.",
                "You won in %(num)s moves; the shortest line we know for this deal is still being "
                "worked out.",
                par.moves,
            )
            % values
        )
    if par.new and par.par is None:
        return (
            ngettext(
                "You won in %(num)s move: the first winning line we know for this deal, so it is "
                "the par.",
                "You won in %(num)s moves: the first winning line we know for this deal, so it is "
                "the par.",
                par.moves,
            )
            % values
        )
    if par.par is None:
        return ""
    if par.new:
        return (
            ngettext(
                "You won in %(num)s move, fewer than the shortest line we knew (%(par)s): your "
                "line is the new par.",
                "You won in %(num)s moves, fewer than the shortest line we knew (%(par)s): your "
                "line is the new par.",
                par.moves,
            )
            % values
        )
    if par.moves == par.par:
        return (
            ngettext(
                "You won in %(num)s move, as few as the shortest line we know: you matched par.",
                "You won in %(num)s moves, as few as the shortest line we know: you matched par.",
                par.moves,
            )
            % values
        )
    return (
        ngettext(
            "You won in %(num)s move; the shortest line we know has %(par)s.",
            "You won in %(num)s moves; the shortest line we know has %(par)s.",
            par.moves,
        )
        % values
    )
