"""Leave values trained by self-play: ``tilebag leaves train``.

The value of a leave is what keeping it is worth on the next turn, against
drawing a whole new rack. Training measures it in games the static bot
plays against itself (``docs/leaves.md`` explains the method at length):

1. **Paired measurements.** After each move with a rack's worth of tiles
   in the bag, on the board it left, seven tiles are drawn from those the
   player cannot see. The best equity of that whole new rack is found, and
   the best equity of the leave kept (and of two leaves taken at random
   from the rack moved from) filled up from the same draw. A leave's
   observation is the difference. The same board and draw on both sides
   take out what is not the leave: how open the board is, the luck of the
   draw. The equities count the next leave by the current table, so a
   leave is also worth what it lets the player keep after.
2. **A model for every leave.** Most of the 914,624 English leaves of one
   to six tiles are rarely or never seen, so a linear model (no intercept:
   the empty leave is worth 0) is fitted to all observations by weighted
   least squares with a small ridge, solved by conjugate gradients, over
   features that carry to unseen leaves: each tile, a second and a third
   copy of it, each pair of different tiles, and the count of vowels and
   consonants.
3. **The leaves seen often** move from the model towards their own mean, by
   ``count / (count + SHRINK)``.
4. **Generations.** The next generation plays and measures with the new
   table, until the values settle.

Every game has its own seed, observations are counted in millipoints
(integers, so a run's totals do not depend on the order games finish in),
and the state is written to a folder as batches finish: a run stopped with
Ctrl+C goes on from there. The result is a ``.klv`` file (the KLV format
with int16 values, see :mod:`tilebag.engine.equity.leaves`).

>>> stats = play_training_games(range(1, 3), leaves=None)
>>> stats.games, stats.observations > 30, b"" in stats.counts
(2, True, False)
"""

from __future__ import annotations

import gzip
import itertools
import json
import os
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from tilebag.alphabet import Alphabet, Tile
from tilebag.bag import Bag
from tilebag.batch import Job, backend_for, run_job
from tilebag.board import Board
from tilebag.engine import Engine
from tilebag.engine.equity.leave_writers import dumps_klv
from tilebag.engine.equity.leaves import LeaveValues, load_leaves
from tilebag.lexicon import Lexicon, default_lexicon, load_lexicon
from tilebag.position import Position
from tilebag.progress import Progress
from tilebag.rules import Rules

__all__ = [
    "LeaveStats",
    "LeaveModel",
    "TrainingRun",
    "all_leaves",
    "dumps_klv",
    "fit_leaves",
    "play_training_games",
    "train_leaves",
]

SHRINK = 50
"""Observations a leave needs before its own mean counts as much as the model."""

RIDGE = 20.0
"""The ridge penalty of the model's weights (in observations)."""

FIT_PASSES = 60
"""Conjugate-gradient steps of the fit at most (it stops once it has converged)."""

TOLERANCE = 1e-7
"""The fit stops when the residual of its equations is this small a part of where it started."""

BATCH = 100
"""Games a worker plays per task."""

LIMIT = 127.0
"""Values are kept within what a ``.klv`` (int16 / 256) holds."""


# -- observations ---------------------------------------------------------------------


@dataclass
class LeaveStats:
    """Per leave (sorted tile bytes): how often it was measured, and the sum
    of what it was worth against a whole new rack, in millipoints."""

    counts: dict[bytes, list[int]] = field(default_factory=dict)
    games: int = 0

    @property
    def observations(self) -> int:
        return sum(entry[0] for entry in self.counts.values())

    def add(self, leave: bytes, equity: int) -> None:
        entry = self.counts.get(leave)
        if entry is None:
            self.counts[leave] = [1, equity]
        else:
            entry[0] += 1
            entry[1] += equity

    def merge(self, other: LeaveStats) -> None:
        """Add another run's observations (the order does not matter)."""
        self.games += other.games
        counts = self.counts
        for leave, (n, total) in other.counts.items():
            entry = counts.get(leave)
            if entry is None:
                counts[leave] = [n, total]
            else:
                entry[0] += n
                entry[1] += total

    def dump(self, path: Path) -> None:
        """Write to a gzip text file (``hex count total`` lines), atomically."""
        partial = path.with_suffix(path.suffix + ".partial")
        with gzip.open(partial, "wt", encoding="ascii", compresslevel=3) as out:
            out.write(f"games {self.games}\n")
            for leave in sorted(self.counts):
                n, total = self.counts[leave]
                out.write(f"{leave.hex() or '-'} {n} {total}\n")
        os.replace(partial, path)

    @classmethod
    def load(cls, path: Path) -> LeaveStats:
        stats = cls()
        with gzip.open(path, "rt", encoding="ascii") as lines:
            stats.games = int(next(lines).split()[1])
            for line in lines:
                key, n, total = line.split()
                stats.counts[b"" if key == "-" else bytes.fromhex(key)] = [int(n), int(total)]
        return stats


def play_training_games(
    seeds: Iterable[int],
    leaves: LeaveValues | None,
    *,
    lexicon: Lexicon | None = None,
    rules: Rules | None = None,
) -> LeaveStats:
    """Static self-play games (one per seed) with ``leaves`` (default: the
    engine's), and the paired measurements of leaves made after their moves."""
    lexicon = lexicon or default_lexicon()
    engine = Engine.for_lexicon(lexicon, rules)
    if leaves is not None:
        engine = engine.with_leaves(leaves)
    rules = engine.rules
    stats = LeaveStats()
    for seed in seeds:
        _play_one(engine, rules, seed, stats)
        stats.games += 1
    return stats


def _play_one(engine: Engine, rules: Rules, seed: int, stats: LeaveStats) -> None:
    """One game, and after each move with a full rack's worth of tiles
    unseen, the paired measurements of :func:`_measure`."""
    bag = Bag(engine.alphabet, seed=seed)
    rng = random.Random(seed)
    players = 2
    racks = [bag.draw(rules.rack_size) for _ in range(players)]
    position = Position(
        Board(engine.layout, engine.alphabet), racks, bag, rack_size=rules.rack_size,
        bingo_tiles=rules.bingo_tiles, bingo_bonus=rules.bingo_bonus,
    )
    limit = rules.scoreless_turns or 2 * players
    while not position.is_over(limit):
        me = position.turn
        rack = list(position.racks[me])
        best = engine.best(position.board, rack, bag_count=len(position.bag))
        if best is None:
            break
        position.make(best.move, best.score)
        unseen = position.bag.tiles() + position.racks[1 - me]
        if len(position.bag) >= rules.rack_size:
            leaves = [bytes(best.leave)] + [_some_leave(rack, rng) for _ in range(EXTRA_LEAVES)]
            _measure(engine, position, unseen, [leave for leave in leaves if leave], rules.rack_size, rng, stats)


EXTRA_LEAVES = 2
"""Leaves measured after each move besides the one kept: random parts of the rack it was made from."""


def _some_leave(rack: list[Tile], rng: random.Random) -> bytes:
    size = rng.randint(1, len(rack) - 1)
    return bytes(sorted(rng.sample(rack, size)))


def _measure(
    engine: Engine, position: Position, unseen: list[Tile], leaves: list[bytes], rack_size: int,
    rng: random.Random, stats: LeaveStats,
) -> None:
    """What each leave is worth on this board: the best equity of the leave
    filled up from a random draw of the unseen tiles, less the best equity
    of a whole new rack from the same draw (the same first tiles)."""
    drawn = rng.sample(unseen, rack_size)
    board, bag_count = position.board, len(position.bag)
    fresh = engine.best(board, drawn, bag_count=bag_count)
    if fresh is None:
        return
    for leave in leaves:
        kept = engine.best(board, list(leave) + drawn[: rack_size - len(leave)], bag_count=bag_count)
        if kept is not None:
            stats.add(leave, kept.equity - fresh.equity)


# -- the model ----------------------------------------------------------------------------


class LeaveModel:
    """The linear model of a leave's value: features that carry to leaves
    never seen (each tile, its second and third copies, pairs of different
    tiles, the counts of vowels and consonants). It has no intercept: the
    empty leave is worth 0."""

    def __init__(self, alphabet: Alphabet, rack_size: int = 7) -> None:
        self.alphabet = alphabet
        self.vowels = frozenset(alphabet.vowels)
        self.rack_size = rack_size
        tiles = range(alphabet.size)
        names: list[tuple[object, ...]] = [("copy", t, k) for t in tiles for k in (1, 2, 3)]
        names += [("pair", t, u) for t, u in itertools.combinations(tiles, 2)]
        names += [("balance", v, c) for v in range(rack_size) for c in range(rack_size - v)]
        self.names = names
        self.index = {name: i for i, name in enumerate(names)}
        self.weights = [0.0] * len(names)

    def features(self, leave: bytes) -> list[int]:
        """The indexes of a leave's features."""
        index = self.index
        found: list[int] = []
        kinds = sorted(set(leave))
        vowels = consonants = 0
        for t in kinds:
            n = leave.count(t)
            for k in range(1, min(n, 3) + 1):
                found.append(index[("copy", t, k)])
            if t:
                if t in self.vowels:
                    vowels += n
                else:
                    consonants += n
        for t, u in itertools.combinations(kinds, 2):
            found.append(index[("pair", t, u)])
        if leave:
            found.append(index[("balance", vowels, consonants)])
        return found

    def value(self, leave: bytes) -> float:
        """The model's value of a leave, in points."""
        weights = self.weights
        return sum(weights[i] for i in self.features(leave))

    def to_dict(self) -> dict[str, object]:
        return {"weights": {" ".join(map(str, name)): round(w, 4) for name, w in zip(self.names, self.weights, strict=True)}}


def fit_leaves(
    stats: LeaveStats,
    alphabet: Alphabet,
    *,
    rack_size: int = 7,
    shrink: float = SHRINK,
    ridge: float = RIDGE,
    passes: int = FIT_PASSES,
    on_pass: Callable[[int], None] | None = None,
) -> tuple[LeaveModel, dict[bytes, float]]:
    """The model fitted to the observations (weighted least squares, by
    conjugate gradients), and the value of every leave of one to
    ``rack_size - 1`` tiles: the model's, moved towards the leave's own
    mean by ``count / (count + shrink)``; clipped to what a ``.klv`` holds."""
    model = LeaveModel(alphabet, rack_size)
    leaves = sorted(stats.counts)
    counts = [stats.counts[k][0] for k in leaves]
    means = [stats.counts[k][1] / 1000 / stats.counts[k][0] for k in leaves]
    rows = [model.features(leave) for leave in leaves]
    weights = model.weights
    size = len(weights)

    def normal(w: list[float]) -> list[float]:
        """(X'WX + ridge) w."""
        out = [ridge * x for x in w]
        for features, n in zip(rows, counts, strict=True):
            if features:
                y = n * sum(w[f] for f in features)
                for f in features:
                    out[f] += y
        return out

    target = [0.0] * size
    for features, n, mean in zip(rows, counts, means, strict=True):
        for f in features:
            target[f] += n * mean
    # conjugate gradients on the normal equations, from zero
    solution = [0.0] * size
    residual = target[:]
    direction = residual[:]
    norm = first = sum(r * r for r in residual)
    for number in range(passes):
        if norm <= TOLERANCE**2 * first:
            break
        product = normal(direction)
        alpha = norm / sum(d * p for d, p in zip(direction, product, strict=True))
        solution = [x + alpha * d for x, d in zip(solution, direction, strict=True)]
        residual = [r - alpha * p for r, p in zip(residual, product, strict=True)]
        new_norm = sum(r * r for r in residual)
        direction = [r + new_norm / norm * d for r, d in zip(residual, direction, strict=True)]
        norm = new_norm
        if on_pass is not None:
            on_pass(number + 1)
    weights[:] = solution
    predicted = [sum(weights[f] for f in features) for features in rows]
    own = {leave: (counts[i], means[i] - predicted[i]) for i, leave in enumerate(leaves)}
    table: dict[bytes, float] = {}
    for leave in all_leaves(alphabet, rack_size - 1):
        value = model.value(leave)
        seen = own.get(leave)
        if seen is not None:
            n, off = seen
            value += off * n / (n + shrink)
        table[leave] = max(-LIMIT, min(LIMIT, value))
    return model, table


def all_leaves(alphabet: Alphabet, most: int) -> Iterator[bytes]:
    """Every leave of one to ``most`` tiles the tile set's counts allow, sorted.

    >>> from tilebag.alphabet import load_alphabet
    >>> sum(1 for _ in all_leaves(load_alphabet("english"), 6))
    914624
    """
    limits = list(alphabet.counts)

    def extend(prefix: bytes, start: int) -> Iterator[bytes]:
        if prefix:
            yield prefix
        if len(prefix) == most:
            return
        for t in range(start, len(limits)):
            if prefix.count(t) < limits[t]:
                yield from extend(prefix + bytes((t,)), t)

    return extend(b"", 0)


# -- a run: generations, workers, a folder to go on from -------------------------------------


@dataclass
class TrainingRun:
    """What ``tilebag leaves train`` did: the generations finished and the table written."""

    folder: Path
    generations: int
    games: int
    """Games played in this run (not counting those of a run it went on from)."""
    seconds: float
    output: Path | None
    stopped: bool = False


@dataclass(frozen=True)
class TrainingJob(Job[Sequence[int], "LeaveStats"]):
    """Leave training for :mod:`tilebag.batch`: a batch of game seeds'
    observations. Workers load the lexicon and the leaves once."""

    lexicon: str | None
    rules: Rules
    leaves_path: str

    def load(self) -> object:
        lexicon = default_lexicon() if self.lexicon is None else load_lexicon(self.lexicon)
        alphabet = Engine.for_lexicon(lexicon, self.rules).alphabet
        return (lexicon, load_leaves(self.leaves_path, alphabet))

    def run(self, state: object, item: Sequence[int]) -> LeaveStats:
        lexicon, leaves = cast(tuple[Lexicon, LeaveValues], state)
        return play_training_games(item, leaves, lexicon=lexicon, rules=self.rules)


def _game_seed(seed: int, generation: int, game: int) -> int:
    return seed * 1_000_003 + generation * 10_000_019 + game


def train_leaves(
    folder: str | Path,
    *,
    games: int = 50_000,
    generations: int = 3,
    seed: int = 1,
    workers: int | None = None,
    lexicon: str | None = None,
    rules: Rules | None = None,
    output: str | Path | None = None,
    start: str = "heuristic",
    progress: bool | None = None,
    log: Callable[[str], None] | None = None,
    cluster: str | None = None,
) -> TrainingRun:
    """Train leave values: ``generations`` rounds of ``games`` static
    self-play games each, on ``workers`` processes (default: every core),
    starting from the leave values ``start``. The state lives in
    ``folder``; called again with the same folder, it goes on where it
    stopped (the settings it was started with are kept there). Each
    generation's table is written as ``generation-N.klv`` in the folder,
    and the last one also to ``output``. With ``cluster`` (see
    :func:`tilebag.batch.backend_for`) the games are played on Ray; the
    table is the same.

    :raises ValueError: for a folder started with other settings.
    """
    rules = rules or Rules()
    lex = default_lexicon() if lexicon is None else load_lexicon(lexicon)  # a lexicon not found stops here, before any file
    alphabet = Engine.for_lexicon(lex, rules).alphabet
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    settings = {"games": games, "generations": generations, "seed": seed, "lexicon": lexicon, "start": start,
                "rules": rules.name}
    state_path = folder / "state.json"
    if state_path.exists():
        state = json.loads(state_path.read_text())
        if state["settings"] != settings:
            raise ValueError(f"{folder} holds a run with other settings: {state['settings']}")
    else:
        state = {"settings": settings, "generation": 1, "done": []}
        _write_json(state_path, state)
    say = log or (lambda text: None)
    workers = max(1, workers or os.cpu_count() or 1)
    started = time.perf_counter()
    played = 0
    stopped = False
    try:
        while state["generation"] <= generations:
            generation = state["generation"]
            previous = folder / f"generation-{generation - 1}.klv"
            leaves_path = str(previous) if generation > 1 else start
            stats_path = folder / f"generation-{generation}.stats.gz"
            stats = LeaveStats.load(stats_path) if stats_path.exists() else LeaveStats()
            done = set(state["done"])
            batches = [b for b in range((games + BATCH - 1) // BATCH) if b not in done]
            say(f"generation {generation} of {generations}: {games} games with the leaves {Path(leaves_path).name}")
            job = TrainingJob(lexicon, rules, leaves_path)
            work = [[_game_seed(seed, generation, g) for g in range(b * BATCH, min(games, (b + 1) * BATCH))]
                    for b in batches]
            with Progress(games, f"generation {generation}", enabled=progress) as bar:
                bar.update(stats.games)
                keeper = _Keeper(stats, stats_path, state, state_path, batches, bar)
                try:
                    run = run_job(job, work, backend_for(cluster, workers), progress=False, on_result=keeper.add)
                finally:  # a stop keeps every batch finished
                    _save(stats, stats_path, state, state_path)
                played += keeper.games
                if run.stopped:
                    raise KeyboardInterrupt
            say(f"fitting {len(stats.counts)} leaves seen in {stats.observations} observations")
            model, table = fit_leaves(stats, alphabet, rack_size=rules.rack_size)
            _write_bytes(folder / f"generation-{generation}.klv", dumps_klv(table))
            _write_json(folder / f"generation-{generation}.model.json", model.to_dict())
            state["generation"] = generation + 1
            state["done"] = []
            _write_json(state_path, state)
    except KeyboardInterrupt:
        stopped = True
    finished = state["generation"] - 1
    written: Path | None = None
    if output is not None and finished >= 1:
        written = Path(output)
        _write_bytes(written, (folder / f"generation-{finished}.klv").read_bytes())
    return TrainingRun(folder, finished, played, time.perf_counter() - started, written, stopped)


class _Keeper:
    """Takes a generation's batches as they come: merged, counted, and
    saved every half minute."""

    def __init__(self, stats: LeaveStats, stats_path: Path, state: dict[str, Any], state_path: Path,
                 batches: list[int], bar: Progress) -> None:
        self.stats, self.stats_path, self.state, self.state_path = stats, stats_path, state, state_path
        self.batches, self.bar = batches, bar
        self.games = 0
        self.saved = time.monotonic()

    def add(self, index: int, batch: LeaveStats) -> None:
        self.stats.merge(batch)
        self.games += batch.games
        self.state["done"].append(self.batches[index])
        self.bar.advance(batch.games)
        if time.monotonic() - self.saved > 30:
            _save(self.stats, self.stats_path, self.state, self.state_path)
            self.saved = time.monotonic()


def _save(stats: LeaveStats, stats_path: Path, state: dict[str, object], state_path: Path) -> None:
    stats.dump(stats_path)
    _write_json(state_path, state)


def _write_json(path: Path, data: object) -> None:
    _write_bytes(path, json.dumps(data, indent=1).encode())


def _write_bytes(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


