"""A Montana position names its variant: every stored position of a variant other than
Montana's own (Easy, Blue Moon, Red Moon) gets its ``Variant:`` line, as the engine now
writes it (a game's position, the position "Still winnable?" was asked at, and the
positions kept before moves for undo).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

OTHERS = "kind = 'montana' AND variant <> 'expert'"
"""The games whose positions name their variant."""


def _named(column: str, variant: str) -> str:
    return f"'Variant: ' || {variant} || :newline || {column}"


def upgrade() -> None:
    for column in ("position", "verdict_position"):
        op.execute(
            sa.text(
                f"UPDATE games SET {column} = {_named(column, 'variant')} "
                f"WHERE {OTHERS} AND {column} IS NOT NULL AND {column} NOT LIKE 'Variant:%'"
            ).bindparams(newline="\n")
        )
    before = '"before"'  # a word of SQL: quoted
    variant = "(SELECT games.variant FROM games WHERE games.id = moves.game_id)"
    op.execute(
        sa.text(
            f"UPDATE moves SET {before} = {_named(before, variant)} "
            f"WHERE {before} IS NOT NULL AND {before} NOT LIKE 'Variant:%' "
            f"AND game_id IN (SELECT id FROM games WHERE {OTHERS})"
        ).bindparams(newline="\n")
    )


def _unnamed(column: str) -> str:
    """The text after its first line (the ``Variant:`` line), in either database's SQL."""
    if op.get_bind().dialect.name == "postgresql":
        return f"SUBSTR({column}, STRPOS({column}, :newline) + 1)"
    return f"SUBSTR({column}, INSTR({column}, :newline) + 1)"


def downgrade() -> None:
    for column in ("position", "verdict_position"):
        op.execute(
            sa.text(
                f"UPDATE games SET {column} = {_unnamed(column)} "
                f"WHERE {OTHERS} AND {column} LIKE 'Variant:%'"
            ).bindparams(newline="\n")
        )
    before = '"before"'
    op.execute(
        sa.text(
            f"UPDATE moves SET {before} = {_unnamed(before)} WHERE {before} LIKE 'Variant:%' "
            f"AND game_id IN (SELECT id FROM games WHERE {OTHERS})"
        ).bindparams(newline="\n")
    )
