"""Rendering pages and the ``#game`` fragment: the one place that picks page or fragment."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app import games
from app.games import Game
from app.i18n import gettext as _
from app.rules.freecell import FreeCellMove, FreeCellPosition
from app.rules.montana import MontanaMove, MontanaPosition, cell_name
from app.rules.protocol import Position
from app.web.boards import freecell_board, montana_board
from app.web.htmx import is_htmx
from app.web.players import current_player
from app.web.words import describe


def render(request: Request, template: str, status_code: int = 200, **context: Any) -> Response:
    templates = request.app.state.templates
    response: HTMLResponse = templates.TemplateResponse(
        request, template, context, status_code=status_code
    )
    return response


def board_for(request: Request, game: Game, pick: str | None) -> object:
    """The view of the board the game's templates draw."""
    if game.kind == "freecell":
        auto = games.auto_moves(db=request.app.state.db, player_id=current_player(request))
    else:
        auto = True
    return board_view(game.position, playable=not game.is_over, pick=pick, auto_moves=auto)


def board_view(
    position: Position, *, playable: bool, pick: str | None = None, auto_moves: bool = True
) -> object:
    if isinstance(position, MontanaPosition):
        return montana_board(position, playable=playable, pick=pick)
    assert isinstance(position, FreeCellPosition)
    return freecell_board(position, playable=playable, pick=pick, auto_moves=auto_moves)


def render_game(
    request: Request,
    game: Game,
    *,
    status_code: int = 200,
    message: str | None = None,
    pick: str | None = None,
    hint: str | None = None,
) -> Response:
    """The ``#game`` fragment for htmx, the whole game page otherwise.

    ``hint`` is a move to point at (its card and its place light up), never played.
    """
    template = "_game.html" if is_htmx(request) else "game.html"
    board = board_for(request, game, pick)
    hinted = hinted_places(game.position, hint) if hint and not game.is_over else frozenset()
    return render(
        request, template, status_code, game=game, board=board, message=message, hinted=hinted
    )


def hinted_places(position: Position, notation: str) -> frozenset[str]:
    """The names of the cells (Montana) or places (FreeCell) a hinted move joins."""
    try:
        move = position.parse_action(notation)
    except ValueError:
        return frozenset()
    if isinstance(move, MontanaMove) and isinstance(position, MontanaPosition):
        return frozenset({cell_name(position.where(move.card)), cell_name(move.cell)})
    if isinstance(move, FreeCellMove) and isinstance(position, FreeCellPosition):
        card = position.card_at(move.source)
        target = card.suit if move.target == "h" and card else move.target
        return frozenset({move.source, target})
    return frozenset({"redeal"})


def describe_hint(position: Position, notation: str | None, sure: bool) -> str:
    """The hint in words, for the message line."""
    if notation is None:
        return "No move helps from here."
    after = position.play(position.parse_action(notation))
    words = describe("move", notation, position, after)
    if sure:
        return f"Hint: {words}."
    if isinstance(position, MontanaPosition):  # its search waits to be carried on
        return f"Still thinking: the best move found so far is {words}. Ask again to think on."
    return f"Still thinking: the best move found so far is {words}."


def verdict_words(game: Game, verdict: str, length: int, searched: int) -> str:
    """The answer to "can this still be won?" in words."""
    if verdict == "thinking":
        return _("Still thinking: the solver is working on it. Ask again in a moment.")
    if game.kind == "montana":
        return {
            "solved": f"Yes: this round can be cleared without another redeal ({length} moves).",
            "unsolvable": (
                f"No: this round cannot be cleared (all {searched:,} positions it can reach "
                "were tried); a redeal is needed."
            ),
        }.get(verdict, "Not sure: the search ran out of time before it found an answer.")
    return {
        "solved": f"Yes: this game can still be won (a winning line of {length} moves exists).",
        "unsolvable": (
            f"No: this game can no longer be won (all {searched:,} positions reachable with "
            "single-card moves were tried)."
        ),
    }.get(verdict, "Not sure: the search ran out of time before it found an answer.")
