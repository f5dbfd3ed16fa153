"""Board layouts: size, start square and premium squares, read from ASCII art.

Squares are numbered row by row from 0 (:data:`Square`); ``A1`` is the
top-left square, columns are letters and rows are numbers. A placement is
named by its first square: row first (``8F``) reads across, column first
(``F8``) reads down.

>>> layout = load_layout("standard")
>>> layout.rows, layout.cols, layout.square_name(layout.start)
(15, 15, 'H8')
>>> layout.word_multiplier(layout.parse_square("A1")), layout.letter_multiplier(layout.parse_square("B6"))
(3, 3)
>>> layout.parse_position("8F"), layout.parse_position("F8")
((7, 5, False), (7, 5, True))
>>> layout.position_name(7, 5, True)
'F8'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from tilebag.catalog import Catalog
from tilebag.errors import FormatError, InvalidMoveError, quote

Square: TypeAlias = int
"""A square index, ``row * cols + col``, both from 0."""

_PREMIUMS = {
    ".": (1, 1),
    "d": (2, 1),
    "t": (3, 1),
    "q": (4, 1),
    "D": (1, 2),
    "T": (1, 3),
    "Q": (1, 4),
    "*": (1, 2),
}

_POSITION = re.compile(r"^(?:(?P<row1>\d{1,2})(?P<col1>[A-Za-z])|(?P<col2>[A-Za-z])(?P<row2>\d{1,2}))$")


@dataclass(frozen=True)
class BoardLayout:
    """A board: its size, start square and premium squares."""

    name: str
    rows: int
    cols: int
    start: Square
    """The square the first play must cover (``H8`` on the standard board)."""
    letter_multipliers: tuple[int, ...]
    """Per square: 1, or 2/3 for a double/triple letter square."""
    word_multipliers: tuple[int, ...]
    """Per square: 1, or 2/3 for a double/triple word square."""

    @property
    def size(self) -> int:
        """Number of squares (225 on the standard board)."""
        return self.rows * self.cols

    def letter_multiplier(self, square: Square) -> int:
        return self.letter_multipliers[square]

    def word_multiplier(self, square: Square) -> int:
        return self.word_multipliers[square]

    def square(self, row: int, col: int) -> Square:
        """The square at a 0-based row and column."""
        return row * self.cols + col

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def column_name(self, col: int) -> str:
        return chr(ord("A") + col)

    def square_name(self, square: Square) -> str:
        """``A1`` style name of a square (column letter, row number)."""
        row, col = divmod(square, self.cols)
        return f"{self.column_name(col)}{row + 1}"

    def parse_square(self, name: str) -> Square:
        """The square named ``H8`` (or ``8H``: a square has no direction).

        :raises InvalidMoveError: when the name is not a square of this board.
        """
        row, col, _ = self.parse_position(name)
        return self.square(row, col)

    def parse_position(self, text: str) -> tuple[int, int, bool]:
        """``(row, col, down)`` of a placement position: ``8F`` is row 8,
        column F, across; ``F8`` is the same square, down.

        :raises InvalidMoveError: when the text is not a position on this board.
        """
        m = _POSITION.match(text)
        if not m:
            raise InvalidMoveError(f"{quote(text)} is not a position such as 8F (across) or F8 (down)")
        if m.group("row1") is not None:
            row_text, col_text, down = m.group("row1"), m.group("col1"), False
        else:
            row_text, col_text, down = m.group("row2"), m.group("col2"), True
        row = int(row_text) - 1
        col = ord(col_text.upper()) - ord("A")
        if not self.on_board(row, col):
            raise InvalidMoveError(f"{quote(text)} is off the {self.rows}x{self.cols} board")
        return row, col, down

    def position_name(self, row: int, col: int, down: bool) -> str:
        """GCG name of a placement position: ``8F`` across, ``F8`` down."""
        if down:
            return f"{self.column_name(col)}{row + 1}"
        return f"{row + 1}{self.column_name(col)}"


def _parse_layout(name: str, text: str, source: str) -> BoardLayout:
    grid: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        bad = [ch for ch in line if ch not in _PREMIUMS]
        if bad:
            raise FormatError(f"unknown square symbol {bad[0]!r} (use . d t q D T Q *)", line=number, source=source)
        if grid and len(line) != len(grid[0]):
            raise FormatError(f"row has {len(line)} squares, the first row has {len(grid[0])}", line=number, source=source)
        grid.append(line)
    if not grid:
        raise FormatError("the layout has no rows", source=source)
    cols = len(grid[0])
    if cols > 26:
        raise FormatError("a board has at most 26 columns (A-Z)", source=source)
    if len(grid) > 99:
        raise FormatError("a board has at most 99 rows", source=source)
    flat = "".join(grid)
    starts = [i for i, ch in enumerate(flat) if ch == "*"]
    if len(starts) != 1:
        raise FormatError(f"the layout must mark exactly one start square '*', found {len(starts)}", source=source)
    return BoardLayout(
        name=name,
        rows=len(grid),
        cols=cols,
        start=starts[0],
        letter_multipliers=tuple(_PREMIUMS[ch][0] for ch in flat),
        word_multipliers=tuple(_PREMIUMS[ch][1] for ch in flat),
    )


LAYOUTS: Catalog[BoardLayout] = Catalog("board layout", "layouts", _parse_layout)
"""The board layouts known by name: those that ship with tilebag and those
read from files the user chose (:func:`load_layout_file`)."""


def layout_names() -> list[str]:
    """Names of the layouts :func:`load_layout` knows.

    >>> layout_names()[0]
    'standard'
    """
    return LAYOUTS.names()


def load_layout(name: str = "standard") -> BoardLayout:
    """A board layout by name (any case): one that ships with tilebag, or
    one read before by :func:`load_layout_file`. A name is never a path.

    :raises FormatError: for an unknown name, listing the known ones.
    """
    return LAYOUTS.get(name)


def load_layout_file(path: str | Path) -> BoardLayout:
    """Read a layout file the user chose, named after the file, from then
    on known to :func:`load_layout` by that name.

    :raises FormatError: naming the line of a malformed file, or a file
        that cannot be read.
    """
    return LAYOUTS.load_file(path)
