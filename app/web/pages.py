"""Rendering pages and the ``#game`` fragment: the one place that picks page or fragment.

Rendering does no I/O: the service hands a :class:`~app.service.Table` with everything a
game's page shows, and the game's own view (from the registry) words it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Final

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app import i18n, service
from app.i18n import gettext as _
from app.i18n import isolate, ngettext
from app.rules.kind import Board
from app.rules.protocol import Action, Answer, Position, Verdict
from app.service import Game, HistoryEntry, Table
from app.web import race_rows
from app.web.deps import solvers
from app.web.htmx import is_htmx
from app.web.par_words import par_words
from app.web.players import current_player, page_settings
from app.web.templating import clock, paths
from app.words import sentence

Context = dict[str, Any]  # a template's context: Jinja2 takes values of any type
"""What a template is given to draw (``render(…, **context)``)."""


def render(
    request: Request,
    template: str,
    status_code: int = 200,
    **context: Any,  # Jinja2 takes values of any type
) -> Response:
    """``template`` with ``context``; a whole page (not a ``_fragment``) is given the
    player's ``settings`` (:func:`~app.web.players.page_settings`, read before), which its
    ``<html>`` draws: drawing reads nothing."""
    if "settings" not in context:
        if not template.rpartition("/")[2].startswith("_"):
            raise TypeError(f"{template} is a page: pass settings=page_settings(request)")
        context["settings"] = service.DEFAULT_SETTINGS  # a fragment draws no <html>
    templates = request.app.state.templates
    response: HTMLResponse = templates.TemplateResponse(
        request, template, context, status_code=status_code
    )
    return response


def table_for(request: Request, game: Game, settings: service.Settings | None = None) -> Table:
    """What ``game``'s page shows for this request's player (read before rendering)."""
    return service.table(
        db=request.app.state.db,
        solvers=solvers(request),
        game=game,
        player_id=current_player(request),
        settings=settings,
        whole=not is_htmx(request),
    )


def render_game(
    request: Request,
    table: Table,
    *,
    status_code: int = 200,
    message: str | None = None,
    pick: str | None = None,
    hint: Action | None = None,
    said: str | None = None,
    shown: Position | None = None,
    moved: tuple[str, int] | None = None,
) -> Response:
    """The ``#game`` fragment for htmx, the whole game page otherwise.

    ``moved``: where the cards the last move played lie (the board's element, and how
    many of its last cards), marked until the next move (site.js sets ``data-last-move``).

    ``hint`` is a move to point at (its card and its place light up), never played.
    ``said`` is what the action did, in words: with ``message`` it is what the page's one
    live region (outside ``#game``, updated out of band) announces. ``shown`` is the
    position the player's board shows, drawn plainly in this language (the board said so
    when it posted): the fragment then keeps that board and sends only the cells that
    changed (:func:`changed_cells`).
    """
    game = table.game
    fragment = is_htmx(request)
    template = "_game.html" if fragment else "game.html"
    board = game.game.board(game.position, playable=not game.is_over, pick=pick)
    if message is None and said is None and not pick and table.known is not None:
        message = verdict_words(game, table.known)
    seat = table.seat
    if message is None and seat is not None and seat.race.time_up and not game.is_over:
        message = _("The race's time is up: this game takes no more moves.")
    hinted = game.game.hinted_places(game.position, hint) if hint and not game.is_over else None
    par_said = par_words(table.par) if table.par is not None else ""
    # The move that wins hears how it compares with the deal's par.
    announcement = " ".join(part for part in (said, par_said if said else "", message) if part)
    # A board drawn plainly (in play, no hint lit, no 2 being chosen) says so in what it
    # posts, so the answer to its next move can send only what changed.
    plain = not game.is_over and not pick and not hinted and game.game.board_cells is not None
    changed = None
    if fragment and plain and shown is not None:
        changed = changed_cells(game, table, board, shown)
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
        shown=i18n.current() if plain else "",
        changed=changed,
        moved=moved,
        # The board rings the moved cards itself on a whole page (no script may): a move's
        # part leaves that to site.js, or a ring would stay on a place it does not send.
        ringed=None if fragment else moved,
        settings=table.settings,
        par=table.par,
        par_said=par_said,
        # A game played in a race shows the race beside it (the page, not each move's part).
        race_token=None if fragment else table.race,
        in_race=table.race is not None,
        seat=seat,
        race_rows=race_rows.rows(request, seat.race) if seat is not None and not fragment else [],
        fewest_cells=table.fewest_cells,
        # A tournament game: one try, and blind while its week runs (no deal number).
        tournament=table.tournament,
        blind=table.blind,
        # Found once a render, paths only: the fragment names them on every form and link.
        game_url=paths(request).path_for(request, "game_page", game_id=game.id),
        action_url=paths(request).path_for(request, "game_action", game_id=game.id),
    )
    # A game moves on: Back and Forward must never show an old board from a cache (the
    # browser's back/forward cache keeps no page that says no-store).
    response.headers["Cache-Control"] = "no-store"
    return response


CHANGED_AT_MOST: Final = 0.75
"""Past this share of the board's cells changed (a redeal), the whole board is sent."""


def changed_cells(game: Game, table: Table, board: Board, shown: Position) -> list[Hashable] | None:
    """The cells of ``board`` that differ from the same board drawn for ``shown`` (the
    position before the action, as the player's page draws it), or None when most do."""
    cells_of = game.game.board_cells
    assert cells_of is not None
    before = game.game.board(shown, playable=True, pick=None)
    now, was = cells_of(board), cells_of(before)
    if len(now) != len(was):
        return None
    changed = [cell for cell, old in zip(now, was, strict=True) if cell != old]
    return changed if len(changed) <= CHANGED_AT_MOST * len(now) else None


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
    action, played = acted.action, acted.played or after.position
    if isinstance(command, service.Undo):
        words = _("Move undone.")
    elif isinstance(command, service.Redo) and action is not None:
        move = after.game.describe("move", action, before, played)
        words = _("Move redone: %(move)s.") % {"move": move}
    elif action is None:  # giving up, a hint, or a game's own sweep ("All home")
        sweep = (
            after.game.sweeps.get(command.text.lower())
            if isinstance(command, service.Play)
            else None
        )
        words = sweep.said(after.version - version) if sweep is not None else ""
    else:
        # The move as the service read it (a drop's places already made into its move).
        words = sentence(after.game.describe("move", action, before, played))
        if autos := acted.automatic:
            words += " " + ngettext(
                "%(num)s card went home by itself.", "%(num)s cards went home by themselves.", autos
            ) % {"num": autos}
    return " ".join(part for part in (words, standing(after)) if part)


def read_hint(game: Game, text: str | None) -> Action | None:
    """A hinted move that came in as text (a link's ``?hint=``, the solver's answer), read
    once against the game's position; None when it names no move playable there."""
    if not text:
        return None
    try:
        action = game.position.parse_action(text)
        game.position.play(action)
    except ValueError:
        return None
    return action


def describe_hint(game: Game, action: Action | None, sure: bool) -> str:
    """The hint in words, for the message line (None: no move helps)."""
    if action is None:
        return _("No move helps from here.")
    position = game.position
    after = position.play(action)
    if sure:
        said = game.game.describe("hint", action, position, after)
        why = game.game.presenter.explain(position, action, None)  # facts read off the board
        return f"{said} {why}" if why else said
    return game.game.unsure_hint(game.game.describe("move", action, position, after))


def verdict_words(game: Game, answer: Answer | None) -> str:
    """The answer to "can this still be won?" in words (None: the search goes on)."""
    if answer is None:
        return _("Still thinking: the solver is working on it. Ask again in a moment.")
    if service.from_proof(answer) and answer.verdict == "solved":
        if game.game.round_starts:
            return _("Yes: this round can be cleared without a redeal (proved for this deal).")
        return _("Yes: this deal can be won (it was proved winnable).")
    if service.from_proof(answer):
        if game.game.round_starts:
            return _("Not this round: this deal's first round was proved impossible to clear.")
        return _("No: this deal cannot be won (it was proved impossible).")
    if answer.verdict == "unsolvable" and at_the_deal(game) and game.game.proofs_cover_the_game:
        # Nothing played yet: it is the deal that cannot be won, not the game gone wrong.
        return _("No: this deal cannot be won. No line of play wins from it.")
    return game.game.verdict(game.position, answer.verdict, len(answer.moves), answer.positions)


def at_the_deal(game: Game) -> bool:
    """Whether the game stands where its deal began (nothing played, or all undone)."""
    dealt = game.rules.new_game(game.deal, game.variant)
    return game.position.to_text() == dealt.to_text()


def steps_page(
    request: Request,
    steps: service.Steps,
    steps_url: str,
    solution_verdict: Verdict | None = None,
    *,
    watching: bool = False,
) -> Response:
    """A replay or a solution: a window of steps to go through (``steps``), each action in
    words, the board at the step shown; its links go to ``steps_url?step=N``. The page, or
    with htmx the ``#replay`` fragment (``_replay.html``), which any page can include with
    the same context. ``watching``: the replay a watch link shows (``steps_url``): every
    link and form goes there, none to the game (its address stays hidden)."""
    game = steps.game
    hidden: Context = {"action_url": steps_url, "game_url": steps_url} if watching else {}
    plain = game.game.presenter.words_only
    described = [
        (
            entry,
            describe_action(game, entry, before, after),
            entry.kind in ("move", "auto") and entry.notation not in plain,
        )
        for entry, before, after in zip(
            steps.entries, steps.positions, steps.positions[1:], strict=False
        )
    ]
    fragment = is_htmx(request)
    shown = steps.entry
    moved = None
    if shown is not None and shown.action is not None:
        moved = game.game.moved_to(steps.positions[steps.step - steps.first], shown.action)
    return render(
        request,
        "_replay.html" if fragment else "replay.html",
        moved=moved,
        ringed=moved,
        settings=service.DEFAULT_SETTINGS if fragment else page_settings(request),
        watching=watching,
        **hidden,
        game=game,
        step=steps.step,
        last=steps.last,
        first=steps.first,
        earlier=steps.earlier,
        later=steps.later,
        steps=described,
        board=game.game.board(steps.position, playable=False),
        hinted=frozenset(),
        position=steps.position,
        steps_url=steps_url,
        solution_verdict=solution_verdict,
        solution_words=game.game.solution(solution_verdict) if solution_verdict else "",
        why=_solution_why(game, steps) if solution_verdict == "solved" else "",
    )


def _solution_why(game: Game, steps: service.Steps) -> str:
    """Why the solver's move at the step shown is good: the facts of the move that made
    it (a solution's line: the moves it still needs after it)."""
    entry = steps.entry
    if entry is None or entry.action is None:
        return ""
    before = steps.positions[steps.step - steps.first]
    return game.game.presenter.explain(before, entry.action, steps.last - steps.step)


def describe_action(game: Game, step: HistoryEntry, before: Position, after: Position) -> str:
    """An action of the history in words (undo and giving up are every game's)."""
    if step.action is None:
        return _("resign") if step.kind == "resign" else _("undo")
    move = game.game.describe(
        "move" if step.kind == "redo" else step.kind, step.action, before, after
    )
    return _("redo: %(move)s") % {"move": move} if step.kind == "redo" else move
