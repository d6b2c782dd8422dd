"""The ceiling for bench/load.py: the same board fragment, rendered without a database.

``POST /games/{id}/actions`` parses the same form and renders the ``#game`` fragment of a
Montana deal held in memory, through the site's own templates (gzip as the site does).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import FastAPI, Form, Request
from fastapi.responses import Response
from starlette.middleware.gzip import GZipMiddleware

from app.games import Game
from app.rules import montana
from app.web.boards import montana_board
from app.web.pages import render
from app.web.templating import make_templates

app = FastAPI()
app.state.templates = make_templates()
app.add_middleware(GZipMiddleware, minimum_size=1000)  # as the site does
NOW = datetime.now(UTC)
GAME = Game(
    id="c" * 24, player_id="p", kind="montana", variant="expert", deal=1, status="playing",
    resigned=False, version=0, position=montana.new_game(1), score=0, cards_left=48,
    moves_count=0, play_ms=0, created_at=NOW, last_action_at=NOW, finished_at=None,
)  # fmt: skip


@app.get("/", name="home")
def home() -> Response:
    return Response("ceiling")


@app.get("/games/{game_id}", name="game_page")
def game_page(game_id: str) -> Response:
    return Response("")


@app.post("/games/{game_id}/actions", name="game_action")
def game_action(
    request: Request, game_id: str, action: Annotated[str, Form()], version: Annotated[str, Form()]
) -> Response:
    assert isinstance(GAME.position, montana.MontanaPosition)
    board = montana_board(GAME.position)
    return render(request, "_game.html", game=GAME, board=board, message=None)


for name, path in (
    ("start_game", "/games"),
    ("game_position", "/games/{game_id}/position"),
    ("game_history", "/games/{game_id}/history"),
    ("restart_game", "/games/{game_id}/restart"),
    ("save_settings", "/settings"),
    ("my_games", "/mine"),
    ("stats_page", "/stats"),
):
    app.add_api_route(path, home, name=name)
