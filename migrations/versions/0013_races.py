"""Races: a race on one deal (``races``) and its racers (``racers``), each racer playing
an ordinary game of that deal.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.store.models import UTCDateTime

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "races",
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("limit_minutes", sa.Integer(), nullable=True),
        sa.Column("creator_id", sa.String(32), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=True),
        sa.Column("finished_at", UTCDateTime(), nullable=True),
        sa.CheckConstraint(
            "state IN ('lobby', 'running', 'finished')", name=op.f("ck_races_state")
        ),
        sa.ForeignKeyConstraint(
            ["kind"], ["game_kinds.kind"], name=op.f("fk_races_kind_game_kinds"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["creator_id"], ["players.id"], name=op.f("fk_races_creator_id_players"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_races")),
    )  # fmt: skip
    op.create_table(
        "racers",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False,
                  autoincrement=True),
        sa.Column("race_token", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("joined", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(24), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("watch_token", sa.String(32), nullable=True),
        sa.Column("outcome", sa.String(12), nullable=True),
        sa.Column("race_ms", sa.BigInteger(), nullable=True),
        sa.Column("moves", sa.Integer(), nullable=True),
        sa.Column("cards_left", sa.Integer(), nullable=True),
        sa.Column("hinted", sa.Boolean(), nullable=True),
        sa.Column("position", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "outcome IS NULL OR outcome IN ('won', 'gave_up', 'unfinished')",
            name=op.f("ck_racers_outcome"),
        ),
        sa.ForeignKeyConstraint(
            ["race_token"], ["races.token"], name=op.f("fk_racers_race_token_races"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_racers_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_racers_game_id_games"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_racers")),
        sa.UniqueConstraint("race_token", "player_id", name=op.f("uq_racers_race_token_player_id")),
        sa.UniqueConstraint("race_token", "joined", name=op.f("uq_racers_race_token_joined")),
    )  # fmt: skip
    op.create_index("ix_racers_game_id", "racers", ["game_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_racers_game_id", table_name="racers")
    op.drop_table("racers")
    op.drop_table("races")
