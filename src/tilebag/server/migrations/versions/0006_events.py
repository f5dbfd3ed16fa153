"""Club nights and tournaments: events, their divisions and players, rounds
with their pairing method and seed, pairings, and results.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("director_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True,
                  index=True),
        sa.Column("director", sa.String(200), nullable=True),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("rules", sa.String(40), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("clock", sa.Text(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("online", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("status", sa.String(12), nullable=False, server_default="open"),
    )
    op.create_table(
        "divisions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.UniqueConstraint("event_id", "name", name="divisions_name"),
    )
    op.create_table(
        "event_players",
        sa.Column("division_id", sa.Integer(), sa.ForeignKey("divisions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("joined", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("withdrawn", sa.Integer(), nullable=True),
        sa.Column("tsh_fields", sa.Text(), nullable=True),
    )
    op.create_table(
        "rounds",
        sa.Column("division_id", sa.Integer(), sa.ForeignKey("divisions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("method", sa.String(20), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("started", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "pairings",
        sa.Column("division_id", sa.Integer(), sa.ForeignKey("divisions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("a", sa.Integer(), nullable=False),
        sa.Column("b", sa.Integer(), nullable=True),
        sa.Column("first", sa.Integer(), nullable=True),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("division_id", sa.Integer(), sa.ForeignKey("divisions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("a", sa.Integer(), nullable=False),
        sa.Column("b", sa.Integer(), nullable=True),
        sa.Column("score_a", sa.Integer(), nullable=False),
        sa.Column("score_b", sa.Integer(), nullable=False),
        sa.Column("first", sa.Integer(), nullable=True),
        sa.Column("forfeit", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("entered", sa.String(40), nullable=False),
        sa.Column("entered_by", sa.Integer(), nullable=True),
        sa.Column("confirmed", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True),
        sa.Column("corrected_at", sa.String(40), nullable=True),
        sa.Index("results_by_round", "division_id", "round"),
    )


def downgrade() -> None:
    for table in ("results", "pairings", "rounds", "event_players", "divisions", "events"):
        op.drop_table(table)
