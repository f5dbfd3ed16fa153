"""The queue of finished games to analyse, and their analyses.

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("queued", sa.String(40), nullable=False),
        sa.Column("started", sa.String(40), nullable=True),
        sa.Column("finished", sa.String(40), nullable=True),
        sa.Column("worker", sa.String(80), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
    )
    op.create_index("analyses_by_status", "analyses", ["status", "queued"])


def downgrade() -> None:
    op.drop_index("analyses_by_status", "analyses")
    op.drop_table("analyses")
