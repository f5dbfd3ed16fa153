"""The pre-endgame: one tile in the bag, solved exactly, or two.

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

With two tiles in the bag, a placement of two tiles or more draws both:
each pair the bag may hold gives an endgame with the opponent to move,
solved exactly as above. A placement of one tile draws one of the two and
leaves the other in the bag: the opponent then faces a pre-endgame of one
tile in which it knows everything (in that draw). It is valued by letting
the opponent choose what is best for it among its best few placements by
static equity (``replies``: each draws the last tile, and the endgame
after it is solved exactly) and the pass (after which the player chooses
the same way among its own best few placements). The opponent's choices
are limited, so such an outcome is an approximation: it is not ``exact``.
Draws are counted in the order the tiles leave the bag (a pair of
different tiles counts both ways), so that every candidate's draws add up
to the same total. Every draw is solved when that fits in the time (as
the first endgames solved tell), otherwise a seeded sample of draws, the
same for every candidate (:attr:`PreendgameResult.samples`; the candidates
worst by static equity are left out when too few draws would fit for all,
see :data:`MIN_SAMPLES`).

With ZAX, the opponent holding the T or an E or an O and the bag the other
two, X(I) (one tile: each draw in order, valued by the opponent's best
replies) comes out ahead of AX (both tiles drawn: each pair solved
exactly):

>>> position = Position(board, [a.parse_rack("ZAX"), a.parse_rack("T")], Bag(a, tiles=a.parse_rack("EO")), [22, 0])
>>> result = solve_preendgame(position, engine, unseen=a.parse_rack("TEO"))
>>> [(board.notation(p.play.move), round(p.spread, 1), p.exact) for p in result.plays]
[('H7 X(I)', 19.7, False), ('7H AX', 9.7, True)]
>>> [("".join(map(a.label, o.tiles)), o.count, o.spread) for o in result.plays[1].outcomes]
[('EO', 2, 14), ('ET', 2, 8), ('OT', 2, 7)]
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
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

DEFAULT_REPLIES = 5
"""With two tiles in the bag, after a one-tile placement: the opponent's
placements weighed, best static equity first (besides the pass), and the
player's after the opponent passes."""

PROBE_ENDGAMES = 3
"""With two tiles in the bag and a time budget: the endgames solved before
deciding whether every draw fits in the time."""

PROBE_SHARE = 0.1
"""The share of the time budget those first endgames may take (one that
takes longer gives the search up: stopped, no candidate)."""

FIT_SHARE = 0.7
"""The share of the time left that the draws chosen after them are meant
to take (endgames vary a lot in time)."""

MIN_SAMPLES = 8
"""With a time budget, the fewest sampled draws worth valuing the candidates
over (or every draw, when there are fewer): when fewer fit, the candidates
worst by static equity are left out, and when fewer fit even two, the search
gives up (stopped, no candidate)."""


@dataclass(frozen=True)
class DrawOutcome:
    """One possible last tile: how many of the unseen tiles are it, and the
    final spread (for the player to move) once the endgame is played out.

    With two tiles in the bag, ``tiles`` holds both: after a one-tile
    placement the tile drawn, then the one left in the bag; after a
    placement that draws both, the pair in tile order. ``tile`` is the first
    of them, and ``count`` counts the draws in the order the tiles leave the
    bag (a pair of different tiles both ways), or the times sampled.
    """

    tile: Tile
    count: int
    spread: int
    exact: bool
    tiles: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        if not self.tiles:
            object.__setattr__(self, "tiles", (self.tile,))


@dataclass
class PreendgamePlay:
    """A candidate and how it fares over the possible last tiles."""

    play: Play
    outcomes: list[DrawOutcome] = field(default_factory=list)
    complete: bool = False
    """True when every possible last tile was solved (not dropped, not cut by time)."""
    sampled: bool = False
    """True when its draws are a sample of those possible (two tiles in the bag)."""

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
        return self.complete and not self.sampled and all(o.exact for o in self.outcomes)


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
    samples: int = 0
    """With two tiles in the bag, the draws sampled, the same for every
    candidate (0: every draw was solved)."""
    bag: int = 1
    """The tiles in the bag."""

    @property
    def exact(self) -> bool:
        return bool(self.plays) and not self.samples and all(p.exact for p in self.plays)

    def win_chance(self, play: PreendgamePlay) -> float:
        """The share of its draws the candidate wins (a tie counts half)."""
        return play.wins / play.draws if play.draws else 0.0

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
            "bag": self.bag,
            "samples": self.samples,
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
    replies: int = DEFAULT_REPLIES,
    samples: int | None = None,
    seed: int = 0,
) -> PreendgameResult:
    """Solve a position with one or two tiles in the bag for the player to move.

    :param unseen: the tiles the player cannot see: the opponent's rack and
        the tiles in the bag (the racks and bag of ``position`` are not read
        for the opponent).
    :param draws: the tiles the bag may hold (default: any of ``unseen``;
        with the opponent's rack known, the tiles left over).
    :param candidates: how many of the best placements by static equity to try.
    :param moves: the placements to try instead (an analysis's own candidates).
    :param seconds: the time for the whole search: candidates not finished
        by then are left out (the best of those finished is played). With
        two tiles in the bag, draws are sampled when solving every one would
        not fit in it (and the candidates worst by static equity left out
        when too few draws would, see :data:`MIN_SAMPLES`).
    :param endgame_seconds: a limit for each endgame (without one, each is
        solved to the end).
    :param stop: asked between endgames: true ends the search as time does.
    :param threads: each endgame's threads (``None``: one a core).
    :param replies: with two tiles in the bag, after a one-tile placement:
        the opponent's placements weighed besides the pass (and the
        player's, after that pass).
    :param samples: with two tiles in the bag, value every candidate over
        this many draws sampled instead of every draw.
    :param seed: the seed the draws are sampled with.
    :raises ValueError: unless the bag holds one or two tiles and there are
        two players, for ``draws`` not among ``unseen``, and for too few
        tiles unseen.
    """
    bag = len(position.bag)
    if bag not in (1, 2) or len(position.racks) != 2:
        raise ValueError(f"a pre-endgame has two players and exactly one tile in the bag, or two (this bag holds {bag})")
    if len(unseen) < bag + 1:
        raise ValueError(
            "a pre-endgame needs the opponent's rack and the last tile among the unseen tiles" if bag == 1 else
            f"a pre-endgame with two tiles in the bag needs the opponent's rack and both tiles among the unseen tiles "
            f"(only {len(unseen)} unseen)"
        )
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    me = position.turn
    rack = list(position.racks[me])
    tiles = Counter(unseen if draws is None else draws)
    if draws is not None and (not tiles or any(n > unseen.count(t) for t, n in tiles.items())):
        raise ValueError("the tiles the bag may hold must be among the unseen tiles")
    total = sum(tiles.values())
    if total < bag:
        raise ValueError(f"the bag holds {bag} tiles but only {total} are given as the tiles it may hold")
    if samples is not None and samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    if replies < 1:
        raise ValueError(f"replies must be at least 1, not {replies}")
    plays = [p for p in engine.plays(position.board, rack, bag_count=bag, top=None) if p.move.kind is MoveKind.PLACE]
    if moves is not None:
        plays = [p for p in plays if p.move in moves]
    else:
        plays = plays[:candidates]
    if bag == 2:
        search = _TwoTiles(position, engine, rules, unseen, tiles, endgame_seconds, deadline, stop, threads, replies)
        return search.run(plays, samples, seed, started)
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


class _OutOfTime(Exception):
    """The time ran out (or the search was stopped) before an endgame."""


Draw = tuple[Tile, Tile]
"""Two tiles in the order they leave the bag."""


class _TwoTiles:
    """The pre-endgame with two tiles in the bag (see the module's text)."""

    def __init__(
        self,
        position: Position,
        engine: Engine,
        rules: Rules | None,
        unseen: Sequence[Tile],
        tiles: Counter[Tile],
        limit: float | None,
        deadline: float | None,
        stop: Callable[[], bool] | None,
        threads: int | None,
        replies: int,
    ) -> None:
        self.position = position
        self.engine = engine
        self.rules = rules
        self.unseen = list(unseen)
        self.tiles = tiles
        self.limit = limit
        self.deadline = deadline
        self.stop = stop
        self.threads = threads
        self.replies = replies
        self.scoreless_limit = (rules or engine.rules).scoreless_limit(2)
        self.endgames = 0
        self.spent = 0.0
        """The seconds the endgames took."""
        self.solved: dict[tuple[int, Draw], tuple[int, bool]] = {}
        """Each candidate's (by index) outcome of a draw, once solved."""
        self.probe_until: float | None = None
        """While the first endgames are timed: when they must have ended."""

    def run(self, plays: Sequence[Play], samples: int | None, seed: int, started: float) -> PreendgameResult:
        ordered = _ordered_draws(self.tiles)
        total = sum(ordered.values())
        pool = sorted(self.tiles.elements())
        stopped = False
        solved: list[PreendgamePlay] = []
        try:
            if samples is None and self.deadline is not None and plays:
                samples, kept = self._samples_fitting(plays, ordered, pool, seed)
                plays = plays[:kept]
            sample = None if samples is None else _sampled(pool, seed, samples)
            best_wins = -1.0
            for index, play in enumerate(plays):
                weights = Counter[Draw]()
                for draw, ways in (ordered.items() if sample is None else ((d, 1) for d in sample)):
                    weights[_key(play, draw)] += ways
                candidate = PreendgamePlay(play, sampled=sample is not None)
                left = total if sample is None else len(sample)
                for key, count in sorted(weights.items()):
                    if candidate.wins + left < best_wins:  # cannot overtake the best, even winning every draw left
                        break
                    spread, exact = self._outcome(index, play, key)
                    candidate.outcomes.append(DrawOutcome(key[0], count, spread, exact, key))
                    left -= count
                else:
                    candidate.complete = True
                    solved.append(candidate)
                    best_wins = max(best_wins, candidate.wins)
        except _OutOfTime:
            stopped = True
        solved.sort(key=lambda c: (c.wins, c.spread), reverse=True)
        return PreendgameResult(
            solved, sum(self.tiles.values()), self.endgames, time.monotonic() - started, stopped,
            samples=samples or 0, bag=2,
        )

    def _samples_fitting(
        self, plays: Sequence[Play], ordered: dict[Draw, int], pool: list[Tile], seed: int,
    ) -> tuple[int | None, int]:
        """Solve the first candidate's first sampled draws, and from the time
        they took decide how many draws, and how many candidates, fit in the
        time left: every draw of every candidate (``None``), else as many
        sampled draws as fit, for the candidates best by static equity for
        which at least :data:`MIN_SAMPLES` do (two candidates at least).

        :raises _OutOfTime: when not even that fits, or an endgame takes
            longer than :data:`PROBE_SHARE` of the time."""
        assert self.deadline is not None
        self.probe_until = time.monotonic() + PROBE_SHARE * (self.deadline - time.monotonic())
        keys = {_key(plays[0], draw) for draw in ordered}
        probed = 0
        for draw in _draws(pool, seed):  # an endgame that does not end by the probe's time gives up the search
            if self.endgames >= PROBE_ENDGAMES or time.monotonic() > self.probe_until or len(keys) == 0:
                break
            probed += 1
            key = _key(plays[0], draw)
            self._outcome(0, plays[0], key)
            keys.discard(key)
        self.probe_until = None
        each = self.spent / self.endgames if self.endgames else 0.0
        per_draw = [1 if len(p.move.tiles_used) >= 2 else 2 * self.replies for p in plays]
        every = sum(len({_key(p, d) for d in ordered}) * n for p, n in zip(plays, per_draw, strict=True))
        left = FIT_SHARE * (self.deadline - time.monotonic())
        if each * (every - self.endgames) <= left:
            return None, len(plays)
        for kept in range(len(plays), 1, -1):
            fitting = int(left / (each * sum(per_draw[:kept])))
            if fitting >= min(MIN_SAMPLES, len(ordered)):
                return max(probed, fitting), kept
        raise _OutOfTime

    def _outcome(self, index: int, play: Play, key: Draw) -> tuple[int, bool]:
        """The final spread for the player to move after ``play`` when the bag
        holds ``key`` (see :func:`_key`), and whether it is exact."""
        if (index, key) in self.solved:
            return self.solved[index, key]
        position = self.position
        me = position.turn
        racks = [list(r) for r in position.racks]
        racks[1 - me] = list(self.unseen)
        for tile in key:
            racks[1 - me].remove(tile)
        start = Position(
            position.board, racks, Bag(position.board.alphabet, tiles=()), position.scores, scoreless=position.scoreless,
            turn=me, rack_size=position.rack_size, bingo_tiles=position.bingo_tiles, bingo_bonus=position.bingo_bonus,
        )
        first, second = key
        if len(play.move.tiles_used) >= 2:
            spread, exact = self._endgame(_placed(start, play.move, play.score, [first, second], []))
            outcome = (-spread, exact)
        else:
            outcome = (-self._known_peg(_placed(start, play.move, play.score, [first], [second]), may_pass=True), False)
        self.solved[index, key] = outcome
        return outcome

    def _known_peg(self, position: Position, *, may_pass: bool) -> int:
        """The final spread for the player to move, one tile in the bag and
        both racks known: the best of its best ``replies`` placements (each
        followed by the exact endgame) and, when ``may_pass``, the pass
        (after which the other does the same, without passing). With neither,
        as if the game stopped, each rack counted against its owner."""
        me = position.turn
        last = position.bag.tiles()
        plays = [p for p in self.engine.plays(position.board, position.racks[me], bag_count=1, top=None)
                 if p.move.kind is MoveKind.PLACE]
        values = []
        for play in plays[: self.replies]:
            spread, _ = self._endgame(_placed(position, play.move, play.score, last, []))
            values.append(-spread)
        if may_pass:
            passed = Position(
                position.board, position.racks, position.bag, position.scores, scoreless=position.scoreless + 1,
                turn=1 - me, rack_size=position.rack_size, bingo_tiles=position.bingo_tiles,
                bingo_bonus=position.bingo_bonus,
            )
            if passed.scoreless >= self.scoreless_limit:
                values.append(self._counted(position))
            else:
                values.append(-self._known_peg(passed, may_pass=False))
        return max(values) if values else self._counted(position)

    def _counted(self, position: Position) -> int:
        """The final spread for the player to move if the game stopped here,
        each rack counted against its owner."""
        me = position.turn
        value = self.engine.alphabet.scores
        mine, theirs = (sum(value[t] for t in position.racks[i]) for i in (me, 1 - me))
        return position.scores[me] - position.scores[1 - me] - mine + theirs

    def _endgame(self, position: Position) -> tuple[int, bool]:
        """The final spread for the player to move (the bag empty), and
        whether it is exact.

        :raises _OutOfTime: once the time is up (also when it ran out during
            the search; while probing, the probe's time)."""
        until = self.deadline if self.probe_until is None else self.probe_until
        if _out_of_time(until, self.stop):
            raise _OutOfTime
        seconds = self.limit
        if until is not None:
            remaining = max(0.001, until - time.monotonic())
            seconds = remaining if seconds is None else min(seconds, remaining)
        began = time.monotonic()
        solution = solve(position, self.engine, rules=self.rules, seconds=seconds, stop=self.stop, threads=self.threads)
        self.spent += time.monotonic() - began
        self.endgames += 1
        if not solution.exact and _out_of_time(until, self.stop):
            raise _OutOfTime
        return solution.spread, solution.exact


def _key(play: Play, draw: Draw) -> Draw:
    """What matters of a draw to ``play``: the order for a one-tile
    placement (the first tile drawn, the second left in the bag), only the
    pair for one that draws both."""
    return draw if len(play.move.tiles_used) < 2 else (min(draw), max(draw))


def _ordered_draws(tiles: Counter[Tile]) -> dict[Draw, int]:
    """Every draw of two of ``tiles``, in order, and the ways it comes."""
    draws = {}
    for first, many in sorted(tiles.items()):
        for second, others in sorted(tiles.items()):
            ways = many * (others - 1 if first == second else others)
            if ways:
                draws[first, second] = ways
    return draws


def _draws(pool: list[Tile], seed: int) -> Iterator[Draw]:
    """Draws of two of ``pool`` at random, one after the other, seeded."""
    rng = random.Random(seed)
    while True:
        first, second = rng.sample(range(len(pool)), 2)
        yield pool[first], pool[second]


def _sampled(pool: list[Tile], seed: int, samples: int) -> list[Draw]:
    """The first ``samples`` of :func:`_draws`."""
    draws = _draws(pool, seed)
    return [next(draws) for _ in range(samples)]


def _placed(position: Position, move: Move, score: int, drawn: Sequence[Tile], left: Sequence[Tile]) -> Position:
    """A new position: the player to move places ``move`` (for ``score``) and
    draws ``drawn``, ``left`` stays in the bag, and the other is to move."""
    me = position.turn
    board = position.board.copy()
    board.place(move)
    racks = [list(r) for r in position.racks]
    for t in move.tiles_used:
        racks[me].remove(rack_tile(t))
    racks[me].extend(drawn)
    scores = list(position.scores)
    scores[me] += score
    return Position(
        board, racks, Bag(board.alphabet, tiles=left), scores, scoreless=0 if score > 0 else position.scoreless + 1,
        turn=1 - me, rack_size=position.rack_size, bingo_tiles=position.bingo_tiles, bingo_bonus=position.bingo_bonus,
    )
