"""A game's kind and status are checked by the database: ck_games_kind, ck_games_status.

The kinds are written out here, not read from ``app.games.GAMES``: a migration is history
and must build the same schema whatever games the code knows later. A new game therefore
adds a migration that widens ck_games_kind (drop it, create it with the new kind), the
kinds in alphabetical order as the model writes them.

On SQLite the checks are added by rebuilding the games table (batch mode); ``env.py``
turns foreign keys off meanwhile, so that dropping the old table deletes no moves.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.create_check_constraint(
            op.f("ck_games_status"), "status IN ('playing', 'won', 'lost')"
        )
        batch.create_check_constraint(op.f("ck_games_kind"), "kind IN ('freecell', 'montana')")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("ck_games_kind"), type_="check")
        batch.drop_constraint(op.f("ck_games_status"), type_="check")
