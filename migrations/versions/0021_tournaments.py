"""Weekly tournaments: a tournament a game, variant and week (``tournaments``) and the
games played in them (``tournament_games``: one game a player and deal).

Revision ID: 0021
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.store.models import UTCDateTime

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", ID, nullable=False, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("week", sa.Date(), nullable=False),
        sa.Column("starts_at", UTCDateTime(), nullable=False),
        sa.Column("ends_at", UTCDateTime(), nullable=False),
        sa.Column("deals", sa.String(200), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("entrants", sa.Integer(), nullable=True),
        sa.Column("winners", sa.String(2000), nullable=True),
        sa.ForeignKeyConstraint(
            ["kind"], ["game_kinds.kind"], name=op.f("fk_tournaments_kind_game_kinds"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("kind", "variant", "week", name=op.f("uq_tournaments_kind_variant")),
    )  # fmt: skip
    op.create_table(
        "tournament_games",
        sa.Column("id", ID, nullable=False, autoincrement=True),
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("k", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"],
            name=op.f("fk_tournament_games_tournament_id_tournaments"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_tournament_games_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_tournament_games_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_games")),
        sa.UniqueConstraint(
            "tournament_id", "player_id", "k",
            name=op.f("uq_tournament_games_tournament_id_player_id"),
        ),
    )  # fmt: skip
    op.create_index("ix_tournament_games_game_id", "tournament_games", ["game_id"], unique=True)
    op.create_index("ix_tournament_games_player_id", "tournament_games", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_player_id", table_name="tournament_games")
    op.drop_index("ix_tournament_games_game_id", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_table("tournaments")
