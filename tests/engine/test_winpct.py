"""The win-probability table: the built-in one, its file format, and a
fit that finds the curve the data were drawn from."""

from __future__ import annotations

import math
import random

import pytest

from tilebag.engine.equity.winpct import WinTable
from tilebag.errors import FormatError
from tilebag.lab.wintable import fit


def test_the_built_in_table_rises_with_the_spread_and_steepens_towards_the_end() -> None:
    table = WinTable.load()
    assert table.games >= 1000
    for unseen in (2, 20, 60, 90):
        chances = [table.probability(spread, unseen) for spread in range(-100, 101, 10)]
        assert chances == sorted(chances) and chances[0] < 0.25 and chances[-1] > 0.75
    assert table.probability(30, 5) > table.probability(30, 80)
    assert list(table.scales) == sorted(table.scales)  # a lead counts for more the fewer tiles are to come


def test_a_table_survives_writing_and_reading() -> None:
    table = WinTable((10.0, 20.0), (1.0, -2.0), games=7)
    assert WinTable.loads(table.dumps()) == table


@pytest.mark.parametrize("text", ["", "{}", '{"format": "tilebag-winpct-1", "scales": [0], "edges": [0]}', "[1, 2]"])
def test_a_file_that_is_no_table_is_refused(text: str) -> None:
    with pytest.raises(FormatError, match="not a tilebag win table"):
        WinTable.loads(text)


@pytest.mark.slow
def test_the_fit_finds_the_curve_the_results_were_drawn_from() -> None:
    rng = random.Random(4)
    samples: list[list[tuple[int, float]]] = [[] for _ in range(3)]
    for _ in range(3000):
        spread = rng.randint(-80, 80)
        won = rng.random() < 1 / (1 + math.exp(-(spread + 5) / 20))
        samples[1].append((spread, 1.0 if won else 0.0))
    table = fit(samples)
    assert table.scales[1] == pytest.approx(20, rel=0.25) and table.edges[1] == pytest.approx(5, abs=4)
