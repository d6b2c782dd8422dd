"""Rendering pages and the ``#game`` fragment: the one place that picks page or fragment."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app import games
from app.games import Game
from app.rules.freecell import FreeCellPosition
from app.rules.montana import MontanaPosition
from app.rules.protocol import Position
from app.web.boards import freecell_board, montana_board
from app.web.htmx import is_htmx
from app.web.players import current_player


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
) -> Response:
    """The ``#game`` fragment for htmx, the whole game page otherwise."""
    template = "_game.html" if is_htmx(request) else "game.html"
    board = board_for(request, game, pick)
    return render(request, template, status_code, game=game, board=board, message=message)
