"""A game keeps the difficulty it was started with (a random deal of a difficulty chosen
on the home page): its page says it, and "New game" from it deals the same difficulty.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("difficulty", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("difficulty")
