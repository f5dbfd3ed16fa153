"""A :class:`~tilebag.game.Game`'s undo history: the state before each
action (:class:`_Snapshot`), taken lightly for a move (the squares it
filled, the tiles it drew, the number of events) and whole for the rarer
actions, and put back by :meth:`~tilebag.game.Game.pop`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tilebag.alphabet import Tile
from tilebag.errors import Illegal, IllegalMoveError
from tilebag.move import Move
from tilebag.outcome import Termination
from tilebag.record import Event

if TYPE_CHECKING:
    from tilebag.game import Game


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


def snapshot(game: Game, undo: object, *, light: bool = False, events: bool | None = None) -> _Snapshot:
    """The state before an action. ``light``: the action says itself
    what it changes on the board and in the bag (see :class:`_Snapshot`);
    ``events``: keep the whole list of events (default: unless light)."""
    whole_events = not light if events is None else events
    position = game._position
    return _Snapshot(
        board=() if light else bytes(game._position.board.tiles),
        tile_count=game._position.board.tile_count,
        bag=None if light else game._position.bag.get_state(),
        drawn=(),
        players=[(score, tuple(rack), p.lost_turns) for score, rack, p in zip(position.scores, position.racks, game.players, strict=True)],
        turn=game._position.turn,
        scoreless=game._position.scoreless,
        termination=game.termination,
        went_out=game.went_out,
        challengeable=game._challengeable,
        events=tuple(game.events) if whole_events else len(game.events),
        end_index=game._end_index,
        end_count=game._end_count,
        clocks=game.clocks.state(),
        finish_winner=game.finish_winner,
        resigned=game.resigned,
        undo=undo,
    )


def restore(game: Game, snap: _Snapshot) -> None:
    if isinstance(snap.board, bytes):
        game._position.board.tiles[:] = snap.board
    else:
        for square, old in snap.board:
            game._position.board.tiles[square] = old
    game._position.board.tile_count = snap.tile_count
    if snap.bag is not None:
        game._position.bag.set_state(snap.bag)
    else:
        game._position.bag.undraw(snap.drawn)
    for p, (score, rack, lost) in zip(game.players, snap.players, strict=True):
        p.score, p.rack, p.lost_turns = score, list(rack), lost
    game._position.turn = snap.turn
    game._position.scoreless = snap.scoreless
    game.termination = snap.termination
    game.went_out = snap.went_out
    game._challengeable = snap.challengeable
    game._end_index = snap.end_index
    game._end_count = snap.end_count
    game.clocks.restore(snap.clocks)
    game.finish_winner = snap.finish_winner
    game.resigned = snap.resigned
    if isinstance(snap.events, int):
        del game.events[snap.events :]
    else:
        game.events = list(snap.events)


def bags_before(game: Game) -> list[tuple[list[Tile], object]]:
    """The bag (its tiles in order and its random state) before each
    action on the stack, as :meth:`pop` would put it back, worked out
    from the bag now: an action that kept only its draw did not touch
    the random state."""
    bags: list[tuple[list[Tile], object]] = []
    tiles, rng = game._position.bag.get_state()
    after = (list(tiles), rng)
    for snap in reversed(game._stack):
        before = (list(snap.bag[0]), snap.bag[1]) if snap.bag is not None else (after[0] + list(snap.drawn), after[1])
        bags.append(before)
        after = before
    bags.reverse()
    return bags


def keep_bags(game: Game) -> None:
    """Before the bag changes outside of an action (tiles given to a
    rack, a reshuffle), keep the whole bag of each action that kept only
    its draw, so that :meth:`pop` still puts back the bag as it was."""
    if all(snap.bag is not None for snap in game._stack):
        return
    for snap, (tiles, rng) in zip(game._stack, bags_before(game), strict=True):
        if snap.bag is None:
            snap.bag = (tuple(tiles), rng)


def board_before(game: Game, index: int) -> tuple[bytes, int]:
    """The board before the action at ``index`` of the stack, and its tile count."""
    tiles = bytearray(game._position.board.tiles)
    for snap in reversed(game._stack[index:]):
        if isinstance(snap.board, bytes):
            tiles[:] = snap.board
        else:
            for square, old in snap.board:
                tiles[square] = old
    return bytes(tiles), game._stack[index].tile_count


def play_snapshot_index(game: Game, event: Event) -> int:
    for i in range(len(game._stack) - 1, -1, -1):
        undo = game._stack[i].undo
        if isinstance(undo, Move) and undo is event.move:
            return i
    raise IllegalMoveError(Illegal.NOTHING_TO_CHALLENGE, "the play to challenge is no longer in the history")
