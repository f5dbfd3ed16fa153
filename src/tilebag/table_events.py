"""What happened at a :class:`~tilebag.table.Table`: one event class per
kind, each naming the seat it is about. A front end says them in words
(:mod:`tilebag.ui.narration`), a server sends them to the seats that may see
them (:meth:`Played.public` takes an exchange's tiles out).
"""

from __future__ import annotations

from dataclasses import dataclass

from tilebag.alphabet import Tile
from tilebag.move import Move, MoveKind
from tilebag.outcome import ChallengeResult, Outcome


@dataclass(frozen=True)
class TableEvent:
    """Something that happened at the table (each kind below is one)."""

    seat: int
    """The seat that acted, or that the event is about."""


@dataclass(frozen=True)
class Played(TableEvent):
    """A seat's move was played: a placement, an exchange, a pass, or a
    variation's action that keeps the turn (a recycle, a blank swap).

    An exchange's :attr:`move` names its tiles: only its own seat may see
    them (:meth:`public` takes them out)."""

    move: Move
    notation: str
    """The move in GCG notation, played-through letters in parentheses."""
    score: int = 0
    total: int = 0
    """The seat's score after the move."""
    words: tuple[tuple[str, int], ...] = ()
    """The words a placement formed, with their scores."""
    bingo: int = 0
    """The bingo bonus it earned."""
    rearranged: str = ""
    """An anagram play: the word it rearranged."""
    replaced: Tile | None = None
    """A recycle or blank swap: the board tile it replaced."""
    square: str = ""
    """A recycle or blank swap: the square's name."""
    seconds: float | None = None
    """The time the move took, as counted."""
    exchanged: int = 0
    """An exchange: how many tiles went back."""

    def public(self) -> Played:
        """The event as the other seats may see it: an exchange says how
        many tiles, not which."""
        if self.move.kind is not MoveKind.EXCHANGE or not self.move.tiles:
            return self
        hidden = Move(MoveKind.EXCHANGE)
        return Played(self.seat, hidden, f"-{self.exchanged}", 0, self.total, seconds=self.seconds, exchanged=self.exchanged)


@dataclass(frozen=True)
class TimeUp(TableEvent):
    """The turn timer ran out: the seat's turn was a pass."""

    took: float
    """Seconds the turn had taken."""
    limit: float


@dataclass(frozen=True)
class TurnMissed(TableEvent):
    """The seat missed its turn, lost on a failed challenge."""


@dataclass(frozen=True)
class Challenged(TableEvent):
    """:attr:`seat` challenged the play of :attr:`player`."""

    player: int
    play: str
    """The play challenged, as ``8F HORN (+14)``."""
    score: int
    """What the play had scored."""
    result: ChallengeResult
    turn_before: int
    """The player to move when the challenge was made."""
    scores: tuple[int, ...]
    """Every score after the ruling."""


@dataclass(frozen=True)
class EndAccepted(TableEvent):
    """The seat accepted the play that ended the game."""

    player: int
    play: str


@dataclass(frozen=True)
class Resigned(TableEvent):
    """The seat resigned."""


@dataclass(frozen=True)
class BotRefused(TableEvent):
    """A bot chose a move the rules refuse: it passes instead."""

    move: str
    reason: str


@dataclass(frozen=True)
class BotStalled(TableEvent):
    """A bot kept making recycles and blank swaps: it passes."""

    actions: int


@dataclass(frozen=True)
class Undone(TableEvent):
    """The seat took back its last move and every bot move since; the
    tiles it cannot see were dealt anew."""

    actions: int


@dataclass(frozen=True)
class GameEnded(TableEvent):
    """The game is over (its last play stands). :attr:`seat` is the winner,
    or -1 for a draw."""

    outcome: Outcome
