"""Alembic's environment for the server's database: the URL comes from the
configuration :func:`tilebag.server.store.migrate` builds."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from tilebag.server.store import Base

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url is not None
engine = create_engine(url)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
