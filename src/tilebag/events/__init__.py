"""Club nights and tournaments: players, results, standings and pairings,
on the board or online.

A pure library that the ``tilebag`` command and the server share: no
database, no network, no files opened. An event is its players and its
results; everything else is computed from them.

- :mod:`.standings`: :class:`Player`, :class:`Game` (a result: a game, a
  bye, a forfeit), :func:`standings` with their tie-breaks and scorecards;
- :mod:`.pairing`: :func:`pair_round` by round robin, Swiss, king of the
  hill, Australian draw, random or fixed pairings, with byes and starts
  (who goes first) balanced;
- :mod:`.tsh`: tsh's ``.t`` player files, read and written.

>>> from tilebag.events import Game, Player, pair_round, standings
>>> players = [Player(1, "Ann", rating=1800), Player(2, "Bob", rating=1750), Player(3, "Cy", rating=1500)]
>>> round_1 = pair_round("round robin", players, [], 1, seed=1, total_rounds=3)
>>> [(p.a, p.b) for p in round_1]
[(2, 3), (1, None)]
>>> results = [Game(1, 2, 3, 402, 377, first=2), Game.bye(1, 1)]
>>> [(s.rank, s.player.name, s.record, s.spread) for s in standings(players, results)]
[(1, 'Ann', '1-0', 50), (2, 'Bob', '1-0', 25), (3, 'Cy', '0-1', -25)]
"""

from __future__ import annotations

from tilebag.events.pairing import Method, Pairing, PairingError, Pairings, find_method, pair_round
from tilebag.events.standings import (
    BYE_SPREAD,
    FORFEIT_SPREAD,
    Game,
    Player,
    PlayerId,
    ResultError,
    ScorecardLine,
    Standing,
    replace_result,
    standings,
)
from tilebag.events.tsh import Division, TshError

__all__ = [
    "BYE_SPREAD",
    "FORFEIT_SPREAD",
    "Division",
    "Game",
    "Method",
    "Pairing",
    "PairingError",
    "Pairings",
    "Player",
    "PlayerId",
    "ResultError",
    "ScorecardLine",
    "Standing",
    "TshError",
    "find_method",
    "pair_round",
    "replace_result",
    "standings",
]
