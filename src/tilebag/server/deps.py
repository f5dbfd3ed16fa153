"""What a route is given: the server's state, the request's token, the game
it names and the seat that token holds there; and how a route reads or
changes a room without ever making the event loop wait.

>>> bearer("Bearer abc"), bearer("basic abc"), bearer("")
('abc', None, None)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from fastapi import Depends, Request

from tilebag.server.room import Room, RoomError, hash_token
from tilebag.server.service import GameService

if TYPE_CHECKING:
    from tilebag.server.analyses import AnalysisQueue

LOGGER = logging.getLogger("tilebag.server")

T = TypeVar("T")


class RateLimit:
    """At most ``burst`` requests at once per key, refilled at ``rate`` a second.

    >>> limit = RateLimit(rate=1.0, burst=2.0)
    >>> [limit.allow("seat") for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        tokens, last = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > 100_000:
            self._buckets.clear()
        return True


@dataclass
class ServerState:
    """What every route of one server may use (``app.state.tilebag``)."""

    service: GameService
    allow_seeds: bool = False
    analyses: AnalysisQueue | None = None
    bot_workers: int = 1
    actions_limit: RateLimit = field(default_factory=lambda: RateLimit(rate=5.0, burst=20.0))
    chat_limit: RateLimit = field(default_factory=lambda: RateLimit(rate=1.0, burst=5.0))
    bot_tasks: set[asyncio.Future[Any]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.bot_threads = ThreadPoolExecutor(max_workers=self.bot_workers, thread_name_prefix="tilebag-bots")
        """Where bots move: apart from the threads that answer requests, which never wait behind a bot."""
        self.setup_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tilebag-setup")
        """Where games are made and seats taken: a burst of new games never holds up a move in a running one."""
        self.local_database = self.service.store.url.startswith("sqlite")
        """An SQLite file answers in well under a millisecond: a change can be made on the event loop."""

    def start_bots(self, room: Room) -> None:
        """Let the bots whose turn it is move, on the bots' threads (from the event loop)."""
        if room.table.bot_to_act() is not None:
            moving = asyncio.ensure_future(
                asyncio.get_running_loop().run_in_executor(self.bot_threads, self.service.advance, room)
            )
            self.bot_tasks.add(moving)
            moving.add_done_callback(self._bots_done)

    def _bots_done(self, moving: asyncio.Future[Any] | Future[Any]) -> None:
        self.bot_tasks.discard(moving)
        if not moving.cancelled() and moving.exception() is not None:
            LOGGER.error("a bot could not move", exc_info=moving.exception())

    async def setting_up(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` on the setup threads."""
        return await asyncio.get_running_loop().run_in_executor(self.setup_threads, partial(function, *args))

    def limited(self, limit: RateLimit, token: str | None, what: str) -> None:
        """Refuse (429) a seat that sends too many ``what``.

        :raises RoomError: (429).
        """
        if token and not limit.allow(hash_token(token)):
            raise RoomError(429, f"too many {what}: wait a moment")

    def close(self) -> None:
        self.bot_threads.shutdown(wait=False, cancel_futures=True)
        self.setup_threads.shutdown(wait=False, cancel_futures=True)


def bearer(header: str) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or ``None``."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def server_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.tilebag
    return state


def request_token(request: Request) -> str | None:
    """The request's seat token (none: an observer's request)."""
    return bearer(request.headers.get("authorization", ""))


State = Annotated[ServerState, Depends(server_state)]
Token = Annotated[str | None, Depends(request_token)]


async def game_room(game_id: str, state: State) -> Room:
    """The room of the game a path names: rebuilt on a worker thread when it
    is not in memory (the event loop never waits for one), and caught up with
    the database first when other processes serve it too.

    :raises RoomError: (404) for no such game, (410) for one set aside as damaged.
    """
    service = state.service
    room = service.rooms.in_memory(game_id) or await asyncio.to_thread(service.load, game_id)
    if room is None:
        raise RoomError(404, "no such game")
    if service.shared:
        await asyncio.to_thread(service.fresh, room)
    return room


GameRoom = Annotated[Room, Depends(game_room)]


def room_seat(room: GameRoom, token: Token) -> int | None:
    """The seat the request's token holds in the game (none: an observer).

    :raises RoomError: (401) for a token that is no seat's in it.
    """
    return room.seat_of(token)


Seat = Annotated[int | None, Depends(room_seat)]


async def read(room: Room, reading: Callable[[], T]) -> T:
    """What ``reading`` reads of a room under its lock: here, on the event
    loop, when the lock is free (reads are short); on a worker thread when
    another thread holds it, so the event loop never waits."""
    if room.lock.acquire(blocking=False):
        try:
            return reading()
        finally:
            room.lock.release()

    def locked() -> T:
        with room.lock:
            return reading()

    return await asyncio.to_thread(locked)


async def change(room: Room, changing: Callable[[], T], *, inline: bool) -> T:
    """Make a change to a room: here, on the event loop, when the room is
    free and the database answers in well under a millisecond (an SQLite
    file); on a worker thread otherwise, so that the event loop never waits."""
    if inline and room.lock.acquire(blocking=False):
        try:
            return changing()
        finally:
            room.lock.release()
    return await asyncio.to_thread(changing)
