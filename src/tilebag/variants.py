"""The house-rule variations that move tiles already played: anagram plays,
recycling and blank swaps, checked against a board.

Each check raises :class:`~tilebag.errors.IllegalMoveError` naming what is
wrong and changes nothing; :class:`tilebag.Game` applies what they accept.

**Anagram** (the rule sheet's variation a): before adding tiles, a player may
rearrange the letters of one word on the board, in its own squares, then add
one or more tiles to it. The move names the whole new word, the rearranged
letters included. The new word, the cross-words of the added tiles and every
cross-word a moved letter changed must be acceptable. Premium squares under
the original word do not count (they were used when it was played): the
changed cross-words score their face value.

>>> from tilebag.board import Board
>>> board = Board()
>>> board.place(Move.from_gcg("8G EAT"))
>>> play = check_anagram(board, Move.anagram(7, 6, False, board.alphabet.parse_word("TEAS")))
>>> board.alphabet.format_word(play.words[0].tiles), play.score, play.tiles_used == [19]
('TEAS', 4, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tilebag.alphabet import BLANK_BIT, Tile
from tilebag.board import EMPTY, Board, Word
from tilebag.errors import Illegal, IllegalMoveError, InvalidMoveError
from tilebag.layout import Square
from tilebag.move import PLAYED_THROUGH, Move, MoveKind

__all__ = ["AnagramPlay", "check_anagram", "apply_anagram", "recycled_words", "check_recycle", "check_blank_swap"]


@dataclass(frozen=True)
class AnagramPlay:
    """An anagram play, checked against a board."""

    move: Move
    """The play as given: the whole new word."""
    squares: tuple[Square, ...]
    """The squares of the word rearranged."""
    rearranged: tuple[Tile, ...]
    """The tiles on those squares after the rearrangement."""
    placement: Move
    """The tiles added, as a placement on the rearranged board."""
    words: list[Word]
    """Every word formed or changed: the new word first, then the added
    tiles' cross-words, then the cross-words the rearrangement changed."""
    score: int
    tiles_used: list[Tile]
    """The tiles that leave the rack."""


def check_anagram(
    board: Board, move: Move, *, bingo_tiles: int = 7, bingo_bonus: int = 50
) -> AnagramPlay:
    """Check an anagram play and score it.

    :raises IllegalMoveError: when it does not rearrange exactly one word of
        two letters or more in its squares, adds no tile, leaves a gap or a
        word unfinished.
    """
    if move.kind is not MoveKind.ANAGRAM:
        raise InvalidMoveError(f"{move.kind.value} is not an anagram play")
    layout = board.layout
    text = move.gcg(board.alphabet, layout)
    if not move.tiles or any(t == PLAYED_THROUGH for t in move.tiles):
        raise InvalidMoveError(f"{text}: an anagram play spells out the whole new word, every square")
    dr, dc = (1, 0) if move.down else (0, 1)
    squares: list[Square] = []
    for i in range(len(move.tiles)):
        r, c = move.row + dr * i, move.col + dc * i
        if not layout.on_board(r, c):
            raise IllegalMoveError(Illegal.OFF_BOARD, f"{text}: runs off the board at its tile {i + 1}")
        squares.append(layout.square(r, c))
    for r, c in ((move.row - dr, move.col - dc), (move.row + dr * len(move.tiles), move.col + dc * len(move.tiles))):
        if layout.on_board(r, c) and board.at(r, c) != EMPTY:
            raise IllegalMoveError(
                Illegal.WORD_INCOMPLETE,
                f"{text}: the word continues onto {layout.square_name(layout.square(r, c))}",
            )
    occupied = [i for i, s in enumerate(squares) if board.tiles[s] != EMPTY]
    added = [i for i, s in enumerate(squares) if board.tiles[s] == EMPTY]
    if len(occupied) < 2 or occupied != list(range(occupied[0], occupied[-1] + 1)):
        raise IllegalMoveError(
            Illegal.NOT_AN_ANAGRAM,
            f"{text}: an anagram play rearranges one word of two letters or more on the board, in its squares",
        )
    if not added:
        raise IllegalMoveError(Illegal.NO_TILES, f"{text}: an anagram play adds at least one tile to the word")
    old = [board.tiles[squares[i]] for i in occupied]
    new = [move.tiles[i] for i in occupied]
    if Counter(old) != Counter(new):
        word = board.alphabet.format_word(old)
        raise IllegalMoveError(
            Illegal.NOT_AN_ANAGRAM,
            f"{text}: {board.alphabet.format_word(new)} is not a rearrangement of {word} "
            "(the same tiles, a blank still standing for its letter)",
        )
    play_squares = tuple(squares[i] for i in occupied)
    rearranged = tuple(new)
    staged = board.copy()
    for square, tile in zip(play_squares, rearranged, strict=True):
        staged.tiles[square] = tile
    placement = staged.check_placement(
        Move.place(move.row, move.col, move.down, [PLAYED_THROUGH if i in occupied else t for i, t in enumerate(move.tiles)])
    )
    words = staged.words(placement)
    for square, before, after in zip(play_squares, old, rearranged, strict=True):
        if before != after:
            r, c = divmod(square, layout.cols)
            cross = _face_word(staged, r, c, not move.down)
            if cross is not None:
                words.append(cross)
    used = [move.tiles[i] for i in added]
    score = sum(w.score for w in words) + (bingo_bonus if len(used) >= bingo_tiles else 0)
    return AnagramPlay(move, play_squares, rearranged, placement, words, score, used)


def apply_anagram(board: Board, play: AnagramPlay) -> None:
    """Rearrange the word and add the tiles (a play checked on this board)."""
    for square, tile in zip(play.squares, play.rearranged, strict=True):
        board.tiles[square] = tile
    board.place(play.placement)


def check_recycle(board: Board, move: Move) -> list[tuple[Tile, ...]]:
    """Check a recycle against the board (not the rack or the lexicon) and
    return the words through the square after it, whose letters it changes
    (none when the letter stays the same, as when a tile replaces a blank
    standing for its letter).

    :raises IllegalMoveError: when the square is empty or nothing would change.
    """
    layout = board.layout
    square_text = move.gcg(board.alphabet, layout)
    if not layout.on_board(move.row, move.col):
        raise IllegalMoveError(Illegal.OFF_BOARD, f"{square_text}: not a square of the board")
    if len(move.tiles) != 1 or move.tiles[0] in (EMPTY, BLANK_BIT):
        raise InvalidMoveError(f"{square_text}: recycle puts one letter (or a blank standing for one) on the square")
    old = board.at(move.row, move.col)
    if old == EMPTY:
        raise IllegalMoveError(Illegal.NO_CHANGE, f"{square_text}: the square is empty, there is no letter to recycle")
    new = move.tiles[0]
    if new == old:
        raise IllegalMoveError(Illegal.NO_CHANGE, f"{square_text}: the same tile is already there")
    if new & ~BLANK_BIT == old & ~BLANK_BIT:
        return []
    return recycled_words(board, move.row, move.col, new)


def recycled_words(board: Board, row: int, col: int, tile: Tile) -> list[tuple[Tile, ...]]:
    """The words (two letters or more) through a square, across then down,
    with ``tile`` on it instead of what is there."""
    staged = board.copy()
    staged.tiles[staged.layout.square(row, col)] = tile
    words = []
    for down in (False, True):
        word = _face_word(staged, row, col, down)
        if word is not None:
            words.append(word.tiles)
    return words


def check_blank_swap(board: Board, move: Move, rack: Sequence[Tile]) -> Tile:
    """Check a blank swap and return the letter tile it takes from the rack.

    :raises IllegalMoveError: when the square holds no blank or the rack
        lacks the letter it stands for.
    """
    layout = board.layout
    text = move.gcg(board.alphabet, layout)
    if not layout.on_board(move.row, move.col):
        raise IllegalMoveError(Illegal.OFF_BOARD, f"{text}: not a square of the board")
    tile = board.at(move.row, move.col)
    if tile == EMPTY or not tile & BLANK_BIT:
        raise IllegalMoveError(Illegal.NO_CHANGE, f"{text}: no blank on that square to swap")
    letter = tile & ~BLANK_BIT
    if letter not in rack:
        raise IllegalMoveError(
            Illegal.TILE_NOT_ON_RACK,
            f"{text}: the blank stands for {board.alphabet.label(letter)}, "
            f"and the rack {board.alphabet.format_rack(rack)} has no {board.alphabet.label(letter)}",
        )
    return letter


def _face_word(board: Board, row: int, col: int, down: bool) -> Word | None:
    """The word through a square in one direction, scored at face value (no
    premiums), or ``None`` when it is a lone letter."""
    layout = board.layout
    dr, dc = (1, 0) if down else (0, 1)
    r, c = row, col
    while layout.on_board(r - dr, c - dc) and board.at(r - dr, c - dc) != EMPTY:
        r, c = r - dr, c - dc
    start = (r, c)
    tiles: list[Tile] = []
    while layout.on_board(r, c) and board.at(r, c) != EMPTY:
        tiles.append(board.at(r, c))
        r, c = r + dr, c + dc
    if len(tiles) < 2:
        return None
    return Word(start[0], start[1], down, tuple(tiles), sum(board.alphabet.score(t) for t in tiles))
