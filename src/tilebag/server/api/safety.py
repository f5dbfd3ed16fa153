"""A safe community over HTTP (``docs/api.md``): an account's blocks, its
reports of other players, and the admins' routes (the open reports, resolving
one, disabling and enabling an account). What a block or a report is, and who
may chat, is :mod:`tilebag.server.safety`'s; who is asking is
:mod:`tilebag.server.deps`'s.

Every route needs an account; the admins' need the ``admin`` role, and any
other account is refused (403) and logged. Reports are limited per account.
No name that opens no account is told apart from another: all get the same
404.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from tilebag.server.accounts import User
from tilebag.server.deps import Account, RateLimit, State
from tilebag.server.room import RoomError
from tilebag.server.safety import NO_SUCH_PLAYER, Safety

LOGGER = logging.getLogger("tilebag.server")

router = APIRouter(prefix="/api")

REPORTS_AT_ONCE, REPORTS_PER_HOUR = 5, 6
"""Reports one account may make: five at once, then six an hour."""


class _Request(BaseModel):
    model_config = ConfigDict(extra="ignore")


class BlockRequest(_Request):
    """``POST /api/blocks``: the account to block."""

    username: str


class ReportRequest(_Request):
    """``POST /api/reports``: the player reported, why, and perhaps the game and the chat message."""

    username: str
    reason: str = Field(description="1 to 1000 characters")
    game: str | None = Field(default=None, description="the game it happened in (its id)")
    chat_seq: StrictInt | None = Field(default=None, description="the chat message reported: its seq in the game")


class ReportMade(BaseModel):
    id: int


class ReportListed(BaseModel):
    """An open report, as an admin sees it."""

    id: int
    reporter: str | None = Field(description="who reported (null: an account deleted since)")
    reported: str | None = Field(description="who was reported (null: an account deleted since)")
    reason: str
    created: str
    game: str | None = None
    chat_seq: int | None = None
    chat: str | None = Field(default=None, description="the text of the chat message reported")


def _safety(state: State) -> Safety:
    return Safety(state.service.store)


Safe = Annotated[Safety, Depends(_safety)]


def admin(user: Account) -> User:
    """The request's account, if it is an admin's.

    :raises RoomError: (403) for any other account (and the refusal is logged).
    """
    if not user.admin:
        raise RoomError(403, "this is for the server's admins")
    return user


Admin = Annotated[User, Depends(admin)]


def _report_limit(request: Request) -> RateLimit:
    """The reports limit of this application (kept with it, made when first needed)."""
    limit: RateLimit | None = getattr(request.app.state, "reports_limit", None)
    if limit is None:
        limit = RateLimit(rate=REPORTS_PER_HOUR / 3600, burst=REPORTS_AT_ONCE)
        request.app.state.reports_limit = limit
    return limit


# -- an account's blocks -------------------------------------------------------------------------


@router.post("/blocks", status_code=204)
async def block(sent: BlockRequest, user: Account, safety: Safe) -> None:
    """Block an account: it cannot chat in a game where you hold a seat, nor challenge you."""
    await asyncio.to_thread(safety.block, user, sent.username)


@router.delete("/blocks/{username}", status_code=204)
async def unblock(username: str, user: Account, safety: Safe) -> None:
    """Unblock an account."""
    await asyncio.to_thread(safety.unblock, user, username)


@router.get("/blocks", response_model=list[str])
async def blocks(user: Account, safety: Safe) -> list[str]:
    """The names of the accounts you blocked."""
    return await asyncio.to_thread(safety.blocked, user)


# -- reports -------------------------------------------------------------------------------------


@router.post("/reports", status_code=201, response_model=ReportMade)
async def report(sent: ReportRequest, request: Request, user: Account, safety: Safe) -> ReportMade:
    """Report a player to the admins (perhaps for one chat message of a game).
    The reports an account files are limited; one refused as wrong is not counted."""
    checked = await asyncio.to_thread(
        partial(safety.check_report, user, sent.username, sent.reason, sent.game, sent.chat_seq))
    if not _report_limit(request).allow(f"user {user.id}"):
        raise RoomError(429, "too many reports: the admins have yours; try again later")
    made = await asyncio.to_thread(safety.file, checked)
    LOGGER.info("report %d made", made)
    return ReportMade(id=made)


# -- the admins' ---------------------------------------------------------------------------------


@router.get("/admin/reports", response_model=list[ReportListed])
async def open_reports(_: Admin, safety: Safe) -> list[ReportListed]:
    """The reports not resolved yet, oldest first."""
    rows = await asyncio.to_thread(safety.open_reports)
    return [ReportListed(id=r.id, reporter=r.reporter, reported=r.reported, reason=r.reason, created=r.created,
                         game=r.game, chat_seq=r.chat_seq, chat=r.chat) for r in rows]


@router.post("/admin/reports/{report_id}/resolve", status_code=204)
async def resolve(report_id: int, user: Admin, safety: Safe) -> None:
    """Mark a report resolved: it leaves the list."""
    if not await asyncio.to_thread(safety.resolve, report_id):
        raise RoomError(404, "no such open report")
    LOGGER.info("report %d resolved by %s", report_id, user.username)


@router.post("/admin/users/{username}/disable", status_code=204)
async def disable(username: str, user: Admin, state: State) -> None:
    """Disable an account: its sessions and API tokens end at once, and it cannot log in."""
    if username[:40].casefold() == user.username.casefold():
        raise RoomError(400, "you cannot disable your own account")
    await _set_disabled(state, username, True)
    LOGGER.info("an account was disabled by %s", user.username)


@router.post("/admin/users/{username}/enable", status_code=204)
async def enable(username: str, user: Admin, state: State) -> None:
    """Enable a disabled account again (its owner logs in anew)."""
    await _set_disabled(state, username, False)
    LOGGER.info("an account was enabled by %s", user.username)


async def _set_disabled(state: State, username: str, disabled: bool) -> None:
    found = len(username) <= 40 and await asyncio.to_thread(state.accounts.set_disabled, username, disabled)
    if not found:
        raise RoomError(404, NO_SUCH_PLAYER)
