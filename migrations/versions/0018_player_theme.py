"""A player's theme: the system's choice (``system``, the default), ``light`` or ``dark``,
a word the database checks (ck_players_theme), as every setting of the player's table.

Revision ID: 0018
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
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
