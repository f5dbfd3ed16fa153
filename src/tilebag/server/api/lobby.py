"""The live lobby over HTTP and its WebSocket (``docs/api.md``): seeks offered,
listed, accepted and cancelled; direct challenges made and declined; and
``WS /api/lobby/ws``, which tells what happens as it happens: seeks that
come and go, challenges to the account, a game starting for it, its turn
come in another game.

What a seek is and who may take it is decided in :mod:`tilebag.server.seeks`;
this module reads requests and tells sockets. Its notices are made once,
where the change was stored, and reach this process's sockets at once and
the other processes' through the broker (:meth:`Broker.publish_lobby`). They
are hints: the database holds the seeks, and a socket that connects (or
connects again) is first sent them from there.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from tilebag.game import GameState
from tilebag.server.deps import Account, Identity, ServerState, State, socket_account
from tilebag.server.room import Room, RoomError
from tilebag.server.seeks import RENEW_SECONDS, Clock, Offer, Seek, Seeks, Started, Waiting, Why

LOGGER = logging.getLogger("tilebag.server")

router = APIRouter()

SWEEP_SECONDS = 2.0
"""How often each process marks the seeks whose time ran out."""

MAX_QUEUED = 1000
"""The most messages a socket may have waiting: a client that reads no more is let go."""

MAX_SEEK_ID = 64
"""A seek id longer than this is no seek's."""


# -- the requests and answers ----------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClockRequest(_Strict):
    """A seek's clock: ``game_minutes`` each (with ``overtime_penalty``
    points per started minute over), or ``days_per_move`` for correspondence."""

    game_minutes: StrictInt | None = None
    increment_seconds: StrictInt | None = Field(default=None, description="refused: the game clocks have no increment")
    overtime_penalty: StrictInt | None = None
    days_per_move: StrictInt | None = None

    def clock(self) -> Clock:
        return Clock.of(**self.model_dump())


class SeekRequest(_Strict):
    """``POST /api/seeks``: a game offered in the lobby."""

    seats: StrictInt = Field(default=2, description="how many play, 2 to 4 (the maker included)")
    rules: StrictStr = Field(default="standard", max_length=40, description="a rules preset (tilebag rules lists them)")
    options: dict[StrictStr, StrictStr | StrictInt | StrictFloat | StrictBool] = Field(
        default_factory=dict, description="rules options by name, as the command line names them")
    rated: StrictBool = False
    clock: ClockRequest | None = Field(default=None, description="none: as the rules say")
    min_rating: StrictInt | None = None
    max_rating: StrictInt | None = None

    def offer(self) -> Offer:
        """The offer (its clock checked).

        :raises RoomError: (400) for a clock that cannot be.
        """
        return Offer(self.seats, self.rules, dict(self.options), self.rated,
                     self.clock.clock() if self.clock is not None else None, self.min_rating, self.max_rating)


class ChallengeRequest(SeekRequest):
    """``POST /api/challenges``: a seek of 2 that one player only may accept."""

    to: StrictStr = Field(max_length=40, description="the username of the player challenged")


class SeekMade(BaseModel):
    id: str


class SeekListed(BaseModel):
    """A seek as ``GET /api/seeks`` and the lobby socket show it."""

    id: str
    by: str = Field(description="its maker's username")
    to: str | None = Field(description="the player challenged (none: open to all)")
    seats: int
    taken: list[str] = Field(description="the players with a place, its maker first")
    rules: str
    options: dict[str, str]
    rated: bool
    clock: dict[str, int] | None
    min_rating: int | None
    max_rating: int | None
    category: str
    created: str
    expires: str
    yours: bool


class Acceptance(BaseModel):
    """``POST /api/seeks/ID/accept``: the game and the seat (200), or the places still open (202)."""

    game: str | None = None
    seat: int | None = None
    waiting: int | None = None


# -- the hub: this process's sockets, and the notices between processes ------------------------


@dataclass(eq=False)
class Listener:
    """One lobby socket: its account (none: a guest) and the messages waiting for it."""

    user_id: int | None
    queue: asyncio.Queue[dict[str, object] | None] = field(default_factory=lambda: asyncio.Queue(MAX_QUEUED))

    def close(self) -> None:
        """Send it nothing more: what waits is dropped, and its socket is let go (on the event loop)."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)


class LobbyHub:
    """The lobby of one server process: the seeks (:class:`~tilebag.server.seeks.Seeks`),
    its sockets, and the notices that reach them from here and, through the
    broker, from the other processes. Notices may come on any thread; the
    sockets are served on the event loop."""

    def __init__(self, state: ServerState, loop: asyncio.AbstractEventLoop) -> None:
        self.seeks = Seeks(state.service)
        self.broker = state.service.broker
        self.origin = secrets.token_hex(8)
        """This process, as the sender of a notice (it hears its own notices through the broker too)."""
        self._loop = loop
        self._listeners: set[Listener] = set()
        self._turns: OrderedDict[str, tuple[int, int]] = OrderedDict()
        """Each game's turn last told (its seat and events), so a chat message tells no turn again."""
        self._turns_lock = threading.Lock()
        """Games change on the event loop and on worker threads alike."""
        state.service.changed = self.room_changed
        self.broker.listen_lobby(self.heard)

    # -- sockets --------------------------------------------------------------------------

    def join(self, user_id: int | None) -> Listener:
        listener = Listener(user_id)
        self._listeners.add(listener)
        return listener

    def leave(self, listener: Listener) -> None:
        self._listeners.discard(listener)

    # -- notices --------------------------------------------------------------------------

    def tell(self, message: dict[str, object], *, to: Iterable[int] | None = None, but: Iterable[int] = (),
             by: int | None = None) -> None:
        """Tell the lobby sockets of accounts ``to`` (none: every socket, guests' too), but not those of
        ``but``, here and in the other processes; ``by``: the account whose seek it is (that socket is
        told it is ``yours``)."""
        notice = {"origin": self.origin, "to": None if to is None else list(to), "but": list(but), "by": by,
                  "message": message}
        self._loop.call_soon_threadsafe(self._hand_out, notice)
        try:
            self.broker.publish_lobby(json.dumps(notice))
        except Exception as err:  # the others' sockets read the database when they connect again
            LOGGER.warning("could not tell the other processes' lobbies: %s", err)

    def heard(self, text: str) -> None:
        """A notice another process published (on the broker's thread)."""
        notice = json.loads(text)
        if isinstance(notice, dict) and notice.get("origin") != self.origin:
            self._loop.call_soon_threadsafe(self._hand_out, notice)

    def _hand_out(self, notice: dict[str, Any]) -> None:
        to, but, by, message = notice.get("to"), set(notice.get("but") or ()), notice.get("by"), notice["message"]
        for listener in list(self._listeners):
            user = listener.user_id
            if (to is not None and user not in to) or (user is not None and user in but):
                continue
            sent = dict(message)
            if sent.get("type") in ("seek", "challenge"):
                sent["yours"] = user is not None and user == by
            try:
                listener.queue.put_nowait(sent)
            except asyncio.QueueFull:  # a client that reads nothing: let it go (it reconnects and reads the database)
                self.leave(listener)
                listener.close()

    # -- what happened --------------------------------------------------------------------

    def offered(self, seek: Seek) -> None:
        """A seek offered, or a place in it taken: to everyone who may see it; a challenge as such to the
        player challenged."""
        shown: dict[str, object] = {"type": "seek", **seek.public(None)}
        if seek.to_id is None:
            self.tell(shown, by=seek.by_id)
            return
        self.tell({**shown, "type": "challenge"}, to=[seek.to_id], by=seek.by_id)
        self.tell(shown, to=[seek.by_id], by=seek.by_id)

    def gone(self, seek: Seek, why: Why, *, but: Iterable[int] = ()) -> None:
        self.tell({"type": "seek-gone", "id": seek.id, "why": why}, to=seek.audience, but=but)

    def started(self, started: Started) -> None:
        """A seek filled: each player is told their game and seat (and that the seek ``started``); everyone
        else, that it was ``taken``."""
        players = list(started.seats)
        for user_id, seat in started.seats.items():
            self.tell({"type": "game", "id": started.game_id, "seat": seat, "seek": started.seek.id}, to=[user_id])
        self.tell({"type": "seek-gone", "id": started.seek.id, "why": "started"}, to=players)
        if started.seek.to_id is None:
            self.gone(started.seek, "taken", but=players)

    def room_changed(self, room: Room) -> None:
        """After a change to a game here: tell the account whose turn came (once per turn)."""
        with room.lock:
            table = room.table
            over = room.game.state is GameState.OVER
            seat = table.seat_to_act()
            user_id = room.seats[seat].user_id if not over and not table.is_bot(seat) and seat < len(room.seats) else None
            turn = (seat, len(table.log))
        with self._turns_lock:
            if user_id is None or self._turns.get(room.game_id) == turn:
                if over:
                    self._turns.pop(room.game_id, None)
                return
            self._turns[room.game_id] = turn
            self._turns.move_to_end(room.game_id)
            while len(self._turns) > 10_000:
                self._turns.popitem(last=False)
        self.tell({"type": "your-turn", "game": room.game_id}, to=[user_id])


def hub_for(app: FastAPI) -> LobbyHub:
    """The application's lobby (made when first asked for, on the event loop)."""
    hub: LobbyHub | None = getattr(app.state, "lobby", None)
    if hub is None:
        hub = LobbyHub(app.state.tilebag, asyncio.get_running_loop())
        app.state.lobby = hub
    return hub


async def lobby_hub(request: Request) -> LobbyHub:
    return hub_for(request.app)


Hub = Annotated[LobbyHub, Depends(lobby_hub)]


async def keep_lobby(app: FastAPI) -> None:
    """Beside the requests: mark the seeks whose time ran out, and tell the lobby they went."""
    hub = hub_for(app)
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            for seek in await asyncio.to_thread(hub.seeks.sweep):
                hub.gone(seek, "expired")
        except Exception:  # the database is out of reach for a moment: the next round tries again
            LOGGER.exception("sweeping the lobby's seeks failed")


# -- the routes -----------------------------------------------------------------------------


def _seek_id(seek_id: str) -> str:
    if not seek_id or len(seek_id) > MAX_SEEK_ID:
        raise RoomError(404, "no such seek")
    return seek_id


@router.post("/api/seeks", status_code=201, response_model=SeekMade)
async def offer_seek(sent: SeekRequest, user: Account, hub: Hub) -> SeekMade:
    """Offer a game in the lobby; it lasts while its maker is around (see :mod:`tilebag.server.seeks`)."""
    offer = sent.offer()
    seek = await asyncio.to_thread(hub.seeks.offer, user, offer)
    hub.offered(seek)
    LOGGER.info("seek %s offered by %s", seek.id, user.username)
    return SeekMade(id=seek.id)


@router.post("/api/challenges", status_code=201, response_model=SeekMade)
async def challenge(sent: ChallengeRequest, user: Account, hub: Hub) -> SeekMade:
    """Challenge one player: a seek of two only they may accept."""
    offer = sent.offer()
    seek = await asyncio.to_thread(partial(hub.seeks.offer, user, offer, to=sent.to))
    hub.offered(seek)
    LOGGER.info("challenge %s offered by %s", seek.id, user.username)
    return SeekMade(id=seek.id)


@router.get("/api/seeks", response_model=list[SeekListed])
async def list_seeks(caller: Identity, hub: Hub) -> list[dict[str, object]]:
    """The open seeks, oldest first, and the challenges the account made or was sent; ``yours`` marks its own."""
    viewer = caller.user_id
    if viewer is not None:
        await asyncio.to_thread(hub.seeks.renew, viewer)
    return [seek.public(viewer) for seek in await asyncio.to_thread(hub.seeks.visible, viewer)]


@router.post("/api/seeks/{seek_id}/accept", response_model=Acceptance, response_model_exclude_none=True)
async def accept(seek_id: str, user: Account, hub: Hub, state: State, response: Response) -> Acceptance:
    """Take a place in a seek (or accept a challenge): the game when it starts, else how many are awaited."""
    outcome = await state.setting_up(hub.seeks.accept, _seek_id(seek_id), user)
    if isinstance(outcome, Waiting):
        hub.offered(outcome.seek)
        response.status_code = 202
        return Acceptance(waiting=outcome.left)
    hub.started(outcome)
    LOGGER.info("seek %s started game %s", seek_id, outcome.game_id)
    return Acceptance(game=outcome.game_id, seat=outcome.seats[user.id])


@router.delete("/api/seeks/{seek_id}", status_code=204)
async def cancel(seek_id: str, user: Account, hub: Hub) -> None:
    """Withdraw a seek or a challenge of one's own."""
    seek = await asyncio.to_thread(hub.seeks.cancel, _seek_id(seek_id), user)
    hub.gone(seek, "cancelled")


@router.post("/api/challenges/{seek_id}/decline", status_code=204)
async def decline(seek_id: str, user: Account, hub: Hub) -> None:
    """Decline a challenge (only the player challenged)."""
    seek = await asyncio.to_thread(hub.seeks.decline, _seek_id(seek_id), user)
    hub.gone(seek, "declined")


# -- the socket -------------------------------------------------------------------------------


@router.websocket("/api/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby, live: a hello with the open seeks, then what happens. An account's open socket keeps its
    seeks alive."""
    state: ServerState = websocket.app.state.tilebag
    hub = hub_for(websocket.app)
    try:
        user = await socket_account(websocket, state)
    except RoomError as err:
        LOGGER.info("refused a lobby socket: %s %s", err.status, err)
        await websocket.close(code=4000 + err.status, reason=str(err)[:120])
        return
    await websocket.accept()
    viewer = user.id if user is not None else None
    listener = hub.join(viewer)  # first: what happens from now on is heard, even before the hello

    async def read() -> None:  # the client says nothing the server needs; reading notices it leave
        try:
            while True:
                await websocket.receive_text()
        except Exception:  # it left (or sent what is no text): let it go
            pass
        finally:
            listener.close()

    reader = asyncio.create_task(read())
    try:
        if viewer is not None:
            await asyncio.to_thread(hub.seeks.renew, viewer)
        seeks = await asyncio.to_thread(hub.seeks.visible, viewer)
        await websocket.send_json({"type": "hello", "you": user.username if user is not None else None,
                                   "seeks": [seek.public(viewer) for seek in seeks]})
        while True:
            try:
                message = await asyncio.wait_for(listener.queue.get(), timeout=RENEW_SECONDS)
            except TimeoutError:
                if viewer is not None:  # its maker is around: the seeks stay
                    await asyncio.to_thread(hub.seeks.renew, viewer)
                continue
            if message is None:
                break
            await websocket.send_json(message)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client went
    finally:
        hub.leave(listener)
        reader.cancel()
        try:
            await websocket.close()
        except Exception:  # closed already
            pass
