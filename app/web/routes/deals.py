"""A deal's records (``/deals/{kind}/{number}``), the deals of the day (``/daily``), and
starting one of them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import Response

from app import service
from app.games import KINDS
from app.service import deals, pars, ratings
from app.service.solvers import SolverPool
from app.store import Database
from app.web.deps import DatabaseDep, SolversDep
from app.web.errors import words
from app.web.pages import Context, render
from app.web.players import PlayerDep, page_settings, see_other
from app.web.throttle import limited

router = APIRouter()

ShortField = Annotated[str, Form(max_length=64)]


@router.get("/deals/{kind}/{number}", name="deal_records")
def deal_records(
    request: Request,
    db: DatabaseDep,
    solvers: SolversDep,
    kind: str,
    number: str,
    variant: str = "",
) -> Response:
    """How many played and won the deal, its best wins, what the solver proved, and its
    par (the shortest line known: found in the solver pool when none is kept yet)."""
    found = _records(db, kind, number, variant)
    return render(
        request,
        "deal.html",
        records=found,
        rating=ratings.deal_rating(db=db, kind=found.kind, variant=found.variant, deal=found.deal),
        kinds=KINDS,
        **_par(request, db, solvers, found),
        settings=page_settings(request),
    )


@router.get("/deals/{kind}/{number}/par", name="deal_par")
def deal_par(
    request: Request,
    db: DatabaseDep,
    solvers: SolversDep,
    kind: str,
    number: str,
    variant: str = "",
) -> Response:
    """The deal's par alone (the records page asks again while it is being worked out)."""
    found = _records(db, kind, number, variant)
    return render(request, "_par.html", **_par(request, db, solvers, found))


def _records(db: Database, kind: str, number: str, variant: str) -> deals.DealRecords:
    try:
        deal = deals.deal_number(kind, variant[:32] or None, number)
        return deals.deal_records(db=db, kind=kind, variant=variant[:32] or None, deal=deal)
    except service.UnknownGameKind as error:
        raise HTTPException(404, words(error)) from None


def _par(request: Request, db: Database, solvers: SolverPool, found: deals.DealRecords) -> Context:
    if not pars.has_par(found.kind):
        return {"par": None}
    par = pars.deal_par(db=db, solvers=solvers, variant=found.variant, deal=found.deal)
    url = request.url_for("deal_par", kind=found.kind, number=found.deal)
    return {"par": par, "par_url": f"{url.path}?variant={found.variant}"}


@router.get("/daily", name="daily")
def daily(request: Request, db: DatabaseDep, player: PlayerDep) -> Response:
    found = deals.daily(db=db, player_id=player)
    return render(request, "daily.html", daily=found, kinds=KINDS, settings=page_settings(request))


@router.post("/daily", name="start_daily", dependencies=[Depends(limited("new_game"))])
def start_daily(
    request: Request, db: DatabaseDep, player: PlayerDep, kind: ShortField, variant: ShortField = ""
) -> Response:
    """Today's deal of ``kind``'s ``variant``, as a new game marked as today's."""
    # Refused before a player is made: a refusal stores nothing.
    deals.checked(kind.strip(), variant.strip() or None, proved=True)
    player_id = service.ensure_player(db=db, player_id=player)
    game = deals.start_daily(
        db=db, player_id=player_id, kind=kind.strip(), variant=variant.strip() or None
    )
    return see_other(request, request.url_for("game_page", game_id=game.id), player_id, player)
