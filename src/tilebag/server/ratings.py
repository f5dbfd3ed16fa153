"""Ratings: the category a game is rated in, how a finished game's result
moves its accounts' ratings there, and the records of rated play a profile
shows.

**Categories** (:func:`category_of`). Any house rule or variation makes a
game ``house``; standard rules with 3 or 4 players make it ``multiplayer``;
a standard 2-player game is ``correspondence`` (days per move), ``blitz``
(a game clock under 10 minutes a player) or ``rapid`` (a longer clock, or
none).

**Systems.** A 2-player game is rated by Glicko-2 (Glickman's 2013
description, :func:`glicko2_update`): each game is a rating period of its
own, starting from 1500, deviation 350, volatility 0.06, with the system
constant τ 0.5. A game of 3 or 4 players is rated by OpenSkill's
Plackett-Luce model (the ``openskill`` library) from the players' places.
OpenSkill's μ and σ (25 and 25/3 to start) are shown on the same scale:
rating = 1500 + 42 (μ - 25) and deviation = 42 σ, so a new player is 1500 ±
350 in either system, and the mapping is exact both ways (a rating stored
from one system is read by the other, as ``house`` games of 2 and of 4
players share a category).

**Provisional.** A rating is provisional until its player has
:data:`PROVISIONAL_GAMES` (10) rated games in the category.

**What is rated** (:func:`apply_result`): a game made rated, once it is over,
when every seat is held by an account and someone placed tiles or exchanged
(a game that ended before that is aborted, and not rated). Places come from
the final scores as the game decides its winners (:meth:`tilebag.game.Game.outcome`):
a player who resigned (the server's forfeit, on time as well) is last. Each
result is applied once, whichever server process sees the game end, in one
transaction that also marks the game done.

>>> from tilebag.rules import find_rules
>>> category_of(find_rules("standard"), 2, clock_seconds=5 * 60, corr_days=None)
'blitz'
>>> category_of(find_rules("nine-tile"), 2, clock_seconds=None, corr_days=None)
'house'
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from openskill.models import PlackettLuce
from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from tilebag.formats import gcg
from tilebag.game import Game, GameState
from tilebag.record import EventKind, withdrawn_plays
from tilebag.rules import Rules
from tilebag.server.finished import FinishedGames
from tilebag.server.replay import DamagedGameError, rebuild
from tilebag.server.room import Room, RoomError
from tilebag.server.rooms import Rooms
from tilebag.server.store import ActionTable, GameTable, RatingHistoryTable, RatingTable, SeatTable, Store, now
from tilebag.server.views import record_of

LOGGER = logging.getLogger("tilebag.server")

BLITZ = "blitz"
RAPID = "rapid"
CORRESPONDENCE = "correspondence"
MULTIPLAYER = "multiplayer"
HOUSE = "house"

CATEGORIES: tuple[str, ...] = (BLITZ, RAPID, CORRESPONDENCE, MULTIPLAYER, HOUSE)
"""Every rating category, in the order a profile lists them."""

BLITZ_UNDER_SECONDS = 10 * 60
"""A 2-player game whose clock gives each player less than this is blitz."""

PROVISIONAL_GAMES = 10
"""A rating is provisional until its player has this many rated games in its category."""

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
GLICKO_TAU = 0.5
"""Glicko-2's system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2)."""
GLICKO_SCALE = 173.7178
"""Glicko-2's internal scale: μ = (rating - 1500) / 173.7178."""

OPENSKILL_MU = 25.0
OPENSKILL_SIGMA = 25.0 / 3.0
OPENSKILL_SCALE = START_DEVIATION / OPENSKILL_SIGMA
"""Rating points per unit of OpenSkill's μ (42): σ 25/3 shows as deviation 350."""

_NOT_HOUSE_RULES = frozenset({"name", "challenge", "scoreless_turns", "turn_time", "game_clock", "overtime_penalty",
                              "end_adjustment", "alphabet"})
"""The rules fields a standard game may change: the preset's name, the challenge rule, clocks and timers, how
many scoreless turns end it, how its end is recorded (same spread), and its tile set (the language, like the lexicon)."""

GAME_ACTIONS = ("move", "challenge", "accept", "resign", "timeout")
"""The stored actions that are a game's own (not chat, a seat taken or a rematch): the last one is when it ended."""


# -- categories ----------------------------------------------------------------------------


def is_standard(rules: Rules) -> bool:
    """Whether ``rules`` are the standard game (any preset among standard,
    tournament, online and speed): the same as :class:`Rules` but for
    :data:`_NOT_HOUSE_RULES`.

    >>> from tilebag.rules import find_rules
    >>> [is_standard(find_rules(name)) for name in ("tournament", "online", "finish-line", "kids")]
    [True, True, False, False]
    """
    standard = Rules()
    return all(
        getattr(rules, field.name) == getattr(standard, field.name)
        for field in dataclasses.fields(standard)
        if field.name not in _NOT_HOUSE_RULES
    )


def category_of(rules: Rules, seats: int, *, clock_seconds: int | None, corr_days: int | None) -> str:
    """The rating category of a game of ``seats`` players.

    Any house rule or variation (see :func:`is_standard`) makes it
    ``house``; otherwise 3 or 4 players make it ``multiplayer``; a
    2-player game is ``correspondence`` when it has days per move
    (``corr_days``), ``blitz`` when each player's game clock
    (``clock_seconds``) is under :data:`BLITZ_UNDER_SECONDS` (10 minutes),
    and ``rapid`` otherwise (a longer clock, or none).

    >>> from tilebag.rules import find_rules
    >>> standard = find_rules("standard")
    >>> category_of(standard, 2, clock_seconds=25 * 60, corr_days=None)
    'rapid'
    >>> category_of(standard, 2, clock_seconds=None, corr_days=3)
    'correspondence'
    >>> category_of(standard, 4, clock_seconds=5 * 60, corr_days=None)
    'multiplayer'
    >>> category_of(find_rules("finish-line"), 4, clock_seconds=None, corr_days=None)
    'house'
    """
    if not is_standard(rules):
        return HOUSE
    if seats > 2:
        return MULTIPLAYER
    if corr_days is not None:
        return CORRESPONDENCE
    if clock_seconds is not None and clock_seconds < BLITZ_UNDER_SECONDS:
        return BLITZ
    return RAPID


# -- ratings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Glicko:
    """A rating on the displayed scale: rating, deviation and (Glicko-2's) volatility.

    >>> Glicko()
    Glicko(rating=1500.0, deviation=350.0, volatility=0.06)
    """

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


def glicko2_update(player: Glicko, games: Sequence[tuple[Glicko, float]], *, tau: float = GLICKO_TAU) -> Glicko:
    """``player``'s rating after one rating period of ``games`` (each
    opponent's rating before it, and ``player``'s score: 1 a win, 0.5 a
    draw, 0 a loss), by Glicko-2 as Glickman describes it (2013), the
    volatility found by the Illinois algorithm. The server rates each game
    as a period of its own.

    Glickman's worked example (he finds μ' -0.2069, φ' 0.8722, σ' 0.05999,
    rounding along the way):

    >>> after = glicko2_update(Glicko(1500, 200, 0.06),
    ...                        [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)])
    >>> round((after.rating - 1500) / GLICKO_SCALE, 4), round(after.deviation / GLICKO_SCALE, 4)
    (-0.2069, 0.8722)
    >>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
    (1464.05, 151.52, 0.059996)
    """
    mu = (player.rating - START_RATING) / GLICKO_SCALE
    phi = player.deviation / GLICKO_SCALE
    sigma = player.volatility
    if not games:  # no game in the period: only the deviation grows
        grown = math.sqrt(phi**2 + sigma**2) * GLICKO_SCALE
        return Glicko(player.rating, min(grown, START_DEVIATION), sigma)
    terms = []
    for opponent, score in games:
        mu_j = (opponent.rating - START_RATING) / GLICKO_SCALE
        phi_j = opponent.deviation / GLICKO_SCALE
        g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
        expected = 1 / (1 + math.exp(-g * (mu - mu_j)))
        terms.append((g, expected, score))
    v = 1 / sum(g**2 * e * (1 - e) for g, e, _ in terms)
    gain = sum(g * (s - e) for g, e, s in terms)
    delta = v * gain
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > 1e-6:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    new_sigma = math.exp(low / 2)
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * gain
    return Glicko(START_RATING + GLICKO_SCALE * new_mu, min(GLICKO_SCALE * new_phi, START_DEVIATION), new_sigma)


def openskill_update(players: Sequence[Glicko], places: Sequence[int]) -> list[Glicko]:
    """The players' ratings after a game of 3 or more in which they took
    ``places`` (0 first; equal places tie), by OpenSkill's Plackett-Luce
    model, through the mapping rating = 1500 + 42 (μ - 25), deviation = 42 σ
    (volatility unchanged: the model has none).

    >>> after = openskill_update([Glicko(), Glicko(), Glicko()], [0, 1, 1])
    >>> after[0].rating > 1500 > after[1].rating == after[2].rating
    True
    >>> all(p.deviation < 350 for p in after)
    True
    """
    model = PlackettLuce(mu=OPENSKILL_MU, sigma=OPENSKILL_SIGMA)
    teams = [
        [model.rating(mu=OPENSKILL_MU + (p.rating - START_RATING) / OPENSKILL_SCALE, sigma=p.deviation / OPENSKILL_SCALE)]
        for p in players
    ]
    rated = model.rate(teams, ranks=[float(place + 1) for place in places])
    return [
        Glicko(START_RATING + OPENSKILL_SCALE * (team[0].mu - OPENSKILL_MU),
               min(OPENSKILL_SCALE * team[0].sigma, START_DEVIATION), player.volatility)
        for team, player in zip(rated, players, strict=True)
    ]


def updated_ratings(players: Sequence[Glicko], places: Sequence[int]) -> list[Glicko]:
    """Every player's rating after a game in which they took ``places`` (0
    first; equal places are a draw): Glicko-2 for two players, OpenSkill for
    more.

    >>> winner, loser = updated_ratings([Glicko(), Glicko()], [0, 1])
    >>> round(winner.rating, 1), round(loser.rating, 1), round(winner.deviation, 1)
    (1662.3, 1337.7, 290.3)
    """
    if len(players) != len(places) or len(players) < 2:
        raise ValueError(f"a rated game has 2 players or more, each with a place: got {len(players)} and {len(places)}")
    if len(players) > 2:
        return openskill_update(players, places)
    first, second = players
    score = 1.0 if places[0] < places[1] else 0.0 if places[0] > places[1] else 0.5
    return [glicko2_update(first, [(second, score)]), glicko2_update(second, [(first, 1 - score)])]


# -- a finished game's result ----------------------------------------------------------------


def standings(game: Game) -> tuple[int, ...] | None:
    """Each seat's place in a finished game (0 first; equal places tie), or
    ``None`` before the end. The winners as the game decides them
    (:meth:`~tilebag.game.Game.outcome`: a Finish Line target, or the
    highest score, the tie-break included) come first; a player who resigned
    comes last; the others by score.

    >>> game = Game(["ann", "ben", "cy"], seed=3, first=0)
    >>> game.set_rack(0, "HNOR")
    >>> game.push_gcg("8F HORN")
    14
    >>> game.resign(1)
    >>> standings(game)
    (0, 2, 1)
    """
    outcome = game.outcome()
    if outcome is None or game.state is not GameState.OVER:
        return None
    scores, before = outcome.scores, outcome.scores_before_adjustments

    def strength(seat: int) -> tuple[bool, bool, int, int]:
        return seat in outcome.winners, seat != outcome.resigned, scores[seat], before[seat]

    keys = [(True, True, 0, 0) if seat in outcome.winners else strength(seat) for seat in range(len(scores))]
    return tuple(sum(1 for other in keys if other > key) for key in keys)


def aborted(game: Game) -> bool:
    """Whether a game ended before anyone placed tiles or exchanged (then it is not rated).

    >>> game = Game(["ann", "ben"], seed=3, first=0)
    >>> game.resign(0)
    >>> aborted(game)
    True
    """
    return not any(event.kind in (EventKind.PLACE, EventKind.EXCHANGE) for event in game.events)


def bingos(game: Game) -> list[int]:
    """How many bingos each seat played: placements of at least the rules'
    bingo tiles (7 by default) that were not challenged off.

    >>> game = Game(["ann", "ben"], seed=3, first=0)
    >>> game.set_rack(0, "AEINRST")
    >>> game.push_gcg("8D NASTIER")
    66
    >>> bingos(game)
    [1, 0]
    """
    counts = [0] * len(game.players)
    withdrawn = withdrawn_plays(game.events)
    for event in game.events:
        if event.kind is EventKind.PLACE and event.move is not None and id(event) not in withdrawn:
            if len(event.move.placed()) >= game.rules.bingo_tiles:
                counts[event.player] += 1
    return counts


# -- the database ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingRow:
    """An account's rating in one category."""

    rating: float
    deviation: float
    volatility: float
    games: int
    """Rated games played in the category."""
    provisional: bool
    """Whether fewer than :data:`PROVISIONAL_GAMES` rated games stand behind it."""

    @classmethod
    def of(cls, rating: float, deviation: float, volatility: float, games: int) -> RatingRow:
        """A rating of so many games (provisional below :data:`PROVISIONAL_GAMES`)."""
        return cls(rating, deviation, volatility, games, games < PROVISIONAL_GAMES)


def rating_of(store: Store, user_id: int, category: str) -> RatingRow | None:
    """The account's rating in ``category``, or ``None`` before its first rated game there.

    >>> rating_of(Store("sqlite://"), 1, BLITZ) is None
    True
    """
    with store.engine.connect() as connection:
        row = connection.execute(
            select(RatingTable).where(RatingTable.user_id == user_id, RatingTable.category == category)
        ).first()
    return None if row is None else RatingRow.of(row.rating, row.deviation, row.volatility, row.games)


def ratings_of(store: Store, user_id: int) -> dict[str, RatingRow]:
    """The account's ratings by category (those it played rated games in), in :data:`CATEGORIES` order."""
    with store.engine.connect() as connection:
        rows = connection.execute(select(RatingTable).where(RatingTable.user_id == user_id)).all()
    found = {row.category: RatingRow.of(row.rating, row.deviation, row.volatility, row.games) for row in rows}
    order = {name: index for index, name in enumerate(CATEGORIES)}
    return dict(sorted(found.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


@dataclass(frozen=True)
class HistoryPoint:
    """An account's rating in a category after one rated game."""

    game_id: str
    category: str
    rating: float
    deviation: float
    at: str
    change: float
    """How far the game moved the rating (from 1500 for the first)."""


def history_of(store: Store, user_id: int) -> list[HistoryPoint]:
    """The account's rating after each of its rated games, oldest first."""
    history = RatingHistoryTable
    query = (
        select(history.game_id, history.category, history.rating, history.deviation, history.at)
        .where(history.user_id == user_id).order_by(history.id)
    )
    with store.engine.connect() as connection:
        rows = connection.execute(query).all()
    last: dict[str, float] = {}
    points = []
    for game_id, category, rating, deviation, at in rows:
        points.append(HistoryPoint(game_id, category, rating, deviation, at, rating - last.get(category, START_RATING)))
        last[category] = rating
    return points


@dataclass(frozen=True)
class FinishedGame:
    """A finished game an account held a seat in, as the database has it (no game rebuilt)."""

    game_id: str
    seat: int
    names: tuple[str, ...]
    """Every seat's name, in seat order."""
    rated: bool
    category: str | None
    ended: str
    """When it ended: as marked, else its last action's time."""
    setup: dict[str, object]
    seed: int


MAX_PROFILE_GAMES = 500
"""The most finished games a profile lists (the latest)."""


def finished_games(store: Store, user_id: int, *, limit: int = MAX_PROFILE_GAMES) -> list[FinishedGame]:
    """The finished games ``user_id`` held a seat in, the latest first (at most ``limit``)."""
    mine = (
        select(GameTable.id, SeatTable.seat, GameTable.rated, GameTable.category, GameTable.ended, GameTable.created,
               GameTable.setup, GameTable.seed)
        .join(SeatTable, SeatTable.game_id == GameTable.id)
        .where(SeatTable.user_id == user_id, GameTable.status == "over")
        .order_by(func.coalesce(GameTable.ended, GameTable.created).desc())
        .limit(limit)
    )
    with store.engine.connect() as connection:
        rows = connection.execute(mine).all()
        ids = [row.id for row in rows]
        names: dict[str, list[str]] = {game_id: [] for game_id in ids}
        last: dict[str, str] = {}
        if ids:
            for game_id, name in connection.execute(
                select(SeatTable.game_id, SeatTable.name).where(SeatTable.game_id.in_(ids)).order_by(SeatTable.game_id, SeatTable.seat)
            ):
                names[game_id].append(name)
            unmarked = [row.id for row in rows if row.ended is None]
            if unmarked:
                last = dict(connection.execute(
                    select(ActionTable.game_id, func.max(ActionTable.created))
                    .where(ActionTable.game_id.in_(unmarked), ActionTable.kind.in_(GAME_ACTIONS))
                    .group_by(ActionTable.game_id)
                ).tuples().all())
    return [
        FinishedGame(row.id, row.seat, tuple(names[row.id]), bool(row.rated), row.category,
                     row.ended or last.get(row.id) or row.created, json.loads(row.setup), row.seed)
        for row in rows
    ]


def finished_room(rooms: Rooms, game_id: str, setup: dict[str, object], seed: int) -> Room:
    """A finished game's room: the one in memory, else rebuilt from the
    store without keeping it in memory (a finished game changes no more).

    :raises RoomError: (410) for a game whose record does not replay (set aside as damaged).
    """
    room = rooms.in_memory(game_id)
    if room is not None:
        return room
    try:
        return rebuild(rooms, game_id, setup, seed)
    except DamagedGameError as err:
        rooms.set_aside(err)
        raise RoomError(410, "the game's record does not replay") from None


@dataclass(frozen=True)
class GameSummary:
    """What a profile shows of a finished game: no rack, but in its record."""

    scores: tuple[int, ...]
    places: tuple[int, ...]
    """Each seat's place (:func:`standings`)."""
    bingos: tuple[int, ...]
    record: str
    """The whole game as GCG text (racks included, as any finished game's record is)."""

    def result(self, seat: int) -> Literal["win", "loss", "draw"]:
        """``win``, ``draw`` (first with others) or ``loss`` for ``seat``.

        >>> [GameSummary((420, 380), (0, 1), (1, 0), "").result(seat) for seat in (0, 1)]
        ['win', 'loss']
        """
        if self.places[seat] != 0:
            return "loss"
        return "draw" if self.places.count(0) > 1 else "win"


def summarize(room: Room) -> GameSummary:
    """A finished game's summary (read under the room's lock).

    :raises ValueError: before the end.
    """
    with room.lock:
        game = room.game
        places = standings(game)
        outcome = game.outcome()
        if places is None or outcome is None:
            raise ValueError(f"game {room.game_id} is not over")
        record = record_of(room, None)
        if record.id is None:
            record.id = f"tilebag {room.game_id}"
        return GameSummary(tuple(outcome.scores), places, tuple(bingos(game)), gcg.dumps(record))


class Summaries:
    """Finished games' summaries, made once (a finished game no longer
    changes), the latest ``size`` kept; a seat renamed (an account deleted)
    makes it again."""

    def __init__(self, size: int = 2000) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, str, tuple[str, ...]], GameSummary] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, rooms: Rooms, game: FinishedGame) -> GameSummary:
        """The summary of ``game``, rebuilt when not kept.

        :raises RoomError: (410) for a game whose record does not replay.
        """
        key = (rooms.store.url, game.game_id, game.names)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        made = summarize(finished_room(rooms, game.game_id, game.setup, game.seed))
        with self._lock:
            self._kept[key] = made
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return made


# -- applying a result -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Result:
    """What rating a finished game needs: its category, each seat's account and place (none: not rated)."""

    category: str
    users: tuple[int | None, ...]
    places: tuple[int, ...] | None


def apply_result(store: Store, game_id: str, *, rooms: Rooms | None = None) -> bool:
    """Update the ratings of a finished rated game's accounts in its
    category, once: whether this call did.

    Every finished game gets its ``ended`` time (its last action's). A rated
    game's result is applied in one transaction that first marks the game
    done (``rated_done``, only if it was not): a second call, from this
    process or another that saw the same end, changes nothing. A game with a
    seat no account holds (a bot's, a guest's) or that was aborted
    (:func:`aborted`) is marked done with no rating changed. Each player's
    rating and deviation after the game also go to the rating history.

    ``rooms`` rebuilds the game when it is not in memory (none: a
    :class:`~tilebag.server.rooms.Rooms` of the store's own).

    :raises RoomError: (410) for a game whose record does not replay.
    """
    with store.engine.connect() as connection:
        game = connection.execute(
            select(GameTable.status, GameTable.rated, GameTable.rated_done, GameTable.ended, GameTable.setup,
                   GameTable.seed, GameTable.category, GameTable.corr_days).where(GameTable.id == game_id)
        ).first()
    if game is None or game.status != "over":
        return False
    if not game.rated or game.rated_done:
        if game.ended is None:
            with store.engine.begin() as connection:
                _mark_ended(connection, game_id)
        return False
    setup: dict[str, object] = json.loads(game.setup)
    room = finished_room(rooms or Rooms(store), game_id, setup, game.seed)
    with room.lock:
        places = None if aborted(room.game) else standings(room.game)
        users = tuple(row.user_id if row.kind == "person" else None for row in room.seats)
        clock = room.game.rules.game_clock
        category = game.category or category_of(room.game.rules, len(users), clock_seconds=None if clock is None else int(clock),
                                                corr_days=game.corr_days)
    result = _Result(category, users, places)
    for attempt in range(3):
        try:
            return _apply(store, game_id, result)
        except IntegrityError:  # another game of a new player's rated at the same moment: read again
            if attempt == 2:
                raise
            LOGGER.info("game %s: a rating it changes was made meanwhile; applying again", game_id)
    return False


def _mark_ended(connection: Connection, game_id: str) -> str:
    """Set the game's ``ended`` time, when not set yet: its last action's. The time it has."""
    last = connection.execute(
        select(func.max(ActionTable.created)).where(ActionTable.game_id == game_id, ActionTable.kind.in_(GAME_ACTIONS))
    ).scalar()
    ended = str(last or now())
    connection.execute(update(GameTable).where(GameTable.id == game_id, GameTable.ended.is_(None)).values(ended=ended))
    return str(connection.execute(select(GameTable.ended).where(GameTable.id == game_id)).scalar() or ended)


def _apply(store: Store, game_id: str, result: _Result) -> bool:
    """One transaction: the game marked done (only if it was not), then each account's new rating and history."""
    with store.engine.begin() as connection:
        claimed = connection.execute(
            update(GameTable)
            .where(GameTable.id == game_id, GameTable.rated.is_(True), GameTable.rated_done.is_(False))
            .values(rated_done=True, category=result.category)
        )
        if claimed.rowcount != 1:
            return False  # applied already, here or by another process
        ended = _mark_ended(connection, game_id)
        users = result.users
        if result.places is None or any(user is None for user in users) or len(set(users)) != len(users):
            LOGGER.info("game %s is rated but not rated: %s", game_id,
                        "aborted" if result.places is None else "a seat is no account's")
            return False
        accounts = [user for user in users if user is not None]
        rows = {
            row.user_id: row
            for row in connection.execute(
                select(RatingTable)
                .where(RatingTable.user_id.in_(accounts), RatingTable.category == result.category)
                .order_by(RatingTable.user_id)
                .with_for_update()
            )
        }
        before = [
            Glicko(rows[user].rating, rows[user].deviation, rows[user].volatility) if user in rows else Glicko()
            for user in accounts
        ]
        after = updated_ratings(before, result.places)
        for user, rating in zip(accounts, after, strict=True):
            values = {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility, "updated": now()}
            if user in rows:
                connection.execute(
                    update(RatingTable).where(RatingTable.user_id == user, RatingTable.category == result.category)
                    .values(games=RatingTable.games + 1, **values)
                )
            else:
                connection.execute(insert(RatingTable).values(user_id=user, category=result.category, games=1, **values))
            connection.execute(insert(RatingHistoryTable).values(
                user_id=user, category=result.category, game_id=game_id, rating=rating.rating,
                deviation=rating.deviation, at=ended))
    LOGGER.info("rated game %s (%s)", game_id, result.category)
    return True


def pending_results(store: Store, *, limit: int = 100) -> list[str]:
    """Rated games that are over and whose result is not applied yet (a
    process stopped between the end and the update), oldest first."""
    query = (
        select(GameTable.id)
        .where(GameTable.rated.is_(True), GameTable.rated_done.is_(False), GameTable.status == "over")
        .order_by(GameTable.created).limit(limit)
    )
    with store.engine.connect() as connection:
        return list(connection.execute(query).scalars())


def result_keeper(rooms: Rooms, *, then: Callable[[str], None] | None = None, sweep_seconds: float = 60.0) -> FinishedGames:
    """The worker that applies each finished game's result (:func:`apply_result`)
    once, and at start and every ``sweep_seconds`` every rated game over whose
    result no process applied (one stopped between the end and the update)."""
    return FinishedGames(
        "ratings",
        handle=lambda game_id: apply_result(rooms.store, game_id, rooms=rooms),
        pending=lambda: pending_results(rooms.store),
        then=then,
        sweep_seconds=sweep_seconds,
    )
