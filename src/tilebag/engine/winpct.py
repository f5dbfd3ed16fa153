"""Win probability from spread and tiles unseen, made from self-play.

For each count of tiles the player to move cannot see (the bag and the
other rack), the chance of winning is a logistic curve of the spread:
``1 / (1 + exp(-(spread + edge) / scale))``. The ``scale`` (how many points
a lead is worth: small near the end, large at the start) and ``edge`` (what
being on turn is worth) of each count are fitted by maximum likelihood to
the positions of static self-play games and their results.

>>> table = WinTable.load()
>>> table.probability(0, 80) > 0.45, table.probability(40, 10) > table.probability(40, 80)
(True, True)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tilebag.errors import FormatError

MAX_UNSEEN = 100

POOLED = 1500
"""Samples a count's curve is fitted to at least (taken from the counts around it when it has fewer)."""


@dataclass(frozen=True)
class WinTable:
    """Each count of unseen tiles' curve: ``scales[u]`` and ``edges[u]``."""

    scales: tuple[float, ...]
    edges: tuple[float, ...]
    games: int = 0

    def probability(self, spread: float, unseen: int) -> float:
        """The chance that the player to move wins, ``spread`` points ahead
        with ``unseen`` tiles they cannot see (a draw counts half)."""
        u = min(max(unseen, 0), len(self.scales) - 1)
        x = (spread + self.edges[u]) / self.scales[u]
        if x > 40:
            return 1.0
        if x < -40:
            return 0.0
        return 1 / (1 + math.exp(-x))

    def dumps(self) -> str:
        return json.dumps({"format": "tilebag-winpct-1", "games": self.games,
                           "scales": [round(s, 3) for s in self.scales], "edges": [round(e, 3) for e in self.edges]})

    @classmethod
    def loads(cls, text: str, *, source: str = "win table") -> WinTable:
        """:raises FormatError: naming what is wrong."""
        try:
            data = json.loads(text)
            scales = tuple(float(s) for s in data["scales"])
            edges = tuple(float(e) for e in data["edges"])
        except (ValueError, KeyError, TypeError) as err:
            raise FormatError(f"{source}: not a tilebag win table ({err})") from None
        if data.get("format") != "tilebag-winpct-1" or not scales or len(scales) != len(edges) or min(scales) <= 0:
            raise FormatError(f"{source}: not a tilebag win table (format, scales and edges)")
        return cls(scales, edges, int(data.get("games", 0)))

    @classmethod
    def load(cls, path: str | Path | None = None) -> WinTable:
        """A table from a file, or the one that comes with tilebag."""
        if path is None:
            text = (resources.files("tilebag") / "data" / "winpct.json").read_text(encoding="utf-8")
            return cls.loads(text, source="the built-in win table")
        return cls.loads(Path(path).read_text(encoding="utf-8"), source=str(path))


def collect(games: int, *, seed: int = 1, progress: Callable[[int], None] | None = None) -> list[list[tuple[int, float]]]:
    """For each count of unseen tiles, the (spread, result) of the player to
    move at each turn of ``games`` static self-play games."""
    from tilebag.engine.players import StaticPlayer
    from tilebag.game import Game
    from tilebag.lexicon import default_lexicon

    lexicon = default_lexicon()
    bot = StaticPlayer("bot")
    samples: list[list[tuple[int, float]]] = [[] for _ in range(MAX_UNSEEN)]
    for number in range(games):
        game = Game(["a", "b"], lexicon=lexicon, seed=seed + number)
        seen: list[tuple[int, int, int]] = []
        while not game.is_over():
            me = game.turn
            unseen = len(game.bag) + len(game.rack(1 - me))
            seen.append((me, unseen, game.scores[me] - game.scores[1 - me]))
            game.push(bot.choose(game))
        outcome = game.outcome()
        assert outcome is not None
        for me, unseen, spread in seen:
            result = 1.0 / len(outcome.winners) if me in outcome.winners else 0.0
            samples[min(unseen, MAX_UNSEEN - 1)].append((spread, result))
        if progress is not None:
            progress(number + 1)
    return samples


def fit(samples: list[list[tuple[int, float]]], games: int = 0) -> WinTable:
    """The curve of each count of unseen tiles, fitted by maximum likelihood
    (counts with few samples borrow from their neighbours)."""
    scales, edges = [], []
    for u in range(len(samples)):
        pooled: list[tuple[int, float]] = []
        width = 0
        while len(pooled) < POOLED and width < len(samples):
            pooled = [s for v in range(max(0, u - width), min(len(samples), u + width + 1)) for s in samples[v]]
            width += 1
        scale, edge = _fit_one(pooled)
        scales.append(scale)
        edges.append(edge)
    # smoothed: a running median, then a lead never counts for more with more tiles to come
    scales = _running_median(scales)
    for u in range(1, len(scales)):
        scales[u] = max(scales[u], scales[u - 1])
    return WinTable(tuple(scales), tuple(_running_median(edges)), games)


def _running_median(values: list[float], half: int = 3) -> list[float]:
    """Each value replaced by the median of it and its ``half`` neighbours on each side.

    >>> _running_median([1.0, 9.0, 2.0, 3.0], half=1)
    [5.0, 2.0, 3.0, 2.5]
    """
    import statistics

    return [statistics.median(values[max(0, i - half) : i + half + 1]) for i in range(len(values))]


def _fit_one(points: list[tuple[int, float]]) -> tuple[float, float]:
    """The scale and edge that make the results likeliest (a grid, then a finer one)."""
    if not points:
        return (40.0, 0.0)

    def loss(scale: float, edge: float) -> float:
        total = 0.0
        for spread, result in points:
            p = 1 / (1 + math.exp(-max(-40.0, min(40.0, (spread + edge) / scale))))
            p = min(max(p, 1e-9), 1 - 1e-9)
            total -= result * math.log(p) + (1 - result) * math.log(1 - p)
        return total

    best = (40.0, 0.0)
    best_loss = math.inf
    for scale in (2.0, 4.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0, 96.0):
        for edge in (-20.0, -10.0, -5.0, 0.0, 5.0, 10.0, 20.0):
            value = loss(scale, edge)
            if value < best_loss:
                best, best_loss = (scale, edge), value
    scale, edge = best
    for step in (0.25, 0.1):
        for s in (scale * (1 + step * k) for k in range(-3, 4)):
            for e in (edge + step * 10 * k for k in range(-3, 4)):
                if s > 0:
                    value = loss(s, e)
                    if value < best_loss:
                        best, best_loss = (s, e), value
        scale, edge = best
    return best
