"""A loss stays on the record, a verdict stays with the game that asked, and redo.

- ``games.result``: the result on the player's record, ``won`` or ``lost`` (NULL while none).
  A loss is kept for good, even when Undo takes the game back into play; the statistics read
  it (and ``finished_at``, now the moment the result was reached) instead of ``status``.
  Existing games get the result their status says.
- ``games.verdict_position``: the position at which "Still winnable?" was last asked in this
  game; its answer is shown only there, and again when the game comes back to it (NULL:
  never asked).
- ``games.redo_count``: how many undone moves Redo can bring back (0 for existing games).

The two statistics indexes cover ``result`` instead of ``status``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

OLD_STATS = ["status", "play_ms", "moves_count", "score", "cards_left", "id"]
NEW_STATS = ["result", "play_ms", "moves_count", "score", "cards_left", "id"]


def upgrade() -> None:
    op.drop_index("ix_games_player_finished", table_name="games")
    op.drop_index("ix_games_finished", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("result", sa.String(8), nullable=True))
        batch.add_column(sa.Column("verdict_position", sa.Text(), nullable=True))
        batch.add_column(sa.Column("redo_count", sa.Integer(), nullable=False, server_default="0"))
        batch.create_check_constraint(op.f("ck_games_result"), "result IN ('won', 'lost')")
    op.execute("UPDATE games SET result = status WHERE status IN ('won', 'lost')")
    _indexes(NEW_STATS)


def downgrade() -> None:
    op.drop_index("ix_games_player_finished", table_name="games")
    op.drop_index("ix_games_finished", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(op.f("ck_games_result"), type_="check")
        batch.drop_column("redo_count")
        batch.drop_column("verdict_position")
        batch.drop_column("result")
    _indexes(OLD_STATS)


def _indexes(stats: list[str]) -> None:
    op.create_index("ix_games_finished", "games", ["kind", "variant", "finished_at", *stats])
    op.create_index(
        "ix_games_player_finished", "games", ["player_id", "kind", "variant", "finished_at", *stats]
    )
