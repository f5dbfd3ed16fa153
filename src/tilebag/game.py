"""The game: players, racks, bag, board, turns, challenges and the end.

:class:`Game` applies the rules exactly. Every action is checked before
anything changes, so an illegal move raises and leaves the game as it was;
:meth:`Game.pop` undoes the last action exactly.

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
Move.from_gcg('H6 FA.M')
>>> game.scores
[14, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tilebag import game_challenge, game_checks, game_end, game_history, game_setup
from tilebag.alphabet import BLANK, BLANK_BIT, Tile, load_alphabet, rack_tile
from tilebag.bag import Bag
from tilebag.board import Board, Word
from tilebag.clock import GameClocks
from tilebag.errors import (
    GameOverError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    NothingToUndoError,
)
from tilebag.game_checks import _Checked
from tilebag.game_history import _Snapshot
from tilebag.layout import load_layout
from tilebag.lexicon import Lexicon, default_lexicon
from tilebag.move import Move, MoveKind
from tilebag.outcome import ChallengeResult, GameState, Outcome, Player, Termination
from tilebag.position import Position
from tilebag.record import Event, EventKind, GameRecord
from tilebag.rules import ChallengeMode, EndAdjustment, Rules, RulesError
from tilebag.variants import AnagramPlay, apply_anagram, check_anagram

if TYPE_CHECKING:
    from tilebag.engine import Engine, LegalMoves


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
        self._position = Position(
            Board(self.layout, self.alphabet),
            [[] for _ in names],
            Bag(self.alphabet, seed),
            rack_size=self.rules.rack_size,
            bingo_tiles=self.rules.bingo_tiles,
            bingo_bonus=self.rules.bingo_bonus,
        )
        """The board, racks, bag, scores, scoreless turns and player to move:
        the game keeps its history, events and clocks on top of it."""
        self.players = [Player(name) for name in names]
        for seat, player in enumerate(self.players):
            player.bind(self._position.scores, self._position.racks, seat)
        self.first_draw: list[list[Tile | None]] = []
        if first is None:
            first, self.first_draw = self._position.bag.draw_for_first(len(names))
        elif not 0 <= first < len(names):
            raise ValueError(f"first player {first} is not one of the {len(names)} seats")
        self.first = first
        self._position.turn = first
        for i in range(len(names)):
            seat = (first + i) % len(names)
            self.players[seat].rack = self._position.bag.draw(self.rules.rack_size)
        self.events: list[Event] = []
        self.termination: Termination | None = None
        self.went_out: int | None = None
        self._challengeable: int | None = None
        self._end_index: int | None = None
        self._end_count = 0
        self._stack: list[_Snapshot] = []
        self.finish_targets = self.rules.finish_targets(len(names))
        """Finish Line: each seat's target score (``None`` in other games)."""
        self.finish_winner: int | None = None
        """Finish Line: the player who reached their target."""
        self.resigned: int | None = None
        """The player who resigned (:meth:`resign`), if one did."""
        self.clocks = GameClocks(self.rules, len(names))
        """The time each player has used (as told to :meth:`push`) and the
        turn in progress has taken."""
        self._end_accepted = False
        self._engine: Engine | None = None
        self._last_check: _Checked | None = None
        self._changes = 0
        """Changes made outside of actions (racks set, the bag mixed, new rules
        or lexicon): a check made before one no longer holds."""

    # -- views ----------------------------------------------------------

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"{self.players[self._position.turn].name} to move"
        return f"<Game {' v '.join(p.name for p in self.players)}: {self.scores}, {state}>"

    @property
    def rules(self) -> Rules:
        """The rules the game is played by."""
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self._rules = rules
        self._changes += 1
        self.clocks.rules = rules
        position = self._position
        position.rack_size, position.bingo_tiles, position.bingo_bonus = rules.rack_size, rules.bingo_tiles, rules.bingo_bonus

    @property
    def board(self) -> Board:
        """The tiles on the board."""
        return self._position.board

    @property
    def bag(self) -> Bag:
        """The tiles not yet drawn."""
        return self._position.bag

    @bag.setter
    def bag(self, bag: Bag) -> None:
        self._position.bag = bag

    @property
    def turn(self) -> int:
        """Index of the player to move."""
        return self._position.turn

    @turn.setter
    def turn(self, seat: int) -> None:
        self._position.turn = seat

    @property
    def scoreless(self) -> int:
        """Consecutive scoreless turns so far."""
        return self._position.scoreless

    @scoreless.setter
    def scoreless(self, count: int) -> None:
        self._position.scoreless = count

    @property
    def clock_used(self) -> list[float]:
        """Seconds each player has used (as told to :meth:`push`)."""
        return self.clocks.used

    @property
    def turn_elapsed(self) -> float:
        """Seconds the turn in progress has taken so far (recycles and blank
        swaps included)."""
        return self.clocks.turn_elapsed

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
        return [p.score for p in self.players]

    @property
    def player(self) -> Player:
        """The player to move."""
        return self.players[self._position.turn]

    def rack(self, player: int | None = None) -> list[Tile]:
        """A copy of a player's rack (the player to move by default).

        :raises IllegalMoveError: when there is no such player.
        """
        return list(self.players[self._seat(player)].rack)

    def _seat(self, player: int | None) -> int:
        """A player's index (the player to move for ``None``), checked.

        :raises IllegalMoveError: (:attr:`Illegal.WRONG_PLAYER`) when the
            game has no such player.
        """
        if player is None:
            return self._position.turn
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
        return self._position.copy()

    def unseen(self, player: int | None = None) -> list[Tile]:
        """Tiles the player cannot see: the bag and the other racks, sorted."""
        me = self._seat(player)
        tiles = self._position.bag.tiles()
        for i, p in enumerate(self.players):
            if i != me:
                tiles.extend(p.rack)
        return sorted(tiles)

    def is_over(self) -> bool:
        """True once the game has ended (even while its last play may still
        be challenged: see :attr:`state`)."""
        return self.termination is not None

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
        if self.termination is None:
            return GameState.PLAYING
        event = self.challengeable
        if not self._end_accepted and event is not None and event.move is not None and len(self.players) > 1:
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

    def accept_end(self) -> None:
        """Accept the play that ended the game: no one challenges it, and
        the game is over (:attr:`state` becomes :attr:`GameState.OVER`).

        :raises IllegalMoveError: when the game is not waiting for its final challenge.
        """
        if self.state is not GameState.FINAL_CHALLENGE:
            raise IllegalMoveError(Illegal.NOTHING_TO_CHALLENGE, "there is no game-ending play waiting to be accepted")
        self._end_accepted = True

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``. The highest score
        wins; a tie goes to the higher score before the rack adjustments; if
        that is level too, it is a draw."""
        if self.termination is None:
            return None
        scores = tuple(self.scores)
        before = self.scores_before_adjustments()
        if self.termination is Termination.FINISH_LINE and self.finish_winner is not None:
            return Outcome(self.termination, (self.finish_winner,), scores, before)
        if self.termination is Termination.RESIGNED and self.resigned is not None:
            others = [i for i in range(len(scores)) if i != self.resigned]
            best = max((scores[i] for i in others), default=0)
            winners = tuple(i for i in others if scores[i] == best)
            return Outcome(self.termination, winners, scores, before, resigned=self.resigned)
        best = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == best]
        tiebreak = False
        if len(leaders) > 1:
            tiebreak = True
            best_before = max(before[i] for i in leaders)
            leaders = [i for i in leaders if before[i] == best_before]
        return Outcome(self.termination, tuple(leaders), scores, before, tiebreak, self.went_out)

    def scores_before_adjustments(self) -> tuple[int, ...]:
        """Scores without the end-of-game rack adjustments (the tie-break)."""
        scores = self.scores
        for e in self._end_events():
            scores[e.player] -= e.score
        return tuple(scores)

    def _end_events(self) -> list[Event]:
        if self._end_index is None:
            return []
        return self.events[self._end_index : self._end_index + self._end_count]

    def result_text(self) -> str:
        """One line saying who won and why, e.g. ``alice wins 420-390 (alice
        went out)`` or ``bob wins 180-212 (alice resigned)``."""
        return game_end.result_text(self)

    # -- notation -----------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """A move from GCG notation, resolved against the board: letters
        written out on squares that already hold them become played-through.

        :raises InvalidMoveError: when the text is not a move.
        :raises IllegalMoveError: when the placement conflicts with the board.
        """
        move = Move.from_gcg(text, self.alphabet, self.layout)
        if move.kind is MoveKind.PLACE:
            move = self._position.board.check_placement(move, first_play_min_tiles=self.rules.min_first_word)
        return move

    def notation(self, move: Move) -> str:
        """GCG notation with played-through letters in parentheses."""
        return self._position.board.notation(move)

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
        position = self._position
        return (len(self._stack), self._changes, position.turn, position.board.tile_count, len(position.bag))

    def _checked(self, move: Move) -> tuple[Move, AnagramPlay | None]:
        """:meth:`check`, with an anagram play's analysis. The result is
        kept with what the check found (a placement's words), so that
        pushing or describing the move it returned checks nothing again."""
        last = self._last_check
        if last is not None and last.move is move and last.key == self._check_key():
            return move, last.anagram
        normal, anagram = game_checks.check_now(self, move)
        self._last_check = _Checked(self._check_key(), normal, anagram, game_checks.words_now(self, normal, anagram))
        return normal, anagram


    def _found(self, move: Move) -> _Checked | None:
        """What the last check found, when it was of this very move, now."""
        last = self._last_check
        if last is not None and last.move is move and last.key == self._check_key():
            return last
        return None


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
        return self._position.board.words(move)

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
        return check_anagram(self._position.board, move, bingo_tiles=rules.bingo_tiles, bingo_bonus=rules.bingo_bonus)

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
        normal = self._position.board.check_placement(move, first_play_min_tiles=self.rules.min_first_word)
        return self._position.board.score(normal, bingo_tiles=self.rules.bingo_tiles, bingo_bonus=self.rules.bingo_bonus)

    # -- state stack ----------------------------------------------------


    def pop(self) -> object:
        """Undo the last action (a move, a challenge or an adjustment) and
        return what was undone. The game is exactly as it was before it.

        :raises NothingToUndoError: (an :class:`IndexError`) when there is
            nothing to undo.
        """
        if not self._stack:
            raise NothingToUndoError("nothing to undo: no move has been played yet")
        snap = self._stack.pop()
        game_history.restore(self, snap)
        self._end_accepted = False
        return snap.undo

    @property
    def move_stack(self) -> list[object]:
        """The actions played so far, oldest first (what :meth:`pop` undoes)."""
        return [s.undo for s in self._stack]

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
        snap = game_history.snapshot(self, move, light=True)
        self._stack.append(snap)
        self._spend(seconds)
        me = self._position.turn
        player = self.players[me]
        rack_before = tuple(player.rack)
        if not move.kind.ends_turn:
            square = self.layout.square(move.row, move.col)
            snap.board = ((square, self._position.board.tiles[square]),)
            self._start_of_turn(move, player)
            self._append(EventKind.RECYCLE if move.kind is MoveKind.RECYCLE else EventKind.BLANK_SWAP, me, 0,
                         rack=rack_before, move=move)
            self._challengeable = None
            return 0
        score = 0
        if move.kind in (MoveKind.PLACE, MoveKind.ANAGRAM):
            if anagram is not None:
                score = anagram.score
                snap.board = bytes(self._position.board.tiles)
                apply_anagram(self._position.board, anagram)
                for t in anagram.tiles_used:
                    player.rack.remove(rack_tile(t))
                drawn = self._position.bag.draw(self.rules.rack_size - len(player.rack))
                snap.drawn = tuple(drawn)
                player.rack.extend(drawn)
                player.score += score
                self._position.scoreless = 0 if score > 0 else self._position.scoreless + 1
            else:
                words = found.words if found is not None and found.words is not None else self._position.board.words(move)
                score = sum(w.score for w in words)
                if len(move.placed()) >= self.rules.bingo_tiles:
                    score += self.rules.bingo_bonus
                cols = self.layout.cols
                snap.board = tuple((r * cols + c, self._position.board.tiles[r * cols + c]) for r, c, _ in move.placed())
                snap.drawn = self._position.make(move, score, pass_turn=False).drawn
            formed = anagram.words if anagram is not None else words
            self._append(EventKind.PLACE, me, score, rack=rack_before, move=move, words=tuple(w.tiles for w in formed))
            self._challengeable = len(self.events) - 1
        elif move.kind is MoveKind.EXCHANGE:
            snap.bag = self._position.make(move, pass_turn=False).bag_state
            self._append(EventKind.EXCHANGE, me, 0, rack=rack_before, move=move)
            self._challengeable = None
        else:
            self._position.make(move, pass_turn=False)
            self._append(EventKind.PASS, me, 0, rack=rack_before, move=move)
            self._challengeable = None
        self.clocks.end_turn()
        if self.finish_targets is not None and score > 0 and player.score >= self.finish_targets[me]:
            self.finish_winner = me
            game_end.finish(self, Termination.FINISH_LINE, None)
        elif move.kind in (MoveKind.PLACE, MoveKind.ANAGRAM) and not player.rack and not len(self._position.bag):
            game_end.finish(self, Termination.WENT_OUT, me)
        else:
            game_end.next_turn(self)
        return score

    def time_out(self, seconds: float | None = None) -> None:
        """The turn timer ran out: the turn of the player to move is a pass
        (a recycle or blank swap already made this turn stands).

        :param seconds: the time the turn took since its last action
            (default: what was left of the turn timer).
        :raises GameOverError: when the game is over.
        """
        if self.termination is not None:
            raise GameOverError(f"the game is over: {self.result_text()}")
        if seconds is None:
            seconds = self.clocks.turn_left()
        self._stack.append(game_history.snapshot(self, "time out", light=True))
        self._spend(seconds)
        me = self._position.turn
        self._append(EventKind.TIME_OUT, me, 0, rack=tuple(self.players[me].rack), move=Move.pass_())
        self._challengeable = None
        self.clocks.end_turn()
        self._position.scoreless += 1
        game_end.next_turn(self)

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
        ('resign', 0)
        >>> game.is_over(), game.turn
        (False, 1)

        :raises GameOverError: when the game is already over (it is unchanged).
        :raises IllegalMoveError: when there is no such player.
        """
        if self.termination is not None:
            raise GameOverError(f"cannot resign: the game is over ({self.result_text()})")
        me = self._position.turn if player is None else player
        if not 0 <= me < len(self.players):
            raise IllegalMoveError(
                Illegal.WRONG_PLAYER, f"there is no player {me + 1} to resign: the game has {len(self.players)}"
            )
        self._stack.append(game_history.snapshot(self, ("resign", me), light=True))
        self._append(EventKind.RESIGN, me, 0)
        self._challengeable = None
        self.clocks.end_turn()
        self.resigned = me
        game_end.finish(self, Termination.RESIGNED, None)

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

    def _spend(self, seconds: float | None) -> None:
        self.clocks.spend(self._position.turn, seconds)

    def _start_of_turn(self, move: Move, player: Player) -> None:
        """Apply a checked recycle or blank swap."""
        square = self.layout.square(move.row, move.col)
        old = self._position.board.tiles[square]
        if move.kind is MoveKind.RECYCLE:
            new = move.tiles[0]
            player.rack.remove(rack_tile(new))
            player.rack.append(rack_tile(old))
        else:
            new = old & ~BLANK_BIT
            player.rack.remove(new)
            player.rack.append(BLANK)
        self._position.board.tiles[square] = new

    def _append(self, kind: EventKind, player: int, score: int, **fields: object) -> Event:
        if fields.get("rack") is not None:
            fields["rack"] = tuple(sorted(fields["rack"]))  # type: ignore[call-overload]
        event = Event(kind, player, score, self.players[player].score, **fields)  # type: ignore[arg-type]
        self.events.append(event)
        return event


    def overtime_penalties(self) -> list[int]:
        """Points each player loses on the game clock: the rules' penalty for
        every minute, or part of one, used over the clock (none in a Finish
        Line game that ended at the line, nor in a game a player resigned)."""
        return self.clocks.overtime_penalties(
            counted=self.termination not in (Termination.FINISH_LINE, Termination.RESIGNED)
        )


    # -- challenges -----------------------------------------------------

    @property
    def challengeable(self) -> Event | None:
        """The play that may still be challenged, if any (never in void mode,
        where plays are judged on entry)."""
        if self._challengeable is None or self.rules.challenge is ChallengeMode.VOID:
            return None
        return self.events[self._challengeable]

    def challenge(self, challenger: int | None = None, *, valid: bool | None = None) -> ChallengeResult:
        """Challenge the last play. The lexicon judges all its words at once
        (``valid`` overrides the lexicon: a judge's ruling, or a record's).

        A phony comes off: its player takes the tiles back and scores nothing
        for the turn. When the play stands, the challenger pays as the
        challenge mode says (a lost turn, points, or nothing).

        :raises IllegalMoveError: when there is no play to challenge, the mode
            is void, or the challenger made the play.
        """
        return game_challenge.challenge(self, challenger, valid=valid)

    def words_of(self, event: Event) -> list[tuple[Tile, ...]]:
        """The words a placement event formed (its tiles still on the board)."""
        return game_challenge.words_of(self, event)


    def add_points(self, player: int, points: int, kind: EventKind = EventKind.CHALLENGE) -> None:
        """Add points to a player outside of a play: a challenge bonus as
        tournament records write it (``(challenge) +5``), or a time penalty
        (negative points, ``kind=EventKind.TIME_PENALTY``). Undone by :meth:`pop`."""
        if kind not in (EventKind.CHALLENGE, EventKind.TIME_PENALTY):
            raise ValueError(f"points are added as a challenge bonus or a time penalty, not {kind.value}")
        self._seat(player)
        self._stack.append(game_history.snapshot(self, ("points", player, points, kind), light=True, events=True))
        self.players[player].score += points
        if kind is EventKind.CHALLENGE:
            game_end.insert_before_end(self, kind, player, points, rack=None)
        else:
            self._append(kind, player, points)
        if kind is EventKind.CHALLENGE:
            self._challengeable = None

    # -- setting up positions -------------------------------------------

    def set_rack(self, player: int, tiles: str | Sequence[Tile], *, exact: bool = False) -> None:
        """Give a player particular tiles (to set up a position or follow a
        record). Tiles come from the bag, or from other racks, which then draw
        replacements; the rack keeps its size unless ``exact``.

        On a finished game this recounts the end-of-game adjustments.

        :raises IllegalMoveError: when the tiles are not all available, or
            there is no such player (the game is then unchanged).
        """
        self._changes += 1
        game_setup.set_rack(self, player, tiles, exact=exact)

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
        game_setup.reshuffle(self, seed)

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
        game_setup.redeal(self, player, seed)


    # -- records ----------------------------------------------------------

    def record(self, *, lexicon: str | None = None) -> GameRecord:
        """The game so far as a record: the rules options not played as
        standard (:attr:`GameRecord.rule_options`), and with a turn timer
        or a game clock, the time each player used. A game that is not over
        also records every player's rack (:attr:`GameRecord.final_racks`)
        and the player to move (:attr:`GameRecord.to_move`), so that
        :func:`tilebag.formats.replay.resume` can go on with it; a finished game's
        racks are in its end-of-game events."""
        return game_setup.record(self, lexicon=lexicon)


__all__ = ["ChallengeResult", "Game", "GameState", "Outcome", "Player", "Termination"]
