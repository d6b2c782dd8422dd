"""Pars: each deal's shortest known winning line (``pars``), a solver's or a player's.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pars",
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("previous", sa.Integer(), nullable=True),
        sa.CheckConstraint("source IN ('solver', 'player')", name=op.f("ck_pars_source")),
        sa.CheckConstraint("moves > 0", name=op.f("ck_pars_moves")),
        sa.ForeignKeyConstraint(
            ["kind"], ["game_kinds.kind"], name=op.f("fk_pars_kind_game_kinds"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_pars_game_id_games"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("kind", "variant", "deal", name=op.f("pk_pars")),
    )  # fmt: skip


def downgrade() -> None:
    op.drop_table("pars")
