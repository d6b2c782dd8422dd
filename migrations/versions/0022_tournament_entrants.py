"""Each tournament entrant's totals, kept as their games end (``tournament_entrants``),
with an index in the table's order; filled from the games already played.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

FILL = """
INSERT INTO tournament_entrants
    (tournament_id, player_id, entered, played, won, won_ms, won_moves)
SELECT tg.tournament_id, tg.player_id, count(*),
    count(CASE WHEN g.finished_at < t.ends_at THEN g.result END),
    sum(CASE WHEN g.result = 'won' AND g.finished_at < t.ends_at THEN 1 ELSE 0 END),
    sum(CASE WHEN g.result = 'won' AND g.finished_at < t.ends_at THEN g.play_ms ELSE 0 END),
    sum(CASE WHEN g.result = 'won' AND g.finished_at < t.ends_at THEN g.moves_count ELSE 0 END)
FROM tournament_games tg
JOIN games g ON g.id = tg.game_id
JOIN tournaments t ON t.id = tg.tournament_id
GROUP BY tg.tournament_id, tg.player_id
"""


def upgrade() -> None:
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", ID, nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("entered", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("won_ms", sa.BigInteger(), nullable=False),
        sa.Column("won_moves", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_tournament_entrants_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_entrants")),
    )  # fmt: skip
    op.create_index(
        "ix_tournament_entrants_rank",
        "tournament_entrants",
        ["tournament_id", sa.text("won DESC"), "won_ms", "won_moves", sa.text("played DESC"),
         "player_id"],
    )  # fmt: skip
    op.execute(FILL)


def downgrade() -> None:
    op.drop_index("ix_tournament_entrants_rank", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
