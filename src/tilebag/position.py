"""The light game state that search works on: a :class:`Position`.

A position is the board, each rack, the bag, the scores, the count of
scoreless turns in a row and the player to move: no names, no events, no
clocks, no lexicon. :meth:`Position.make` plays a checked placement, an
exchange or a pass and returns what :meth:`Position.unmake` needs to take it
back exactly; both take time in proportion to the tiles moved (an exchange
also keeps the bag's order, which it mixes). Simulation and endgame search
make and unmake thousands of moves a second this way;
:class:`~tilebag.game.Game` keeps the history, the events and the clocks on
top of one.

>>> from tilebag.move import Move
>>> from tilebag.board import Board
>>> from tilebag.bag import Bag
>>> board = Board()
>>> position = Position(board, [board.alphabet.parse_rack("HNORXYZ"), []], Bag(board.alphabet, seed=1))
>>> undo = position.make(Move.from_gcg("8F HORN"))
>>> position.scores, position.turn, len(position.racks[0]), len(position.bag)
([14, 0], 1, 7, 96)
>>> position.unmake(undo)
>>> position.scores, position.turn, board.is_empty(), len(position.bag)
([0, 0], 0, True, 100)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tilebag.alphabet import Tile, rack_tile
from tilebag.bag import Bag
from tilebag.board import Board
from tilebag.move import Move, MoveKind


@dataclass(slots=True)
class Undo:
    """What :meth:`Position.make` changed, for :meth:`Position.unmake`."""

    move: Move
    score: int
    rack: tuple[Tile, ...]
    """The rack of the player who moved, before the move."""
    drawn: tuple[Tile, ...]
    """The tiles drawn from the bag."""
    scoreless: int
    turn: int
    bag_state: tuple[tuple[Tile, ...], object] | None = None
    """The bag before an exchange mixed the tiles back in."""


class Position:
    """A board, the racks (seat order), the bag, the scores, the scoreless
    turns in a row and the player to move.

    :param rack_size: tiles a rack is filled to after a move.
    :param bingo_tiles, bingo_bonus: the rules' bingo (for the scores
        :meth:`make` works out).
    """

    __slots__ = ("board", "racks", "bag", "scores", "scoreless", "turn", "rack_size", "bingo_tiles", "bingo_bonus")

    def __init__(
        self,
        board: Board,
        racks: Sequence[list[Tile]],
        bag: Bag,
        scores: Sequence[int] | None = None,
        *,
        scoreless: int = 0,
        turn: int = 0,
        rack_size: int = 7,
        bingo_tiles: int = 7,
        bingo_bonus: int = 50,
    ) -> None:
        self.board = board
        self.racks = [list(rack) for rack in racks]
        self.bag = bag
        self.scores = list(scores) if scores is not None else [0] * len(self.racks)
        if len(self.scores) != len(self.racks):
            raise ValueError(f"{len(self.scores)} scores for {len(self.racks)} racks")
        self.scoreless = scoreless
        self.turn = turn
        self.rack_size = rack_size
        self.bingo_tiles = bingo_tiles
        self.bingo_bonus = bingo_bonus

    def __repr__(self) -> str:
        return f"<Position {self.scores}, player {self.turn} to move, bag {len(self.bag)}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.key() == other.key() and self.bag.get_state() == other.bag.get_state()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def key(self) -> tuple[bytes, tuple[tuple[Tile, ...], ...], tuple[int, ...], int, int, int]:
        """What identifies the position for a search's transposition table:
        the board, each rack as a sorted multiset, the scores, the player to
        move, the scoreless turns and the tiles left in the bag (not their
        order, which no player knows)."""
        return (
            bytes(self.board.tiles),
            tuple(tuple(sorted(rack)) for rack in self.racks),
            tuple(self.scores),
            self.turn,
            self.scoreless,
            len(self.bag),
        )

    def copy(self) -> Position:
        """An independent copy (the bag's order and random state too). A
        game copies its position before every action, so this is kept to
        copying the board, the racks, the bag's tiles and the scores.

        >>> from tilebag.bag import Bag
        >>> board = Board()
        >>> position = Position(board, [board.alphabet.parse_rack("HNORXYZ"), []], Bag(board.alphabet, seed=1))
        >>> twin = position.copy()
        >>> _ = position.make(Move.from_gcg("8F HORN"))
        >>> twin.scores, twin.board.is_empty(), twin == Position(Board(), [board.alphabet.parse_rack("HNORXYZ"), []], Bag(board.alphabet, seed=1))
        ([0, 0], True, True)
        """
        twin = Position.__new__(Position)
        twin.board = self.board.copy()
        twin.racks = [rack.copy() for rack in self.racks]
        twin.bag = self.bag.copy()
        twin.scores = self.scores.copy()
        twin.scoreless, twin.turn = self.scoreless, self.turn
        twin.rack_size, twin.bingo_tiles, twin.bingo_bonus = self.rack_size, self.bingo_tiles, self.bingo_bonus
        return twin

    def is_over(self, scoreless_limit: int | None = None) -> bool:
        """True when a player went out (an empty rack and an empty bag), or
        after ``scoreless_limit`` scoreless turns in a row (default: two per
        player)."""
        limit = 2 * len(self.racks) if scoreless_limit is None else scoreless_limit
        if self.scoreless >= limit:
            return True
        return not len(self.bag) and any(not rack for rack in self.racks)

    def make(self, move: Move, score: int | None = None, *, pass_turn: bool = True) -> Undo:
        """Play a checked placement, exchange or pass for the player to move
        (``score``: what the placement scores, worked out from the board
        when not given) and pass the turn on. Returns what :meth:`unmake`
        needs to take it back.

        ``pass_turn=False`` leaves the turn with the player (a game passes
        it itself, skipping players who lost a turn).

        :raises ValueError: for the variations' actions (recycle, blank swap,
            anagram play), which :class:`~tilebag.game.Game` plays itself.
        """
        me = self.turn
        rack = self.racks[me]
        before = tuple(rack)
        bag_state = None
        if move.kind is MoveKind.PLACE:
            if score is None:
                score = self.board.score(move, bingo_tiles=self.bingo_tiles, bingo_bonus=self.bingo_bonus)
            self.board.place(move)
            for t in move.tiles_used:
                rack.remove(rack_tile(t))
            drawn = self.bag.draw(self.rack_size - len(rack))
            rack.extend(drawn)
            self.scores[me] += score
        elif move.kind is MoveKind.EXCHANGE:
            score = 0
            bag_state = self.bag.get_state()
            drawn = self.bag.draw(len(move.tiles))
            for t in move.tiles:
                rack.remove(t)
            self.bag.put_back(move.tiles)
            rack.extend(drawn)
        elif move.kind is MoveKind.PASS:
            score = 0
            drawn = []
        else:
            raise ValueError(f"a position plays placements, exchanges and passes, not a {move.kind.value}")
        undo = Undo(move, score, before, tuple(drawn), self.scoreless, me, bag_state)
        self.scoreless = 0 if score > 0 else self.scoreless + 1
        if pass_turn:
            self.turn = (me + 1) % len(self.racks)
        return undo

    def unmake(self, undo: Undo) -> None:
        """Take back the move :meth:`make` returned ``undo`` for (the last
        one made): the position is exactly as it was."""
        me = undo.turn
        self.turn = me
        self.scoreless = undo.scoreless
        self.racks[me][:] = undo.rack
        move = undo.move
        if undo.bag_state is not None:
            self.bag.set_state(undo.bag_state)
        else:
            self.bag.undraw(undo.drawn)
        if move.kind is MoveKind.PLACE:
            self.board.remove(move)
            self.scores[me] -= undo.score
