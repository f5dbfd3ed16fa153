"""The game: players, racks, bag, board, turns, challenges and the end.

:class:`Game` applies the rules exactly. Every action is checked before
anything changes, so an illegal move raises and leaves the game as it was;
:meth:`Game.pop` undoes the last action exactly and returns it (a
:class:`~tilebag.actions.PlayMove`, :class:`~tilebag.actions.Challenge`,
:class:`~tilebag.actions.Resign`, :class:`~tilebag.actions.TimeOut` or
:class:`~tilebag.actions.AddPoints`).

The worked example of the rules (the first player already holds the tiles):

>>> game = Game(["alice", "bob"], seed=7, first=0)
>>> game.set_rack(0, "HNOR")
>>> game.push_gcg("8F HORN")
14
>>> game.set_rack(1, "AFM")
>>> game.push_gcg("H6 FA.M")
9
>>> game.scores
[14, 9]
>>> game.pop()
PlayMove(move=Move.from_gcg('H6 FA.M'), seconds=None)
>>> game.scores
[14, 0]

How it is kept: everything an action changes (the board, racks, bag,
scores and player to move, the turns to miss, the events, the clocks and
the end) is one private state; before each action the game puts a copy of
it on its stack with the action, and :meth:`Game.pop` takes the copy back.
The checks, the end of the game, the challenges and the setting up of
positions below all work on that state.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tilebag.actions import AddPoints, Challenge, GameAction, PlayMove, Resign, TimeOut
from tilebag.alphabet import BLANK, BLANK_BIT, Tile, load_alphabet, missing_tiles, rack_tile
from tilebag.bag import Bag
from tilebag.board import Board, Word
from tilebag.clock import GameClocks
from tilebag.errors import (
    GameOverError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    NothingToUndoError,
    PhonyError,
)
from tilebag.layout import load_layout
from tilebag.lexicon import Lexicon, default_lexicon
from tilebag.move import PLAYED_THROUGH, Move, MoveKind
from tilebag.outcome import ChallengeResult, GameState, Outcome, Player, Termination
from tilebag.position import Position
from tilebag.record import Event, EventKind, GameRecord, PlayerInfo
from tilebag.rules import ChallengeMode, EndAdjustment, Rules, RulesError
from tilebag.variants import AnagramPlay, apply_anagram, check_anagram, check_blank_swap, check_recycle

if TYPE_CHECKING:
    from tilebag.engine import Engine, LegalMoves


@dataclass(slots=True)
class _State:
    """Everything an action changes, so everything :meth:`Game.pop` puts
    back: a snapshot is a :meth:`copy`, and undoing is assigning it back.
    The position and the clocks also carry numbers of the rules (rack size,
    bingo, timers): :attr:`Game.rules` changes them in every state kept."""

    position: Position
    """The board, racks, bag, scores, scoreless turns and player to move."""
    lost_turns: list[int]
    """Turns each player must still miss (failed double challenges)."""
    events: list[Event]
    """What happened, oldest first. An event is never changed in place, only
    replaced, so copies share them."""
    clocks: GameClocks
    challengeable: int | None = None
    """Index in :attr:`events` of the play that may still be challenged."""
    termination: Termination | None = None
    went_out: int | None = None
    finish_winner: int | None = None
    resigned: int | None = None
    end_index: int | None = None
    """Where the end-of-game adjustments are in :attr:`events` (``None``
    while the game is on); later challenge bonuses go before them."""
    end_count: int = 0
    """How many end-of-game adjustments there are."""
    end_accepted: bool = False
    """True once no one challenged the play that ended the game."""

    def copy(self) -> _State:
        """An independent copy (sharing the events, which are replaced, never changed)."""
        return _State(
            self.position.copy(),
            self.lost_turns.copy(),
            self.events.copy(),
            self.clocks.copy(),
            self.challengeable,
            self.termination,
            self.went_out,
            self.finish_winner,
            self.resigned,
            self.end_index,
            self.end_count,
            self.end_accepted,
        )


@dataclass(slots=True)
class _Checked:
    """What :meth:`Game.check` found for a move, kept while the game is as it was."""

    key: tuple[object, ...]
    move: Move
    anagram: AnagramPlay | None
    words: list[Word] | None


class _Current:
    """Where a game's state is now, for its players to read: kept apart
    from the game so that the players do not refer back to it (a game that
    is done with is then freed at once, with no reference cycle left for
    the garbage collector, which self-play's thousands of games would feel)."""

    __slots__ = ("state",)

    def __init__(self, state: _State) -> None:
        self.state = state


class _Seat(Player):
    """One of a game's players: a view of its seat in the game's state as
    it is now (an undo puts another state in place; the view follows)."""

    __slots__ = ("_current", "_index")

    def __init__(self, current: _Current, name: str, index: int) -> None:
        super().__init__(name)
        self._current = current
        self._index = index

    @property
    def score(self) -> int:
        return self._current.state.position.scores[self._index]

    @score.setter
    def score(self, value: int) -> None:
        self._current.state.position.scores[self._index] = value

    @property
    def rack(self) -> list[Tile]:
        return self._current.state.position.racks[self._index]

    @rack.setter
    def rack(self, tiles: list[Tile]) -> None:
        self._current.state.position.racks[self._index] = tiles

    @property
    def lost_turns(self) -> int:
        return self._current.state.lost_turns[self._index]

    @lost_turns.setter
    def lost_turns(self, count: int) -> None:
        self._current.state.lost_turns[self._index] = count


class Game:
    """A game in progress: 1 to 4 players, a bag seeded for reproducibility,
    and the rules (see :class:`tilebag.rules.Rules`).

    ``players`` is a number of players or a list of names, in seat order.
    ``first`` picks who plays first; by default the players draw for it as
    the rules say (:attr:`first_draw` keeps the tiles they drew).
    """

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        *,
        rules: Rules | None = None,
        lexicon: Lexicon | None = None,
        seed: int | None = None,
        first: int | None = None,
    ) -> None:
        self._rules = rules or Rules()
        names = [f"player{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if not self.rules.min_players <= len(names) <= self.rules.max_players:
            raise RulesError(
                f"{len(names)} players: the rules allow {self.rules.min_players} to {self.rules.max_players}"
            )
        if self.rules.end_adjustment is EndAdjustment.DOUBLE and len(names) != 2:
            raise RulesError("doubled end-of-game rack points only make sense with 2 players")
        self.alphabet = load_alphabet(self.rules.alphabet)
        self.layout = load_layout(self.rules.layout)
        self._lexicon = lexicon
        position = Position(
            Board(self.layout, self.alphabet),
            [[] for _ in names],
            Bag(self.alphabet, seed),
            rack_size=self.rules.rack_size,
            bingo_tiles=self.rules.bingo_tiles,
            bingo_bonus=self.rules.bingo_bonus,
        )
        self.first_draw: list[list[Tile | None]] = []
        if first is None:
            first, self.first_draw = position.bag.draw_for_first(len(names))
        elif not 0 <= first < len(names):
            raise ValueError(f"first player {first} is not one of the {len(names)} seats")
        self.first = first
        position.turn = first
        for i in range(len(names)):
            seat = (first + i) % len(names)
            position.racks[seat] = position.bag.draw(self.rules.rack_size)
        self._state = _State(position, [0] * len(names), [], GameClocks(self.rules, len(names)))
        """Everything an action changes (see :meth:`_restore`)."""
        self._current = _Current(self._state)
        self._stack: list[tuple[GameAction, _State]] = []
        """Each action played, with the state before it."""
        self.players: list[Player] = [_Seat(self._current, name, seat) for seat, name in enumerate(names)]
        """The players in seat order: each shows its seat as the game is now."""
        self.finish_targets = self.rules.finish_targets(len(names))
        """Finish Line: each seat's target score (``None`` in other games)."""
        self._engine: Engine | None = None
        self._last_check: _Checked | None = None
        self._changes = 0
        """Changes made outside of actions (racks set, the bag mixed, new rules
        or lexicon): a check made before one no longer holds."""

    # -- views ----------------------------------------------------------

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"{self.player.name} to move"
        return f"<Game {' v '.join(p.name for p in self.players)}: {self.scores}, {state}>"

    @property
    def rules(self) -> Rules:
        """The rules the game is played by."""
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self._rules = rules
        self._changes += 1
        for state in self._states():
            state.clocks.rules = rules
            position = state.position
            position.rack_size, position.bingo_tiles, position.bingo_bonus = rules.rack_size, rules.bingo_tiles, rules.bingo_bonus

    def _states(self) -> list[_State]:
        """The state now and every state :meth:`pop` can go back to."""
        return [self._state, *(before for _, before in self._stack)]

    @property
    def board(self) -> Board:
        """The tiles on the board."""
        return self._state.position.board

    @property
    def bag(self) -> Bag:
        """The tiles not yet drawn."""
        return self._state.position.bag

    @bag.setter
    def bag(self, bag: Bag) -> None:
        self._state.position.bag = bag

    @property
    def turn(self) -> int:
        """Index of the player to move."""
        return self._state.position.turn

    @turn.setter
    def turn(self, seat: int) -> None:
        self._state.position.turn = seat

    @property
    def scoreless(self) -> int:
        """Consecutive scoreless turns so far."""
        return self._state.position.scoreless

    @scoreless.setter
    def scoreless(self, count: int) -> None:
        self._state.position.scoreless = count

    @property
    def events(self) -> list[Event]:
        """What happened so far, oldest first (the record's events)."""
        return self._state.events

    @property
    def termination(self) -> Termination | None:
        """How the game ended (``None`` while it is on)."""
        return self._state.termination

    @property
    def went_out(self) -> int | None:
        """The player who went out, if one did."""
        return self._state.went_out

    @property
    def finish_winner(self) -> int | None:
        """Finish Line: the player who reached their target."""
        return self._state.finish_winner

    @property
    def resigned(self) -> int | None:
        """The player who resigned (:meth:`resign`), if one did."""
        return self._state.resigned

    @property
    def clocks(self) -> GameClocks:
        """The time each player has used (as told to :meth:`push`) and the
        turn in progress has taken."""
        return self._state.clocks

    @property
    def clock_used(self) -> list[float]:
        """Seconds each player has used (as told to :meth:`push`)."""
        return self._state.clocks.used

    @property
    def turn_elapsed(self) -> float:
        """Seconds the turn in progress has taken so far (recycles and blank
        swaps included)."""
        return self._state.clocks.turn_elapsed

    @property
    def lexicon(self) -> Lexicon:
        """The lexicon that judges challenges (the default one unless given)."""
        if self._lexicon is None:
            self._lexicon = default_lexicon()
        return self._lexicon

    @lexicon.setter
    def lexicon(self, lexicon: Lexicon | None) -> None:
        """Change the lexicon (``None``: the default one, loaded when first
        needed), e.g. for a game resumed from a record."""
        self._lexicon = lexicon
        self._engine = None
        self._changes += 1

    @property
    def scores(self) -> list[int]:
        """Each player's score, in seat order (a copy)."""
        return list(self._state.position.scores)

    @property
    def player(self) -> Player:
        """The player to move."""
        return self.players[self._state.position.turn]

    def rack(self, player: int | None = None) -> list[Tile]:
        """A copy of a player's rack (the player to move by default).

        :raises IllegalMoveError: when there is no such player.
        """
        return list(self._state.position.racks[self._seat(player)])

    def _seat(self, player: int | None) -> int:
        """A player's index (the player to move for ``None``), checked.

        :raises IllegalMoveError: (:attr:`Illegal.WRONG_PLAYER`) when the
            game has no such player.
        """
        if player is None:
            return self._state.position.turn
        if not 0 <= player < len(self.players):
            raise IllegalMoveError(
                Illegal.WRONG_PLAYER,
                f"there is no player {player}: the game's players are 0 to {len(self.players) - 1}",
            )
        return player

    @property
    def engine(self) -> Engine:
        """The engine that finds the plays of this game's lexicon and rules
        (made when first asked for, and shared by every game on the same
        lexicon and rules; set it to use other leave values or another core).

        :raises TypeError: for a lexicon without a word graph.
        """
        engine = self._engine
        if engine is None or (engine.rules is not self.rules and engine.rules != self.rules):
            from tilebag.engine import Engine

            engine = self._engine = Engine.for_lexicon(self.lexicon, self.rules)
        return engine

    @engine.setter
    def engine(self, engine: Engine | None) -> None:
        self._engine = engine

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the player to move, a view worked out when asked
        (``len``, ``in``, iteration, ``count()``; see :class:`tilebag.engine.LegalMoves`)."""
        from tilebag.engine import LegalMoves

        return LegalMoves(self)

    def position(self) -> Position:
        """A copy of the game's state as a light :class:`~tilebag.position.Position`
        (board, racks, bag, scores, scoreless turns, player to move) for a
        search to make and unmake moves on; the game does not change.

        >>> game = Game(2, seed=1)
        >>> position = game.position()
        >>> position.scores, position.turn == game.turn, sorted(position.racks[0]) == sorted(game.rack(0))
        ([0, 0], True, True)
        """
        return self._state.position.copy()

    def unseen(self, player: int | None = None) -> list[Tile]:
        """Tiles the player cannot see: the bag and the other racks, sorted."""
        me = self._seat(player)
        position = self._state.position
        tiles = position.bag.tiles()
        for i, rack in enumerate(position.racks):
            if i != me:
                tiles.extend(rack)
        return sorted(tiles)

    def is_over(self) -> bool:
        """True once the game has ended (even while its last play may still
        be challenged: see :attr:`state`)."""
        return self._state.termination is not None

    @property
    def state(self) -> GameState:
        """Playing, waiting for the final challenge, or over.

        >>> game = Game(["alice", "bob"], seed=7, first=0)
        >>> game.state
        <GameState.PLAYING: 'playing'>
        >>> game.resign(0)
        >>> game.state
        <GameState.OVER: 'over'>
        """
        if self._state.termination is None:
            return GameState.PLAYING
        event = self.challengeable
        if not self._state.end_accepted and event is not None and event.move is not None and len(self.players) > 1:
            return GameState.FINAL_CHALLENGE
        return GameState.OVER

    @property
    def final_challenger(self) -> int | None:
        """The player who may challenge the play that ended the game (the
        next one after its player), while :attr:`state` waits for it."""
        event = self.challengeable
        if self.state is not GameState.FINAL_CHALLENGE or event is None:
            return None
        return (event.player + 1) % len(self.players)

    @property
    def to_act(self) -> int:
        """The player whose action the game waits for: the player to move, or
        while the play that ended the game may be challenged, the one who may
        challenge it.

        >>> Game(["alice", "bob"], seed=7, first=1).to_act
        1
        """
        if self.termination is None:
            return self.turn
        challenger = self.final_challenger
        return self.turn if challenger is None else challenger

    def accept_end(self) -> None:
        """Accept the play that ended the game: no one challenges it, and
        the game is over (:attr:`state` becomes :attr:`GameState.OVER`).
        :meth:`pop` takes back the play, not the acceptance alone.

        :raises IllegalMoveError: when the game is not waiting for its final challenge.
        """
        if self.state is not GameState.FINAL_CHALLENGE:
            raise IllegalMoveError(Illegal.NOTHING_TO_CHALLENGE, "there is no game-ending play waiting to be accepted")
        self._state.end_accepted = True

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``. The highest score
        wins; a tie goes to the higher score before the rack adjustments; if
        that is level too, it is a draw."""
        state = self._state
        if state.termination is None:
            return None
        scores = tuple(state.position.scores)
        before = self.scores_before_adjustments()
        if state.termination is Termination.FINISH_LINE and state.finish_winner is not None:
            return Outcome(state.termination, (state.finish_winner,), scores, before)
        if state.termination is Termination.RESIGNED and state.resigned is not None:
            others = [i for i in range(len(scores)) if i != state.resigned]
            best = max((scores[i] for i in others), default=0)
            winners = tuple(i for i in others if scores[i] == best)
            return Outcome(state.termination, winners, scores, before, resigned=state.resigned)
        best = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == best]
        tiebreak = False
        if len(leaders) > 1:
            tiebreak = True
            best_before = max(before[i] for i in leaders)
            leaders = [i for i in leaders if before[i] == best_before]
        return Outcome(state.termination, tuple(leaders), scores, before, tiebreak, state.went_out)

    def scores_before_adjustments(self) -> tuple[int, ...]:
        """Scores without the end-of-game rack adjustments (the tie-break)."""
        scores = self.scores
        for e in self._end_events():
            scores[e.player] -= e.score
        return tuple(scores)

    def _end_events(self) -> list[Event]:
        state = self._state
        if state.end_index is None:
            return []
        return state.events[state.end_index : state.end_index + state.end_count]

    def result_text(self) -> str:
        """One line saying who won and why, e.g. ``alice wins 420-390 (alice
        went out)`` or ``bob wins 180-212 (alice resigned)``."""
        outcome = self.outcome()
        if outcome is None:
            return "the game is still on"
        if len(outcome.scores) == 2 and min(outcome.scores) >= 0:
            score_text = "-".join(str(s) for s in outcome.scores)
        else:
            score_text = ", ".join(f"{p.name} {s}" for p, s in zip(self.players, outcome.scores, strict=True))
        if outcome.termination is Termination.FINISH_LINE and self.finish_targets is not None:
            winner = outcome.winners[0]
            why = f"{self.players[winner].name} reached the Finish Line target of {self.finish_targets[winner]}"
        elif outcome.termination is Termination.WENT_OUT and outcome.went_out is not None:
            why = f"{self.players[outcome.went_out].name} went out"
        elif outcome.termination is Termination.RESIGNED and outcome.resigned is not None:
            why = f"{self.players[outcome.resigned].name} resigned"
            if not outcome.winners:
                return f"{why} ({score_text})"
        else:
            why = f"{self.rules.scoreless_limit(len(self.players))} scoreless turns in a row"
        if outcome.tiebreak and outcome.winner is not None:
            why += ", tie broken on the score before the racks were counted"
        if outcome.winner is None:
            return f"draw {score_text} ({why})"
        return f"{self.players[outcome.winner].name} wins {score_text} ({why})"

    # -- notation -----------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """A move from GCG notation, resolved against the board: letters
        written out on squares that already hold them become played-through.

        :raises InvalidMoveError: when the text is not a move.
        :raises IllegalMoveError: when the placement conflicts with the board.
        """
        move = Move.from_gcg(text, self.alphabet, self.layout)
        if move.kind is MoveKind.PLACE:
            move = self.board.check_placement(move, first_play_min_tiles=self.rules.min_first_word)
        return move

    def notation(self, move: Move) -> str:
        """GCG notation with played-through letters in parentheses."""
        return self.board.notation(move)

    def push_gcg(self, text: str) -> int:
        """Parse and play a move; returns its score."""
        return self.push(self.parse_move(text))

    # -- checking -------------------------------------------------------

    def check(self, move: Move) -> Move:
        """Check a move for the player to move without playing it, and return
        it normalised.

        :raises IllegalMoveError: naming the broken rule (a :class:`PhonyError`
            in void challenge mode).
        """
        return self._checked(move)[0]

    def _check_key(self) -> tuple[object, ...]:
        """What a check depends on: a check made under the same key still holds."""
        position = self._state.position
        return (len(self._stack), self._changes, position.turn, position.board.tile_count, len(position.bag))

    def _checked(self, move: Move) -> tuple[Move, AnagramPlay | None]:
        """:meth:`check`, with an anagram play's analysis. The result is
        kept with what the check found (a placement's words), so that
        pushing or describing the move it returned checks nothing again."""
        last = self._last_check
        if last is not None and last.move is move and last.key == self._check_key():
            return move, last.anagram
        normal, anagram = self._check_now(move)
        if anagram is not None:
            words: list[Word] | None = anagram.words
        elif normal.kind is MoveKind.PLACE:
            words = self.board.words(normal)
        else:
            words = None
        self._last_check = _Checked(self._check_key(), normal, anagram, words)
        return normal, anagram

    def _found(self, move: Move) -> _Checked | None:
        """What the last check found, when it was of this very move, now."""
        last = self._last_check
        if last is not None and last.move is move and last.key == self._check_key():
            return last
        return None

    def _check_now(self, move: Move) -> tuple[Move, AnagramPlay | None]:
        """Check a move against the rules as the game is now: the tiles, the
        placement, the rack, the variations' actions and, in void challenge
        mode, the words."""
        if self._state.termination is not None:
            raise GameOverError(f"the game is over: {self.result_text()}")
        position = self._state.position
        rack = position.racks[position.turn]
        if move.kind is MoveKind.PASS:
            return move, None
        if move.kind is MoveKind.EXCHANGE:
            if not move.tiles:
                return Move.pass_(), None
            self._check_tiles(move.tiles, allow_blank=True)
            if any(t & BLANK_BIT for t in move.tiles):
                raise InvalidMoveError("an exchange names tiles as they are on the rack: write a blank as ?")
            text = move.gcg(self.alphabet, self.layout)
            lacking = missing_tiles(move.tiles, rack)
            if lacking:
                raise IllegalMoveError(
                    Illegal.TILE_NOT_ON_RACK,
                    f"{text}: the rack {self.alphabet.format_rack(rack)} has no "
                    f"{self.alphabet.format_rack(lacking)} to exchange",
                )
            needed = max(self.rules.exchange_min_bag, len(move.tiles))
            if len(position.bag) < needed:
                raise IllegalMoveError(
                    Illegal.BAG_TOO_SMALL,
                    f"{text}: exchanging needs at least {needed} tiles in the bag, it holds {len(position.bag)}",
                )
            return move, None
        if move.kind is MoveKind.RECYCLE:
            return self._checked_recycle(move), None
        if move.kind is MoveKind.BLANK_SWAP:
            if not self.rules.blank_swap:
                raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{self.notation(move)}: blank swap is not in these rules")
            check_blank_swap(position.board, move, rack)
            return move, None
        if move.kind is MoveKind.ANAGRAM:
            return move, self._checked_anagram(move)
        self._check_tiles(move.tiles, allow_blank=False)
        normal = position.board.check_placement(move, first_play_min_tiles=self.rules.min_first_word)
        lacking = missing_tiles(normal.tiles_used, rack)
        if lacking:
            raise IllegalMoveError(
                Illegal.TILE_NOT_ON_RACK,
                f"{self.notation(normal)}: the rack {self.alphabet.format_rack(rack)} has no "
                f"{self.alphabet.format_rack(lacking)}",
            )
        if self.rules.challenge is ChallengeMode.VOID:
            phonies = [self.alphabet.format_word(w.tiles) for w in position.board.words(normal) if w.tiles not in self.lexicon]
            if phonies:
                listed = ", ".join(phonies)
                raise PhonyError(phonies, f"{self.notation(normal)}: not in the {self.lexicon.name} lexicon: {listed}")
        return normal, None

    def _check_tiles(self, tiles: Sequence[Tile], *, allow_blank: bool) -> None:
        size = self.alphabet.size
        for t in tiles:
            letter = t & ~BLANK_BIT
            ok = (t == BLANK and allow_blank) or (t == PLAYED_THROUGH and not allow_blank) or 0 < letter < size
            if not ok or t < 0 or t > (BLANK_BIT | (size - 1)):
                raise InvalidMoveError(f"tile code {t!r} is not a tile of the {self.alphabet.name} tile set")

    def _check_rack_holds(self, text: str, tiles: Sequence[Tile]) -> None:
        rack = self._state.position.racks[self._state.position.turn]
        lacking = missing_tiles(tiles, rack)
        if lacking:
            raise IllegalMoveError(
                Illegal.TILE_NOT_ON_RACK,
                f"{text}: the rack {self.alphabet.format_rack(rack)} has no {self.alphabet.format_rack(lacking)}",
            )

    def _checked_recycle(self, move: Move) -> Move:
        text = self.notation(move)
        if not self.rules.recycle:
            raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{text}: recycling is not in these rules")
        self._check_tiles(move.tiles, allow_blank=False)
        words = check_recycle(self.board, move)
        self._check_rack_holds(text, move.tiles)
        phonies = [self.alphabet.format_word(w) for w in words if w not in self.lexicon]
        if phonies:
            raise PhonyError(
                phonies,
                f"{text}: a recycle must leave acceptable words; not in the {self.lexicon.name} lexicon: "
                + ", ".join(phonies),
            )
        return move

    def _checked_anagram(self, move: Move) -> AnagramPlay:
        text = self.notation(move)
        if not self.rules.anagram:
            raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{text}: anagram plays are not in these rules")
        self._check_tiles(move.tiles, allow_blank=False)
        if self.board.is_empty():
            raise IllegalMoveError(Illegal.NOT_AN_ANAGRAM, f"{text}: the board has no word to rearrange yet")
        play = check_anagram(self.board, move, bingo_tiles=self.rules.bingo_tiles, bingo_bonus=self.rules.bingo_bonus)
        self._check_rack_holds(text, play.tiles_used)
        if self.rules.challenge is ChallengeMode.VOID:
            phonies = [self.alphabet.format_word(w.tiles) for w in play.words if w.tiles not in self.lexicon]
            if phonies:
                raise PhonyError(phonies, f"{text}: not in the {self.lexicon.name} lexicon: {', '.join(phonies)}")
        return play

    def is_legal(self, move: Move) -> bool:
        """True when :meth:`check` accepts the move."""
        try:
            self.check(move)
        except IllegalMoveError:
            return False
        except InvalidMoveError:
            return False
        return True

    def words(self, move: Move) -> list[Word]:
        """The words a (checked) placement forms, with their scores."""
        found = self._found(move)
        if found is not None and found.words is not None:
            return list(found.words)
        return self.board.words(move)

    def anagram_play(self, move: Move) -> AnagramPlay:
        """What an anagram play does now: the word it rearranges, the words
        it forms, its score and the tiles it uses (from its check, when it
        is the move :meth:`check` returned; else checked now).

        :raises IllegalMoveError: when the move is not an anagram play the
            board allows.
        """
        found = self._found(move)
        if found is not None and found.anagram is not None:
            return found.anagram
        rules = self.rules
        return check_anagram(self.board, move, bingo_tiles=rules.bingo_tiles, bingo_bonus=rules.bingo_bonus)

    def phonies(self, move: Move) -> list[str]:
        """The words of a checked placement (or anagram play) that the lexicon
        does not accept."""
        if move.kind is MoveKind.ANAGRAM:
            words = self.anagram_play(move).words
        else:
            words = self.words(move)
        return [self.alphabet.format_word(w.tiles) for w in words if w.tiles not in self.lexicon]

    def score(self, move: Move) -> int:
        """What a move would score now (0 for an exchange or a pass).

        :raises IllegalMoveError: when the placement does not fit the board.
        """
        if move.kind is MoveKind.ANAGRAM:
            return self.anagram_play(move).score
        if move.kind is not MoveKind.PLACE:
            return 0
        normal = self.board.check_placement(move, first_play_min_tiles=self.rules.min_first_word)
        return self.board.score(normal, bingo_tiles=self.rules.bingo_tiles, bingo_bonus=self.rules.bingo_bonus)

    # -- the stack of actions -------------------------------------------

    def pop(self) -> GameAction:
        """Undo the last action and return it: a
        :class:`~tilebag.actions.PlayMove` (the move as played, and the
        seconds it was told to take), a :class:`~tilebag.actions.TimeOut`, a
        :class:`~tilebag.actions.Resign` (who resigned), a
        :class:`~tilebag.actions.Challenge` (the challenger and the ruling)
        or :class:`~tilebag.actions.AddPoints`. The game is exactly as it was
        before it.

        >>> game = Game(["alice", "bob"], seed=7, first=0)
        >>> game.set_rack(0, "HNOR")
        >>> game.push_gcg("8F HORN")
        14
        >>> game.challenge(1, valid=True)
        ChallengeResult(valid=True, words=('HORN',), phonies=(), points=0, lost_turn=True)
        >>> game.pop()
        Challenge(challenger=1, valid=True)
        >>> game.pop()
        PlayMove(move=Move.from_gcg('8F HORN'), seconds=None)
        >>> game.scores, game.turn
        ([0, 0], 0)

        :raises NothingToUndoError: (an :class:`IndexError`) when there is
            nothing to undo.
        """
        if not self._stack:
            raise NothingToUndoError("nothing to undo: no move has been played yet")
        action, before = self._stack.pop()
        self._restore(before)
        return action

    @property
    def move_stack(self) -> list[GameAction]:
        """The actions played so far, oldest first (what :meth:`pop` undoes,
        last first).

        >>> game = Game(["alice", "bob"], seed=7, first=0)
        >>> game.push(Move.pass_())
        0
        >>> game.move_stack
        [PlayMove(move=Move.from_gcg('-'), seconds=None)]
        """
        return [action for action, _ in self._stack]

    def _restore(self, state: _State) -> None:
        """Put a state in place: the game's, and the one its players show."""
        self._state = self._current.state = state

    def _save(self, action: GameAction) -> _State:
        """Put a copy of the state on the stack before ``action`` changes
        it, and return the state to change."""
        state = self._state
        self._stack.append((action, state.copy()))
        return state

    # -- playing --------------------------------------------------------

    def push(self, move: Move, *, seconds: float | None = None) -> int:
        """Play a move for the player to move and return what it scored.

        A recycle or a blank swap (variations) starts the turn and leaves it
        with the same player, who then plays, exchanges or passes.

        :param seconds: the time the player took for it, counted against
            the turn timer and the game clock when the rules have them.
        :raises IllegalMoveError: when the rules forbid it; nothing changes.
            When the turn timer has run out the reason is
            :attr:`Illegal.TIME_UP`: the turn is a pass (:meth:`time_out`).
        """
        move, anagram = self._checked(move)
        self._check_time(move, seconds)
        found = self._found(move)
        state = self._save(PlayMove(move, seconds))
        position = state.position
        me = position.turn
        state.clocks.spend(me, seconds)
        rack = position.racks[me]
        rack_before = tuple(rack)
        if not move.kind.ends_turn:
            self._start_of_turn(move, rack)
            kind = EventKind.RECYCLE if move.kind is MoveKind.RECYCLE else EventKind.BLANK_SWAP
            self._append(kind, me, 0, rack=rack_before, move=move)
            state.challengeable = None
            return 0
        score = 0
        if move.kind in (MoveKind.PLACE, MoveKind.ANAGRAM):
            if anagram is not None:
                score = anagram.score
                apply_anagram(position.board, anagram)
                for t in anagram.tiles_used:
                    rack.remove(rack_tile(t))
                rack.extend(position.bag.draw(self.rules.rack_size - len(rack)))
                position.scores[me] += score
                position.scoreless = 0 if score > 0 else position.scoreless + 1
                formed = anagram.words
            else:
                formed = found.words if found is not None and found.words is not None else position.board.words(move)
                score = sum(w.score for w in formed)
                if len(move.placed()) >= self.rules.bingo_tiles:
                    score += self.rules.bingo_bonus
                position.make(move, score, pass_turn=False)
            self._append(EventKind.PLACE, me, score, rack=rack_before, move=move, words=tuple(w.tiles for w in formed))
            state.challengeable = len(state.events) - 1
        else:
            position.make(move, pass_turn=False)
            self._append(EventKind.EXCHANGE if move.kind is MoveKind.EXCHANGE else EventKind.PASS, me, 0, rack=rack_before, move=move)
            state.challengeable = None
        state.clocks.end_turn()
        if self.finish_targets is not None and score > 0 and position.scores[me] >= self.finish_targets[me]:
            state.finish_winner = me
            self._finish(Termination.FINISH_LINE, None)
        elif move.kind in (MoveKind.PLACE, MoveKind.ANAGRAM) and not rack and not len(position.bag):
            self._finish(Termination.WENT_OUT, me)
        else:
            self._next_turn()
        return score

    def time_out(self, seconds: float | None = None) -> None:
        """The turn timer ran out: the turn of the player to move is a pass
        (a recycle or blank swap already made this turn stands).

        :param seconds: the time the turn took since its last action
            (default: what was left of the turn timer).
        :raises GameOverError: when the game is over.
        """
        if self._state.termination is not None:
            raise GameOverError(f"the game is over: {self.result_text()}")
        if seconds is None:
            seconds = self.clocks.turn_left()
        state = self._save(TimeOut(seconds))
        me = state.position.turn
        state.clocks.spend(me, seconds)
        self._append(EventKind.TIME_OUT, me, 0, rack=state.position.racks[me], move=Move.pass_())
        state.challengeable = None
        state.clocks.end_turn()
        state.position.scoreless += 1
        self._next_turn()

    def resign(self, player: int | None = None) -> None:
        """A player resigns (the player to move by default): the game ends at
        once. No racks are counted, nor any time over the game clock; the
        highest scorer among the others wins (a draw between them when they
        are level), and the player who resigned never does, even when ahead.
        Undone by :meth:`pop` like any action.

        >>> game = Game(["alice", "bob"], seed=7, first=0)
        >>> game.set_rack(0, "HNOR")
        >>> game.push_gcg("8F HORN")
        14
        >>> game.resign(0)
        >>> game.result_text()
        'bob wins 14-0 (alice resigned)'
        >>> game.pop()
        Resign(player=0)
        >>> game.is_over(), game.turn
        (False, 1)

        :raises GameOverError: when the game is already over (it is unchanged).
        :raises IllegalMoveError: when there is no such player.
        """
        if self._state.termination is not None:
            raise GameOverError(f"cannot resign: the game is over ({self.result_text()})")
        me = self._state.position.turn if player is None else player
        if not 0 <= me < len(self.players):
            raise IllegalMoveError(
                Illegal.WRONG_PLAYER, f"there is no player {me + 1} to resign: the game has {len(self.players)}"
            )
        state = self._save(Resign(me))
        self._append(EventKind.RESIGN, me, 0)
        state.challengeable = None
        state.clocks.end_turn()
        state.resigned = me
        self._finish(Termination.RESIGNED, None)

    def _check_time(self, move: Move, seconds: float | None) -> None:
        if seconds is None:
            return
        if seconds < 0:
            raise ValueError(f"seconds must be at least 0, got {seconds}")
        limit = self.rules.turn_time
        if limit is not None and self.clocks.over_turn_time(seconds):
            raise IllegalMoveError(
                Illegal.TIME_UP,
                f"{self.notation(move)}: the turn took {self.turn_elapsed + seconds:.0f} s, "
                f"the turn timer allows {limit:g} s: the turn is a pass",
            )

    def _start_of_turn(self, move: Move, rack: list[Tile]) -> None:
        """Apply a checked recycle or blank swap from the rack of the player to move."""
        board = self._state.position.board
        square = self.layout.square(move.row, move.col)
        old = board.tiles[square]
        if move.kind is MoveKind.RECYCLE:
            new = move.tiles[0]
            rack.remove(rack_tile(new))
            rack.append(rack_tile(old))
        else:
            new = old & ~BLANK_BIT
            rack.remove(new)
            rack.append(BLANK)
        board.tiles[square] = new

    def _append(
        self,
        kind: EventKind,
        player: int,
        score: int,
        *,
        rack: Sequence[Tile] | None = None,
        move: Move | None = None,
        words: tuple[tuple[Tile, ...], ...] = (),
    ) -> None:
        """Record an event of ``player``'s (their total as it is now), with
        their rack before it, sorted."""
        state = self._state
        total = state.position.scores[player]
        state.events.append(Event(kind, player, score, total, rack=None if rack is None else tuple(sorted(rack)), move=move, words=words))

    def overtime_penalties(self) -> list[int]:
        """Points each player loses on the game clock: the rules' penalty for
        every minute, or part of one, used over the clock (none in a Finish
        Line game that ended at the line, nor in a game a player resigned)."""
        return self.clocks.overtime_penalties(
            counted=self._state.termination not in (Termination.FINISH_LINE, Termination.RESIGNED)
        )

    # -- the end --------------------------------------------------------

    def _finish(self, termination: Termination, went_out: int | None) -> None:
        """End the game: count the racks and the time over the clocks."""
        state = self._state
        state.termination = termination
        state.went_out = went_out
        state.end_index = len(state.events)
        state.end_count = 0
        self._count_racks()

    def _count_racks(self) -> None:
        """Put the end-of-game adjustments in place (replacing any earlier
        count, when racks were set since) and adjust the scores."""
        state = self._state
        assert state.end_index is not None
        scores = state.position.scores
        racks = state.position.racks
        for e in self._end_events():
            scores[e.player] -= e.score
        del state.events[state.end_index : state.end_index + state.end_count]
        new: list[Event] = []

        def add(kind: EventKind, player: int, points: int, rack: Sequence[Tile] | None, end_rack: Sequence[Tile]) -> None:
            scores[player] += points
            new.append(
                Event(kind, player, points, 0, rack=None if rack is None else tuple(sorted(rack)), end_rack=tuple(sorted(end_rack)))
            )

        value = self.alphabet.rack_value
        if state.went_out is not None:
            out = state.went_out
            others = [i for i in range(len(racks)) if i != out]
            left = [t for i in others for t in racks[i]]
            if self.rules.end_adjustment is EndAdjustment.DOUBLE:
                add(EventKind.END_RACK_POINTS, out, 2 * value(left), None, left)
            else:
                add(EventKind.END_RACK_POINTS, out, value(left), None, left)
                for i in others:
                    if racks[i]:
                        add(EventKind.END_RACK_PENALTY, i, -value(racks[i]), racks[i], racks[i])
        elif state.termination not in (Termination.FINISH_LINE, Termination.RESIGNED):
            for i, rack in enumerate(racks):
                if rack:
                    add(EventKind.END_RACK_PENALTY, i, -value(rack), rack, rack)
        for i, points in enumerate(self.overtime_penalties()):
            if points:
                add(EventKind.TIME_PENALTY, i, -points, None, [])
        state.events[state.end_index : state.end_index] = new
        state.end_count = len(new)
        self._retotal()

    def _reopen(self) -> None:
        """Take back the end of the game (its final play was withdrawn)."""
        state = self._state
        if state.end_index is None:
            return
        for e in self._end_events():
            state.position.scores[e.player] -= e.score
        del state.events[state.end_index : state.end_index + state.end_count]
        state.termination = None
        state.went_out = None
        state.finish_winner = None
        state.resigned = None
        state.end_index = None
        state.end_count = 0
        state.end_accepted = False

    def _next_turn(self) -> None:
        """Pass the turn to the left, skipping players who lost a turn (each
        skip is a scoreless turn), and end the game after too many scoreless
        turns in a row."""
        state = self._state
        position = state.position
        n = len(self.players)
        limit = self.rules.scoreless_limit(n)
        while True:
            if position.scoreless >= limit:
                self._finish(Termination.SCORELESS_TURNS, None)
                return
            position.turn = (position.turn + 1) % n
            if state.lost_turns[position.turn] <= 0:
                return
            state.lost_turns[position.turn] -= 1
            position.scoreless += 1

    def _insert_before_end(self, kind: EventKind, player: int, score: int, rack: tuple[Tile, ...] | None) -> None:
        """Record an event; if the game is over, keep it before the rack count."""
        state = self._state
        if state.end_index is None:
            self._append(kind, player, score, rack=rack)
            return
        state.events.insert(state.end_index, Event(kind, player, score, 0, rack=rack))
        state.end_index += 1
        self._retotal()

    def _retotal(self) -> None:
        """Each event's running total worked out again."""
        events = self._state.events
        totals = [0] * len(self.players)
        for i, e in enumerate(events):
            totals[e.player] += e.score
            if e.total != totals[e.player]:
                # a new event, not a change: the states on the stack share the old one
                events[i] = dataclasses.replace(e, total=totals[e.player])

    # -- challenges -----------------------------------------------------

    @property
    def challengeable(self) -> Event | None:
        """The play that may still be challenged, if any (never in void mode,
        where plays are judged on entry)."""
        index = self._state.challengeable
        if index is None or self.rules.challenge is ChallengeMode.VOID:
            return None
        return self._state.events[index]

    def challenge(self, challenger: int | None = None, *, valid: bool | None = None) -> ChallengeResult:
        """Challenge the last play. The lexicon judges all its words at once
        (``valid`` overrides the lexicon: a judge's ruling, or a record's).

        A phony comes off: its player takes the tiles back and scores nothing
        for the turn. When the play stands, the challenger pays as the
        challenge mode says (a lost turn, points, or nothing).

        :raises IllegalMoveError: when there is no play to challenge, the mode
            is void, or the challenger made the play.
        """
        if self.rules.challenge is ChallengeMode.VOID:
            raise IllegalMoveError(
                Illegal.CHALLENGE_NOT_ALLOWED, "void challenge mode: plays are checked on entry, there are no challenges"
            )
        event = self.challengeable
        if event is None or event.move is None:
            raise IllegalMoveError(Illegal.NOTHING_TO_CHALLENGE, "there is no play to challenge")
        n = len(self.players)
        turn = self._state.position.turn
        if challenger is None:
            challenger = turn if turn != event.player else (event.player + 1) % n
        if not 0 <= challenger < n:
            raise IllegalMoveError(Illegal.WRONG_PLAYER, f"there is no player {challenger + 1} to challenge")
        if challenger == event.player:
            raise IllegalMoveError(
                Illegal.WRONG_PLAYER,
                f"{self.players[challenger].name} cannot challenge their own play: only an opponent can",
            )
        move = event.move
        formed = self.words_of(event)
        words = tuple(self.alphabet.format_word(w) for w in formed)
        phonies = tuple(self.alphabet.format_word(w) for w in formed if w not in self.lexicon)
        ok = not phonies if valid is None else valid
        if not ok and not phonies:
            phonies = words
        before = self._before_play(event)
        state = self._save(Challenge(challenger, ok))
        state.challengeable = None
        position = state.position
        if not ok:
            was_over = state.termination is not None
            self._reopen()
            used = move.tiles_used
            if move.kind is MoveKind.ANAGRAM:
                # the rearranged word goes back as it was, without the tiles added
                position.board.tiles[:] = before.position.board.tiles
                position.board.tile_count = before.position.board.tile_count
                used = check_anagram(position.board, move).tiles_used
            else:
                position.board.remove(move)
            rack_before = list(before.position.racks[event.player])
            # The player takes back the rack they played from; the tiles they
            # drew go back to the bag. (Tiles given to another rack since, as
            # a record replay may do, come back from it.)
            position.bag.put_back(position.racks[event.player] + [rack_tile(t) for t in used])
            position.racks[event.player] = []
            self._give_tiles(event.player, rack_before, what=self.alphabet.format_rack(rack_before))
            position.scores[event.player] -= event.score
            self._append(EventKind.WITHDRAWN, event.player, -event.score, rack=rack_before)
            # The play becomes a scoreless turn; lost turns skipped since stay counted.
            position.scoreless += before.position.scoreless + 1 if event.score > 0 else 0
            if was_over:
                position.turn = event.player
                self._next_turn()
            elif position.scoreless >= self.rules.scoreless_limit(n):
                self._finish(Termination.SCORELESS_TURNS, None)
            return ChallengeResult(False, words, phonies)
        mode = self.rules.challenge
        points = -mode.penalty_points
        lost = mode is ChallengeMode.DOUBLE and state.termination is None
        position.scores[challenger] += points
        self._insert_before_end(EventKind.CHALLENGE, challenger, points, rack=tuple(position.racks[challenger]))
        if lost:
            if position.turn == challenger:
                position.scoreless += 1
                self._next_turn()
            else:
                state.lost_turns[challenger] += 1
        return ChallengeResult(True, words, (), points, lost)

    def words_of(self, event: Event) -> list[tuple[Tile, ...]]:
        """The words a placement event formed (its tiles still on the board)."""
        assert event.move is not None
        if event.words:
            return list(event.words)
        move = event.move
        if move.kind is MoveKind.ANAGRAM:
            return [w.tiles for w in check_anagram(self._before_play(event).position.board.copy(), move).words]
        board = self.board.copy()
        board.remove(move)
        return [w.tiles for w in board.words(move)]

    def _before_play(self, event: Event) -> _State:
        """The state before the play of a placement event.

        :raises IllegalMoveError: when the play is no longer on the stack.
        """
        for action, before in reversed(self._stack):
            if isinstance(action, PlayMove) and action.move is event.move:
                return before
        raise IllegalMoveError(Illegal.NOTHING_TO_CHALLENGE, "the play to challenge is no longer in the history")

    def add_points(self, player: int, points: int, kind: EventKind = EventKind.CHALLENGE) -> None:
        """Add points to a player outside of a play: a challenge bonus as
        tournament records write it (``(challenge) +5``), or a time penalty
        (negative points, ``kind=EventKind.TIME_PENALTY``). Undone by :meth:`pop`
        (which returns :class:`~tilebag.actions.AddPoints`).

        >>> game = Game(["alice", "bob"], seed=7, first=0)
        >>> game.add_points(1, -10, EventKind.TIME_PENALTY)
        >>> game.scores
        [0, -10]
        >>> game.pop()
        AddPoints(player=1, points=-10, kind=<EventKind.TIME_PENALTY: 'time penalty'>)

        :raises ValueError: for another kind of event.
        :raises IllegalMoveError: when there is no such player.
        """
        if kind not in (EventKind.CHALLENGE, EventKind.TIME_PENALTY):
            raise ValueError(f"points are added as a challenge bonus or a time penalty, not {kind.value}")
        self._seat(player)
        state = self._save(AddPoints(player, points, kind))
        state.position.scores[player] += points
        if kind is EventKind.CHALLENGE:
            self._insert_before_end(kind, player, points, rack=None)
            state.challengeable = None
        else:
            self._append(kind, player, points)

    # -- setting up positions -------------------------------------------

    def set_rack(self, player: int, tiles: str | Sequence[Tile], *, exact: bool = False) -> None:
        """Give a player particular tiles (to set up a position or follow a
        record). Tiles come from the bag, or from other racks, which then draw
        replacements; the rack keeps its size unless ``exact``. It is not an
        action: :meth:`pop` then undoes the last action, and the racks and
        the bag are as they were before it.

        On a finished game this recounts the end-of-game adjustments.

        :raises IllegalMoveError: when the tiles are not all available, or
            there is no such player (the game is then unchanged).
        """
        self._changes += 1
        wanted = self.alphabet.parse_rack(tiles) if isinstance(tiles, str) else [rack_tile(t) for t in tiles]
        seat = self._seat(player)
        state = self._state
        position = state.position
        held = position.racks[seat]
        size = len(wanted) if exact else max(len(held), len(wanted))
        if len(wanted) > max(self.rules.rack_size, len(held)):
            raise IllegalMoveError(
                Illegal.TILE_NOT_AVAILABLE,
                f"{self.alphabet.format_rack(wanted)}: {len(wanted)} tiles, a rack holds {self.rules.rack_size}",
            )
        unchanged = state.copy()
        try:
            position.bag.put_back(held)
            position.racks[seat] = []
            self._give_tiles(seat, wanted, what=self.alphabet.format_rack(wanted))
            position.racks[seat].extend(position.bag.draw(size - len(position.racks[seat])))
        except IllegalMoveError:
            self._restore(unchanged)
            raise
        if state.termination is not None:
            self._count_racks()

    def _give_tiles(self, seat: int, tiles: Sequence[Tile], *, what: str) -> None:
        """Move these rack tiles to a player's rack: from the bag, or else
        from another rack, which draws a replacement.

        :raises IllegalMoveError: when a tile is nowhere to be had (the caller
            restores the state).
        """
        position = self._state.position
        bag, racks = position.bag, position.racks
        for t in tiles:
            if bag.contains([t]):
                bag.take([t])
            else:
                donor = next((rack for i, rack in enumerate(racks) if i != seat and t in rack), None)
                if donor is None:
                    raise IllegalMoveError(
                        Illegal.TILE_NOT_AVAILABLE,
                        f"{what}: no {self.alphabet.label(t)} is left (not in the bag nor on another rack)",
                    )
                donor.remove(t)
                donor.extend(bag.draw(1))
            racks[seat].append(t)

    def reshuffle(self, seed: int | None = None) -> None:
        """Shuffle the bag anew from ``seed`` (``None``: unpredictably), and
        the bag as it was at every point :meth:`pop` goes back to: for a game
        rebuilt from a record, whose bag order is not recorded (see
        :func:`tilebag.formats.replay.resume`). The tiles stay where they are.

        >>> game = Game(2, seed=1)
        >>> before = game.bag.tiles()
        >>> game.reshuffle(5)
        >>> game.bag.tiles() == before, game.bag.seed
        (True, 5)
        """
        self._changes += 1
        rng = random.Random(seed)
        for _, before in self._stack:
            bag = before.position.bag
            tiles = list(bag.get_state()[0])
            rng.shuffle(tiles)
            bag.set_state((tuple(tiles), random.Random(rng.getrandbits(64)).getstate()))
            bag.seed = seed
        position = self._state.position
        position.bag = Bag(self.alphabet, seed, tiles=position.bag.tiles())

    def redeal(self, player: int, seed: int | None = None) -> None:
        """Deal anew the tiles ``player`` cannot see: the other racks go back
        to the bag, the bag is shuffled from ``seed`` (its past states too,
        as :meth:`reshuffle` does) and each other player draws as many tiles
        as they held. After an undo, nothing ``player`` saw of the game's
        future (the draws, a rack an opponent played from) is of use.

        >>> game = Game(2, seed=1)
        >>> mine, theirs = game.rack(0), game.rack(1)
        >>> game.redeal(0, seed=2)
        >>> game.rack(0) == mine, game.rack(1) == theirs, len(game.rack(1))
        (True, False, 7)

        :raises IllegalMoveError: when there is no such player.
        """
        self._changes += 1
        me = self._seat(player)
        position = self._state.position
        held: dict[int, int] = {}
        for i, rack in enumerate(position.racks):
            if i != me:
                held[i] = len(rack)
                position.bag.put_back(rack)
                position.racks[i] = []
        self.reshuffle(seed)
        for i, count in held.items():
            position.racks[i].extend(position.bag.draw(count))

    # -- records ----------------------------------------------------------

    def record(self, *, lexicon: str | None = None) -> GameRecord:
        """The game so far as a record: the rules options not played as
        standard (:attr:`GameRecord.rule_options`), and with a turn timer
        or a game clock, the time each player used. A game that is not over
        also records every player's rack (:attr:`GameRecord.final_racks`)
        and the player to move (:attr:`GameRecord.to_move`), so that
        :func:`tilebag.formats.replay.resume` can go on with it; a finished game's
        racks are in its end-of-game events."""
        timed = self.rules.turn_time is not None or self.rules.game_clock is not None
        name = lexicon
        if name is None and self._lexicon is not None:
            name = self._lexicon.name
        over = self.is_over()
        position = self._state.position
        return GameRecord(
            players=[PlayerInfo(nick, p.name) for nick, p in zip(_nicknames(self.players), self.players, strict=True)],
            events=[_copy_event(e) for e in self.events],
            lexicon=name or "kjxqz",
            alphabet=self.alphabet.name,
            rule_options=self.rules.stated_options(),
            clock_used=tuple(self.clock_used) if timed else None,
            final_racks={} if over else {i: tuple(sorted(rack)) for i, rack in enumerate(position.racks)},
            to_move=None if over else position.turn,
        )


def _nicknames(players: Sequence[Player]) -> list[str]:
    """Distinct one-word nicknames for a record's event lines."""
    nicks: list[str] = []
    for i, p in enumerate(players, start=1):
        nick = "_".join(p.name.replace(":", "").split()) or f"player{i}"
        while nick in nicks:
            nick = f"{nick}_{i}"
        nicks.append(nick)
    return nicks


def _copy_event(e: Event) -> Event:
    """A record's own copy of an event (its notes a list of its own)."""
    return Event(
        e.kind,
        e.player,
        e.score,
        e.total,
        rack=e.rack,
        move=e.move,
        exchange_count=e.exchange_count,
        end_rack=e.end_rack,
        notes=list(e.notes),
        line=e.line,
    )


__all__ = ["ChallengeResult", "Game", "GameState", "Outcome", "Player", "Termination"]
