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
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tilebag.alphabet import BLANK_BIT, Alphabet
from tilebag.board import Board
from tilebag.engine.equity import MILLIPOINTS
from tilebag.engine.movegen import Play, play_order
from tilebag.layout import BoardLayout
from tilebag.move import Move, MoveKind

if TYPE_CHECKING:
    from tilebag.engine import Engine

OPENING_PENALTY = 2_500
"""Millipoints taken off a first play for each vowel it puts beside a letter
premium square: 2.5 points. Measured with ``tilebag bench opening`` over
3,000 openings (docs/leaves.md): against no penalty, 1 point a vowel gained
0.63 points an opening, 2 to 3 points 0.67 to 0.69, 4 points 0.62 and 6
points 0.48 (standard errors 0.03 to 0.05)."""


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


# -- measuring it ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PenaltyGain:
    """What a penalty gained over none on the openings measured."""

    penalty: int
    """Millipoints a vowel."""
    openings: int
    changed: int
    """Openings where the play chosen differs from the one chosen with no penalty."""
    gain: float
    """Mean points gained an opening: the play's equity less the mean best reply."""
    error: float
    """The standard error of ``gain``."""

    def as_dict(self) -> dict[str, object]:
        return {
            "penalty": self.penalty / MILLIPOINTS,
            "openings": self.openings,
            "changed": self.changed,
            "gain": round(self.gain, 3),
            "error": round(self.error, 3),
        }

    def text(self) -> str:
        return (
            f"{self.penalty / MILLIPOINTS:g} points a vowel: another play in {self.changed} of "
            f"{self.openings} openings, {self.gain:+.2f} points an opening (standard error {self.error:.2f})"
        )


@dataclass(frozen=True)
class OpeningBench:
    """The gains of the penalties measured, and whether the run was stopped early."""

    gains: list[PenaltyGain]
    replies: int
    stopped: bool = False

    def as_dict(self) -> dict[str, object]:
        return {"replies": self.replies, "stopped": self.stopped, "gains": [g.as_dict() for g in self.gains]}

    def text(self) -> str:
        return "\n".join(g.text() for g in self.gains)


def measure_penalties(
    engine: Engine,
    penalties: Sequence[int],
    *,
    openings: int = 1000,
    replies: int = 50,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
) -> OpeningBench:
    """Value each penalty (millipoints a vowel) on ``openings`` random
    opening racks: the play it chooses is worth its equity (score and
    leave, no penalty) less the mean equity of the best reply over
    ``replies`` racks drawn from the tiles the player did not draw (the same
    racks for every penalty). Gives each one's gain over no penalty; Ctrl+C
    stops it with the openings done so far.
    """
    plain = engine.with_opening_penalty(0)
    alphabet, layout = plain.alphabet, plain.layout
    rng = random.Random(seed)
    gains: dict[int, list[float]] = {p: [] for p in penalties}
    changed = dict.fromkeys(penalties, 0)
    rack_size = plain.rules.rack_size
    stopped = False
    try:
        for number in range(openings):
            if progress is not None:
                progress(number)
            bag = alphabet.distribution()
            rng.shuffle(bag)
            rack, rest = bag[:rack_size], bag[rack_size:]
            board = Board(layout, alphabet)
            plays = list(plain.plays(board, rack, bag_count=len(rest)))
            chosen = {p: adjust_opening(plays, layout, alphabet, p, 1)[0] for p in (0, *penalties)}
            if not chosen[0].move.is_place:
                continue
            draws = random.Random(seed * 1_000_003 + number)
            racks = []
            for _ in range(replies):
                pool = list(rest)
                draws.shuffle(pool)
                racks.append(pool[:rack_size])
            worth: dict[Move, float] = {}
            for play in chosen.values():
                if play.move in worth or not play.move.is_place:
                    continue
                after = board.copy()
                after.place(play.move)
                answers = [plain.best(after, other, bag_count=len(rest) - rack_size) for other in racks]
                mean = statistics.fmean(a.equity if a is not None else 0 for a in answers)
                worth[play.move] = (play.equity - mean) / MILLIPOINTS
            base = worth[chosen[0].move]
            for p in penalties:
                play = chosen[p]
                if play.move in worth:
                    gains[p].append(worth[play.move] - base)
                    changed[p] += play.move != chosen[0].move
        if progress is not None:
            progress(openings)
    except KeyboardInterrupt:
        stopped = True
    result = []
    for p in penalties:
        values = gains[p]
        mean = statistics.fmean(values) if values else 0.0
        error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
        result.append(PenaltyGain(p, len(values), changed[p], mean, error))
    return OpeningBench(result, replies, stopped)
