"""The strongest bot: simulation while the bag holds tiles, the exact
endgame solver once it is empty, within one time budget a move.

>>> from tilebag import Game
>>> game = Game(["champion", "other"], seed=3)
>>> move = ChampionPlayer(seconds=0.2).choose(game)
>>> move in game.legal_moves
True
"""

from __future__ import annotations

from typing import ClassVar

from tilebag.engine import Engine
from tilebag.engine.endgame import solve
from tilebag.engine.players import StaticPlayer
from tilebag.engine.sim import SimPlayer, searchable
from tilebag.game import Game
from tilebag.move import Move

DEFAULT_SECONDS = 1.0
"""The time for one move."""


class ChampionPlayer:
    """Simulates in the middle game (:class:`~tilebag.engine.sim.SimPlayer`)
    and solves the endgame (:func:`~tilebag.engine.endgame.solve`), each
    with ``seconds`` a move; the static player's choice in the variations'
    turns and games of more than two."""

    description: ClassVar[str] = (
        "champion: plays its best plays out against the racks the opponent may hold, and solves the endgame; "
        "the strongest bot (about a second a move)"
    )

    def __init__(self, name: str = "champion", *, core: str | None = None, seconds: float = DEFAULT_SECONDS, seed: int = 0) -> None:
        self.name = name
        self.seconds = seconds
        self._static = StaticPlayer(name, core=core)
        self._sim = SimPlayer(name, seconds=seconds, seed=seed)

    def __repr__(self) -> str:
        return f"ChampionPlayer({self.name!r}, seconds={self.seconds})"

    def engine(self, game: Game) -> Engine:
        return self._static.engine(game)

    def choose(self, game: Game) -> Move:
        if not searchable(game):
            return self._static.choose(game)
        if len(game.bag):
            return self._sim.choose(game)
        solution = solve(game.position(), self.engine(game), rules=game.rules, seconds=self.seconds)
        if not solution.moves:
            return self._static.choose(game)
        return game.check(solution.moves[0].move)
