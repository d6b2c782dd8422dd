"""A restart is applied once: games.restart_of names the game and version a game restarted,
and a unique index lets only one game do so (the other requests get that one).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("restart_of", sa.String(length=48), nullable=True))
        batch.create_index("ix_games_restart_of", ["restart_of"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_restart_of")
        batch.drop_column("restart_of")
