"""The HTTP and WebSocket API of ``tilebag serve`` (FastAPI), as
``docs/api.md`` describes it.

Every request that acts names its seat with ``Authorization: Bearer
TOKEN``; without one a client is an observer. Refused requests get a 4xx
status and ``{"error": reason}``, are logged (never with a token), and
change nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from tilebag.formats import gcg
from tilebag.server.pages import add_pages
from tilebag.server.rooms import Chat, Room, RoomError, Rooms, hash_token, rules_of
from tilebag.server.views import STATUS, clock_message, event_message, record_of, view_json

if TYPE_CHECKING:
    from tilebag.server.analyses import AnalysisQueue

LOGGER = logging.getLogger("tilebag.server")

T = TypeVar("T")

MAX_BODY_BYTES = 16 * 1024
"""The largest request body the server reads."""


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


class _BodyLimit:
    """Refuses (413) a request whose declared body is over the limit, before
    it is read. A plain ASGI middleware: it adds nothing to other requests."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
                refused = JSONResponse({"error": f"a request body is at most {MAX_BODY_BYTES} bytes"}, status_code=413)
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


class RateLimit:
    """At most ``burst`` requests at once per key, refilled at ``rate`` a second."""

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


CLOCK_CHECK_SECONDS = 0.25
"""How often the server looks for turn timers that ran out."""

UPKEEP_SECONDS = 1.0
"""How often the server renews its leases on bots' turns, looks for bots no
live process moves, and (when processes share the games) catches every game
in memory up with the database, in case a notice was lost."""


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


def _json(text: str, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer whose text is made already."""
    return Response(content=text, media_type="application/json", headers=headers)


def create_app(
    rooms: Rooms, *, allow_seeds: bool = False, bot_workers: int = 1, analyses: AnalysisQueue | None = None
) -> FastAPI:
    """The API over these rooms (``bot_workers``: how many bots may think at
    once; ``analyses``: the queue that analyses finished games, else each
    is analysed when first asked for)."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async def watch_clocks() -> None:
            while True:
                await asyncio.sleep(CLOCK_CHECK_SECONDS)
                try:
                    for changed in await asyncio.to_thread(partial(rooms.check_clocks, bots=False)):
                        start_bots(changed)
                except Exception:  # a clock check must not stop the server
                    LOGGER.exception("checking the clocks failed")

        async def upkeep() -> None:
            while True:
                await asyncio.sleep(UPKEEP_SECONDS)
                try:
                    await asyncio.to_thread(rooms.heartbeat)
                    for waiting in await asyncio.to_thread(rooms.waiting):
                        start_bots(waiting)
                    if rooms.shared:
                        for caught in await asyncio.to_thread(rooms.catch_up):
                            start_bots(caught)
                except Exception:  # the database is out of reach for a moment: the next round tries again
                    LOGGER.exception("the server's upkeep failed")

        tasks = [asyncio.create_task(watch_clocks()), asyncio.create_task(upkeep())]
        yield
        for task in tasks:
            task.cancel()
        # the workers stopped now, while shutting down: uvicorn ends the process with the signal it got
        if analyses is not None:
            await asyncio.to_thread(analyses.stop)
        if rooms.thinkers is not None:
            await asyncio.to_thread(rooms.thinkers.close)

    app = FastAPI(
        title="tilebag", description="Online play of the SCRABBLE crossword game (see docs/api.md).", lifespan=lifespan
    )
    app.add_middleware(_BodyLimit)
    bot_tasks: set[asyncio.Future[Any]] = set()
    bot_threads = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="tilebag-bots")
    """Where bots move: apart from the threads that answer requests, which never wait behind a bot."""
    setup_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tilebag-setup")
    """Where games are made and seats taken: a burst of new games never holds up a move in a running one."""

    def start_bots(room: Room) -> None:
        """Let the bots whose turn it is move, on the bots' threads."""
        if room.table.bot_to_act() is not None:
            moving = asyncio.ensure_future(asyncio.get_running_loop().run_in_executor(bot_threads, rooms.advance, room))
            bot_tasks.add(moving)
            moving.add_done_callback(bots_done)

    def bots_done(moving: asyncio.Future[Any]) -> None:
        bot_tasks.discard(moving)
        if not moving.cancelled() and moving.exception() is not None:
            LOGGER.error("a bot could not move", exc_info=moving.exception())

    async def setting_up(function: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(setup_threads, partial(function, *args))

    local_database = rooms.store.url.startswith("sqlite")
    actions_limit = RateLimit(rate=5.0, burst=20.0)
    chat_limit = RateLimit(rate=1.0, burst=5.0)

    def limited(limit: RateLimit, token: str | None, what: str) -> None:
        if token and not limit.allow(hash_token(token)):
            raise RoomError(429, f"too many {what}: wait a moment")

    @app.exception_handler(RoomError)
    async def refused(request: Request, err: RoomError) -> JSONResponse:
        LOGGER.info("refused %s %s: %s %s", request.method, request.url.path, err.status, err)
        return JSONResponse({"error": str(err)}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, err: RequestValidationError) -> JSONResponse:
        LOGGER.info("refused %s %s: malformed request", request.method, request.url.path)
        return JSONResponse({"error": "malformed request: send a JSON object as docs/api.md shows"}, status_code=400)

    async def room_of(game_id: str) -> Room:
        # a game not in memory is rebuilt on a worker thread: the event loop never waits for one
        room = rooms.in_memory(game_id) or await asyncio.to_thread(rooms.load, game_id)
        if room is None:
            raise RoomError(404, "no such game")
        if rooms.shared:  # other processes serve it too: read what they stored first
            await asyncio.to_thread(rooms.fresh, room)
        return room

    async def body(request: Request) -> dict[str, Any]:
        # counted as it comes: a body sent in chunks declares no length
        received = bytearray()
        async for chunk in request.stream():
            received += chunk
            if len(received) > MAX_BODY_BYTES:
                raise RoomError(413, f"a request body is at most {MAX_BODY_BYTES} bytes")
        try:
            data = json.loads(received)
        except ValueError:
            raise RoomError(400, "malformed request: the body is not JSON") from None
        if not isinstance(data, dict):
            raise RoomError(400, "malformed request: send a JSON object")
        return data

    add_pages(app, room_of, read, _token, body, rooms, analyses)

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, object]:
        data = await body(request)
        seats = data.get("seats")
        if not isinstance(seats, list):
            raise RoomError(400, 'seats must be a list such as [{"name": "alice"}, {"bot": "static"}]')
        seed = data.get("seed")
        if seed is not None and not allow_seeds:
            raise RoomError(400, "this server does not take seeds (start it with --allow-seeds)")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63):
            raise RoomError(400, "a seed is a whole number from 0")
        setup: dict[str, object] = {key: data[key] for key in ("rules", "options", "lexicon") if key in data}
        game_seed = seed if seed is not None else secrets.randbits(62)
        room, tokens = await setting_up(partial(rooms.create, bots=False), seats, setup, game_seed)
        start_bots(room)
        base = str(request.base_url).rstrip("/")
        return {
            "id": room.game_id,
            "seats": [
                {
                    "seat": row.seat,
                    "name": row.name,
                    "kind": row.kind,
                    **(
                        {"token": tokens[row.seat], "url": f"{base}/games/{room.game_id}?token={tokens[row.seat]}"}
                        if row.seat in tokens
                        else {}
                    ),
                }
                for row in room.seats
            ],
        }

    @app.get("/api/games")
    async def lobby() -> list[dict[str, object]]:
        found: list[dict[str, object]] = []
        for game_id, setup, status, seats in await asyncio.to_thread(rooms.store.lobby):
            room = rooms.in_memory(game_id)
            try:
                rules = room.game.rules.name if room is not None else rules_of(setup).name
            except RoomError:
                continue
            found.append(
                {
                    "id": game_id,
                    "status": STATUS[room.game.state] if room is not None else status,
                    "rules": rules,
                    "seats": [{"seat": r.seat, "name": r.name, "kind": r.kind} for r in (room.seats if room else seats)],
                }
            )
        return found

    @app.get("/api/games/{game_id}")
    async def game_view(game_id: str, request: Request) -> Response:
        room = await room_of(game_id)
        seat = room.seat_of(_token(request))
        return _json(await read(room, lambda: view_json(room, seat)))

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, request: Request) -> Response:
        started = time.perf_counter()
        room = await room_of(game_id)
        seat = room.seat_of(_token(request))
        limited(actions_limit, _token(request), "actions")
        data = await body(request)
        action, client_id = data.get("action"), data.get("id")
        if not isinstance(action, str):
            raise RoomError(400, 'send {"action": "8D WORD"} (a move in GCG notation, challenge, resign or accept)')
        if client_id is not None and not isinstance(client_id, str):
            raise RoomError(400, 'an action\'s "id" is a string the client makes unique')
        await change(room, partial(rooms.act, room, seat, action, client_id=client_id, bots=False), inline=local_database)
        answer = await read(room, lambda: view_json(room, seat))
        start_bots(room)  # after the answer: their thinking is not the player's wait
        return _json(answer, {"Server-Timing": f"act;dur={(time.perf_counter() - started) * 1000:.1f}"})

    @app.post("/api/games/{game_id}/chat")
    async def chat(game_id: str, request: Request) -> dict[str, object]:
        room = await room_of(game_id)
        seat = room.seat_of(_token(request))
        limited(chat_limit, _token(request), "chat messages")
        data = await body(request)
        said = await asyncio.to_thread(rooms.say, room, seat, str(data.get("text", "")))
        return {"seq": said.seq, "seat": said.seat, "text": said.text}

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, object]:
        room = await room_of(game_id)
        data = await body(request)
        seat, token = await setting_up(rooms.join, room, str(data.get("name", "")))
        base = str(request.base_url).rstrip("/")
        return {"seat": seat, "token": token, "url": f"{base}/games/{game_id}?token={token}"}

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request) -> dict[str, object]:
        room = await room_of(game_id)
        seat = room.seat_of(_token(request))
        new_room, place, token = await setting_up(rooms.rematch, room, seat)
        start_bots(new_room)
        base = str(request.base_url).rstrip("/")
        return {"id": new_room.game_id, "seat": place, "token": token, "url": f"{base}/games/{new_room.game_id}?token={token}"}

    @app.get("/api/games/{game_id}/gcg", response_class=PlainTextResponse)
    async def record(game_id: str, request: Request) -> str:
        room = await room_of(game_id)
        seat = room.seat_of(_token(request))
        return await read(room, lambda: gcg.dumps(record_of(room, seat)))

    @app.websocket("/api/games/{game_id}/ws")
    async def follow(websocket: WebSocket, game_id: str) -> None:
        try:
            room = rooms.in_memory(game_id) or await asyncio.to_thread(rooms.load, game_id)
        except RoomError as err:
            LOGGER.info("refused the game socket of %s: %s %s", game_id[:40], err.status, err)
            await websocket.close(code=4000 + err.status, reason=str(err)[:120])
            return
        token = websocket.query_params.get("token")
        if room is None:
            LOGGER.info("refused the game socket of %s: no such game", game_id[:40])
            await websocket.close(code=4404, reason="no such game")
            return
        try:
            seat = room.seat_of(token)
        except RoomError as err:
            LOGGER.info("refused the game socket of %s: %s %s", game_id, err.status, err)  # never the token
            await websocket.close(code=4401, reason=str(err))
            return
        await websocket.accept()
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def notify(_: Room) -> None:
            loop.call_soon_threadsafe(changed.set)

        room.listeners.append(notify)  # first: a change from now on is heard, even one before the hello
        asked: asyncio.Queue[int] = asyncio.Queue()

        async def listen() -> None:
            # a client asks for what it missed with {"since": SEQ}
            while True:
                message = await websocket.receive_json()
                since = message.get("since") if isinstance(message, dict) else None
                if isinstance(since, int) and not isinstance(since, bool) and since >= 0:
                    await asked.put(since)
                    changed.set()

        reader = asyncio.create_task(listen())

        def chat_message(c: Chat) -> dict[str, object]:
            return {"type": "Chat", "seat": c.seat, "name": c.name, "text": c.text, "seq": c.seq}

        def told(first_event: int, first_chat: int, since: int | None) -> tuple[list[dict[str, object]], str, int, int]:
            with room.lock:  # reentrant: read() holds it already
                pairs = list(zip(room.table.log, room.event_seqs, strict=False))
                if since is None:
                    pairs, chats = pairs[first_event:], room.chat[first_chat:]
                else:
                    pairs, chats = [(e, at) for e, at in pairs if at > since], [c for c in room.chat if c.seq > since]
                messages = [{**event_message(room, e, seat), "seq": at} for e, at in pairs]
                messages += [chat_message(c) for c in chats]
                return messages, whole("view"), len(room.table.log), len(room.chat)

        def whole(kind: str) -> str:
            """The view as a message of this kind (read under the room's lock)."""
            return f'{{"type":"{kind}","seq":{room.seq},"view":{view_json(room, seat)}}}'

        def hello() -> tuple[str, int, int]:
            """The hello and where the stream after it starts, read under one lock: the stream
            never repeats an event the hello holds, nor misses one it does not."""
            with room.lock:
                return whole("hello"), len(room.table.log), len(room.chat)

        try:
            greeting, sent_events, sent_chat = await read(room, hello)
            await websocket.send_text(greeting)
            while True:
                if reader.done():
                    break
                since: int | None = None
                if asked.empty():
                    try:
                        await asyncio.wait_for(changed.wait(), timeout=1.0)
                    except TimeoutError:
                        tick = await read(room, lambda: clock_message(room))
                        if tick is not None:
                            await websocket.send_json(tick)
                        continue
                    changed.clear()
                if not asked.empty():
                    since = asked.get_nowait()  # a catch-up: it tells everything after SEQ
                messages, state, sent_events, sent_chat = await read(room, partial(told, sent_events, sent_chat, since))
                for message in messages:
                    await websocket.send_json(message)
                await websocket.send_text(state)
        except WebSocketDisconnect:
            pass
        finally:
            reader.cancel()
            if notify in room.listeners:
                room.listeners.remove(notify)

    return app
