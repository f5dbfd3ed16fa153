"""Correspondence games: days per move instead of clocks, a deadline kept in
the database, and the sweeper that applies it in every server process.

A correspondence game has ``games.corr_days``, 1 to 14 days per move (kept
in its setup as ``days_per_move`` as well, so that its room knows it without
asking the database, and so that its rematch is one too). It has no turn
timer and no game clock: the days are its clock. The rules:

- **the deadline moves with the turn.** Every change that gives the turn to
  someone (a move, an exchange, a pass, a challenge's outcome, a time out,
  the start of the game) stores ``games.turn_due`` = now + the days, in the
  same transaction as the change (:func:`moved_on`). A chat message or a
  rematch request moves nothing. There is no deadline while a seat is still
  open (the game starts when the last one is taken), while a bot is to act
  (it moves within seconds), or once the game is over.
- **a late turn is a pass.** A sweeper (:func:`sweep`, every
  :data:`SWEEP_SECONDS`, and first when the server starts) finds the games
  whose deadline passed and, under each game's row lock, checks the deadline
  again and applies the time out, once whichever processes share the
  database: the turn is a pass, stored as the pass move ``-`` marked as the
  server's (:data:`TIMED_OUT`). While the game waits for its final
  challenge, the play that ended it stands (as accepted).
- **a second late turn in a row loses.** When the player whose turn ran out
  also let their previous turn run out, the game ends as their resignation:
  the loss of the resigning player (the others ranked by score), as
  :meth:`tilebag.game.Game.resign` decides; no rules preset changes this.

The deadline is in the database, so a server stopped (even by ``kill -9``)
and started again after it applies the time out as soon as it starts.

>>> check_days(3)
3
>>> check_days(15)
Traceback (most recent call last):
...
tilebag.server.room.RoomError: days per move is a whole number from 1 to 14
>>> days_per_move({"rules": "standard", "days_per_move": 2}), days_per_move({"rules": "standard"})
(2, None)
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select

from tilebag.actions import AcceptEnd, Action, PlayMove, Resign
from tilebag.game import GameState
from tilebag.move import Move
from tilebag.server.room import Room, RoomError, rules_of
from tilebag.server.store import ActionTable, GameLog, GameNotFoundError, GameTable, SeatRow, Store, now

if TYPE_CHECKING:
    from tilebag.server.service import GameService

LOGGER = logging.getLogger("tilebag.server")

MIN_DAYS, MAX_DAYS = 1, 14
"""The days per move a correspondence game may have."""

DAY_SECONDS = 86_400

SWEEP_SECONDS = 5.0
"""How often each server process looks for turns that ran out, unless
:data:`SWEEP_ENV` says otherwise."""

SWEEP_ENV = "TILEBAG_CORRESPONDENCE_SWEEP"
"""The environment variable that sets how often the sweeper looks, in seconds (0.1 to 3600)."""

TIMED_OUT = "timeout\t"
"""How the action id of a time out the server applied begins. No client can
send an id like it (an action's id is printable: a tab is not), so a pass a
player made is never taken for a time out."""

GAME_ACTIONS = ("move", "challenge", "accept", "resign", "timeout")
"""The stored kinds that are a seat's turn in the game (not chat, joins or rematches)."""

_known: dict[str, str | None] = {}
"""Each correspondence game's deadline as this process last stored or read it, for its views
(:func:`turn_due`): a view never waits for the database."""


@dataclass(frozen=True)
class TurnDue:
    """A correspondence game's new deadline (``None``: none, the game over or no person to move)."""

    due: str | None


def check_days(days: object) -> int:
    """``days`` if a correspondence game may have that many days per move.

    :raises RoomError: (400) saying what it may have.
    """
    if isinstance(days, bool) or not isinstance(days, int) or not MIN_DAYS <= days <= MAX_DAYS:
        raise RoomError(400, f"days per move is a whole number from {MIN_DAYS} to {MAX_DAYS}")
    return days


def days_per_move(setup: Mapping[str, object]) -> int | None:
    """A game's days per move, from its setup (``None``: not a correspondence game)."""
    days = setup.get("days_per_move")
    return days if isinstance(days, int) and not isinstance(days, bool) else None


def setup_of(setup: dict[str, object], corr_days: int | None) -> tuple[dict[str, object], int | None]:
    """The setup of a new game with ``corr_days`` days per move (or made from a
    correspondence game's setup: a rematch), and its days per move; a game
    played in one sitting is unchanged, with ``None``.

    >>> setup_of({"rules": "standard"}, 3)
    ({'rules': 'standard', 'days_per_move': 3}, 3)
    >>> setup_of({"rules": "standard"}, None)
    ({'rules': 'standard'}, None)
    >>> setup_of({"rules": "online"}, 3)
    Traceback (most recent call last):
    ...
    tilebag.server.room.RoomError: a correspondence game has days per move instead of clocks: give no turn timer or game clock (options "turn-time": "none", "game-clock": "none")

    :raises RoomError: (400) for days out of range, or rules with a turn timer or game clock.
    """
    days = corr_days if corr_days is not None else days_per_move(setup)
    if days is None:
        return setup, None
    check_days(days)
    rules = rules_of(setup)
    if rules.turn_time is not None or rules.game_clock is not None:
        raise RoomError(400, "a correspondence game has days per move instead of clocks: give no turn timer or game "
                             'clock (options "turn-time": "none", "game-clock": "none")')
    return {**setup, "days_per_move": days}, days


def waits_on_a_person(room: Room) -> bool:
    """Whether the game waits for a person's action: it is not over, every seat is taken, and no bot is to act."""
    if room.game.state is GameState.OVER or any(row.kind == "open" for row in room.seats):
        return False
    return room.table.bot_to_act() is None


def _open_seats(seats: Sequence[SeatRow]) -> int:
    return sum(row.kind == "open" for row in seats)


def started(room: Room, log: GameLog) -> TurnDue | None:
    """A new correspondence game's first deadline, stored with ``log`` (none for another game)."""
    days = days_per_move(room.setup)
    if days is None:
        return None
    due = now(days * DAY_SECONDS) if waits_on_a_person(room) else None
    log.set_turn_due(due)
    return TurnDue(due)


def moved_on(room: Room, log: GameLog, depth: int, seats: Sequence[SeatRow]) -> TurnDue | None:
    """After a change to a correspondence game under its row lock: when the
    change gave the turn to someone (the game has actions beyond ``depth``,
    or the last of the open ``seats`` was taken), its new deadline, stored
    with ``log`` in the change's transaction. ``None``: nothing moved (a chat
    message), or not a correspondence game."""
    if days_per_move(room.setup) is None:
        return None
    if len(room.game.move_stack) == depth and _open_seats(room.seats) == _open_seats(seats):
        return None
    return started(room, log)


def remember(game_id: str, due: TurnDue | None) -> None:
    """Keep a game's deadline, once stored, for its views."""
    if due is not None:
        _known[game_id] = due.due


def turn_due(room: Room) -> str | None:
    """When the turn to move in a correspondence game times out, as this process knows it (ISO time, UTC)."""
    return _known.get(room.game_id)


def reload(store: Store, rooms: Sequence[Room]) -> None:
    """Read the deadlines of these rooms' correspondence games from the database (another process moved them)."""
    ids = [room.game_id for room in rooms if days_per_move(room.setup) is not None]
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        with store.engine.connect() as connection:
            rows = connection.execute(select(GameTable.id, GameTable.turn_due).where(GameTable.id.in_(chunk)))
            for game_id, due in rows:
                _known[game_id] = due


def timed_out_last_turn(store: Store, game_id: str, seat: int) -> bool:
    """Whether ``seat``'s last turn in the game was a time out the server applied.
    (Read while the caller holds the game's row lock: no one can store another meanwhile.)"""
    query = (
        select(ActionTable.client_id)
        .where(ActionTable.game_id == game_id, ActionTable.seat == seat, ActionTable.kind.in_(GAME_ACTIONS))
        .order_by(ActionTable.seq.desc())
        .limit(1)
    )
    with store.engine.connect() as connection:
        last = connection.execute(query).scalar()
    return isinstance(last, str) and last.startswith(TIMED_OUT)


def late_action(room: Room, store: Store) -> tuple[int, Action, str] | None:
    """What a turn that ran out becomes, for the seat to act: its seat, the
    action and the id it is stored under (marked as the server's). A pass;
    while the game waits for its final challenge, the play stands; the
    seat's second time out in a row, its resignation. ``None`` when no
    person is to act (nothing to time out)."""
    if not waits_on_a_person(room):
        return None
    seat = room.table.seat_to_act()
    mark = f"{TIMED_OUT}{room.seq + 1}"
    if room.game.state is GameState.FINAL_CHALLENGE:
        return seat, AcceptEnd(), mark
    if timed_out_last_turn(store, room.game_id, seat):
        return seat, Resign(), mark
    return seat, PlayMove(Move.pass_()), mark


def due_games(store: Store, at: str, *, limit: int = 100) -> list[str]:
    """The games being played whose turn ran out by ``at``, the longest overdue first."""
    query = (
        select(GameTable.id)
        .where(GameTable.status == "playing", GameTable.turn_due.is_not(None), GameTable.turn_due <= at)
        .order_by(GameTable.turn_due)
        .limit(limit)
    )
    with store.engine.connect() as connection:
        return list(connection.execute(query).scalars())


def sweep(service: GameService) -> list[Room]:
    """Apply every correspondence time out that is due, each under its game's
    row lock (:meth:`GameService.time_out_late_turn`); the rooms changed (a
    bot may be to act in them now)."""
    store = service.store
    corr_rooms = [room for room in service.rooms.loaded() if days_per_move(room.setup) is not None]
    reload(store, corr_rooms if service.shared else [room for room in corr_rooms if room.game_id not in _known])
    at = now()
    changed = []
    for game_id in due_games(store, at):
        try:
            room = service.load(game_id)
            if room is None:
                continue
            done = service.time_out_late_turn(room, at)
        except RoomError as err:  # a late turn the rules refuse to time out: logged, and not tried again
            LOGGER.warning("game %s: could not time out the late turn: %s", game_id, err)
            with contextlib.suppress(GameNotFoundError), store.locked(game_id) as log:
                log.set_turn_due(None, expired_by=at)
            continue
        if done is not None:
            seat, action = done
            LOGGER.info("game %s: the turn of seat %d ran out: %s", game_id, seat, type(action).__name__)
            changed.append(room)
    return changed


def sweep_seconds() -> float:
    """How often to sweep: :data:`SWEEP_ENV` in seconds, else :data:`SWEEP_SECONDS`."""
    text = os.environ.get(SWEEP_ENV, "").strip()
    if not text:
        return SWEEP_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0.1 <= seconds <= 3600:
        LOGGER.warning("%s=%r is not a number of seconds from 0.1 to 3600: sweeping every %g s",
                       SWEEP_ENV, text[:20], SWEEP_SECONDS)
        return SWEEP_SECONDS
    return seconds
