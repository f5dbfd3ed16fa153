"""The engine's benchmarks, one for each ``tilebag bench`` command but
``serve`` (:mod:`tilebag.lab.serve_bench`): move generation over a fixed
suite of positions, static-bot self-play, simulation rollouts, the endgame
solver on self-play endgames, and the opening adjustment's penalties.

The suite (``data/bench/movegen.cgp``, one CGP per line) holds openings,
middle games, racks with blanks and near-endgames taken from seeded
self-play, so every run measures the same work. Figures are machine
dependent: compare them as ratios measured in one run.

>>> suite = load_suite()
>>> len(suite) >= 50
True
"""

from __future__ import annotations

import importlib.resources
import math
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from tilebag.board import Board
from tilebag.engine import Engine
from tilebag.engine.endgame.solver import solve
from tilebag.engine.equity import MILLIPOINTS
from tilebag.engine.equity.leaves import load_leaves
from tilebag.engine.equity.opening import adjust_opening
from tilebag.engine.montecarlo.sim import SimPlayer
from tilebag.engine.movegen.generator import MoveGenerator
from tilebag.engine.players import StaticPlayer, engine_for
from tilebag.formats import cgp
from tilebag.formats.cgp import Position
from tilebag.game import Game
from tilebag.lab.selfplay import play_game
from tilebag.lexicon import KwgLexicon, default_lexicon
from tilebag.move import Move

SUITE = "movegen.cgp"


def load_suite() -> list[Position]:
    """The benchmark positions shipped with tilebag."""
    text = (importlib.resources.files("tilebag") / "data" / "bench" / SUITE).read_text(encoding="utf-8")
    return [cgp.parse(line) for line in text.splitlines() if line.strip() and not line.startswith("#")]


@dataclass
class MovegenResult:
    """What one run of the move generation benchmark measured."""

    core: str
    positions: int
    plays: int
    seconds: float
    median_ms: float
    lexicon_load_ms: float
    """The first load of the default lexicon in this process (from the cache)."""
    peak_rss_mb: float

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds else 0.0

    @property
    def plays_per_second(self) -> float:
        return self.plays / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict[str, float | int | str]:
        data: dict[str, float | int | str] = dict(asdict(self))
        data["positions_per_second"] = round(self.positions_per_second, 2)
        data["plays_per_second"] = round(self.plays_per_second, 1)
        return data

    def text(self) -> str:
        return (
            f"{self.core} core: {self.positions} positions, {self.plays} plays in {self.seconds:.2f} s\n"
            f"  {self.positions_per_second:.1f} positions/s, {self.plays_per_second:.0f} plays/s, "
            f"median {self.median_ms:.2f} ms per position\n"
            f"  lexicon load {self.lexicon_load_ms:.0f} ms, peak memory {self.peak_rss_mb:.0f} MB"
        )


def bag_count(position: Position) -> int:
    """Tiles in the bag: the unseen tiles less the opponents' racks (an
    unknown rack holds as many tiles as the rules give, when there are)."""
    unseen = len(position.unseen_tiles())
    hidden = 0
    for rack in position.racks[1:]:
        if not rack:
            hidden += 7
    return max(0, unseen - hidden)


_first_load_ms: float | None = None


def _default_lexicon_timed() -> tuple[KwgLexicon, float]:
    """The default lexicon and how long its first load in this process took
    (later calls find it already in memory)."""
    global _first_load_ms
    started = time.perf_counter()
    lexicon = default_lexicon()
    elapsed = (time.perf_counter() - started) * 1000
    if _first_load_ms is None:
        _first_load_ms = elapsed
    return lexicon, _first_load_ms


def run_movegen(
    repeat: int = 1,
    progress: Callable[[int, int], None] | None = None,
    *,
    core: str = "python",
    warm_up: bool = True,
) -> MovegenResult:
    """Generate, score, value and sort every play of every suite position
    with one core (``python`` or ``native``), ``repeat`` times.

    With ``warm_up`` the suite is run once untimed first, so both cores are
    measured with their caches (the reference's cross-set cache, the CPU's)
    as they are in a long game, not as a cold start.
    """
    lexicon, load_ms = _default_lexicon_timed()
    suite = load_suite()
    leaves = load_leaves()
    generators: dict[int, MoveGenerator] = {}
    for position in suite:
        if position.bingo_bonus not in generators:
            generators[position.bingo_bonus] = MoveGenerator(
                lexicon.kwg,
                layout=position.board.layout,
                alphabet=position.alphabet,
                bingo_bonus=position.bingo_bonus,
                core=core,
            )
    jobs = [(generators[p.bingo_bonus], p.board, p.rack, bag_count(p)) for p in suite]
    if warm_up:
        for generator, board, rack, bag in jobs:
            generator.generate(board, rack, leaves=leaves, bag_count=bag)
    times: list[float] = []
    plays = 0
    total = len(jobs) * repeat
    for _ in range(repeat):
        for generator, board, rack, bag in jobs:
            t0 = time.perf_counter()
            found = generator.generate(board, rack, leaves=leaves, bag_count=bag)
            times.append(time.perf_counter() - t0)
            plays += len(found)
            if progress is not None:
                progress(len(times), total)
    return MovegenResult(
        core=core,
        positions=len(times),
        plays=plays,
        seconds=sum(times),
        median_ms=statistics.median(times) * 1000,
        lexicon_load_ms=load_ms,
        peak_rss_mb=peak_rss_mb(),
    )


@dataclass
class SelfplayResult:
    """What one run of the self-play benchmark measured."""

    games: int
    seconds: float
    core: str
    rss_start_mb: float
    """Resident memory after the first game (lexicon and generators loaded)."""
    rss_end_mb: float
    """Resident memory after the last game."""

    @property
    def ms_per_game(self) -> float:
        return self.seconds * 1000 / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, float | int | str]:
        return {
            "games": self.games,
            "ms_per_game": round(self.ms_per_game, 3),
            "core": self.core,
            "rss_start_mb": round(self.rss_start_mb, 1),
            "rss_end_mb": round(self.rss_end_mb, 1),
        }

    def text(self) -> str:
        return (
            f"{self.games} static-bot games on the {self.core} core: {self.ms_per_game:.1f} ms per game\n"
            f"  resident memory {self.rss_start_mb:.0f} MB after the first game, {self.rss_end_mb:.0f} MB at the end"
        )


def run_selfplay(
    games: int = 100,
    *,
    seed: int = 1,
    core: str = "native",
    progress: Callable[[int, int], None] | None = None,
) -> SelfplayResult:
    """Play ``games`` complete games between two static bots (seeded
    ``seed``, ``seed + 1``...) and time them, the first included. Games are
    played, not written: this measures the engine (generation, equity,
    the rules and the bag), not the disk."""
    lexicon = default_lexicon()
    bots = [StaticPlayer("static1", core=core), StaticPlayer("static2", core=core)]
    rss_start = 0.0
    seconds = 0.0
    for number in range(games):
        started = time.perf_counter()
        play_game(bots, seed=seed + number, lexicon=lexicon)
        seconds += time.perf_counter() - started
        if number == 0:
            rss_start = current_rss_mb()
        if progress is not None:
            progress(number + 1, games)
    return SelfplayResult(games, seconds, core, rss_start, current_rss_mb())


# -- simulation --------------------------------------------------------------


@dataclass
class SimBench:
    """Rollouts a second over simulated positions, in one process."""

    positions: int
    rollouts: int
    seconds: float
    plies: int

    @property
    def rollouts_per_second(self) -> float:
        return self.rollouts / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict[str, object]:
        return {"positions": self.positions, "plies": self.plies, "rollouts": self.rollouts,
                "seconds": round(self.seconds, 2), "rollouts_per_second": round(self.rollouts_per_second)}

    def text(self) -> str:
        return (f"{self.positions} positions, {self.plies}-ply rollouts: {self.rollouts} in {self.seconds:.1f} s, "
                f"{self.rollouts_per_second:.0f} a second on one core")


def bench_sim(positions: int = 10, *, seconds: float = 1.0, plies: int = 2, seed: int = 1) -> SimBench:
    """Simulate the position after the sixth move of ``positions`` static
    self-play games for ``seconds`` each, and count the rollouts (every
    candidate on every iteration, none dropped: the throughput alone)."""
    rollouts = 0
    spent = 0.0
    done = 0
    static = StaticPlayer("static")
    for number in range(positions):
        game = Game(["sim", "other"], seed=seed + number)
        for _ in range(6):
            if game.is_over():
                break
            game.push(static.choose(game))
        if game.is_over() or not len(game.bag):
            continue
        sim = SimPlayer("sim", seconds=seconds, plies=plies, candidates=10, seed=number)
        engine = engine_for(game, None, static.leave_values(game))
        plays = list(engine.plays(game.board, game.rack(), bag_count=len(game.bag), top=10))
        me = game.turn  # every candidate on every iteration: throughput, whatever the stopping rule
        result = sim.simulate_position(
            game.position(), engine, plays, unseen=game.unseen(me), opponent_size=len(game.rack(1 - me)), z=math.inf
        )
        rollouts += result.rollouts
        spent += result.seconds
        done += 1
    return SimBench(done, rollouts, spent, plies)


# -- the endgame -------------------------------------------------------------


def percentile(times: Sequence[float], fraction: float) -> float:
    """The time ``fraction`` of the way up the sorted times (0.0 for none).

    >>> percentile([3.0, 1.0, 2.0, 4.0], 0.5), percentile([], 0.9)
    (3.0, 0.0)
    """
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else 0.0


@dataclass
class EndgameBench:
    """Solving the bag-empty position of many self-play games: how many
    were solved exactly within the time limit, and how long each took."""

    games: int = 0
    """Games played (a game that ends before its bag empties has no endgame)."""
    positions: int = 0
    exact: int = 0
    times: list[float] = field(default_factory=list)
    """The seconds each endgame took (those not solved exactly: the limit)."""
    exact_times: list[float] = field(default_factory=list)
    """The seconds each endgame solved exactly took."""
    nodes: int = 0
    limit: float | None = None
    core: str = "python"
    threads: int = 1
    stopped: bool = False
    """True when Ctrl+C ended the run early: the figures are of the endgames solved before."""
    checked: int = 0
    """Endgames solved exactly again on one thread (``check``)."""
    disagreements: list[str] = field(default_factory=list)
    """The games whose endgame one thread valued otherwise, or answered with another move."""

    def percentile(self, fraction: float) -> float:
        return percentile(self.times, fraction)

    def nodes_per_second(self) -> int:
        seconds = sum(self.times)
        return round(self.nodes / seconds) if seconds else 0

    def as_dict(self) -> dict[str, object]:
        return {
            "core": self.core,
            "threads": self.threads,
            "games": self.games,
            "positions": self.positions,
            "exact": self.exact,
            "seconds_limit": self.limit,
            "median_s": round(self.percentile(0.5), 3),
            "p90_s": round(self.percentile(0.9), 3),
            "max_s": round(max(self.times, default=0.0), 3),
            "exact_median_s": round(percentile(self.exact_times, 0.5), 3),
            "exact_p90_s": round(percentile(self.exact_times, 0.9), 3),
            "exact_max_s": round(max(self.exact_times, default=0.0), 3),
            "total_s": round(sum(self.times), 1),
            "nodes_per_second": self.nodes_per_second(),
            "checked": self.checked,
            "disagreements": self.disagreements,
            "stopped": self.stopped,
        }

    def text(self) -> str:
        limit = f", at most {self.limit:g} s each" if self.limit else ""
        stopped = " (stopped by Ctrl+C)" if self.stopped else ""
        solved = self.exact_times
        checked = (
            f"; solved again on one thread: {self.checked}, disagreeing: {len(self.disagreements)}"
            + (f" ({', '.join(self.disagreements)})" if self.disagreements else "")
            if self.checked else ""
        )
        return (
            f"{self.games} games, {self.positions} endgames ({self.core} core, {self.threads} threads{limit}){stopped}: "
            f"{self.exact} solved exactly, in median {percentile(solved, 0.5):.3f} s, p90 {percentile(solved, 0.9):.3f} s, "
            f"max {max(solved, default=0.0):.3f} s; every endgame: median {self.percentile(0.5):.3f} s, "
            f"p90 {self.percentile(0.9):.3f} s, max {max(self.times, default=0.0):.3f} s, total {sum(self.times):.1f} s; "
            f"{self.nodes_per_second()} positions searched a second{checked}"
        )


def bench_endgames(
    games: int,
    *,
    seed: int = 1,
    seconds: float | None = 10.0,
    progress: Callable[[int], None] | None = None,
    core: str | None = None,
    threads: int = 1,
    check: bool = False,
) -> EndgameBench:
    """Play ``games`` static self-play games (seeds ``seed``, ``seed + 1``,
    ...) to the point where the bag empties and solve each of those
    endgames, for at most ``seconds`` each (Ctrl+C keeps what was done).

    :param progress: called with the games done after each.
    :param core: the search's core (default: the engine's).
    :param threads: the threads each endgame is searched on.
    :param check: solve each endgame solved exactly again on one thread,
        with no time limit: the value and the move must be the same.
    """
    lexicon = default_lexicon()
    engine = Engine.for_lexicon(lexicon)
    bot = StaticPlayer("bench")
    result = EndgameBench(limit=seconds, core=core or engine.core, threads=threads)
    try:
        for number in range(games):
            game = Game(["a", "b"], lexicon=lexicon, seed=seed + number)
            while not game.is_over() and len(game.bag):
                game.push(bot.choose(game))
            if not game.is_over():
                solution = solve(game.position(), engine, seconds=seconds, core=result.core, threads=threads)
                if solution.stopped:
                    raise KeyboardInterrupt
                if check and solution.exact:
                    again = solve(game.position(), engine, core=result.core, threads=1)
                    if again.stopped:
                        raise KeyboardInterrupt
                    result.checked += 1
                    if (again.gain, again.moves[0].move) != (solution.gain, solution.moves[0].move):
                        result.disagreements.append(f"seed {seed + number}")
                result.positions += 1
                result.exact += solution.exact
                result.times.append(solution.seconds)
                if solution.exact:
                    result.exact_times.append(solution.seconds)
                result.nodes += solution.nodes
            result.games += 1
            if progress is not None:
                progress(number + 1)
    except KeyboardInterrupt:
        result.stopped = True
    return result


# -- the opening adjustment ---------------------------------------------------


@dataclass(frozen=True)
class PenaltyGain:
    """What a penalty gained over none on the openings measured."""

    penalty: int
    """Millipoints a vowel."""
    openings: int
    changed: int
    """Openings where the play chosen differs from the one chosen with no penalty."""
    gain: float
    """Mean points gained an opening: the play's equity less the mean best reply."""
    error: float
    """The standard error of ``gain``."""

    def as_dict(self) -> dict[str, object]:
        return {
            "penalty": self.penalty / MILLIPOINTS,
            "openings": self.openings,
            "changed": self.changed,
            "gain": round(self.gain, 3),
            "error": round(self.error, 3),
        }

    def text(self) -> str:
        return (
            f"{self.penalty / MILLIPOINTS:g} points a vowel: another play in {self.changed} of "
            f"{self.openings} openings, {self.gain:+.2f} points an opening (standard error {self.error:.2f})"
        )


@dataclass(frozen=True)
class OpeningBench:
    """The gains of the penalties measured, and whether the run was stopped early."""

    gains: list[PenaltyGain]
    replies: int
    stopped: bool = False

    def as_dict(self) -> dict[str, object]:
        return {"replies": self.replies, "stopped": self.stopped, "gains": [g.as_dict() for g in self.gains]}

    def text(self) -> str:
        return "\n".join(g.text() for g in self.gains)


def measure_penalties(
    engine: Engine,
    penalties: Sequence[int],
    *,
    openings: int = 1000,
    replies: int = 50,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
) -> OpeningBench:
    """Value each penalty (millipoints a vowel) on ``openings`` random
    opening racks: the play it chooses is worth its equity (score and
    leave, no penalty) less the mean equity of the best reply over
    ``replies`` racks drawn from the tiles the player did not draw (the same
    racks for every penalty). Gives each one's gain over no penalty; Ctrl+C
    stops it with the openings done so far.
    """
    plain = engine.with_opening_penalty(0)
    alphabet, layout = plain.alphabet, plain.layout
    rng = random.Random(seed)
    gains: dict[int, list[float]] = {p: [] for p in penalties}
    changed = dict.fromkeys(penalties, 0)
    rack_size = plain.rules.rack_size
    stopped = False
    try:
        for number in range(openings):
            if progress is not None:
                progress(number)
            bag = alphabet.distribution()
            rng.shuffle(bag)
            rack, rest = bag[:rack_size], bag[rack_size:]
            board = Board(layout, alphabet)
            plays = list(plain.plays(board, rack, bag_count=len(rest)))
            chosen = {p: adjust_opening(plays, layout, alphabet, p, 1)[0] for p in (0, *penalties)}
            if not chosen[0].move.is_place:
                continue
            draws = random.Random(seed * 1_000_003 + number)
            racks = []
            for _ in range(replies):
                pool = list(rest)
                draws.shuffle(pool)
                racks.append(pool[:rack_size])
            worth: dict[Move, float] = {}
            for play in chosen.values():
                if play.move in worth or not play.move.is_place:
                    continue
                after = board.copy()
                after.place(play.move)
                answers = [plain.best(after, other, bag_count=len(rest) - rack_size) for other in racks]
                mean = statistics.fmean(a.equity if a is not None else 0 for a in answers)
                worth[play.move] = (play.equity - mean) / MILLIPOINTS
            base = worth[chosen[0].move]
            for p in penalties:
                play = chosen[p]
                if play.move in worth:
                    gains[p].append(worth[play.move] - base)
                    changed[p] += play.move != chosen[0].move
        if progress is not None:
            progress(openings)
    except KeyboardInterrupt:
        stopped = True
    result = []
    for p in penalties:
        values = gains[p]
        mean = statistics.fmean(values) if values else 0.0
        error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
        result.append(PenaltyGain(p, len(values), changed[p], mean, error))
    return OpeningBench(result, replies, stopped)


# -- memory --------------------------------------------------------------------


def current_rss_mb() -> float:
    """The process's resident memory now, in MB (the peak where the system
    does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize() / (1024 * 1024)
    except (OSError, ValueError, IndexError):
        return peak_rss_mb()


def peak_rss_mb() -> float:
    """The process's peak resident memory so far, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
