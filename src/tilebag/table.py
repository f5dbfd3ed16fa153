"""The table: a game with its seats, people and bots, run turn by turn.

A :class:`Table` is everything between the rules (:class:`~tilebag.game.Game`)
and a screen: who sits where, whose action it is, the bots' moves and when
they challenge, the offer to challenge the play that ended the game, the
turn timer and the game clocks as they run, resigning, taking moves back
against bots, and saving and resuming. It never reads a keyboard or prints:
a front end (the line game, the full-screen game, a server's room) hands it
typed actions from a seat and is told what happened through typed events
(:class:`TableEvent`), which it can subscribe to (:meth:`Table.subscribe`)
or read back from :attr:`Table.log`.

A bot is anything with a ``name`` and a ``choose(game)`` method (:class:`Bot`):
the engine's bots are, and the table knows nothing else of them.

>>> from tilebag.game import Game
>>> from tilebag.engine.players import StaticPlayer
>>> game = Game(["alice", "Static bot"], seed=7, first=0)
>>> table = Table(game, {1: StaticPlayer("Static bot")})
>>> game.set_rack(0, "HNORXYZ")
>>> [type(e).__name__ for e in table.act(0, table.parse_action("8F HORN"))]
['Played']
>>> [type(e).__name__ for e in table.run_bots()]
['Played']
>>> table.seat_to_act()
0
>>> table.play(1, game.parse_move("-"))
Traceback (most recent call last):
...
tilebag.errors.IllegalMoveError: it is alice's turn, not Static bot's
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from tilebag.actions import AcceptEnd, Action, Challenge, PlayMove, Resign, TakeBack, TimeOut
from tilebag.clock import Now, TurnTimer
from tilebag.errors import Illegal, IllegalMoveError, InvalidMoveError, NothingToUndoError
from tilebag.game import Game, GameState
from tilebag.move import Move, MoveKind
from tilebag.record import Event, EventKind
from tilebag.table_events import (
    BotRefused,
    BotStalled,
    Challenged,
    EndAccepted,
    GameEnded,
    Played,
    Resigned,
    TableEvent,
    TimeUp,
    TurnMissed,
    Undone,
)
from tilebag.variants import recycled_words

MAX_START_ACTIONS = 16
"""Recycles and blank swaps a bot may make in one turn before it is made to
pass (a bot that kept swapping letters back and forth would never move)."""

# The actions a seat hands the table (:meth:`Table.act`) are those of
# :mod:`tilebag.actions`, offered here too.

Listener = Callable[[TableEvent], None]


# -- seats --------------------------------------------------------------------


@runtime_checkable
class Bot(Protocol):
    """What a table asks of a bot's seat: its name, and its move when it is to
    move. The engine's bots (:mod:`tilebag.engine.bots`) are bots; anything
    else with these two is one too."""

    name: str

    def choose(self, game: Game) -> Move:
        """The move to make (the table checks and plays it). A recycle or blank
        swap leaves the turn with the same player: the table asks again."""
        ...


@dataclass(frozen=True)
class SeatInfo:
    """Who sits at a seat: its name, a person or a bot (and the bot's kind),
    and whether it has coaching whatever the rules (practice).

    >>> from tilebag.game import Game
    >>> table = Table(Game(["ann", "ben"], seed=1), practice=[1])
    >>> table.seats
    (SeatInfo(name='ann', kind='person', bot=None, practice=False), SeatInfo(name='ben', kind='person', bot=None, practice=True))
    """

    name: str
    kind: Literal["person", "bot"]
    bot: str | None = None
    """The bot's kind (``static``, ``champion`` ...), when it says so."""
    practice: bool = False


def bot_names(kinds: Sequence[str]) -> list[str]:
    """Seat names for bots of these kinds, numbered when a kind repeats.

    >>> bot_names(["static", "greedy", "static"])
    ['Static bot 1', 'Greedy bot', 'Static bot 2']
    """
    counts = Counter(kinds)
    seen: Counter[str] = Counter()
    names = []
    for kind in kinds:
        seen[kind] += 1
        number = f" {seen[kind]}" if counts[kind] > 1 else ""
        names.append(f"{kind.capitalize()} bot{number}")
    return names


# -- the table ----------------------------------------------------------------


class Table:
    """A game and its seats: ``bots`` by seat (the other seats are people).

    :param now: where time is read, in seconds (:func:`time.monotonic`).
    :param practice: coaching whatever the rules (hints, word look-ups,
        undo against bots): ``True`` for every seat, or the seats that have
        it; the rules' open dictionary allows it to all.
    :param details: put the words each play formed in its :class:`Played`
        event (self-play, which reads no events, goes faster without).
    """

    def __init__(
        self,
        game: Game,
        bots: Mapping[int, Bot] | None = None,
        *,
        now: Now = time.monotonic,
        practice: bool | Collection[int] = False,
        details: bool = True,
    ) -> None:
        self.game = game
        self.details = details
        """Whether :class:`Played` events carry the words formed (a table of
        bots only, for self-play, can do without them)."""
        self.bots: dict[int, Bot] = dict(bots or {})
        for seat in self.bots:
            game._seat(seat)
        self.practice = practice is True
        """Every seat has coaching, whatever the rules."""
        self.practice_seats: frozenset[int] = frozenset(range(len(game.players))) if practice is True else frozenset(
            practice or ()
        )
        """The seats that have coaching whatever the rules."""
        self.timer = TurnTimer(now)
        self.now = now
        self.before_move: Callable[[Game, Move], None] | None = None
        """Called with the game and each checked move just before it is
        played (self-play counts bingos with it)."""
        self.log: list[TableEvent] = []
        """Every event so far, oldest first (its index is its sequence number)."""
        self._listeners: list[Listener] = []

    def __repr__(self) -> str:
        seats = ", ".join(f"{p.name}{' (bot)' if i in self.bots else ''}" for i, p in enumerate(self.game.players))
        return f"<Table {seats}: {self.game.state.value}>"

    # -- who is who -------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.game.players[seat].name

    def people(self) -> int:
        """How many seats are people."""
        return len(self.game.players) - len(self.bots)

    def is_bot(self, seat: int) -> bool:
        return seat in self.bots

    def seat_to_act(self) -> int:
        """The seat whose action the table waits for: the player to move,
        or while the play that ended the game may be challenged, the player
        who may challenge it."""
        return self.game.to_act

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        """Who sits at each seat, in seat order."""
        return tuple(self.seat_info(seat) for seat in range(len(self.game.players)))

    def seat_info(self, seat: int) -> SeatInfo:
        """Who sits at ``seat``."""
        bot = self.bots.get(seat)
        kind = getattr(bot, "kind", None)
        return SeatInfo(
            self.name(seat), "person" if bot is None else "bot", kind if isinstance(kind, str) else None,
            seat in self.practice_seats,
        )

    def coaching_allowed(self) -> bool:
        """True when hints, word look-ups and undo are allowed at every seat: in
        practice, or when the rules open the dictionary."""
        return self.practice or self.game.rules.open_dictionary

    def coaching_for(self, seat: int | None) -> bool:
        """True when ``seat`` may have hints and look words up (``None``, an
        observer, never): an open dictionary, or a seat in practice."""
        return seat is not None and (self.game.rules.open_dictionary or seat in self.practice_seats)

    def can_challenge(self) -> bool:
        """True when there is a play an opponent may challenge now."""
        return self.game.challengeable is not None and len(self.game.players) > 1 and self.game.challengeable.move is not None

    def challengeable_by(self, seat: int) -> Event | None:
        """The play ``seat`` may challenge now, if any (never its own)."""
        event = self.game.challengeable
        if self.can_challenge() and event is not None and event.player != seat:
            return event
        return None

    def play_text(self, event: Event) -> str:
        """A placement event as ``8F HORN (+14)``."""
        assert event.move is not None
        return f"{self.game.board.notation(event.move)} (+{event.score})"

    # -- events -------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every event from now on, as it happens."""
        self._listeners.append(listener)

    def events_since(self, seq: int) -> list[TableEvent]:
        """The events from sequence number ``seq`` on (to catch up)."""
        return self.log[seq:]

    def _emit(self, events: list[TableEvent], event: TableEvent) -> None:
        events.append(event)
        self.log.append(event)
        for listener in self._listeners:
            listener(event)

    def _ended(self, events: list[TableEvent]) -> None:
        if self.game.termination is not None and self.game.state is GameState.OVER:
            outcome = self.game.outcome()
            assert outcome is not None
            winner = outcome.winner
            self._emit(events, GameEnded(-1 if winner is None else winner, outcome))

    # -- time -----------------------------------------------------------------------

    def _turn_key(self) -> tuple[int, int]:
        """The turn being timed: the player to move, and the turns played
        before (a challenge or a lost turn does not start a new one)."""
        return (self.game.turn, sum(e.kind.is_turn for e in self.game.events))

    def start_timing(self) -> None:
        """Start the clock of the player to move when their turn is new."""
        self.timer.start(self._turn_key())

    def elapsed(self) -> float:
        """Seconds the player to move has taken since their turn, or their
        last action in it, began."""
        return self.timer.elapsed(self._turn_key())

    def over_time(self, seconds: float) -> bool:
        """True when the turn timer has run out for the player to move, who
        has taken ``seconds`` since their turn (or last action) began."""
        limit = self.game.rules.turn_time
        return limit is not None and self.game.turn_elapsed + seconds > limit

    # -- actions -------------------------------------------------------------------

    def _check_seat(self, seat: int, *, doing: str = "move") -> None:
        self.game._seat(seat)
        if self.game.state is GameState.OVER:
            raise IllegalMoveError(Illegal.GAME_OVER, f"the game is over: {self.game.result_text()}")
        expected = self.seat_to_act()
        if seat != expected:
            raise IllegalMoveError(
                Illegal.WRONG_PLAYER, f"it is {self.name(expected)}'s turn, not {self.name(seat)}'s"
            )
        if self.game.state is GameState.FINAL_CHALLENGE and doing == "move":
            raise IllegalMoveError(
                Illegal.GAME_OVER, "the game is over: challenge its last play or accept it"
            )

    def parse_action(self, text: str) -> Action:
        """The action ``text`` asks for, as a person types it: a move in GCG
        notation (a play ``8D WORD``, an exchange ``-AEU``, a pass ``-``, a
        variation's ``recycle G8 Z``...), ``challenge``, ``resign``,
        ``undo``, and while the play that ended the game may be challenged,
        ``accept`` (or ``-``, or nothing). Whether the seat may do it now is
        for :meth:`act` to say.

        >>> from tilebag.game import Game
        >>> table = Table(Game(["alice", "bob"], seed=1, first=0))
        >>> table.parse_action("8G WORD"), table.parse_action("Challenge")
        (PlayMove(move=Move.from_gcg('8G WORD'), seconds=None), Challenge(challenger=None, valid=None))

        :raises InvalidMoveError: for text that is no action.
        :raises IllegalMoveError: for a placement the board refuses as written
            (off the board, the first play away from the start square...).
        """
        words = text.strip()
        command = words.lower()
        if command in ("challenge", "c"):
            return Challenge()
        if command == "resign":
            return Resign()
        if command in ("undo", "take back"):
            return TakeBack()
        if command == "accept" or (self.game.state is GameState.FINAL_CHALLENGE and command in ("-", "")):
            return AcceptEnd()
        return PlayMove(self.game.parse_move(words))

    def act(self, seat: int, action: Action) -> list[TableEvent]:
        """Do what ``seat`` asks: the same as the method of each action
        (:meth:`play`, :meth:`challenge`, :meth:`accept`, :meth:`resign`,
        :meth:`undo`, :meth:`time_out`), with the same errors.

        >>> from tilebag.game import Game
        >>> table = Table(Game(["alice", "bob"], seed=1, first=0))
        >>> [type(e).__name__ for e in table.act(0, PlayMove(Move.pass_()))]
        ['Played']
        >>> table.act(0, Resign())[0]
        Resigned(seat=0)
        """
        if isinstance(action, PlayMove):
            return self.play(seat, action.move, seconds=action.seconds)
        if isinstance(action, Challenge):
            return self.challenge(seat)
        if isinstance(action, AcceptEnd):
            return self.accept(seat)
        if isinstance(action, Resign):
            return self.resign(seat)
        if isinstance(action, TakeBack):
            return self.undo(seat)
        if isinstance(action, TimeOut):
            return self.time_out(seat, seconds=action.seconds)
        raise TypeError(f"not a table action: {action!r}")

    def check(self, seat: int, move: Move) -> Move:
        """The move checked for ``seat`` without playing it.

        :raises IllegalMoveError: when it is not the seat's turn or the rules forbid it.
        """
        self._check_seat(seat)
        return self.game.check(move)

    def play(self, seat: int, move: Move, *, seconds: float | None = None) -> list[TableEvent]:
        """Play ``seat``'s move. ``seconds`` is the time it took (default:
        what the table's clock says since the turn, or its last action,
        began). Once the turn timer has run out, anything tried makes the
        turn a pass (:class:`TimeUp`).

        :raises IllegalMoveError: when it is not ``seat``'s turn or the rules
            forbid the move (a :class:`~tilebag.errors.PhonyError` in void
            challenge mode); nothing changes.
        :raises InvalidMoveError: for a move that is not one.
        """
        self._check_seat(seat)
        if seconds is None:
            seconds = self.elapsed()
        events: list[TableEvent] = []
        try:
            move = self.game.check(move)
        except (IllegalMoveError, InvalidMoveError):
            if self.over_time(seconds):
                self._time_up(events, seconds)
                return events
            raise
        self._play(events, move, seconds)
        return events

    def time_out(self, seat: int, *, seconds: float | None = None) -> list[TableEvent]:
        """The turn timer of ``seat``, the player to move, ran out: the turn
        is a pass. ``seconds``: what the turn took since it, or its last
        action, began (default: as the table's clock says)."""
        self._check_seat(seat)
        events: list[TableEvent] = []
        self._time_up(events, self.elapsed() if seconds is None else seconds)
        return events

    def _time_up(self, events: list[TableEvent], seconds: float) -> None:
        game = self.game
        me = game.turn
        lost_before = [p.lost_turns for p in game.players]
        limit = game.rules.turn_time
        assert limit is not None
        took = game.turn_elapsed + seconds
        game.time_out()
        self._emit(events, TimeUp(me, took, limit))
        self._missed(events, lost_before)
        self._ended(events)

    def _missed(self, events: list[TableEvent], lost_before: Sequence[int]) -> None:
        for i, p in enumerate(self.game.players):
            if p.lost_turns < lost_before[i]:
                self._emit(events, TurnMissed(i))

    def _play(self, events: list[TableEvent], move: Move, seconds: float | None) -> bool:
        """Play a checked move for the player to move; False (the turn is
        then a pass) when the turn timer had run out."""
        game = self.game
        me = game.turn
        details = self._details(move) if self.details else {"notation": ""}
        lost_before = [p.lost_turns for p in game.players] if any(p.lost_turns for p in game.players) else None
        if self.before_move is not None:
            self.before_move(game, move)
        try:
            score = game.push(move, seconds=seconds)
        except IllegalMoveError as err:
            if err.reason is not Illegal.TIME_UP:
                raise
            self._time_up(events, seconds or 0.0)
            return False
        total = game.players[me].score
        self._emit(events, Played(me, move, details.pop("notation"), score, total, seconds=seconds, **details))  # type: ignore[arg-type]
        if lost_before is not None:  # only a player who had turns to lose can miss one
            self._missed(events, lost_before)
        if not move.kind.ends_turn:
            self.timer.restart(self._turn_key())
        self._ended(events)
        return True

    def _details(self, move: Move) -> dict[str, object]:
        """What a checked move does, worked out before it is played."""
        game = self.game
        rules = game.rules
        details: dict[str, object] = {"notation": game.notation(move)}
        if move.kind is MoveKind.EXCHANGE:
            details["exchanged"] = len(move.tiles)
        elif move.kind is MoveKind.ANAGRAM:
            anagram = game.anagram_play(move)
            details["rearranged"] = game.alphabet.format_word(game.board.tiles[s] for s in anagram.squares)
            details["words"] = tuple((game.alphabet.format_word(w.tiles), w.score) for w in anagram.words)
            details["bingo"] = rules.bingo_bonus if len(anagram.tiles_used) >= rules.bingo_tiles else 0
        elif move.kind is MoveKind.PLACE:
            details["words"] = tuple((game.alphabet.format_word(w.tiles), w.score) for w in game.words(move))
            details["bingo"] = rules.bingo_bonus if len(move.placed()) >= rules.bingo_tiles else 0
        elif move.kind in (MoveKind.RECYCLE, MoveKind.BLANK_SWAP):
            details["replaced"] = game.board.at(move.row, move.col)
            details["square"] = game.layout.square_name(game.layout.square(move.row, move.col))
            if move.kind is MoveKind.RECYCLE:
                words = recycled_words(game.board, move.row, move.col, move.tiles[0])
                details["words"] = tuple((game.alphabet.format_word(w), 0) for w in words)
        return details

    def challenge(self, seat: int) -> list[TableEvent]:
        """``seat`` challenges the last play (any opponent of its player
        who is a person, at any time it may be challenged; a bot challenges
        on its own turn).

        :raises IllegalMoveError: when there is nothing to challenge, the
            challenge mode is void, or ``seat`` made the play.
        """
        game = self.game
        event = game.challengeable
        turn_before = game.turn
        lost_before = [p.lost_turns for p in game.players]
        result = game.challenge(seat)
        assert event is not None
        events: list[TableEvent] = []
        challenged = Challenged(
            seat, event.player, self.play_text(event), event.score, result, turn_before, tuple(game.scores)
        )
        self._emit(events, challenged)
        self._missed(events, lost_before)
        self._ended(events)
        return events

    def accept(self, seat: int) -> list[TableEvent]:
        """``seat`` accepts the play that ended the game: the game is over.

        :raises IllegalMoveError: when the game is not waiting for ``seat``
            to challenge its last play.
        """
        self._check_seat(seat, doing="accept")
        event = self.game.challengeable
        self.game.accept_end()
        assert event is not None
        events: list[TableEvent] = []
        self._emit(events, EndAccepted(seat, event.player, self.play_text(event)))
        self._ended(events)
        return events

    def resign(self, seat: int) -> list[TableEvent]:
        """``seat`` resigns: the game is over at once.

        :raises IllegalMoveError: when the game is over already.
        """
        self.game._seat(seat)
        if self.game.is_over():
            raise IllegalMoveError(Illegal.GAME_OVER, "the game is over already")
        self.game.resign(seat)
        events: list[TableEvent] = []
        self._emit(events, Resigned(seat))
        self._ended(events)
        return events

    def undo(self, seat: int) -> list[TableEvent]:
        """Take back the last move of ``seat`` and every bot move since, in a
        practice or open-dictionary game of one person against bots (people
        sharing a table would have to agree, and in a game that counts a
        move stands). The tiles the person cannot see are then dealt anew
        (:meth:`~tilebag.game.Game.redeal`), so the draws and the bots'
        racks seen before the undo are of no use.

        :raises IllegalMoveError: (:attr:`Illegal.UNDO_NOT_ALLOWED`) when
            the table does not allow it.
        :raises NothingToUndoError: when ``seat`` has not moved yet.
        """
        game = self.game
        game._seat(seat)
        if not self.bots or self.people() != 1 or seat in self.bots:
            raise IllegalMoveError(Illegal.UNDO_NOT_ALLOWED, "undo is for games of one person against bots")
        if not self.coaching_allowed():
            raise IllegalMoveError(
                Illegal.UNDO_NOT_ALLOWED,
                "a move stands in a game that counts; undo is for practice (--practice) or an open dictionary",
            )
        own = (EventKind.PLACE, EventKind.EXCHANGE, EventKind.PASS, EventKind.RECYCLE, EventKind.BLANK_SWAP)
        if not any(e.kind in own and e.player == seat for e in game.events):
            raise NothingToUndoError(f"nothing to undo: {self.name(seat)} has not moved yet")
        taken = 0
        while True:
            undone = game.pop()
            taken += 1
            if isinstance(undone, PlayMove) and game.turn == seat:
                break
        base = game.bag.seed
        game.redeal(seat, None if base is None else random.Random(f"{base}/undo").getrandbits(63))
        self.timer.reset()
        events: list[TableEvent] = []
        self._emit(events, Undone(seat, taken))
        return events

    # -- bots -------------------------------------------------------------------------

    def bot_to_act(self) -> Bot | None:
        """The bot whose action the table waits for, if it waits for one."""
        game = self.game
        if game.termination is None:
            return self.bots.get(game.turn)
        if game.state is GameState.OVER:
            return None
        return self.bots.get(self.seat_to_act())

    def bot_turn(self, *, chosen: tuple[Move, float] | None = None) -> list[TableEvent]:
        """What the bot whose action it is does: challenge the last play if
        it formed a word the lexicon does not accept; otherwise accept a
        play that ended the game, or choose its move and play it (with any
        recycles and blank swaps it starts with; each action is timed).

        ``chosen`` is the bot's first move when it was worked out already,
        elsewhere (a server lets its bots think in other processes), with
        the seconds that took; it is checked like any other."""
        game = self.game
        if game.termination is None:  # the short way while the game is on
            seat = game.turn
            bot = self.bots.get(seat)
        else:
            bot = self.bot_to_act()
            seat = self.seat_to_act()
        if bot is None:
            return []
        event = self.challengeable_by(seat)
        if event is not None and not self._words_by_graph(event) and self.phonies_of(event):
            return self.challenge(seat)
        if game.state is GameState.FINAL_CHALLENGE:
            return self.accept(seat)
        events: list[TableEvent] = []
        for actions in range(MAX_START_ACTIONS + 1):
            if chosen is not None and actions == 0:
                move, seconds = chosen
            else:
                started = self.now()
                move = bot.choose(game)
                seconds = max(0.0, self.now() - started)
            if not move.kind.ends_turn and actions == MAX_START_ACTIONS:
                self._emit(events, BotStalled(seat, actions))
                move = Move.pass_()
            try:
                move = game.check(move)
            except (IllegalMoveError, InvalidMoveError) as err:
                if self.over_time(seconds):
                    self._time_up(events, seconds)
                    return events
                self._emit(events, BotRefused(seat, move.gcg(game.alphabet, game.layout), str(err)))
                move = Move.pass_()
            if not self._play(events, move, seconds) or move.kind.ends_turn:
                return events
            if game.is_over() or game.turn != seat:
                return events
        return events

    def run_bots(self) -> list[TableEvent]:
        """Let the bots act until a person is to act or the game is over."""
        events: list[TableEvent] = []
        while self.bot_to_act() is not None:
            events += self.bot_turn()
        return events

    def _words_by_graph(self, event: Event) -> bool:
        """True when the play was a bot's of this table that finds its plays
        in the game's own word graph: it forms only words the game accepts,
        and there is nothing to look up."""
        bot = self.bots.get(event.player)
        engine = getattr(bot, "engine", None)
        if not callable(engine):
            return False
        try:
            return engine(self.game).kwg is getattr(self.game.lexicon, "kwg", None)
        except TypeError:
            return False

    def phonies_of(self, event: Event) -> list[str]:
        """The words of a placement on the board that the lexicon does not accept."""
        game = self.game
        return [game.alphabet.format_word(w) for w in game.words_of(event) if w not in game.lexicon]


__all__ = [
    "AcceptEnd",
    "Action",
    "Bot",
    "BotRefused",
    "BotStalled",
    "Challenge",
    "Challenged",
    "EndAccepted",
    "GameEnded",
    "PlayMove",
    "Played",
    "Resign",
    "Resigned",
    "SeatInfo",
    "Table",
    "TableEvent",
    "TakeBack",
    "TimeOut",
    "TimeUp",
    "TurnMissed",
    "Undone",
    "bot_names",
]
