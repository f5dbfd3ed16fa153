"""What a route is given: the server's state, who is asking (a seat's token,
an account's session cookie or API token), the game a path names and the
seat the caller holds there; and how a route reads or changes a room without
ever making the event loop wait.

Who may act is decided here once: a seat's token opens its seat; an
account's session or API token opens the seats that account holds; a change
made with the session cookie must repeat the session's CSRF secret in the
``X-CSRF-Token`` header (a page of another site cannot read it), or it is
refused (403) and logged.

>>> bearer("Bearer abc"), bearer("basic abc"), bearer("")
('abc', None, None)
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, TypeVar
from urllib.parse import urlsplit

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from tilebag.server.accounts import TOKEN_PREFIX, Accounts, User
from tilebag.server.room import Room, RoomError, hash_token
from tilebag.server.service import GameService

if TYPE_CHECKING:
    from tilebag.server.analyses import AnalysisQueue

LOGGER = logging.getLogger("tilebag.server")

T = TypeVar("T")


class RateLimit:
    """At most ``burst`` requests at once per key, refilled at ``rate`` a second
    by ``clock`` (``time.monotonic``; a test gives its own).

    >>> now = [0.0]
    >>> limit = RateLimit(rate=1.0, burst=2.0, clock=lambda: now[0])
    >>> [limit.allow("seat") for _ in range(3)]
    [True, True, False]
    >>> now[0] = 0.9; limit.allow("seat")
    False
    >>> now[0] = 1.0; limit.allow("seat"), limit.allow("seat"), limit.allow("another seat")
    (True, False, True)
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst = rate, burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = self._clock()
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
    register_limit: RateLimit = field(default_factory=lambda: RateLimit(rate=5 / 3600, burst=5.0))
    """Accounts made from one address: five, then one every twelve minutes."""
    login_limit: RateLimit = field(default_factory=lambda: RateLimit(rate=1 / 6, burst=10.0))
    """Logins tried from one address, and (apart) for one name: ten, then one every six seconds."""

    def __post_init__(self) -> None:
        self.bot_threads = ThreadPoolExecutor(max_workers=self.bot_workers, thread_name_prefix="tilebag-bots")
        """Where bots move: apart from the threads that answer requests, which never wait behind a bot."""
        self.setup_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tilebag-setup")
        """Where games are made and seats taken: a burst of new games never holds up a move in a running one."""
        self.local_database = self.service.store.url.startswith("sqlite")
        """An SQLite file answers in well under a millisecond: a change can be made on the event loop."""
        self.accounts = Accounts(self.service.store)
        """The accounts, their sessions and API tokens."""

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
    """The request's seat token (none: an observer's request, or an account's)."""
    token = bearer(request.headers.get("authorization", ""))
    return None if token is None or token.startswith(TOKEN_PREFIX) else token


SESSION_COOKIE = "tilebag_session"
"""The cookie that holds an account's session (HttpOnly, SameSite=Lax)."""
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class Caller:
    """Who sent a request, as far as accounts go."""

    user: User | None = None
    """The account (none: a guest, or a seat's token alone)."""
    session: str | None = None
    """The session cookie's secret, when the account came by its session."""
    csrf: str | None = None
    """The session's CSRF secret."""

    @property
    def user_id(self) -> int | None:
        return self.user.id if self.user is not None else None


async def request_caller(request: Request) -> Caller:
    """Who sent the request: an account's API token (``Authorization: Bearer
    tbu_...``), else its session cookie, else nobody.

    :raises RoomError: (401) for an API token that opens nothing; (403) for a
        change made with the cookie without the session's CSRF secret.
    """
    state: ServerState = request.app.state.tilebag
    token = bearer(request.headers.get("authorization", ""))
    if token is not None and token.startswith(TOKEN_PREFIX):
        user = await asyncio.to_thread(state.accounts.token_user, token)
        if user is None:
            raise RoomError(401, "that API token is not valid (revoked, or its account closed)")
        return Caller(user)
    secret = request.cookies.get(SESSION_COOKIE)
    if not secret:
        return Caller()
    found = await asyncio.to_thread(state.accounts.session_user, secret)
    if found is None:
        return Caller()  # an ended or expired session: a guest, as if there were no cookie
    user, csrf = found
    if request.method not in SAFE_METHODS and token is None:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), csrf.encode()):
            LOGGER.warning("refused %s %s: the session cookie came without its CSRF token", request.method, request.url.path)
            raise RoomError(403, f"a change made with the session cookie needs the {CSRF_HEADER} header (see GET /api/me)")
    return Caller(user, secret, csrf)


async def socket_account(connection: HTTPConnection, state: ServerState, token: str | None = None) -> User | None:
    """The account a socket (a game's or the lobby's) comes from: its API
    token (``token``, or ``Authorization: Bearer tbu_...``), or its session
    cookie when the page that opened it is this server's. Another site's page
    gets a guest's (an observer's) socket: it never sees a rack, nor the
    account's challenges.

    :raises RoomError: (401) for an API token that opens nothing.
    """
    token = token or bearer(connection.headers.get("authorization", ""))
    if token and token.startswith(TOKEN_PREFIX):
        user = await asyncio.to_thread(state.accounts.token_user, token)
        if user is None:
            raise RoomError(401, "that API token is not valid")
        return user
    secret = connection.cookies.get(SESSION_COOKIE)
    if token or not secret:
        return None  # a seat's token decides, or nobody is logged in
    origin = connection.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != connection.headers.get("host"):
        LOGGER.warning("a socket from another site's page came with a session cookie: served as a guest's")
        return None
    found = await asyncio.to_thread(state.accounts.session_user, secret)
    return found[0] if found is not None else None


State = Annotated[ServerState, Depends(server_state)]
Token = Annotated[str | None, Depends(request_token)]
Identity = Annotated[Caller, Depends(request_caller)]


def signed_in(caller: Identity) -> User:
    """The request's account.

    :raises RoomError: (401) when the request comes from no account.
    """
    if caller.user is None:
        raise RoomError(401, "log in first (POST /api/login), or send an API token")
    return caller.user


Account = Annotated[User, Depends(signed_in)]


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


def room_seat(room: GameRoom, token: Token, caller: Identity) -> int | None:
    """The seat the request's token holds in the game, or the seat its
    account holds there (none: an observer).

    :raises RoomError: (401) for a token that is no seat's in it.
    """
    return room.seat_of(token, caller.user_id)


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
