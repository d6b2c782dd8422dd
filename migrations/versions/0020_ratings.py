"""Ratings: Glicko-2 ratings of players and deals per game and variant (``ratings``), a
player's rating after each period they played (``rating_history``), the games rated
(``rated_games``) and the last period computed (``rating_periods``, one row: its lock).

Revision ID: 0020
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(8), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("subject_id", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("period", sa.Date(), nullable=False),
        sa.CheckConstraint("subject IN ('player', 'deal')", name=op.f("ck_ratings_subject")),
        sa.PrimaryKeyConstraint(
            "subject", "kind", "variant", "subject_id", name=op.f("pk_ratings")
        ),
    )  # fmt: skip
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("period", sa.Date(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_rating_history_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "player_id", "kind", "variant", "period", name=op.f("pk_rating_history")
        ),
    )  # fmt: skip
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("period", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rated_games_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rated_games")),
    )  # fmt: skip
    op.create_index("ix_rated_games_period", "rated_games", ["period"])
    periods = op.create_table(
        "rating_periods",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("last", sa.Date(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_periods")),
    )
    op.bulk_insert(periods, [{"id": 1, "last": None}])


def downgrade() -> None:
    op.drop_table("rating_periods")
    op.drop_index("ix_rated_games_period", table_name="rated_games")
    op.drop_table("rated_games")
    op.drop_table("rating_history")
    op.drop_table("ratings")
