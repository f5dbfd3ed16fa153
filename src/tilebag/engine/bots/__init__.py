"""Bot kinds by name: what ``--bot KIND``, a server's seat and a setup
menu offer, from the weakest to the strongest.

The bots that answer at once are :mod:`tilebag.engine.players` (the static
player is also the policy simulation rolls out with, so it sits below
:mod:`tilebag.engine.montecarlo`); the strongest, which uses simulation
and the solvers, is :mod:`.champion`; :mod:`.specs` names
bots with options, as ``tilebag match`` takes them.

>>> sorted(BOTS)
['beginner', 'champion', 'greedy', 'static']
>>> make_bot("greedy", "g").name
'g'
"""

from __future__ import annotations

from tilebag.engine.bots.champion import ChampionPlayer
from tilebag.engine.players import BeginnerPlayer, GreedyPlayer, Player, StaticPlayer

BOTS: dict[str, type[BeginnerPlayer] | type[GreedyPlayer] | type[StaticPlayer] | type[ChampionPlayer]] = {
    "beginner": BeginnerPlayer,
    "greedy": GreedyPlayer,
    "static": StaticPlayer,
    "champion": ChampionPlayer,
}
"""Bot kinds by name, weakest first."""

STRONGEST_BOT = "champion"
"""The kind of the strongest bot available."""


def describe_bot(kind: str) -> str:
    """One line saying how a kind of bot plays, for a menu.

    >>> describe_bot("static")
    "static: weighs each play's score and the tiles it keeps; the strongest bot that answers at once"

    :raises ValueError: naming the known kinds.
    """
    return _bot_class(kind).description


def make_bot(kind: str, name: str | None = None, *, core: str | None = None, threads: int | None = 1) -> Player:
    """A bot by kind name (``beginner``, ``greedy``, ``static``), using the
    given move generator core (default: the compiled one when built).

    :param threads: the threads the champion's endgame searches run on
        (``None``: one a core); the other bots think on one.
    :raises ValueError: naming the known kinds.
    """
    factory = _bot_class(kind)
    if factory is ChampionPlayer:
        return ChampionPlayer(name or kind.lower(), core=core, threads=threads)
    return factory(name or kind.lower(), core=core)


def _bot_class(kind: str) -> type[BeginnerPlayer] | type[GreedyPlayer] | type[StaticPlayer] | type[ChampionPlayer]:
    factory = BOTS.get(kind.lower())
    if factory is None:
        raise ValueError(f"no bot called {kind!r} (known: {', '.join(BOTS)})")
    return factory
