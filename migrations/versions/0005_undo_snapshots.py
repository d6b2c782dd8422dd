"""Undo snapshots: each move keeps the position before it, so undo never replays the game.

Games begun before this revision keep ``undo_top`` NULL and undo by replaying, as before.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("undo_top", sa.Integer(), nullable=True))
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("before", sa.Text(), nullable=True))
        batch.add_column(sa.Column("below", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("below")
        batch.drop_column("before")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("undo_top")
