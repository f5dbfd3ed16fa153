"""The exact endgame solver: the bag is empty and both racks are known.

A negamax search with alpha-beta pruning, iterative deepening, a
transposition table with a memory limit, and moves ordered by their static
value (the table's best move first), playing on a light
:class:`~tilebag.position.Position` with make and unmake. It searches to the
end of the game: a player going out (the other's rack counted as the rules
say) or the scoreless turns running out (each rack counted against its
owner). The value of a position is the spread the player to move can make
from it: their final score minus the other's, minus the same now.

When a depth reaches the end of every line the search is exact and stops;
with a time limit it returns the best line of the deepest search finished.

With the compiled core (an engine whose core is ``native``) the search runs
in C (``engine/native/endgame.c``), without holding the GIL, many times
faster: the same search but for the order of its moves (those that go out
first, by what they are worth), and on as many threads as it is given
(Lazy SMP: searches sharing one transposition table). It finds the value
the search written here finds (the reference, ``core="python"``), and the
same move however many threads it has: the first in its fixed order that
makes the value.

>>> from tilebag.bag import Bag
>>> from tilebag.board import Board
>>> from tilebag.lexicon import default_lexicon
>>> from tilebag.move import Move
>>> engine = Engine.for_lexicon(default_lexicon())
>>> board = Board()
>>> board.place(Move.from_gcg("8G QI"))
>>> racks = [board.alphabet.parse_rack("ZA"), board.alphabet.parse_rack("AT")]
>>> solution = solve(Position(board, racks, Bag(board.alphabet, tiles=()), [22, 0]), engine)
>>> solution.exact, [m.notation for m in solution.moves], solution.spread
(True, ['H7 A(I)', 'G8 (Q)AT'], -9)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from tilebag.alphabet import Tile
from tilebag.board import Board
from tilebag.engine import Engine
from tilebag.engine.movegen.generator import CORES, native_available
from tilebag.move import Move, MoveKind
from tilebag.position import Position
from tilebag.rules import Rules

if TYPE_CHECKING:
    from tilebag.engine._native import EndgameLineMove

INFINITY = 1 << 30
ENTRY_BYTES = 160
"""About what one transposition-table entry costs in memory."""

EXACT, LOWER, UPPER = 0, 1, 2
TO_THE_END = 1 << 20
"""The depth stored for a position searched to the end of every line."""


class OutOfTime(Exception):
    """The search's time ran out."""


@dataclass(frozen=True)
class EndgameMove:
    """A move of the solution, in GCG notation with its score."""

    move: Move
    notation: str
    score: int


@dataclass
class EndgameSolution:
    """The best line found and what it is worth to the player to move."""

    moves: list[EndgameMove]
    spread: int
    """The final spread for the player to move (their score minus the other's, at the end)."""
    gain: int
    """What the line adds to the player to move's spread from now."""
    exact: bool
    """True when the search reached the end of every line: the value is the game's."""
    depth: int
    nodes: int
    seconds: float
    depths: list[tuple[int, int, float]] = field(default_factory=list)
    """Each finished depth: the depth, its value (gain) and the seconds so far."""
    stopped: bool = False
    """True when Ctrl+C stopped the search."""

    def to_dict(self) -> dict[str, object]:
        return {
            "moves": [{"move": m.notation, "score": m.score} for m in self.moves],
            "spread": self.spread,
            "gain": self.gain,
            "exact": self.exact,
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
        }


class _Search:
    def __init__(self, position: Position, engine: Engine, scoreless_limit: int, table_entries: int, deadline: float | None) -> None:
        self.position = position
        self.engine = engine
        self.board = position.board
        self.scoreless_limit = scoreless_limit
        self.table: dict[tuple[bytes, tuple[Tile, ...], tuple[Tile, ...], int, int], tuple[int, int, int, Move | None]] = {}
        self.table_entries = table_entries
        self.deadline = deadline
        self.stop: Callable[[], bool] | None = None
        self.nodes = 0
        self.cut_by_depth = False
        self.values = engine.alphabet.scores

    def rack_value(self, rack: Sequence[Tile]) -> int:
        return sum(self.values[t] for t in rack)

    def moves(self, me: int, first: Move | None = None) -> Iterator[tuple[Move, int]]:
        """The player's moves, ``first`` (the table's best) first, then the
        placements by static value, then the pass. Plays are read from the
        move generator only as the search gets to them: a cut-off early
        saves reading the rest."""
        if first is not None:
            yield first, self.score(first)
        for play in self.engine.plays(self.board, self.position.racks[me], bag_count=0):
            move = play.move
            if move.kind is MoveKind.PLACE and move != first:
                yield move, play.score
        if first is None or first.kind is not MoveKind.PASS:
            yield Move.pass_(), 0

    def score(self, move: Move) -> int:
        if move.kind is not MoveKind.PLACE:
            return 0
        position = self.position
        return self.board.score(move, bingo_tiles=position.bingo_tiles, bingo_bonus=position.bingo_bonus)

    def key(self) -> tuple[bytes, tuple[Tile, ...], tuple[Tile, ...], int, int]:
        position = self.position
        return (
            bytes(self.board.tiles),
            tuple(sorted(position.racks[0])),
            tuple(sorted(position.racks[1])),
            position.turn,
            position.scoreless,
        )

    def negamax(self, depth: int, alpha: int, beta: int) -> int:
        """The spread the player to move makes from here (searching ``depth`` plies)."""
        self.nodes += 1
        if self.nodes & 255 == 0 and (
            (self.deadline is not None and time.monotonic() > self.deadline) or (self.stop is not None and self.stop())
        ):
            raise OutOfTime
        position = self.position
        me = position.turn
        other = 1 - me
        if depth == 0:
            self.cut_by_depth = True
            # not the end yet: as if the game stopped here with each rack counted against its owner
            return self.rack_value(position.racks[other]) - self.rack_value(position.racks[me])
        key = self.key()
        stored = self.table.get(key)
        first: Move | None = None
        if stored is not None:
            stored_depth, value, kind, first = stored
            if stored_depth >= depth and (
                kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha)
            ):
                if stored_depth != TO_THE_END:
                    self.cut_by_depth = True  # what was stored stopped short of the end somewhere
                return value
        outer_cut, self.cut_by_depth = self.cut_by_depth, False
        start_alpha = alpha
        best, best_move = -INFINITY, None
        for move, score in self.moves(me, first):
            undo = position.make(move, score)
            if not position.racks[me]:  # went out: the other's rack is counted to this player
                value = score + 2 * self.rack_value(position.racks[other])
            elif position.scoreless >= self.scoreless_limit:
                value = score - self.rack_value(position.racks[me]) + self.rack_value(position.racks[other])
            elif best_move is None:
                value = score - self.negamax(depth - 1, score - beta, score - alpha)
            else:  # a null window first: most moves are only shown to be no better than the best so far
                value = score - self.negamax(depth - 1, score - alpha - 1, score - alpha)
                if alpha < value < beta:  # better after all: its true value, with the whole window
                    value = score - self.negamax(depth - 1, score - beta, score - alpha)
            position.unmake(undo)
            if value > best:
                best, best_move = value, move
                alpha = max(alpha, best)
                if best >= beta:
                    break
        kind = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        searched = depth if self.cut_by_depth else TO_THE_END
        if len(self.table) < self.table_entries or key in self.table:
            self.table[key] = (searched, best, kind, best_move)
        self.cut_by_depth = self.cut_by_depth or outer_cut
        return best

    def line(self, depth: int) -> list[EndgameMove]:
        """The principal variation, read from the table."""
        moves: list[EndgameMove] = []
        undos = []
        position = self.position
        for _ in range(depth):
            if position.is_over(self.scoreless_limit):
                break
            stored = self.table.get(self.key())
            if stored is None or stored[3] is None:
                break
            move = stored[3]
            score = self.board.score(move, bingo_tiles=position.bingo_tiles, bingo_bonus=position.bingo_bonus) if move.kind is MoveKind.PLACE else 0
            notation = self.board.notation(move) if move.kind is MoveKind.PLACE else "-"
            moves.append(EndgameMove(move, notation, score))
            undos.append(position.make(move, score))
        for undo in reversed(undos):
            position.unmake(undo)
        return moves


def solve(
    position: Position,
    engine: Engine,
    *,
    rules: Rules | None = None,
    max_depth: int = 30,
    seconds: float | None = None,
    table_megabytes: int = 256,
    on_depth: Callable[[int, int, float], None] | None = None,
    stop: Callable[[], bool] | None = None,
    on_line: Callable[[EndgameSolution], None] | None = None,
    core: str | None = None,
    threads: int | None = 1,
) -> EndgameSolution:
    """Solve a two-player endgame (bag empty) for the player to move.

    :param rules: the rules for the scoreless turns that end a game
        (default: the engine's).
    :param max_depth: the deepest search (plies).
    :param seconds: stop after this long with the deepest line finished.
    :param table_megabytes: the transposition table's memory limit.
    :param on_depth: called after each depth with the depth, its value and the seconds so far.
    :param stop: asked now and then: true ends the search as the time running out does.
    :param on_line: called after each depth with the solution so far.
    :param core: ``native`` (the compiled search: many times faster, at
        most 250 plies deep) or ``python`` (the reference); default: the
        engine's core.
    :param threads: the compiled search's threads (``None``: one a core;
        the reference searches on one). The value and the move do not
        depend on it.
    :raises ValueError: for a position with tiles in the bag or not two
        players, a core that is unknown or not built, or fewer than one thread.
    """
    if len(position.bag) or len(position.racks) != 2:
        raise ValueError("an endgame has two players and an empty bag")
    core = core or engine.core
    if core not in CORES:
        raise ValueError(f"no endgame search core {core!r} (known: {', '.join(CORES)})")
    if core == "native" and not native_available():
        raise ValueError("the compiled core is not available in this installation (it needs a C compiler at install)")
    threads = threads_for(threads)
    limits = _Limits((rules or engine.rules).scoreless_limit(2), max_depth, seconds, table_megabytes, threads)
    report = _Report(position, on_depth, on_line)
    if core == "native":
        return _solve_native(position, engine, limits, report, stop)
    return _solve_python(position, engine, limits, report, stop)


MOST_THREADS = 64
"""The most threads one search runs on (the compiled core's limit)."""


def threads_for(threads: int | None) -> int:
    """The threads a search runs on: ``threads``, or one a core for ``None``
    (at most :data:`MOST_THREADS`).

    >>> threads_for(2), threads_for(None) >= 1
    (2, True)
    """
    if threads is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        return max(1, min(MOST_THREADS, cores))
    if not 1 <= threads <= MOST_THREADS:
        raise ValueError(f"an endgame search runs on 1 to {MOST_THREADS} threads, not {threads}")
    return threads


@dataclass(frozen=True)
class _Limits:
    """What bounds one search."""

    scoreless_limit: int
    max_depth: int
    seconds: float | None
    table_megabytes: int
    threads: int = 1


class _Report:
    """The depths a search finished, told to the caller as they come."""

    def __init__(
        self,
        position: Position,
        on_depth: Callable[[int, int, float], None] | None,
        on_line: Callable[[EndgameSolution], None] | None,
    ) -> None:
        self.started = time.monotonic()
        me = position.turn
        self.now = position.scores[me] - position.scores[1 - me]
        """The spread of the player to move now."""
        self.on_depth = on_depth
        self.on_line = on_line
        self.depths: list[tuple[int, int, float]] = []
        self.found: EndgameSolution | None = None
        """The solution of the deepest depth finished."""

    def depth_done(self, depth: int, value: int, exact: bool, nodes: int, moves: Callable[[], list[EndgameMove]]) -> None:
        """A depth finished with ``value``; ``moves`` reads its line."""
        elapsed = time.monotonic() - self.started
        self.depths.append((depth, value, elapsed))
        if self.on_depth is not None:
            self.on_depth(depth, value, elapsed)
        self.found = EndgameSolution(moves(), self.now + value, value, exact, depth, nodes, elapsed, list(self.depths))
        if self.on_line is not None:
            self.on_line(self.found)

    def result(self, position: Position, engine: Engine, nodes: int, stopped: bool) -> EndgameSolution:
        """The deepest solution, or when no depth finished the first play in
        the search's order (by static value), as a depth-0 guess."""
        found = self.found
        if found is None:
            move, score = _first_move(position, engine)
            notation = position.board.notation(move) if move.kind is MoveKind.PLACE else "-"
            found = EndgameSolution([EndgameMove(move, notation, score)], self.now + score, score, False, 0, nodes, 0.0)
        found.nodes, found.seconds, found.stopped = nodes, time.monotonic() - self.started, stopped
        return found


def _first_move(position: Position, engine: Engine) -> tuple[Move, int]:
    """The player to move's best placement by static endgame value (the pass when there is none)."""
    plays = engine.plays(position.board, position.racks[position.turn], bag_count=0, top=1)
    return (plays[0].move, plays[0].score) if plays else (Move.pass_(), 0)


def _solve_python(position: Position, engine: Engine, limits: _Limits, report: _Report, stop: Callable[[], bool] | None) -> EndgameSolution:
    """The reference search, in Python."""
    search = _Search(
        position.copy(),
        engine,
        limits.scoreless_limit,
        max(1000, limits.table_megabytes * 1024 * 1024 // ENTRY_BYTES),
        None if limits.seconds is None else report.started + limits.seconds,
    )
    search.stop = stop
    stopped = False
    for depth in range(1, limits.max_depth + 1):
        search.cut_by_depth = False
        try:
            value = search.negamax(depth, -INFINITY, INFINITY)
        except OutOfTime:
            break
        except KeyboardInterrupt:  # Ctrl+C: the deepest line finished so far
            stopped = True
            break
        exact = not search.cut_by_depth
        report.depth_done(depth, value, exact, search.nodes, partial(search.line, depth))
        if exact:
            break
    return report.result(position, engine, search.nodes, stopped)


def _solve_native(position: Position, engine: Engine, limits: _Limits, report: _Report, stop: Callable[[], bool] | None) -> EndgameSolution:
    """The compiled search (:meth:`tilebag.engine._native.Core.endgame`):
    the same search as the reference, in C, without the GIL."""
    core = engine.generator._native_core()
    me = position.turn

    def depth_done(depth: int, value: int, exact: bool, nodes: int, line: list[EndgameLineMove]) -> None:
        report.depth_done(depth, value, exact, nodes, lambda: _native_line(position.board, line))

    try:
        _depth, _value, _exact, nodes, _line, stopped = core.endgame(
            position.board.tiles,
            bytes(position.racks[me]),
            bytes(position.racks[1 - me]),
            position.scoreless,
            limits.scoreless_limit,
            limits.max_depth,
            -1.0 if limits.seconds is None else limits.seconds,
            limits.table_megabytes,
            stop,
            depth_done,
            limits.threads,
        )
    except KeyboardInterrupt:  # Ctrl+C while a depth was reported: the deepest line finished so far
        nodes, stopped = report.found.nodes if report.found else 0, True
    return report.result(position, engine, nodes, stopped)


def _native_line(board: Board, line: Sequence[EndgameLineMove]) -> list[EndgameMove]:
    """The compiled search's line as moves in notation (read on a copy of the board)."""
    board = board.copy()
    moves: list[EndgameMove] = []
    for kind, start, lane, down, tiles, score in line:
        if kind != 0:
            moves.append(EndgameMove(Move.pass_(), "-", 0))
            continue
        move = Move(MoveKind.PLACE, start if down else lane, lane if down else start, down, tuple(tiles))
        moves.append(EndgameMove(move, board.notation(move), score))
        board.place(move)
    return moves
