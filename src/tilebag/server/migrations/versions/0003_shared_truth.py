"""What several processes need to share games through the database alone:
64-bit seeds, the bots' turns as leases, clients' action ids stored once,
and games set aside as damaged.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.alter_column("seed", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False)
        games.add_column(sa.Column("bot_due", sa.Boolean(), nullable=False, server_default=sa.false()))
        games.add_column(sa.Column("lease_owner", sa.String(80), nullable=True))
        games.add_column(sa.Column("lease_until", sa.String(40), nullable=True))
        games.add_column(sa.Column("damage", sa.Text(), nullable=True))
    op.create_index("games_waiting_bots", "games", ["bot_due", "status"])
    with op.batch_alter_table("actions") as actions:
        actions.add_column(sa.Column("client_id", sa.String(64), nullable=True))
        actions.create_unique_constraint("actions_client_id", ["game_id", "client_id"])


def downgrade() -> None:
    with op.batch_alter_table("actions") as actions:
        actions.drop_constraint("actions_client_id", type_="unique")
        actions.drop_column("client_id")
    op.drop_index("games_waiting_bots", "games")
    with op.batch_alter_table("games") as games:
        games.drop_column("damage")
        games.drop_column("lease_until")
        games.drop_column("lease_owner")
        games.drop_column("bot_due")
        games.alter_column("seed", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=False)
