"""The board: which tile is on each square, placement checks and scoring.

The board is a flat ``bytearray`` of ``rows * cols`` tile codes (0 for an
empty square), so copying and comparing it are cheap.

>>> board = Board()
>>> move = board.check_placement(Move.from_gcg("8F HORN"))
>>> board.score(move)
14
>>> board.place(move)
>>> board.score(board.check_placement(Move.from_gcg("H6 FA.M")))
9
>>> board.format_word(board.words(Move.from_gcg("H6 FA.M"))[0].tiles)
'FARM'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tilebag.alphabet import BLANK_BIT, Alphabet, Tile, load_alphabet
from tilebag.errors import Illegal, IllegalMoveError
from tilebag.layout import BoardLayout, Square, load_layout
from tilebag.move import PLAYED_THROUGH, Move, MoveKind

EMPTY: Tile = 0
"""An empty square."""


@dataclass(frozen=True)
class Word:
    """A word a placement forms: its first square, direction and tiles (as
    they stand on the board after the play) and what it scores."""

    row: int
    col: int
    down: bool
    tiles: tuple[Tile, ...]
    score: int


class Board:
    """Tiles on a board layout. A new board is empty."""

    def __init__(self, layout: BoardLayout | None = None, alphabet: Alphabet | None = None) -> None:
        self.layout = layout or load_layout("standard")
        self.alphabet = alphabet or load_alphabet("english")
        self.tiles = bytearray(self.layout.size)
        self.tile_count = 0

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.layout = self.layout
        other.alphabet = self.alphabet
        other.tiles = bytearray(self.tiles)
        other.tile_count = self.tile_count
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.layout == other.layout and self.tiles == other.tiles

    def __hash__(self) -> int:  # boards are mutable; hash by identity like lists do not
        raise TypeError("unhashable type: 'Board'")

    def is_empty(self) -> bool:
        """True before the first tile is placed."""
        return self.tile_count == 0

    def at(self, row: int, col: int) -> Tile:
        """Tile at a row and column (0 when empty or off the board)."""
        if not self.layout.on_board(row, col):
            return EMPTY
        return self.tiles[row * self.layout.cols + col]

    def __getitem__(self, square: Square) -> Tile:
        return self.tiles[square]

    # -- placement -----------------------------------------------------

    def check_placement(self, move: Move, *, first_play_min_tiles: int = 2) -> Move:
        """Check a placement against the board alone (no rack, no lexicon) and
        return it normalised: a letter written out on a square that already
        holds it becomes a played-through square. A letter written for a
        played-through square (``FA(R)M``) must be the letter there, from a
        blank or not.

        :raises IllegalMoveError: naming the broken rule and the square.
        """
        if move.kind is not MoveKind.PLACE:
            raise ValueError(f"not a placement: {move.kind.value}")
        layout = self.layout
        name = layout.square_name
        text = _LazyText(lambda: move.gcg(self.alphabet, layout))  # written only into an error message
        dr, dc = (1, 0) if move.down else (0, 1)
        end_row = move.row + dr * (len(move.tiles) - 1)
        end_col = move.col + dc * (len(move.tiles) - 1)
        if not (layout.on_board(move.row, move.col) and layout.on_board(end_row, end_col)):
            raise IllegalMoveError(Illegal.OFF_BOARD, f"{text}: the word runs off the board")
        tiles = list(move.tiles)
        placed = 0
        for i, (r, c, t) in enumerate(move.squares()):
            on_board = self.at(r, c)
            if on_board == EMPTY:
                if t == PLAYED_THROUGH:
                    raise IllegalMoveError(
                        Illegal.GAP,
                        f"{text}: {name(layout.square(r, c))} is empty, but the word plays through it (leaves a gap)",
                    )
                placed += 1
            elif t == PLAYED_THROUGH:
                written = move.through[i] if move.through else 0
                if written and written & ~BLANK_BIT != on_board & ~BLANK_BIT:
                    raise IllegalMoveError(
                        Illegal.PLAYED_THROUGH_MISMATCH,
                        f"{text}: {name(layout.square(r, c))} holds {self.alphabet.label(on_board)}, "
                        f"but the play writes ({self.alphabet.label(written)}) for it",
                    )
            elif t & ~BLANK_BIT == on_board & ~BLANK_BIT:
                tiles[i] = PLAYED_THROUGH
            else:
                raise IllegalMoveError(
                    Illegal.SQUARE_OCCUPIED,
                    f"{text}: {name(layout.square(r, c))} is occupied by {self.alphabet.label(on_board)}, "
                    f"the play puts {self.alphabet.label(t)} there",
                )
        if placed == 0:
            raise IllegalMoveError(Illegal.NO_TILES, f"{text}: the play places no tile (every square is taken)")
        before = (move.row - dr, move.col - dc)
        after = (end_row + dr, end_col + dc)
        for r, c in (before, after):
            if self.at(r, c) != EMPTY:
                raise IllegalMoveError(
                    Illegal.WORD_INCOMPLETE,
                    f"{text}: the word continues onto {name(layout.square(r, c))} "
                    f"({self.alphabet.label(self.at(r, c))}); write the whole word",
                )
        normal = Move.place(move.row, move.col, move.down, tiles)
        if self.is_empty():
            squares = {layout.square(r, c) for r, c, _ in normal.placed()}
            if layout.start not in squares:
                raise IllegalMoveError(
                    Illegal.FIRST_PLAY_NOT_ON_START,
                    f"{text}: the first play must cover the start square {name(layout.start)}",
                )
            if placed < first_play_min_tiles:
                raise IllegalMoveError(
                    Illegal.FIRST_PLAY_TOO_SHORT,
                    f"{text}: the first play must place at least {first_play_min_tiles} tiles",
                )
            return normal
        if placed == len(tiles):
            touching = any(
                self.at(r + rr, c + cc) != EMPTY
                for r, c, _ in normal.placed()
                for rr, cc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            )
            if not touching:
                raise IllegalMoveError(
                    Illegal.NOT_CONNECTED,
                    f"{text}: the play touches no tile already on the board",
                )
        return normal

    def move_from_placements(self, placements: Iterable[tuple[Square, Tile]]) -> Move:
        """The placement that puts these tiles on these squares (as a player
        does by hand), with the tiles already on the board in between.

        :raises IllegalMoveError: when the tiles are not in one line, leave a
            gap, or sit on occupied squares.
        """
        items = sorted(placements)
        layout = self.layout
        if not items:
            raise IllegalMoveError(Illegal.NO_TILES, "no tiles placed")
        squares = [s for s, _ in items]
        if len(set(squares)) != len(squares):
            raise IllegalMoveError(Illegal.SQUARE_OCCUPIED, "two tiles on one square")
        for s in squares:
            if self.tiles[s] != EMPTY:
                raise IllegalMoveError(
                    Illegal.SQUARE_OCCUPIED, f"{layout.square_name(s)} is occupied by {self.alphabet.label(self.tiles[s])}"
                )
        rows = {s // layout.cols for s in squares}
        cols = {s % layout.cols for s in squares}
        if len(rows) > 1 and len(cols) > 1:
            raise IllegalMoveError(Illegal.NOT_IN_LINE, "the tiles are not all in one row or one column")
        if len(squares) == 1:
            r, c = divmod(squares[0], layout.cols)
            down = self.at(r, c - 1) == EMPTY and self.at(r, c + 1) == EMPTY and (
                self.at(r - 1, c) != EMPTY or self.at(r + 1, c) != EMPTY
            )
        else:
            down = len(cols) == 1
        dr, dc = (1, 0) if down else (0, 1)
        first_r, first_c = divmod(squares[0], layout.cols)
        last_r, last_c = divmod(squares[-1], layout.cols)
        while self.at(first_r - dr, first_c - dc) != EMPTY:
            first_r, first_c = first_r - dr, first_c - dc
        while self.at(last_r + dr, last_c + dc) != EMPTY:
            last_r, last_c = last_r + dr, last_c + dc
        by_square = dict(items)
        tiles: list[Tile] = []
        r, c = first_r, first_c
        while (r, c) != (last_r + dr, last_c + dc):
            s = layout.square(r, c)
            if s in by_square:
                tiles.append(by_square[s])
            elif self.tiles[s] != EMPTY:
                tiles.append(PLAYED_THROUGH)
            else:
                raise IllegalMoveError(Illegal.GAP, f"{layout.square_name(s)} is empty: the tiles leave a gap")
            r, c = r + dr, c + dc
        return Move.place(first_r, first_c, down, tiles)

    def place(self, move: Move) -> None:
        """Put a checked placement's tiles on the board."""
        cols = self.layout.cols
        for r, c, t in move.placed():
            self.tiles[r * cols + c] = t
            self.tile_count += 1

    def remove(self, move: Move) -> None:
        """Take a placement's tiles off the board again."""
        cols = self.layout.cols
        for r, c, _ in move.placed():
            self.tiles[r * cols + c] = EMPTY
            self.tile_count -= 1

    # -- words and scores --------------------------------------------

    def words(self, move: Move) -> list[Word]:
        """Every word a checked placement forms, main word first, each with
        its score (premiums only under the newly placed tiles).
        """
        layout = self.layout
        rows, cols = layout.rows, layout.cols
        placed = move.placed()
        new = {r * cols + c: t for r, c, t in placed}
        words: list[Word] = []
        board = self.tiles
        faces = self.alphabet.scores
        letter_mult, word_mult = layout.letter_multipliers, layout.word_multipliers

        def at(r: int, c: int) -> Tile:
            if 0 <= r < rows and 0 <= c < cols:
                s = r * cols + c
                return new.get(s, board[s])
            return EMPTY

        def run(row: int, col: int, down: bool) -> Word | None:
            dr, dc = (1, 0) if down else (0, 1)
            r, c = row, col
            while at(r - dr, c - dc) != EMPTY:
                r, c = r - dr, c - dc
            start_r, start_c = r, c
            tiles: list[Tile] = []
            total = 0
            multiplier = 1
            while True:
                t = at(r, c)
                if t == EMPTY:
                    break
                s = r * cols + c
                value = 0 if t & BLANK_BIT else faces[t]
                if s in new:
                    value *= letter_mult[s]
                    multiplier *= word_mult[s]
                total += value
                tiles.append(t)
                r, c = r + dr, c + dc
            if len(tiles) < 2:
                return None
            return Word(start_r, start_c, down, tuple(tiles), total * multiplier)

        main = run(move.row, move.col, move.down)
        if main is not None:
            words.append(main)
        for r, c, _ in placed:
            cross = run(r, c, not move.down)
            if cross is not None:
                words.append(cross)
        return words

    def score(self, move: Move, *, bingo_tiles: int = 7, bingo_bonus: int = 50) -> int:
        """What a checked placement scores: every word it forms, plus the bingo
        bonus when it places at least ``bingo_tiles`` tiles."""
        total = sum(word.score for word in self.words(move))
        if len(move.placed()) >= bingo_tiles:
            total += bingo_bonus
        return total

    def word_text(self, move: Move) -> str:
        """The whole main word of a placement, played-through letters
        included (capitals, lower case for blanks)."""
        return "".join(self.alphabet.label(t if t != PLAYED_THROUGH else self.at(r, c)) for r, c, t in move.squares())

    def format_word(self, tiles: Iterable[Tile]) -> str:
        return self.alphabet.format_word(tiles)

    def notation(self, move: Move) -> str:
        """GCG notation with played-through letters in parentheses:
        ``H6 FA(R)M``."""
        if move.kind is not MoveKind.PLACE:
            return move.gcg(self.alphabet, self.layout)
        parts: list[str] = []
        inside = False
        for r, c, t in move.squares():
            if t == PLAYED_THROUGH:
                if not inside:
                    parts.append("(")
                    inside = True
                parts.append(self.alphabet.label(self.at(r, c)))
            else:
                if inside:
                    parts.append(")")
                    inside = False
                parts.append(self.alphabet.label(t))
        if inside:
            parts.append(")")
        return f"{self.layout.position_name(move.row, move.col, move.down)} {''.join(parts)}"

    # -- display --------------------------------------------------------

    def __str__(self) -> str:
        return self.render()

    def render(self, *, highlight: Iterable[Square] = ()) -> str:
        """The board as text: letters, blanks in lower case, premium squares
        as ``=`` (triple word), ``-`` (double word), ``"`` (triple letter),
        ``'`` (double letter). Squares in ``highlight`` are marked with ``*``
        after the letter."""
        layout = self.layout
        marks = set(highlight)
        width = max(len(self.alphabet.label(t)) for t in range(1, self.alphabet.size))
        lines = ["   " + "".join(f" {layout.column_name(c):>{width}}" for c in range(layout.cols))]
        for r in range(layout.rows):
            cells = []
            for c in range(layout.cols):
                s = layout.square(r, c)
                t = self.tiles[s]
                if t != EMPTY:
                    text = self.alphabet.label(t)
                elif s == layout.start:
                    text = "*"
                elif layout.word_multipliers[s] == 3:
                    text = "="
                elif layout.word_multipliers[s] == 2:
                    text = "-"
                elif layout.letter_multipliers[s] == 3:
                    text = '"'
                elif layout.letter_multipliers[s] == 2:
                    text = "'"
                else:
                    text = "."
                mark = "*" if s in marks and t != EMPTY else " "
                cells.append(f"{mark}{text:>{width}}")
            lines.append(f"{r + 1:>2} " + "".join(cells))
        return "\n".join(lines)


class _LazyText:
    """Text worked out only when it is formatted (into an error message)."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], str]) -> None:
        self._make = make

    def __format__(self, spec: str) -> str:
        return format(self._make(), spec)

    def __str__(self) -> str:
        return self._make()
