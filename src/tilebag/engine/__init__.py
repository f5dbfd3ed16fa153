"""The engine: every legal play of a position and its equity, from one object.

An :class:`Engine` is built from a lexicon's word graph, the rules (board,
tile set, bingo, first play, exchanges) and leave values; it owns its move
generator (the compiled core or the Python reference) and the variations'
candidate finder. The bots, the analysis, the coaching and
:attr:`tilebag.Game.legal_moves` all ask one.

Engines cost something to build (the compiled core copies the graph), so
:meth:`Engine.for_lexicon` makes one per lexicon, rules and core and keeps it
with the lexicon's word graph for as long as the graph lives; there is no
module-level cache.

>>> from tilebag.board import Board
>>> from tilebag.lexicon import WordList
>>> engine = Engine(WordList(["HORN", "THORN", "NORTH", "NO", "ON", "OH", "HO"]).kwg)
>>> board = Board()
>>> best = engine.best(board, board.alphabet.parse_rack("HNORTXY"), bag_count=86)
>>> board.notation(best.move), best.score, best.equity // 1000  # the O beside I7 and I9 costs 2
('8H NORTH', 24, 23)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tilebag.alphabet import Alphabet, Tile, load_alphabet, rack_tile
from tilebag.board import Board
from tilebag.engine.equity import MILLIPOINTS
from tilebag.engine.equity.leaves import DEFAULT_LEAVES, LeaveValues, load_leaves
from tilebag.engine.equity.opening import OPENING_PENALTY, adjust_opening
from tilebag.engine.movegen.generator import (
    MoveGenerator,
    Play,
    default_core,
    distinct_exchanges,
    leave_valuer,
    play_order,
)
from tilebag.engine.movegen.variations import LeaveValuer, VariationGenerator, blank_swaps
from tilebag.errors import IllegalMoveError, InvalidMoveError
from tilebag.kwg import Kwg
from tilebag.layout import BoardLayout, load_layout
from tilebag.move import Move, MoveKind
from tilebag.rules import Rules

if TYPE_CHECKING:
    from tilebag.game import Game
    from tilebag.lexicon import Lexicon

__all__ = ["Engine", "LegalMoves"]

OPENING_FETCH = 64
"""How many best plays of an empty board are fetched for the opening
adjustment before all of them are (the adjustment takes at most a few points
off, so the best few nearly always settle it)."""


@dataclass(frozen=True)
class _Parts:
    """What engines over one graph, rules and core share."""

    generator: MoveGenerator
    variations: list[VariationGenerator]
    """Made when first asked for (an empty list until then)."""


class Engine:
    """Legal plays, the best plays and their equity, for one word graph,
    rules and leave values.

    :param kwg: the lexicon's word graph (with its GADDAG).
    :param rules: the rules (default: the standard ones).
    :param leaves: leave values (default: the heuristic table,
        :data:`tilebag.engine.equity.leaves.DEFAULT_LEAVES`, for the rules' tile set).
    :param core: ``native`` or ``python`` (default: :func:`tilebag.engine.movegen.generator.default_core`).

    On an empty board its equity also counts the opening adjustment
    (:mod:`tilebag.engine.equity.opening`): :attr:`opening_penalty` millipoints off
    for each vowel a first play puts beside a letter premium square.
    """

    opening_penalty: int = OPENING_PENALTY
    """Millipoints off a first play for each vowel beside a letter premium
    (:meth:`with_opening_penalty`; 0 for none)."""

    def __init__(
        self, kwg: Kwg, rules: Rules | None = None, leaves: LeaveValues | None = None, *, core: str | None = None
    ) -> None:
        self.kwg = kwg
        self.rules = rules or Rules()
        self.alphabet: Alphabet = load_alphabet(self.rules.alphabet)
        self.layout: BoardLayout = load_layout(self.rules.layout)
        self._leaves = leaves
        self.core = core or default_core()
        generator = MoveGenerator(
            kwg,
            layout=self.layout,
            alphabet=self.alphabet,
            bingo_tiles=self.rules.bingo_tiles,
            bingo_bonus=self.rules.bingo_bonus,
            first_play_min_tiles=max(2, self.rules.min_first_word),
            core=self.core,
        )
        self._parts = _Parts(generator, [])

    @classmethod
    def for_lexicon(
        cls, lexicon: Lexicon, rules: Rules | None = None, *, leaves: LeaveValues | None = None, core: str | None = None
    ) -> Engine:
        """The engine for a lexicon and rules, made once per word graph,
        rules and core and kept with the graph.

        :raises TypeError: for a lexicon without a word graph (bots and the
            engine need a word list or a ``.kwg`` lexicon).
        """
        kwg = getattr(lexicon, "kwg", None)
        if not isinstance(kwg, Kwg):
            raise TypeError(
                f"the lexicon {lexicon.name!r} has no word graph; bots need a word list or a .kwg lexicon"
            )
        rules = rules or Rules()
        core = core or default_core()
        key = ("engine", rules, core)
        engine = kwg.derived.get(key)
        if not isinstance(engine, Engine):
            engine = kwg.derived[key] = cls(kwg, rules, core=core)
        return engine if leaves is None else engine.with_leaves(leaves)

    def __repr__(self) -> str:
        return f"<Engine {self.rules.name} rules, {self.core} core, {len(self.kwg)} graph nodes>"

    # -- what it is made of ----------------------------------------------------

    @property
    def generator(self) -> MoveGenerator:
        """The move generator (placements and their scores)."""
        return self._parts.generator

    @property
    def variations(self) -> VariationGenerator:
        """The variations' candidate finder (anagram plays, recycles, blank swaps)."""
        if not self._parts.variations:
            self._parts.variations.append(
                VariationGenerator(
                    self.kwg,
                    alphabet=self.alphabet,
                    bingo_tiles=self.rules.bingo_tiles,
                    bingo_bonus=self.rules.bingo_bonus,
                )
            )
        return self._parts.variations[0]

    @property
    def leaves(self) -> LeaveValues:
        """The leave values its equity counts."""
        if self._leaves is None:
            self._leaves = load_leaves(DEFAULT_LEAVES, self.alphabet)
        return self._leaves

    def with_leaves(self, leaves: LeaveValues) -> Engine:
        """The same engine valuing leaves with ``leaves`` (it shares the move generator)."""
        if leaves is self._leaves:
            return self
        other = object.__new__(Engine)
        other.__dict__.update(self.__dict__)
        other._leaves = leaves
        return other

    def with_opening_penalty(self, penalty: int) -> Engine:
        """The same engine with another opening adjustment (millipoints a
        vowel; 0 for none)."""
        if penalty == self.opening_penalty:
            return self
        other = object.__new__(Engine)
        other.__dict__.update(self.__dict__)
        other.opening_penalty = penalty
        return other

    # -- plays -------------------------------------------------------------------

    def placements(self, board: Board, rack: Sequence[Tile]) -> list[tuple[Move, int]]:
        """Every legal placement of ``rack`` with its score, in no particular order."""
        return self.generator.placements(board, rack)

    def plays(self, board: Board, rack: Sequence[Tile], *, bag_count: int, top: int | None = None) -> Sequence[Play]:
        """Every play the rules allow ``rack`` now, best equity first:
        placements, and while the bag holds enough tiles each distinct
        exchange (of no more tiles than the bag holds) and the pass. On an
        empty board the equity counts the opening adjustment.

        :param bag_count: tiles in the bag (with none, a leave counts minus
            twice its face value).
        :param top: keep only this many best plays.
        """
        rack = list(rack)
        min_bag = self.rules.exchange_min_bag
        exchanges = bag_count >= min_bag
        short = exchanges and bag_count < len(rack)  # exchanges of more tiles than the bag holds are not allowed
        opening = bool(self.opening_penalty) and board.is_empty()

        def generate(count: int | None) -> Sequence[Play]:
            return self.generator.generate(
                board,
                rack,
                leaves=self.leaves,
                bag_count=bag_count,
                exchanges=exchanges,
                exchange_min_bag=min_bag,
                top=count,
            )

        if not opening:
            plays = generate(None if short else top)
        else:  # the best few by equity first; all of them when the adjustment could reach further down
            fetch = None if short or top is None else max(OPENING_FETCH, 4 * top)
            plays = generate(fetch)
            kept = None if fetch is None else top  # all of them when short exchanges are still to be dropped
            adjusted = adjust_opening(plays, self.layout, self.alphabet, self.opening_penalty, kept)
            if fetch is not None and len(plays) == fetch and not (
                len(adjusted) == top and plays[-1].equity < adjusted[-1].equity
            ):
                adjusted = adjust_opening(generate(None), self.layout, self.alphabet, self.opening_penalty, top)
            plays = adjusted
        if short:
            plays = [play for play in plays if not (play.move.is_exchange and len(play.move.tiles) > bag_count)][:top]
        return plays

    def best(self, board: Board, rack: Sequence[Tile], *, bag_count: int) -> Play | None:
        """The best play by equity (``None`` when there is none, not even a pass)."""
        plays = self.plays(board, rack, bag_count=bag_count, top=1)
        return plays[0] if plays else None

    def exchanges(self, rack: Sequence[Tile], *, bag_count: int) -> list[Move]:
        """Every distinct exchange the bag allows now (none below the rules'
        minimum; never more tiles than the bag holds)."""
        if bag_count < self.rules.exchange_min_bag:
            return []
        return [Move.exchange(tiles) for tiles in distinct_exchanges(rack) if len(tiles) <= bag_count]

    def valuer(self, bag_count: int) -> LeaveValuer:
        """The value of a leave, in millipoints, with ``bag_count`` tiles in the bag."""
        return leave_valuer(self.alphabet, self.leaves, bag_count)

    def equity(self, move: Move, score: int, rack: Sequence[Tile], *, bag_count: int) -> int:
        """The equity of a checked placement, exchange or pass (``score``
        what it scores) made from ``rack``: the score plus the value of the
        tiles kept, in millipoints.

        >>> from tilebag.lexicon import WordList
        >>> engine = Engine(WordList(["HORN"]).kwg)
        >>> rack = engine.alphabet.parse_rack("HNORXYZ")
        >>> engine.equity(Move.from_gcg("8F HORN"), 14, rack, bag_count=86) == 14_000 + engine.valuer(86)(
        ...     engine.alphabet.parse_rack("XYZ"))
        True
        """
        kept = list(rack)
        if move.kind is MoveKind.EXCHANGE:
            used: Sequence[Tile] = move.tiles
        elif move.kind is MoveKind.PLACE:
            used = [rack_tile(t) for t in move.tiles_used]
        else:
            used = ()
        for tile in used:
            kept.remove(tile)
        return score * MILLIPOINTS + self.valuer(bag_count)(sorted(kept))

    @staticmethod
    def order(play: Play) -> tuple[int, int, int, int, int, int, tuple[Tile, ...]]:
        """The order plays are listed in (best equity first, then a fixed order)."""
        return play_order(play)


class LegalMoves:
    """The legal moves of a game's player to move, in the python-chess
    manner: a view worked out when asked, not a list kept up to date
    (:attr:`tilebag.Game.legal_moves`).

    They are the placements that form only words of the game's lexicon,
    each distinct exchange the bag allows (of no more tiles than it holds),
    and the pass, best equity first; with the variations the rules allow,
    also the anagram plays, and the recycles and blank swaps that may start
    the turn. None once the game is over (or waits for its final challenge).
    ``move in legal_moves`` checks one move the same way, without listing
    them all.

    >>> from tilebag.game import Game
    >>> from tilebag.lexicon import WordList
    >>> game = Game(["alice", "bob"], seed=7, first=0, lexicon=WordList(["HORN", "NORTH", "NO", "ON", "OH"]))
    >>> game.set_rack(0, "HNORTXY", exact=True)
    >>> moves = game.legal_moves
    >>> Move.from_gcg("8D NORTH") in moves, Move.from_gcg("8D TORN") in moves, Move.pass_() in moves
    (True, False, True)
    >>> moves.count() == len(moves) == len(list(moves)), game.notation(next(iter(moves)))
    (True, '8H NORTH')
    """

    def __init__(self, game: Game) -> None:
        self.game = game

    def _plays(self) -> list[Play]:
        game = self.game
        if game.is_over():
            return []
        engine = game.engine
        board, rack, bag = game.board, game.rack(), len(game.bag)
        plays = list(engine.plays(board, rack, bag_count=bag))
        if not any(play.move.kind is MoveKind.PASS for play in plays):
            kept = tuple(sorted(rack))
            plays.append(Play(Move.pass_(), 0, kept, engine.valuer(bag)(kept)))
        rules = game.rules
        if rules.anagram:
            plays += engine.variations.anagram_plays(board, rack, lexicon=game.lexicon, valuer=engine.valuer(bag))
        starts: list[Move] = []
        if rules.blank_swap:
            starts += blank_swaps(board, rack)
        if rules.recycle:
            finder = engine.variations
            starts += [m for m in finder.recycles(board, rack) if finder.recycle_is_sound(board, m, game.lexicon)]
        plays.sort(key=play_order)
        return plays + [Play(move, 0, tuple(sorted(rack)), 0) for move in starts]

    def __iter__(self) -> Iterator[Move]:
        return (play.move for play in self._plays())

    def __len__(self) -> int:
        return len(self._plays())

    def count(self) -> int:
        """How many legal moves there are."""
        return len(self)

    def __bool__(self) -> bool:
        return not self.game.is_over()

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move):
            return False
        game = self.game
        try:
            normal = game.check(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        if normal.kind in (MoveKind.PLACE, MoveKind.ANAGRAM):
            return not game.phonies(normal)
        return True

    def __repr__(self) -> str:
        game = self.game
        shown = ", ".join(game.notation(move) for move in list(self)[:5])
        more = ", ..." if len(self) > 5 else ""
        return f"<LegalMoves ({shown}{more})>"
