"""The games of online events: each board of a round keeps the game the
server made for it.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pairings") as pairings:
        pairings.add_column(sa.Column("game_id", sa.String(32), nullable=True))
        pairings.create_index("ix_pairings_game_id", ["game_id"])


def downgrade() -> None:
    with op.batch_alter_table("pairings") as pairings:
        pairings.drop_index("ix_pairings_game_id")
        pairings.drop_column("game_id")
