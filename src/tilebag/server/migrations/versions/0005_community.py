"""The community: rated games and their categories, ratings and their
history, seeks and direct challenges, correspondence turns that time out,
blocks and reports.

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
        games.add_column(sa.Column("category", sa.String(30), nullable=True))
        games.add_column(sa.Column("rated_done", sa.Boolean(), nullable=False, server_default=sa.false()))
        games.add_column(sa.Column("ended", sa.String(40), nullable=True))
        games.add_column(sa.Column("corr_days", sa.Integer(), nullable=True))
        games.add_column(sa.Column("turn_due", sa.String(40), nullable=True))
        games.create_index("ix_games_turn_due", ["turn_due"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("category", sa.String(30), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated", sa.String(40), nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("category", sa.String(30), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("expires", sa.String(40), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("setup", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("min_rating", sa.Integer(), nullable=True),
        sa.Column("max_rating", sa.Integer(), nullable=True),
        sa.Column("to_user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True),
        sa.Column("status", sa.String(12), nullable=False, server_default="open", index=True),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_table(
        "seek_seats",
        sa.Column("seek_id", sa.String(32), sa.ForeignKey("seeks.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("joined", sa.String(40), nullable=False),
    )
    op.create_table(
        "blocks",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("chat_seq", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("resolved", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    for table in ("reports", "blocks", "seek_seats", "seeks", "rating_history", "ratings"):
        op.drop_table(table)
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_turn_due")
        for column in ("turn_due", "corr_days", "ended", "rated_done", "category", "rated"):
            games.drop_column(column)
