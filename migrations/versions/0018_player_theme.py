"""A player's theme: the system's choice (``system``, the default), ``light`` or ``dark``,
a word the database checks (ck_players_theme), as every setting of the player's table.

And the labels the site gives unnamed players ("anonymous 1", "Player 7", in every
language, with any number) are no display names now: a name kept that is one is cleared
(the player is anonymous again, and may choose another).

Revision ID: 0018
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


players = sa.table(
    "players", sa.column("id", sa.String), sa.column("name", sa.String), sa.column("name_key")
)


def upgrade() -> None:
    from app.service import names  # the rules of today, applied once

    bind = op.get_bind()
    named = bind.execute(sa.select(players.c.id, players.c.name).where(players.c.name.is_not(None)))
    for player_id, name in list(named):
        if names.site_like(name):
            cleared = players.update().where(players.c.id == player_id)
            bind.execute(cleared.values(name=None, name_key=None))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("theme", sa.String(8), server_default="system", nullable=False))
    with op.batch_alter_table("players") as batch:
        batch.create_check_constraint(
            op.f("ck_players_theme"), "theme IN ('system', 'light', 'dark')"
        )


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint(op.f("ck_players_theme"), type_="check")
        batch.drop_column("theme")
