"""Display names are unique by their confusable skeleton (Unicode TR39), kept NFKC.

``players.name_key`` was the name case-folded; it becomes a digest of the skeleton of the
name case-folded (:func:`app.service.names.key`), so no two names look alike. Each name is
normalised again as a new one would be (NFKC, at most three marks on a letter, not one of
the site's own words): a name the rules now refuse, or that looks like the name of a player
who was there before (by creation, then id), is cleared, and its player is anonymous until
they choose another. Downgrading folds the kept names again as before.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

players = sa.table(
    "players",
    sa.column("id", sa.String),
    sa.column("created_at", sa.DateTime),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def _named() -> list[sa.Row[tuple[str, str]]]:
    query = (
        sa.select(players.c.id, players.c.name)
        .where(players.c.name.is_not(None))
        .order_by(players.c.created_at, players.c.id)
    )
    return list(op.get_bind().execute(query))


def upgrade() -> None:
    from app.service import names  # the rules of today, applied once

    bind = op.get_bind()
    seen: set[str] = set()
    for player_id, name in _named():
        try:
            kept: str | None = names.normal(name)
        except names.NameRefused:
            kept = None
        key = names.key(kept) if kept else None
        if key in seen:
            kept = key = None
        if key:
            seen.add(key)
        bind.execute(
            players.update().where(players.c.id == player_id).values(name=kept, name_key=key)
        )


def downgrade() -> None:
    bind = op.get_bind()
    for player_id, name in _named():
        key = unicodedata.normalize("NFC", name.casefold())
        bind.execute(players.update().where(players.c.id == player_id).values(name_key=key))
