"""A deal's records and the deals of the day (indexes, games.daily_on), display names
(players.name, unique case-folded as players.name_key) and watch links (shares).

The wins' indexes are partial (``status = 'won'``): a game in play is in none of them,
so a move never updates them.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.store.models import UTCDateTime

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

WON = sa.text("status = 'won'")
DAILY = sa.text("daily_on IS NOT NULL")
DAILY_WON = sa.text("daily_on IS NOT NULL AND status = 'won'")
INDEXES = (
    ("ix_games_deal", ("kind", "variant", "deal", "status"), None),
    (
        "ix_games_deal_wins",
        ("kind", "variant", "deal", "hints_used", "moves_count", "play_ms"),
        WON,
    ),
    (
        "ix_games_deal_fastest",
        ("kind", "variant", "deal", "hints_used", "play_ms", "moves_count"),
        WON,
    ),
    ("ix_games_daily", ("daily_on", "kind", "variant", "deal", "status"), DAILY),
    (
        "ix_games_daily_wins",
        ("daily_on", "kind", "variant", "deal", "hints_used", "moves_count", "play_ms"),
        DAILY_WON,
    ),
    ("ix_games_player_daily", ("player_id", "daily_on"), DAILY),
)


def upgrade() -> None:
    op.add_column("players", sa.Column("name", sa.String(24), nullable=True))
    op.add_column("players", sa.Column("name_key", sa.String(96), nullable=True))
    op.create_index(op.f("ix_players_name_key"), "players", ["name_key"], unique=True)
    op.add_column("games", sa.Column("daily_on", sa.Date(), nullable=True))
    for name, columns, where in INDEXES:
        op.create_index(
            op.f(name), "games", list(columns), sqlite_where=where, postgresql_where=where
        )
    op.create_table(
        "shares",
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("revoked_at", UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_shares_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_shares")),
    )
    op.create_index(op.f("ix_shares_game_id"), "shares", ["game_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_shares_game_id"), table_name="shares")
    op.drop_table("shares")
    for name, _columns, _where in reversed(INDEXES):
        op.drop_index(op.f(name), table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("daily_on")
    op.drop_index(op.f("ix_players_name_key"), table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_key")
        batch.drop_column("name")
