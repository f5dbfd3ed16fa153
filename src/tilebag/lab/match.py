"""Matches: two bots over paired games, on all cores.

Each seed is played twice with the same bag: once with bot A moving first
and once with bot B moving first, so that the luck of the draw cancels as
far as it can. Bots are named by specs (:mod:`tilebag.engine.bots.specs`).
The result gives A's win rate (a draw counts half) with its 95% Wilson
interval, the mean spread with a 95% interval over the pairs, bingos per
game, seconds per move and the Elo difference the win rate means.

>>> result = run_match("static", "greedy", games=2, seed=3, workers=1, progress=False)
>>> result.games, len(result.pairs), result.pairs[0].seed
(2, 1, 3)
>>> 0.0 <= result.win_rate <= 1.0
True
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tilebag.batch import Job, backend_for, run_job
from tilebag.batch.results import ResultsFile
from tilebag.engine.bots.specs import BotSpec, parse_bot_spec
from tilebag.engine.players import Player
from tilebag.errors import FormatError
from tilebag.game import Game
from tilebag.lab.selfplay import play_game, tiles_placed, wilson_interval
from tilebag.lexicon import Lexicon, default_lexicon
from tilebag.move import Move
from tilebag.rules import Rules


class _Timed:
    """A bot whose moves are counted and timed (everything else passes through)."""

    def __init__(self, bot: Player) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves = 0
        self.seconds = 0.0

    def choose(self, game: Game) -> Move:
        started = time.perf_counter()
        move = self.bot.choose(game)
        self.seconds += time.perf_counter() - started
        self.moves += 1
        return move

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


@dataclass(frozen=True)
class GameResult:
    """One game of a pair, from bot A's side."""

    a_first: bool
    a_score: int
    b_score: int
    a_result: float
    """1 for a win of A, 0.5 for a draw, 0 for a loss."""
    a_bingos: int
    b_bingos: int


@dataclass(frozen=True)
class PairResult:
    """Both games of one seed, and the moves and seconds each bot took."""

    seed: int
    games: tuple[GameResult, GameResult]
    a_moves: int
    b_moves: int
    a_seconds: float
    b_seconds: float

    @property
    def spread(self) -> float:
        """A's mean spread over the two games."""
        return sum(g.a_score - g.b_score for g in self.games) / 2


@dataclass
class MatchResult:
    """What a match produced (the pairs in seed order)."""

    a: str
    b: str
    pairs: list[PairResult] = field(default_factory=list)
    seconds: float = 0.0
    stopped: bool = False
    """True when the match was stopped (Ctrl+C) before its last pair."""

    @property
    def games(self) -> int:
        return 2 * len(self.pairs)

    @property
    def a_wins(self) -> float:
        return sum(g.a_result for pair in self.pairs for g in pair.games)

    @property
    def win_rate(self) -> float:
        return self.a_wins / self.games if self.games else 0.0

    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.a_wins, self.games)

    @property
    def spread(self) -> float:
        return statistics.fmean(p.spread for p in self.pairs) if self.pairs else 0.0

    def spread_interval(self) -> tuple[float, float]:
        """A 95% interval of the mean spread, over the pairs."""
        if len(self.pairs) < 2:
            return (-math.inf, math.inf)
        half = 1.96 * statistics.stdev(p.spread for p in self.pairs) / math.sqrt(len(self.pairs))
        return (self.spread - half, self.spread + half)

    def bingos_per_game(self) -> tuple[float, float]:
        if not self.games:
            return (0.0, 0.0)
        a = sum(g.a_bingos for p in self.pairs for g in p.games)
        b = sum(g.b_bingos for p in self.pairs for g in p.games)
        return (a / self.games, b / self.games)

    def seconds_per_move(self) -> tuple[float, float]:
        a_moves = sum(p.a_moves for p in self.pairs)
        b_moves = sum(p.b_moves for p in self.pairs)
        a = sum(p.a_seconds for p in self.pairs) / a_moves if a_moves else 0.0
        b = sum(p.b_seconds for p in self.pairs) / b_moves if b_moves else 0.0
        return (a, b)

    def elo(self) -> tuple[float, float, float]:
        """The Elo difference of A over B the win rate means, with the
        difference at each end of the win rate's interval."""
        low, high = self.win_interval()
        return (elo_difference(self.win_rate), elo_difference(low), elo_difference(high))

    def to_dict(self) -> dict[str, object]:
        low, high = self.win_interval()
        spread_low, spread_high = self.spread_interval()
        elo, elo_low, elo_high = self.elo()
        a_bingos, b_bingos = self.bingos_per_game()
        a_seconds, b_seconds = self.seconds_per_move()
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_wins": self.a_wins,
            "win_rate": round(self.win_rate, 4),
            "win_interval": [round(low, 4), round(high, 4)],
            "spread": round(self.spread, 2),
            "spread_interval": [round(spread_low, 2), round(spread_high, 2)],
            "bingos_per_game": [round(a_bingos, 3), round(b_bingos, 3)],
            "seconds_per_move": [round(a_seconds, 5), round(b_seconds, 5)],
            "elo": round(elo, 1),
            "elo_interval": [round(elo_low, 1), round(elo_high, 1)],
            "seconds": round(self.seconds, 2),
            "stopped": self.stopped,
        }

    def text(self) -> str:
        """A short report."""
        low, high = self.win_interval()
        spread_low, spread_high = self.spread_interval()
        elo, elo_low, elo_high = self.elo()
        a_bingos, b_bingos = self.bingos_per_game()
        a_seconds, b_seconds = self.seconds_per_move()
        lines = [
            f"{self.a} against {self.b}: {self.games} games ({len(self.pairs)} seeds, each with both bots first)"
            + (", stopped early" if self.stopped else ""),
            f"  {self.a} wins {self.a_wins:g}: {self.win_rate:.1%} (95% interval {low:.1%} to {high:.1%})",
            f"  mean spread {self.spread:+.1f} (95% interval {spread_low:+.1f} to {spread_high:+.1f})",
            f"  Elo difference {elo:+.0f} ({elo_low:+.0f} to {elo_high:+.0f})",
            f"  bingos per game: {self.a} {a_bingos:.2f}, {self.b} {b_bingos:.2f}",
            f"  seconds per move: {self.a} {a_seconds * 1000:.1f} ms, {self.b} {b_seconds * 1000:.1f} ms",
            f"  {self.seconds:.1f} s in all",
        ]
        return "\n".join(lines)


def elo_difference(rate: float) -> float:
    """The Elo difference that gives this expected score (clamped to ±1200).

    >>> round(elo_difference(0.64))
    100
    >>> elo_difference(0.5)
    0.0
    """
    rate = min(max(rate, 0.001), 0.999)
    return 400 * math.log10(rate / (1 - rate))


@dataclass(frozen=True)
class MatchJob(Job[int, PairResult]):
    """A match's work for :mod:`tilebag.batch`: a seed's pair of games.
    Workers load the default lexicon once."""

    a: BotSpec
    b: BotSpec
    rules: Rules | None = None

    def load(self) -> object:
        return default_lexicon()

    def run(self, state: object, item: int) -> PairResult:
        assert isinstance(state, Lexicon)
        return play_pair(self.a, self.b, item, self.rules, state)


def play_pair(a: BotSpec, b: BotSpec, seed: int, rules: Rules | None = None, lexicon: Lexicon | None = None) -> PairResult:
    """Both games of one seed: A first, then B first, from the same bag."""
    bot_a, bot_b = _Timed(a.make("A")), _Timed(b.make("B"))
    games = []
    for a_first in (True, False):
        seated: list[Player] = [bot_a, bot_b] if a_first else [bot_b, bot_a]
        bingos = [0, 0]

        def count(game: Game, move: Move, bingos: list[int] = bingos) -> None:
            if tiles_placed(game, move) >= game.rules.bingo_tiles:
                bingos[game.turn] += 1

        game = play_game(seated, seed=seed, rules=rules, lexicon=lexicon, on_move=count, first=0)
        outcome = game.outcome()
        assert outcome is not None
        a_seat = 0 if a_first else 1
        b_seat = 1 - a_seat
        winners = outcome.winners
        result = (1.0 / len(winners)) if a_seat in winners else 0.0
        games.append(
            GameResult(a_first, game.players[a_seat].score, game.players[b_seat].score, result, bingos[a_seat], bingos[b_seat])
        )
    return PairResult(seed, (games[0], games[1]), bot_a.moves, bot_b.moves, bot_a.seconds, bot_b.seconds)


def run_match(
    a: str,
    b: str,
    *,
    games: int,
    seed: int = 1,
    workers: int | None = None,
    rules: Rules | None = None,
    progress: bool | None = None,
    cluster: str | None = None,
    results: str | Path | None = None,
    log: Callable[[str], None] | None = None,
) -> MatchResult:
    """Play ``games`` games (rounded up to pairs) of bot ``a`` against bot
    ``b`` on ``workers`` processes (default: every core), or on a Ray
    cluster (``cluster``: see :func:`tilebag.batch.backend_for`). Ctrl+C
    stops the match and keeps the pairs finished (:attr:`MatchResult.stopped`).

    :param results: a file that keeps every finished pair (JSON lines); a
        match run again with it plays only the pairs it lacks.
    :raises BotSpecError: for a spec that names no bot.
    :raises ClusterError: for a cluster that cannot be used.
    :raises ValueError: for a results file of another match.
    """
    spec_a, spec_b = parse_bot_spec(a), parse_bot_spec(b)
    spec_a.make(), spec_b.make()  # a leave file that cannot be read is said now, not in a worker
    seeds = list(range(seed, seed + (games + 1) // 2))
    backend = backend_for(cluster, max(1, min(workers or os.cpu_count() or 1, len(seeds))))
    result = MatchResult(spec_a.label, spec_b.label)
    kept = None
    before: dict[int, PairResult] = {}
    if results is not None:
        kept = ResultsFile(results, {"match": [spec_a.label, spec_b.label], "rules": (rules or Rules()).name})
        before = {pair.seed: pair for pair in (_pair_from(data, kept.path, n) for n, data in enumerate(kept.load(), 2))}
    result.pairs.extend(before[s] for s in seeds if s in before)
    skip = frozenset(i for i, s in enumerate(seeds) if s in before)

    def finished(_index: int, pair: PairResult) -> None:
        result.pairs.append(pair)
        if kept is not None:
            kept.add(asdict(pair))

    run = run_job(
        MatchJob(spec_a, spec_b, rules), seeds, backend, skip=skip, label="games", progress=progress,
        on_result=finished, weight=lambda _pair: 2, steps=2 * (len(seeds) - len(skip)),
    )
    if log is not None:
        log(run.summary())
    result.stopped = run.stopped
    result.pairs.sort(key=lambda p: p.seed)
    result.seconds = run.seconds
    return result


def _pair_from(data: dict[str, Any], path: Path, line: int) -> PairResult:
    """A pair kept in a results file."""
    try:
        first, second = (GameResult(**game) for game in data["games"])
        return PairResult(int(data["seed"]), (first, second), int(data["a_moves"]), int(data["b_moves"]),
                          float(data["a_seconds"]), float(data["b_seconds"]))
    except (KeyError, TypeError, ValueError) as error:
        raise FormatError(f"not a pair of games ({error})", source=str(path), line=line) from None
