"""``tilebag serve``: online play, server-authoritative and persistent.

A game is a :class:`~tilebag.table.Table` on the server (:mod:`.rooms`);
every accepted action is written to the database (:mod:`.store`, SQLAlchemy
with Alembic migrations) before it is acknowledged, so a restart rebuilds
every game exactly by replaying its actions. Clients see a seat's view
(:mod:`.views`): their own rack only, never another's. The HTTP and
WebSocket API (:mod:`.app`, on FastAPI) is described in ``docs/api.md``.

The server's libraries are the ``server`` extra (``pip install
'tilebag[server]'``); nothing outside this package imports them.
"""
