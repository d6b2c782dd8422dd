"""Rendering pages and the ``#game`` fragment: the one place that picks page or fragment.

Rendering does no I/O: the service hands a :class:`~app.service.Table` with everything a
game's page shows, and the game's own view (from the registry) words it.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app import service
from app.i18n import gettext as _
from app.i18n import isolate, ngettext
from app.rules.protocol import Answer
from app.service import Game, Table
from app.web.deps import solvers
from app.web.htmx import is_htmx
from app.web.players import current_player
from app.web.templating import clock, paths
from app.words import sentence


def render(request: Request, template: str, status_code: int = 200, **context: Any) -> Response:
    templates = request.app.state.templates
    response: HTMLResponse = templates.TemplateResponse(
        request, template, context, status_code=status_code
    )
    return response


def table_for(request: Request, game: Game, auto_moves: bool | None = None) -> Table:
    """What ``game``'s page shows for this request's player (read before rendering)."""
    return service.table(
        db=request.app.state.db,
        solvers=solvers(request),
        game=game,
        player_id=current_player(request),
        auto_moves=auto_moves,
    )


def render_game(
    request: Request,
    table: Table,
    *,
    status_code: int = 200,
    message: str | None = None,
    pick: str | None = None,
    hint: str | None = None,
    said: str | None = None,
) -> Response:
    """The ``#game`` fragment for htmx, the whole game page otherwise.

    ``hint`` is a move to point at (its card and its place light up), never played.
    ``said`` is what the action did, in words: with ``message`` it is what the page's one
    live region (outside ``#game``, updated out of band) announces.
    """
    game = table.game
    fragment = is_htmx(request)
    template = "_game.html" if fragment else "game.html"
    board = game.game.board(
        game.position, playable=not game.is_over, pick=pick, auto_moves=table.auto_moves
    )
    if message is None and said is None and not pick and table.known is not None:
        message = verdict_words(game, table.known)
    hinted = game.game.hinted_places(game.position, hint) if hint and not game.is_over else None
    announcement = " ".join(part for part in (said, message) if part)
    response = render(
        request,
        template,
        status_code,
        game=game,
        board=board,
        message=message,
        hinted=hinted or frozenset(),
        announcement=announcement,
        fragment=fragment,
        # Found once a render, paths only: the fragment names them on every form and link.
        game_url=paths(request).path_for(request, "game_page", game_id=game.id),
        action_url=paths(request).path_for(request, "game_action", game_id=game.id),
    )
    # A game moves on: Back and Forward must never show an old board from a cache (the
    # browser's back/forward cache keeps no page that says no-store).
    response.headers["Cache-Control"] = "no-store"
    return response


def stale_message() -> str:
    return _("This game moved on in another tab or device: here is where it stands now.")


def standing(game: Game) -> str:
    """Where the game stands, in a sentence: its score or cards left, or how it ended."""
    if game.status == "won":
        return _("You won %(name)s #%(deal)s in %(time)s!") % {
            "name": game.game.name(),
            "deal": isolate(game.deal),
            "time": isolate(clock(game.play_ms)),
        }
    if game.resigned:
        return _("You gave up.")
    if game.status == "lost":
        return _("No moves left: game over.")
    return game.game.standing(game.position)


def said_after(acted: service.Acted, version: int, command: service.Command) -> str:
    """What a command made at ``version`` did, then where the game stands:
    "8♣ to B7. 14 cards in place." """
    before, after = acted.before, acted.game
    added = after.version - version
    if isinstance(command, service.Undo):
        words = _("Move undone.")
    elif isinstance(command, service.Resign | service.CountHint):
        words = ""
    elif isinstance(command, service.AllHome):
        words = ngettext("%(num)s card went home.", "%(num)s cards went home.", added) % {
            "num": added
        }
    else:
        # The move as the service stored it (a drop's places already made into its move).
        played = before.play(before.parse_action(acted.move))
        words = sentence(after.game.describe("move", acted.move, before, played))
        if added > 1:
            autos = added - 1
            words += " " + ngettext(
                "%(num)s card went home by itself.", "%(num)s cards went home by themselves.", autos
            ) % {"num": autos}
    return " ".join(part for part in (words, standing(after)) if part)


def fewer_words(moved: int, held: int) -> str:
    """The player picked up ``held`` cards and only ``moved`` went: say so."""
    return ngettext(
        "Only %(num)s of the %(held)s cards you picked up could move there at once "
        "(free cells and empty columns limit a run).",
        "Only %(num)s of the %(held)s cards you picked up could move there at once "
        "(free cells and empty columns limit a run).",
        moved,
    ) % {"num": moved, "held": held}


def describe_hint(game: Game, notation: str | None, sure: bool) -> str:
    """The hint in words, for the message line."""
    if notation is None:
        return _("No move helps from here.")
    position = game.position
    after = position.play(position.parse_action(notation))
    words = game.game.describe("move", notation, position, after)
    if sure:
        return _("Hint: %(move)s.") % {"move": words}
    return game.game.unsure_hint(words)


def verdict_words(game: Game, answer: Answer | None) -> str:
    """The answer to "can this still be won?" in words (None: the search goes on)."""
    if answer is None:
        return _("Still thinking: the solver is working on it. Ask again in a moment.")
    return game.game.verdict(game.position, answer.verdict, len(answer.moves), answer.positions)
