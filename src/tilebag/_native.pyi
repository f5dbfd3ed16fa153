"""Type stub of the compiled core (``_native.c``)."""

from collections.abc import Sequence
from typing import overload

@overload
def placements(
    nodes: object,
    gaddag_root: int,
    dawg_root: int,
    rows: int,
    cols: int,
    board: bytes,
    letter_mult: bytes,
    word_mult: bytes,
    scores: Sequence[int],
    start: int,
    rack: bytes,
    bingo_tiles: int,
    bingo_bonus: int,
    first_min: int,
    /,
) -> list[tuple[int, int, bool, bytes, int]]: ...
@overload
def placements(
    nodes: object,
    gaddag_root: int,
    dawg_root: int,
    rows: int,
    cols: int,
    board: bytes,
    letter_mult: bytes,
    word_mult: bytes,
    scores: Sequence[int],
    start: int,
    rack: bytes,
    bingo_tiles: int,
    bingo_bonus: int,
    first_min: int,
    strides: bytes,
    leave_values: Sequence[float],
    top: int,
    /,
) -> list[tuple[int, int, bool, bytes, int, float, int]]: ...
