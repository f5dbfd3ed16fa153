"""Candidate actions for the house-rule variations, for bots: anagram plays,
recycles and blank swaps, found over a word graph and valued like the move
generator's plays.

* :meth:`VariationGenerator.anagram_plays` rearranges each word on the board
  (a maximal run of two tiles or more, up to :attr:`~VariationGenerator.max_anagram_length`
  letters) in its squares and extends it in its line with rack tiles. The
  rearrangements are walked in the GADDAG from the word's last square
  leftwards, so only those that occur inside some word are tried, and every
  cross-word a moved letter changes must stay a word. Each play is then
  checked and scored by :func:`tilebag.variants.check_anagram` and kept only
  when the lexicon accepts every word it forms or changes.
* :meth:`VariationGenerator.recycles` lists the recycles whose changed words
  stay words (a rack letter in place of a board letter; the rack's blanks are
  never given up).
* :func:`blank_swaps` lists the blanks on the board the rack can take.
* :func:`after_action` is the board and rack after a recycle or blank swap,
  for valuing the best play that follows.

Values are equities as :meth:`tilebag.engine.movegen.generator.MoveGenerator.generate` gives
them: score plus the leave's value while the bag has tiles, score minus twice
the face value of the tiles kept once it is empty (:func:`leave_valuer`).

>>> from tilebag.board import Board
>>> from tilebag.lexicon import WordList
>>> lexicon = WordList(["EAT", "TEA", "TEAS", "SEAT", "EATS", "ETAS"])
>>> board = Board()
>>> board.place(Move.from_gcg("8G EAT"))
>>> plays = VariationGenerator(lexicon.kwg).anagram_plays(board, board.alphabet.parse_rack("S"), lexicon=lexicon)
>>> [(p.move.gcg(), p.score) for p in plays]
[('anagram 8G ETAS', 4), ('anagram 8G TEAS', 4)]

(``8F SEAT`` keeps EAT as it is: an ordinary play, which the move generator finds.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tilebag.alphabet import BLANK, BLANK_BIT, Alphabet, Tile, load_alphabet, rack_tile
from tilebag.board import EMPTY, Board
from tilebag.engine.equity import MILLIPOINTS
from tilebag.engine.movegen.generator import ALL_LETTERS, LeaveValuer, MoveGenerator, Play, leave_valuer, play_order
from tilebag.errors import IllegalMoveError, InvalidMoveError
from tilebag.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, Kwg
from tilebag.lexicon import Lexicon
from tilebag.move import Move, MoveKind
from tilebag.variants import check_anagram, recycled_words

__all__ = [
    "BoardWord",
    "LeaveValuer",
    "VariationGenerator",
    "after_action",
    "blank_swaps",
    "board_words",
    "leave_valuer",
]


@dataclass(frozen=True, slots=True)
class BoardWord:
    """A word on the board: a maximal run of two tiles or more in a line."""

    row: int
    col: int
    down: bool
    tiles: tuple[Tile, ...]
    """As on the board (designated blanks keep :data:`~tilebag.alphabet.BLANK_BIT`)."""

    def squares(self) -> list[tuple[int, int]]:
        dr, dc = (1, 0) if self.down else (0, 1)
        return [(self.row + dr * i, self.col + dc * i) for i in range(len(self.tiles))]


def board_words(board: Board, *, max_length: int | None = None) -> list[BoardWord]:
    """Every word on the board (across first, then down), optionally only
    those of at most ``max_length`` tiles.

    >>> board = Board()
    >>> board.place(Move.from_gcg("8G EAT"))
    >>> [board.alphabet.format_word(w.tiles) for w in board_words(board)]
    ['EAT']
    """
    layout = board.layout
    found: list[BoardWord] = []
    for down in (False, True):
        dr, dc = (1, 0) if down else (0, 1)
        for r in range(layout.rows):
            for c in range(layout.cols):
                if board.at(r, c) == EMPTY or board.at(r - dr, c - dc) != EMPTY:
                    continue
                tiles: list[Tile] = []
                rr, cc = r, c
                while layout.on_board(rr, cc) and board.at(rr, cc) != EMPTY:
                    tiles.append(board.at(rr, cc))
                    rr, cc = rr + dr, cc + dc
                if len(tiles) >= 2 and (max_length is None or len(tiles) <= max_length):
                    found.append(BoardWord(r, c, down, tuple(tiles)))
    return found


def blank_swaps(board: Board, rack: Sequence[Tile]) -> list[Move]:
    """The blank swaps the rack allows: each blank on the board whose letter
    the rack holds.

    >>> board = Board()
    >>> board.place(Move.from_gcg("8G tEa"))
    >>> [m.gcg() for m in blank_swaps(board, board.alphabet.parse_rack("AT"))]
    ['swap G8', 'swap I8']
    """
    held = {t for t in rack if t != BLANK}
    cols = board.layout.cols
    return [
        Move.blank_swap(*divmod(square, cols))
        for square, tile in enumerate(board.tiles)
        if tile & BLANK_BIT and tile & ~BLANK_BIT in held
    ]


def after_action(board: Board, rack: Sequence[Tile], move: Move) -> tuple[Board, list[Tile]]:
    """Copies of the board and rack after a (legal) recycle or blank swap."""
    if move.kind not in (MoveKind.RECYCLE, MoveKind.BLANK_SWAP):
        raise ValueError(f"{move.kind.value} is not an action that starts a turn")
    copy = board.copy()
    square = board.layout.square(move.row, move.col)
    old = board.tiles[square]
    kept = list(rack)
    if move.kind is MoveKind.RECYCLE:
        new = move.tiles[0]
        kept.remove(rack_tile(new))
        kept.append(rack_tile(old))
    else:
        new = old & ~BLANK_BIT
        kept.remove(new)
        kept.append(BLANK)
    copy.tiles[square] = new
    return copy, kept


class VariationGenerator:
    """Finds the variations' candidate actions over one word graph (a KWG
    with a GADDAG, like :class:`~tilebag.engine.movegen.generator.MoveGenerator`).

    :param max_anagram_length: the longest word on the board that anagram
        plays rearrange (longer ones have too many rearrangements to try).
    :param max_rearrangements: the most rearrangements tried per word.
    """

    def __init__(
        self,
        kwg: Kwg,
        *,
        alphabet: Alphabet | None = None,
        bingo_tiles: int = 7,
        bingo_bonus: int = 50,
        max_anagram_length: int = 7,
        max_rearrangements: int = 2000,
    ) -> None:
        self.kwg = kwg
        self.alphabet = alphabet or load_alphabet("english")
        self.bingo_tiles = bingo_tiles
        self.bingo_bonus = bingo_bonus
        self.max_anagram_length = max_anagram_length
        self.max_rearrangements = max_rearrangements
        self._nodes = kwg.nodes
        self._gaddag_root = kwg.gaddag_root
        self._words = MoveGenerator(kwg, alphabet=self.alphabet, core="python")
        """The reference generator, for its cached cross-sets."""

    # -- cross-sets -------------------------------------------------------

    def cross_mask(self, before: bytes, after: bytes) -> int:
        """Letters ``x`` (bit per tile code) for which ``before + x + after``
        is a word; every letter when both are empty."""
        if not before and not after:
            return ALL_LETTERS
        return self._words.cross_set(before, after)

    def _context_mask(self, board: Board, row: int, col: int, down: bool) -> int:
        """Letters the square at ``row``, ``col`` may hold as far as the word
        through it in direction ``down`` is concerned (every letter when it
        has no neighbour that way)."""
        before, after = _context(board, row, col, down)
        return self.cross_mask(before, after)

    # -- recycles ----------------------------------------------------------

    def recycles(self, board: Board, rack: Sequence[Tile]) -> list[Move]:
        """Every recycle of a rack letter whose changed words (across and
        down through the square) are words of the graph. A rack blank is
        never put down: it is worth more than any letter it would fetch.

        >>> from tilebag.lexicon import WordList
        >>> lexicon = WordList(["TEA", "ZEA", "SEA"])
        >>> board = Board()
        >>> board.place(Move.from_gcg("8G TEA"))
        >>> [m.gcg() for m in VariationGenerator(lexicon.kwg).recycles(board, board.alphabet.parse_rack("ZSQ"))]
        ['recycle G8 S', 'recycle G8 Z']
        """
        letters = sorted({t for t in rack if t != BLANK})
        if not letters:
            return []
        cols = board.layout.cols
        found: list[Move] = []
        for square, old in enumerate(board.tiles):
            if old == EMPTY:
                continue
            row, col = divmod(square, cols)
            mask = self._context_mask(board, row, col, False) & self._context_mask(board, row, col, True)
            for tile in letters:
                if tile == old:
                    continue
                if tile == old & ~BLANK_BIT or (mask >> tile) & 1:
                    found.append(Move.recycle(row, col, tile))
        return found

    def recycle_is_sound(self, board: Board, move: Move, lexicon: Lexicon) -> bool:
        """Whether the lexicon accepts every word a recycle changes (as the
        game will check it)."""
        square = board.layout.square(move.row, move.col)
        if move.tiles[0] & ~BLANK_BIT == board.tiles[square] & ~BLANK_BIT:
            return True
        return all(word in lexicon for word in recycled_words(board, move.row, move.col, move.tiles[0]))

    # -- anagram plays ------------------------------------------------------

    def anagram_plays(
        self,
        board: Board,
        rack: Sequence[Tile],
        *,
        lexicon: Lexicon,
        valuer: LeaveValuer | None = None,
        top: int | None = None,
    ) -> list[Play]:
        """Anagram plays: a word on the board rearranged in its squares (not
        left as it is: that is an ordinary play) and extended in its line by
        rack tiles, with every word it forms or changes in ``lexicon``.
        Best equity first (score plus ``valuer`` of the leave; the score alone
        without one).
        """
        if not rack or board.is_empty():
            return []
        counts = [0] * 64
        for tile in rack:
            counts[tile] += 1
        value = valuer or (lambda kept: 0)
        plays: list[Play] = []
        seen: set[Move] = set()
        for word in board_words(board, max_length=self.max_anagram_length):
            for move in self._word_anagrams(board, word, counts, len(rack)):
                if move in seen:
                    continue
                seen.add(move)
                play = self._valued(board, move, rack, lexicon, value)
                if play is not None:
                    plays.append(play)
        plays.sort(key=play_order)
        return plays[:top] if top is not None else plays

    def _valued(self, board: Board, move: Move, rack: Sequence[Tile], lexicon: Lexicon, value: LeaveValuer) -> Play | None:
        try:
            checked = check_anagram(board, move, bingo_tiles=self.bingo_tiles, bingo_bonus=self.bingo_bonus)
        except (IllegalMoveError, InvalidMoveError):  # pragma: no cover - the search builds legal plays
            return None
        if not all(word.tiles in lexicon for word in checked.words):
            return None
        kept = list(rack)
        for tile in checked.tiles_used:
            kept.remove(rack_tile(tile))
        kept.sort()
        return Play(move, checked.score, tuple(kept), checked.score * MILLIPOINTS + value(kept))

    def _word_anagrams(self, board: Board, word: BoardWord, counts: list[int], rack_size: int) -> list[Move]:
        """The anagram plays of one word (checked against the graph, not yet
        against the lexicon or the board's rules)."""
        nodes = self._nodes
        down = word.down
        dr, dc = (1, 0) if down else (0, 1)
        length = len(word.tiles)
        squares = word.squares()
        # letters each square of the word may take: a moved letter must keep
        # the cross-word through its square a word
        allowed = []
        for (r, c), tile in zip(squares, word.tiles, strict=True):
            allowed.append(self._context_mask(board, r, c, not down) | (1 << (tile & ~BLANK_BIT)))
        # room to extend: empty squares, the last one not touching a tile beyond
        max_left = _room(board, word.row - dr, word.col - dc, -dr, -dc, rack_size)
        end_r, end_c = squares[-1]
        max_right = _room(board, end_r + dr, end_c + dc, dr, dc, rack_size)
        if not max_left and not max_right:
            return []
        left_masks = [
            self._context_mask(board, word.row - dr * j, word.col - dc * j, not down) for j in range(1, max_left + 1)
        ]
        right_masks = [self._context_mask(board, end_r + dr * k, end_c + dc * k, not down) for k in range(1, max_right + 1)]
        original = word.tiles
        remaining: dict[Tile, int] = {}
        for tile in original:
            remaining[tile] = remaining.get(tile, 0) + 1
        kinds = sorted(remaining)
        arrangement: list[Tile] = [0] * length
        prefix: list[Tile] = []  # nearest the word first
        suffix: list[Tile] = []
        found: list[Move] = []
        tried = [0]

        def record() -> None:
            tiles = prefix[::-1] + arrangement + suffix
            start = len(prefix)
            found.append(Move.anagram(word.row - dr * start, word.col - dc * start, down, tiles))

        def choices(arc: int, mask: int, placed: int) -> list[tuple[int, Tile]]:
            """(node, tile) for each arc a rack tile can follow onto a square
            taking ``mask``: the letter itself, or a blank standing for it."""
            out: list[tuple[int, Tile]] = []
            if placed >= rack_size:
                return out
            index = arc
            while index:
                value = nodes[index]
                letter = value >> TILE_SHIFT
                if letter and (mask >> letter) & 1:
                    if counts[letter]:
                        out.append((index, letter))
                    if counts[BLANK]:
                        out.append((index, letter | BLANK_BIT))
                if value & IS_END:
                    break
                index += 1
            return out

        def right(k: int, arc: int, placed: int) -> None:
            """Place the suffix's tile ``k`` (0-based) from the sibling list at ``arc``."""
            if k >= max_right:
                return
            for node, tile in choices(arc, right_masks[k], placed):
                counts[rack_tile(tile)] -= 1
                suffix.append(tile)
                if nodes[node] & ACCEPTS:
                    record()
                child = nodes[node] & ARC_MASK
                if child:
                    right(k + 1, child, placed + 1)
                suffix.pop()
                counts[rack_tile(tile)] += 1

        def left(j: int, node: int, placed: int) -> None:
            """After the word and ``j`` prefix tiles, at GADDAG ``node``."""
            value = nodes[node]
            if placed and value & ACCEPTS:
                record()
            arc = value & ARC_MASK
            if not arc:
                return
            if max_right and nodes[arc] >> TILE_SHIFT == 0:
                switch = nodes[arc] & ARC_MASK
                if switch:
                    right(0, switch, placed)
            if j < max_left:
                for child, tile in choices(arc, left_masks[j], placed):
                    counts[rack_tile(tile)] -= 1
                    prefix.append(tile)
                    left(j + 1, child, placed + 1)
                    prefix.pop()
                    counts[rack_tile(tile)] += 1

        def arrange(i: int, arc: int, node: int) -> None:
            """Choose the tile of the word's square ``i``, right to left."""
            if i < 0:
                if tuple(arrangement) != original and tried[0] < self.max_rearrangements:
                    tried[0] += 1
                    left(0, node, 0)
                return
            for tile in kinds:
                if not remaining[tile]:
                    continue
                letter = tile & ~BLANK_BIT
                if not (allowed[i] >> letter) & 1:
                    continue
                child = self.kwg.seek(arc, letter)
                if child < 0:
                    continue
                next_arc = nodes[child] & ARC_MASK
                if not next_arc:  # the word must grow: a tile is added
                    continue
                remaining[tile] -= 1
                arrangement[i] = tile
                arrange(i - 1, next_arc, child)
                remaining[tile] += 1

        arrange(length - 1, self._gaddag_root, -1)
        return found


def _context(board: Board, row: int, col: int, down: bool) -> tuple[bytes, bytes]:
    """The letters before and after a square in one direction (the run of
    tiles touching it), blanks as the letters they stand for."""
    dr, dc = (1, 0) if down else (0, 1)
    before: list[Tile] = []
    r, c = row - dr, col - dc
    while (t := board.at(r, c)) != EMPTY:
        before.append(t & ~BLANK_BIT)
        r, c = r - dr, c - dc
    after: list[Tile] = []
    r, c = row + dr, col + dc
    while (t := board.at(r, c)) != EMPTY:
        after.append(t & ~BLANK_BIT)
        r, c = r + dr, c + dc
    return bytes(reversed(before)), bytes(after)


def _room(board: Board, row: int, col: int, dr: int, dc: int, limit: int) -> int:
    """How many empty squares from ``row``, ``col`` onwards a word may grow
    into: the empty run, less its last square when a tile lies beyond it."""
    layout = board.layout
    n = 0
    r, c = row, col
    while n < limit + 1 and layout.on_board(r, c) and board.at(r, c) == EMPTY:
        n += 1
        r, c = r + dr, c + dc
    if n <= limit:
        if layout.on_board(r, c) and board.at(r, c) != EMPTY:
            n -= 1
        return max(n, 0)
    return limit
