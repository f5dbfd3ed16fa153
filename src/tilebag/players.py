"""Bots: players that choose their own moves.

A :class:`Player` looks at a :class:`~tilebag.game.Game` and returns the
move it wants to make for the player to move; the caller pushes it. Two
bots come with tilebag:

* :class:`GreedyPlayer` plays the highest-scoring placement (exchanging
  everything, or passing, when it has none);
* :class:`StaticPlayer` plays the best *equity*: score plus the value of the
  tiles it keeps (:mod:`tilebag.leaves`), exchanges included.

Both play every variation of the rules (:mod:`tilebag.rules`): they weigh
anagram plays with the other plays (:mod:`tilebag.variation_plays`), play
to reach a Finish Line target as soon as they can, and start a turn with a
blank swap or a recycle when the best play after it is worth more. Those
actions keep the turn, so :meth:`Player.choose` returns them one at a time
and is asked again for the same player, as the loop below does anyway.

>>> from tilebag.game import Game
>>> game = Game(["static", "greedy"], seed=3)
>>> bots = [StaticPlayer(), GreedyPlayer()]
>>> while not game.is_over():
...     _ = game.push(bots[game.turn].choose(game))
>>> game.outcome().termination.name in {"WENT_OUT", "SCORELESS_TURNS"}
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from tilebag.alphabet import BLANK, Tile, rack_tile
from tilebag.board import Board
from tilebag.game import Game
from tilebag.kwg import Kwg
from tilebag.leaves import DEFAULT_LEAVES, LeaveValues, load_leaves
from tilebag.move import Move
from tilebag.movegen import MoveGenerator, Play, default_core, play_order
from tilebag.record import EventKind
from tilebag.rules import Rules
from tilebag.variation_plays import LeaveValuer, VariationGenerator, after_action, blank_swaps, leave_valuer


@runtime_checkable
class Player(Protocol):
    """Anything that can choose a move for the player to move in a game."""

    name: str

    def choose(self, game: Game) -> Move:
        """The move to make (the caller pushes it). A recycle or blank swap
        leaves the turn with the same player: the caller asks again."""
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


def variations_for(game: Game) -> VariationGenerator:
    """The variations' candidate finder for a game's lexicon and rules (made
    once per word graph and rules, then shared)."""
    kwg = generator_for(game).kwg
    key = (id(kwg), game.rules)
    cached = _VARIATIONS.get(key)
    if cached is None or cached.kwg is not kwg:
        if len(_VARIATIONS) >= 8:
            _VARIATIONS.clear()
        cached = _VARIATIONS[key] = VariationGenerator(
            kwg, alphabet=game.alphabet, bingo_tiles=game.rules.bingo_tiles, bingo_bonus=game.rules.bingo_bonus
        )
    return cached


_VARIATIONS: dict[tuple[int, Rules], VariationGenerator] = {}

MAX_START_ACTIONS = 4
"""Recycles and blank swaps a bot makes at most at the start of one turn."""

RECYCLE_CANDIDATES = {"native": 8, "python": 2}
"""Recycles a bot values by the best play after them, per action and by
move generator core: the most promising by the change in the rack's leave
value. (The chosen recycle is often not the first by that estimate, but the
reference core takes some 50 ms a position.)"""

_FINISH = 1.0e6
"""Added to the value of a position with a play that reaches the Finish Line
target, so that any such play beats every other plan."""


def _fallback(game: Game) -> Move:
    """What a bot does with no placement: exchange everything when the bag
    allows it (as many tiles as the bag holds, blanks kept, when it holds
    fewer than the rack), else pass."""
    rack = game.rack()
    bag = len(game.bag)
    if bag >= game.rules.exchange_min_bag and rack:
        rack.sort(key=lambda tile: tile == BLANK)
        return Move.exchange(rack[:bag])
    return Move.pass_()


def start_actions(game: Game) -> int:
    """Recycles and blank swaps the player to move has made this turn."""
    count = 0
    for event in reversed(game.events):
        if event.kind not in (EventKind.RECYCLE, EventKind.BLANK_SWAP) or event.player != game.turn:
            break
        count += 1
    return count


class _Bot:
    """What the bots share: the best move of a position by their own
    valuation (plays, anagram plays, exchanges), and the start-of-turn actions
    of the variations (recycle, blank swap) taken one at a time.

    A turn's plan may start with a recycle or a blank swap. :meth:`choose`
    then returns that action alone; the caller pushes it and asks again, and
    the same player goes on with the plan. An action is taken only when the
    best value after it is strictly better than the best value without it,
    so a turn never goes back to a position it has left, and at most
    :data:`MAX_START_ACTIONS` actions start a turn.
    """

    name: str
    core: str | None
    variations: bool

    def _plays(self, game: Game, board: Board, rack: list[Tile], top: int | None) -> Sequence[Play]:
        raise NotImplementedError

    def _valuer(self, game: Game) -> LeaveValuer:
        raise NotImplementedError

    def _estimate(self, game: Game) -> LeaveValuer:
        """A leave valuer to rank recycles by before valuing them fully."""
        raise NotImplementedError

    def choose(self, game: Game) -> Move:
        """The move to make, or the recycle or blank swap that starts the
        best plan for the turn (then ask again: the turn is still this
        player's)."""
        board, rack = game.board, game.rack()
        move, value = self._best(game, board, rack, anagrams=True)
        rules = game.rules
        if (
            self.variations
            and (rules.recycle or rules.blank_swap)
            and value < _FINISH  # a play that wins now needs nothing first
            and start_actions(game) < MAX_START_ACTIONS
        ):
            action = self._start_action(game, value)
            if action is not None:
                return action
        return move if move is not None else _fallback(game)

    def _best(self, game: Game, board: Board, rack: list[Tile], *, anagrams: bool) -> tuple[Move | None, float]:
        """The best move of a position and its value (``-inf`` when there is
        no play to value: the bot exchanges everything or passes)."""
        plays = self._plays(game, board, rack, 1)
        best = plays[0] if plays else None
        anagram_plays: list[Play] = []
        if anagrams and self.variations and game.rules.anagram:
            anagram_plays = variations_for(game).anagram_plays(
                board, rack, lexicon=game.lexicon, valuer=self._valuer(game)
            )
            if anagram_plays and (best is None or play_order(anagram_plays[0]) < play_order(best)):
                best = anagram_plays[0]
        targets = game.finish_targets
        if targets is not None:
            need = targets[game.turn] - game.players[game.turn].score
            scoring = list(generator_for(game, self.core).generate(board, rack, bag_count=1, top=1))
            top = max(scoring + anagram_plays, key=lambda play: play.score, default=None)
            if top is not None and top.score > 0 and top.score >= need:
                return top.move, _FINISH + top.score
        if best is None:
            return None, -math.inf
        return best.move, best.equity

    def _start_action(self, game: Game, value: float) -> Move | None:
        """The recycle or blank swap after which the best value is highest,
        when it beats ``value`` (the best without one)."""
        board, rack = game.board, game.rack()
        candidates: list[Move] = []
        if game.rules.blank_swap:
            candidates.extend(blank_swaps(board, rack))
        if game.rules.recycle:
            candidates.extend(self._recycles(game, board, rack))
        chosen: Move | None = None
        for action in candidates:
            after_board, after_rack = after_action(board, rack, action)
            _, after = self._best(game, after_board, after_rack, anagrams=False)
            if after > value:
                chosen, value = action, after
        return chosen

    def _recycles(self, game: Game, board: Board, rack: list[Tile]) -> list[Move]:
        """The most promising recycles, by the leave value they bring."""
        finder = variations_for(game)
        estimate = self._estimate(game)
        now = estimate(rack)
        ranked: list[tuple[float, int, Move]] = []
        for index, move in enumerate(finder.recycles(board, rack)):
            old = board.at(move.row, move.col)
            kept = list(rack)
            kept.remove(move.tiles[0])
            kept.append(rack_tile(old))
            ranked.append((now - estimate(kept), index, move))
        ranked.sort()
        return [
            move
            for _, _, move in ranked[: RECYCLE_CANDIDATES[generator_for(game, self.core).core]]
            if finder.recycle_is_sound(board, move, game.lexicon)
        ]


class GreedyPlayer(_Bot):
    """Plays the highest-scoring placement (ties: the generator's fixed order),
    exchanging everything, or passing, when it has none.

    In the variations it also weighs anagram plays by their score, and makes
    a recycle or blank swap when the best score after it is higher.
    """

    def __init__(self, name: str = "greedy", *, core: str | None = None, variations: bool = True) -> None:
        self.name = name
        self.core = core
        """The move generator core (default: the compiled one when built)."""
        self.variations = variations
        """Whether it uses the variations the rules allow (anagram plays,
        recycles, blank swaps)."""
        self._heuristic: dict[str, LeaveValues] = {}

    def __repr__(self) -> str:
        return f"GreedyPlayer({self.name!r})"

    def best(self, game: Game) -> Play | None:
        # with no leave values and tiles in the bag, equity is the score
        plays = self._plays(game, game.board, game.rack(), 1)
        return plays[0] if plays else None

    def _plays(self, game: Game, board: Board, rack: list[Tile], top: int | None) -> Sequence[Play]:
        return generator_for(game, self.core).generate(board, rack, bag_count=1, top=top)

    def _valuer(self, game: Game) -> LeaveValuer:
        return leave_valuer(game.alphabet, None, 1)

    def _estimate(self, game: Game) -> LeaveValuer:
        table = self._heuristic.get(game.alphabet.name)
        if table is None:
            table = self._heuristic[game.alphabet.name] = load_leaves(DEFAULT_LEAVES, game.alphabet)
        return leave_valuer(game.alphabet, table, len(game.bag))


class StaticPlayer(_Bot):
    """Plays the best equity: score plus the leave's value (exchanges
    included while the bag holds enough tiles).

    In the variations the rules allow, it weighs anagram plays the same way,
    and starts a turn with a blank swap or a recycle when the best equity
    after it is higher than without (see :class:`_Bot`).

    :param leaves: a leave table (default: :data:`tilebag.leaves.DEFAULT_LEAVES`).
    """

    def __init__(
        self,
        name: str = "static",
        *,
        leaves: LeaveValues | None = None,
        core: str | None = None,
        variations: bool = True,
    ) -> None:
        self.name = name
        self.leaves = leaves
        self.core = core
        """The move generator core (default: the compiled one when built)."""
        self.variations = variations
        """Whether it uses the variations the rules allow (anagram plays,
        recycles, blank swaps)."""
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
        """The plays it considers, best first (anagram plays included when
        the rules allow them)."""
        plays = self._plays(game, game.board, game.rack(), top)
        if not (self.variations and game.rules.anagram):
            return plays
        anagram_plays = variations_for(game).anagram_plays(
            game.board, game.rack(), lexicon=game.lexicon, valuer=self._valuer(game), top=top
        )
        if not anagram_plays:
            return plays
        merged = sorted([*plays, *anagram_plays], key=play_order)
        return merged[:top] if top is not None else merged

    def _plays(self, game: Game, board: Board, rack: list[Tile], top: int | None) -> Sequence[Play]:
        bag = len(game.bag)
        exchanges = bag >= game.rules.exchange_min_bag
        # the generator lists exchanges of every size; one needs as many tiles in the bag
        short = exchanges and bag < len(rack)
        plays = generator_for(game, self.core).generate(
            board,
            rack,
            leaves=self.leave_values(game),
            bag_count=bag,
            exchanges=exchanges,
            exchange_min_bag=game.rules.exchange_min_bag,
            top=None if short else top,
        )
        if short:
            plays = [play for play in plays if not (play.move.is_exchange and len(play.move.tiles) > bag)][:top]
        return plays

    def _valuer(self, game: Game) -> LeaveValuer:
        return leave_valuer(game.alphabet, self.leave_values(game), len(game.bag))

    def _estimate(self, game: Game) -> LeaveValuer:
        return self._valuer(game)


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
