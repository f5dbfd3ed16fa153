"""Benchmarks: move generation over a fixed suite of positions, and
static-bot self-play.

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
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from tilebag.engine.leaves import load_leaves
from tilebag.engine.movegen import MoveGenerator
from tilebag.engine.players import StaticPlayer
from tilebag.engine.selfplay import play_game
from tilebag.formats import cgp
from tilebag.formats.cgp import Position
from tilebag.lexicon import KwgLexicon, default_lexicon

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
