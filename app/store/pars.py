"""The deals' pars (their rows: :mod:`app.store.par_models`)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.store.par_models import ParRecord, ParSource


def par(session: Session, kind: str, variant: str, deal: int) -> ParRecord | None:
    return session.get(ParRecord, (kind, variant, deal))


def keep(
    session: Session,
    kind: str,
    variant: str,
    deal: int,
    *,
    moves: int,
    line: str,
    source: ParSource,
    game_id: str | None = None,
) -> bool:
    """Keeps the line as the deal's par when none is known or it is strictly shorter."""
    row = session.scalars(
        select(ParRecord)
        .where(ParRecord.kind == kind, ParRecord.variant == variant, ParRecord.deal == deal)
        .with_for_update()
    ).first()
    if row is not None and row.moves <= moves:
        return False
    if row is None:
        row = ParRecord(kind=kind, variant=variant, deal=deal)
        session.add(row)
    row.previous = None if row.moves is None else row.moves
    row.moves, row.line, row.source, row.game_id = moves, line, source, game_id
    return True
