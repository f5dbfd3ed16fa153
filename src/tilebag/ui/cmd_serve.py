"""``tilebag serve``: checks that the server extra is installed, then starts it."""

from __future__ import annotations

import argparse
import importlib.util
import sys

SERVER_MISSING = "tilebag serve needs the server extra: pip install 'tilebag[server]'"


def serve(args: argparse.Namespace) -> int:
    if any(importlib.util.find_spec(name) is None for name in ("fastapi", "uvicorn", "sqlalchemy", "alembic")):
        print(f"tilebag: {SERVER_MISSING}", file=sys.stderr)
        return 2
    if args.broker and importlib.util.find_spec("redis") is None:
        print(f"tilebag: {SERVER_MISSING} (--broker needs redis)", file=sys.stderr)
        return 2
    from tilebag.server.main import serve as run

    return run(args)
