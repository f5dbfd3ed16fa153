"""The games' HTTP API (``docs/api.md``): making a game, the lobby, a seat's
view, acting, chatting, joining, rematches, the record, and what the browser
client asks besides (the layout, the server's catalogue, a play's preview,
coaching, the analysis). Each route reads its request, asks the service, and
answers: no rule of the game is decided here.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from functools import partial

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse

from tilebag.formats import gcg
from tilebag.server import views
from tilebag.server.coaching import ASKS, analysable, analysis_of, coach
from tilebag.server.deps import Caller, GameRoom, Identity, Seat, State, Token, change, read
from tilebag.server.models import (
    ActionRequest,
    ChatRequest,
    CoachAnswer,
    CoachRequest,
    GameMade,
    GameView,
    JoinRequest,
    LobbyGame,
    NewGame,
    Preview,
    PreviewRequest,
    Said,
    SeatRequest,
    SeatTaken,
    Turns,
)
from tilebag.server.room import RoomError

router = APIRouter(prefix="/api")

MAX_SEED = 2**63
"""Seeds a client may give (with ``--allow-seeds``) are below this."""


def _json(text: str, headers: dict[str, str] | None = None) -> Response:
    """A JSON answer whose text is made already."""
    return Response(content=text, media_type="application/json", headers=headers)


def _link(request: Request, game_id: str, token: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/games/{game_id}?token={token}"


@router.post("/games", status_code=201, response_model=GameMade, response_model_exclude_none=True)
async def create_game(made: NewGame, request: Request, state: State, caller: Identity) -> GameMade:
    """A new game; each person's seat gets its token and link, given once. A
    seat ``{"me": true}`` is the logged-in account's: named as it, and opened
    by its session or API token as well as by its link."""
    if made.seed is not None and not state.allow_seeds:
        raise RoomError(400, "this server does not take seeds (start it with --allow-seeds)")
    if made.seed is not None and not 0 <= made.seed < MAX_SEED:
        raise RoomError(400, "a seed is a whole number from 0")
    seed = made.seed if made.seed is not None else secrets.randbits(62)
    seats = [_seat_spec(seat, caller) for seat in made.seats]
    room, tokens = await state.setting_up(
        partial(state.service.create, bots=False, corr_days=made.days_per_move), seats, made.setup(), seed)
    state.start_bots(room)
    return GameMade.model_validate({
        "id": room.game_id,
        "seats": [
            {"seat": row.seat, "name": row.name, "kind": row.kind,
             **({"token": tokens[row.seat], "url": _link(request, room.game_id, tokens[row.seat])} if row.seat in tokens else {})}
            for row in room.seats
        ],
    })


def _seat_spec(seat: SeatRequest, caller: Caller) -> dict[str, object]:
    """What the service is given for a seat: the account for ``me`` comes from the request, never from its body."""
    spec: dict[str, object] = seat.model_dump(exclude_defaults=True, exclude={"me"})
    if seat.me:
        if caller.user is None:
            raise RoomError(401, 'a seat {"me": true} needs an account: log in first')
        spec = {**spec, "name": caller.user.username, "user": caller.user.id}
    return spec


@router.get("/games", response_model=list[LobbyGame])
async def lobby(state: State) -> list[dict[str, object]]:
    """The games being played, newest first."""
    return await asyncio.to_thread(views.lobby, state.service)


@router.get("/games/{game_id}", responses={200: {"model": GameView}})
async def game_view(room: GameRoom, seat: Seat) -> Response:
    """The game as the token's seat sees it (without a token: an observer's view)."""
    return _json(await read(room, lambda: views.view_json(room, seat)))


@router.post("/games/{game_id}/actions", responses={200: {"model": GameView}})
async def act(sent: ActionRequest, room: GameRoom, seat: Seat, token: Token, caller: Identity, state: State) -> Response:
    """The seat's action; the answer is the new view. The bots whose turn
    follows move after the answer."""
    started = time.perf_counter()
    state.limited(state.actions_limit, token or (f"account {caller.user_id}" if caller.user_id else None), "actions")
    service = state.service
    acting = partial(service.act, room, seat, sent.action, client_id=sent.id, bots=False)
    await change(room, acting, inline=state.local_database)
    answer = await read(room, lambda: views.view_json(room, seat))
    state.start_bots(room)  # after the answer: their thinking is not the player's wait
    return _json(answer, {"Server-Timing": f"act;dur={(time.perf_counter() - started) * 1000:.1f}"})


@router.post("/games/{game_id}/chat", response_model=Said)
async def chat(
    sent: ChatRequest, room: GameRoom, seat: Seat, token: Token, caller: Identity, request: Request, state: State
) -> Said:
    """A message from the token's (or the account's) seat, or from an observer under the name it gives."""
    if token:
        who = token
    elif caller.user is not None:
        who = f"account {caller.user.id}"
    else:
        who = f"watcher {request.client.host if request.client else ''}"
    state.limited(state.chat_limit, who, "chat messages")
    said = await asyncio.to_thread(partial(state.service.say, room, seat, sent.text, name=sent.name,
                                           user_id=caller.user_id))
    return Said(seq=said.seq, seat=said.seat, name=said.name, text=said.text, at=said.at)


@router.get("/games/{game_id}/turns", response_model=Turns)
async def turns(room: GameRoom) -> dict[str, object]:
    """A finished game turn by turn, to examine: the board after each event (409 before the end)."""

    def positions() -> list[dict[str, object]]:
        with room.lock:
            return views.turns(room)

    return {"turns": await asyncio.to_thread(positions)}


@router.post("/games/{game_id}/join", response_model=SeatTaken, response_model_exclude_none=True)
async def join(sent: JoinRequest, room: GameRoom, request: Request, state: State, caller: Identity) -> SeatTaken:
    """The next open seat, for this name (a logged-in account's: its name): its token and link."""
    name = caller.user.username if caller.user is not None else sent.name
    seat, token = await state.setting_up(partial(state.service.join, user_id=caller.user_id), room, name)
    return SeatTaken(seat=seat, token=token, url=_link(request, room.game_id, token))


@router.post("/games/{game_id}/rematch", response_model=SeatTaken)
async def rematch(room: GameRoom, seat: Seat, request: Request, state: State) -> SeatTaken:
    """The rematch of a finished game for the token's seat: its token and link there."""
    new_room, place, token = await state.setting_up(state.service.rematch, room, seat)
    state.start_bots(new_room)
    return SeatTaken(id=new_room.game_id, seat=place, token=token, url=_link(request, new_room.game_id, token))


@router.get("/games/{game_id}/gcg", response_class=PlainTextResponse)
async def record(room: GameRoom, seat: Seat) -> str:
    """The game's record (GCG) as the token's seat may see it."""
    return await read(room, lambda: gcg.dumps(views.record_of(room, seat)))


@router.get("/games/{game_id}/layout")
async def layout(room: GameRoom) -> dict[str, object]:
    """The game's board layout and tiles, to draw it."""
    return views.layout_of(room)


@router.get("/catalog")
async def catalog() -> dict[str, object]:
    """The rules presets and options and the bots a game can have."""
    return views.catalog()


@router.post("/games/{game_id}/preview", response_model=Preview, response_model_exclude_none=True)
async def preview(sent: PreviewRequest, room: GameRoom, seat: Seat, state: State) -> dict[str, object]:
    """A play's score and words, or why it would be refused; nothing changes."""
    return await read(room, lambda: state.service.preview(room, seat, sent.action))


@router.post("/games/{game_id}/coach", response_model=CoachAnswer)
async def coach_seat(sent: CoachRequest, room: GameRoom, seat: Seat) -> CoachAnswer:
    """A hint, a review of the seat's last move, word lists, hooks, bingos or
    rack advice, where the game allows coaching."""
    if len(sent.ask) > 100:
        raise RoomError(400, f"send {{\"ask\": ...}}, one of: {', '.join(ASKS)}")

    def answer() -> list[str]:
        with room.lock:
            return coach(room, seat, sent.ask)

    return CoachAnswer(lines=await asyncio.to_thread(answer))


@router.get("/games/{game_id}/analysis")
async def analysis(room: GameRoom, response: Response, state: State) -> dict[str, object]:
    """Each turn of a finished game against the best plays by equity, from
    the database once the analysis queue made it: until then, 202 and
    ``{"status": "queued"}`` (or ``"running"``)."""

    def locked_analysable() -> None:
        with room.lock:
            analysable(room)

    await asyncio.to_thread(locked_analysable)
    store, analyses, game_id = state.service.store, state.analyses, room.game_id
    row = await asyncio.to_thread(store.analysis, game_id)
    if row is None or (analyses is None and row.status != "done"):
        if analyses is None:  # no queue in this process: made now, and kept

            def made() -> dict[str, object]:
                with room.lock:
                    return analysis_of(room)

            data = await asyncio.to_thread(made)
            await asyncio.to_thread(store.queue_analysis, game_id)
            await asyncio.to_thread(partial(store.finish_analysis, game_id, result=data))
            return {**data, "status": "done"}
        await asyncio.to_thread(store.queue_analysis, game_id)  # a game that ended before the queue was
        analyses.wake()
        response.status_code = 202
        return {"status": "queued"}
    if row.status == "done" and row.result is not None:
        return {**row.result, "status": "done"}
    if row.status == "failed":
        return {"status": "failed", "error": row.error or "the analysis failed"}
    response.status_code = 202
    return {"status": row.status}
