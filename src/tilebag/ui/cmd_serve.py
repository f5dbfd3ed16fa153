"""``tilebag serve`` (checks that the server extra is installed, then starts
it) and ``tilebag admin``, which looks after its database."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys

SERVER_MISSING = "tilebag serve needs the server extra: pip install 'tilebag[server]'"


def websockets_served() -> bool:
    """Whether the web server found a WebSocket implementation (``websockets``
    or ``wsproto``), asked of uvicorn itself: without one every game page
    would load and never connect."""
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    return AutoWebSocketsProtocol is not None


def serve(args: argparse.Namespace) -> int:
    if any(importlib.util.find_spec(name) is None for name in ("fastapi", "uvicorn", "sqlalchemy", "alembic")):
        print(f"tilebag: {SERVER_MISSING}", file=sys.stderr)
        return 2
    if not websockets_served():
        print(f"tilebag: {SERVER_MISSING} (no WebSocket library found: the game pages could never connect)", file=sys.stderr)
        return 2
    if args.broker and importlib.util.find_spec("redis") is None:
        print(f"tilebag: {SERVER_MISSING} (--broker needs redis)", file=sys.stderr)
        return 2
    from tilebag.server.main import serve as run

    return run(args)


def bench(args: argparse.Namespace) -> int:
    """``tilebag bench serve``."""
    if any(importlib.util.find_spec(name) is None for name in ("fastapi", "uvicorn", "httpx", "websockets")):
        print(f"tilebag: {SERVER_MISSING} (and httpx and websockets for the clients)", file=sys.stderr)
        return 2
    if any(n < 1 for n in args.games):
        print("tilebag: --games takes numbers of games from 1", file=sys.stderr)
        return 2
    if args.think < 0:
        print("tilebag: --think takes seconds from 0", file=sys.stderr)
        return 2
    from tilebag.lab.serve_bench import main

    return main(args.games, as_json=args.json, think=args.think, url=args.url.rstrip("/") if args.url else None)


def damaged(args: argparse.Namespace) -> int:
    """``tilebag admin damaged``: the games set aside, with why; exit 1 when there are some."""
    if any(importlib.util.find_spec(name) is None for name in ("sqlalchemy", "alembic")):
        print(f"tilebag: {SERVER_MISSING}", file=sys.stderr)
        return 2
    from tilebag.server.main import database_url
    from tilebag.server.store import Store

    url, where = database_url(args.db)
    rows = Store(url).damaged()
    if args.json:
        print(json.dumps([{"id": row.game_id, "damage": row.damage} for row in rows]))
    elif not rows:
        print(f"no damaged game in {where}")
    for row in [] if args.json else rows:
        print(f"{row.game_id}: {row.damage}")
    return 1 if rows else 0
