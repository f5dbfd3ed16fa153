"""Win probability from spread and tiles unseen, made from self-play.

For each count of tiles the player to move cannot see (the bag and the
other rack), the chance of winning is a logistic curve of the spread:
``1 / (1 + exp(-(spread + edge) / scale))``. The ``scale`` (how many points
a lead is worth: small near the end, large at the start) and ``edge`` (what
being on turn is worth) of each count are fitted by maximum likelihood to
the positions of static self-play games and their results
(:mod:`tilebag.lab.wintable`, ``tilebag wintable``).

>>> table = WinTable.load()
>>> table.probability(0, 80) > 0.45, table.probability(40, 10) > table.probability(40, 80)
(True, True)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tilebag.errors import FormatError


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
