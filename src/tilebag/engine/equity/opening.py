"""The opening adjustment: what a first play gives away beside the premium squares.

On an empty board the first play's tiles lie in one line, and the squares
beside that line (above and below an across play) are the next player's
to use. A vowel beside a double or triple letter square is an easy hook: the
next player lays a heavy tile on the premium square, making a two-letter word
with the vowel, and scores it twice. On the standard board those are the
vowels an across opening puts in columns C, G, I and M.

The static evaluation takes :data:`OPENING_PENALTY` off a first play for each
such vowel (a blank counts as the letter it stands for). It mostly chooses
among placements of the same word that score alike, and sometimes gives up
a point of score to keep a vowel away from the premiums. The squares come from
the board layout, so any board is covered.

>>> from tilebag.board import Board
>>> from tilebag.move import Move
>>> board = Board()
>>> hot = HotSquares.of(board.layout)
>>> hot.vowels(Move.from_gcg("8G AIRTH"), board.alphabet)  # A on G8, beside G7 and G9
1
>>> hot.vowels(Move.from_gcg("8H AIRTH"), board.alphabet)  # A on H8, I on I8
1
>>> hot.vowels(Move.from_gcg("8E AIRTH"), board.alphabet)
0
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from tilebag.alphabet import BLANK_BIT, Alphabet
from tilebag.engine.movegen.generator import Play, play_order
from tilebag.layout import BoardLayout
from tilebag.move import Move, MoveKind

OPENING_PENALTY = 2_500
"""Millipoints taken off a first play for each vowel it puts beside a letter
premium square: 2.5 points. Measured with ``tilebag bench opening``
(:func:`tilebag.lab.bench.measure_penalties`) over 3,000 openings
(docs/leaves.md): against no penalty, 1 point a vowel gained 0.63 points an
opening, 2 to 3 points 0.67 to 0.69, 4 points 0.62 and 6 points 0.48
(standard errors 0.03 to 0.05)."""


@dataclass(frozen=True)
class HotSquares:
    """The squares of a layout beside a double or triple letter square,
    across the direction of play: for across plays (a premium above or
    below) and for down plays (to the left or right)."""

    across: frozenset[int]
    down: frozenset[int]
    cols: int

    @classmethod
    @functools.cache
    def of(cls, layout: BoardLayout) -> HotSquares:
        """The hot squares of ``layout`` (worked out once per layout)."""
        across: set[int] = set()
        down: set[int] = set()
        for row in range(layout.rows):
            for col in range(layout.cols):
                square = layout.square(row, col)
                for dr, dc, hot in ((1, 0, across), (0, 1, down)):
                    for r, c in ((row - dr, col - dc), (row + dr, col + dc)):
                        if layout.on_board(r, c) and layout.letter_multiplier(layout.square(r, c)) >= 2:
                            hot.add(square)
        return cls(frozenset(across), frozenset(down), layout.cols)

    def vowels(self, move: Move, alphabet: Alphabet) -> int:
        """How many vowels ``move`` puts on these squares (0 but for placements)."""
        if move.kind is not MoveKind.PLACE:
            return 0
        hot = self.down if move.down else self.across
        count = 0
        for row, col, tile in move.placed():
            if row * self.cols + col in hot and (tile & ~BLANK_BIT) in alphabet.vowels:
                count += 1
        return count


def adjust_opening(
    plays: Sequence[Play], layout: BoardLayout, alphabet: Alphabet, penalty: int, top: int | None = None
) -> list[Play]:
    """The plays of an empty board with their equity less ``penalty``
    millipoints for each vowel beside a letter premium, best first again
    (the best ``top`` of them when given).

    ``plays`` must be best first (as the generators list them): since the
    adjustment only takes equity off, the plays are read in order only until
    the next one, unadjusted, can no longer beat the ``top`` kept.
    """
    hot = HotSquares.of(layout)
    adjusted: list[Play] = []
    for play in plays:
        if top is not None and len(adjusted) >= top and play.equity < adjusted[top - 1].equity:
            break
        vowels = hot.vowels(play.move, alphabet)
        adjusted.append(dataclasses.replace(play, equity=play.equity - penalty * vowels) if vowels else play)
        if top is not None and len(adjusted) >= top:
            adjusted.sort(key=play_order)
            del adjusted[top:]
    adjusted.sort(key=play_order)
    return adjusted
