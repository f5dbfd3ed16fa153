"""The pre-endgame: one tile in the bag, solved exactly.

With one tile in the bag, the player to move cannot see eight tiles: the
opponent's rack and the last tile. A placement draws that tile and empties
the bag, and from then on both racks are known: each possible last tile
gives an endgame the exact solver (:mod:`tilebag.engine.endgame.solver`) settles.
So a candidate's worth is exact: for every tile it may draw (weighted by
how many of the unseen tiles are that tile), the endgame after it, with the
opponent to move, is solved; the candidate wins, draws or loses by that
endgame's final spread. The best candidate has the most wins (a draw counts
half), then the best mean final spread.

Candidates are the best placements by static equity. A candidate that
cannot overtake the best found even if it won every draw left is dropped
without solving the rest. Passing (the only move that leaves the tile in
the bag) is not a candidate.

A small one: 22 points ahead with ZA against QI, the opponent holds one
tile and the bag another (E or T). The only placement, A(I), keeps the Z,
and whichever tile the bag holds, the opponent goes out and wins by a point:


>>> from tilebag.board import Board
>>> from tilebag.lexicon import default_lexicon
>>> from tilebag.move import Move
>>> engine = Engine.for_lexicon(default_lexicon())
>>> board = Board()
>>> board.place(Move.from_gcg("8G QI"))
>>> a = board.alphabet
>>> position = Position(board, [a.parse_rack("ZA"), a.parse_rack("T")], Bag(a, tiles=a.parse_rack("E")), [22, 0])
>>> result = solve_preendgame(position, engine, unseen=a.parse_rack("ET"))
>>> best = result.plays[0]
>>> board.notation(best.play.move), [(a.label(o.tile), o.spread) for o in best.outcomes], result.win_chance(best)
('H7 A(I)', [('E', -1), ('T', -1)], 0.0)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tilebag.alphabet import Tile, rack_tile
from tilebag.bag import Bag
from tilebag.engine import Engine
from tilebag.engine.endgame.solver import solve
from tilebag.engine.movegen.generator import Play
from tilebag.move import Move, MoveKind
from tilebag.position import Position
from tilebag.rules import Rules

__all__ = ["DrawOutcome", "PreendgamePlay", "PreendgameResult", "solve_preendgame"]

DEFAULT_CANDIDATES = 20
"""Placements tried, best static equity first."""


@dataclass(frozen=True)
class DrawOutcome:
    """One possible last tile: how many of the unseen tiles are it, and the
    final spread (for the player to move) once the endgame is played out."""

    tile: Tile
    count: int
    spread: int
    exact: bool


@dataclass
class PreendgamePlay:
    """A candidate and how it fares over the possible last tiles."""

    play: Play
    outcomes: list[DrawOutcome] = field(default_factory=list)
    complete: bool = False
    """True when every possible last tile was solved (not dropped, not cut by time)."""

    @property
    def draws(self) -> int:
        return sum(o.count for o in self.outcomes)

    @property
    def wins(self) -> float:
        """Draws (weighted) after which the player wins; a tie counts half."""
        return sum(o.count * (1.0 if o.spread > 0 else 0.5 if o.spread == 0 else 0.0) for o in self.outcomes)

    @property
    def spread(self) -> float:
        """The mean final spread over the tiles solved."""
        total = self.draws
        return sum(o.count * o.spread for o in self.outcomes) / total if total else 0.0

    @property
    def exact(self) -> bool:
        return self.complete and all(o.exact for o in self.outcomes)


@dataclass
class PreendgameResult:
    """The candidates solved completely, best first (win chance, then mean
    spread), and what the search cost."""

    plays: list[PreendgamePlay]
    unseen: int
    """The possible last tiles, counted with their copies (the tiles the
    player cannot see, when the opponent's rack is not known)."""
    endgames: int
    seconds: float
    stopped: bool = False

    @property
    def exact(self) -> bool:
        return bool(self.plays) and all(p.exact for p in self.plays)

    def win_chance(self, play: PreendgamePlay) -> float:
        return play.wins / self.unseen if self.unseen else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "plays": [
                {"move": str(p.play.move), "score": p.play.score, "win": round(self.win_chance(p), 4),
                 "spread": round(p.spread, 2), "exact": p.exact}
                for p in self.plays
            ],
            "endgames": self.endgames,
            "seconds": round(self.seconds, 3),
            "exact": self.exact,
            "stopped": self.stopped,
        }


def solve_preendgame(
    position: Position,
    engine: Engine,
    *,
    unseen: Sequence[Tile],
    draws: Sequence[Tile] | None = None,
    rules: Rules | None = None,
    candidates: int = DEFAULT_CANDIDATES,
    moves: Sequence[Move] | None = None,
    seconds: float | None = None,
    endgame_seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
    threads: int | None = 1,
) -> PreendgameResult:
    """Solve a position with one tile in the bag for the player to move.

    :param unseen: the tiles the player cannot see: the opponent's rack and
        the tile in the bag (the racks and bag of ``position`` are not read
        for the opponent).
    :param draws: the tiles the bag may hold (default: any of ``unseen``;
        with the opponent's rack known, the one tile left over).
    :param candidates: how many of the best placements by static equity to try.
    :param moves: the placements to try instead (an analysis's own candidates).
    :param seconds: the time for the whole search: candidates not finished
        by then are left out (the best of those finished is played).
    :param endgame_seconds: a limit for each endgame (without one, each is
        solved to the end).
    :param stop: asked between endgames: true ends the search as time does.
    :param threads: each endgame's threads (``None``: one a core).
    :raises ValueError: unless the bag holds exactly one tile and there are two players.
    """
    if len(position.bag) != 1 or len(position.racks) != 2:
        raise ValueError("a pre-endgame has two players and exactly one tile in the bag")
    if len(unseen) < 2:
        raise ValueError("a pre-endgame needs the opponent's rack and the last tile among the unseen tiles")
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    me = position.turn
    rack = list(position.racks[me])
    tiles = Counter(unseen if draws is None else draws)
    if draws is not None and (not tiles or any(n > unseen.count(t) for t, n in tiles.items())):
        raise ValueError("the tiles the bag may hold must be among the unseen tiles")
    total = sum(tiles.values())
    plays = [p for p in engine.plays(position.board, rack, bag_count=1, top=None) if p.move.kind is MoveKind.PLACE]
    if moves is not None:
        plays = [p for p in plays if p.move in moves]
    else:
        plays = plays[:candidates]
    solved: list[PreendgamePlay] = []
    endgames = 0
    stopped = False
    best_wins = -1.0
    for play in plays:
        candidate = PreendgamePlay(play)
        left = total
        for tile, count in sorted(tiles.items()):
            if _out_of_time(deadline, stop):
                stopped = True
                break
            if candidate.wins + left < best_wins:  # cannot overtake the best, even winning every draw left
                break
            outcome = _solve_draw(position, engine, rules, play, tile, unseen, endgame_seconds, deadline, threads)
            endgames += 1
            candidate.outcomes.append(DrawOutcome(tile, count, outcome[0], outcome[1]))
            left -= count
        else:
            candidate.complete = True
        if stopped:
            break
        if candidate.complete:
            solved.append(candidate)
            best_wins = max(best_wins, candidate.wins)
    solved.sort(key=lambda c: (c.wins, c.spread), reverse=True)
    return PreendgameResult(solved, total, endgames, time.monotonic() - started, stopped)


def _out_of_time(deadline: float | None, stop: Callable[[], bool] | None) -> bool:
    return (deadline is not None and time.monotonic() > deadline) or (stop is not None and stop())


def _solve_draw(
    position: Position,
    engine: Engine,
    rules: Rules | None,
    play: Play,
    tile: Tile,
    unseen: Sequence[Tile],
    limit: float | None,
    deadline: float | None,
    threads: int | None,
) -> tuple[int, bool]:
    """The final spread for the player to move when ``play`` draws ``tile``
    (the rest of ``unseen`` is the opponent's rack), and whether it is exact."""
    me = position.turn
    kept = list(position.racks[me])
    for t in play.move.tiles_used:
        kept.remove(rack_tile(t))
    opponent = list(unseen)
    opponent.remove(tile)
    board = position.board.copy()
    board.place(play.move)
    scores = list(position.scores)
    scores[me] += play.score
    racks = [list(r) for r in position.racks]
    racks[me] = kept + [tile]
    racks[1 - me] = opponent
    after = Position(
        board, racks, Bag(board.alphabet, tiles=()), scores, scoreless=0, turn=1 - me,
        rack_size=position.rack_size, bingo_tiles=position.bingo_tiles, bingo_bonus=position.bingo_bonus,
    )
    seconds = limit
    if deadline is not None:
        remaining = max(0.001, deadline - time.monotonic())
        seconds = remaining if seconds is None else min(seconds, remaining)
    solution = solve(after, engine, rules=rules, seconds=seconds, threads=threads)
    return -solution.spread, solution.exact
