"""``tilebag serve``: the server process."""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import threading
from typing import TYPE_CHECKING

from tilebag.server.store import Store, default_database

if TYPE_CHECKING:
    from tilebag.server.analyses import AnalysisQueue
    from tilebag.server.service import GameService


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

    from tilebag.batch import ClusterError
    from tilebag.server.app import create_app
    from tilebag.server.broker import broker_for
    from tilebag.server.event_rounds import event_results as event_results_worker
    from tilebag.server.ratings import result_keeper
    from tilebag.server.room import RoomError
    from tilebag.server.rooms import Rooms
    from tilebag.server.service import GameService

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

    bot_threads = None if args.bot_threads == "all" else int(args.bot_threads)
    thinkers = Thinkers(workers=max(1, args.bot_workers), threads=bot_threads) if args.bot_workers else None
    rooms = Rooms(store, thinkers=thinkers, bot_threads=bot_threads)
    service = GameService(rooms, broker=broker)
    broker.start(service.heard, service.catch_up)
    print(f"tilebag serve: games in {where}" + (f", shared through {args.broker}" if args.broker else ""), file=sys.stderr)

    def wake_bots() -> None:
        # games a restart interrupted: load them, and let the bots whose turn it was move again
        if not service.shared:  # alone on the database: whoever held a bot's turn is gone
            store.clear_leases()
        for game_id in store.game_ids(status="playing"):
            try:
                room = rooms.load(game_id)
            except RoomError:
                continue  # a game that does not replay: set aside as damaged, and logged; the others are served
            if room is not None:
                service.advance(room)

    rooms.lexicon(None)  # the default lexicon loaded once, before the first game asks for it
    wake_bots()
    # what was loaded to start (the lexicon above all) lives as long as the server: keep it out of the
    # garbage collector's full passes, which would otherwise stop every request for a tenth of a second
    gc.collect()
    gc.freeze()
    try:
        analyses = _analysis_queue(args, service)
    except ClusterError as err:
        print(f"tilebag serve: {err}", file=sys.stderr)
        return 2
    # event games' results, on a thread of their own too: each game that ends, and first those no process recorded
    event_results = event_results_worker(service, then=service.game_over)
    # rated games' results, on a thread of their own: each game that ends, and first those no process applied
    results = result_keeper(rooms, then=event_results.game_over)
    service.game_over = results.game_over
    results.start()
    event_results.start()
    app = create_app(service, allow_seeds=args.allow_seeds, bot_workers=max(1, args.bot_workers), analyses=analyses)
    print(f"tilebag serve: http://{args.host}:{args.port}/", file=sys.stderr, flush=True)
    threading.current_thread().name = "tilebag-serve"
    sys.setswitchinterval(0.0005)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_per_message_deflate=False)
    finally:
        results.stop()
        event_results.stop()
        if analyses is not None:
            analyses.stop()
    return 0


def _analysis_queue(args: argparse.Namespace, service: GameService) -> AnalysisQueue | None:
    """The queue that analyses finished games (``None`` with ``--analysis-workers 0``).

    :raises ClusterError: for a cluster that cannot be used.
    """
    if args.analysis_workers == 0 and not args.cluster:
        return None
    from tilebag.batch import LocalBackend, backend_for
    from tilebag.server.analyses import AnalysisQueue

    if args.cluster:
        backend = backend_for(args.cluster, args.analysis_workers or None)
        connect = getattr(backend, "connect", None)
        if connect is not None:
            connect()  # here, before the web server sets its signal handlers: Ray must not take them over
    else:  # worker processes of its own, started afresh: a threaded server must not fork
        backend = LocalBackend(args.analysis_workers, in_process=False, start_method="spawn")
    seconds = args.analysis_seconds if args.analysis_seconds and args.analysis_seconds > 0 else None
    queue = AnalysisQueue(service.rooms, backend, seconds=seconds)
    service.game_over = lambda _game_id: queue.wake()
    queue.start()
    where = args.cluster or f"{args.analysis_workers} process(es)"
    print(f"tilebag serve: finished games are analysed on {where}", file=sys.stderr)
    return queue
