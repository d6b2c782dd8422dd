"""The kinds of game are rows of a lookup table, ``game_kinds``, that ``games.kind`` refers
to (fk_games_kind_game_kinds), instead of a CHECK listing them (ck_games_kind goes).

A new game then adds a migration that inserts its kind: one row, and the games table is
not rebuilt (on SQLite, changing a CHECK rebuilt it, copying every game). This migration
rebuilds it once more, to trade the CHECK for the foreign key. As in 0006 the kinds are
written out here, not read from the registry: a migration is history.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

KINDS = ("freecell", "montana")


def upgrade() -> None:
    kinds = op.create_table(
        "game_kinds",
        sa.Column("kind", sa.String(16), nullable=False),
        sa.PrimaryKeyConstraint("kind", name=op.f("pk_game_kinds")),
    )
    op.bulk_insert(kinds, [{"kind": kind} for kind in KINDS])
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("ck_games_kind"), type_="check")
        batch.create_foreign_key(
            op.f("fk_games_kind_game_kinds"), "game_kinds", ["kind"], ["kind"], ondelete="RESTRICT"
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("fk_games_kind_game_kinds"), type_="foreignkey")
        batch.create_check_constraint(op.f("ck_games_kind"), "kind IN ('freecell', 'montana')")
    op.drop_table("game_kinds")
