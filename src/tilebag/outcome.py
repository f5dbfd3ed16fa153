"""What a game is and how it ended: its state (:class:`GameState`), how it
ended (:class:`Termination`), who won (:class:`Outcome`), what a challenge
decided (:class:`ChallengeResult`), and the seats (:class:`Player`).
:mod:`tilebag.game` offers every name here too.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tilebag.alphabet import Tile


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


class Player:
    """A seat at the table: its name, its score and rack, and the turns it
    must still miss. A game's players (:attr:`Game.players
    <tilebag.game.Game.players>`) show their seat in the game as it is now,
    after every action and every undo.

    >>> Player("alice", 14)
    Player(name='alice', score=14, rack=[], lost_turns=0)
    """

    __slots__ = ("name", "_score", "_rack", "_lost_turns")

    def __init__(self, name: str, score: int = 0, rack: list[Tile] | None = None, lost_turns: int = 0) -> None:
        self.name = name
        self._score = score
        self._rack = list(rack or [])
        self._lost_turns = lost_turns

    @property
    def score(self) -> int:
        return self._score

    @score.setter
    def score(self, value: int) -> None:
        self._score = value

    @property
    def rack(self) -> list[Tile]:
        return self._rack

    @rack.setter
    def rack(self, tiles: list[Tile]) -> None:
        self._rack = tiles

    @property
    def lost_turns(self) -> int:
        """Turns this player must still miss (failed double challenges)."""
        return self._lost_turns

    @lost_turns.setter
    def lost_turns(self, count: int) -> None:
        self._lost_turns = count

    def __repr__(self) -> str:
        return f"Player(name={self.name!r}, score={self.score!r}, rack={self.rack!r}, lost_turns={self.lost_turns!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Player):
            return NotImplemented
        return (self.name, self.score, self.rack, self.lost_turns) == (other.name, other.score, other.rack, other.lost_turns)

    __hash__ = None  # type: ignore[assignment]  # mutable
