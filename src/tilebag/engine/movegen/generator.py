"""Move generation: every legal play of a rack on a board, with its score.

This is the reference generator, in plain Python: Steven Gordon's GADDAG
algorithm ("A Faster Scrabble Move Generation Algorithm", 1994) over a KWG
word graph, with cross-sets and anchors. The data it works on are flat
integer arrays (the graph's nodes, per-square masks and scores), so a
compiled core can follow it line by line.

How it finds each play exactly once:

* An *anchor* is an empty square next to a tile (on an empty board, the
  start square). Every placement covers at least one anchor, and is found
  from the leftmost anchor it covers: going left from an anchor, tiles are
  never placed on another anchor.
* A one-tile play forms a word across, down, or both. It is reported once:
  across when it forms an across word, otherwise down.
* A blank is tried as every letter the graph and the cross-set allow, so
  each designation is its own play.

>>> from tilebag.lexicon import WordList
>>> from tilebag.board import Board
>>> lexicon = WordList(["HORN", "THORN", "NORTH", "NO", "ON", "OH", "HO"])
>>> generator = MoveGenerator(lexicon.kwg)
>>> board = Board()
>>> plays = generator.placements(board, board.alphabet.parse_rack("HORNT"))
>>> len(plays), max(score for move, score in plays)
(44, 24)
>>> sorted(board.notation(move) for move, score in plays if score == 24)[:3]
['8H NORTH', 'H8 NORTH']
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Protocol, overload

from tilebag.alphabet import BLANK_BIT, Alphabet, Tile, load_alphabet
from tilebag.board import Board
from tilebag.engine.equity import MILLIPOINTS, millipoints
from tilebag.engine.equity.leaves import (
    BALANCE_TARGET,
    BALANCE_WEIGHT,
    ONE_KIND_PENALTY_CONSONANT,
    ONE_KIND_PENALTY_VOWEL,
    Q_WITHOUT_U_PENALTY,
    THIRD_COPY_FACTOR,
    HeuristicLeaves,
    KlvLeaves,
    LeaveValues,
)
from tilebag.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, Kwg
from tilebag.layout import BoardLayout, load_layout
from tilebag.move import Move, MoveKind

try:  # the compiled core, when it could be built
    from tilebag.engine import _native
except ImportError:  # pragma: no cover - depends on the build
    _native = None  # type: ignore[assignment]

CORES = ("python", "native")
"""The move generator's implementations: the reference and the compiled core."""


def native_available() -> bool:
    """Whether the compiled core was built and imports."""
    return _native is not None


def default_core() -> str:
    """The core used when none is chosen: ``$TILEBAG_CORE`` when set, else
    the compiled one when it is available."""
    chosen = os.environ.get("TILEBAG_CORE", "").strip().lower()
    if chosen in CORES:
        return chosen
    return "native" if native_available() else "python"


ALL_LETTERS = (1 << 64) - 2
"""A cross-set allowing every tile (bits 1..63; bit 0 is never a letter)."""

NO_CROSS = -1
"""Cross-score of a square with no perpendicular neighbour (no cross word)."""

_CROSS_CACHE_LIMIT = 1 << 16


@dataclass(frozen=True, slots=True)
class Play:
    """A generated move with its score, leave and equity."""

    move: Move
    score: int
    leave: tuple[Tile, ...]
    """The rack tiles kept, sorted (0 is a blank)."""
    equity: int
    """Score plus the value of the leave, in millipoints (thousandths of a
    point, see :mod:`tilebag.engine.equity` and :meth:`MoveGenerator.generate`)."""


class Plays(Sequence[Play]):
    """Plays the compiled core generated, best first. They stay in C until
    asked for: each item becomes a :class:`Play` when it is read.

    Compares equal to a list of the same plays.
    """

    __slots__ = ("_listed",)

    def __init__(self, listed: _native.Plays) -> None:
        self._listed = listed

    def __len__(self) -> int:
        return len(self._listed)

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...
    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        kind, start, lane, down, tiles, score, equity, leave = self._listed[index]
        if kind == 0:
            move = Move(MoveKind.PLACE, start if down else lane, lane if down else start, down, tuple(tiles))
        elif kind == 1:
            move = Move(MoveKind.EXCHANGE, tiles=tuple(tiles))
        else:
            move = Move(MoveKind.PASS)
        return Play(move, score, tuple(leave), equity)

    def __iter__(self) -> Iterator[Play]:
        for index in range(len(self)):
            yield self[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Plays, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Plays: {len(self)}>"


@dataclass(slots=True)
class _Lane:
    """One row (across) or column (down) seen as a line of squares."""

    down: bool
    index: int
    letters: list[int]
    """Board tile per square (0 empty; blanks keep their high bit)."""
    face: list[int]
    """Face value of the board tile per square (0 for a blank or empty)."""
    masks: list[int]
    """Per empty square: the letters the cross word allows (bit per tile)."""
    cross: list[int]
    """Per empty square: face value of the cross word's tiles, or NO_CROSS."""
    letter_mult: list[int]
    word_mult: list[int]


class MoveGenerator:
    """Generates the legal placements of a rack over a word graph.

    :param kwg: a graph with a GADDAG (any ``.kwg`` lexicon).
    :param bingo_tiles: tiles a play must place to earn ``bingo_bonus``.
    :param first_play_min_tiles: tiles the first play must place.
    """

    def __init__(
        self,
        kwg: Kwg,
        *,
        layout: BoardLayout | None = None,
        alphabet: Alphabet | None = None,
        bingo_tiles: int = 7,
        bingo_bonus: int = 50,
        first_play_min_tiles: int = 2,
        core: str | None = None,
    ) -> None:
        core = core or default_core()
        if core not in CORES:
            raise ValueError(f"no move generator core {core!r} (known: {', '.join(CORES)})")
        if core == "native" and not native_available():
            raise ValueError("the compiled core is not available in this installation (it needs a C compiler at install)")
        self.core = core
        self.kwg = kwg
        self.layout = layout or load_layout("standard")
        self.alphabet = alphabet or load_alphabet("english")
        self.bingo_tiles = bingo_tiles
        self.bingo_bonus = bingo_bonus
        self.first_play_min_tiles = first_play_min_tiles
        self._nodes = kwg.nodes
        self._gaddag_root = kwg.gaddag_root
        self._dawg_root = kwg.dawg_root
        scores = list(self.alphabet.scores)
        self._scores = scores + [0] * (64 - len(scores))
        self._cross_cache: dict[tuple[bytes, bytes], int] = {}
        self._letter_mult = bytes(self.layout.letter_multipliers)
        self._word_mult = bytes(self.layout.word_multipliers)
        self._core: _native.Core | None = None
        if core == "native":
            self._native_core()
        self._leave_models: dict[int, tuple[LeaveValues, _native.LeaveModel]] = {}

    # -- public API ---------------------------------------------------------

    def placements(self, board: Board, rack: Sequence[Tile]) -> list[tuple[Move, int]]:
        """Every legal placement of ``rack`` (0 for a blank) with its score,
        in no particular order."""
        if self.core == "native":
            listed = self._native_core().placements(board.tiles, bytes(rack))
            return [
                (Move(MoveKind.PLACE, start if down else index, index if down else start, down, tuple(tiles)), score)
                for start, index, down, tiles, score in listed
            ]
        counts = [0] * 64
        for tile in rack:
            counts[tile] += 1
        found: list[tuple[int, int, bool, tuple[int, ...], int]] = []
        rows, cols = self.layout.rows, self.layout.cols
        empty = board.is_empty()
        anchors = self._anchors(board)
        for down in (False, True):
            for lane in self._lanes(board, down):
                if down:
                    lane_anchors = [r for r in range(rows) if anchors[r * cols + lane.index]]
                else:
                    lane_anchors = [c for c in range(cols) if anchors[lane.index * cols + c]]
                if lane_anchors:
                    self._generate_lane(lane, lane_anchors, counts, len(rack), empty, found)
        return [
            (Move(MoveKind.PLACE, start if down else index, index if down else start, down, tiles), score)
            for start, index, down, tiles, score in found
        ]

    def generate(
        self,
        board: Board,
        rack: Sequence[Tile],
        *,
        leaves: LeaveValues | None = None,
        bag_count: int = 100,
        exchanges: bool = False,
        exchange_min_bag: int = 7,
        top: int | None = None,
    ) -> Sequence[Play]:
        """Every legal play (placements; with ``exchanges``, every distinct
        exchange and the pass), best equity first.

        Equity is score plus the leave's value while the bag has tiles. With
        the bag empty it is score minus twice the face value of the tiles
        kept (they count against the player at the end).

        :param bag_count: tiles in the bag.
        :param exchanges: list the pass, and every distinct exchange when the
            bag holds ``exchange_min_bag`` tiles or more (of no more tiles than
            it holds).
        :param top: keep only this many best plays.
        :returns: a list (reference core) or a :class:`Plays` sequence
            (compiled core), equal play for play.
        """
        rack = list(rack)
        if self.core == "native":
            return self._generate_native(board, rack, leaves, bag_count, exchanges, exchange_min_bag, top)
        plays: list[Play] = []
        leave_cache: dict[bytes, tuple[tuple[Tile, ...], int]] = {}
        value_of = leave_valuer(self.alphabet, leaves, bag_count)

        def valued(move: Move, score: int, used: Iterable[Tile]) -> Play:
            kept = list(rack)
            for tile in used:
                kept.remove(0 if tile & BLANK_BIT else tile)
            kept.sort()
            key = bytes(kept)
            cached = leave_cache.get(key)
            if cached is None:
                cached = leave_cache[key] = (tuple(kept), value_of(kept))
            return Play(move, score, cached[0], score * MILLIPOINTS + cached[1])

        for move, score in self.placements(board, rack):
            plays.append(valued(move, score, (t for t in move.tiles if t)))
        if exchanges:
            plays.append(valued(Move.pass_(), 0, ()))
            if bag_count >= exchange_min_bag:
                for tiles in distinct_exchanges(rack):
                    if len(tiles) <= bag_count:  # the bag must hold as many tiles as go back
                        plays.append(valued(Move.exchange(tiles), 0, tiles))
        plays.sort(key=play_order)
        return plays[:top] if top is not None else plays

    def _native_core(self) -> _native.Core:
        """The compiled core for this graph, layout and rules (made once)."""
        if self._core is None:
            layout = self.layout
            self._core = _native.Core(
                self._nodes,
                self._gaddag_root,
                self._dawg_root,
                layout.rows,
                layout.cols,
                self._letter_mult,
                self._word_mult,
                self._scores,
                layout.start,
                self.bingo_tiles,
                self.bingo_bonus,
                self.first_play_min_tiles,
            )
        return self._core

    def _native_leaves(self, leaves: LeaveValues | None, rack: list[Tile]) -> _native.LeaveModel:
        """Leave values as the compiled core takes them: the heuristic's
        parameters or a KLV file's graph (converted once per table), else a
        table of this rack's sub-racks valued here."""
        if leaves is None:
            return None
        model = self._leave_models.get(id(leaves))
        if model is not None and model[0] is leaves:
            return model[1]
        native: _native.LeaveModel = None
        if type(leaves) is HeuristicLeaves:
            native = _native.Heuristic(
                leaves.tile_values,
                leaves.repeat_penalties,
                sum(1 << tile for tile in leaves.alphabet.vowels),
                leaves.q_tile,
                leaves.u_tile,
                THIRD_COPY_FACTOR,
                BALANCE_TARGET,
                BALANCE_WEIGHT,
                ONE_KIND_PENALTY_CONSONANT,
                ONE_KIND_PENALTY_VOWEL,
                Q_WITHOUT_U_PENALTY,
            )
        elif type(leaves) is KlvLeaves:
            native = _native.Klv(leaves.kwg.nodes, array("I", leaves.word_counts), leaves.values)
        if native is not None:
            if len(self._leave_models) > 8:
                self._leave_models.clear()
            self._leave_models[id(leaves)] = (leaves, native)
            return native
        kinds = sorted(set(rack))
        tally = [rack.count(t) for t in kinds]
        strides = bytearray(64)
        size = 1
        for tile, count in zip(kinds, tally, strict=True):
            strides[tile] = size
            size *= count + 1
        values = [0.0] * size
        for used in product(*(range(count + 1) for count in tally)):
            index = sum(n * strides[t] for t, n in zip(kinds, used, strict=True))
            kept = [t for t, count, n in zip(kinds, tally, used, strict=True) for _ in range(count - n)]
            values[index] = leaves.value(kept)  # only asked while the bag has tiles
        return (bytes(strides), values)

    def _generate_native(
        self,
        board: Board,
        rack: list[Tile],
        leaves: LeaveValues | None,
        bag_count: int,
        exchanges: bool,
        exchange_min_bag: int,
        top: int | None,
    ) -> Plays:
        """:meth:`generate` in the compiled core: scoring, leave values,
        exchanges and sorting, with score bounds to skip hopeless anchors when
        only the best few plays are wanted."""
        listed = self._native_core().generate(
            board.tiles,
            bytes(rack),
            self._native_leaves(leaves, rack) if bag_count > 0 else None,
            bag_count <= 0,
            -1 if top is None else top,
            exchanges,
            min(len(rack), bag_count) if exchanges and bag_count >= exchange_min_bag else 0,
        )
        return Plays(listed)

    def native_rollouts(
        self,
        board: Board,
        rack: Sequence[Tile],
        other_size: int,
        unseen: Sequence[Tile],
        candidates: Sequence[tuple[Move, int]],
        seeds: Sequence[int],
        *,
        plies: int,
        leaves: LeaveValues | None,
        exchange_min_bag: int,
        scoreless: int,
        scoreless_limit: int,
        rack_size: int,
        wins: tuple[float, Sequence[float], Sequence[float]] | None,
        kept: Sequence[Tile] = (),
    ) -> list[list[tuple[int, int]]] | None:
        """A simulation's rollouts played in the compiled core, one list of
        (value, points) a seed (see :mod:`tilebag.engine.montecarlo.sim`, the
        reference); ``None`` when this generator cannot: the reference
        core, or leave values the core does not compute itself. The
        opponent holds ``kept`` and ``other_size`` tiles dealt from ``unseen``."""
        if self.core != "native":
            return None
        model = None if leaves is None else self._native_leaves(leaves, [])
        if isinstance(model, tuple):
            return None
        encoded = [_encoded(move, score) for move, score in candidates]
        return self._native_core().rollouts(
            board.tiles, bytes(rack), other_size, bytes(unseen), encoded, seeds, plies, model,
            exchange_min_bag, scoreless, scoreless_limit, rack_size, wins, bytes(kept),
        )

    # -- board analysis -------------------------------------------------------

    def _anchors(self, board: Board) -> list[bool]:
        rows, cols = self.layout.rows, self.layout.cols
        tiles = board.tiles
        if board.is_empty():
            anchors = [False] * (rows * cols)
            anchors[self.layout.start] = True
            return anchors
        anchors = [False] * (rows * cols)
        for s in range(rows * cols):
            if tiles[s]:
                continue
            r, c = divmod(s, cols)
            if (
                (c > 0 and tiles[s - 1])
                or (c < cols - 1 and tiles[s + 1])
                or (r > 0 and tiles[s - cols])
                or (r < rows - 1 and tiles[s + cols])
            ):
                anchors[s] = True
        return anchors

    def _lanes(self, board: Board, down: bool) -> Iterable[_Lane]:
        """The rows (or, ``down``, the columns) with their cross-sets."""
        layout = self.layout
        rows, cols = layout.rows, layout.cols
        tiles = board.tiles
        scores = self._scores
        lm_all, wm_all = layout.letter_multipliers, layout.word_multipliers
        lane_count, length = (cols, rows) if down else (rows, cols)
        step, cross_step, cross_len = (cols, 1, cols) if down else (1, cols, rows)
        for index in range(lane_count):
            first = index if down else index * cols
            squares = range(first, first + step * length, step)
            letters = [tiles[s] for s in squares]
            face = [0 if t & BLANK_BIT else scores[t] for t in letters]
            masks = [0] * length
            cross = [NO_CROSS] * length
            for i, s in enumerate(squares):
                if letters[i]:
                    continue
                # position of this square along the cross line
                along = (s // cols) if not down else (s % cols)
                before: list[int] = []
                j, k = s - cross_step, along - 1
                while k >= 0 and tiles[j]:
                    before.append(tiles[j])
                    j -= cross_step
                    k -= 1
                after: list[int] = []
                j, k = s + cross_step, along + 1
                while k < cross_len and tiles[j]:
                    after.append(tiles[j])
                    j += cross_step
                    k += 1
                if not before and not after:
                    masks[i] = ALL_LETTERS
                    continue
                before.reverse()
                cross[i] = sum(0 if t & BLANK_BIT else scores[t] for t in before) + sum(
                    0 if t & BLANK_BIT else scores[t] for t in after
                )
                masks[i] = self.cross_set(
                    bytes(t & ~BLANK_BIT for t in before), bytes(t & ~BLANK_BIT for t in after)
                )
            yield _Lane(
                down,
                index,
                letters,
                face,
                masks,
                cross,
                [lm_all[s] for s in squares],
                [wm_all[s] for s in squares],
            )

    def cross_set(self, before: bytes, after: bytes) -> int:
        """Letters ``x`` for which ``before + x + after`` is a word (bit per
        tile code; with both empty, the one-letter words). Cached."""
        key = (before, after)
        cached = self._cross_cache.get(key)
        if cached is not None:
            return cached
        nodes = self._nodes
        mask = 0
        if not after:
            node = self._walk(self._dawg_root, before)
            arc = nodes[node] & ARC_MASK if node >= 0 else 0
            if not before:
                arc = self._dawg_root
            for i in self._siblings(arc):
                if nodes[i] & ACCEPTS:
                    mask |= 1 << (nodes[i] >> TILE_SHIFT)
        else:
            # In the GADDAG, the word reversed: after (reversed), x, before (reversed).
            node = self._walk(self._gaddag_root, after[::-1])
            arc = nodes[node] & ARC_MASK if node >= 0 else 0
            for i in self._siblings(arc):
                letter = nodes[i] >> TILE_SHIFT
                if not letter:
                    continue
                if not before:
                    if nodes[i] & ACCEPTS:
                        mask |= 1 << letter
                    continue
                end = self._walk(nodes[i] & ARC_MASK, before[::-1])
                if end >= 0 and nodes[end] & ACCEPTS:
                    mask |= 1 << letter
        if len(self._cross_cache) >= _CROSS_CACHE_LIMIT:
            self._cross_cache.clear()
        self._cross_cache[key] = mask
        return mask

    def _siblings(self, index: int) -> Iterable[int]:
        if not index:
            return
        nodes = self._nodes
        while True:
            yield index
            if nodes[index] & IS_END:
                return
            index += 1

    def _walk(self, arc: int, tiles: bytes) -> int:
        """The node reached by the last of ``tiles`` from the sibling list at
        ``arc``; -1 when there is none (or ``tiles`` is empty)."""
        nodes = self._nodes
        node = -1
        for tile in tiles:
            if not arc:
                return -1
            node = -1
            while True:
                value = nodes[arc]
                found = value >> TILE_SHIFT
                if found == tile:
                    node = arc
                    break
                if found > tile or value & IS_END:
                    return -1
                arc += 1
            arc = nodes[node] & ARC_MASK
        return node

    # -- the GADDAG walk ----------------------------------------------------------

    def _generate_lane(
        self,
        lane: _Lane,
        anchors: list[int],
        counts: list[int],
        rack_size: int,
        board_empty: bool,
        found: list[tuple[int, int, bool, tuple[int, ...], int]],
    ) -> None:
        nodes = self._nodes
        scores = self._scores
        letters, face, masks, cross_scores = lane.letters, lane.face, lane.masks, lane.cross
        letter_mult, word_mult = lane.letter_mult, lane.word_mult
        length = len(letters)
        last = length - 1
        placed = [0] * length
        down = lane.down
        lane_index = lane.index
        bingo_tiles, bingo_bonus = self.bingo_tiles, self.bingo_bonus
        min_tiles = self.first_play_min_tiles if board_empty else 1
        anchor_set = set(anchors)
        # bit per letter the rack still holds (blanks aside), kept up to date by place()
        held = [sum(1 << letter for letter in range(1, 64) if counts[letter])]

        def record(start: int, end: int, main: int, wmul: int, cross: int, count: int) -> None:
            if count < min_tiles:
                return
            if count == 1 and down:
                # a one-tile play that also forms an across word is reported across
                for i in range(start, end + 1):
                    if placed[i] and cross_scores[i] != NO_CROSS:
                        return
            score = main * wmul + cross
            if count >= bingo_tiles:
                score += bingo_bonus
            found.append((start, lane_index, down, tuple(placed[start : end + 1]), score))

        def place(pos: int, arc: int, nxt: _Next, state: tuple[int, int, int, int, int, int]) -> None:
            """Put a rack tile on the empty square ``pos``, choosing among the
            arcs of the sibling list at ``arc``, then continue with ``nxt``."""
            main, wmul, cross, count, anchor, other = state
            if count >= rack_size:
                return
            blanks = counts[0]
            # the letters this square takes that the rack can supply
            usable = masks[pos] if blanks else masks[pos] & held[0]
            if not usable:
                return
            lm, wm, cs = letter_mult[pos], word_mult[pos], cross_scores[pos]
            index = arc
            while True:
                value = nodes[index]
                letter = value >> TILE_SHIFT
                if (usable >> letter) & 1:
                    if counts[letter]:
                        counts[letter] -= 1
                        if not counts[letter]:
                            held[0] ^= 1 << letter
                        placed[pos] = letter
                        points = scores[letter] * lm
                        nxt(pos, index, (main + points, wmul * wm,
                                         cross + ((cs + points) * wm if cs != NO_CROSS else 0),
                                         count + 1, anchor, other))
                        if not counts[letter]:
                            held[0] ^= 1 << letter
                        counts[letter] += 1
                    if blanks:
                        counts[0] -= 1
                        placed[pos] = letter | BLANK_BIT
                        nxt(pos, index, (main, wmul * wm, cross + (cs * wm if cs != NO_CROSS else 0),
                                         count + 1, anchor, other))
                        counts[0] += 1
                    placed[pos] = 0
                if value & IS_END:
                    return
                index += 1

        def step(pos: int, arc: int, nxt: _Next, state: tuple[int, int, int, int, int, int]) -> None:
            """Cover square ``pos``: through its tile, or with a rack tile."""
            tile = letters[pos]
            if not tile:
                place(pos, arc, nxt, state)
                return
            tile &= ~BLANK_BIT
            while True:
                value = nodes[arc]
                found_tile = value >> TILE_SHIFT
                if found_tile == tile:
                    main, wmul, cross, count, anchor, other = state
                    nxt(pos, arc, (main + face[pos], wmul, cross, count, anchor, other))
                    return
                if found_tile > tile or value & IS_END:
                    return
                arc += 1

        def left_next(pos: int, node: int, state: tuple[int, int, int, int, int, int]) -> None:
            """After covering ``pos`` going left (the word is pos..anchor)."""
            value = nodes[node]
            main, wmul, cross, count, anchor, leftmost = state
            open_left = pos == 0 or not letters[pos - 1]
            if value & ACCEPTS and open_left and (anchor == last or not letters[anchor + 1]):
                record(pos, anchor, main, wmul, cross, count)
            arc = value & ARC_MASK
            if not arc:
                return
            if pos - 1 >= leftmost:
                step(pos - 1, arc, left_next, state)
            if open_left and anchor < last and nodes[arc] >> TILE_SHIFT == 0:
                switch = nodes[arc] & ARC_MASK
                if switch:
                    step(anchor + 1, switch, right_next, (main, wmul, cross, count, anchor, pos))

        def right_next(pos: int, node: int, state: tuple[int, int, int, int, int, int]) -> None:
            """After covering ``pos`` going right (the word is start..pos)."""
            value = nodes[node]
            main, wmul, cross, count, anchor, start = state
            open_right = pos == last or not letters[pos + 1]
            if value & ACCEPTS and open_right:
                record(start, pos, main, wmul, cross, count)
            arc = value & ARC_MASK
            if arc and pos < last:
                step(pos + 1, arc, right_next, state)

        for anchor in anchors:
            leftmost = anchor
            if anchor > 0 and letters[anchor - 1]:
                while leftmost > 0 and letters[leftmost - 1]:
                    leftmost -= 1
            else:
                while leftmost > 0 and not letters[leftmost - 1] and (leftmost - 1) not in anchor_set:
                    leftmost -= 1
            place(anchor, self._gaddag_root, left_next, (0, 1, 0, 0, anchor, leftmost))


class _Next(Protocol):
    def __call__(self, pos: int, node: int, state: tuple[int, int, int, int, int, int], /) -> None: ...


LeaveValuer = Callable[[Sequence[Tile]], int]
"""The value of a leave (the rack tiles kept), in millipoints."""


def leave_valuer(alphabet: Alphabet, leaves: LeaveValues | None, bag_count: int) -> LeaveValuer:
    """The value of a leave as equity counts it, in millipoints: the leave
    table's value while the bag has tiles (0 without a table), minus twice
    the face value of the tiles once the bag is empty (they count against
    the player).

    >>> english = load_alphabet("english")
    >>> leave_valuer(english, None, 0)([26, 1]), leave_valuer(english, None, 5)([26, 1])
    (-22000, 0)
    """
    if bag_count <= 0:
        return lambda kept: -2 * MILLIPOINTS * sum(alphabet.score(t) for t in kept)
    if leaves is None:
        return lambda kept: 0
    value = leaves.value
    return lambda kept: millipoints(value(kept))


def distinct_exchanges(rack: Sequence[Tile]) -> list[tuple[Tile, ...]]:
    """Every distinct non-empty set of rack tiles to exchange, sorted.

    >>> distinct_exchanges([1, 1, 2])
    [(1,), (1, 1), (1, 1, 2), (1, 2), (2,)]
    """
    tally: dict[Tile, int] = {}
    for tile in rack:
        tally[tile] = tally.get(tile, 0) + 1
    kinds = sorted(tally)
    result: list[tuple[Tile, ...]] = []
    for choice in product(*(range(tally[t] + 1) for t in kinds)):
        tiles = tuple(t for t, n in zip(kinds, choice, strict=True) for _ in range(n))
        if tiles:
            result.append(tiles)
    result.sort()
    return result


def _encoded(move: Move, score: int) -> tuple[int, int, int, bool, bytes, int]:
    """A move as the compiled core takes it: (kind, start, lane, down, tiles, score)."""
    if move.kind is MoveKind.PLACE:
        start, lane = (move.row, move.col) if move.down else (move.col, move.row)
        return (0, start, lane, move.down, bytes(move.tiles), score)
    if move.kind is MoveKind.EXCHANGE:
        return (1, 0, 0, False, bytes(move.tiles), 0)
    if move.kind is MoveKind.PASS:
        return (2, 0, 0, False, b"", 0)
    raise ValueError(f"the compiled core plays placements, exchanges and passes, not a {move.kind.value}")


def play_order(play: Play) -> tuple[int, int, int, int, int, int, tuple[Tile, ...]]:
    """Sort key: best equity first, then higher score, then a fixed order of
    kind, direction, square and tiles, so every core lists plays alike."""
    move = play.move
    kind = 0 if move.kind is MoveKind.PLACE else 1 if move.kind is MoveKind.EXCHANGE else 2
    return (-play.equity, -play.score, kind, int(move.down), move.row, move.col, move.tiles)
