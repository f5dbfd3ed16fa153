"""A room: one game on the server, a :class:`~tilebag.table.Table` whose
every accepted action is written to the store before anything is said of
it, and the seats' tokens that say who may act.

A room is rebuilt from its stored setup and actions alone
(:meth:`Room.rebuild`): the bag is seeded, and the actions (the bots' moves
among them, as they were played) replay to the same board, racks, bag
order, scores and clocks.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from tilebag.engine.bots import BOTS, make_bot
from tilebag.engine.players import Player
from tilebag.errors import IllegalMoveError, InvalidMoveError, TilebagError
from tilebag.game import Game, GameState
from tilebag.lexicon import Lexicon, default_lexicon, load_lexicon
from tilebag.move import MoveKind
from tilebag.rules import Rules, RulesError, find_rules
from tilebag.server.broker import Broker, LocalBroker
from tilebag.server.store import MAX_CHAT, MAX_NAME, ActionRow, SeatRow, StaleError, Store

if TYPE_CHECKING:
    from tilebag.server.thinking import Thinkers
from tilebag.table import Challenged, EndAccepted, Played, Resigned, Table, TableEvent, TimeUp

LOGGER = logging.getLogger("tilebag.server")

MAX_ACTION_CHARS = 200
"""The longest action text a client may send."""


class RoomError(TilebagError):
    """An action refused: :attr:`status` is the HTTP status that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def hash_token(token: str) -> str:
    """What the store keeps of a seat's token (never the token itself)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@runtime_checkable
class ThinksElsewhere(Protocol):
    """A bot that works out its move in another process, from the game as
    stored (see :mod:`tilebag.server.thinking`)."""

    def think(self, seat: int) -> tuple[str | None, float]:
        """Its move in GCG notation (none when the stored game is not at its turn) and the seconds taken."""
        ...


@dataclass
class Chat:
    seq: int
    seat: int
    name: str
    text: str


@dataclass
class Room:
    """One game: its table, its seats' tokens (hashed), and what was said."""

    game_id: str
    table: Table
    seats: list[SeatRow]
    setup: dict[str, object]
    chat: list[Chat] = field(default_factory=list)
    seq: int = 0
    """The last stored action's sequence number."""
    rematch: str | None = None
    """The game of the rematch, once a seat asked for one."""
    event_seqs: list[int] = field(default_factory=list)
    """For each event of the table's log, the stored action it came of."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    listeners: list[Callable[[Room], None]] = field(default_factory=list)
    views: dict[int | None, tuple[object, str]] = field(default_factory=dict)
    """Each seat's last view as JSON text, with the state it shows (see :func:`~tilebag.server.views.view_json`)."""

    @property
    def game(self) -> Game:
        return self.table.game

    def coaching_for(self, seat: int | None) -> bool:
        """True when ``seat`` may have hints and look words up: an open
        dictionary, or a seat made with ``"practice": true``."""
        if seat is None:
            return False
        practice = self.setup.get("practice")
        return self.game.rules.open_dictionary or (isinstance(practice, list) and seat in practice)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to (``None`` for none: an observer).

        :raises RoomError: (401) for a token that is no seat's.
        """
        if not token:
            return None
        digest = hash_token(token)
        for row in self.seats:
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, digest):
                return row.seat
        raise RoomError(401, "that token is no seat's in this game")


def rules_of(setup: dict[str, object]) -> Rules:
    """The rules a game's setup names: a preset changed by options.

    :raises RoomError: (400) naming what is wrong.
    """
    try:
        rules = find_rules(str(setup.get("rules") or "standard"))
        options = setup.get("options") or {}
        if not isinstance(options, dict):
            raise RoomError(400, "options must be an object of rules options")
        return rules.with_options({str(k): str(v) for k, v in options.items()})
    except (RulesError, ValueError) as err:
        raise RoomError(400, str(err)) from None


class Rooms:
    """Every game the server holds, each rebuilt from the store when first asked for."""

    def __init__(
        self,
        store: Store,
        *,
        lexicons: dict[str, Lexicon] | None = None,
        broker: Broker | None = None,
        thinkers: Thinkers | None = None,
    ) -> None:
        self.store = store
        self.thinkers = thinkers
        """Worker processes for the bots to think in (none: they think here)."""
        self.broker: Broker = broker or LocalBroker()
        self.shared = not isinstance(self.broker, LocalBroker)
        """Whether other processes serve these games too (then an action
        first reads what they stored; alone, the rooms in memory are the database's)."""
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()
        self._loading: dict[str, threading.Lock] = {}
        self._lexicons = dict(lexicons or {})
        self.game_over: Callable[[str], None] | None = None
        """Told the id of each game that ends here (the analysis queue listens)."""

    def lexicon(self, name: str | None) -> Lexicon:
        key = name or "default"
        found = self._lexicons.get(key)
        if found is None:
            try:
                found = default_lexicon() if name is None else load_lexicon(name)
            except (TilebagError, OSError) as err:
                raise RoomError(400, f"no lexicon {name!r} on this server: {err}") from None
            self._lexicons[key] = found
        return found

    # -- making and finding games -------------------------------------------

    def create(
        self, seats: list[dict[str, object]], setup: dict[str, object], seed: int, *, bots: bool = True
    ) -> tuple[Room, dict[int, str]]:
        """A new game; the tokens of its people's seats (given out once).
        Unless ``bots`` is false, a bot that starts makes its move.

        :raises RoomError: (400) for seats or rules that do not make a game.
        """
        rules = rules_of(setup)
        if not rules.min_players <= len(seats) <= rules.max_players or len(seats) < 2:
            raise RoomError(400, f"{len(seats)} seats: a game on the server takes 2 to {rules.max_players}")
        rows: list[SeatRow] = []
        tokens: dict[int, str] = {}
        names: list[str] = []
        for index, spec in enumerate(seats):
            if not isinstance(spec, dict):
                raise RoomError(400, f"seat {index}: a seat is an object such as {{\"name\": \"alice\"}}")
            bot = spec.get("bot")
            if bot is not None:
                kind = str(bot).lower()
                if kind not in BOTS:
                    raise RoomError(400, f"seat {index}: unknown bot {str(bot)[:40]!r}; known: {', '.join(sorted(BOTS))}")
                name = f"{kind.capitalize()} bot" + (f" {index + 1}" if any(r.bot == kind for r in rows) else "")
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
                rows.append(SeatRow(index, name, "person", None, hash_token(token)))
            names.append(rows[-1].name)
        if len({n.casefold() for n in names}) != len(names):
            raise RoomError(400, "seat names must differ")
        practice = [i for i, spec in enumerate(seats) if isinstance(spec, dict) and spec.get("practice") is True]
        if practice:  # seats that may have hints and look words up whatever the rules
            setup = {**setup, "practice": practice}
        lexicon_name = setup.get("lexicon")
        self.lexicon(lexicon_name if isinstance(lexicon_name, str) else None)
        game_id = self.store.create_game(setup, seed, rows)
        room = self.load(game_id)
        assert room is not None
        if bots:
            self.advance(room)
        return room, tokens

    def load(self, game_id: str) -> Room | None:
        """The room of a game (rebuilt from the store the first time), or ``None``."""
        with self._lock:
            room = self._rooms.get(game_id)
        if room is not None:
            return room
        # rebuilt without the lock, which every request takes: a long rebuild holds up nobody else
        with self._loading_lock(game_id):
            with self._lock:
                room = self._rooms.get(game_id)
            if room is not None:
                return room
            stored = self.store.game(game_id)
            if stored is None:
                return None
            setup, seed, _ = stored
            room = self.rebuild(game_id, setup, seed)
            with self._lock:
                self._rooms[game_id] = room
                self._loading.pop(game_id, None)  # in memory now: no one rebuilds it again
            return room

    def in_memory(self, game_id: str) -> Room | None:
        """The room of a game when it is in memory already (nothing is read or rebuilt)."""
        with self._lock:
            return self._rooms.get(game_id)

    def _loading_lock(self, game_id: str) -> threading.Lock:
        """The lock that lets one thread at a time rebuild a game."""
        with self._lock:
            return self._loading.setdefault(game_id, threading.Lock())

    def rebuild(self, game_id: str, setup: dict[str, object], seed: int) -> Room:
        """A game as its stored setup and actions make it."""
        seats = self.store.seats(game_id)
        rules = rules_of(setup)
        lexicon_name = setup.get("lexicon")
        lexicon = self.lexicon(lexicon_name if isinstance(lexicon_name, str) else None)
        game = Game([row.name for row in seats], rules=rules, lexicon=lexicon, seed=seed, first=0)
        remote = self.thinkers is not None and not (rules.recycle or rules.blank_swap)
        bots: dict[int, Player] = {}
        for row in seats:
            if row.kind != "bot":
                continue
            kind = row.bot or "static"
            if remote and self.thinkers is not None:
                bots[row.seat] = self.thinkers.bot(game_id, kind, row.name)
            else:
                bots[row.seat] = make_bot(kind, row.name)
        table = Table(game, bots, details=True)
        room = Room(game_id, table, seats, setup)
        self._replay(room, self.store.actions(game_id))
        return room

    def _replay(self, room: Room, actions: list[ActionRow]) -> None:
        """Apply stored actions to a room, in order."""
        for action in actions:
            room.seq = action.seq
            if action.kind == "chat":
                room.chat.append(Chat(action.seq, action.seat, room.seats[action.seat].name, action.text))
            elif action.kind == "join":
                token_hash = next((row.token_hash for row in self.store.seats(room.game_id) if row.seat == action.seat), None)
                room.seats[action.seat] = SeatRow(action.seat, action.text, "person", None, token_hash)
                room.game.players[action.seat].name = action.text
            elif action.kind == "rematch":
                room.rematch = action.text
            else:
                made = self._apply(room, action.seat, action.kind, action.text, action.seconds)
                room.event_seqs.extend([action.seq] * len(made))

    def refresh(self, room: Room) -> bool:
        """Catch a room up with actions another process stored; whether there were any."""
        with room.lock:
            newer = self.store.actions(room.game_id, after=room.seq)
            if not newer:
                return False
            self._replay(room, newer)
            for listener in list(room.listeners):
                listener(room)
            return True

    def _catch_up(self, room: Room) -> None:
        if self.shared:
            self.refresh(room)

    def heard(self, game_id: str, seq: int) -> None:
        """Another process stored actions of ``game_id`` up to ``seq``."""
        with self._lock:
            room = self._rooms.get(game_id)
        if room is not None and seq > room.seq:
            self.refresh(room)

    def _resync(self, room: Room) -> None:
        """Make a room what the database says, after another process got
        ahead of this one mid-action."""
        stored = self.store.game(room.game_id)
        assert stored is not None
        fresh = self.rebuild(room.game_id, stored[0], stored[1])
        room.table, room.seats, room.chat, room.seq = fresh.table, fresh.seats, fresh.chat, fresh.seq
        room.event_seqs, room.rematch = fresh.event_seqs, fresh.rematch
        for listener in list(room.listeners):
            listener(room)

    # -- acting ---------------------------------------------------------------------

    def _apply(self, room: Room, seat: int, kind: str, text: str, seconds: float | None) -> list[TableEvent]:
        table, game = room.table, room.game
        if kind == "move":
            return table.play(seat, game.parse_move(text), seconds=seconds)
        if kind == "challenge":
            return table.challenge(seat)
        if kind == "accept":
            return table.accept(seat)
        if kind == "resign":
            return table.resign(seat)
        if kind == "timeout":
            return table.time_out(seat, seconds=seconds)
        raise RoomError(400, f"unknown action kind {kind!r}")

    def act(self, room: Room, seat: int | None, text: str, *, bots: bool = True) -> list[TableEvent]:
        """Apply a client's action for ``seat`` and store it; then, unless
        ``bots`` is false (the caller lets them move later, see
        :meth:`advance`), the bots whose turn it is move too.

        :raises RoomError: 403 for an observer, 400 for a malformed action,
            409 for an action out of turn or after the end, 422 for a move
            the rules refuse; the game is unchanged.
        """
        if seat is None:
            raise RoomError(403, "observers cannot act: join a seat with its token")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_CHARS:
            raise RoomError(400, f"an action is 1 to {MAX_ACTION_CHARS} characters of GCG notation or a command")
        words = text.strip()
        command = words.lower()
        with room.lock:
            self._catch_up(room)
            game = room.game
            if game.state is GameState.OVER:
                raise RoomError(409, f"the game is over: {game.result_text()}")
            if command in ("challenge", "resign"):
                kind = command
            elif game.state is GameState.FINAL_CHALLENGE and command in ("accept", "-", ""):
                kind = "accept"
            else:
                kind = "move"
                if room.table.seat_to_act() != seat:
                    raise RoomError(409, f"it is {game.players[room.table.seat_to_act()].name}'s turn, not yours")
            events = self._commit(room, seat, kind, words)
            if bots:
                events += self.advance(room)
        return events

    def _commit(self, room: Room, seat: int, kind: str, text: str) -> list[TableEvent]:
        """Apply an action, then store it (with the time the table counted)
        before anything is said of it; if it cannot be stored, take it back."""
        game = room.game
        depth = len(game.move_stack)
        log = len(room.table.log)
        try:
            events = self._apply(room, seat, kind, text, None)
        except InvalidMoveError as err:
            raise RoomError(400, f"not a move: {err}") from None
        except IllegalMoveError as err:
            refused = err.reason.name in ("WRONG_PLAYER", "GAME_OVER", "NOTHING_TO_CHALLENGE", "CHALLENGE_NOT_ALLOWED")
            raise RoomError(409 if refused else 422, str(err)) from None
        try:
            self._store(room, events)
        except StaleError:
            self._resync(room)
            raise RoomError(409, "the game changed meanwhile: look again and retry") from None
        except Exception:
            while len(game.move_stack) > depth:
                game.pop()
            del room.table.log[log:]
            del room.event_seqs[log:]
            raise
        return events

    def _add(self, room: Room, seat: int, kind: str, text: str, seconds: float | None) -> int:
        """Store one action after the room's last (another process may not
        have stored one in between); its sequence number."""
        return self.store.add_action(room.game_id, seat, kind, text, seconds, after=room.seq)

    def _told(self, room: Room) -> None:
        """Tell this process's listeners and the other processes that the room changed."""
        for listener in list(room.listeners):
            listener(room)
        self.broker.publish(room.game_id, room.seq)

    def _store(self, room: Room, events: list[TableEvent]) -> None:
        """Write the actions these events are the result of, so that they
        replay to the same game, and tell the room's listeners."""
        game = room.game
        for event in events:
            room.event_seqs.append(room.seq + 1 if _stored(event) else room.seq)
            if isinstance(event, Played):
                move = event.move
                text = event.notation if move.kind is MoveKind.PLACE else move.gcg(game.alphabet, game.layout)
                room.seq = self._add(room, event.seat, "move", text, event.seconds)
            elif isinstance(event, TimeUp):
                room.seq = self._add(room, event.seat, "timeout", "", event.took)
            elif isinstance(event, Challenged):
                room.seq = self._add(room, event.seat, "challenge", "", None)
            elif isinstance(event, EndAccepted):
                room.seq = self._add(room, event.seat, "accept", "", None)
            elif isinstance(event, Resigned):
                room.seq = self._add(room, event.seat, "resign", "", None)
        if game.state is GameState.OVER:
            self.store.set_status(room.game_id, "over")
            self.store.queue_analysis(room.game_id)
            if self.game_over is not None:
                self.game_over(room.game_id)
        else:
            room.table.start_timing()
        self._told(room)

    def advance(self, room: Room) -> list[TableEvent]:
        """Let the bots whose turn it is act, each action stored as it is made.

        A bot that thinks in a worker process does so with the room free:
        meanwhile the room's views are read and told as usual."""
        events: list[TableEvent] = []
        while True:
            with room.lock:
                bot = room.table.bot_to_act()
                if bot is None:
                    return events
                seat, seq = room.table.seat_to_act(), room.seq
                playing = room.game.state is GameState.PLAYING
            thought = None
            if isinstance(bot, ThinksElsewhere) and playing:
                try:
                    thought = bot.think(seat)
                except Exception:  # the workers fail: the bot thinks here instead
                    LOGGER.exception("a bot could not think in a worker process")
            with room.lock:
                if room.seq != seq:  # the game moved meanwhile (a timeout, another process): look again
                    continue
                chosen = None
                if thought is not None and thought[0] is not None:
                    try:
                        chosen = (room.game.parse_move(thought[0]), thought[1])
                    except (InvalidMoveError, IllegalMoveError):
                        chosen = None  # the table's own bot thinks again, here
                made = room.table.bot_turn(chosen=chosen)
                if not made:
                    return events
                try:
                    self._store(room, made)
                except StaleError:  # another process moved this bot first
                    self._resync(room)
                    return events
                events += made

    def loaded(self) -> list[Room]:
        """The rooms in memory now."""
        with self._lock:
            return list(self._rooms.values())

    def check_clocks(self, *, bots: bool = True) -> list[Room]:
        """Make the turn a pass wherever a person's turn timer has run out,
        by the server's clock (a client's says nothing); then, unless
        ``bots`` is false, the bots whose turn it is move; the rooms changed."""
        changed = []
        for room in self.loaded():
            game = room.game
            if game.rules.turn_time is None or game.state is not GameState.PLAYING:
                continue
            with room.lock:
                table = room.table
                seat = table.seat_to_act()
                if table.is_bot(seat) or not table.over_time(table.elapsed()):
                    continue
                self._commit(room, seat, "timeout", "")
                changed.append(room)
            if bots:
                self.advance(room)
        return changed

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
            if room.game.state is not GameState.OVER:
                raise RoomError(409, "the game is not over")
            count = len(room.seats)
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
                room.rematch = made.game_id
                room.seq = self.store.add_action(room.game_id, seat, "rematch", made.game_id, None)
                self._told(room)
            new_room = self.load(room.rematch)
            assert new_room is not None
        place = (seat - 1) % count
        name = room.seats[seat].name
        with new_room.lock:
            row = new_room.seats[place]
            if row.kind != "open":
                raise RoomError(409, "your seat in the rematch is taken: use the token you were given")
            token = secrets.token_urlsafe(24)
            self.store.take_seat(new_room.game_id, place, name, hash_token(token))
            new_room.seq = self.store.add_action(new_room.game_id, place, "join", name, None)
            new_room.seats[place] = SeatRow(place, name, "person", None, hash_token(token))
            new_room.game.players[place].name = name
            self._told(new_room)
        return new_room, place, token

    def join(self, room: Room, name: str) -> tuple[int, str]:
        """Give the next open seat to ``name``: its seat and token.

        :raises RoomError: 400 for a bad name, 409 when no seat is open.
        """
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise RoomError(400, f"a name is 1 to {MAX_NAME} printable characters")
        with room.lock:
            self._catch_up(room)
            open_seats = [row for row in room.seats if row.kind == "open" and row.name == f"Seat {row.seat + 1}"]
            if not open_seats:
                raise RoomError(409, "no seat is open in this game")
            if any(row.name.casefold() == name.casefold() for row in room.seats if row.kind != "open"):
                raise RoomError(400, "another seat has that name")
            row = open_seats[0]
            token = secrets.token_urlsafe(24)
            self.store.take_seat(room.game_id, row.seat, name, hash_token(token))
            room.seq = self.store.add_action(room.game_id, row.seat, "join", name, None)
            room.seats[row.seat] = SeatRow(row.seat, name, "person", None, hash_token(token))
            room.game.players[row.seat].name = name
            self._told(room)
        return row.seat, token

    def say(self, room: Room, seat: int | None, text: str) -> Chat:
        """A chat message from a seat.

        :raises RoomError: 403 for an observer, 400 for an empty or too long message.
        """
        if seat is None:
            raise RoomError(403, "observers cannot chat")
        message = " ".join(str(text).split())
        if not message or len(message) > MAX_CHAT:
            raise RoomError(400, f"a chat message is 1 to {MAX_CHAT} characters")
        with room.lock:
            self._catch_up(room)
            seq = self.store.add_action(room.game_id, seat, "chat", message, None)
            room.seq = seq
            chat = Chat(seq, seat, room.seats[seat].name, message)
            room.chat.append(chat)
            self._told(room)
        return chat


def _stored(event: TableEvent) -> bool:
    """Whether an event is stored as an action of its own."""
    return isinstance(event, (Played, TimeUp, Challenged, EndAccepted, Resigned))
