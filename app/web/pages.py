"""Rendering pages and the ``#game`` fragment: the one place that picks page or fragment."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app import service
from app.games.freecell.rules import FreeCellMove, FreeCellPosition
from app.games.montana.rules import MontanaMove, MontanaPosition, cell_name
from app.i18n import gettext as _
from app.i18n import isolate, ngettext
from app.rules.protocol import Position
from app.service import Game
from app.web.boards import freecell_board, montana_board
from app.web.htmx import is_htmx
from app.web.players import current_player
from app.web.templating import clock
from app.web.words import describe, sentence


def render(request: Request, template: str, status_code: int = 200, **context: Any) -> Response:
    templates = request.app.state.templates
    response: HTMLResponse = templates.TemplateResponse(
        request, template, context, status_code=status_code
    )
    return response


def board_for(
    request: Request, game: Game, pick: str | None, auto_moves: bool | None = None
) -> object:
    """The view of the board the game's templates draw; ``auto_moves`` when already known."""
    auto = True if auto_moves is None else auto_moves
    if game.kind == "freecell" and auto_moves is None:
        auto = service.auto_moves(db=request.app.state.db, player_id=current_player(request))
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
    said: str | None = None,
    auto_moves: bool | None = None,
) -> Response:
    """The ``#game`` fragment for htmx, the whole game page otherwise.

    ``hint`` is a move to point at (its card and its place light up), never played.
    ``said`` is what the action did, in words: with ``message`` it is what the page's one
    live region (outside ``#game``, updated out of band) announces.
    """
    fragment = is_htmx(request)
    template = "_game.html" if fragment else "game.html"
    board = board_for(request, game, pick, auto_moves)
    if message is None and said is None and not pick and not game.is_over:
        message = remembered_verdict(game)
    hinted = hinted_places(game.position, hint) if hint and not game.is_over else frozenset()
    announcement = " ".join(part for part in (said, message) if part)
    response = render(
        request,
        template,
        status_code,
        game=game,
        board=board,
        message=message,
        hinted=hinted,
        announcement=announcement,
        fragment=fragment,
        # Found once a render, paths only: the fragment names them on every form and link.
        game_url=request.url_for("game_page", game_id=game.id).path,
        action_url=request.url_for("game_action", game_id=game.id).path,
    )
    # A game moves on: Back and Forward must never show an old board from a cache (the
    # browser's back/forward cache keeps no page that says no-store).
    response.headers["Cache-Control"] = "no-store"
    return response


def remembered_verdict(game: Game) -> str | None:
    """A sure "still winnable?" answer already found for this very position (the solver
    keeps them), worded in this reader's language; never searches."""
    known = service.known_verdict(game)
    if known is None or known[0] not in ("solved", "unsolvable"):
        return None
    return verdict_words(game, *known)


def stale_message() -> str:
    return _("This game moved on in another tab or device: here is where it stands now.")


def standing(game: Game) -> str:
    """Where the game stands, in a sentence: cards in place (Montana), cards left, the end."""
    if game.status == "won":
        return _("You won %(name)s #%(deal)s in %(time)s!") % {
            "name": game.rules.name,
            "deal": isolate(game.deal),
            "time": isolate(clock(game.play_ms)),
        }
    if game.resigned:
        return _("You gave up.")
    if game.status == "lost":
        return _("No moves left: game over.")
    if game.kind == "montana":
        score = game.score or 0
        return ngettext("%(num)s card in place.", "%(num)s cards in place.", score) % {"num": score}
    return ngettext("%(num)s card left.", "%(num)s cards left.", game.cards_left) % {
        "num": game.cards_left
    }


def said_after(before: Position, version: int, after: Game, action: str) -> str:
    """What an action made on ``before`` (at ``version``) did, then where the game stands:
    "8♣ to B7. 14 cards in place." """
    text = " ".join(action.split()).lower()
    added = after.version - version
    if text == "undo":
        words = _("Move undone.")
    elif text == "resign":
        words = ""
    elif text == "all-home":
        words = ngettext("%(num)s card went home.", "%(num)s cards went home.", added) % {
            "num": added
        }
    else:
        move = before.parse_action(action)
        played = before.play(move)
        words = sentence(describe("move", move.notation, before, played))
        if added > 1:
            autos = added - 1
            words += " " + ngettext(
                "%(num)s card went home by itself.", "%(num)s cards went home by themselves.", autos
            ) % {"num": autos}
    return " ".join(part for part in (words, standing(after)) if part)


def moved_count(position: Position, action: str) -> int:
    """How many cards ``action`` moves (1 for anything that is not a FreeCell run)."""
    try:
        move = position.parse_action(action)
    except ValueError:
        return 1
    return move.count if isinstance(move, FreeCellMove) else 1


def fewer_words(moved: int, held: int) -> str:
    """The player picked up ``held`` cards and only ``moved`` went: say so."""
    return ngettext(
        "Only %(num)s of the %(held)s cards you picked up could move there at once "
        "(free cells and empty columns limit a run).",
        "Only %(num)s of the %(held)s cards you picked up could move there at once "
        "(free cells and empty columns limit a run).",
        moved,
    ) % {"num": moved, "held": held}


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
        return _("No move helps from here.")
    after = position.play(position.parse_action(notation))
    words = describe("move", notation, position, after)
    if sure:
        return _("Hint: %(move)s.") % {"move": words}
    if isinstance(position, MontanaPosition):  # its search waits to be carried on
        return _(
            "Still thinking: the best move found so far is %(move)s. Ask again to think on."
        ) % {"move": words}
    return _("Still thinking: the best move found so far is %(move)s.") % {"move": words}


def verdict_words(game: Game, verdict: str, length: int, searched: int) -> str:
    """The answer to "can this still be won?" in words."""
    if verdict == "thinking":
        return _("Still thinking: the solver is working on it. Ask again in a moment.")
    unsure = _("Not sure: the search ran out of time before it found an answer.")
    numbers = {"num": isolate(length), "searched": isolate(f"{searched:,}")}
    if game.kind == "montana":
        if verdict == "solved":
            return (
                _("Yes: this round can be cleared without another redeal (%(num)s moves).")
                % numbers
            )
        if verdict != "unsolvable":
            return unsure
        left = getattr(game.position, "redeals_left", 0)
        if left:
            return ngettext(
                "Not this round: it cannot be cleared without a redeal (all %(searched)s "
                "positions it can reach were tried). The game goes on: %(num)s redeal left.",
                "Not this round: it cannot be cleared without a redeal (all %(searched)s "
                "positions it can reach were tried). The game goes on: %(num)s redeals left.",
                left,
            ) % {"num": left, "searched": numbers["searched"]}
        return (
            _(
                "No: this last round cannot be cleared (all %(searched)s positions it can reach "
                "were tried) and no redeal is left."
            )
            % numbers
        )
    if verdict == "solved":
        return _("Yes: this game can still be won (a winning line of %(num)s moves exists).") % (
            numbers
        )
    if verdict == "unsolvable":
        return (
            _(
                "No: this game can no longer be won (all %(searched)s positions reachable with "
                "single-card moves were tried)."
            )
            % numbers
        )
    return unsure
