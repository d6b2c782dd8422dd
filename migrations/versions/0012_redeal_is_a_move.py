"""A redeal is stored as the move it is: ``kind`` ``move``, notation ``redeal``.

The history's kinds are every game's (move, auto, undo, redo, resign); a game's own
actions are moves named by their notation, so the shared layers know no redeal.
Downgrading names Montana's redeals ``redeal`` again (the only game that had them).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

moves = sa.table("moves", sa.column("kind", sa.String), sa.column("notation", sa.String))


def upgrade() -> None:
    op.execute(moves.update().where(moves.c.kind == "redeal").values(kind="move"))


def downgrade() -> None:
    op.execute(
        moves.update()
        .where(moves.c.kind == "move", moves.c.notation == "redeal")
        .values(kind="redeal")
    )
