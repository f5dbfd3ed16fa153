"""Fitting the win-probability table (:mod:`tilebag.engine.equity.winpct`)
to static self-play: ``tilebag wintable``.

For each count of tiles the player to move cannot see, the spread and the
result of every turn of the games are collected (:func:`collect`), and the
logistic curve of that count is fitted to them by maximum likelihood
(:func:`fit`), counts with few samples borrowing from their neighbours.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tilebag.engine.equity.winpct import WinTable
from tilebag.engine.players import StaticPlayer
from tilebag.game import Game
from tilebag.lexicon import default_lexicon

MAX_UNSEEN = 100

POOLED = 1500
"""Samples a count's curve is fitted to at least (taken from the counts around it when it has fewer)."""


def collect(games: int, *, seed: int = 1, progress: Callable[[int], None] | None = None) -> list[list[tuple[int, float]]]:
    """For each count of unseen tiles, the (spread, result) of the player to
    move at each turn of ``games`` static self-play games."""
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
