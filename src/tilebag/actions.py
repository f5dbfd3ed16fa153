"""Actions: what a player does in a game, as data.

A front end hands a :class:`~tilebag.table.Table` an action from a seat
(:meth:`~tilebag.table.Table.act`), and a :class:`~tilebag.game.Game` gives
back, from :meth:`~tilebag.game.Game.pop` and
:attr:`~tilebag.game.Game.move_stack`, the action it undid or keeps, with
what the game needs to tell who did it (:data:`GameAction`). The table offers
every name here too (``from tilebag.table import PlayMove``).

>>> from tilebag.game import Game
>>> game = Game(["alice", "bob"], seed=7, first=0)
>>> game.set_rack(0, "HNOR")
>>> game.push_gcg("8F HORN")
14
>>> game.resign(1)
>>> game.move_stack
[PlayMove(move=Move.from_gcg('8F HORN'), seconds=None), Resign(player=1)]
>>> game.pop()
Resign(player=1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from tilebag.move import Move
from tilebag.record import EventKind


@dataclass(frozen=True)
class Action:
    """Something a seat asks for (each kind below is one), so that a front
    end or a server can pass actions around as data.

    >>> isinstance(Resign(), Action)
    True
    """


@dataclass(frozen=True)
class PlayMove(Action):
    """Play a move (a placement, an exchange, a pass, a variation's action).

    >>> PlayMove(Move.from_gcg("8F HORN"), seconds=5.0).move.gcg()
    '8F HORN'
    """

    move: Move
    seconds: float | None = None
    """The time it took (default: as the table's clock says; for a game's
    move, ``None`` when the game was not told)."""


@dataclass(frozen=True)
class Challenge(Action):
    """Challenge the last play.

    A game's undone challenge (:meth:`~tilebag.game.Game.pop`) says who
    challenged and how it was ruled, so that
    ``game.challenge(action.challenger, valid=action.valid)`` plays it again;
    a table takes the challenger from the seat that acts.

    >>> Challenge(challenger=1, valid=False)
    Challenge(challenger=1, valid=False)
    """

    challenger: int | None = None
    """The player who challenged (``None``: the seat that acts)."""
    valid: bool | None = None
    """The ruling: ``True`` when the play stood, ``False`` when it came off
    (``None``: as the lexicon judges)."""


@dataclass(frozen=True)
class AcceptEnd(Action):
    """Accept the play that ended the game.

    >>> AcceptEnd()
    AcceptEnd()
    """


@dataclass(frozen=True)
class Resign(Action):
    """Resign the game.

    >>> Resign(player=0)
    Resign(player=0)
    """

    player: int | None = None
    """The player who resigned, as a game's undone resignation says it
    (``None``: the seat that acts, at a table)."""


@dataclass(frozen=True)
class TakeBack(Action):
    """Take back the seat's last move and the bots' replies (practice, against bots).

    >>> TakeBack()
    TakeBack()
    """


@dataclass(frozen=True)
class TimeOut(Action):
    """The turn timer of the player to move ran out: the turn is a pass.

    >>> TimeOut(), TimeOut(seconds=181.5)
    (TimeOut(seconds=None), TimeOut(seconds=181.5))
    """

    seconds: float | None = None
    """What the turn took (a table's default: as its clock says; a stored
    game's time out carries it, so that it replays the same)."""


@dataclass(frozen=True)
class AddPoints(Action):
    """Points added to a player outside of a play
    (:meth:`~tilebag.game.Game.add_points`): a challenge bonus as tournament
    records write it, or a time penalty (negative points).

    >>> AddPoints(1, 5)
    AddPoints(player=1, points=5, kind=<EventKind.CHALLENGE: 'challenge'>)
    """

    player: int
    points: int
    kind: EventKind = EventKind.CHALLENGE
    """:attr:`EventKind.CHALLENGE <tilebag.record.EventKind.CHALLENGE>` or
    :attr:`EventKind.TIME_PENALTY <tilebag.record.EventKind.TIME_PENALTY>`."""


GameAction: TypeAlias = PlayMove | TimeOut | Resign | Challenge | AddPoints
"""An action a :class:`~tilebag.game.Game` keeps on its stack and
:meth:`~tilebag.game.Game.pop` undoes: a move (with the seconds it took, as
told), a time-out, a resignation (with who resigned), a challenge (with the
challenger and the ruling) or points added."""


__all__ = ["AcceptEnd", "Action", "AddPoints", "Challenge", "GameAction", "PlayMove", "Resign", "TakeBack", "TimeOut"]
