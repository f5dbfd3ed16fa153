"""Moves: a placement, an exchange or a pass, and their context-free notation.

A :class:`Move` says what a player does, not what it scores (that depends on
the board: see :meth:`tilebag.Game.score`). Notation is the players' (GCG):

>>> Move.from_gcg("8F HORN")
Move.from_gcg('8F HORN')
>>> m = Move.from_gcg("H6 FA.M")
>>> m.row, m.col, m.down, m.tiles
(5, 7, True, (6, 1, 0, 13))
>>> Move.from_gcg("H6 FA(R)M") == m
True
>>> Move.from_gcg("-ABC").kind, Move.from_gcg("-").kind
(<MoveKind.EXCHANGE: 'exchange'>, <MoveKind.PASS: 'pass'>)
>>> bool(Move.pass_())
False
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tilebag.alphabet import Alphabet, Tile, load_alphabet
from tilebag.errors import InvalidMoveError, quote
from tilebag.layout import BoardLayout, load_layout

MAX_MOVE_CHARS = 200
"""The longest move text read: a word across the widest board, each tile
in brackets, is shorter."""

PLAYED_THROUGH: Tile = 0
"""In a placement's tiles, a square whose tile is already on the board."""


class MoveKind(enum.Enum):
    """What a move does."""

    PLACE = "place"
    EXCHANGE = "exchange"
    PASS = "pass"
    ANAGRAM = "anagram"
    """Variation: rearrange one word on the board in its squares, then add
    tiles to it (:attr:`Move.tiles` spell the whole new word, every square)."""
    RECYCLE = "recycle"
    """Variation, at the start of a turn: put a rack tile on a square in place
    of the letter there, which goes to the rack. The turn goes on."""
    BLANK_SWAP = "blank swap"
    """Variation, at the start of a turn: put the letter a played blank
    stands for in its place and take the blank. The turn goes on."""

    @property
    def ends_turn(self) -> bool:
        """False for the actions a turn may start with (recycle, blank swap)."""
        return self not in (MoveKind.RECYCLE, MoveKind.BLANK_SWAP)


@dataclass(frozen=True)
class Move:
    """One player's action on their turn.

    For :attr:`MoveKind.PLACE`, :attr:`tiles` is the whole word from its first
    square (``row``, ``col``) in its direction, with :data:`PLAYED_THROUGH`
    (0) where a tile is already on the board. For an exchange, :attr:`tiles`
    are the rack tiles put back (0 is a blank). A pass has no tiles.
    """

    kind: MoveKind
    row: int = 0
    col: int = 0
    down: bool = False
    tiles: tuple[Tile, ...] = ()
    through: tuple[Tile, ...] = field(default=(), compare=False, repr=False)
    """For a placement read from text, the letter the text gave each
    played-through square (``FA(R)M``), else 0 (``.``, or a tile placed);
    empty when no letters were given. The board checks them against its
    tiles (:meth:`tilebag.Board.check_placement`); they do not take part in
    comparisons.

    >>> Move.from_gcg("H6 FA(R)M").through
    (0, 0, 18, 0)
    """

    @classmethod
    def place(cls, row: int, col: int, down: bool, tiles: Sequence[Tile], through: Sequence[Tile] = ()) -> Move:
        """A placement from its first square (0-based row and column)."""
        return cls(MoveKind.PLACE, row, col, down, tuple(tiles), tuple(through) if any(through) else ())

    @classmethod
    def exchange(cls, tiles: Sequence[Tile]) -> Move:
        """An exchange of the given rack tiles (0 for a blank)."""
        return cls(MoveKind.EXCHANGE, tiles=tuple(sorted(tiles)))

    @classmethod
    def anagram(cls, row: int, col: int, down: bool, tiles: Sequence[Tile]) -> Move:
        """An anagram play: ``tiles`` spell the whole new word from its first
        square, the rearranged letters of the word on the board included."""
        return cls(MoveKind.ANAGRAM, row, col, down, tuple(tiles))

    @classmethod
    def recycle(cls, row: int, col: int, tile: Tile) -> Move:
        """Put rack ``tile`` (a designated blank: ``BLANK_BIT | letter``) on
        the square at ``row``, ``col`` and take the letter there."""
        return cls(MoveKind.RECYCLE, row, col, False, (tile,))

    @classmethod
    def blank_swap(cls, row: int, col: int) -> Move:
        """Take the blank at ``row``, ``col`` for the letter it stands for."""
        return cls(MoveKind.BLANK_SWAP, row, col)

    @classmethod
    def pass_(cls) -> Move:
        """A pass (also what exchanging no tiles amounts to)."""
        return cls(MoveKind.PASS)

    def __bool__(self) -> bool:
        return self.kind is not MoveKind.PASS

    @property
    def is_place(self) -> bool:
        return self.kind is MoveKind.PLACE

    @property
    def is_exchange(self) -> bool:
        return self.kind is MoveKind.EXCHANGE

    def squares(self) -> Iterator[tuple[int, int, Tile]]:
        """``(row, col, tile)`` of every square the word covers, played-through
        squares included (tile 0)."""
        dr, dc = (1, 0) if self.down else (0, 1)
        for i, tile in enumerate(self.tiles):
            yield self.row + dr * i, self.col + dc * i, tile

    def placed(self) -> list[tuple[int, int, Tile]]:
        """``(row, col, tile)`` of the tiles this move puts on the board
        (worked out once per move: checking, scoring and playing it all ask)."""
        found: tuple[tuple[int, int, Tile], ...] | None = self.__dict__.get("_placed")
        if found is None:
            found = tuple((r, c, t) for r, c, t in self.squares() if t != PLAYED_THROUGH)
            object.__setattr__(self, "_placed", found)
        return list(found)

    @property
    def tiles_used(self) -> list[Tile]:
        """The tiles leaving the rack (designated blanks as such). For an
        anagram play, which tiles are new depends on the board: see
        :meth:`tilebag.Game.check`."""
        if self.kind is MoveKind.PLACE:
            return [t for t in self.tiles if t != PLAYED_THROUGH]
        if self.kind is MoveKind.BLANK_SWAP:
            return []
        return list(self.tiles)

    @classmethod
    def from_gcg(
        cls,
        text: str,
        alphabet: Alphabet | None = None,
        layout: BoardLayout | None = None,
    ) -> Move:
        """Parse a move in GCG notation: ``8F HORN`` (across), ``H6 FA.M`` or
        ``H6 FA(R)M`` (down, through a tile on the board), ``-ABC`` (exchange),
        ``-`` (pass). Blanks are lower case in a word and ``?`` in an exchange.

        A letter written out on a square that already holds it (as some
        programs record) is resolved by :meth:`tilebag.Game.parse_move`.

        :raises InvalidMoveError: when the text is not a move (or is longer
            than :data:`MAX_MOVE_CHARS`).
        """
        if len(text) > MAX_MOVE_CHARS:
            raise InvalidMoveError(f"{quote(text)} is too long to be a move (at most {MAX_MOVE_CHARS} characters)")
        alphabet = alphabet or load_alphabet("english")
        layout = layout or load_layout("standard")
        parts = text.split()
        if not parts:
            raise InvalidMoveError("empty move: type a placement such as '8F HORN', '-ABC' to exchange or '-' to pass")
        if parts[0] == "-" and len(parts) == 1:
            return cls.pass_()
        if parts[0].startswith("-") and len(parts) == 1:
            letters = parts[0][1:]
            if letters.isdigit():
                raise InvalidMoveError(f"{quote(text)}: an exchange must name its tiles (a count alone is only for records)")
            try:
                return cls.exchange(alphabet.parse_rack(letters))
            except InvalidMoveError as err:
                raise InvalidMoveError(f"{quote(text)}: {err}") from None
        keyword = parts[0].lower()
        if keyword in ("recycle", "swap", "anagram"):
            return cls._variation_from_text(text, parts, alphabet, layout)
        if len(parts) != 2:
            raise InvalidMoveError(f"{quote(text)} is not a move: expected a position and a word, such as '8F HORN'")
        try:
            row, col, down = layout.parse_position(parts[0])
            tiles, through = _parse_placement(parts[1], alphabet)
        except InvalidMoveError as err:
            message = str(err)
            for part in parts:
                if message.startswith(f"{quote(part)}: "):
                    message = message[len(quote(part)) + 2 :]
            raise InvalidMoveError(f"{quote(text)}: {message}") from None
        return cls.place(row, col, down, tiles, through)

    @classmethod
    def _variation_from_text(
        cls, text: str, parts: list[str], alphabet: Alphabet, layout: BoardLayout
    ) -> Move:
        """``recycle H8 X``, ``swap H8`` (blank swap), ``anagram 8D STARE``."""
        keyword = parts[0].lower()
        shapes = {"recycle": "recycle H8 X", "swap": "swap H8", "anagram": "anagram 8D STARE"}
        if len(parts) != (2 if keyword == "swap" else 3):
            raise InvalidMoveError(f"{quote(text)}: write it as {shapes[keyword]!r}")
        try:
            if keyword == "anagram":
                row, col, down = layout.parse_position(parts[1])
                tiles = alphabet.parse_word(parts[2])
                return cls.anagram(row, col, down, tiles)
            row, col = divmod(layout.parse_square(parts[1]), layout.cols)
            if keyword == "swap":
                return cls.blank_swap(row, col)
            tile = alphabet.parse_word(parts[2])
            if len(tile) != 1:
                raise InvalidMoveError(f"{quote(parts[2])}: recycle one tile at a time")
            return cls.recycle(row, col, tile[0])
        except InvalidMoveError as err:
            raise InvalidMoveError(f"{quote(text)}: {err}") from None

    def gcg(self, alphabet: Alphabet | None = None, layout: BoardLayout | None = None) -> str:
        """The move in GCG notation, played-through squares as ``.`` (or as
        the letters the move was written with, ``FA(R)M``); the
        variations' actions as tilebag writes them (``recycle H8 X``,
        ``swap H8``, ``anagram 8D STARE``).

        >>> Move.exchange([0, 5]).gcg()
        '-E?'
        >>> Move.recycle(7, 7, 26).gcg(), Move.blank_swap(0, 3).gcg()
        ('recycle H8 Z', 'swap D1')
        """
        alphabet = alphabet or load_alphabet("english")
        if self.kind is MoveKind.PASS:
            return "-"
        if self.kind is MoveKind.EXCHANGE:
            return "-" + alphabet.format_rack(self.tiles)
        layout = layout or load_layout("standard")
        if self.kind is MoveKind.RECYCLE:
            return f"recycle {layout.square_name(self.row * layout.cols + self.col)} {alphabet.format_word(self.tiles)}"
        if self.kind is MoveKind.BLANK_SWAP:
            return f"swap {layout.square_name(self.row * layout.cols + self.col)}"
        if self.kind is MoveKind.ANAGRAM:
            return f"anagram {layout.position_name(self.row, self.col, self.down)} {alphabet.format_word(self.tiles)}"
        return f"{layout.position_name(self.row, self.col, self.down)} {self._word(alphabet)}"

    def _word(self, alphabet: Alphabet) -> str:
        """A placement's word: ``.`` for a played-through square, or the
        letter given for it in parentheses (``FA(R)M``)."""
        parts: list[str] = []
        open_run = False
        for i, t in enumerate(self.tiles):
            written = self.through[i] if self.through and t == PLAYED_THROUGH else 0
            if written and not open_run:
                parts.append("(")
            elif open_run and not written:
                parts.append(")")
            open_run = bool(written)
            parts.append(alphabet.label(written) if written else "." if t == PLAYED_THROUGH else alphabet.label(t))
        return "".join(parts) + (")" if open_run else "")

    def __repr__(self) -> str:
        try:
            return f"Move.from_gcg({self.gcg()!r})"
        except (IndexError, ValueError):
            return f"Move({self.kind}, row={self.row}, col={self.col}, down={self.down}, tiles={self.tiles})"

    def __str__(self) -> str:
        return self.gcg()


def parse_placement_word(word: str, alphabet: Alphabet) -> tuple[Tile, ...]:
    """Tiles of a placement's word: ``.`` or a parenthesised run for tiles
    already on the board (each becomes :data:`PLAYED_THROUGH`).

    >>> parse_placement_word("FA(R)M", load_alphabet("english"))
    (6, 1, 0, 13)
    """
    return _parse_placement(word, alphabet)[0]


def _parse_placement(word: str, alphabet: Alphabet) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """A placement word's tiles and, per square, the letter written in
    parentheses for a played-through square (0 elsewhere)."""
    tiles: list[Tile] = []
    through: list[Tile] = []
    i = 0
    while i < len(word):
        ch = word[i]
        if ch == ".":
            tiles.append(PLAYED_THROUGH)
            through.append(0)
            i += 1
        elif ch == "(":
            end = word.find(")", i)
            if end < 0:
                raise InvalidMoveError(f"{quote(word)}: '(' without ')'")
            inner = word[i + 1 : end]
            if not inner:
                raise InvalidMoveError(f"{quote(word)}: empty parentheses")
            letters = alphabet.parse_word(inner)
            tiles.extend(PLAYED_THROUGH for _ in letters)
            through.extend(letters)
            i = end + 1
        else:
            j = i
            while j < len(word) and word[j] not in ".(":
                j += 1
            letters = alphabet.parse_word(word[i:j])
            tiles.extend(letters)
            through.extend(0 for _ in letters)
            i = j
    if not tiles:
        raise InvalidMoveError(f"{quote(word)}: no tiles")
    return tuple(tiles), tuple(through)
