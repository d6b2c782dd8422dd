"""Rendering pages and the ``#game`` fragment: the one place that picks page or fragment."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app.games import Game
from app.web.boards import montana_board
from app.web.htmx import is_htmx


def render(request: Request, template: str, status_code: int = 200, **context: Any) -> Response:
    templates = request.app.state.templates
    response: HTMLResponse = templates.TemplateResponse(
        request, template, context, status_code=status_code
    )
    return response


def game_context(game: Game, pick: str | None = None, message: str | None = None) -> dict[str, Any]:
    board = montana_board(game, pick) if game.kind == "montana" else None
    return {"game": game, "board": board, "message": message}


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
    return render(request, template, status_code, **game_context(game, pick, message))
