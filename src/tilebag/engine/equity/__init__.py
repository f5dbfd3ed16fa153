"""Equity in whole numbers: thousandths of a point.

A play's equity is its score plus the value of the tiles it keeps. Leave
values are fractions of a point, and comparing sums of fractions is where
two programs, or two builds of one, start to disagree. tilebag counts
equity as an integer number of thousandths of a point (*millipoints*): a
leave value becomes millipoints once (:func:`millipoints`), and from then on
every sum and comparison is exact, the same in the reference generator and
the compiled core, and the same on every machine. Only what is shown to a
person is turned back into points (:func:`points`).

What a play keeps is valued by the modules of this package:

- :mod:`.leaves`: leave values (KLV/KLV2 files, text tables, the heuristic,
  the shipped trained table), written by :mod:`.leave_writers`;
- :mod:`.opening`: the opening adjustment, what a first play gives away
  beside the premium squares;
- :mod:`.winpct`: the chance of winning from the spread and the tiles
  unseen, which simulation values its rollouts by.

>>> millipoints(3.2495), millipoints(-0.0005), millipoints(14)
(3250, 0, 14000)
>>> points(17_500)
17.5
>>> 14 * MILLIPOINTS + millipoints(3.5)
17500
"""

from __future__ import annotations

import math

MILLIPOINTS = 1000
"""Millipoints in a point."""


def millipoints(value: float) -> int:
    """A value in points as millipoints, rounded half up (the compiled core
    rounds the same way: ``floor(value * 1000 + 0.5)``)."""
    return math.floor(value * 1000.0 + 0.5)


def points(value: int) -> float:
    """Millipoints as points, for people to read."""
    return value / MILLIPOINTS
