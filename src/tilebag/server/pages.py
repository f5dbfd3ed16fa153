"""The browser client's routes: its pages and files (plain ES modules and
CSS shipped in the package, no build step), and the read-only endpoints it
needs besides the game API: what the server offers (rules presets and
options, bots), a game's board layout and tiles, and a preview of a play.
"""

from __future__ import annotations

import asyncio
from functools import partial
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from tilebag.engine.bots import BOTS
from tilebag.errors import IllegalMoveError, InvalidMoveError
from tilebag.game import GameState
from tilebag.rules import OPTIONS, PRESET_HELP, PRESETS
from tilebag.server.coaching import ASKS, analysable, analysis_of, coach
from tilebag.server.rooms import Room, RoomError, Rooms

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from tilebag.server.analyses import AnalysisQueue

T = TypeVar("T")

WEB = resources.files("tilebag.server") / "web"
"""The browser client's files."""

SQUARE_CODES = {(3, 1): "W", (2, 1): "w", (1, 3): "L", (1, 2): "l"}
"""A square's (word, letter) multipliers as one character: W triple word,
w double word, L triple letter, l double letter; ``.`` a plain square."""


def layout_of(room: Room) -> dict[str, object]:
    """The board and tiles of a game, for drawing it: each row's squares as
    characters (see :data:`SQUARE_CODES`), the start square, and each
    tile's label, score and count."""
    game = room.game
    layout, alphabet = game.layout, game.alphabet
    rows = []
    for row in range(layout.rows):
        squares = ""
        for col in range(layout.cols):
            index = row * layout.cols + col
            key = (layout.word_multipliers[index], layout.letter_multipliers[index])
            squares += SQUARE_CODES.get(key, ".")
        rows.append(squares)
    return {
        "rows": rows,
        "start": [layout.start // layout.cols, layout.start % layout.cols],
        "rack_size": game.rules.rack_size,
        "tiles": [
            {"label": label, "score": score, "count": count}
            for label, score, count in zip(alphabet.labels, alphabet.scores, alphabet.counts, strict=False)
        ],
    }


def preview(room: Room, seat: int | None, text: str) -> dict[str, object]:
    """What a play would score and the words it would form, checked for the
    seat to move without playing it; or why it would be refused."""
    game = room.game
    if seat is None:
        return {"ok": False, "error": "observers cannot play"}
    if game.state is not GameState.PLAYING or room.table.seat_to_act() != seat:
        return {"ok": False, "error": "it is not your turn"}
    try:
        move = room.table.check(seat, game.parse_move(text.strip()))
        words = [game.alphabet.format_word(w.tiles) for w in game.words(move)] if move.kind.value == "place" else []
        return {"ok": True, "score": game.score(move), "words": words}
    except (InvalidMoveError, IllegalMoveError) as err:
        return {"ok": False, "error": str(err)}


def catalog() -> dict[str, object]:
    """What a game on this server can be made of: presets, options, bots."""
    return {
        "presets": [{"name": name, "help": PRESET_HELP.get(name, ""), "options": PRESETS[name].describe()} for name in PRESETS],
        "options": [{"name": option.flag, "help": option.help} for option in OPTIONS.values()],
        "bots": sorted(BOTS),
    }


def add_pages(
    app: FastAPI,
    room_of: Callable[[str], Awaitable[Room]],
    read: Callable[[Room, Callable[[], Any]], Awaitable[Any]],
    token_of: Callable[[Request], str | None],
    body: Callable[[Request], Awaitable[dict[str, Any]]],
    rooms: Rooms,
    analyses: AnalysisQueue | None = None,
) -> None:
    """The client's pages and files, and its read-only endpoints, on ``app``."""
    app.mount("/static", StaticFiles(directory=str(WEB)), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(str(WEB / "index.html"), media_type="text/html")

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        """The game's page; for a game this server does not have, a 404 page that says so and leads to the lobby."""
        try:
            await room_of(game_id)
        except RoomError as err:
            if err.status != 404:
                raise
            return FileResponse(str(WEB / "no-such-game.html"), media_type="text/html", status_code=404)
        return FileResponse(str(WEB / "game.html"), media_type="text/html")

    @app.get("/api/catalog")
    async def offered() -> dict[str, object]:
        """The rules presets and options and the bots a game can have."""
        return catalog()

    @app.get("/api/games/{game_id}/layout")
    async def board(game_id: str) -> dict[str, object]:
        """The game's board layout and tiles, to draw it."""
        room = await room_of(game_id)
        return layout_of(room)

    @app.post("/api/games/{game_id}/preview")
    async def try_play(game_id: str, request: Request) -> dict[str, object]:
        """A play's score and words, or why it would be refused; nothing changes."""
        room = await room_of(game_id)
        seat = room.seat_of(token_of(request))
        text = (await body(request)).get("action")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            return {"ok": False, "error": 'send {"action": "8D WORD"}'}
        result: dict[str, object] = await read(room, lambda: preview(room, seat, text))
        return result

    @app.post("/api/games/{game_id}/coach")
    async def coach_seat(game_id: str, request: Request) -> dict[str, object]:
        """A hint, a review of the seat's last move, word lists, hooks,
        bingos or rack advice, where the game allows coaching."""
        room = await room_of(game_id)
        seat = room.seat_of(token_of(request))
        ask = (await body(request)).get("ask")
        if not isinstance(ask, str) or len(ask) > 100:
            raise RoomError(400, f"send {{\"ask\": ...}}, one of: {', '.join(ASKS)}")
        return {"lines": await asyncio.to_thread(_locked, room, lambda: coach(room, seat, ask))}

    @app.get("/api/games/{game_id}/analysis")
    async def analysis(game_id: str, response: Response) -> dict[str, object]:
        """Each turn of a finished game against the best plays by equity,
        from the database once the analysis queue made it: until then,
        202 and ``{"status": "queued"}`` (or ``"running"``)."""
        room = await room_of(game_id)
        await asyncio.to_thread(_locked, room, lambda: analysable(room))
        store = rooms.store
        row = await asyncio.to_thread(store.analysis, game_id)
        if row is None or (analyses is None and row.status != "done"):
            if analyses is None:  # no queue in this process: made now, and kept
                data = await asyncio.to_thread(_locked, room, lambda: analysis_of(room))
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


def _locked(room: Room, work: Callable[[], T]) -> T:
    with room.lock:
        return work()
