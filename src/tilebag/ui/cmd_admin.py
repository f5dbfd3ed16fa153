"""``tilebag admin users|disable|enable|make-admin|reports``: a server's
accounts and its players' reports, from its database (the server extra).

They act on the database directly, so they work whether or not a server is
running on it: a disabled account's sessions end at once, and an account
made an admin is one at its next request. Nothing here prints a password
hash, a session or a token.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from typing import TYPE_CHECKING

from tilebag.ui.cmd_serve import SERVER_MISSING

if TYPE_CHECKING:
    from tilebag.server.store import Store


def _store(args: argparse.Namespace) -> tuple[Store, str] | None:
    """The database the task names, and how to say where it is (``None``: the server extra is missing, said)."""
    if any(importlib.util.find_spec(name) is None for name in ("sqlalchemy", "alembic", "argon2")):
        print(f"tilebag: {SERVER_MISSING}", file=sys.stderr)
        return None
    from tilebag.server.main import database_url
    from tilebag.server.store import Store

    url, where = database_url(args.db)
    return Store(url), where


def users(args: argparse.Namespace) -> int:
    """``tilebag admin users``: every account, its role and whether it is disabled."""
    opened = _store(args)
    if opened is None:
        return 2
    from tilebag.server.safety import Safety

    store, where = opened
    rows = Safety(store).users()
    if args.json:
        print(json.dumps([{"username": r.username, "role": r.role, "disabled": r.disabled, "created": r.created}
                          for r in rows]))
        return 0
    if not rows:
        print(f"no account in {where}")
    for row in rows:
        print(f"{row.username:20}  {row.role:6}  {'disabled' if row.disabled else 'enabled ':8}  since {row.created[:10]}")
    return 0


def disable(args: argparse.Namespace) -> int:
    """``tilebag admin disable NAME``."""
    return _set_disabled(args, True)


def enable(args: argparse.Namespace) -> int:
    """``tilebag admin enable NAME``."""
    return _set_disabled(args, False)


def _set_disabled(args: argparse.Namespace, disabled: bool) -> int:
    opened = _store(args)
    if opened is None:
        return 2
    from tilebag.server.accounts import Accounts

    store, where = opened
    if len(args.name) > 40 or not Accounts(store).set_disabled(args.name, disabled):
        print(f"tilebag: no account named {args.name[:40]!r} in {where}", file=sys.stderr)
        return 2
    print(f"{args.name}: {'disabled (its sessions and API tokens ended)' if disabled else 'enabled'}")
    return 0


def make_admin(args: argparse.Namespace) -> int:
    """``tilebag admin make-admin NAME``."""
    opened = _store(args)
    if opened is None:
        return 2
    from tilebag.server.accounts import Accounts

    store, where = opened
    if len(args.name) > 40 or not Accounts(store).set_role(args.name, "admin"):
        print(f"tilebag: no account named {args.name[:40]!r} in {where}", file=sys.stderr)
        return 2
    print(f"{args.name}: an admin")
    return 0


def reports(args: argparse.Namespace) -> int:
    """``tilebag admin reports``: the reports not resolved yet, oldest first."""
    opened = _store(args)
    if opened is None:
        return 2
    from tilebag.server.safety import Safety

    store, where = opened
    rows = Safety(store).open_reports()
    if args.json:
        print(json.dumps([{"id": r.id, "reporter": r.reporter, "reported": r.reported, "reason": r.reason,
                           "created": r.created, "game": r.game, "chat_seq": r.chat_seq, "chat": r.chat} for r in rows]))
        return 0
    if not rows:
        print(f"no open report in {where}")
    for r in rows:
        where_said = f" in game {r.game}" + (f", message {r.chat_seq}: {r.chat!r}" if r.chat_seq is not None else "") if r.game else ""
        print(f"#{r.id} {r.created[:16]} {r.reporter or '(deleted)'} reports {r.reported or '(deleted)'}{where_said}: {r.reason!r}")
    return 0
