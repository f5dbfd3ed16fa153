"""What may be done to a game on the server, each change reaching the
database before anything is said of it.

The database is the only truth, whichever process serves a game. Every
change is made under the game's row lock (:meth:`Store.locked`): the room
first replays what other processes stored since it last looked, then judges
the action on that board, appends it and commits; only then is it told, to
this process's sockets and, through the broker, to the other processes. The
broker is a hint: a notice lost (a process killed after its commit, Redis
restarted) only delays the others, which also catch up from the database
now and then. A bot's turn belongs to the game: the process that moves it
holds a lease in the database, and any live process takes over a lease that
ran out.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from tilebag.actions import Action, TakeBack, TimeOut
from tilebag.engine.bots import BOTS
from tilebag.engine.players import Player
from tilebag.errors import IllegalMoveError, InvalidMoveError
from tilebag.formats import gcg
from tilebag.game import GameState
from tilebag.move import MoveKind
from tilebag.server import correspondence, safety
from tilebag.server.broker import Broker, LocalBroker
from tilebag.server.replay import DamagedGameError, replay, write
from tilebag.server.room import DAMAGED, Chat, Room, RoomError, hash_token, rules_of
from tilebag.server.rooms import Rooms
from tilebag.server.store import MAX_CHAT, MAX_CLIENT_ID, MAX_NAME, GameLog, GameNotFoundError, SeatRow, now
from tilebag.server.views import record_of
from tilebag.table import TableEvent, bot_names

LOGGER = logging.getLogger("tilebag.server")

MAX_ACTION_CHARS = 200
"""The longest action text a client may send."""

LEASE_SECONDS = 10.0
"""How long a process holds a bot's turn without renewing it: after that, another process takes it over."""


@runtime_checkable
class ThinksElsewhere(Protocol):
    """A bot that works out its move in another process (see :mod:`tilebag.server.thinking`)."""

    def think(self, record: str, lexicon: str | None, seat: int, seed: int) -> tuple[str | None, float]:
        """Its move in GCG notation in the game its seat's record leaves (none
        when it is not its turn there), and the seconds taken."""
        ...


@dataclass(frozen=True)
class _Mark:
    """What a room was before a change, to take the change back if it is not stored."""

    depth: int
    log: int
    seq: int
    chat: int
    seats: tuple[SeatRow, ...]
    names: tuple[str, ...]
    rematch: str | None

    @classmethod
    def of(cls, room: Room) -> _Mark:
        return cls(
            len(room.game.move_stack), len(room.table.log), room.seq, len(room.chat), tuple(room.seats),
            tuple(p.name for p in room.game.players), room.rematch,
        )

    def restore(self, room: Room) -> None:
        game = room.game
        while len(game.move_stack) > self.depth:
            game.pop()
        del room.table.log[self.log :]
        del room.event_seqs[self.log :]
        del room.chat[self.chat :]
        room.seq, room.rematch, room.seats = self.seq, self.rematch, list(self.seats)
        for player, name in zip(game.players, self.names, strict=True):
            player.name = name


class GameService:
    """The games of this process's :class:`~tilebag.server.rooms.Rooms`, and
    what may be done to them: making games, acting in them, taking seats,
    chatting, rematches, the bots' turns and the turn timers.

    :param broker: how the other processes serving the same database are
        told of a change (none: this process serves it alone).
    :param lease_seconds: how long this process holds a bot's turn unless it
        renews the lease (:meth:`heartbeat`); another process takes over a
        lease that ran out.
    """

    def __init__(self, rooms: Rooms, *, broker: Broker | None = None, lease_seconds: float = LEASE_SECONDS) -> None:
        self.rooms = rooms
        self.store = rooms.store
        self.broker: Broker = broker or LocalBroker()
        self.shared = not isinstance(self.broker, LocalBroker)
        """Whether other processes serve these games too (then reads catch up
        with the database first; alone, the rooms in memory are the database's)."""
        self.lease_seconds = lease_seconds
        self.owner = f"{socket.gethostname()[:50]}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process, as the holder of bots' turns (see :meth:`Store.claim_bot_turn`)."""
        self._lock = threading.Lock()
        self._advancing: set[str] = set()
        self.game_over: Callable[[str], None] | None = None
        """Told the id of each game that ends here (the analysis queue listens)."""
        self.changed: Callable[[Room], None] | None = None
        """Told of each room after a change stored here (the lobby listens, to tell a player their turn came)."""

    def load(self, game_id: str) -> Room | None:
        """The room of a game (see :meth:`Rooms.load`)."""
        return self.rooms.load(game_id)

    # -- making games -----------------------------------------------------------------

    def create(
        self, seats: list[dict[str, object]], setup: dict[str, object], seed: int, *, bots: bool = True,
        rated: bool = False, category: str | None = None, corr_days: int | None = None,
    ) -> tuple[Room, dict[int, str]]:
        """A new game; the tokens of its people's seats (given out once).
        Unless ``bots`` is false, a bot that starts makes its move. ``rated``
        games change their accounts' ratings in ``category``; ``corr_days``
        makes a correspondence game of that many days per move.

        :raises RoomError: (400) for seats or rules that do not make a game.
        """
        rules = rules_of(setup)
        if not rules.min_players <= len(seats) <= rules.max_players or len(seats) < 2:
            raise RoomError(400, f"{len(seats)} seats: a game on the server takes 2 to {rules.max_players}")
        rows: list[SeatRow] = []
        tokens: dict[int, str] = {}
        names: list[str] = []
        kinds = [str(spec["bot"]).lower() for spec in seats if isinstance(spec, dict) and spec.get("bot") is not None]
        bot_name = iter(bot_names(kinds))  # named as at a table in the terminal: "Static bot 1", "Static bot 2"
        for index, spec in enumerate(seats):
            if not isinstance(spec, dict):
                raise RoomError(400, f"seat {index}: a seat is an object such as {{\"name\": \"alice\"}}")
            bot = spec.get("bot")
            if bot is not None:
                kind = str(bot).lower()
                name = next(bot_name)
                if kind not in BOTS:
                    raise RoomError(400, f"seat {index}: unknown bot {str(bot)[:40]!r}; known: {', '.join(sorted(BOTS))}")
                rows.append(SeatRow(index, name, "bot", kind, None))
            elif spec.get("open"):
                reserved = spec.get("reserved")
                label = str(reserved) if isinstance(reserved, str) and reserved else f"Seat {index + 1}"
                rows.append(SeatRow(index, label, "open", None, None))
            else:
                name = " ".join(str(spec.get("name") or "").split())
                if not name or len(name) > MAX_NAME or not name.isprintable():
                    raise RoomError(400, f"seat {index}: a name is 1 to {MAX_NAME} printable characters")
                token = secrets.token_urlsafe(24)
                tokens[index] = token
                user = spec.get("user")  # set by the route from the request's account, never by a client
                rows.append(SeatRow(index, name, "person", None, hash_token(token), user if isinstance(user, int) else None))
            names.append(rows[-1].name)
        if len({n.casefold() for n in names}) != len(names):
            raise RoomError(400, "seat names must differ")
        held = [row.user_id for row in rows if row.user_id is not None]
        if len(set(held)) != len(held):
            raise RoomError(400, "an account holds one seat of a game")
        practice = [i for i, spec in enumerate(seats) if isinstance(spec, dict) and spec.get("practice") is True]
        if practice:  # seats that may have hints and look words up whatever the rules
            setup = {**setup, "practice": practice}
        lexicon_name = setup.get("lexicon")
        self.rooms.lexicon(lexicon_name if isinstance(lexicon_name, str) else None)
        # correspondence: the days per move kept in the setup as well (a rematch's setup makes one too)
        setup, corr_days = correspondence.setup_of(setup, corr_days)
        game_id = self.store.create_game(setup, seed, rows, bot_due=rows[0].kind == "bot", rated=rated,
                                         category=category, corr_days=corr_days)
        room = self.rooms.load(game_id)
        assert room is not None
        if corr_days is not None:  # correspondence: the first turn's deadline
            with self.store.locked(game_id) as log:
                first = correspondence.started(room, log)
            correspondence.remember(game_id, first)
        if bots:
            self.advance(room)
        return room, tokens


    # -- what other processes stored ---------------------------------------------------

    def refresh(self, room: Room) -> bool:
        """Catch a room up with actions another process stored; whether there were any."""
        with room.lock:
            newer = self.store.actions(room.game_id, after=room.seq)
            if not newer:
                return False
            try:
                replay(room, newer, self.rooms)
            except DamagedGameError as err:
                self.rooms.set_aside(err)
                raise RoomError(410, DAMAGED) from None
            correspondence.reload(self.store, [room])  # another process moved its deadline (correspondence games)
            for listener in list(room.listeners):
                listener(room)
            return True

    def fresh(self, room: Room) -> Room:
        """The room caught up with the database first, when other processes share it (for a read)."""
        if self.shared:
            self.refresh(room)
        return room

    def heard(self, game_id: str, seq: int) -> None:
        """Another process stored actions of ``game_id`` up to ``seq``."""
        room = self.rooms.in_memory(game_id)
        if room is not None and seq > room.seq:
            self.refresh(room)

    def catch_up(self) -> list[Room]:
        """Catch every room in memory up with the database (notices may have
        been lost: a process killed after its commit, a broker restarted);
        the rooms that had missed something."""
        rooms = self.rooms.loaded()
        last = self.store.last_seqs([room.game_id for room in rooms])
        behind = [room for room in rooms if last.get(room.game_id, 0) > room.seq]
        caught = []
        for room in behind:
            try:
                if self.refresh(room):
                    caught.append(room)
            except RoomError:
                pass  # set aside as damaged, and logged
        return caught

    # -- changing a game ---------------------------------------------------------------

    @contextmanager
    def _changing(self, room: Room) -> Iterator[GameLog]:
        """A change to a room, made under its lock and its game's row lock in
        the database: the room is first caught up with what the database
        holds, the change is judged on that, its actions are appended to the
        log, and all is committed when the block ends. If the block raises or
        the commit fails, the change is taken back in memory (and the room
        caught up again, in case the commit did happen); nothing is told.
        Once committed, it is told (:meth:`_told`)."""
        with room.lock:
            mark: _Mark | None = None
            deadline: correspondence.TurnDue | None = None
            try:
                with self.store.locked(room.game_id) as log:
                    replay(room, log.since(room.seq), self.rooms)
                    mark = _Mark.of(room)
                    yield log
                    log.set_bot_due(room.table.bot_to_act() is not None)
                    # correspondence: a change that gave the turn to someone moves the deadline, in this transaction
                    deadline = correspondence.moved_on(room, log, mark.depth, mark.seats)
            except DamagedGameError as err:
                self.rooms.set_aside(err)
                raise RoomError(410, DAMAGED) from None
            except GameNotFoundError:
                raise RoomError(404, "no such game") from None
            except BaseException:
                if mark is not None:
                    mark.restore(room)
                    try:
                        replay(room, self.store.actions(room.game_id, after=room.seq), self.rooms)
                    except Exception:  # the database is out of reach: the next change catches up
                        LOGGER.exception("could not catch game %s up after a failed change", room.game_id)
                raise
            room.table.start_timing()
            correspondence.remember(room.game_id, deadline)
        self._told(room)

    def _told(self, room: Room) -> None:
        """Tell this process's listeners and, best effort, the other processes
        that the room changed. A broker that fails is logged, never the
        player's error: the action is stored, and the others catch up anyway."""
        for listener in list(room.listeners):
            listener(room)
        try:
            self.broker.publish(room.game_id, room.seq)
        except Exception as err:
            LOGGER.warning("could not tell the other processes of game %s (they catch up from the database): %s",
                           room.game_id, err)
        if self.changed is not None:
            try:
                self.changed(room)
            except Exception:  # the lobby's notice is a courtesy: the change is stored and told
                LOGGER.exception("could not tell the lobby of game %s", room.game_id)
        if room.game.state is GameState.OVER and self.game_over is not None:
            self.game_over(room.game_id)

    def _judged(self, room: Room, seat: int, action: Action | str) -> list[TableEvent]:
        """A seat's action (or its text, as the table parses it) applied to the
        room's table, which says whether the seat may do it now (not stored yet).

        :raises RoomError: (400, 409 or 422) saying why it is refused; the game is unchanged.
        """
        table = room.table
        try:
            if isinstance(action, str):
                action = table.parse_action(action)
            if isinstance(action, TakeBack):
                raise RoomError(400, "taking a move back is for practice in the terminal game, not online")
            return table.act(seat, action)
        except InvalidMoveError as err:
            raise RoomError(400, f"not a move: {err}") from None
        except IllegalMoveError as err:
            refused = err.reason.name in ("WRONG_PLAYER", "GAME_OVER", "NOTHING_TO_CHALLENGE", "CHALLENGE_NOT_ALLOWED")
            raise RoomError(409 if refused else 422, str(err)) from None

    def act(
        self, room: Room, seat: int | None, text: str, *, client_id: str | None = None, bots: bool = True
    ) -> list[TableEvent]:
        """Apply a client's action for ``seat`` and store it; then, unless
        ``bots`` is false (the caller lets them move later, see
        :meth:`advance`), the bots whose turn it is move too.

        ``client_id``, any string of up to 64 characters the client makes
        unique, makes the action idempotent: sent again (the client did not
        hear the answer), it is stored once, and answered as the first time
        was, with no events.

        :raises RoomError: 403 for an observer, 400 for a malformed action,
            409 for an action out of turn or after the end, 422 for a move
            the rules refuse; the game is unchanged.
        """
        if seat is None:
            raise RoomError(403, "observers cannot act: join a seat with its token")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_CHARS:
            raise RoomError(400, f"an action is 1 to {MAX_ACTION_CHARS} characters of GCG notation or a command")
        if client_id is not None and (not 1 <= len(client_id) <= MAX_CLIENT_ID or not client_id.isprintable()):
            raise RoomError(400, f"an action's id is 1 to {MAX_CLIENT_ID} printable characters")
        events: list[TableEvent] = []
        with self._changing(room) as log:
            if client_id is not None and log.repeated(client_id):
                return []  # stored the first time it was sent
            events = self._judged(room, seat, text)
            write(room, log, events, client_id)
        if bots:
            events += self.advance(room)
        return events

    def preview(self, room: Room, seat: int | None, text: str) -> dict[str, object]:
        """What a play would score and the words it would form, checked for
        ``seat`` without playing it, or why it would be refused (read under
        the room's lock). Nothing changes."""
        if seat is None:
            return {"ok": False, "error": "observers cannot play"}
        text = text.strip()
        if not text or len(text) > MAX_ACTION_CHARS:
            return {"ok": False, "error": 'send {"action": "8D WORD"}'}
        game = room.game
        try:
            move = room.table.check(seat, game.parse_move(text))
        except (InvalidMoveError, IllegalMoveError) as err:
            return {"ok": False, "error": str(err)}
        words = [game.alphabet.format_word(w.tiles) for w in game.words(move)] if move.kind is MoveKind.PLACE else []
        return {"ok": True, "score": game.score(move), "words": words}

    # -- bots ----------------------------------------------------------------------------

    def advance(self, room: Room) -> list[TableEvent]:
        """Let the bots whose turn it is act, each action stored as it is made.

        The turn is claimed first, as a lease in the database: a bot moves in
        one process only, and if that process dies, another takes the turn
        over once the lease runs out. A bot that thinks in a worker process
        does so with the room free: meanwhile the room's views are read and
        told as usual."""
        with self._lock:
            if room.game_id in self._advancing:
                return []  # this process is moving the game's bots already
            self._advancing.add(room.game_id)
        events: list[TableEvent] = []
        try:
            while True:
                with room.lock:
                    self.fresh(room)
                    bot = room.table.bot_to_act()
                    if bot is None:
                        return events
                    seat, seq = room.table.seat_to_act(), room.seq
                    playing = room.game.state is GameState.PLAYING
                if not self.store.claim_bot_turn(room.game_id, self.owner, self.lease_seconds):
                    return events  # another live process moves it
                thought = self._think(room, bot, seat, seq) if playing else None
                with self._changing(room) as log:
                    if room.seq != seq:  # the game moved meanwhile (a timeout, another process): look again
                        continue
                    chosen = None
                    if thought is not None and thought[0] is not None:
                        try:
                            chosen = (room.game.parse_move(thought[0]), thought[1])
                        except (InvalidMoveError, IllegalMoveError):
                            chosen = None  # the table's own bot thinks again, here
                    made = room.table.bot_turn(chosen=chosen)
                    write(room, log, made)
                if not made:
                    return events
                events += made
        finally:
            with self._lock:
                self._advancing.discard(room.game_id)
            try:
                self.store.release_bot_turn(room.game_id, self.owner)
            except Exception:  # the lease runs out by itself
                LOGGER.warning("could not release the bot's turn in game %s", room.game_id)

    def _think(self, room: Room, bot: Player, seat: int, seq: int) -> tuple[str | None, float] | None:
        """The bot's move worked out before the game's row is locked: in a
        worker process (the room free meanwhile), or here under the room's
        lock; ``None`` leaves the choice to the table."""
        if isinstance(bot, ThinksElsewhere):
            with room.lock:  # what the seat may see, and nothing else, goes to the worker
                record = gcg.dumps(record_of(room, seat))
                lexicon = room.setup.get("lexicon")
            try:
                return bot.think(record, lexicon if isinstance(lexicon, str) else None, seat, seq)
            except Exception:  # the workers fail: the bot thinks here instead
                LOGGER.exception("a bot could not think in a worker process")
                return None
        with room.lock:
            game = room.game
            if room.seq != seq or game.termination is not None or room.table.challengeable_by(seat) is not None:
                return None  # a challenge or the end to judge: the table decides, at once
            started = room.table.now()
            move = bot.choose(game)
            text = game.notation(move) if move.kind is MoveKind.PLACE else move.gcg(game.alphabet, game.layout)
            return text, max(0.0, room.table.now() - started)

    def waiting(self) -> list[Room]:
        """The games where a bot is to act and no live process holds its turn
        (its process died, or never claimed it): this process may move them."""
        found = []
        for game_id in self.store.waiting_bots():
            try:
                room = self.rooms.load(game_id)
            except RoomError:
                continue  # set aside as damaged, and logged
            if room is not None:
                found.append(room)
        return found

    def heartbeat(self) -> None:
        """Renew this process's leases on the bots' turns it is moving."""
        self.store.renew_leases(self.owner, self.lease_seconds)

    def check_clocks(self, *, bots: bool = True) -> list[Room]:
        """Make the turn a pass wherever a person's turn timer has run out,
        by the server's clock (a client's says nothing); then, unless
        ``bots`` is false, the bots whose turn it is move; the rooms changed."""
        changed = []
        for room in self.rooms.loaded():
            game = room.game
            if game.rules.turn_time is None or game.state is not GameState.PLAYING:
                continue
            with room.lock:
                table = room.table
                if table.is_bot(table.seat_to_act()) or not table.over_time(table.elapsed()):
                    continue
                try:
                    with self._changing(room) as log:
                        seat = table.seat_to_act()  # as the database has it
                        if game.state is not GameState.PLAYING or table.is_bot(seat) or not table.over_time(table.elapsed()):
                            continue
                        write(room, log, self._judged(room, seat, TimeOut()))
                except RoomError as err:
                    LOGGER.info("no time out in game %s: %s", room.game_id, err)
                    continue
                changed.append(room)
            if bots:
                self.advance(room)
        return changed

    # -- correspondence games: a turn's deadline in the database (tilebag.server.correspondence) --

    def time_out_late_turn(self, room: Room, at: str) -> tuple[int, Action] | None:
        """Apply the time out of a correspondence game whose stored deadline
        had passed by ``at`` (:func:`~tilebag.server.correspondence.late_action`):
        the deadline is checked again under the game's row lock, so that the
        time out is applied once whichever processes sweep. The seat and the
        action applied, or ``None`` when the turn was no longer late.

        :raises RoomError: when the rules refuse the action (the game is unchanged).
        """
        with self._changing(room) as log:
            if not log.set_turn_due(None, expired_by=at):
                return None  # played meanwhile, or timed out by another process
            late = correspondence.late_action(room, self.store)
            if late is None:
                return None  # no person to act: no deadline
            seat, action, mark = late
            write(room, log, self._judged(room, seat, action), mark)
        return seat, action

    # -- seats, rematches and chat -------------------------------------------------------

    def rematch(self, room: Room, seat: int | None) -> tuple[Room, int, str]:
        """The rematch of a finished game for ``seat``: the same seats, bots
        and rules, the seats turned one place so that another player starts;
        made by the first seat that asks. Each person's seat gets its token
        when that person asks: the room, the seat and the token.

        :raises RoomError: 403 for an observer, 409 before the end or when
            the seat's place in the rematch is taken already.
        """
        if seat is None:
            raise RoomError(403, "observers cannot ask for a rematch")
        with room.lock:
            self.fresh(room)
            if room.game.state is not GameState.OVER:
                raise RoomError(409, "the game is not over")
            count = len(room.seats)
            made: Room | None = None
            if room.rematch is None:
                seats: list[dict[str, object]] = []
                for new in range(count):
                    old = room.seats[(new + 1) % count]
                    seats.append({"bot": old.bot} if old.kind == "bot" else {"open": True, "reserved": old.name})
                setup = {key: value for key, value in room.setup.items() if key != "practice"}
                practice = room.setup.get("practice")
                if isinstance(practice, list) and practice:  # the practice seats turn with the others
                    setup["practice"] = sorted((old - 1) % count for old in practice)
                made, _ = self.create(seats, setup, secrets.randbits(62), bots=False)
                with self._changing(room) as log:
                    if room.rematch is None:  # no other process made one meanwhile
                        room.rematch = made.game_id
                        room.seq = log.append(seat, "rematch", made.game_id)
            new_room = self.rooms.load(str(room.rematch))
            assert new_room is not None
        place = (seat - 1) % count
        name = room.seats[seat].name
        token = secrets.token_urlsafe(24)
        user_id = room.seats[seat].user_id
        with self._changing(new_room) as log:
            row = new_room.seats[place]
            if row.kind != "open":
                raise RoomError(409, "your seat in the rematch is taken: use the token you were given")
            log.take_seat(place, name, hash_token(token), user_id)
            new_room.seq = log.append(place, "join", name)
            new_room.seats[place] = SeatRow(place, name, "person", None, hash_token(token), user_id)
            new_room.game.players[place].name = name
        return new_room, place, token

    def join(self, room: Room, name: str, *, user_id: int | None = None) -> tuple[int, str]:
        """Give the next open seat to ``name`` (held by the account ``user_id``, if any): its seat and token.

        :raises RoomError: 400 for a bad name, 409 when no seat is open.
        """
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise RoomError(400, f"a name is 1 to {MAX_NAME} printable characters")
        token = secrets.token_urlsafe(24)
        with self._changing(room) as log:
            open_seats = [row for row in room.seats if row.kind == "open" and row.name == f"Seat {row.seat + 1}"]
            if not open_seats:
                raise RoomError(409, "no seat is open in this game")
            if any(row.name.casefold() == name.casefold() for row in room.seats if row.kind != "open"):
                raise RoomError(400, "another seat has that name")
            if user_id is not None and any(row.user_id == user_id for row in room.seats):
                raise RoomError(409, "you hold a seat in this game already")
            row = open_seats[0]
            log.take_seat(row.seat, name, hash_token(token), user_id)
            room.seq = log.append(row.seat, "join", name)
            room.seats[row.seat] = SeatRow(row.seat, name, "person", None, hash_token(token), user_id)
            room.game.players[row.seat].name = name
        return row.seat, token

    def say(self, room: Room, seat: int | None, text: str, *, name: str | None = None, user_id: int | None = None) -> Chat:
        """A chat message from a seat, or from an observer who gives a name
        (``user_id``: the account the observer is logged in as, if any).

        :raises RoomError: 400 for an empty or too long message, or an
            observer's name that is missing, too long or a seat's; 403 for an
            observer where the game's maker turned observers' chat off, or
            an account that an account holding a seat here blocked.
        """
        # who may chat: observers where the game allows it, no account a seat's account blocked (tilebag.server.safety)
        safety.check_chat(self.store, room, seat, user_id)
        message = " ".join(str(text).split())
        if not message or len(message) > MAX_CHAT:
            raise RoomError(400, f"a chat message is 1 to {MAX_CHAT} characters (this one has {len(message)})")
        watcher = None
        if seat is None:
            watcher = " ".join(str(name or "").split())
            if not watcher or len(watcher) > MAX_NAME or not watcher.isprintable():
                raise RoomError(400, f"an observer chats under a name of 1 to {MAX_NAME} printable characters")
            if any(row.name.casefold() == watcher.casefold() for row in room.seats):
                raise RoomError(400, "that name is a seat's: an observer chats under a name of their own")
        at = now()  # the time stored is the time shown, now and after a restart
        with self._changing(room) as log:
            if watcher is None:
                assert seat is not None
                seq = log.append(seat, "chat", message, created=at)
                chat = Chat(seq, seat, room.seats[seat].name, message, at)
            else:
                seq = log.append(-1, "watchchat", json.dumps({"name": watcher, "text": message}), created=at)
                chat = Chat(seq, -1, watcher, message, at)
            room.seq = seq
            room.chat.append(chat)
        return chat
