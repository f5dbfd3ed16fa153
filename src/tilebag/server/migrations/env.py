"""Alembic's environment for the server's database: the URL comes from the
configuration :func:`tilebag.server.store.migrate` builds, or the connection
itself when the migration runs under that connection's lock."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from tilebag.server.store import Base

config = context.config
given = config.attributes.get("connection")
if given is not None:
    context.configure(connection=given, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    url = config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_engine(url)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()
