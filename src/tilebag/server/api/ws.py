"""A game's WebSocket (``docs/api.md``): a hello with the whole view, then
what happens as it happens, each message with the ``seq`` it brings the game
to, then the new view; clock ticks while clocks run; and everything after a
``seq`` a client says it saw, when it asks."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from tilebag.server.accounts import TOKEN_PREFIX
from tilebag.server.deps import ServerState, bearer, read, socket_account
from tilebag.server.room import Chat, Room, RoomError
from tilebag.server.views import clock_message, event_message, view_json

LOGGER = logging.getLogger("tilebag.server")

router = APIRouter()

TICK_SECONDS = 1.0
"""How often a socket with nothing new to tell sends a clock tick (when clocks run)."""


@router.websocket("/api/games/{game_id}/ws")
async def follow(websocket: WebSocket, game_id: str) -> None:
    """Follow a game: as the seat of ``?token=`` (or an ``Authorization:
    Bearer`` header), as the seat an account holds (its API token there, or
    its session cookie from a page of this server), or as an observer."""
    state: ServerState = websocket.app.state.tilebag
    service = state.service
    try:
        room = service.rooms.in_memory(game_id) or await asyncio.to_thread(service.load, game_id)
        if room is None:
            raise RoomError(404, "no such game")
        token = websocket.query_params.get("token") or bearer(websocket.headers.get("authorization", ""))
        user = await socket_account(websocket, state, token)
        user_id = user.id if user is not None else None
        seat = room.seat_of(None if token and token.startswith(TOKEN_PREFIX) else token, user_id)
    except RoomError as err:  # logged without the token
        LOGGER.info("refused the game socket of %s: %s %s", game_id[:40], err.status, err)
        await websocket.close(code=4000 + err.status, reason=str(err)[:120])
        return
    await websocket.accept()
    await _follow(websocket, room, seat)


async def _follow(websocket: WebSocket, room: Room, seat: int | None) -> None:
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

    def whole(kind: str) -> str:
        """The view as a message of this kind (read under the room's lock)."""
        return f'{{"type":"{kind}","seq":{room.seq},"view":{view_json(room, seat)}}}'

    def hello() -> tuple[str, int, int]:
        """The hello and where the stream after it starts, read under one lock: the stream
        never repeats an event the hello holds, nor misses one it does not."""
        with room.lock:
            return whole("hello"), len(room.table.log), len(room.chat)

    def told(first_event: int, first_chat: int, since: int | None) -> tuple[list[dict[str, object]], str, int, int]:
        with room.lock:  # reentrant: read() holds it already
            pairs = list(zip(room.table.log, room.event_seqs, strict=False))
            if since is None:
                pairs, chats = pairs[first_event:], room.chat[first_chat:]
            else:
                pairs, chats = [(e, at) for e, at in pairs if at > since], [c for c in room.chat if c.seq > since]
            messages = [{**event_message(room, e, seat), "seq": at} for e, at in pairs]
            messages += [_chat_message(c) for c in chats]
            return messages, whole("view"), len(room.table.log), len(room.chat)

    try:
        greeting, sent_events, sent_chat = await read(room, hello)
        await websocket.send_text(greeting)
        while not reader.done():
            since: int | None = None
            if asked.empty():
                try:
                    await asyncio.wait_for(changed.wait(), timeout=TICK_SECONDS)
                except TimeoutError:
                    tick = await read(room, lambda: clock_message(room))
                    if tick is not None:
                        await websocket.send_json(tick)
                    continue
                changed.clear()
            if not asked.empty():
                since = asked.get_nowait()  # a catch-up: it tells everything after SEQ
            messages, view, sent_events, sent_chat = await read(room, partial(told, sent_events, sent_chat, since))
            for message in messages:
                await websocket.send_json(message)
            await websocket.send_text(view)
    except WebSocketDisconnect:
        pass
    finally:
        reader.cancel()
        if notify in room.listeners:
            room.listeners.remove(notify)


def _chat_message(chat: Chat) -> dict[str, object]:
    return {"type": "Chat", "seat": chat.seat, "name": chat.name, "text": chat.text, "seq": chat.seq}
