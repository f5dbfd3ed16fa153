"""Bots: players that choose their own moves.

A :class:`Player` looks at a :class:`~tilebag.game.Game` and returns the
move it wants to make for the player to move; the caller pushes it. Two
bots come with tilebag:

* :class:`GreedyPlayer` plays the highest-scoring placement (exchanging
  everything, or passing, when it has none);
* :class:`StaticPlayer` plays the best *equity*: score plus the value of the
  tiles it keeps (:mod:`tilebag.leaves`), exchanges included.

>>> from tilebag.game import Game
>>> game = Game(["static", "greedy"], seed=3)
>>> bots = [StaticPlayer(), GreedyPlayer()]
>>> while not game.is_over():
...     _ = game.push(bots[game.turn].choose(game))
>>> game.outcome().termination.name in {"WENT_OUT", "SCORELESS_TURNS"}
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from tilebag.game import Game
from tilebag.kwg import Kwg
from tilebag.leaves import DEFAULT_LEAVES, LeaveValues, load_leaves
from tilebag.move import Move
from tilebag.movegen import MoveGenerator, Play, default_core
from tilebag.rules import Rules


@runtime_checkable
class Player(Protocol):
    """Anything that can choose a move for the player to move in a game."""

    name: str

    def choose(self, game: Game) -> Move:
        """The move to make (the caller pushes it)."""
        ...


def generator_for(game: Game, core: str | None = None) -> MoveGenerator:
    """The move generator for a game's lexicon and rules (made once per
    lexicon, rules and core, then shared).

    :param core: ``python`` or ``native`` (default: :func:`tilebag.movegen.default_core`).
    """
    kwg = getattr(game.lexicon, "kwg", None)
    if not isinstance(kwg, Kwg):
        raise TypeError(f"the lexicon {game.lexicon.name!r} has no word graph; bots need a word list or a .kwg lexicon")
    core = core or default_core()
    key = (id(kwg), game.rules, core)
    cached = _GENERATORS.get(key)
    if cached is None or cached.kwg is not kwg:
        if len(_GENERATORS) >= 8:
            _GENERATORS.clear()
        cached = _GENERATORS[key] = MoveGenerator(
            kwg,
            layout=game.layout,
            alphabet=game.alphabet,
            bingo_tiles=game.rules.bingo_tiles,
            bingo_bonus=game.rules.bingo_bonus,
            first_play_min_tiles=max(2, game.rules.min_first_word),
            core=core,
        )
    return cached


_GENERATORS: dict[tuple[int, Rules, str], MoveGenerator] = {}


def _fallback(game: Game) -> Move:
    """What a bot does with no placement: exchange everything when the bag
    allows it, else pass."""
    rack = game.rack()
    if len(game.bag) >= game.rules.exchange_min_bag and rack:
        return Move.exchange(rack)
    return Move.pass_()


class GreedyPlayer:
    """Plays the highest-scoring placement (ties: the generator's fixed order)."""

    def __init__(self, name: str = "greedy", *, core: str | None = None) -> None:
        self.name = name
        self.core = core
        """The move generator core (default: the compiled one when built)."""

    def __repr__(self) -> str:
        return f"GreedyPlayer({self.name!r})"

    def best(self, game: Game) -> Play | None:
        # with no leave values and tiles in the bag, equity is the score
        plays = generator_for(game, self.core).generate(game.board, game.rack(), bag_count=1, top=1)
        return plays[0] if plays else None

    def choose(self, game: Game) -> Move:
        best = self.best(game)
        return best.move if best is not None else _fallback(game)


class StaticPlayer:
    """Plays the best equity: score plus the leave's value (exchanges
    included while the bag holds enough tiles).

    :param leaves: a leave table (default: :data:`tilebag.leaves.DEFAULT_LEAVES`).
    """

    def __init__(self, name: str = "static", *, leaves: LeaveValues | None = None, core: str | None = None) -> None:
        self.name = name
        self.leaves = leaves
        self.core = core
        """The move generator core (default: the compiled one when built)."""
        self._tables: dict[str, LeaveValues] = {}

    def __repr__(self) -> str:
        return f"StaticPlayer({self.name!r})"

    def leave_values(self, game: Game) -> LeaveValues:
        if self.leaves is not None:
            return self.leaves
        table = self._tables.get(game.alphabet.name)
        if table is None:
            table = self._tables[game.alphabet.name] = load_leaves(DEFAULT_LEAVES, game.alphabet)
        return table

    def ranked(self, game: Game, top: int | None = None) -> Sequence[Play]:
        """The plays it considers, best first."""
        return generator_for(game, self.core).generate(
            game.board,
            game.rack(),
            leaves=self.leave_values(game),
            bag_count=len(game.bag),
            exchanges=len(game.bag) >= game.rules.exchange_min_bag,
            exchange_min_bag=game.rules.exchange_min_bag,
            top=top,
        )

    def choose(self, game: Game) -> Move:
        plays = self.ranked(game, top=1)
        return plays[0].move if plays else _fallback(game)


BOTS: dict[str, type[GreedyPlayer] | type[StaticPlayer]] = {"greedy": GreedyPlayer, "static": StaticPlayer}
"""Bot kinds by name."""


def make_bot(kind: str, name: str | None = None, *, core: str | None = None) -> Player:
    """A bot by kind name (``greedy``, ``static``), using the given move
    generator core (default: the compiled one when built).

    :raises ValueError: naming the known kinds.
    """
    factory = BOTS.get(kind.lower())
    if factory is None:
        raise ValueError(f"no bot called {kind!r} (known: {', '.join(BOTS)})")
    return factory(name or kind.lower(), core=core)
