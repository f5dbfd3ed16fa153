"""Accounts over HTTP (``docs/api.md``): register, log in and out, the
account itself, its password, its deletion, its API tokens, and the games it
holds seats in. What an account is and how its secrets are kept is
:mod:`tilebag.server.accounts`; who is asking is decided in
:mod:`tilebag.server.deps`.

Login and registration are rate-limited per address and per name; a refused
login never says whether the name exists. No password, session or token
reaches a log line.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from fastapi import APIRouter, Request, Response

from tilebag.server import views
from tilebag.server.accounts import (
    DELETED,
    SESSION_DAYS,
    AccountError,
    OpenedSession,
    check_email,
    check_password,
    check_username,
    username_key,
)
from tilebag.server.deps import SESSION_COOKIE, Account, Identity, State
from tilebag.server.models import (
    AccountDeletion,
    Login,
    Me,
    MyGame,
    NewAccount,
    PasswordChange,
    TokenListed,
    TokenMade,
    TokenRequest,
)
from tilebag.server.room import RoomError

LOGGER = logging.getLogger("tilebag.server")

router = APIRouter(prefix="/api")


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _open(response: Response, request: Request, opened: OpenedSession) -> None:
    """Put the session in its cookie: HttpOnly (no script reads it), SameSite=Lax
    (another site's page cannot send it with a change), Secure over HTTPS."""
    response.set_cookie(SESSION_COOKIE, opened.secret, max_age=SESSION_DAYS * 86400, httponly=True,
                        samesite="lax", secure=request.url.scheme == "https", path="/")


def _refuse(err: AccountError) -> RoomError:
    return RoomError(400, str(err))


@router.post("/account", status_code=201, response_model=Me)
async def register(sent: NewAccount, request: Request, response: Response, state: State) -> Me:
    """A new account, logged in at once (the session cookie is set)."""
    try:  # what is wrong with the request is said first, and costs no try
        check_username(sent.username), check_password(sent.password), check_email(sent.email)
    except AccountError as err:
        raise _refuse(err) from None
    if not state.register_limit.allow(_address(request)):
        raise RoomError(429, "too many accounts made from this address: try again later")
    try:
        user = await asyncio.to_thread(state.accounts.register, sent.username, sent.password, sent.email)
    except AccountError as err:
        raise _refuse(err) from None
    opened = await asyncio.to_thread(state.accounts.open_session, user.id)
    _open(response, request, opened)
    LOGGER.info("account %s made", user.username)
    return Me(username=user.username, role=user.role, csrf=opened.csrf)


@router.post("/login", response_model=Me)
async def login(sent: Login, request: Request, response: Response, state: State) -> Me:
    """Log in: the session cookie is set; the answer holds the CSRF token."""
    address, name = _address(request), username_key(sent.username[:40])
    if not state.login_limit.allow(f"address {address}") or not state.login_limit.allow(f"name {name}"):
        raise RoomError(429, "too many logins tried: wait a minute")
    user = await asyncio.to_thread(state.accounts.authenticate, sent.username, sent.password)
    if user is None:
        LOGGER.info("a login was refused from %s", address)
        raise RoomError(401, "that username and password do not match an account")
    opened = await asyncio.to_thread(state.accounts.open_session, user.id)
    _open(response, request, opened)
    return Me(username=user.username, role=user.role, csrf=opened.csrf)


@router.post("/logout", status_code=204)
async def logout(caller: Identity, response: Response, state: State) -> None:
    """End this session: its cookie opens nothing any more, here or anywhere it was copied."""
    if caller.session is not None:
        await asyncio.to_thread(state.accounts.close_session, caller.session)
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.get("/me", response_model=Me, response_model_exclude_none=True)
async def me(caller: Identity, user: Account) -> Me:
    """The account asking, and (with the session cookie) the CSRF token its changes must send."""
    return Me(username=user.username, role=user.role, csrf=caller.csrf)


@router.post("/password", status_code=204)
async def change_password(sent: PasswordChange, caller: Identity, user: Account, state: State) -> None:
    """A new password; every other session of the account ends."""
    try:
        await asyncio.to_thread(partial(state.accounts.change_password, user, sent.old, sent.new, keep=caller.session))
    except AccountError as err:
        raise _refuse(err) from None


@router.delete("/account", status_code=204)
async def delete_account(sent: AccountDeletion, user: Account, response: Response, state: State) -> None:
    """Close the account (the password once more): its games stay, its seats read "deleted"."""
    try:
        await asyncio.to_thread(state.accounts.delete, user, sent.password)
    except AccountError as err:
        raise _refuse(err) from None
    response.delete_cookie(SESSION_COOKIE, path="/")
    state.service.rooms.forget_account(user.id, DELETED)
    LOGGER.info("an account was deleted")


@router.post("/tokens", status_code=201, response_model=TokenMade)
async def create_token(sent: TokenRequest, user: Account, state: State) -> TokenMade:
    """A personal API token for scripts and bots (``Authorization: Bearer``), shown once."""
    token_id, secret = await asyncio.to_thread(state.accounts.create_token, user, sent.name)
    return TokenMade(id=token_id, token=secret)


@router.get("/tokens", response_model=list[TokenListed])
async def list_tokens(user: Account, state: State) -> list[TokenListed]:
    """The account's API tokens: names and dates, never the secrets."""
    rows = await asyncio.to_thread(state.accounts.tokens, user)
    return [TokenListed(id=r.id, name=r.name, created=r.created) for r in rows]


@router.delete("/tokens/{token_id}", status_code=204)
async def revoke_token(token_id: int, user: Account, state: State) -> None:
    """Revoke a token: it opens nothing from now on."""
    if not await asyncio.to_thread(state.accounts.revoke_token, user, token_id):
        raise RoomError(404, "no such token of yours")


@router.get("/my/games", response_model=list[MyGame])
async def my_games(user: Account, state: State) -> list[dict[str, object]]:
    """The games the account holds a seat in: those awaiting its move first,
    then the others being played, then the finished ones, newest first."""
    return await asyncio.to_thread(views.games_of, state.service, user)

