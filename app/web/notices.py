"""What a game's page says besides the game, when its query asks (``?refused=…``).

A form posted without JavaScript is answered with a redirect back to the game (never left
on the form's address, where a reload would post it again); the query then says what
came of it, and the page words it. Each notice is one member of :class:`Notice`, worded
by one function in :data:`WORDS`; the first one in the query, in this order, is said.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Final

from app import service
from app.i18n import gettext as _
from app.rules.protocol import IllegalMoveError
from app.service.model import utcnow
from app.web import deal_box
from app.web.errors import HINT_REFUSED, slow_words
from app.web.pages import stale_message
from app.web.refusals import refusal


class Notice(StrEnum):
    """A notice, by its name in the query; the first listed is said first."""

    REFUSED = "refused"
    """A move the player posted, refused: why (the move's text)."""
    STALE = "stale"
    """The game moved on in another tab or on another device."""
    SLOW = "slow"
    """Nothing done for now: a rate limit, or the solver busy (its reason)."""
    BADDEAL = "baddeal"
    """A deal number typed in the game's deal field that the site cannot deal."""
    WHY = "why"
    """A card or gap the player chose that does nothing: why (its place)."""
    CANCEL = "cancel"
    """The player let go of what they were choosing."""
    FEWER = "fewer"
    """Fewer cards moved than the player held (``moved-held-source-target``)."""


Wording = Callable[[service.Game, str], "str | None"]


def _refused(game: service.Game, action: str) -> str | None:
    """Why ``action`` (refused when posted without JavaScript) cannot be played now: the
    refusal is found again on the game as it is (a redirect carries no error)."""
    command = service.commands.parse(action)
    if game.created_at > utcnow():  # a race's game, during its countdown
        return refusal(service.NotBegun("not begun yet", "game.not_begun"))
    if action == HINT_REFUSED:  # said only while it holds (the countdown, above)
        return None
    if isinstance(command, service.Undo | service.Redo):  # refused: nothing to take or bring back
        word = "undo" if isinstance(command, service.Undo) else "redo"
        code = f"nothing_to_{word}"
        if game.is_final:
            code = "game.won" if game.status == "won" else "game.given_up"
        return refusal(IllegalMoveError(f"cannot {word}", code))
    source, _sep, rest = action.partition(">")
    target, _sep, held = rest.partition(">")
    try:
        if target:  # the places a click joined (see errors._posted_action)
            count = int(held) if held.isascii() and held.isdigit() else 1
            game.position.action_between(source, target, count)
        else:
            game.position.play(game.position.parse_action(action))
    except ValueError as error:
        return refusal(error)
    return None


def _why(game: service.Game, value: str) -> str | None:
    return None if game.is_over else game.game.why(game.position, value)


def _fewer(game: service.Game, value: str) -> str | None:
    moved, held, source, target = [*value.split("-", 3), "", "", "", ""][:4]
    if not (moved.isascii() and moved.isdigit() and held.isascii() and held.isdigit()):
        return None
    return game.game.presenter.fewer_moved(game.position, source, target, int(moved), int(held))


WORDS: Final[Mapping[Notice, Wording]] = {
    Notice.REFUSED: _refused,
    Notice.STALE: lambda game, value: stale_message(),
    Notice.SLOW: lambda game, value: slow_words(value),
    Notice.BADDEAL: lambda game, value: deal_box.problem(game.kind, value),
    Notice.WHY: _why,
    Notice.CANCEL: lambda game, value: _("Cancelled: nothing was moved."),
    Notice.FEWER: _fewer,
}


def first(query: Mapping[str, str], longest: int) -> tuple[Notice, str] | None:
    """The notice the query asks for (the first in :class:`Notice`'s order), with its
    value cut to ``longest`` characters; None when it asks for none."""
    for notice in Notice:
        value = query.get(notice.value, "")
        if value:
            return notice, value[:longest]
    return None


def words(game: service.Game, notice: tuple[Notice, str]) -> str | None:
    """The notice in words (None: nothing to say, as a choice that does something)."""
    kind, value = notice
    return WORDS[kind](game, value)
