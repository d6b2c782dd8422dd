"""Covering indexes for statistics: finished games by kind and variant, site-wide and per
player, with every column the statistics read.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_games_kind_variant_status", table_name="games")
    stats = ["status", "play_ms", "moves_count", "score", "cards_left", "id"]
    op.create_index("ix_games_finished", "games", ["kind", "variant", "finished_at", *stats])
    op.create_index(
        "ix_games_player_finished",
        "games",
        ["player_id", "kind", "variant", "finished_at", *stats],
    )


def downgrade() -> None:
    op.drop_index("ix_games_player_finished", table_name="games")
    op.drop_index("ix_games_finished", table_name="games")
    op.create_index("ix_games_kind_variant_status", "games", ["kind", "variant", "status"])
