"""FreeCell in words, in the reader's language: its name, its moves, where a game stands,
what "still winnable?" found, and the engine's refusals."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from app.games.freecell import view
from app.games.freecell.rules import (
    ALL_CELL_NAMES,
    ALL_COLUMN_NAMES,
    HOME,
    FreeCellMove,
    FreeCellPosition,
    shown_name,
)
from app.i18n import gettext as _
from app.i18n import isolate, ngettext, number
from app.rules.kind import Refusals
from app.rules.parts import supermove_limit
from app.rules.protocol import Action, Position, Verdict
from app.words import Params, Words, count, fill


def name() -> str:
    return _("FreeCell")


def variant_name(variant: str) -> str:
    names = {
        "standard": _("Standard"),
        "bakers": _("Baker's Game"),
        "cells-3": _("Three free cells"),
        "cells-2": _("Two free cells"),
        "cells-1": _("One free cell"),
        "eight-off": _("Eight Off"),
        "seahaven": _("Seahaven Towers"),
        "forecell": _("Forecell"),
    }
    return names.get(variant, variant)


def _places(p: Mapping[str, object]) -> Mapping[str, object]:
    """The last column and free cell of the board a refusal is about (standard: 8 and d)."""
    columns, cells = p.get("columns", 8), p.get("cells", 4)
    last_column = ALL_COLUMN_NAMES[columns - 1] if isinstance(columns, int) else "8"
    last_cell = ALL_CELL_NAMES[cells - 1] if isinstance(cells, int) else "d"
    return {**p, "last_column": last_column, "last_cell": last_cell}


def place_name(name: str) -> str:
    """``'home'``, ``'free cell a'`` or ``'column 3'``."""
    if name == HOME:
        return _("home")
    if name in ALL_CELL_NAMES:
        return _("free cell %(name)s") % {"name": isolate(shown_name(name))}
    return _("column %(name)s") % {"name": isolate(shown_name(name))}


def describe(kind: str, move: Action, before: FreeCellPosition, after: FreeCellPosition) -> str:
    """Say what a move did: ``8♣ from column 3 to column 6``, ``3 cards from …``."""
    assert isinstance(move, FreeCellMove), move
    card = before.card_at(move.source)
    source, target = place_name(move.source), isolate(shown_name(move.target))
    shown = isolate(card.symbol) if card else _("a card")
    # A message per kind of target: languages put a card *into* a free cell but *onto* a
    # column with different words (Hindi «फ्री सेल a में», «कॉलम 3 पर»).
    if kind == "hint":
        return _hint(move.count, move.target, shown, source, target)
    if move.count > 1:
        words = ngettext(
            "%(num)s card from %(source)s to column %(column)s",
            "%(num)s cards from %(source)s to column %(column)s",
            move.count,
        ) % {"num": isolate(move.count), "source": source, "column": target}
    elif move.target == HOME:
        words = _("%(card)s home from %(source)s") % {"card": shown, "source": source}
    elif move.target in ALL_CELL_NAMES:
        words = _("%(card)s from %(source)s to free cell %(cell)s") % {
            "card": shown,
            "source": source,
            "cell": target,
        }
    else:
        words = _("%(card)s from %(source)s to column %(column)s") % {
            "card": shown,
            "source": source,
            "column": target,
        }
    return _("%(move)s (automatic)") % {"move": words} if kind == "auto" else words


def _hint(count: int, target_name: str, card: str, source: str, target: str) -> str:
    """The whole hint, a sentence with its verb (Hindi «… को कॉलम 6 पर रखें।»)."""
    if count > 1:
        return ngettext(
            "Hint: %(num)s card from %(source)s to column %(column)s.",
            "Hint: %(num)s cards from %(source)s to column %(column)s.",
            count,
        ) % {"num": isolate(count), "source": source, "column": target}
    if target_name == HOME:
        return _("Hint: %(card)s home from %(source)s.") % {"card": card, "source": source}
    if target_name in ALL_CELL_NAMES:
        return _("Hint: %(card)s from %(source)s to free cell %(cell)s.") % {
            "card": card,
            "source": source,
            "cell": target,
        }
    return _("Hint: %(card)s from %(source)s to column %(column)s.") % {
        "card": card,
        "source": source,
        "column": target,
    }


def room(free_cells: int, empty_columns: int, other: bool = False, doubling: bool = True) -> str:
    """What a run may move through, in the language's words: a whole clause for each of
    none and some of each (Hindi «… और कोई खाली कॉलम न होने पर»), the counted parts in
    their plural forms (Arabic's duals): ``'with 2 empty free cells and no empty column'``.
    ``other``: the columns besides the one the run moves into. Without ``doubling`` (Eight
    Off, Seahaven, Forecell) empty columns do not count, and the clause says so."""
    cells = ngettext("%(num)s empty free cell", "%(num)s empty free cells", free_cells) % {
        "num": isolate(free_cells)
    }
    if not doubling:
        if free_cells:
            return _("with %(cells)s (empty columns do not count in this game)") % {"cells": cells}
        return _("with no empty free cell (empty columns do not count in this game)")
    if other:
        columns = ngettext(
            "%(num)s other empty column", "%(num)s other empty columns", empty_columns
        ) % {"num": isolate(empty_columns)}
    else:
        columns = ngettext("%(num)s empty column", "%(num)s empty columns", empty_columns) % {
            "num": isolate(empty_columns)
        }
    parts = {"cells": cells, "columns": columns}
    if free_cells and empty_columns:
        return _("with %(cells)s and %(columns)s") % parts
    if empty_columns:
        return _("with no empty free cell and %(columns)s") % parts
    if free_cells:
        if other:
            return _("with %(cells)s and no other empty column") % parts
        return _("with %(cells)s and no empty column") % parts
    if other:
        return _("with no empty free cell and no other empty column")
    return _("with no empty free cell and no empty column")


def _doubling(p: Params) -> bool:
    """Whether the refused run's empty columns counted (a refusal made before the engine
    said so: they did)."""
    return p.get("doubling", True) is not False


def standing(position: Position) -> str:
    """Where a game in play stands: the cards left on the table."""
    left = position.cards_left
    return ngettext("%(num)s card left.", "%(num)s cards left.", left) % {"num": left}


def progress(position: Position) -> str:
    """A racer's progress, for a race's table: the cards on the foundations."""
    home = sum(position.foundations) if isinstance(position, FreeCellPosition) else 0
    return _("Cards home: %(num)s") % {"num": home}


def unsure_hint(move: str) -> str:
    """A hint whose search ran out of time."""
    return _("Still thinking: the best move found so far is %(move)s.") % {"move": move}


def verdict(position: Position, verdict: Verdict, length: int, searched: int) -> str:
    """The answer to "can this game still be won?" in words."""
    if verdict == "solved":
        return _("Yes: this game can still be won (a winning line of %(num)s moves exists).") % {
            "num": isolate(length)
        }
    if verdict == "unsolvable":
        return _(
            "No: this game can no longer be won (all %(searched)s positions reachable with "
            "single-card moves were tried)."
        ) % {"searched": isolate(number(searched))}
    return _("Not sure: the search ran out of time before it found an answer.")


def solution(verdict: Verdict) -> str:
    """What the solver's line on the solution page is."""
    if verdict == "solved":
        return _("This line wins from the current position (nothing is played for you).")
    if verdict == "unsolvable":
        return _("No line wins from here.")
    return _("No winning line was found in time.")


def fewer_moved(after: Position, source: str, target: str, moved: int, held: int) -> str | None:
    """The player picked up ``held`` cards from column ``source`` and only the last
    ``moved`` went to column ``target``: which went, and the real reason (the card left
    behind does not build on the one they went on, or an empty column took no more at
    once), read from ``after``, the position right after the move. None when ``after``
    does not show such a move (the cards went on home since)."""
    assert isinstance(after, FreeCellPosition)
    names = after.variant.column_names
    if source not in names or target not in names or not 0 < moved < held:
        return None
    rest, landed = after.columns[names.index(source)], after.columns[names.index(target)]
    if not rest or len(landed) < moved:
        return None
    if len(landed) == moved:  # into an empty column: only when its limit held the rest back
        limit = supermove_limit(
            after.empty_cells,
            after.empty_columns + 1,
            to_empty=True,
            doubling=after.variant.doubling,
        )
        if limit != moved:
            return None
    return view.part_words(after, (rest[-1], *landed[-moved:]), target, moved, done=True)


def went_home(count: int) -> str:
    """What "All home" did."""
    return ngettext("%(num)s card went home.", "%(num)s cards went home.", count) % {"num": count}


_REFUSALS: Final[Refusals] = {
    "freecell.none_home": lambda p: _("No card can go home now."),
    "freecell.not_a_move": lambda p: fill(
        _("%(text)s is not a FreeCell move (for example 3a, a5, 3h, 36)."), p
    ),
    "freecell.not_a_place": lambda p: fill(
        _(
            "%(text)s is not a column or a free cell here (columns 1 to %(last_column)s, "
            "free cells a to %(last_cell)s)."
        ),
        _places(p),
    ),
    "freecell.not_a_target": lambda p: fill(
        _(
            "%(text)s is not a column, a free cell or home here "
            "(columns 1 to %(last_column)s, free cells a to %(last_cell)s, h for home)."
        ),
        _places(p),
    ),
    "freecell.same_place": lambda p: _("A card cannot move to where it already is."),
    "freecell.cell_to_cell": lambda p: _("A card cannot move from one free cell to another."),
    "freecell.no_cards": lambda p: _("A move carries at least one card."),
    "freecell.several_only_columns": lambda p: _(
        "Only a move from one column to another can carry several cards."
    ),
    "freecell.empty_column": lambda p: fill(_("Column %(column)s is empty."), p),
    "freecell.empty_cell": lambda p: fill(_("Free cell %(cell)s is empty."), p),
    "freecell.cell_full": lambda p: fill(_("Free cell %(cell)s is taken: %(card)s is there."), p),
    "freecell.not_home_yet": lambda p: fill(
        _("%(card)s cannot go home yet: its foundation takes %(wanted)s next."), p
    ),
    "freecell.king_to_empty": lambda p: fill(
        _("%(card)s cannot go on %(onto)s: a King moves only into an empty column."), p
    ),
    "freecell.nothing_on_ace": lambda p: fill(
        _("Nothing goes on an Ace: %(onto)s can go home."), p
    ),
    "freecell.wants_one": lambda p: fill(
        _("%(card)s cannot go on %(onto)s: only %(wanted)s goes there."), p
    ),
    "freecell.kings_only": lambda p: fill(
        _(
            "%(card)s cannot go into empty column %(column)s: "
            "only a King goes into an empty column."
        ),
        p,
    ),
    "freecell.wants": lambda p: fill(
        _("%(card)s cannot go on %(onto)s: only %(first)s or %(second)s goes there."), p
    ),
    "freecell.run_does_not_fit": lambda p: fill(
        _("No card of column %(column)s's run %(run)s goes on %(onto)s."), p
    ),
    "freecell.count_does_not_fit": lambda p: fill(
        ngettext(
            "Only the run of %(fitting)s card from %(card)s fits on %(onto)s.",
            "Only the run of %(fitting)s cards from %(card)s fits on %(onto)s.",
            count(p, "fitting"),
        ),
        p,
    ),
    "freecell.run_too_short": lambda p: fill(
        ngettext(
            "Column %(column)s's run is %(run)s card long: %(count)s cards cannot move together.",
            "Column %(column)s's run is %(run)s cards long: %(count)s cards cannot move together.",
            count(p, "run"),
        ),
        p,
    ),
    "freecell.run_too_long": lambda p: fill(
        ngettext(
            "A run of %(count)s cards cannot move onto column %(column)s: %(room)s, "
            "at most %(limit)s card moves at once.",
            "A run of %(count)s cards cannot move onto column %(column)s: %(room)s, "
            "at most %(limit)s cards move at once.",
            count(p, "limit"),
        ),
        {
            **p,
            "room": Words(
                room(count(p, "free_cells"), count(p, "empty_columns"), False, _doubling(p))
            ),
        },
    ),
    "freecell.run_too_long_empty": lambda p: fill(
        ngettext(
            "A run of %(count)s cards cannot move into empty column %(column)s: %(room)s, "
            "at most %(limit)s card moves at once.",
            "A run of %(count)s cards cannot move into empty column %(column)s: %(room)s, "
            "at most %(limit)s cards move at once.",
            count(p, "limit"),
        ),
        {
            **p,
            "room": Words(
                room(count(p, "free_cells"), count(p, "empty_columns"), True, _doubling(p))
            ),
        },
    ),
}


def _shown_places(words: Callable[[Params], str]) -> Callable[[Params], str]:
    """``words`` with the column and free cell a refusal names as the table shows them."""

    def shown(p: Params) -> str:
        named = {key: shown_name(str(p[key])) for key in ("column", "cell") if key in p}
        return words({**p, **named})

    return shown


REFUSALS: Final[Refusals] = {code: _shown_places(words) for code, words in _REFUSALS.items()}
"""The FreeCell rules' refusals in words, by their codes."""
