"""The browser client's pages and files: plain ES modules and CSS shipped in
the package, with no build step. A link to a game the server does not have
answers 404 with a page that says so."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from tilebag.server.deps import State, game_room
from tilebag.server.room import RoomError

WEB = resources.files("tilebag.server") / "web"
"""The browser client's files."""

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def lobby_page() -> FileResponse:
    return FileResponse(str(WEB / "index.html"), media_type="text/html")


@router.get("/login", response_class=HTMLResponse)
async def login_page() -> FileResponse:
    """Log in, or make an account."""
    return FileResponse(str(WEB / "login.html"), media_type="text/html")


@router.get("/account", response_class=HTMLResponse)
async def account_page() -> FileResponse:
    """The account's games, password, API tokens and deletion."""
    return FileResponse(str(WEB / "account.html"), media_type="text/html")


@router.get("/users/{username}", response_class=HTMLResponse)
async def profile_page(username: str) -> FileResponse:
    """A player's ratings, history and games (the page asks ``GET /api/users/NAME``)."""
    return FileResponse(str(WEB / "profile.html"), media_type="text/html")


@router.get("/events", response_class=HTMLResponse)
async def events_page() -> FileResponse:
    """The club nights and tournaments of this server, and a form to run one."""
    return FileResponse(str(WEB / "events.html"), media_type="text/html")


@router.get("/events/{event_id}", response_class=HTMLResponse)
async def event_page(event_id: str) -> FileResponse:
    """An event's standings, rounds and games, live; its director's controls (the page asks ``GET /api/events/ID``)."""
    return FileResponse(str(WEB / "event.html"), media_type="text/html")


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(game_id: str, state: State) -> FileResponse:
    """The game's page; for a game this server does not have, a 404 page that says so and leads to the lobby."""
    try:
        await game_room(game_id, state)
    except RoomError as err:
        if err.status != 404:
            raise
        return FileResponse(str(WEB / "no-such-game.html"), media_type="text/html", status_code=404)
    return FileResponse(str(WEB / "game.html"), media_type="text/html")
