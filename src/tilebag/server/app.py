"""The web application of ``tilebag serve`` (FastAPI): its routes (:mod:`.api`),
the state they share (:class:`~tilebag.server.deps.ServerState`), a limit on
request bodies, the errors every route answers with, and what runs beside
the requests (turn timers, the bots no live process moves, catching up with
the database). ``docs/api.md`` describes the API.

Every request that acts names its seat with ``Authorization: Bearer
TOKEN``; without one a client is an observer. Refused requests get a 4xx
status and ``{"error": reason}``, are logged (never with a token), and
change nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tilebag.server import correspondence
from tilebag.server.api import accounts, events, games, lobby, pages, users, ws
from tilebag.server.api import safety as safety_routes
from tilebag.server.deps import ServerState
from tilebag.server.room import RoomError
from tilebag.server.service import GameService

if TYPE_CHECKING:
    from tilebag.server.analyses import AnalysisQueue

LOGGER = logging.getLogger("tilebag.server")

MAX_BODY_BYTES = 16 * 1024
"""The largest request body the server reads."""

CLOCK_CHECK_SECONDS = 0.25
"""How often the server looks for turn timers that ran out."""

UPKEEP_SECONDS = 1.0
"""How often the server renews its leases on bots' turns, looks for bots no
live process moves, and (when processes share the games) catches every game
in memory up with the database, in case a notice was lost."""


class BodyLimit:
    """Refuses (413) a request whose body is over the limit, whether it
    declares its length or comes in chunks: the body is read (at most the
    limit) before the application sees the request. A plain ASGI middleware."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            await self._refuse(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > MAX_BODY_BYTES:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        replay = iter(messages)

        async def replayed() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, replayed, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        refused = JSONResponse({"error": f"a request body is at most {MAX_BODY_BYTES} bytes"}, status_code=413)
        await refused(scope, receive, send)


def create_app(
    service: GameService, *, allow_seeds: bool = False, bot_workers: int = 1, analyses: AnalysisQueue | None = None
) -> FastAPI:
    """The application over these games (``bot_workers``: how many bots may
    think at once; ``analyses``: the queue that analyses finished games, else
    each is analysed when first asked for)."""
    state = ServerState(service, allow_seeds=allow_seeds, analyses=analyses, bot_workers=bot_workers)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(_watch_clocks(state)), asyncio.create_task(_upkeep(state))]
        tasks.append(asyncio.create_task(_sweep_correspondence(state)))  # correspondence games' late turns
        tasks.append(asyncio.create_task(lobby.keep_lobby(app)))  # seeks expire, and the lobby hears of it
        yield
        for task in tasks:
            task.cancel()
        # the workers stopped now, while shutting down: uvicorn ends the process with the signal it got
        if analyses is not None:
            await asyncio.to_thread(analyses.stop)
        if service.rooms.thinkers is not None:
            await asyncio.to_thread(service.rooms.thinkers.close)
        state.close()

    app = FastAPI(
        title="tilebag", description="Online play of the SCRABBLE crossword game (see docs/api.md).", lifespan=lifespan
    )
    app.state.tilebag = state
    app.add_middleware(BodyLimit)

    @app.exception_handler(RoomError)
    async def refused(request: Request, err: RoomError) -> JSONResponse:
        LOGGER.info("refused %s %s: %s %s", request.method, request.url.path, err.status, err)
        return JSONResponse({"error": str(err)}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, err: RequestValidationError) -> JSONResponse:
        LOGGER.info("refused %s %s: malformed request", request.method, request.url.path)
        return JSONResponse({"error": f"malformed request: {_first_problem(err)} (see docs/api.md)"}, status_code=400)

    app.include_router(games.router)
    app.include_router(accounts.router)
    app.include_router(safety_routes.router)
    app.include_router(users.router)
    app.include_router(lobby.router)
    app.include_router(events.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=str(pages.WEB)), name="static")
    return app


def _first_problem(err: RequestValidationError) -> str:
    """What is wrong with a request, in words: the first field and why (never the value sent)."""
    problems = err.errors()
    if not problems:
        return "send a JSON object"
    problem = problems[0]
    where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body")
    if problem.get("type") == "json_invalid":
        return "the body is not JSON"
    return f"{where or 'the body'}: {str(problem.get('msg', 'not as expected')).lower()}"


async def _watch_clocks(state: ServerState) -> None:
    """Make a turn a pass wherever a person's turn timer ran out."""
    while True:
        await asyncio.sleep(CLOCK_CHECK_SECONDS)
        try:
            for changed in await asyncio.to_thread(partial(state.service.check_clocks, bots=False)):
                state.start_bots(changed)
        except Exception:  # a clock check must not stop the server
            LOGGER.exception("checking the clocks failed")


async def _upkeep(state: ServerState) -> None:
    """Renew this process's leases, move the bots no live process moves, and catch up with the database."""
    service = state.service
    while True:
        await asyncio.sleep(UPKEEP_SECONDS)
        try:
            await asyncio.to_thread(service.heartbeat)
            for waiting in await asyncio.to_thread(service.waiting):
                state.start_bots(waiting)
            if service.shared:
                for caught in await asyncio.to_thread(service.catch_up):
                    state.start_bots(caught)
        except Exception:  # the database is out of reach for a moment: the next round tries again
            LOGGER.exception("the server's upkeep failed")


async def _sweep_correspondence(state: ServerState) -> None:
    """Apply the correspondence games' time outs that are due: at once when the
    server starts (a deadline passed while it was stopped), then every few
    seconds (:func:`tilebag.server.correspondence.sweep_seconds`)."""
    seconds = correspondence.sweep_seconds()
    while True:
        try:
            for changed in await asyncio.to_thread(correspondence.sweep, state.service):
                state.start_bots(changed)
        except Exception:  # the database is out of reach for a moment: the next round tries again
            LOGGER.exception("the correspondence games' sweep failed")
        await asyncio.sleep(seconds)
