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

import dataclasses
import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

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
from tilebag.position import Position
from tilebag.record import Event, EventKind, GameRecord, PlayerInfo
from tilebag.rules import ChallengeMode, EndAdjustment, Rules, RulesError
from tilebag.variants import AnagramPlay, apply_anagram, check_anagram, check_blank_swap, check_recycle

if TYPE_CHECKING:
    from tilebag.engine import Engine, LegalMoves


class GameState(enum.Enum):
    """Where a game stands (:attr:`Game.state`)."""

    PLAYING = "playing"
    """The player to move (:attr:`Game.turn`) is to play."""
    FINAL_CHALLENGE = "final challenge"
    """The last play ended the game, and the next player may still
    challenge it (:meth:`Game.challenge`) or accept it (:meth:`Game.accept_end`).
    The racks are counted already: :meth:`Game.is_over` is true."""
    OVER = "over"
    """The game is over and its last play stands."""


class Termination(enum.Enum):
    """How a game ended."""

    WENT_OUT = "went out"
    """The bag was empty and a player played the last tile of their rack."""
    SCORELESS_TURNS = "scoreless turns"
    """Every player had their scoreless turns in a row (2 x N by default)."""
    FINISH_LINE = "finish line"
    """Finish Line: a player reached their target score, and wins."""
    RESIGNED = "resigned"
    """A player resigned (:meth:`Game.resign`): no racks are counted, and the
    highest scorer among the others wins."""


@dataclass(frozen=True)
class Outcome:
    """Who won a finished game, and why."""

    termination: Termination
    winners: tuple[int, ...]
    """The winner's index; several for a draw."""
    scores: tuple[int, ...]
    """Final scores."""
    scores_before_adjustments: tuple[int, ...]
    """Scores before the racks were counted (the tie-break)."""
    tiebreak: bool = False
    """True when the final scores were level and the tie-break decided."""
    went_out: int | None = None
    """The player who went out, if one did."""
    resigned: int | None = None
    """The player who resigned, if one did (never a winner)."""

    @property
    def winner(self) -> int | None:
        """The single winner, or ``None`` for a draw."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1


@dataclass(frozen=True)
class ChallengeResult:
    """What a challenge decided."""

    valid: bool
    """True when every word stood (the challenge failed)."""
    words: tuple[str, ...]
    """The words the play formed."""
    phonies: tuple[str, ...]
    """The words that were not acceptable."""
    points: int = 0
    """Points the ruling changed (negative: the challenger's penalty)."""
    lost_turn: bool = False
    """True when the challenger loses their next turn."""


@dataclass
class Player:
    """A seat at the table: name, score and rack."""

    name: str
    score: int = 0
    rack: list[Tile] = field(default_factory=list)
    lost_turns: int = 0
    """Turns this player must still miss (failed double challenges)."""


@dataclass(frozen=True)
class _Checked:
    """What :meth:`Game.check` found for a move, kept while the game is as it was."""

    key: tuple[object, ...]
    move: Move
    anagram: AnagramPlay | None
    words: list[Word] | None


@dataclass
class _Snapshot:
    """What :meth:`Game.pop` needs to take one action back. A move keeps
    only what it changed: the squares it filled (``board`` as square and
    old tile pairs), the tiles it drew (``drawn``), how many events there
    were; rarer actions keep the whole board (bytes), the bag's state and
    the events."""

    board: bytes | tuple[tuple[int, Tile], ...]
    tile_count: int
    bag: tuple[tuple[Tile, ...], object] | None
    drawn: tuple[Tile, ...]
    players: list[tuple[int, tuple[Tile, ...], int]]
    turn: int
    scoreless: int
    termination: Termination | None
    went_out: int | None
    challengeable: int | None
    events: tuple[Event, ...] | int
    end_index: int | None
    end_count: int
    clocks: tuple[tuple[float, ...], float]
    finish_winner: int | None
    resigned: int | None
    undo: object


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
        self.board = Board(self.layout, self.alphabet)
        self.bag = Bag(self.alphabet, seed)
        self.players = [Player(name) for name in names]
        self.first_draw: list[list[Tile | None]] = []
        if first is None:
            first, self.first_draw = self.bag.draw_for_first(len(names))
        elif not 0 <= first < len(names):
            raise ValueError(f"first player {first} is not one of the {len(names)} seats")
        self.first = first
        self.turn = first
        """Index of the player to move."""
        for i in range(len(names)):
            seat = (first + i) % len(names)
            self.players[seat].rack = self.bag.draw(self.rules.rack_size)
        self.scoreless = 0
        """Consecutive scoreless turns so far."""
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

    # -- views ----------------------------------------------------------

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"{self.players[self.turn].name} to move"
        return f"<Game {' v '.join(p.name for p in self.players)}: {self.scores}, {state}>"

    @property
    def rules(self) -> Rules:
        """The rules the game is played by."""
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self._rules = rules
        self.clocks.rules = rules

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

    @property
    def scores(self) -> list[int]:
        return [p.score for p in self.players]

    @property
    def player(self) -> Player:
        """The player to move."""
        return self.players[self.turn]

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
            return self.turn
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
        if engine is None or engine.rules != self.rules:
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
        bag = Bag(self.alphabet, self.bag.seed, tiles=())
        bag.set_state(self.bag.get_state())
        return Position(
            self.board.copy(),
            [p.rack for p in self.players],
            bag,
            self.scores,
            scoreless=self.scoreless,
            turn=self.turn,
            rack_size=self.rules.rack_size,
            bingo_tiles=self.rules.bingo_tiles,
            bingo_bonus=self.rules.bingo_bonus,
        )

    def unseen(self, player: int | None = None) -> list[Tile]:
        """Tiles the player cannot see: the bag and the other racks, sorted."""
        me = self._seat(player)
        tiles = self.bag.tiles()
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
        return (
            len(self._stack),
            self.turn,
            self.board.tile_count,
            len(self.bag),
            tuple(self.players[self.turn].rack),
            self.termination,
            id(self._rules),
            id(self._lexicon),
        )

    def _checked(self, move: Move) -> tuple[Move, AnagramPlay | None]:
        """:meth:`check`, with an anagram play's analysis. The result is
        kept with what the check found (a placement's words), so that
        pushing or describing the move it returned checks nothing again."""
        last = self._last_check
        if last is not None and last.move is move and last.key == self._check_key():
            return move, last.anagram
        normal, anagram = self._check_now(move)
        self._last_check = _Checked(self._check_key(), normal, anagram, self._words_now(normal, anagram))
        return normal, anagram

    def _words_now(self, move: Move, anagram: AnagramPlay | None) -> list[Word] | None:
        if anagram is not None:
            return anagram.words
        if move.kind is MoveKind.PLACE:
            return self.board.words(move)
        return None

    def _found(self, move: Move) -> _Checked | None:
        """What the last check found, when it was of this very move, now."""
        last = self._last_check
        if last is not None and last.move is move and last.key == self._check_key():
            return last
        return None

    def _check_now(self, move: Move) -> tuple[Move, AnagramPlay | None]:
        if self.termination is not None:
            raise GameOverError(f"the game is over: {self.result_text()}")
        rack = self.players[self.turn].rack
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
            if len(self.bag) < max(self.rules.exchange_min_bag, len(move.tiles)):
                raise IllegalMoveError(
                    Illegal.BAG_TOO_SMALL,
                    f"{text}: exchanging needs at least {max(self.rules.exchange_min_bag, len(move.tiles))} tiles in the bag, "
                    f"it holds {len(self.bag)}",
                )
            return move, None
        if move.kind is MoveKind.RECYCLE:
            return self._check_recycle(move), None
        if move.kind is MoveKind.BLANK_SWAP:
            if not self.rules.blank_swap:
                raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{self.notation(move)}: blank swap is not in these rules")
            check_blank_swap(self.board, move, rack)
            return move, None
        if move.kind is MoveKind.ANAGRAM:
            return move, self._check_anagram(move)
        self._check_tiles(move.tiles, allow_blank=False)
        normal = self.board.check_placement(move, first_play_min_tiles=self.rules.min_first_word)
        used = normal.tiles_used
        lacking = missing_tiles(used, rack)
        if lacking:
            raise IllegalMoveError(
                Illegal.TILE_NOT_ON_RACK,
                f"{self.notation(normal)}: the rack {self.alphabet.format_rack(rack)} has no "
                f"{self.alphabet.format_rack(lacking)}",
            )
        if self.rules.challenge is ChallengeMode.VOID:
            phonies = [self.alphabet.format_word(w.tiles) for w in self.board.words(normal) if w.tiles not in self.lexicon]
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

    def _check_recycle(self, move: Move) -> Move:
        text = self.notation(move)
        if not self.rules.recycle:
            raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{text}: recycling is not in these rules")
        self._check_tiles(move.tiles, allow_blank=False)
        words = check_recycle(self.board, move)
        rack = self.players[self.turn].rack
        lacking = missing_tiles(move.tiles, rack)
        if lacking:
            raise IllegalMoveError(
                Illegal.TILE_NOT_ON_RACK,
                f"{text}: the rack {self.alphabet.format_rack(rack)} has no {self.alphabet.format_rack(lacking)}",
            )
        phonies = [self.alphabet.format_word(w) for w in words if w not in self.lexicon]
        if phonies:
            raise PhonyError(
                phonies,
                f"{text}: a recycle must leave acceptable words; not in the {self.lexicon.name} lexicon: "
                + ", ".join(phonies),
            )
        return move

    def _check_anagram(self, move: Move) -> AnagramPlay:
        text = self.notation(move)
        if not self.rules.anagram:
            raise IllegalMoveError(Illegal.VARIATION_NOT_IN_PLAY, f"{text}: anagram plays are not in these rules")
        self._check_tiles(move.tiles, allow_blank=False)
        if self.board.is_empty():
            raise IllegalMoveError(Illegal.NOT_AN_ANAGRAM, f"{text}: the board has no word to rearrange yet")
        play = check_anagram(self.board, move, bingo_tiles=self.rules.bingo_tiles, bingo_bonus=self.rules.bingo_bonus)
        rack = self.players[self.turn].rack
        lacking = missing_tiles(play.tiles_used, rack)
        if lacking:
            raise IllegalMoveError(
                Illegal.TILE_NOT_ON_RACK,
                f"{text}: the rack {self.alphabet.format_rack(rack)} has no {self.alphabet.format_rack(lacking)}",
            )
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

    def phonies(self, move: Move) -> list[str]:
        """The words of a checked placement (or anagram play) that the lexicon
        does not accept."""
        if move.kind is MoveKind.ANAGRAM:
            words = check_anagram(self.board, move).words
        else:
            words = self.words(move)
        return [self.alphabet.format_word(w.tiles) for w in words if w.tiles not in self.lexicon]

    def score(self, move: Move) -> int:
        """What a move would score now (0 for an exchange or a pass).

        :raises IllegalMoveError: when the placement does not fit the board.
        """
        if move.kind is MoveKind.ANAGRAM:
            return check_anagram(
                self.board, move, bingo_tiles=self.rules.bingo_tiles, bingo_bonus=self.rules.bingo_bonus
            ).score
        if move.kind is not MoveKind.PLACE:
            return 0
        normal = self.board.check_placement(move, first_play_min_tiles=self.rules.min_first_word)
        return self.board.score(normal, bingo_tiles=self.rules.bingo_tiles, bingo_bonus=self.rules.bingo_bonus)

    # -- state stack ----------------------------------------------------

    def _snapshot(self, undo: object, *, light: bool = False, events: bool | None = None) -> _Snapshot:
        """The state before an action. ``light``: the action says itself
        what it changes on the board and in the bag (see :class:`_Snapshot`);
        ``events``: keep the whole list of events (default: unless light)."""
        whole_events = not light if events is None else events
        return _Snapshot(
            board=() if light else bytes(self.board.tiles),
            tile_count=self.board.tile_count,
            bag=None if light else self.bag.get_state(),
            drawn=(),
            players=[(p.score, tuple(p.rack), p.lost_turns) for p in self.players],
            turn=self.turn,
            scoreless=self.scoreless,
            termination=self.termination,
            went_out=self.went_out,
            challengeable=self._challengeable,
            events=tuple(self.events) if whole_events else len(self.events),
            end_index=self._end_index,
            end_count=self._end_count,
            clocks=self.clocks.state(),
            finish_winner=self.finish_winner,
            resigned=self.resigned,
            undo=undo,
        )

    def _restore(self, snap: _Snapshot) -> None:
        if isinstance(snap.board, bytes):
            self.board.tiles[:] = snap.board
        else:
            for square, old in snap.board:
                self.board.tiles[square] = old
        self.board.tile_count = snap.tile_count
        if snap.bag is not None:
            self.bag.set_state(snap.bag)
        else:
            self.bag.undraw(snap.drawn)
        for p, (score, rack, lost) in zip(self.players, snap.players, strict=True):
            p.score, p.rack, p.lost_turns = score, list(rack), lost
        self.turn = snap.turn
        self.scoreless = snap.scoreless
        self.termination = snap.termination
        self.went_out = snap.went_out
        self._challengeable = snap.challengeable
        self._end_index = snap.end_index
        self._end_count = snap.end_count
        self.clocks.restore(snap.clocks)
        self.finish_winner = snap.finish_winner
        self.resigned = snap.resigned
        if isinstance(snap.events, int):
            del self.events[snap.events :]
        else:
            self.events = list(snap.events)

    def _bags_before(self) -> list[tuple[list[Tile], object]]:
        """The bag (its tiles in order and its random state) before each
        action on the stack, as :meth:`pop` would put it back, worked out
        from the bag now: an action that kept only its draw did not touch
        the random state."""
        bags: list[tuple[list[Tile], object]] = []
        tiles, rng = self.bag.get_state()
        after = (list(tiles), rng)
        for snap in reversed(self._stack):
            before = (list(snap.bag[0]), snap.bag[1]) if snap.bag is not None else (after[0] + list(snap.drawn), after[1])
            bags.append(before)
            after = before
        bags.reverse()
        return bags

    def _keep_bags(self) -> None:
        """Before the bag changes outside of an action (tiles given to a
        rack, a reshuffle), keep the whole bag of each action that kept only
        its draw, so that :meth:`pop` still puts back the bag as it was."""
        if all(snap.bag is not None for snap in self._stack):
            return
        for snap, (tiles, rng) in zip(self._stack, self._bags_before(), strict=True):
            if snap.bag is None:
                snap.bag = (tuple(tiles), rng)

    def _board_before(self, index: int) -> tuple[bytes, int]:
        """The board before the action at ``index`` of the stack, and its tile count."""
        tiles = bytearray(self.board.tiles)
        for snap in reversed(self._stack[index:]):
            if isinstance(snap.board, bytes):
                tiles[:] = snap.board
            else:
                for square, old in snap.board:
                    tiles[square] = old
        return bytes(tiles), self._stack[index].tile_count

    def pop(self) -> object:
        """Undo the last action (a move, a challenge or an adjustment) and
        return what was undone. The game is exactly as it was before it.

        :raises NothingToUndoError: (an :class:`IndexError`) when there is
            nothing to undo.
        """
        if not self._stack:
            raise NothingToUndoError("nothing to undo: no move has been played yet")
        snap = self._stack.pop()
        self._restore(snap)
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
        snap = self._snapshot(move, light=True)
        self._stack.append(snap)
        self._spend(seconds)
        me = self.turn
        player = self.players[me]
        rack_before = tuple(player.rack)
        if not move.kind.ends_turn:
            square = self.layout.square(move.row, move.col)
            snap.board = ((square, self.board.tiles[square]),)
            self._start_of_turn(move, player)
            self._append(EventKind.RECYCLE if move.kind is MoveKind.RECYCLE else EventKind.BLANK_SWAP, me, 0,
                         rack=rack_before, move=move)
            self._challengeable = None
            return 0
        score = 0
        if move.kind in (MoveKind.PLACE, MoveKind.ANAGRAM):
            if anagram is not None:
                score = anagram.score
                snap.board = bytes(self.board.tiles)
                apply_anagram(self.board, anagram)
                used = anagram.tiles_used
            else:
                words = found.words if found is not None and found.words is not None else self.board.words(move)
                score = sum(w.score for w in words)
                if len(move.placed()) >= self.rules.bingo_tiles:
                    score += self.rules.bingo_bonus
                cols = self.layout.cols
                snap.board = tuple((r * cols + c, self.board.tiles[r * cols + c]) for r, c, _ in move.placed())
                self.board.place(move)
                used = move.tiles_used
            for t in used:
                player.rack.remove(rack_tile(t))
            drawn = self.bag.draw(self.rules.rack_size - len(player.rack))
            snap.drawn = tuple(drawn)
            player.rack.extend(drawn)
            player.score += score
            formed = anagram.words if anagram is not None else words
            self._append(EventKind.PLACE, me, score, rack=rack_before, move=move, words=tuple(w.tiles for w in formed))
            self._challengeable = len(self.events) - 1
        elif move.kind is MoveKind.EXCHANGE:
            snap.bag = self.bag.get_state()
            drawn = self.bag.draw(len(move.tiles))
            for t in move.tiles:
                player.rack.remove(t)
            self.bag.put_back(move.tiles)
            player.rack.extend(drawn)
            self._append(EventKind.EXCHANGE, me, 0, rack=rack_before, move=move)
            self._challengeable = None
        else:
            self._append(EventKind.PASS, me, 0, rack=rack_before, move=move)
            self._challengeable = None
        self.clocks.end_turn()
        self.scoreless = 0 if score > 0 else self.scoreless + 1
        if self.finish_targets is not None and score > 0 and player.score >= self.finish_targets[me]:
            self.finish_winner = me
            self._finish(Termination.FINISH_LINE, None)
        elif move.kind in (MoveKind.PLACE, MoveKind.ANAGRAM) and not player.rack and not len(self.bag):
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
        if self.termination is not None:
            raise GameOverError(f"the game is over: {self.result_text()}")
        if seconds is None:
            seconds = self.clocks.turn_left()
        self._stack.append(self._snapshot("time out", light=True))
        self._spend(seconds)
        me = self.turn
        self._append(EventKind.TIME_OUT, me, 0, rack=tuple(self.players[me].rack), move=Move.pass_())
        self._challengeable = None
        self.clocks.end_turn()
        self.scoreless += 1
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
        ('resign', 0)
        >>> game.is_over(), game.turn
        (False, 1)

        :raises GameOverError: when the game is already over (it is unchanged).
        :raises IllegalMoveError: when there is no such player.
        """
        if self.termination is not None:
            raise GameOverError(f"cannot resign: the game is over ({self.result_text()})")
        me = self.turn if player is None else player
        if not 0 <= me < len(self.players):
            raise IllegalMoveError(
                Illegal.WRONG_PLAYER, f"there is no player {me + 1} to resign: the game has {len(self.players)}"
            )
        self._stack.append(self._snapshot(("resign", me), light=True))
        self._append(EventKind.RESIGN, me, 0)
        self._challengeable = None
        self.clocks.end_turn()
        self.resigned = me
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

    def _spend(self, seconds: float | None) -> None:
        self.clocks.spend(self.turn, seconds)

    def _start_of_turn(self, move: Move, player: Player) -> None:
        """Apply a checked recycle or blank swap."""
        square = self.layout.square(move.row, move.col)
        old = self.board.tiles[square]
        if move.kind is MoveKind.RECYCLE:
            new = move.tiles[0]
            player.rack.remove(rack_tile(new))
            player.rack.append(rack_tile(old))
        else:
            new = old & ~BLANK_BIT
            player.rack.remove(new)
            player.rack.append(BLANK)
        self.board.tiles[square] = new

    def _append(self, kind: EventKind, player: int, score: int, **fields: object) -> Event:
        if fields.get("rack") is not None:
            fields["rack"] = tuple(sorted(fields["rack"]))  # type: ignore[call-overload]
        event = Event(kind, player, score, self.players[player].score, **fields)  # type: ignore[arg-type]
        self.events.append(event)
        return event

    def _next_turn(self) -> None:
        """Pass the turn to the left, skipping players who lost a turn (each
        skip is a scoreless turn), and end the game after too many scoreless
        turns in a row."""
        n = len(self.players)
        limit = self.rules.scoreless_limit(n)
        while True:
            if self.scoreless >= limit:
                self._finish(Termination.SCORELESS_TURNS, None)
                return
            self.turn = (self.turn + 1) % n
            player = self.players[self.turn]
            if player.lost_turns <= 0:
                return
            player.lost_turns -= 1
            self.scoreless += 1

    def _finish(self, termination: Termination, went_out: int | None) -> None:
        self.termination = termination
        self.went_out = went_out
        self._end_index = len(self.events)
        self._end_count = 0
        self._add_end_events()

    def _add_end_events(self) -> None:
        """Count the racks: put the end-of-game events in place (replacing any
        earlier count) and adjust the scores."""
        assert self._end_index is not None
        for e in self._end_events():
            self.players[e.player].score -= e.score
        del self.events[self._end_index : self._end_index + self._end_count]
        new: list[Event] = []

        def add(kind: EventKind, player: int, points: int, rack: tuple[Tile, ...] | None, end_rack: list[Tile]) -> None:
            self.players[player].score += points
            new.append(
                Event(kind, player, points, 0, rack=None if rack is None else tuple(sorted(rack)), end_rack=tuple(sorted(end_rack)))
            )

        if self.went_out is not None:
            out = self.went_out
            others = [i for i in range(len(self.players)) if i != out]
            left = [t for i in others for t in self.players[i].rack]
            value = self.alphabet.rack_value(left)
            if self.rules.end_adjustment is EndAdjustment.DOUBLE:
                add(EventKind.END_RACK_POINTS, out, 2 * value, None, left)
            else:
                add(EventKind.END_RACK_POINTS, out, value, None, left)
                for i in others:
                    rack = self.players[i].rack
                    if rack:
                        add(EventKind.END_RACK_PENALTY, i, -self.alphabet.rack_value(rack), tuple(rack), rack)
        elif self.termination not in (Termination.FINISH_LINE, Termination.RESIGNED):
            for i, p in enumerate(self.players):
                if p.rack:
                    add(EventKind.END_RACK_PENALTY, i, -self.alphabet.rack_value(p.rack), tuple(p.rack), p.rack)
        for i, points in enumerate(self.overtime_penalties()):
            if points:
                add(EventKind.TIME_PENALTY, i, -points, None, [])
        self.events[self._end_index : self._end_index] = new
        self._end_count = len(new)
        self._retotal()

    def overtime_penalties(self) -> list[int]:
        """Points each player loses on the game clock: the rules' penalty for
        every minute, or part of one, used over the clock (none in a Finish
        Line game that ended at the line, nor in a game a player resigned)."""
        return self.clocks.overtime_penalties(
            counted=self.termination not in (Termination.FINISH_LINE, Termination.RESIGNED)
        )

    def _reopen(self) -> None:
        """Take back the end of the game (its final play was withdrawn)."""
        if self._end_index is None:
            return
        for e in self._end_events():
            self.players[e.player].score -= e.score
        del self.events[self._end_index : self._end_index + self._end_count]
        self.termination = None
        self.went_out = None
        self.finish_winner = None
        self.resigned = None
        self._end_index = None
        self._end_count = 0

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
        if self.rules.challenge is ChallengeMode.VOID:
            raise IllegalMoveError(
                Illegal.CHALLENGE_NOT_ALLOWED, "void challenge mode: plays are checked on entry, there are no challenges"
            )
        event = self.challengeable
        if event is None or event.move is None:
            raise IllegalMoveError(Illegal.NOTHING_TO_CHALLENGE, "there is no play to challenge")
        n = len(self.players)
        if challenger is None:
            challenger = self.turn if self.turn != event.player else (event.player + 1) % n
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
        snap_index = self._play_snapshot_index(event)
        board_before = self._board_before(snap_index)
        self._keep_bags()
        self._stack.append(self._snapshot(("challenge", challenger, ok)))
        self._challengeable = None
        if not ok:
            before = self._stack[snap_index]
            was_over = self.termination is not None
            self._reopen()
            used = move.tiles_used
            if move.kind is MoveKind.ANAGRAM:
                # the rearranged word goes back as it was, without the tiles added
                self.board.tiles[:], self.board.tile_count = board_before
                used = check_anagram(self.board, move).tiles_used
            else:
                self.board.remove(move)
            player = self.players[event.player]
            rack_before = list(before.players[event.player][1])
            # The player takes back the rack they played from; the tiles they
            # drew go back to the bag. (Tiles given to another rack since, as
            # a record replay may do, come back from it.)
            self.bag.put_back(player.rack + [rack_tile(t) for t in used])
            player.rack = []
            self._give_tiles(player, rack_before, what=self.alphabet.format_rack(rack_before))
            player.score -= event.score
            self._append(EventKind.WITHDRAWN, event.player, -event.score, rack=tuple(rack_before))
            # The play becomes a scoreless turn; lost turns skipped since stay counted.
            self.scoreless += before.scoreless + 1 if event.score > 0 else 0
            if was_over:
                self.turn = event.player
                self._next_turn()
            elif self.scoreless >= self.rules.scoreless_limit(n):
                self._finish(Termination.SCORELESS_TURNS, None)
            return ChallengeResult(False, words, phonies)
        mode = self.rules.challenge
        points = -mode.penalty_points
        lost = mode is ChallengeMode.DOUBLE and self.termination is None
        self.players[challenger].score += points
        self._insert_before_end(EventKind.CHALLENGE, challenger, points, rack=tuple(self.players[challenger].rack))
        if lost:
            self.players[challenger].lost_turns += 1
            if self.turn == challenger:
                self.players[challenger].lost_turns -= 1
                self.scoreless += 1
                self._next_turn()
        return ChallengeResult(True, words, (), points, lost)

    def words_of(self, event: Event) -> list[tuple[Tile, ...]]:
        """The words a placement event formed (its tiles still on the board)."""
        assert event.move is not None
        if event.words:
            return list(event.words)
        move = event.move
        if move.kind is MoveKind.ANAGRAM:
            board = self.board.copy()
            board.tiles[:], board.tile_count = self._board_before(self._play_snapshot_index(event))
            return [w.tiles for w in check_anagram(board, move).words]
        board = self.board.copy()
        board.remove(move)
        return [w.tiles for w in board.words(move)]

    def _play_snapshot_index(self, event: Event) -> int:
        for i in range(len(self._stack) - 1, -1, -1):
            undo = self._stack[i].undo
            if isinstance(undo, Move) and undo is event.move:
                return i
        raise IllegalMoveError(Illegal.NOTHING_TO_CHALLENGE, "the play to challenge is no longer in the history")

    def _insert_before_end(self, kind: EventKind, player: int, score: int, **fields: object) -> None:
        """Record an event; if the game is over, keep it before the rack count."""
        if self._end_index is None:
            self._append(kind, player, score, **fields)
            return
        event = Event(kind, player, score, 0, **fields)  # type: ignore[arg-type]
        self.events.insert(self._end_index, event)
        self._end_index += 1
        self._retotal()

    def _retotal(self) -> None:
        totals = [0] * len(self.players)
        for i, e in enumerate(self.events):
            totals[e.player] += e.score
            if e.total != totals[e.player]:
                # a new event, not a change: snapshots share the old one
                self.events[i] = dataclasses.replace(e, total=totals[e.player])

    def add_points(self, player: int, points: int, kind: EventKind = EventKind.CHALLENGE) -> None:
        """Add points to a player outside of a play: a challenge bonus as
        tournament records write it (``(challenge) +5``), or a time penalty
        (negative points, ``kind=EventKind.TIME_PENALTY``). Undone by :meth:`pop`."""
        if kind not in (EventKind.CHALLENGE, EventKind.TIME_PENALTY):
            raise ValueError(f"points are added as a challenge bonus or a time penalty, not {kind.value}")
        self._seat(player)
        self._stack.append(self._snapshot(("points", player, points, kind), light=True, events=True))
        self.players[player].score += points
        if kind is EventKind.CHALLENGE:
            self._insert_before_end(kind, player, points, rack=None)
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
        wanted = self.alphabet.parse_rack(tiles) if isinstance(tiles, str) else [rack_tile(t) for t in tiles]
        me = self.players[self._seat(player)]
        size = len(wanted) if exact else max(len(me.rack), len(wanted))
        if len(wanted) > max(self.rules.rack_size, len(me.rack)):
            raise IllegalMoveError(
                Illegal.TILE_NOT_AVAILABLE,
                f"{self.alphabet.format_rack(wanted)}: {len(wanted)} tiles, a rack holds {self.rules.rack_size}",
            )
        self._keep_bags()
        snapshot = self._snapshot(None)
        try:
            self.bag.put_back(me.rack)
            me.rack = []
            self._give_tiles(me, wanted, what=self.alphabet.format_rack(wanted))
            me.rack.extend(self.bag.draw(size - len(me.rack)))
        except IllegalMoveError:
            self._restore(snapshot)
            raise
        if self.termination is not None:
            self._add_end_events()

    def reshuffle(self, seed: int | None = None) -> None:
        """Shuffle the bag anew from ``seed`` (``None``: unpredictably), and
        the bag as it was at every point :meth:`pop` goes back to: for a game
        rebuilt from a record, whose bag order is not recorded (see
        :func:`tilebag.replay.resume`). The tiles stay where they are.

        >>> game = Game(2, seed=1)
        >>> before = game.bag.tiles()
        >>> game.reshuffle(5)
        >>> game.bag.tiles() == before, game.bag.seed
        (True, 5)
        """
        rng = random.Random(seed)
        for snap, (tiles, _) in zip(self._stack, self._bags_before(), strict=True):
            rng.shuffle(tiles)
            snap.bag = (tuple(tiles), random.Random(rng.getrandbits(64)).getstate())
        self.bag = Bag(self.alphabet, seed, tiles=self.bag.tiles())

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
        me = self._seat(player)
        self._keep_bags()
        held: dict[int, int] = {}
        for i, other in enumerate(self.players):
            if i != me:
                held[i] = len(other.rack)
                self.bag.put_back(other.rack)
                other.rack = []
        self.reshuffle(seed)
        for i, count in held.items():
            self.players[i].rack.extend(self.bag.draw(count))

    def _give_tiles(self, me: Player, tiles: Sequence[Tile], *, what: str) -> None:
        """Move these rack tiles to a player: from the bag, or else from another
        rack, which draws a replacement.

        :raises IllegalMoveError: when a tile is nowhere to be had (the caller
            restores the state).
        """
        for t in tiles:
            if self.bag.contains([t]):
                self.bag.take([t])
            else:
                donor = next((p for p in self.players if p is not me and t in p.rack), None)
                if donor is None:
                    raise IllegalMoveError(
                        Illegal.TILE_NOT_AVAILABLE,
                        f"{what}: no {self.alphabet.label(t)} is left (not in the bag nor on another rack)",
                    )
                donor.rack.remove(t)
                donor.rack.extend(self.bag.draw(1))
            me.rack.append(t)

    # -- records ----------------------------------------------------------

    def record(self, *, lexicon: str | None = None) -> GameRecord:
        """The game so far as a record: the rules options not played as
        standard (:attr:`GameRecord.rule_options`), and with a turn timer
        or a game clock, the time each player used. A game that is not over
        also records every player's rack (:attr:`GameRecord.final_racks`)
        and the player to move (:attr:`GameRecord.to_move`), so that
        :func:`tilebag.replay.resume` can go on with it; a finished game's
        racks are in its end-of-game events."""
        nicknames = _nicknames(self.players)
        timed = self.rules.turn_time is not None or self.rules.game_clock is not None
        name = lexicon
        if name is None and self._lexicon is not None:
            name = self._lexicon.name
        return GameRecord(
            players=[PlayerInfo(nick, p.name) for nick, p in zip(nicknames, self.players, strict=True)],
            events=[_copy_event(e) for e in self.events],
            lexicon=name or "kjxqz",
            alphabet=self.alphabet.name,
            rule_options=self.rules.stated_options(),
            clock_used=tuple(self.clock_used) if timed else None,
            final_racks={} if self.is_over() else {i: tuple(sorted(p.rack)) for i, p in enumerate(self.players)},
            to_move=None if self.is_over() else self.turn,
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
