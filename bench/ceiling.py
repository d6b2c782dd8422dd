"""The ceiling for bench/load.py: bare FastAPI + Jinja2 rendering a 52-cell board.

A ``def`` route (FastAPI runs it in a worker thread, as it runs the site's routes) parses
the same form a move posts and renders a board of 52 cells, about 11 KB, from a template
held here: no database, no middleware, nothing of the site imported, so this file cannot
rot with the site's code. It is the most a request could do on this machine with this
stack; the load bench measures the site against it in the same run.

    uvicorn ceiling:app --app-dir bench
"""

from __future__ import annotations

from typing import Annotated

from fastapi import FastAPI, Form
from fastapi.responses import HTMLResponse
from jinja2 import Environment

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = (("C", "♣", "clubs"), ("D", "♦", "diamonds"), ("H", "♥", "hearts"), ("S", "♠", "spades"))
CELLS = [
    {
        "name": f"{'ABCD'[row]}{column + 1}",
        "code": f"{RANKS[(row * 13 + column) % 13]}{SUITS[row][0]}",
        "label": f"{RANKS[(row * 13 + column) % 13]}{SUITS[row][1]}",
        "suit": SUITS[row][2],
    }
    for row in range(4)
    for column in range(13)
]
BOARD = Environment(autoescape=True).from_string(
    """<div id="game" data-version="{{ version }}" data-status="playing">
<p class="status">Score <b>{{ score }}</b> · moves {{ version }} · redeals left 2</p>
<table class="montana" aria-label="Montana board">
{% for cell in cells %}{% if loop.index0 % 13 == 0 %}<tr>{% endif %}
<td id="c-{{ cell.name }}" class="{{ cell.suit }}"><form action="/games/{{ game_id }}/actions">\
<input type="hidden" name="version" value="{{ version }}"><button name="action" \
value="{{ cell.code }} {{ cell.name }}" aria-label="{{ cell.label }}, {{ cell.name }}">\
{{ cell.label }}</button></form></td>\
{% if loop.index0 % 13 == 12 %}</tr>{% endif %}{% endfor %}
</table>
</div>
"""
)

app = FastAPI()


@app.get("/")
def home() -> HTMLResponse:
    return HTMLResponse("ceiling")


@app.post("/games/{game_id}/actions")
def game_action(
    game_id: str, action: Annotated[str, Form()], version: Annotated[int, Form()]
) -> HTMLResponse:
    html = BOARD.render(cells=CELLS, game_id=game_id, version=version + 1, score=len(action))
    return HTMLResponse(html)
