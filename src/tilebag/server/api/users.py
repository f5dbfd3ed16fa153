"""Players' profiles over HTTP (``docs/api.md``): an account's ratings by
category, its finished games with their results, its totals and its rating
history; and all its finished games as one GCG archive. What a rating is
and how a game's result moves it is :mod:`tilebag.server.ratings`.

A profile is public: it holds the name, ratings and games, never an email,
a password hash, a token or a rack (the archive holds the finished games'
records, racks included, as each finished game's own record does). An
unknown, malformed or disabled name gets the same 404.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from tilebag.server.accounts import AccountError, User, check_username
from tilebag.server.deps import State
from tilebag.server.ratings import (
    FinishedGame,
    GameSummary,
    Summaries,
    finished_games,
    history_of,
    ratings_of,
)
from tilebag.server.room import RoomError
from tilebag.server.service import GameService

LOGGER = logging.getLogger("tilebag.server")

router = APIRouter(prefix="/api")

NO_SUCH_PLAYER = "no such player"
"""What a request for a name that is no (enabled) account's is told, whatever the reason."""

SUMMARIES = Summaries()
"""Finished games' summaries, made once for every profile that lists them."""


class CategoryRating(BaseModel):
    """An account's rating in one category."""

    rating: float
    deviation: float = Field(description="the rating's uncertainty: the smaller, the surer")
    games: int = Field(description="rated games played in the category")
    provisional: bool = Field(description="fewer than 10 rated games in the category")


class ProfileGame(BaseModel):
    """A finished game the account held a seat in."""

    id: str
    ended: str
    result: Literal["win", "loss", "draw"]
    score: int
    opponents: list[str]
    scores: list[int] = Field(description="every seat's final score, in seat order")
    rated: bool
    category: str | None
    rating_change: float | None = Field(description="how far the game moved the account's rating (none: not rated)")


class Totals(BaseModel):
    """Totals over the finished games listed."""

    games: int
    wins: int
    average_score: float
    bingos_per_game: float


class RatingPoint(BaseModel):
    """The account's rating in a category after one rated game."""

    game: str
    rating: float
    deviation: float
    at: str


class Profile(BaseModel):
    """``GET /api/users/NAME``."""

    username: str
    ratings: dict[str, CategoryRating]
    games: list[ProfileGame] = Field(description="the finished games, the latest first (at most 500)")
    totals: Totals
    history: dict[str, list[RatingPoint]] = Field(description="by category, oldest first")


@dataclass(frozen=True)
class _Listed:
    game: FinishedGame
    summary: GameSummary


async def _account(name: str, state: State) -> User:
    """The enabled account named ``name`` (any case).

    :raises RoomError: (404) the same way for a malformed, unknown or disabled name.
    """
    try:
        check_username(name)
    except AccountError:
        raise RoomError(404, NO_SUCH_PLAYER) from None
    user = await asyncio.to_thread(state.accounts.user, name)
    if user is None:
        raise RoomError(404, NO_SUCH_PLAYER)
    return user


def _summarized(service: GameService, user: User) -> list[_Listed]:
    """The account's finished games with their summaries (a game whose record does not replay is left out)."""
    listed = []
    for game in finished_games(service.store, user.id):
        try:
            listed.append(_Listed(game, SUMMARIES.of(service.rooms, game)))
        except RoomError as err:
            LOGGER.warning("game %s left out of %s's profile: %s", game.game_id, user.username, err)
    return listed


def _profile(service: GameService, user: User) -> Profile:
    store = service.store
    listed = _summarized(service, user)
    history = history_of(store, user.id)
    changes = {point.game_id: point.change for point in history}
    games = []
    for item in listed:
        game, summary = item.game, item.summary
        games.append(ProfileGame(
            id=game.game_id, ended=game.ended, result=summary.result(game.seat), score=summary.scores[game.seat],
            opponents=[name for seat, name in enumerate(game.names) if seat != game.seat],
            scores=list(summary.scores), rated=game.rated, category=game.category,
            rating_change=round(changes[game.game_id], 1) if game.game_id in changes else None,
        ))
    count = len(listed)
    totals = Totals(
        games=count,
        wins=sum(1 for game in games if game.result == "win"),
        average_score=round(sum(game.score for game in games) / count, 1) if count else 0.0,
        bingos_per_game=round(sum(item.summary.bingos[item.game.seat] for item in listed) / count, 2) if count else 0.0,
    )
    by_category: dict[str, list[RatingPoint]] = {}
    for point in history:
        by_category.setdefault(point.category, []).append(
            RatingPoint(game=point.game_id, rating=round(point.rating, 1), deviation=round(point.deviation, 1), at=point.at))
    return Profile(
        username=user.username,
        ratings={
            category: CategoryRating(rating=round(row.rating, 1), deviation=round(row.deviation, 1), games=row.games,
                                     provisional=row.provisional)
            for category, row in ratings_of(store, user.id).items()
        },
        games=games, totals=totals, history=by_category,
    )


@router.get("/users/{name}", response_model=Profile)
async def profile(name: str, state: State) -> Profile:
    """A player's profile: ratings by category, finished games, totals and rating history."""
    user = await _account(name, state)
    return await asyncio.to_thread(_profile, state.service, user)


@router.get("/users/{name}/games.gcg", response_class=Response,
            responses={200: {"content": {"text/plain": {}}, "description": "every finished game, one GCG record after another"}})
async def archive(name: str, state: State) -> Response:
    """Every finished game of the player (the latest first) as one GCG archive, to download."""
    user = await _account(name, state)
    listed = await asyncio.to_thread(_summarized, state.service, user)
    return Response(
        content="".join(item.summary.record for item in listed),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{user.username}.gcg"'},
    )
