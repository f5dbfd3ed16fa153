"""Where events meet the server's games: an online event's round started as
one game per board, and each finished game's result recorded in its event.

What this module decides, in one place:

- **A round's games.** Starting a round of an online event makes one game
  per board (:meth:`EventRounds.start`), by the event's rules, options and
  clock (:func:`event_terms`, checked as a seek's offer is), unrated. Each
  seat is held by its player's account, the pairing's first player in seat
  0 (who moves first); a player without an account (or whose account was
  closed or disabled) cannot play online, and the round is refused naming
  them. A bye needs no game: it counts at once, as every bye of a pairing
  does (:mod:`tilebag.server.events`). Each board keeps its game's id
  (``pairings.game_id``).
- **Made once.** The boards to make games for are claimed in one
  transaction under the event's row lock, which also starts the round (its
  pairings no longer change); the games are made after it, and their ids
  stored in a second one. A board claimed carries ``~`` and the time of the
  claim instead of a game id while its game is made, so a second start (in
  this process or another sharing the database) makes no game twice. A
  claim older than :data:`STALE_CLAIM_SECONDS` (its process was stopped
  while making the games) may be taken again. A board with a result already
  (a forfeit the director gave) gets no game.
- **A finished game's result** (:meth:`EventRounds.record`): its final
  scores, seat 0's being the first player's, entered as the director's
  (confirmed at once) with the game's id. A game that ends by a
  resignation (or a time-out, which the server makes a resignation) is lost
  by the player who resigned: their score is recorded as it stands, and
  when it is not below the other's, the winner is recorded one point above
  it (:func:`event_scores`). A tie on the final scores is a draw, as at a
  board, whatever the game's tie-break said. A board with a result already
  (entered or corrected by the director before the game ended) keeps it.
- **Once per game, off the event loop.** :func:`event_results` (a :class:`~tilebag.server.finished.FinishedGames` worker) records the
  games the service says ended, on a thread of its own, and, when it starts
  and every minute, the event games that are over without a result (a
  process stopped between the end and the record). Recording is idempotent:
  a board's result is entered once, under the event's row lock, whichever
  process sees the game end.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, exists, func, or_, select, update
from sqlalchemy.engine import Connection

from tilebag.events.standings import PlayerId
from tilebag.formats import gcg
from tilebag.game import GameState
from tilebag.server.events import EventError, EventStore, Result
from tilebag.server.finished import FinishedGames
from tilebag.server.ratings import finished_room
from tilebag.server.room import RoomError
from tilebag.server.seeks import Clock, Offer, Terms, terms_of
from tilebag.server.service import GameService
from tilebag.server.store import (
    DivisionTable,
    EventPlayerTable,
    EventTable,
    GameTable,
    PairingTable,
    ResultTable,
    RoundTable,
    UserTable,
    now,
)
from tilebag.server.views import record_of

__all__ = [
    "CLAIM",
    "STALE_CLAIM_SECONDS",
    "Board",
    "event_results",
    "EventRounds",
    "RoundGame",
    "StartedRound",
    "event_scores",
    "event_terms",
]

LOGGER = logging.getLogger("tilebag.server")

CLAIM = "~"
"""How a board's ``game_id`` starts while its game is being made (then the time of the claim)."""

STALE_CLAIM_SECONDS = 600.0
"""A claim this old was left by a process stopped while making the games: another start may take it."""


def event_terms(rules: str, options: Mapping[str, object], clock: Mapping[str, object] | None) -> Terms:
    """The game every board of an online event is played as: the event's
    rules, options and clock (as :class:`~tilebag.server.events.Event` keeps
    them), checked as a seek of 2 is.

    >>> terms = event_terms("tournament", {}, {"game_minutes": 25, "overtime_penalty": None})
    >>> terms.preset, terms.category, terms.game_setup()
    ('tournament', 'rapid', {'rules': 'tournament', 'options': {'game-clock': '25m'}})
    >>> event_terms("standard", {"game-clock": "5m"}, {"game_minutes": 25}).preset
    Traceback (most recent call last):
    ...
    tilebag.server.room.RoomError: options game-clock: the seek's clock sets how long the players have; give it there, once

    :raises RoomError: (400) for rules, options or a clock that make no game of 2.
    """
    given = {key: value for key, value in (clock or {}).items() if value is not None}
    return terms_of(Offer(seats=2, rules=rules, options=options, clock=Clock.from_json(given) if given else None))


def event_scores(scores: tuple[int, ...], resigned: int | None) -> tuple[int, int]:
    """The scores a finished game of two records in its event (seat 0's
    first): the final scores, but that a player who resigned loses. Their
    score stands; when it is not below the other's, the other's is recorded
    one point above it.

    >>> event_scores((412, 380), None), event_scores((300, 300), None)
    ((412, 380), (300, 300))
    >>> event_scores((120, 74), 1), event_scores((120, 74), 0), event_scores((0, 0), 0)
    ((120, 74), (120, 121), (0, 1))
    """
    first, second = scores[0], scores[1]
    if resigned == 0 and first >= second:
        second = first + 1
    elif resigned == 1 and second >= first:
        first = second + 1
    return first, second


@dataclass(frozen=True)
class Board:
    """A board of an event's round with its game."""

    event_id: int
    division: str
    round: int
    board: int
    a: PlayerId
    b: PlayerId | None
    first: PlayerId | None
    game_id: str | None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    @property
    def seated(self) -> tuple[PlayerId, PlayerId]:
        """The players in seat order: the first player (``a`` when not known), then the other."""
        if self.b is None:
            raise ValueError(f"round {self.round}: board {self.board} is a bye")
        if self.first == self.b:
            return self.b, self.a
        return self.a, self.b


@dataclass(frozen=True)
class RoundGame:
    """A game made for a board: its id and the account in each seat."""

    board: int
    game_id: str
    users: tuple[int, int]


@dataclass(frozen=True)
class StartedRound:
    """A round started: its division's name, and the games made (none over the board)."""

    division: str
    round: int
    games: tuple[RoundGame, ...]


def _claimed(game_id: str | None) -> bool:
    return game_id is not None and game_id.startswith(CLAIM)


def _stale(game_id: str) -> bool:
    try:
        claimed = datetime.fromisoformat(game_id.removeprefix(CLAIM))
    except ValueError:
        return True
    return (datetime.fromisoformat(now()) - claimed).total_seconds() > STALE_CLAIM_SECONDS


class EventRounds:
    """The games of the events in one database: starting a round's games,
    recording their results, and what the API shows of them.

    :param events: the events (:class:`~tilebag.server.events.EventStore`) of ``service``'s database.
    """

    def __init__(self, events: EventStore, service: GameService) -> None:
        self.events = events
        self.service = service
        self.store = service.store
        self.engine = service.store.engine
        self._sqlite = service.store.url.startswith("sqlite")
        self._writing: contextlib.AbstractContextManager[object] = (
            threading.Lock() if self._sqlite else contextlib.nullcontext()
        )
        """SQLite has one writer at a time: this process's threads take turns here, not in SQLite's busy loop."""

    # -- transactions ---------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self, event_id: int) -> Iterator[Connection]:
        """One transaction under the event's row lock (the lock every change of
        :class:`~tilebag.server.events.EventStore` takes): committed when the
        block ends, rolled back if it raises."""
        with self._writing, self.engine.begin() as connection:
            if self._sqlite:  # a write first: the transaction holds SQLite's write lock from its start
                found = connection.execute(
                    update(EventTable).where(EventTable.id == event_id).values(id=EventTable.id)).rowcount == 1
            else:
                found = connection.execute(
                    select(EventTable.id).where(EventTable.id == event_id).with_for_update()).first() is not None
            if not found:
                raise EventError(f"there is no event {event_id}")
            yield connection

    @staticmethod
    def _division_id(connection: Connection, event_id: int, division: str) -> int:
        """The id of the division stored under that exact name (as :meth:`EventStore.division_name` gives it)."""
        found = connection.execute(
            select(DivisionTable.id).where(DivisionTable.event_id == event_id, DivisionTable.name == division)
        ).scalar()
        if found is None:
            raise EventError(f"event {event_id} has no division {division!r}")
        return int(found)

    # -- starting a round -------------------------------------------------------------------

    def start(self, event_id: int, division: str | None, round_number: int) -> StartedRound:
        """Start the round: over the board, its pairings no longer change;
        online, one game is made for each board without a game or a result
        (see the module's description).

        :raises EventError: for a round not paired, one started already, a
            player without an account (naming each).
        :raises RoomError: (400) for an event whose rules make no game of two.
        """
        event = self.events.event(event_id)
        name = self.events.division_name(event_id, division)
        self.events.pairings(event_id, name, round_number)  # paired, or say so
        if not event.online:
            self.events.start_round(event_id, name, round_number)
            return StartedRound(name, round_number, ())
        terms = event_terms(event.rules, event.options, event.clock)
        claim = CLAIM + now()
        with self._locked(event_id) as connection:
            division_id = self._division_id(connection, event_id, name)
            to_make, users = self._claim(connection, division_id, name, round_number, claim)
        made: list[RoundGame] = []
        try:
            for number, seated in to_make:
                seats: list[dict[str, object]] = [{"name": users[user_id], "user": user_id} for user_id in seated]
                room, _ = self.service.create(seats, terms.game_setup(), secrets.randbits(62), bots=False, rated=False,
                                              category=terms.category, corr_days=terms.corr_days)
                made.append(RoundGame(number, room.game_id, seated))
        finally:
            with self._locked(event_id) as connection:
                where = (PairingTable.division_id == division_id, PairingTable.round == round_number)
                for game in made:
                    stored = connection.execute(update(PairingTable).where(
                        *where, PairingTable.board == game.board, PairingTable.game_id == claim,
                    ).values(game_id=game.game_id)).rowcount
                    if stored != 1:  # the claim was taken as stale meanwhile: the other start's game stands
                        LOGGER.warning("event %s round %s board %s: game %s was made late; another start's game stands",
                                       event_id, round_number, game.board, game.game_id)
                connection.execute(update(PairingTable).where(*where, PairingTable.game_id == claim).values(game_id=None))
        LOGGER.info("event %s division %s round %s started: %d games", event_id, name, round_number, len(made))
        return StartedRound(name, round_number, tuple(made))

    def _claim(
        self, connection: Connection, division_id: int, division: str, round_number: int, claim: str,
    ) -> tuple[list[tuple[int, tuple[int, int]]], dict[int, str]]:
        """Under the event's lock: the boards to make games for, claimed (each
        board's number and its seats' accounts), the round started; and the
        accounts' usernames."""
        rows = connection.execute(
            select(PairingTable.board, PairingTable.a, PairingTable.b, PairingTable.first, PairingTable.game_id)
            .where(PairingTable.division_id == division_id, PairingTable.round == round_number)
            .order_by(PairingTable.board)
        ).all()
        with_result = {
            who for a, b in connection.execute(
                select(ResultTable.a, ResultTable.b)
                .where(ResultTable.division_id == division_id, ResultTable.round == round_number)
            ) for who in (a, b) if who is not None
        }
        boards = [Board(0, division, round_number, row.board, row.a, row.b, row.first, row.game_id) for row in rows]
        open_boards = [
            board for board in boards
            if board.b is not None and not {board.a, board.b} & with_result
            and (board.game_id is None or (_claimed(board.game_id) and _stale(board.game_id)))
        ]
        if not open_boards:
            if any(_claimed(board.game_id) for board in boards):
                raise EventError(f"division {division}: round {round_number} is being started: its games are being made")
            if any(board.game_id is not None for board in boards):
                raise EventError(f"division {division}: round {round_number} has started: its games were made")
            raise EventError(f"division {division}: round {round_number} has no board to start a game for "
                             "(byes, and results entered)")
        players = {
            row.number: (row.name, row.user_id) for row in connection.execute(
                select(EventPlayerTable.number, EventPlayerTable.name, EventPlayerTable.user_id)
                .where(EventPlayerTable.division_id == division_id))
        }
        held = [user_id for _, user_id in players.values() if user_id is not None]
        names = self._usernames(connection, held)
        without = [f"{players[who][0]} (#{who})" for board in open_boards for who in board.seated
                   if players[who][1] not in names]
        if without:
            raise EventError(f"division {division}: round {round_number} is played online, and every player plays with "
                             f"an account; {', '.join(without)} {'has' if len(without) == 1 else 'have'} none: add the "
                             "player by username, or give a forfeit")
        games = []
        for board in open_boards:
            connection.execute(update(PairingTable).where(
                PairingTable.division_id == division_id, PairingTable.round == round_number,
                PairingTable.board == board.board).values(game_id=claim))
            first, second = board.seated
            user_first, user_second = players[first][1], players[second][1]
            assert user_first is not None and user_second is not None
            games.append((board.board, (user_first, user_second)))
        connection.execute(update(RoundTable).where(
            RoundTable.division_id == division_id, RoundTable.number == round_number).values(started=True))
        return games, names

    # -- a finished game's result --------------------------------------------------------------

    def board_of(self, game_id: str) -> Board | None:
        """The event board whose game ``game_id`` is, or None (a game of no event)."""
        if not game_id or _claimed(game_id):
            return None
        with self.engine.connect() as connection:
            row = connection.execute(
                select(DivisionTable.event_id, DivisionTable.name, PairingTable.round, PairingTable.board, PairingTable.a,
                       PairingTable.b, PairingTable.first)
                .join(DivisionTable, DivisionTable.id == PairingTable.division_id)
                .where(PairingTable.game_id == game_id)
            ).first()
        if row is None:
            return None
        return Board(row.event_id, row.name, row.round, row.board, row.a, row.b, row.first, game_id)

    def record(self, game_id: str) -> Result | None:
        """Record the result of the finished game ``game_id`` in its event (see
        the module's description): the result entered, or None when there is
        nothing to record (a game of no event, one not over, a board with a
        result already).

        :raises RoomError: (410) for a game whose record does not replay.
        """
        board = self.board_of(game_id)
        if board is None:
            return None
        found = self.store.game(game_id)
        if found is None or found[2] != "over":
            return None
        setup, seed, _ = found
        room = finished_room(self.service.rooms, game_id, setup, seed)
        with room.lock:
            outcome = room.game.outcome()
            over = room.game.state is GameState.OVER
        if outcome is None or not over or len(outcome.scores) != 2:
            return None
        first, second = board.seated
        score, opponent_score = event_scores(outcome.scores, outcome.resigned)
        for stored in self.events.results(board.event_id, board.division):
            if stored.game.round == board.round and set(stored.game.players) & {first, second}:
                LOGGER.info("event %s round %s board %s: game %s ended, and the board has a result already (kept)",
                            board.event_id, board.round, board.board, game_id)
                return None
        try:
            result = self.events.enter_result(board.event_id, board.division, board.round, first, score, opponent_score,
                                              game_id=game_id)
        except EventError as err:  # another process recorded it a moment ago, or the director entered one
            LOGGER.info("event %s: game %s's result was not recorded: %s", board.event_id, game_id, err)
            return None
        LOGGER.info("event %s division %s round %s board %s: game %s recorded %d-%d", board.event_id, board.division,
                    board.round, board.board, game_id, score, opponent_score)
        return result

    def unrecorded(self, *, limit: int = 100) -> list[str]:
        """Event games that are over and whose board has no result yet (no process recorded them)."""
        players = (PairingTable.a, PairingTable.b)
        has_result = exists().where(
            ResultTable.division_id == PairingTable.division_id, ResultTable.round == PairingTable.round,
            or_(ResultTable.a.in_(players), ResultTable.b.in_(players)),
        )
        query = (
            select(PairingTable.game_id)
            .join(GameTable, GameTable.id == PairingTable.game_id)
            .where(GameTable.status == "over", ~has_result)
            .order_by(PairingTable.division_id, PairingTable.round, PairingTable.board)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return [game_id for game_id in connection.execute(query).scalars() if game_id is not None]

    # -- what the API shows ---------------------------------------------------------------------

    def boards(self, event_id: int, division: str) -> dict[int, list[Board]]:
        """A division's boards by round, board 1 first, each with its game
        (none while it is being made); ``division`` as stored."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(PairingTable.round, PairingTable.board, PairingTable.a, PairingTable.b, PairingTable.first,
                       PairingTable.game_id)
                .join(DivisionTable, DivisionTable.id == PairingTable.division_id)
                .where(DivisionTable.event_id == event_id, DivisionTable.name == division)
                .order_by(PairingTable.round, PairingTable.board)
            ).all()
        found: dict[int, list[Board]] = {}
        for row in rows:
            game_id = None if _claimed(row.game_id) else row.game_id
            found.setdefault(row.round, []).append(
                Board(event_id, division, row.round, row.board, row.a, row.b, row.first, game_id))
        return found

    def usernames(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The usernames of those accounts that are open (not closed, not disabled)."""
        with self.engine.connect() as connection:
            return self._usernames(connection, user_ids)

    @staticmethod
    def _usernames(connection: Connection, user_ids: Iterable[int]) -> dict[int, str]:
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        return {
            user_id: username for user_id, username in connection.execute(
                select(UserTable.id, UserTable.username).where(UserTable.id.in_(wanted), UserTable.disabled.is_(False)))
        }

    def player_counts(self) -> dict[int, int]:
        """How many players each event has, its divisions together."""
        with self.engine.connect() as connection:
            return {
                event_id: int(count) for event_id, count in connection.execute(
                    select(DivisionTable.event_id, func.count())
                    .join(EventPlayerTable, EventPlayerTable.division_id == DivisionTable.id)
                    .group_by(DivisionTable.event_id))
            }

    def records(self, event_id: int) -> str:
        """The records of the event's games that ended, one GCG record after
        another (division by division, round by round, board by board), each
        titled with its event, division, round and board. A game whose record
        does not replay is left out (and logged)."""
        event = self.events.event(event_id)
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(DivisionTable.name, PairingTable.round, PairingTable.board, PairingTable.game_id,
                       GameTable.setup, GameTable.seed)
                .join(DivisionTable, DivisionTable.id == PairingTable.division_id)
                .join(GameTable, and_(GameTable.id == PairingTable.game_id, GameTable.status == "over"))
                .where(DivisionTable.event_id == event_id)
                .order_by(DivisionTable.id, PairingTable.round, PairingTable.board)
            ).all()
        texts = []
        for division, round_number, board, game_id, setup, seed in rows:
            if game_id is None:
                continue
            try:
                room = finished_room(self.service.rooms, game_id, json.loads(setup), seed)
            except RoomError:
                LOGGER.warning("event %s: game %s is left out of the records: it does not replay", event_id, game_id)
                continue
            with room.lock:
                record = record_of(room, None)
            record.id = f"tilebag {game_id}"
            named = f", division {division}" if len(event.divisions) > 1 else ""
            record.title = f"{event.name}{named}, round {round_number}, board {board}"
            texts.append(gcg.dumps(record))
        return "".join(texts)


def event_results(service: GameService, *, then: Callable[[str], None] | None = None,
                  sweep_seconds: float = 60.0) -> FinishedGames:
    """The worker that records each finished event game's result
    (:meth:`EventRounds.record`) once, and at start and every ``sweep_seconds``
    every event game over that no process recorded."""
    rounds = EventRounds(EventStore(service.store), service)
    return FinishedGames("event-results", handle=rounds.record, pending=rounds.unrecorded, then=then,
                         sweep_seconds=sweep_seconds)
