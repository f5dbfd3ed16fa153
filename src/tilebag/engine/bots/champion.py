"""The strongest bot: simulation while the bag holds tiles, the
pre-endgame solver with one or two tiles left in it, the exact endgame
solver once it is empty, within one time budget a move.

>>> from tilebag import Game
>>> game = Game(["champion", "other"], seed=3)
>>> move = ChampionPlayer(seconds=0.2).choose(game)
>>> move in game.legal_moves
True
"""

from __future__ import annotations

from typing import ClassVar, Literal

from tilebag.engine import Engine
from tilebag.engine.endgame.preendgame import PreendgameResult, solve_preendgame
from tilebag.engine.endgame.solver import solve
from tilebag.engine.montecarlo.sim import SimPlayer, searchable
from tilebag.engine.players import StaticPlayer
from tilebag.game import Game
from tilebag.move import Move

DEFAULT_SECONDS = 1.0
"""The time for one move."""

PREENDGAME_CANDIDATES = 8
"""Placements the pre-endgame solves, best static equity first."""


def fitting_search(bag_count: int, *, opponent_known: bool = True) -> Literal["peg", "endgame", "sim"]:
    """The search that fits a position: the pre-endgame solver with one or
    two tiles in the bag, the exact endgame once it is empty (when the
    opponent's rack is known, as the unseen tiles tell it), otherwise the
    simulation. The champion plays by it, and the SIU engine's ``go auto``
    answers by it.

    >>> fitting_search(1), fitting_search(2), fitting_search(0), fitting_search(0, opponent_known=False), fitting_search(3)
    ('peg', 'peg', 'endgame', 'sim', 'sim')
    """
    if bag_count in (1, 2):
        return "peg"
    if bag_count <= 0 and opponent_known:
        return "endgame"
    return "sim"


class ChampionPlayer:
    """Simulates in the middle game (:class:`~tilebag.engine.montecarlo.sim.SimPlayer`),
    solves the pre-endgame with one or two tiles in the bag
    (:func:`~tilebag.engine.endgame.preendgame.solve_preendgame`: the best of the
    candidates it finished in time, over draws sampled with two tiles when
    every draw does not fit in the time, else the simulation's choice) and the
    endgame (:func:`~tilebag.engine.endgame.solver.solve`), each with ``seconds``
    a move; the static player's choice in the variations' turns and games
    of more than two.

    :param workers: the processes the simulation runs in (default 1;
        ``None``: every core; forked, so only for a program with no other
        threads running, see :class:`~tilebag.engine.montecarlo.sim.SimPlayer`).
    :param threads: the threads the pre-endgame's and the endgame's searches
        run on (default 1; ``None``: one a core); safe anywhere.
    """

    kind: ClassVar[str] = "champion"
    """The kind it is made by (:func:`tilebag.engine.bots.make_bot`)."""
    description: ClassVar[str] = (
        "champion: plays its best plays out against the racks the opponent may hold, and solves the endgame; "
        "the strongest bot (about a second a move)"
    )

    def __init__(
        self, name: str = "champion", *, core: str | None = None, seconds: float = DEFAULT_SECONDS, seed: int = 0,
        workers: int | None = 1, threads: int | None = 1,
    ) -> None:
        self.name = name
        self.seconds = seconds
        self._static = StaticPlayer(name, core=core)
        self.threads = threads
        self._sim = SimPlayer(name, seconds=seconds, seed=seed, workers=workers)
        self.last_preendgame: PreendgameResult | None = None
        """The last pre-endgame it solved."""

    def __repr__(self) -> str:
        return f"ChampionPlayer({self.name!r}, seconds={self.seconds})"

    def engine(self, game: Game) -> Engine:
        return self._static.engine(game)

    def choose(self, game: Game) -> Move:
        if not searchable(game):
            return self._static.choose(game)
        search = fitting_search(len(game.bag))
        if search == "peg":
            result = solve_preendgame(
                game.position(), self.engine(game), unseen=game.unseen(game.turn), rules=game.rules,
                candidates=PREENDGAME_CANDIDATES, seconds=self.seconds, threads=self.threads, seed=self._sim.seed,
            )
            self.last_preendgame = result
            if result.plays:
                return game.check(result.plays[0].play.move)
        if search != "endgame":
            return self._sim.choose(game)
        solution = solve(game.position(), self.engine(game), rules=game.rules, seconds=self.seconds, threads=self.threads)
        if not solution.moves:
            return self._static.choose(game)
        return game.check(solution.moves[0].move)
