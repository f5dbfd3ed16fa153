"""The games a server process holds in memory: a
:class:`~tilebag.server.room.Room` for each, found by its id and rebuilt from
the store the first time it is asked for (:func:`~tilebag.server.replay.rebuild`),
one rebuild at a time, and the lexicons they use, loaded once.

What the stored actions make of a room is :mod:`.replay`'s; what may be done
to a game, and how a change reaches the database first, is :mod:`.service`'s.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from tilebag.errors import TilebagError
from tilebag.lexicon import Lexicon, default_lexicon, load_lexicon
from tilebag.server.replay import DamagedGameError, rebuild
from tilebag.server.room import DAMAGED, Room, RoomError
from tilebag.server.store import Store

if TYPE_CHECKING:
    from tilebag.server.thinking import Thinkers

LOGGER = logging.getLogger("tilebag.server")


class Rooms:
    """Every game this process holds, each rebuilt from the store when first
    asked for; the lexicons they use, loaded once."""

    def __init__(
        self, store: Store, *, lexicons: dict[str, Lexicon] | None = None, thinkers: Thinkers | None = None,
        bot_threads: int | None = 1,
    ) -> None:
        self.store = store
        self.thinkers = thinkers
        """Worker processes for the bots to think in (none: they think here)."""
        self.bot_threads = bot_threads
        """The threads a bot's endgame search runs on (``--bot-threads``; ``None``: one a core)."""
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()
        self._loading: dict[str, threading.Lock] = {}
        self._lexicons = dict(lexicons or {})

    def lexicon(self, name: str | None) -> Lexicon:
        """A lexicon this server has, by name (``None``: the default one), loaded once.

        :raises RoomError: (400) for one it does not have.
        """
        key = name or "default"
        found = self._lexicons.get(key)
        if found is None:
            try:
                found = default_lexicon() if name is None else load_lexicon(name)
            except (TilebagError, OSError) as err:
                raise RoomError(400, f"no lexicon {name!r} on this server: {err}") from None
            self._lexicons[key] = found
        return found

    def load(self, game_id: str) -> Room | None:
        """The room of a game (rebuilt from the store the first time), or ``None``.

        :raises RoomError: (410) for a game set aside as damaged: its stored
            actions do not replay (it is set aside the first time that is found).
        """
        with self._lock:
            room = self._rooms.get(game_id)
        if room is not None:
            return room
        # rebuilt without the lock, which every request takes: a long rebuild holds up nobody else
        with self._loading_lock(game_id):
            with self._lock:
                room = self._rooms.get(game_id)
            if room is not None:
                return room
            stored = self.store.game(game_id)
            if stored is None:
                return None
            setup, seed, status = stored
            if status == "damaged":
                raise RoomError(410, DAMAGED)
            try:
                room = rebuild(self, game_id, setup, seed)
            except DamagedGameError as err:
                self.set_aside(err)
                raise RoomError(410, DAMAGED) from None
            with self._lock:
                self._rooms[game_id] = room
                self._loading.pop(game_id, None)  # in memory now: no one rebuilds it again
            return room

    def set_aside(self, err: DamagedGameError) -> None:
        """A game that does not replay: marked damaged in the database, out of memory, and logged."""
        LOGGER.error("set aside as damaged: %s", err)
        with self._lock:
            self._rooms.pop(err.game_id, None)
        self.store.set_damaged(err.game_id, str(err))

    def in_memory(self, game_id: str) -> Room | None:
        """The room of a game when it is in memory already (nothing is read or rebuilt)."""
        with self._lock:
            return self._rooms.get(game_id)

    def forget_account(self, user_id: int, name: str) -> None:
        """A deleted account's seats in the rooms in memory: held by nobody, and named ``name``
        (as :meth:`tilebag.server.accounts.Accounts.delete` stored them)."""
        for room in self.loaded():
            with room.lock:
                for row in list(room.seats):
                    if row.user_id == user_id:
                        room.seats[row.seat] = replace(row, name=name, user_id=None)
                        room.game.players[row.seat].name = name

    def loaded(self) -> list[Room]:
        """The rooms in memory now."""
        with self._lock:
            return list(self._rooms.values())

    def _loading_lock(self, game_id: str) -> threading.Lock:
        """The lock that lets one thread at a time rebuild a game."""
        with self._lock:
            return self._loading.setdefault(game_id, threading.Lock())
