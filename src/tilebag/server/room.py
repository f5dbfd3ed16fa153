"""One game on the server: a :class:`Room` holds its
:class:`~tilebag.table.Table`, its seats (a person's token only as a hash),
what was said, and the lock every change to it takes; and who may act there
(:meth:`Room.seat_of`).
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from tilebag.errors import TilebagError
from tilebag.game import Game
from tilebag.rules import Rules, RulesError, find_rules
from tilebag.server.store import SeatRow
from tilebag.table import Table

DAMAGED = "this game is damaged: its record does not replay, and it is set aside"
"""What a request for a game set aside as damaged is told (410)."""


class RoomError(TilebagError):
    """An action refused: :attr:`status` is the HTTP status that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def hash_token(token: str) -> str:
    """What the store keeps of a seat's token (never the token itself)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Chat:
    """A chat message: ``seat`` -1 for an observer's."""

    seq: int
    seat: int
    name: str
    text: str
    at: str = ""
    """When it was said (ISO time, UTC)."""


@dataclass
class Room:
    """One game: its table, its seats' tokens (hashed), and what was said."""

    game_id: str
    table: Table
    seats: list[SeatRow]
    setup: dict[str, object]
    chat: list[Chat] = field(default_factory=list)
    seq: int = 0
    """The last stored action's sequence number."""
    rematch: str | None = None
    """The game of the rematch, once a seat asked for one."""
    event_seqs: list[int] = field(default_factory=list)
    """For each event of the table's log, the stored action it came of."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    listeners: list[Callable[[Room], None]] = field(default_factory=list)
    views: dict[int | None, tuple[object, str]] = field(default_factory=dict)
    """Each seat's last view as JSON text, with the state it shows (see :func:`~tilebag.server.views.view_json`)."""

    @property
    def game(self) -> Game:
        return self.table.game

    def seat_of(self, token: str | None, user_id: int | None = None) -> int | None:
        """The seat a token belongs to, or without one the seat the account
        ``user_id`` holds (``None`` for neither: an observer).

        :raises RoomError: (401) for a token that is no seat's.
        """
        if not token:
            if user_id is not None:
                return next((row.seat for row in self.seats if row.user_id == user_id), None)
            return None
        digest = hash_token(token)
        for row in self.seats:
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, digest):
                return row.seat
        raise RoomError(401, "that token is no seat's in this game")


def rules_of(setup: dict[str, object]) -> Rules:
    """The rules a game's setup names: a preset changed by options.

    :raises RoomError: (400) naming what is wrong.
    """
    try:
        rules = find_rules(str(setup.get("rules") or "standard"))
        options = setup.get("options") or {}
        if not isinstance(options, dict):
            raise RoomError(400, "options must be an object of rules options")
        return rules.with_options({str(k): str(v) for k, v in options.items()})
    except (RulesError, ValueError) as err:
        raise RoomError(400, str(err)) from None
