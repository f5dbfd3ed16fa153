"""``tilebag serve``: the server process."""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import threading

from tilebag.server.store import Store, default_database


def database_url(given: str | None) -> tuple[str, str]:
    """The database URL to use and how to say where it is."""
    if given:
        if given.startswith("postgresql://"):
            return "postgresql+psycopg://" + given.removeprefix("postgresql://"), given.split("@")[-1]
        return given, given
    path = default_database()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}", str(path)


def serve(args: argparse.Namespace) -> int:
    """Start the server; the exit status."""
    import uvicorn

    from tilebag.server.app import create_app
    from tilebag.server.broker import broker_for
    from tilebag.server.rooms import Rooms

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    url, where = database_url(args.db)
    store = Store(url)
    try:
        broker = broker_for(args.broker)
    except Exception as err:  # a broker that cannot be reached: say which and why
        print(f"tilebag serve: the broker {args.broker}: {err}", file=sys.stderr)
        return 2
    from tilebag.server.thinking import Thinkers

    thinkers = Thinkers(url, workers=max(1, args.bot_workers)) if args.bot_workers else None
    rooms = Rooms(store, broker=broker, thinkers=thinkers)
    broker.start(rooms.heard)
    print(f"tilebag serve: games in {where}" + (f", shared through {args.broker}" if args.broker else ""), file=sys.stderr)

    def wake_bots() -> None:
        # games a restart interrupted: load them, and let the bots whose turn it was move again
        for game_id in store.game_ids(status="playing"):
            room = rooms.load(game_id)
            if room is not None:
                rooms.advance(room)

    rooms.lexicon(None)  # the default lexicon loaded once, before the first game asks for it
    wake_bots()
    # what was loaded to start (the lexicon above all) lives as long as the server: keep it out of the
    # garbage collector's full passes, which would otherwise stop every request for a tenth of a second
    gc.collect()
    gc.freeze()
    app = create_app(rooms, allow_seeds=args.allow_seeds, bot_workers=max(1, args.bot_workers))
    print(f"tilebag serve: http://{args.host}:{args.port}/", file=sys.stderr, flush=True)
    threading.current_thread().name = "tilebag-serve"
    sys.setswitchinterval(0.0005)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_per_message_deflate=False)
    return 0
