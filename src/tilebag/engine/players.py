"""Bots: players that choose their own moves.

A :class:`Player` looks at a :class:`~tilebag.game.Game` and returns the
move it wants to make for the player to move; the caller pushes it. Three
bots come with tilebag, weakest first (:data:`BOTS`; each kind has a one-line
:attr:`description` for a menu, :func:`describe_bot`):

* :class:`BeginnerPlayer` plays like a new club player: real words, mostly
  short plays of modest score chosen at random (reproducibly), rarely a
  bingo, and it exchanges only when it has no play;
* :class:`GreedyPlayer` plays the highest-scoring placement (exchanging
  everything, or passing, when it has none);
* :class:`StaticPlayer` plays the best *equity*: score plus the value of the
  tiles it keeps (:mod:`tilebag.engine.equity.leaves`), exchanges included. It is the
  strongest bot that answers at once; the champion
  (:mod:`tilebag.engine.bots.champion`) simulates on top of it. The kinds by
  name are in :mod:`tilebag.engine.bots`.

The greedy and static bots play every variation of the rules
(:mod:`tilebag.rules`): they weigh anagram plays with the other plays
(:mod:`tilebag.engine.movegen.variations`), play to reach a Finish Line target as
soon as they can, and start a turn with a blank swap or a recycle when the
best play after it is worth more. Those actions keep the turn, so
:meth:`Player.choose` returns them one at a time and is asked again for the
same player, as the loop below does anyway. The beginner plays by the same
rules more simply (see its class).

>>> from tilebag.game import Game
>>> game = Game(["static", "greedy"], seed=3)
>>> bots = [StaticPlayer(), GreedyPlayer()]
>>> while not game.is_over():
...     _ = game.push(bots[game.turn].choose(game))
>>> game.outcome().termination.name in {"WENT_OUT", "SCORELESS_TURNS"}
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import ClassVar

from tilebag.alphabet import BLANK, BLANK_BIT, Tile, rack_tile
from tilebag.board import Board
from tilebag.engine import Engine
from tilebag.engine.equity.leaves import DEFAULT_LEAVES, LeaveValues, load_leaves
from tilebag.engine.movegen.generator import Play, play_order
from tilebag.engine.movegen.variations import LeaveValuer, after_action, blank_swaps, leave_valuer
from tilebag.game import Game
from tilebag.move import PLAYED_THROUGH, Move
from tilebag.record import EventKind
from tilebag.table import Bot

Player = Bot
"""Anything that can choose a move for the player to move in a game: the
core's :class:`~tilebag.table.Bot`, which the bots here are."""


MAX_START_ACTIONS = 4
"""Recycles and blank swaps a bot makes at most at the start of one turn."""

RECYCLE_CANDIDATES = {"native": 8, "python": 2}
"""Recycles a bot values by the best play after them, per action and by
move generator core: the most promising by the change in the rack's leave
value. (The chosen recycle is often not the first by that estimate, but the
reference core takes some 50 ms a position.)"""

Value = tuple[int, int]
"""What a bot's plan for a position is worth, compared as a tuple: ``(1,
score)`` for a play that reaches the Finish Line target (any such play beats
every other plan, the higher score first), ``(0, equity)`` for the best play
by the bot's own equity (millipoints), ``(-1, 0)`` with no play at all."""

FINISHES = 1
"""The first item of a :data:`Value` that reaches the Finish Line."""

NO_PLAY: Value = (-1, 0)


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


def engine_for(game: Game, core: str | None, leaves: LeaveValues | None = None) -> Engine:
    """The engine a bot plays ``game`` with: the game's own, or one with
    the bot's core or leave values (sharing the game's word graph).

    :raises TypeError: for a lexicon without a word graph.
    """
    engine = game.engine
    if core is not None and core != engine.core:
        engine = Engine.for_lexicon(game.lexicon, game.rules, core=core)
    return engine if leaves is None else engine.with_leaves(leaves)


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

    def engine(self, game: Game) -> Engine:
        """The engine it plays ``game`` with."""
        return engine_for(game, self.core)

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
            and value[0] < FINISHES  # a play that wins now needs nothing first
            and start_actions(game) < MAX_START_ACTIONS
        ):
            action = self._start_action(game, value)
            if action is not None:
                return action
        return move if move is not None else _fallback(game)

    def _best(self, game: Game, board: Board, rack: list[Tile], *, anagrams: bool) -> tuple[Move | None, Value]:
        """The best move of a position and its value (:data:`NO_PLAY` when
        there is no play to value: the bot exchanges everything or passes)."""
        plays = self._plays(game, board, rack, 1)
        best = plays[0] if plays else None
        anagram_plays: list[Play] = []
        if anagrams and self.variations and game.rules.anagram:
            anagram_plays = self.engine(game).variations.anagram_plays(
                board, rack, lexicon=game.lexicon, valuer=self._valuer(game)
            )
            if anagram_plays and (best is None or play_order(anagram_plays[0]) < play_order(best)):
                best = anagram_plays[0]
        targets = game.finish_targets
        if targets is not None:
            need = targets[game.turn] - game.players[game.turn].score
            scoring = list(self.engine(game).generator.generate(board, rack, bag_count=1, top=1))
            top = max(scoring + anagram_plays, key=lambda play: play.score, default=None)
            if top is not None and top.score > 0 and top.score >= need:
                return top.move, (FINISHES, top.score)
        if best is None:
            return None, NO_PLAY
        return best.move, (0, best.equity)

    def _start_action(self, game: Game, value: Value) -> Move | None:
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
        engine = self.engine(game)
        finder = engine.variations
        estimate = self._estimate(game)
        now = estimate(rack)
        ranked: list[tuple[int, int, Move]] = []
        for index, move in enumerate(finder.recycles(board, rack)):
            old = board.at(move.row, move.col)
            kept = list(rack)
            kept.remove(move.tiles[0])
            kept.append(rack_tile(old))
            ranked.append((now - estimate(kept), index, move))
        ranked.sort()
        return [
            move
            for _, _, move in ranked[: RECYCLE_CANDIDATES[engine.core]]
            if finder.recycle_is_sound(board, move, game.lexicon)
        ]


class GreedyPlayer(_Bot):
    """Plays the highest-scoring placement (ties: the generator's fixed order),
    exchanging everything, or passing, when it has none.

    In the variations it also weighs anagram plays by their score, and makes
    a recycle or blank swap when the best score after it is higher.
    """

    kind: ClassVar[str] = "greedy"
    """The kind it is made by (:func:`tilebag.engine.bots.make_bot`)."""
    description: ClassVar[str] = "greedy: always plays its highest-scoring move, whatever it keeps"

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
        return self.engine(game).generator.generate(board, rack, bag_count=1, top=top)

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

    :param leaves: a leave table (default: :data:`tilebag.engine.equity.leaves.DEFAULT_LEAVES`).
    :param engine: the engine to play with (default: the game's, with
        ``leaves`` and ``core`` when given).
    :param opening_penalty: the opening adjustment in millipoints a vowel
        (default: the engine's; 0 for none).
    """

    kind: ClassVar[str] = "static"
    """The kind it is made by (:func:`tilebag.engine.bots.make_bot`)."""
    description: ClassVar[str] = "static: weighs each play's score and the tiles it keeps; the strongest bot that answers at once"

    def __init__(
        self,
        name: str = "static",
        *,
        leaves: LeaveValues | None = None,
        core: str | None = None,
        variations: bool = True,
        engine: Engine | None = None,
        opening_penalty: int | None = None,
    ) -> None:
        self.name = name
        self._own_engine = engine
        self.opening_penalty = opening_penalty
        """Millipoints a vowel for the opening adjustment (default: the engine's,
        :data:`tilebag.engine.equity.opening.OPENING_PENALTY`)."""
        self._engines: dict[str | None, tuple[Engine, Engine]] = {}
        self.leaves = leaves if leaves is not None or engine is None else engine.leaves
        self.core = core
        """The move generator core (default: the compiled one when built)."""
        self.variations = variations
        """Whether it uses the variations the rules allow (anagram plays,
        recycles, blank swaps)."""
        self._tables: dict[str, LeaveValues] = {}

    def __repr__(self) -> str:
        return f"StaticPlayer({self.name!r})"

    def engine(self, game: Game) -> Engine:
        """The engine it plays ``game`` with: its own if it was given one,
        else the game's with its leave values and core."""
        if self._own_engine is not None:
            engine = self._own_engine
        else:
            base = game.engine
            cached = self._engines.get(self.core)
            if cached is None or cached[0] is not base:
                cached = self._engines[self.core] = (base, engine_for(game, self.core, self.leave_values(game)))
            engine = cached[1]
        return engine if self.opening_penalty is None else engine.with_opening_penalty(self.opening_penalty)

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
        anagram_plays = self.engine(game).variations.anagram_plays(
            game.board, game.rack(), lexicon=game.lexicon, valuer=self._valuer(game), top=top
        )
        if not anagram_plays:
            return plays
        merged = sorted([*plays, *anagram_plays], key=play_order)
        return merged[:top] if top is not None else merged

    def _plays(self, game: Game, board: Board, rack: list[Tile], top: int | None) -> Sequence[Play]:
        return self.engine(game).plays(board, rack, bag_count=len(game.bag), top=top)

    def _valuer(self, game: Game) -> LeaveValuer:
        return leave_valuer(game.alphabet, self.leave_values(game), len(game.bag))

    def _estimate(self, game: Game) -> LeaveValuer:
        return self._valuer(game)


BEGINNER_MAX_WORD = 8
"""The longest main word the beginner knows (it plays a longer one only
when it has no other play)."""

BEGINNER_TILE_WEIGHTS = (0.0, 0.5, 1.0, 1.0, 1.0, 0.7, 0.4)
"""The beginner's liking for a play by the number of tiles it uses (index):
two to four best, one or five less, six seldom; more than six, or any play
that earns the bingo bonus, :data:`BEGINNER_BINGO_WEIGHT`."""

BEGINNER_BINGO_WEIGHT = 0.1
"""The beginner's liking for a bingo: it rarely sees one."""

BEGINNER_BAND = (0.70, 1.0)
"""The scores the beginner likes best, as fractions of the best score among
the plays it sees: full weight inside the band, fading to almost none
(:data:`BEGINNER_FLOOR`) :data:`BEGINNER_FADE` beyond either side of it.

Why fractions of the best score and not percentiles of all the scores: most
of a rack's hundreds of placements are two-tile hooks worth a few points,
so the middle percentiles are 6 to 10 points whatever the position (a
beginner choosing there averaged about 100 points a game); a fraction of
the best finds "a decent play, not the best" on any board."""

BEGINNER_FADE = 0.25
"""How far (as a fraction of the best score) the beginner's liking fades
outside :data:`BEGINNER_BAND`."""

BEGINNER_FLOOR = 0.0005
"""The beginner's liking for a score far outside :data:`BEGINNER_BAND`: not
quite none (all of those together must not outweigh the band, as there are
many)."""

BEGINNER_SWAP_CHANCE = 0.5
"""How often the beginner takes a blank swap it can make (the blank swap variation)."""


class BeginnerPlayer:
    """Plays like a new club player: real words only, mostly short plays of
    modest score, seldom a bingo, never a clever exchange, and never a pass
    when it has a play.

    Every turn it chooses this way:

    1. It sees every legal placement of its rack (so only words of the
       game's lexicon; in the anagram variation, anagram plays too), but
       knows no main word longer than :data:`BEGINNER_MAX_WORD` letters
       unless it has no other play.
    2. It weighs each play by the tiles it uses (two to four best, a bingo
       seldom: :data:`BEGINNER_TILE_WEIGHTS`), by how ordinary its main word
       looks (the shorter the likelier; a two-letter word a little less; a
       word with no vowel, or a Q not followed by U, rarely), and by its
       score: fully from 70% of the best score it sees, fading to almost
       nothing below 45% (:data:`BEGINNER_BAND`). With the other weights,
       its plays average two thirds of the best score, some 20 points a
       turn.
    3. It draws a play at random by weight. The random generator is seeded
       by the position (the game's seed, the number of events, the player
       to move, the board and the rack) and the bot's own ``seed``, so the
       same position always gives the same play, and a game between bots
       replays exactly.

    It takes a play that reaches its Finish Line target when it has one,
    swaps a played blank for its letter half the time it can
    (:data:`BEGINNER_SWAP_CHANCE`), never recycles, and with no play at all
    exchanges its whole rack (as much of it as the bag allows) or passes.

    >>> from tilebag.game import Game
    >>> game = Game(["beginner", "static"], seed=3)
    >>> move = BeginnerPlayer().choose(game)
    >>> move == BeginnerPlayer().choose(game) and game.is_legal(move)
    True

    :param seed: mixed into every choice, to get another beginner.
    """

    kind: ClassVar[str] = "beginner"
    """The kind it is made by (:func:`tilebag.engine.bots.make_bot`)."""
    description: ClassVar[str] = "beginner: real words, mostly short plays of modest score, seldom a bingo"

    def engine(self, game: Game) -> Engine:
        """The engine it plays ``game`` with."""
        return engine_for(game, self.core)

    def __init__(self, name: str = "beginner", *, core: str | None = None, seed: int = 0) -> None:
        self.name = name
        self.core = core
        """The move generator core (default: the compiled one when built)."""
        self.seed = seed

    def __repr__(self) -> str:
        return f"BeginnerPlayer({self.name!r})"

    def choose(self, game: Game) -> Move:
        """The move to make: a play drawn as the class says, a blank swap
        (then ask again: the turn is still this player's), or with no play,
        an exchange of the whole rack or a pass."""
        rng = self.rng(game)
        plays = self.plays(game)
        targets = game.finish_targets
        if targets is not None:
            need = targets[game.turn] - game.players[game.turn].score
            winning = [play for play in plays if play.score > 0 and play.score >= need]
            if winning:
                return rng.choice(winning).move
        if game.rules.blank_swap and start_actions(game) < MAX_START_ACTIONS:
            swaps = blank_swaps(game.board, game.rack())
            if swaps and rng.random() < BEGINNER_SWAP_CHANCE:
                return rng.choice(swaps)
        if not plays:
            return _fallback(game)
        known = [play for play in plays if len(play.move.tiles) <= BEGINNER_MAX_WORD] or plays
        return rng.choices(known, self.weights(game, known))[0].move

    def rng(self, game: Game) -> random.Random:
        """The random generator for the position of the player to move."""
        key = (self.seed, game.bag.seed, len(game.events), game.turn, bytes(game.board.tiles), sorted(game.rack()))
        digest = hashlib.sha256(repr(key).encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def plays(self, game: Game) -> list[Play]:
        """Every play it sees (placements, and anagram plays when the rules
        allow them), in the fixed order of :func:`tilebag.engine.movegen.generator.play_order`
        by score, whatever the move generator core."""
        board, rack = game.board, game.rack()
        engine = engine_for(game, self.core)
        plays = list(engine.generator.generate(board, rack, bag_count=1))
        if game.rules.anagram and not board.is_empty():
            valuer = leave_valuer(game.alphabet, None, 1)
            plays.extend(engine.variations.anagram_plays(board, rack, lexicon=game.lexicon, valuer=valuer))
            plays.sort(key=play_order)
        return plays

    def weights(self, game: Game, plays: Sequence[Play]) -> list[float]:
        """How much it likes each of these plays of the player to move (see
        the class)."""
        rack_size = len(game.rack())
        best = max((play.score for play in plays), default=0)
        low, high = BEGINNER_BAND
        weights: list[float] = []
        for play in plays:
            fraction = play.score / best if best > 0 else 1.0
            distance = max(low - fraction, fraction - high, 0.0)
            weight = max(BEGINNER_FLOOR, 1.0 - distance / BEGINNER_FADE)
            tiles = rack_size - len(play.leave)
            if tiles >= game.rules.bingo_tiles or tiles >= len(BEGINNER_TILE_WEIGHTS):
                weight *= BEGINNER_BINGO_WEIGHT
            else:
                weight *= BEGINNER_TILE_WEIGHTS[tiles]
            weights.append(weight * _ordinary(game, main_word(game.board, play.move)))
        return weights


def main_word(board: Board, move: Move) -> tuple[Tile, ...]:
    """The main word of a placement or anagram play (as the board will read
    it, blanks designated).

    >>> board = Board()
    >>> board.place(Move.from_gcg("8G tEa"))
    >>> board.alphabet.format_word(main_word(board, Move.from_gcg("8F H...")))
    'HtEa'
    """
    return tuple(board.at(r, c) if t == PLAYED_THROUGH else t for r, c, t in move.squares())


def _ordinary(game: Game, word: Sequence[Tile]) -> float:
    """How ordinary a word looks to a beginner (1 for the most ordinary)."""
    alphabet = game.alphabet
    length = len(word)
    weight = 1.0 if length <= 5 else {6: 0.6, 7: 0.35}.get(length, 0.2)
    if length == 2:
        weight *= 0.7
    if not any(alphabet.is_vowel(t) for t in word):
        weight *= 0.2
    text = alphabet.format_word(t & ~BLANK_BIT for t in word)
    if "Q" in text.replace("QU", ""):
        weight *= 0.2
    return weight
