"""Accounts: users (Argon2 password hashes), their sessions and API tokens
(stored as SHA-256 hashes of the secrets), and the account holding a seat.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(20), nullable=False),
        sa.Column("key", sa.String(20), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("role", sa.String(10), nullable=False, server_default="player"),
        sa.Column("disabled", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "sessions",
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("expires", sa.String(40), nullable=False),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("user_id", sa.Integer(), nullable=True))
        seats.create_foreign_key("seats_user", "users", ["user_id"], ["id"], ondelete="SET NULL")
        seats.create_index("ix_seats_user_id", ["user_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("ix_seats_user_id")
        seats.drop_constraint("seats_user", type_="foreignkey")
        seats.drop_column("user_id")
    op.drop_table("api_tokens")
    op.drop_table("sessions")
    op.drop_table("users")
