"""A player's own table: deck colours, card size, hand, automatic moves home, motion.

The boolean ``auto_moves`` becomes ``auto_home``: on is ``safe`` (the rule it played
before), off is ``off``. Each setting is a word the database checks (ck_players_deck, …);
the words are written out here, not read from the code, as a migration is history.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

SETTINGS = (
    ("deck", "two", ("two", "four")),
    ("card_size", "normal", ("normal", "large")),
    ("hand", "right", ("right", "left")),
    ("auto_home", "safe", ("off", "safe", "all")),
    ("motion", "on", ("on", "reduced")),
)


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        for name, default, _words in SETTINGS:
            batch.add_column(sa.Column(name, sa.String(8), server_default=default, nullable=False))
    players = sa.table("players", sa.column("auto_moves", sa.Boolean), sa.column("auto_home"))
    op.execute(players.update().where(players.c.auto_moves == sa.false()).values(auto_home="off"))
    with op.batch_alter_table("players") as batch:
        batch.drop_column("auto_moves")
        for name, _default, words in SETTINGS:
            quoted = ", ".join(f"'{word}'" for word in words)
            batch.create_check_constraint(op.f(f"ck_players_{name}"), f"{name} IN ({quoted})")


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(
            sa.Column("auto_moves", sa.Boolean, server_default=sa.true(), nullable=False)
        )
    players = sa.table("players", sa.column("auto_moves", sa.Boolean), sa.column("auto_home"))
    op.execute(players.update().where(players.c.auto_home == "off").values(auto_moves=False))
    with op.batch_alter_table("players") as batch:
        for name, _default, _words in SETTINGS:
            batch.drop_constraint(op.f(f"ck_players_{name}"), type_="check")
            batch.drop_column(name)
