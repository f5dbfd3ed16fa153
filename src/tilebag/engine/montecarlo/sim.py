"""Monte Carlo simulation: a play chosen by playing the game on.

For the player to move, the best plays by static equity are the
candidates. Each iteration draws a rack for the opponent from the tiles the
player cannot see (the rest, in a shuffled order, is the bag); after the
opponent's placement the rack holds one of the leaves with which the static
player would have made it (:mod:`tilebag.engine.montecarlo.inference`), and every
candidate is played out for a few plies with the static policy from that
same draw, so that the candidates are compared on the same luck. A
candidate's value in an iteration is the player's chance of winning after
the rollout (:mod:`tilebag.engine.equity.winpct`: from the spread then, counting
what each side's last play kept as its equity did, the player's for it and
the opponent's against it, and the tiles unseen), with the spread to
break ties; or, without a win table, that spread alone. A rollout that
ends the game counts the racks left as the rules do, and is won, drawn or
lost (its chance 1, a half or 0). Late in the game
(:data:`LATE_BAG` tiles in the bag or fewer) the rollouts play on to the
end, and with the bag empty, where the racks are known and every deal is
the same, each candidate is played out once.
After each round, a candidate clearly worse than the best is dropped (99%,
by its differences from the best iteration by iteration: both met the same
draws); the search stops when one is left or the time is up, and plays the
best mean.

An iteration's deal is a seeded shuffle of the unseen tiles
(:func:`dealt`): the opponent's rack, then the bag, drawn from its end. The
rollouts run in the compiled core (``Core.rollouts``: each side's best play
found, made on a copy of the board, nothing allocated per play), and here,
the reference, on one light :class:`~tilebag.position.Position` with the
same deals, for the reference core, leave values the compiled core does not
compute, and a first move (whose rollouts count the opening adjustment).
Both give the same values.

>>> from tilebag import Game
>>> game = Game(["sim", "other"], seed=3)
>>> sim = SimPlayer("sim", seconds=0.2, seed=1)
>>> move = sim.choose(game)
>>> move in game.legal_moves, sim.last.iterations > 0
(True, True)
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from statistics import NormalDist

from tilebag.alphabet import Alphabet, Tile
from tilebag.bag import Bag
from tilebag.engine import Engine
from tilebag.engine.equity.winpct import WinTable
from tilebag.engine.montecarlo.inference import infer_from_game
from tilebag.engine.movegen.generator import Play
from tilebag.engine.players import StaticPlayer, engine_for
from tilebag.game import Game, GameState
from tilebag.move import Move
from tilebag.position import Position, Undo

WIN_UNITS = 1_000_000
"""A certain win, in the units a rollout's value counts (each point of spread is one)."""

LATE_BAG = 7
"""Tiles in the bag from which on rollouts play to the end of the game
(by then the racks left at the end, and who goes out, decide close games)."""

TO_THE_END = 200
"""Plies a late rollout may play: more than it takes to end the game (from a
bag of seven, at most 21 tiles are left to place, and a run of scoreless
turns ends the game)."""

DROP_Z = 2.58
"""How many standard errors apart a candidate must be to be dropped (99%)."""


@dataclass
class Candidate:
    """A play being simulated and the values its rollouts gave."""

    play: Play
    values: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    """Each rollout's spread gained with the leaves kept (see :func:`_rollout`), in millipoints."""

    @property
    def win_chance(self) -> float:
        """The mean chance of winning (with a win table), 0 to 1: the values
        without the spread that breaks their ties.

        >>> won, drawn = 1_000_000 + 50, 500_000  # a game won by 50, one drawn
        >>> Candidate(None, values=[won, drawn], points=[50_000, 0]).win_chance  # type: ignore[arg-type]
        0.75
        """
        if not self.values:
            return 0.0
        return statistics.fmean(v - p // 1000 for v, p in zip(self.values, self.points, strict=True)) / WIN_UNITS

    @property
    def equity(self) -> float:
        """The mean spread gained with the leaves kept, in points."""
        return statistics.fmean(self.points) / 1000 if self.points else self.play.equity / 1000

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values) if self.values else float(self.play.equity)

    @property
    def error(self) -> float:
        """The standard error of the mean."""
        if len(self.values) < 2:
            return math.inf
        return statistics.stdev(self.values) / math.sqrt(len(self.values))


@dataclass
class SimResult:
    """What the last simulation found: the candidates left, best first."""

    candidates: list[Candidate]
    iterations: int
    rollouts: int
    seconds: float
    dropped: list[Candidate] = field(default_factory=list)
    """The candidates dropped as clearly worse, with the values they had."""


class SimPlayer:
    """Chooses by simulation (the static player's choice in the variations'
    turns the rollouts do not play, and with the bag empty unless ``late``).

    :param plies: plies each rollout plays after the candidate (default 2).
    :param late: once the bag holds this many tiles or fewer (default
        :data:`LATE_BAG`; ``None``: never), rollouts play on to the end of
        the game instead of ``plies``, so that who goes out and the racks
        left at the end count; with the bag empty each candidate is then
        played out once (the racks are known: every deal is the same),
        where without ``late`` the static player's choice is played.
    :param seconds: the time for one move.
    :param candidates: how many of the best static plays are simulated.
    :param iterations: stop after this many iterations at most.
    :param seed: the seed of the draws (a fixed seed gives the same choices).
    :param wins: the win-probability table to value plays by (default: the
        built-in one, :mod:`tilebag.engine.equity.winpct`; ``False``: the spread alone).
    :param confidence: how sure (a percentage) the search must be that a
        candidate is worse than the best to drop it (default 99); the
        search stops when one is left.
    :param infer: deal the opponent the leaves that explain its last play
        (:mod:`tilebag.engine.montecarlo.inference`): those with which the static
        player's best play is worth at most this many points more than the
        play made (default 0; ``None``: racks drawn from all the unseen tiles).
    :param workers: processes the rollouts run in (default 1; ``None``:
        every core). The workers are forked from the calling process when
        first needed, so they share its engine without loading anything;
        call it from a process with no other threads running (the
        ``tilebag sim`` command). A bot in a match that already plays a
        game per core, in a server or in an SIU engine keeps one.
    """

    description = "sim: plays the best plays out against many possible racks of the opponent"

    def __init__(
        self,
        name: str = "sim",
        *,
        plies: int = 2,
        late: int | None = LATE_BAG,
        seconds: float = 1.0,
        candidates: int = 10,
        iterations: int = 100_000,
        seed: int = 0,
        engine: Engine | None = None,
        wins: WinTable | bool | None = None,
        workers: int | None = 1,
        confidence: float | None = None,
        infer: float | None = 0.0,
    ) -> None:
        if confidence is not None and not 50 < confidence < 100:
            raise ValueError(f"a sim's confidence is a percentage between 50 and 100, not {confidence}")
        self.name = name
        self.confidence = confidence
        self.z = DROP_Z if confidence is None else NormalDist().inv_cdf(1 - (1 - confidence / 100) / 2)
        """Standard errors apart a candidate must be from the best to be dropped."""
        self.workers = workers
        self.infer = infer
        self.plies = plies
        self.late = late
        self.seconds = seconds
        self.candidates = candidates
        self.iterations = iterations
        self.seed = seed
        self._static = StaticPlayer(name, engine=engine)
        self.last: SimResult | None = None
        self.wins: WinTable | None = (
            WinTable.load() if wins is None or wins is True else None if wins is False else wins
        )
        """The win-probability table plays are valued by (none: by spread alone)."""
        self._spread_before = 0

    def __repr__(self) -> str:
        return f"SimPlayer({self.name!r}, plies={self.plies}, seconds={self.seconds})"

    def engine(self, game: Game) -> Engine:
        return self._static.engine(game)

    def choose(self, game: Game) -> Move:
        if not searchable(game) or not len(game.bag) and self.late is None:
            return self._static.choose(game)
        engine = engine_for(game, None, self._static.leave_values(game))
        plays = [p for p in engine.plays(game.board, game.rack(), bag_count=len(game.bag), top=self.candidates)]
        if len(plays) < 2:
            return self._static.choose(game)
        result = self.simulate(game, engine, plays)
        self.last = result
        return result.candidates[0].play.move

    def simulate(self, game: Game, engine: Engine, plays: list[Play]) -> SimResult:
        """Roll each play out until one is clearly best or the time is up."""
        started = time.monotonic()
        me = game.turn
        leaves: tuple[tuple[Tile, ...], ...] = ()
        if self.infer is not None and len(game.bag):
            inference = infer_from_game(
                game, engine, seed=hash((self.seed, len(game.events))), margin=self.infer,
                seconds=INFER_SHARE * self.seconds, enough=INFER_ENOUGH,
            )
            if inference is not None and len(set(inference.leaves)) >= INFER_AT_LEAST:
                leaves = inference.leaves
        return self.simulate_position(
            game.position(), engine, plays, unseen=game.unseen(me), opponent_size=len(game.rack(1 - me)),
            salt=len(game.events), seconds=self.seconds - (time.monotonic() - started), opponent_leaves=leaves,
        )

    def simulate_position(
        self,
        position: Position,
        engine: Engine,
        plays: Sequence[Play],
        *,
        unseen: Sequence[Tile],
        opponent_size: int,
        salt: int = 0,
        seconds: float | None = None,
        stop: Callable[[], bool] | None = None,
        on_round: Callable[[SimResult], None] | None = None,
        z: float | None = None,
        until_limits: bool = False,
        opponent_leaves: Sequence[Sequence[Tile]] = (),
    ) -> SimResult:
        """Roll ``plays`` out from a position (the player to move's): each
        iteration deals the opponent ``opponent_size`` of the ``unseen``
        tiles and leaves the rest in the bag. Ends when one play is left,
        after ``seconds`` (default: the player's), at :attr:`iterations`, or
        when ``stop`` says so; ``on_round`` hears how it stands after each
        round. The position is as it was after.

        Iterations go in rounds of :data:`ROUND`; a round's iterations are
        shared among :attr:`workers` processes. Iteration ``i``'s draw
        depends only on the seed, the position and ``i``, so a count of
        iterations gives the same values on any number of workers.

        ``until_limits`` goes on to the time, the iterations or ``stop``
        even once one play is left (an engine told to search so long);
        candidates clearly worse are still dropped, ``z`` standard errors
        apart (default: the player's :attr:`z`).

        ``opponent_leaves``, when given, are leaves the opponent may have kept (each
        as often as it is likely): iteration ``i`` deals the opponent leave
        ``i`` (in turn) and the rest of its rack from the other unseen tiles."""
        z = self.z if z is None else z
        started = time.monotonic()
        deadline = started + (self.seconds if seconds is None else seconds)
        position = position.copy()
        me = position.turn
        self._spread_before = position.scores[me] - position.scores[1 - me]
        in_bag = len(unseen) - opponent_size
        plies = TO_THE_END if self.late is not None and in_bag <= self.late else self.plies
        limit = self.iterations if in_bag > 0 else 1  # the racks known: every iteration would deal the same
        job = _Job(
            position, tuple(unseen), opponent_size, plies, self.wins, self._spread_before,
            hash((self.seed, salt, tuple(sorted(position.racks[me])))), tuple(tuple(leave) for leave in opponent_leaves),
        )
        alive = [Candidate(play) for play in plays]
        dropped: list[Candidate] = []
        pool = _pool_for(engine, self.workers) if self.workers != 1 else None
        iterations = rollouts = 0
        while iterations < limit and (len(alive) > 1 or until_limits):
            numbers = range(iterations, min(iterations + ROUND, limit))
            moves = [(c.play.move, c.play.score) for c in alive]
            if pool is None:
                results = _iterations(engine, job, moves, numbers)
            else:
                results = pool.run(job, moves, numbers)
            for values in results:
                for candidate, (value, points) in zip(alive, values, strict=True):
                    candidate.values.append(value)
                    candidate.points.append(points)
            rollouts += len(numbers) * len(alive)
            iterations += len(numbers)
            kept = _survivors(alive, z)
            dropped += [c for c in alive if all(c is not k for k in kept)]
            alive = kept
            if on_round is not None:
                on_round(
                    SimResult(sorted(alive, key=lambda c: c.mean, reverse=True), iterations, rollouts, time.monotonic() - started, dropped)
                )
            if time.monotonic() > deadline or (stop is not None and stop()):
                break
        alive.sort(key=lambda c: c.mean, reverse=True)
        return SimResult(alive, iterations, rollouts, time.monotonic() - started, dropped)


INFER_SHARE = 0.1
"""The share of a move's time the inference of the opponent's leave may take."""

INFER_AT_LEAST = 8
"""Distinct leaves the inference must find to be used (fewer: the opponent
plays unlike the static player, or a few leaves would stand for many, and
its rack is drawn from all the unseen tiles)."""

INFER_ENOUGH = 300
"""Leaves kept after which the inference stops drawing."""

ROUND = 8
"""Iterations between two looks at the candidates (to drop the clearly worse)."""


@dataclass(frozen=True)
class _Job:
    """What every iteration of one simulation shares (sent to the workers)."""

    position: Position
    unseen: tuple[Tile, ...]
    opponent_size: int
    plies: int
    wins: WinTable | None
    spread_before: int
    seed: int
    kept: tuple[tuple[Tile, ...], ...] = ()
    """Leaves the opponent may hold, taken in turn by the iterations (none: the whole rack is dealt)."""


def _iterations(engine: Engine, job: _Job, moves: Sequence[tuple[Move, int]], numbers: Iterable[int]) -> list[list[tuple[int, int]]]:
    """Each iteration's value and spread gained (see :func:`_rollout`) for
    every move: in the compiled core when it can, else here, on a copy of
    the job's position (the same deals, the same values)."""
    deals = _deals(job, numbers)
    position = job.position
    me = position.turn
    other = 1 - me
    if not position.board.is_empty():  # the first move's rollouts count the opening adjustment: played here
        played: list[list[tuple[int, int]]] = []
        for kept, unseen, seeds in deals:
            found = engine.generator.native_rollouts(
                position.board, position.racks[me], job.opponent_size - len(kept), unseen, moves, seeds,
                plies=job.plies, leaves=engine.leaves, exchange_min_bag=engine.rules.exchange_min_bag,
                scoreless=position.scoreless, scoreless_limit=2 * len(position.racks), rack_size=position.rack_size,
                wins=None if job.wins is None else (job.spread_before, job.wins.scales, job.wins.edges), kept=kept,
            )
            if found is None:
                break
            played += found
        else:
            return played
    position = position.copy()
    results = []
    for kept, unseen, seeds in deals:
        size = job.opponent_size - len(kept)
        for seed in seeds:
            tiles = dealt(unseen, seed)
            position.racks[other] = [*kept, *tiles[:size]]
            position.bag = _RolloutBag(engine.alphabet, tiles[size:])
            results.append([_rollout(position, engine, move, score, me, job) for move, score in moves])
    return results


def _deals(job: _Job, numbers: Iterable[int]) -> list[tuple[tuple[Tile, ...], tuple[Tile, ...], list[int]]]:
    """The iterations' deals in order, grouped as they come: the leave the
    opponent keeps (iteration ``i`` takes the job's leave ``i``, in turn),
    the unseen tiles the rest is dealt from, and each iteration's seed."""
    deals: list[tuple[tuple[Tile, ...], tuple[Tile, ...], list[int]]] = []
    left: dict[tuple[Tile, ...], tuple[Tile, ...]] = {}
    for number in numbers:
        seed = hash((job.seed, number)) & _MASK
        kept = job.kept[number % len(job.kept)] if job.kept else ()
        if deals and deals[-1][0] == kept:
            deals[-1][2].append(seed)
            continue
        unseen = left.get(kept)
        if unseen is None:
            remaining = list(job.unseen)
            for tile in kept:
                remaining.remove(tile)
            unseen = left[kept] = tuple(remaining)
        deals.append((kept, unseen, [seed]))
    return deals


_MASK = (1 << 64) - 1


def _split_mix(state: int) -> tuple[int, int]:
    """splitmix64: the deal generator's next state and number."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def dealt(tiles: Sequence[Tile], seed: int) -> list[Tile]:
    """``tiles`` shuffled as an iteration deals them (splitmix64 from
    ``seed``, then Fisher-Yates; the compiled core shuffles the same way):
    the first go to the opponent's rack, the rest is the bag, drawn from
    its end.

    >>> dealt([1, 2, 3, 4, 5, 6], 7) == dealt([1, 2, 3, 4, 5, 6], 7), sorted(dealt([1, 2, 3, 4, 5, 6], 7))
    (True, [1, 2, 3, 4, 5, 6])
    """
    result = list(tiles)
    state = seed & _MASK
    for i in range(len(result) - 1, 0, -1):
        state, number = _split_mix(state)
        j = (number >> 11) % (i + 1)
        result[i], result[j] = result[j], result[i]
    return result


class _RolloutBag(Bag):
    """A rollout's bag: the dealt tiles, drawn from the end in that order;
    an exchange's tiles go back at the bottom, not mixed in (so that the
    compiled core and this module play the same rollouts)."""

    def __init__(self, alphabet: Alphabet, tiles: Sequence[Tile]) -> None:
        super().__init__(alphabet, 0, ())
        self._tiles = list(tiles)

    def put_back(self, tiles: Iterable[Tile]) -> None:
        self._tiles[:0] = list(tiles)


def _rollout(position: Position, engine: Engine, move: Move, score: int, me: int, job: _Job) -> tuple[int, int]:
    """The value of ``move`` in one rollout (see the module notes) and the
    spread it gained with the value of what each side's last play kept
    (millipoints; the opponent's counts against the player); the position
    is as it was after."""
    kept = [0, 0]  # the value of what each side's last play kept
    kept[me] = _kept_value(position, engine, move, score)
    undos: list[Undo] = [position.make(move, score)]
    gained = [0, 0]
    gained[me] += score
    for _ in range(job.plies):
        if position.is_over():
            break
        mover = position.turn
        best = engine.best(position.board, position.racks[mover], bag_count=len(position.bag))
        if best is None:
            break
        kept[mover] = _kept_value(position, engine, best.move, best.score)
        undos.append(position.make(best.move, best.score))
        gained[mover] += best.score
    over = position.is_over()
    if over:  # the racks counted as the rules count them (the spread is the same when going out is doubled)
        faces = [engine.alphabet.rack_value(rack) for rack in position.racks]
        if position.scoreless >= 2 * len(position.racks):
            gained = [gained[0] - faces[0], gained[1] - faces[1]]
        else:
            out = 0 if not position.racks[0] else 1
            gained[out] += faces[1 - out]
            gained[1 - out] -= faces[1 - out]
    points = 1000 * (gained[me] - gained[1 - me])
    if not over:  # each side's last leave is still to be played: it counts as equity counts it
        points += kept[me] - kept[1 - me]
    value = points
    if job.wins is not None:  # the chance of winning first; the spread breaks ties
        if over:  # the result, not a guess from the curve
            final = 1000 * job.spread_before + points
            chance = 1.0 if final > 0 else 0.0 if final < 0 else 0.5
        else:
            spread = (job.spread_before + points / 1000) * (1 if position.turn == me else -1)
            unseen = len(position.bag) + len(position.racks[1 - position.turn])
            chance = job.wins.probability(spread, unseen)
            if position.turn != me:
                chance = 1 - chance
        value = round(chance * WIN_UNITS) + points // 1000
    for undo in reversed(undos):
        position.unmake(undo)
    return value, points


def _kept_value(position: Position, engine: Engine, move: Move, score: int) -> int:
    """What ``move`` keeps of the rack of the player to move, valued as its
    equity counts it (with the bag as it is before the play), in millipoints."""
    rack = position.racks[position.turn]
    return engine.equity(move, score, rack, bag_count=len(position.bag)) - 1000 * score


class _Pool:
    """Worker processes that share an engine (forked after it was made, so
    each has the lexicon, the leaves and the compiled core without loading
    them) and play rounds of iterations for the simulations."""

    def __init__(self, engine: Engine, workers: int) -> None:
        global _forked_engine
        self.engine = engine
        self.workers = workers
        _forked_engine = engine
        context = multiprocessing.get_context("fork")
        self.executor = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_ctrl_c)

    def run(self, job: _Job, moves: list[tuple[Move, int]], numbers: range) -> list[list[tuple[int, int]]]:
        """The iterations ``numbers``, shared among the workers, in order."""
        share = max(1, -(-len(numbers) // self.workers))
        parts = [numbers[i : i + share] for i in range(0, len(numbers), share)]
        try:
            futures = [self.executor.submit(_iterations_here, job, moves, part) for part in parts]
            return [values for future in futures for values in future.result()]
        except BrokenProcessPool:  # a worker died: play the round here, and start afresh next time
            self.close()
            return _iterations(self.engine, job, moves, numbers)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        if _pools.get(self.workers) is self:
            del _pools[self.workers]


_forked_engine: Engine | None = None
_pools: dict[int, _Pool] = {}


def _ignore_ctrl_c() -> None:
    from tilebag.batch.local import exit_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the search and keeps what was found
    exit_with_parent()  # a parent killed outright (an engine a front end kills) leaves no worker behind


def _iterations_here(job: _Job, moves: list[tuple[Move, int]], numbers: range) -> list[list[tuple[int, int]]]:
    assert _forked_engine is not None
    return _iterations(_forked_engine, job, moves, numbers)


def _same_engine(one: Engine, other: Engine) -> bool:
    return one is other or (
        one.kwg is other.kwg and one.rules == other.rules and one.core == other.core and one.leaves is other.leaves
    )


def _pool_for(engine: Engine, workers: int | None) -> _Pool | None:
    """The worker pool for an engine (made when first asked, and again for
    another engine); none for one worker."""
    count = workers or os.cpu_count() or 1
    if count <= 1:
        return None
    pool = _pools.get(count)
    if pool is not None and not _same_engine(pool.engine, engine):
        pool.close()
        pool = None
    if pool is None:
        pool = _pools[count] = _Pool(engine, count)
    return pool


def start_workers(engine: Engine, workers: int | None) -> None:
    """Fork the worker processes a simulation on ``workers`` processes
    would use, now: a threaded program (an SIU engine reading its input)
    calls this from its only thread, before the search's thread starts, so
    that no process is forked while another thread holds a lock."""
    pool = _pool_for(engine, workers)
    if pool is not None:
        pool.executor.submit(int).result()  # a fork pool starts all its processes at the first task


def searchable(game: Game) -> bool:
    """Whether a game is one the searches play (simulation, the endgame):
    two players, a move to make, and none of the variations' actions."""
    rules = game.rules
    return (
        len(game.players) == 2
        and game.state is GameState.PLAYING
        and not (rules.anagram or rules.recycle or rules.blank_swap)
    )


PAIRED_AFTER = 2 * ROUND
"""Iterations before a candidate may be dropped (its differences from the
best need a few samples before their spread says anything)."""


def _survivors(alive: list[Candidate], z: float = DROP_Z) -> list[Candidate]:
    """The candidates not clearly worse than the best mean.

    Every candidate is rolled out against the same draws, so each is
    compared with the best iteration by iteration: a candidate is dropped
    when the mean of those differences is more than ``z`` of its standard
    errors above zero. The luck that is common to both (the draw, the
    opponent's rack) cancels in the differences, so a clearly worse play is
    dropped after far fewer iterations than comparing the two means with
    their own errors would need, and the time goes to the plays still in
    question.

    >>> best, worse, close = (Candidate(None) for _ in range(3))  # type: ignore[arg-type]
    >>> best.values = [100 + 40 * (i % 5) for i in range(16)]
    >>> worse.values = [v - 3 - i % 2 for i, v in enumerate(best.values)]
    >>> close.values = [v + (7 if i % 2 else -8) for i, v in enumerate(best.values)]
    >>> kept = _survivors([best, worse, close])
    >>> best in kept, worse in kept, close in kept
    (True, False, True)
    """
    if math.isinf(z):
        return list(alive)
    best = max(alive, key=lambda c: c.mean)
    kept = []
    for candidate in alive:
        n = min(len(candidate.values), len(best.values))
        if candidate is best or n < PAIRED_AFTER:
            kept.append(candidate)
            continue
        differences = [b - v for b, v in zip(best.values[-n:], candidate.values[-n:], strict=True)]
        total = sum(differences)
        spread = n * sum(d * d for d in differences) - total * total  # n(n-1) times the variance, exactly
        mean = total / n
        error = math.sqrt(spread / (n * (n - 1)) / n)
        if mean <= z * error and not (error == 0 and mean > 0):
            kept.append(candidate)
    return kept
