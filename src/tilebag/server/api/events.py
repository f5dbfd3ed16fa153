"""Club nights and tournaments over HTTP (``docs/api.md``): an event made by
an account, its director; its players, pairings, rounds and results; the
sheets to print and the files to take away.

Anyone may watch an event (no email nor token is ever shown). Only its
director changes it (403 otherwise, logged), but for the results its
players enter for their own boards, which count once the opponent
confirms them. What an event is and what it may take is decided in
:mod:`tilebag.server.events`; the games of an online round and their
results in :mod:`tilebag.server.event_rounds`. This module reads requests,
checks who asks, and answers: an error of the event's (a round out of
order, a result in already) is 409, a request that cannot be (an unknown
method, a score out of range, a division not named among several) 400.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from functools import partial
from typing import Annotated, TypeVar

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import HTMLResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from tilebag.events.pairing import PairingError
from tilebag.events.sheets import pairings_html, standings_html, standings_text
from tilebag.events.standings import FORFEIT_SPREAD, MAX_NAME_CHARS, Game, ResultError, Standing
from tilebag.events.tsh import MAX_RATING, TshError
from tilebag.rules import RulesError
from tilebag.server.accounts import User
from tilebag.server.api.lobby import hub_for
from tilebag.server.deps import Account, State
from tilebag.server.event_rounds import Board, EventRounds, event_terms
from tilebag.server.events import MAX_DIVISION_CHARS, MAX_PLAYERS, MAX_ROUNDS, Event, EventError, EventStore, Result
from tilebag.server.room import RoomError
from tilebag.server.seeks import Clock

LOGGER = logging.getLogger("tilebag.server")

router = APIRouter(prefix="/api")

T = TypeVar("T")

MAX_EVENT_ID = 2**31 - 1
"""Event numbers a path may name."""

MAX_DIVISIONS = 26
"""The most divisions an event made here may have."""

SHEET_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'"
"""What a printed sheet may load: its own styles, nothing else (the page says so too)."""

EventId = Annotated[int, Path(ge=1, le=MAX_EVENT_ID, description="the event's number")]
RoundNumber = Annotated[int, Path(ge=1, le=MAX_ROUNDS)]
PlayerNumber = Annotated[int, Path(ge=1, le=MAX_PLAYERS)]
BoardNumber = Annotated[int, Path(ge=1, le=MAX_PLAYERS)]
DivisionQuery = Annotated[str | None, Query(max_length=MAX_DIVISION_CHARS, description="needed when there are several")]


def event_rounds(request: Request) -> EventRounds:
    """The application's events and their games (made when first asked for)."""
    found: EventRounds | None = getattr(request.app.state, "event_rounds", None)
    if found is None:
        service = request.app.state.tilebag.service
        found = EventRounds(EventStore(service.store), service)
        request.app.state.event_rounds = found
    return found


Rounds = Annotated[EventRounds, Depends(event_rounds)]


# -- the requests -----------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Name = Annotated[StrictStr, Field(max_length=MAX_NAME_CHARS)]
DivisionName = Annotated[StrictStr, Field(max_length=MAX_DIVISION_CHARS)]
Number = Annotated[StrictInt, Field(ge=-(2**31), le=2**31)]
"""A whole number a request may give (the store says which are allowed)."""


class EventClock(_Strict):
    """An event's games' clock: ``game_minutes`` each (with ``overtime_penalty``
    points per started minute over), or ``days_per_move`` (correspondence)."""

    game_minutes: Number | None = None
    overtime_penalty: Number | None = None
    days_per_move: Number | None = None

    def clock(self) -> Clock:
        """The clock checked (:raises RoomError: (400) for one that cannot be)."""
        return Clock.of(**self.model_dump())


class NewEvent(_Strict):
    """``POST /api/events``."""

    name: Name
    divisions: list[DivisionName] | None = Field(default=None, max_length=MAX_DIVISIONS,
                                                 description="the divisions' names (none: one, A)")
    rules: StrictStr = Field(default="standard", max_length=40, description="a rules preset (tilebag rules lists them)")
    options: dict[StrictStr, StrictStr | StrictInt | StrictFloat | StrictBool] = Field(
        default_factory=dict, max_length=30, description="rules options by name, as the command line names them")
    clock: EventClock | None = Field(default=None, description="none: as the rules say")
    online: StrictBool = Field(description="the games are played on this server (else over the board)")
    rounds: Number | None = Field(default=None, description="the rounds planned (none: as many as the director pairs)")


class PlayerRequest(_Strict):
    """``POST /api/events/ID/players``: an account by ``username``, or a ``name`` (both: the account, so named)."""

    name: Name | None = None
    username: StrictStr | None = Field(default=None, max_length=40)
    division: DivisionName | None = None
    rating: Annotated[StrictInt, Field(ge=1, le=MAX_RATING)] | None = None


class WithdrawRequest(_Strict):
    division: DivisionName | None = None
    from_round: Number | None = None


class PairRequest(_Strict):
    method: StrictStr = Field(max_length=40, description="swiss, rr, koth, australian, random or fixed")
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = Field(
        default=None, description="what is left to chance (none: the round's seed, or a new one)")
    fixed: list[tuple[Number, Number | None]] | None = Field(default=None, max_length=MAX_PLAYERS,
                                                              description="each board's players ([a, null]: a bye)")
    division: DivisionName | None = None


class ChangeRequest(_Strict):
    a: Number
    b: Number | None = Field(description="none: a has the bye")
    division: DivisionName | None = None


class StartRequest(_Strict):
    division: DivisionName | None = None


class ResultRequest(_Strict):
    """``POST /api/events/ID/results``: ``player``'s score and their opponent's in the round."""

    round: Number
    player: Number
    score: Number | None = None
    opponent_score: Number | None = None
    division: DivisionName | None = None
    forfeit: StrictBool = Field(default=False, description="player forfeits (the director only): a loss by "
                                                           "opponent_score (50 unless given)")


class ConfirmRequest(_Strict):
    round: Number
    player: Number = Field(description="the player who confirms (their opponent entered the result)")
    division: DivisionName | None = None


# -- the answers ------------------------------------------------------------------------------


class EventMade(BaseModel):
    id: int


class EventListed(BaseModel):
    id: int
    name: str
    director: str | None
    online: bool
    status: str = Field(description="open (no round paired), running or over")
    players: int


class PlayerShown(BaseModel):
    number: int
    name: str
    username: str | None = Field(description="the account that plays as this player (none: over the board only)")
    rating: int | None
    joined: int
    withdrawn: int | None


class PlayerAdded(PlayerShown):
    division: str


class ResultShown(BaseModel):
    """A board's result, as its ``a`` and ``b`` (a bye: 50-0)."""

    a_score: int
    b_score: int
    forfeit: bool
    confirmed: bool


class PairingShown(BaseModel):
    board: int
    a: int
    b: int | None = Field(description="none: a has the bye")
    first: int | None = Field(description="who goes first (seat 0 of an online game)")
    game: str | None = Field(description="the board's game on this server (an online round started)")
    result: ResultShown | None


class RoundShown(BaseModel):
    number: int
    method: str
    seed: int
    started: bool
    pairings: list[PairingShown]


class RoundAnswer(RoundShown):
    division: str


class ScorecardShown(BaseModel):
    round: int
    opponent: int | None
    first: bool | None
    score: int
    opponent_score: int
    spread: int
    outcome: str
    bye: bool
    forfeit: bool
    record: str


class StandingShown(BaseModel):
    rank: int
    number: int
    name: str
    wins: float
    losses: float
    record: str
    spread: int
    head_to_head: float
    total_score: int
    firsts: int
    seconds: int
    byes: int
    withdrawn: int | None
    scorecard: list[ScorecardShown]


class DivisionShown(BaseModel):
    name: str
    players: list[PlayerShown]
    rounds: list[RoundShown]
    standings: list[StandingShown]


class EventShown(BaseModel):
    id: int
    name: str
    director: str | None
    online: bool
    rounds: int | None
    rules: str
    options: dict[str, str]
    clock: dict[str, int | None] | None
    status: str
    divisions: list[DivisionShown]


class ResultEntered(BaseModel):
    division: str
    round: int
    a: int
    b: int | None
    a_score: int
    b_score: int
    first: int | None
    forfeit: bool
    confirmed: bool
    entered_by: int | None = Field(description="the player who entered it (none: the director, or the server)")
    game: str | None
    corrected: str | None = Field(description="when the director last corrected it")


# -- calling the store ------------------------------------------------------------------------


async def _call(function: Callable[..., T], *args: object, refused: int = 409) -> T:
    """``function(*args)`` on a worker thread; the event's refusals as HTTP's:
    ``refused`` (409) for what the event cannot take, 400 for what cannot be."""
    try:
        return await asyncio.to_thread(function, *args)
    except EventError as err:
        raise RoomError(refused, str(err)) from None
    except (ResultError, PairingError, RulesError) as err:
        raise RoomError(400, str(err)) from None


async def _event(rounds: EventRounds, event_id: int) -> Event:
    """The event of that number (404 when there is none)."""
    try:
        return await asyncio.to_thread(rounds.events.event, event_id)
    except EventError:
        raise RoomError(404, "no such event") from None


async def _division(rounds: EventRounds, event: Event, division: str | None) -> str:
    """The division's name as stored (400 when the event has none of that name, or several and none was named)."""
    try:
        return await asyncio.to_thread(rounds.events.division_name, event.id, division)
    except EventError as err:
        raise RoomError(400, str(err)) from None


async def _directed(rounds: EventRounds, event_id: int, user: User, what: str) -> Event:
    """The event, when ``user`` directs it (403, logged, otherwise)."""
    event = await _event(rounds, event_id)
    if event.director_id is None or event.director_id != user.id:
        LOGGER.warning("refused %s of event %s: %s is not its director", what, event_id, user.username)
        raise RoomError(403, f"only the event's director may {what}")
    return event


def _told(request: Request, event: Event, **more: object) -> None:
    """Tell the lobby's sockets that the event changed (a hint: its page reads it again)."""
    hub_for(request.app).tell({"type": "event", "id": event.id, **more})


# -- what is shown ----------------------------------------------------------------------------


def _result_of(board: Board, stored: list[Result], counted: list[Game]) -> ResultShown | None:
    """A board's result as its ``a`` and ``b``: the one stored (confirmed or not), or the bye counted."""
    found = [r for r in stored if r.game.round == board.round and set(r.game.players) & set(board.players)]
    if found:
        game, confirmed = found[-1].game, found[-1].confirmed
    else:
        byes = [g for g in counted if g.round == board.round and board.b is None and g.a == board.a]
        if not byes:
            return None
        game, confirmed = byes[0], True
    if game.a == board.a:
        return ResultShown(a_score=game.score_a, b_score=game.score_b, forfeit=game.forfeit, confirmed=confirmed)
    return ResultShown(a_score=game.score_b, b_score=game.score_a, forfeit=game.forfeit, confirmed=confirmed)


def _standing(standing: Standing) -> StandingShown:
    return StandingShown(
        rank=standing.rank, number=standing.player.id, name=standing.player.name, wins=standing.wins,
        losses=standing.losses, record=standing.record, spread=standing.spread, head_to_head=standing.head_to_head,
        total_score=standing.total_score, firsts=standing.firsts, seconds=standing.seconds, byes=standing.byes,
        withdrawn=standing.player.withdrawn,
        scorecard=[
            ScorecardShown(round=line.round, opponent=line.opponent, first=line.first, score=line.score,
                           opponent_score=line.opponent_score, spread=line.spread, outcome=line.outcome, bye=line.bye,
                           forfeit=line.forfeit, record=line.record)
            for line in standing.scorecard
        ],
    )


def _division_shown(rounds: EventRounds, event: Event, name: str, *, only_round: int | None = None) -> DivisionShown:
    """A division as the API shows it (read on a worker thread): ``only_round``, that round alone."""
    events = rounds.events
    players = events.players(event.id, name)
    accounts = events.accounts(event.id, name)
    usernames = rounds.usernames(accounts.values())
    stored = list(events.results(event.id, name))
    counted = list(events.games(event.id, name))
    boards = rounds.boards(event.id, name)
    shown_rounds = []
    for paired in events.rounds(event.id, name):
        if only_round is not None and paired.number != only_round:
            continue
        shown_rounds.append(RoundShown(
            number=paired.number, method=paired.method.value, seed=paired.seed, started=paired.started,
            pairings=[
                PairingShown(board=board.board, a=board.a, b=board.b, first=board.first, game=board.game_id,
                             result=_result_of(board, stored, counted))
                for board in boards.get(paired.number, ())
            ],
        ))
    return DivisionShown(
        name=name,
        players=[
            PlayerShown(number=p.id, name=p.name, username=usernames.get(accounts.get(p.id, 0)), rating=p.rating,
                        joined=p.joined, withdrawn=p.withdrawn)
            for p in players
        ],
        rounds=shown_rounds,
        standings=[_standing(s) for s in events.standings(event.id, name)] if only_round is None else [],
    )


def _event_shown(rounds: EventRounds, event_id: int) -> EventShown:
    event = rounds.events.event(event_id)
    return EventShown(
        id=event.id, name=event.name, director=event.director, online=event.online, rounds=event.rounds,
        rules=event.rules, options=event.options, clock=event.clock, status=event.status,
        divisions=[_division_shown(rounds, event, name) for name in event.divisions],
    )


async def _round_answer(rounds: EventRounds, event: Event, division: str, round_number: int) -> RoundAnswer:
    shown = await _call(partial(_division_shown, rounds, event, division, only_round=round_number))
    return RoundAnswer(division=division, **shown.rounds[0].model_dump())


def _entered(division: str, result: Result) -> ResultEntered:
    game = result.game
    return ResultEntered(division=division, round=game.round, a=game.a, b=game.b, a_score=game.score_a,
                         b_score=game.score_b, first=game.first, forfeit=game.forfeit, confirmed=result.confirmed,
                         entered_by=result.entered_by, game=result.game_id, corrected=result.corrected_at)


def _file_name(text: str) -> str:
    """A name safe in a ``Content-Disposition`` header."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:40] or "event"


# -- events -----------------------------------------------------------------------------------


@router.post("/events", status_code=201, response_model=EventMade)
async def create_event(sent: NewEvent, user: Account, rounds: Rounds, request: Request) -> EventMade:
    """A new event, directed by the requesting account."""
    clock = sent.clock.clock().to_json() if sent.clock is not None else None
    if sent.online:  # its games must be games this server makes
        event_terms(sent.rules, sent.options, clock)
    event = await _call(partial(
        rounds.events.create_event, sent.name, divisions=sent.divisions or ("A",), rules=sent.rules,
        options=sent.options, clock=clock, rounds=sent.rounds, director=user.username, director_id=user.id,
        online=sent.online), refused=400)
    LOGGER.info("event %s made by %s", event.id, user.username)
    _told(request, event)
    return EventMade(id=event.id)


@router.get("/events", response_model=list[EventListed])
async def list_events(rounds: Rounds) -> list[EventListed]:
    """Every event, oldest first."""
    events = await asyncio.to_thread(rounds.events.events)
    counts = await asyncio.to_thread(rounds.player_counts)
    return [EventListed(id=e.id, name=e.name, director=e.director, online=e.online, status=e.status,
                        players=counts.get(e.id, 0)) for e in events]


@router.get("/events/{event_id}", response_model=EventShown)
async def show_event(event_id: EventId, rounds: Rounds) -> EventShown:
    """The event whole: its divisions, their players, rounds (pairings, games, results) and standings."""
    await _event(rounds, event_id)
    return await _call(_event_shown, rounds, event_id)


# -- players ----------------------------------------------------------------------------------


@router.post("/events/{event_id}/players", status_code=201, response_model=PlayerAdded)
async def add_player(event_id: EventId, sent: PlayerRequest, user: Account, rounds: Rounds, state: State,
                     request: Request) -> PlayerAdded:
    """A new player: an account by its username (who then plays online and enters results), or a name."""
    event = await _directed(rounds, event_id, user, "add players")
    division = await _division(rounds, event, sent.division)
    account: User | None = None
    if sent.username is not None:
        account = await asyncio.to_thread(state.accounts.user, sent.username)
        if account is None:
            raise RoomError(404, f"no account named {sent.username[:40]!r}")
        held = await asyncio.to_thread(rounds.events.accounts, event.id, division)
        if account.id in held.values():
            raise RoomError(409, f"{account.username} plays in division {division} already")
    elif sent.name is None:
        raise RoomError(400, 'a player is an account ("username") or a name ("name")')
    name = sent.name if sent.name is not None else account.username if account is not None else ""
    player = await _call(partial(rounds.events.add_player, event.id, division, name, rating=sent.rating,
                                 user_id=account.id if account is not None else None))
    _told(request, event)
    return PlayerAdded(division=division, number=player.id, name=player.name,
                       username=account.username if account is not None else None, rating=player.rating,
                       joined=player.joined, withdrawn=player.withdrawn)


@router.post("/events/{event_id}/players/{number}/withdraw", response_model=PlayerAdded)
async def withdraw(event_id: EventId, number: PlayerNumber, user: Account, rounds: Rounds, request: Request,
                   sent: WithdrawRequest | None = None) -> PlayerAdded:
    """The player is not paired from ``from_round`` on (the next round to pair unless told); their results stand."""
    sent = sent or WithdrawRequest()
    event = await _directed(rounds, event_id, user, "withdraw players")
    division = await _division(rounds, event, sent.division)
    player = await _call(partial(rounds.events.withdraw, event.id, division, number, from_round=sent.from_round))
    accounts = await asyncio.to_thread(rounds.events.accounts, event.id, division)
    names = await asyncio.to_thread(rounds.usernames, accounts.values())
    _told(request, event)
    return PlayerAdded(division=division, number=player.id, name=player.name,
                       username=names.get(accounts.get(player.id, 0)), rating=player.rating, joined=player.joined,
                       withdrawn=player.withdrawn)


# -- rounds -----------------------------------------------------------------------------------


@router.post("/events/{event_id}/rounds/{round_number}/pair", response_model=RoundAnswer)
async def pair(event_id: EventId, round_number: RoundNumber, sent: PairRequest, user: Account, rounds: Rounds,
               request: Request) -> RoundAnswer:
    """Pair the round (again, while it has not started)."""
    event = await _directed(rounds, event_id, user, "pair rounds")
    division = await _division(rounds, event, sent.division)
    fixed = [(a, b) for a, b in sent.fixed] if sent.fixed is not None else None
    await _call(partial(rounds.events.pair, event.id, division, round_number, sent.method, seed=sent.seed, fixed=fixed))
    _told(request, event, round=round_number)
    return await _round_answer(rounds, event, division, round_number)


@router.post("/events/{event_id}/rounds/{round_number}/pairings/{board}", response_model=RoundAnswer)
async def change_pairing(event_id: EventId, round_number: RoundNumber, board: BoardNumber, sent: ChangeRequest,
                         user: Account, rounds: Rounds, request: Request) -> RoundAnswer:
    """Before the round starts: ``a`` against ``b`` (``b`` null: the bye) on the board, one of them its player
    now; their former opponents play each other."""
    event = await _directed(rounds, event_id, user, "change pairings")
    division = await _division(rounds, event, sent.division)
    boards = await _call(rounds.events.pairings, event.id, division, round_number)
    if board > len(boards):
        raise RoomError(404, f"round {round_number} has {len(boards)} boards")
    now_there = boards.games[board - 1]
    if sent.a not in now_there.players and sent.b not in now_there.players:
        raise RoomError(409, f"board {board} is {' v '.join(f'#{p}' for p in now_there.players)}: name one of its players")
    await _call(rounds.events.change_pairing, event.id, division, round_number, sent.a, sent.b)
    _told(request, event, round=round_number)
    return await _round_answer(rounds, event, division, round_number)


@router.post("/events/{event_id}/rounds/{round_number}/start", response_model=RoundAnswer)
async def start_round(event_id: EventId, round_number: RoundNumber, user: Account, rounds: Rounds, state: State,
                      request: Request, sent: StartRequest | None = None) -> RoundAnswer:
    """Start the round: its pairings no longer change; online, one game per board, each player told in the lobby."""
    sent = sent or StartRequest()
    event = await _directed(rounds, event_id, user, "start rounds")
    division = await _division(rounds, event, sent.division)
    try:
        started = await state.setting_up(rounds.start, event.id, division, round_number)
    except EventError as err:
        raise RoomError(409, str(err)) from None
    hub = hub_for(request.app)
    for game in started.games:
        for seat, user_id in enumerate(game.users):
            hub.tell({"type": "game", "id": game.game_id, "seat": seat, "event": event.id}, to=[user_id])
    _told(request, event, round=round_number)
    return await _round_answer(rounds, event, division, round_number)


# -- results ----------------------------------------------------------------------------------


def _has_result(events: EventStore, event: Event, division: str, round_number: int, player: int) -> bool:
    """Whether the board of ``player`` in the round has a stored result (its opponent's counts too)."""
    pairing = events.pairings(event.id, division, round_number)
    board = next((p for p in pairing if player in p.players), None)
    players = set(board.players) if board is not None else {player}
    return any(r.game.round == round_number and set(r.game.players) & players for r in events.results(event.id, division))


@router.post("/events/{event_id}/results", response_model=ResultEntered)
async def enter_result(event_id: EventId, sent: ResultRequest, user: Account, rounds: Rounds,
                       request: Request) -> ResultEntered:
    """A result: by the director (it counts at once; a second one for the board corrects it), or by a player
    of the board (it counts once the opponent confirms it)."""
    event = await _event(rounds, event_id)
    division = await _division(rounds, event, sent.division)
    events = rounds.events
    if event.director_id is not None and event.director_id == user.id:
        again = await _call(_has_result, events, event, division, sent.round, sent.player)
        if sent.forfeit:
            if sent.score not in (None, 0):
                raise RoomError(400, "a forfeit is a loss without a score: leave score out (opponent_score is its spread)")
            spread = sent.opponent_score if sent.opponent_score is not None else FORFEIT_SPREAD
            result = await _call(partial(events.give_forfeit, event.id, division, sent.round, sent.player,
                                         spread=spread, correct=again))
        else:
            if sent.score is None or sent.opponent_score is None:
                raise RoomError(400, "a result gives score and opponent_score")
            record = events.correct_result if again else events.enter_result
            result = await _call(record, event.id, division, sent.round, sent.player, sent.score, sent.opponent_score)
        LOGGER.info("event %s: %s result of round %s entered by its director", event.id,
                    "a corrected" if again else "a", sent.round)
    else:
        if sent.forfeit:
            LOGGER.warning("refused a forfeit in event %s: %s is not its director", event.id, user.username)
            raise RoomError(403, "only the event's director gives forfeits")
        if sent.score is None or sent.opponent_score is None:
            raise RoomError(400, "a result gives score and opponent_score")
        by = await _held_on_board(rounds, event, division, sent.round, sent.player, user)
        boards = await asyncio.to_thread(rounds.boards, event.id, division)
        if any(by in board.players and board.game_id is not None for board in boards.get(sent.round, ())):
            raise RoomError(409, "this board's game is played here: its result is recorded when it ends")
        result = await _call(partial(events.enter_result, event.id, division, sent.round, sent.player, sent.score,
                                     sent.opponent_score, by=by))
    _told(request, event, round=sent.round)
    return _entered(division, result)


async def _held_on_board(rounds: EventRounds, event: Event, division: str, round_number: int, player: int,
                         user: User) -> int:
    """The player of ``player``'s board in the round (``player`` or their opponent) that ``user``'s account
    holds (403, logged, when none)."""
    boards = await _call(rounds.events.pairings, event.id, division, round_number)
    board = next((p for p in boards if player in p.players), None)
    accounts = await asyncio.to_thread(rounds.events.accounts, event.id, division)
    mine = [number for number, user_id in accounts.items() if user_id == user.id]
    held = [number for number in mine if board is not None and number in board.players]
    if not held:
        LOGGER.warning("refused a result in event %s: %s holds no player of that board", event.id, user.username)
        raise RoomError(403, f"you play no game of player {player}'s board in round {round_number}: only its players "
                             "and the director enter its result")
    return held[0]


@router.post("/events/{event_id}/results/confirm", response_model=ResultEntered)
async def confirm_result(event_id: EventId, sent: ConfirmRequest, user: Account, rounds: Rounds,
                         request: Request) -> ResultEntered:
    """``player`` confirms the result their opponent entered (the account holding ``player``, or the director)."""
    event = await _event(rounds, event_id)
    division = await _division(rounds, event, sent.division)
    if event.director_id is None or event.director_id != user.id:
        accounts = await asyncio.to_thread(rounds.events.accounts, event.id, division)
        if accounts.get(sent.player) != user.id:
            LOGGER.warning("refused a confirmation in event %s: %s does not hold player %s", event.id, user.username,
                           sent.player)
            raise RoomError(403, f"only player {sent.player}'s account (or the director) confirms their results")
    result = await _call(rounds.events.confirm_result, event.id, division, sent.round, sent.player)
    _told(request, event, round=sent.round)
    return _entered(division, result)


# -- sheets and files -------------------------------------------------------------------------


def _title(event: Event, division: str, what: str) -> str:
    return f"{event.name}{f', division {division}' if len(event.divisions) > 1 else ''}: {what}"


@router.get("/events/{event_id}/standings.txt", response_class=PlainTextResponse)
async def standings_sheet(event_id: EventId, rounds: Rounds, division: DivisionQuery = None) -> PlainTextResponse:
    """The standings as text (``division``: needed when there are several)."""
    event = await _event(rounds, event_id)
    name = await _division(rounds, event, division)
    table = await _call(rounds.events.standings, event.id, name)
    return PlainTextResponse(standings_text(table, title=_title(event, name, "standings")))


@router.get("/events/{event_id}/standings.html", response_class=HTMLResponse)
async def standings_page(event_id: EventId, rounds: Rounds, division: DivisionQuery = None) -> HTMLResponse:
    """The standings as a page to print."""
    event = await _event(rounds, event_id)
    name = await _division(rounds, event, division)
    table = await _call(rounds.events.standings, event.id, name)
    return HTMLResponse(standings_html(table, title=_title(event, name, "standings")),
                        headers={"Content-Security-Policy": SHEET_CSP})


@router.get("/events/{event_id}/rounds/{round_number}/pairings.html", response_class=HTMLResponse)
async def pairings_page(event_id: EventId, round_number: RoundNumber, rounds: Rounds,
                        division: DivisionQuery = None) -> HTMLResponse:
    """A round's pairings as a page to print, each player with their record before it."""
    event = await _event(rounds, event_id)
    name = await _division(rounds, event, division)
    try:
        boards = await asyncio.to_thread(rounds.events.pairings, event.id, name, round_number)
    except EventError as err:
        raise RoomError(404, str(err)) from None
    table = await _call(partial(rounds.events.standings, event.id, name, through_round=round_number - 1))
    title = _title(event, name, f"round {round_number} ({boards.method.value})")
    return HTMLResponse(pairings_html(boards, table, title=title), headers={"Content-Security-Policy": SHEET_CSP})


@router.get("/events/{event_id}/export.t", response_class=PlainTextResponse)
async def export_tsh(event_id: EventId, rounds: Rounds, division: DivisionQuery = None) -> PlainTextResponse:
    """The division as a tsh ``.t`` file, to download."""
    event = await _event(rounds, event_id)
    name = await _division(rounds, event, division)
    try:
        text = await _call(rounds.events.export_tsh, event.id, name)
    except TshError as err:
        raise RoomError(409, str(err)) from None
    filename = f"{_file_name(event.name)}-{_file_name(name)}.t"
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.get("/events/{event_id}/games.gcg", response_class=Response,
            responses={200: {"content": {"text/plain": {}}, "description": "the event's games that ended, one GCG "
                                                                            "record after another"}})
async def games_archive(event_id: EventId, rounds: Rounds) -> Response:
    """The records of the event's online games that ended, as one GCG archive, to download."""
    event = await _event(rounds, event_id)
    text = await _call(rounds.records, event.id)
    return Response(content=text, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{_file_name(event.name)}.gcg"'})
