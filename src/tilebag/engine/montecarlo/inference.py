"""What the opponent kept: the leaves that explain the opponent's last play.

A placement shows the tiles played, not the ones kept. But a player who
chooses well keeps tiles that made the play the best one: an opponent who
played ``8D ZA`` for a few points with a bingo-prone rack would not have,
so some leaves are more likely than others. :func:`infer_leaves` draws
leaves from the tiles the player cannot see, as the deal would (each leave
as often as the unseen tiles make it), and keeps those with which the
static player would have made the same play, or one worth no more than
``margin`` points more. A simulation then deals the opponent one of those
leaves and draws the rest of the rack (Macondo and Quackle call this
inference).

>>> from tilebag import Game
>>> from tilebag.engine.players import StaticPlayer
>>> game = Game(["me", "them"], seed=5)
>>> bot = StaticPlayer("them")
>>> _ = game.push(bot.choose(game))  # the first player's play, seen by the second
>>> found = infer_from_game(game, game.engine, seed=1)
>>> found is not None and found.tried > 0 and all(len(leave) == len(found.leaves[0]) for leave in found.leaves)
True
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tilebag.alphabet import Tile, rack_tile
from tilebag.board import Board
from tilebag.engine import Engine
from tilebag.game import Game
from tilebag.move import Move, MoveKind
from tilebag.record import EventKind

MILLIPOINTS = 1000


@dataclass(frozen=True)
class Inference:
    """The leaves found to explain a play, as often as they were drawn."""

    leaves: tuple[tuple[Tile, ...], ...]
    """The leaves kept, each sorted; a leave drawn twice is here twice."""
    tried: int
    """How many leaves were drawn and tested."""

    @property
    def share(self) -> float:
        """The share of the leaves drawn that explain the play."""
        return len(self.leaves) / self.tried if self.tried else 0.0

    def chances(self) -> list[tuple[tuple[Tile, ...], float]]:
        """Each leave found and its chance, the likeliest first (then in
        tile order).

        >>> Inference(((1, 2), (3,), (1, 2), (1, 2)), 10).chances()
        [((1, 2), 0.75), ((3,), 0.25)]
        """
        counted = Counter(self.leaves)
        total = len(self.leaves)
        return [(leave, n / total) for leave, n in sorted(counted.items(), key=lambda item: (-item[1], item[0]))]


def infer_leaves(
    engine: Engine,
    board: Board,
    move: Move,
    score: int,
    unseen: Sequence[Tile],
    leave_size: int,
    *,
    bag_count: int,
    seed: int | random.Random,
    margin: float = 0.0,
    samples: int = 4000,
    seconds: float = 0.1,
    stop: Callable[[], bool] | None = None,
    enough: int | None = None,
) -> Inference:
    """The leaves of ``leave_size`` tiles, drawn from ``unseen``, with which
    the static player's best play on ``board`` (before ``move``, with
    ``bag_count`` tiles in the bag) is ``move`` or worth at most ``margin``
    points more than it. Draws ``samples`` leaves at most, for ``seconds``
    at most, until ``enough`` are kept (if given), or until ``stop`` says
    so; a leave drawn again is not searched again. ``seed`` is a seed, or a
    generator to go on drawing from: a search cut into stretches then draws
    the leaves one search of the same samples would, however fast it ran.

    :raises ValueError: when ``move`` is not a placement or the leave does
        not fit the unseen tiles.
    """
    if move.kind is not MoveKind.PLACE:
        raise ValueError(f"only a placement's leave can be inferred, not a {move.kind.value}")
    if not 0 <= leave_size <= len(unseen):
        raise ValueError(f"a leave of {leave_size} tiles cannot come from {len(unseen)} unseen tiles")
    played = [rack_tile(t) for t in move.tiles_used]
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    pool = sorted(unseen)
    deadline = time.monotonic() + seconds
    verdicts: dict[tuple[Tile, ...], bool] = {}
    leaves: list[tuple[Tile, ...]] = []
    tried = 0
    allowed = round(margin * MILLIPOINTS)
    while tried < samples and (tried == 0 or time.monotonic() < deadline and not (stop is not None and stop())):
        if enough is not None and len(leaves) >= enough:
            break
        leave = tuple(sorted(rng.sample(pool, leave_size)))
        tried += 1
        verdict = verdicts.get(leave)
        if verdict is None:
            rack = played + list(leave)
            best = engine.best(board, rack, bag_count=bag_count)
            verdict = best is not None and (
                best.move == move or best.equity - engine.equity(move, score, rack, bag_count=bag_count) <= allowed
            )
            verdicts[leave] = verdict
        if verdict:
            leaves.append(leave)
    return Inference(tuple(leaves), tried)


def infer_from_game(game: Game, engine: Engine, *, seed: int, margin: float = 0.0, samples: int = 4000,
                    seconds: float = 0.1, enough: int | None = None) -> Inference | None:
    """The leaves that explain the opponent's last turn, seen by the player
    to move: ``None`` unless that turn was a placement still on the board,
    in a two-player game, with tiles in the bag after it. Uses only what
    the player to move can see: the board, the unseen tiles and the number
    of tiles on the opponent's rack."""
    me = game.turn
    if len(game.players) != 2 or not game.events:
        return None
    last = game.events[-1]
    if last.kind is not EventKind.PLACE or last.player == me or last.move is None:
        return None
    return infer_after(
        engine, game.board, last.move, last.score, game.unseen(me), len(game.rack(1 - me)),
        bag_count=len(game.bag), seed=seed, margin=margin, samples=samples, seconds=seconds, enough=enough,
    )


def infer_after(
    engine: Engine,
    board: Board,
    move: Move,
    score: int,
    unseen: Sequence[Tile],
    rack_size: int,
    *,
    bag_count: int,
    seed: int | random.Random,
    margin: float = 0.0,
    samples: int = 4000,
    seconds: float = 0.1,
    stop: Callable[[], bool] | None = None,
    enough: int | None = None,
) -> Inference | None:
    """The leaves that explain the opponent's placement ``move`` (scoring
    ``score``), now on ``board``, seen by the player to move: ``unseen`` the
    tiles they cannot see, ``rack_size`` the tiles the opponent holds now
    and ``bag_count`` the tiles in the bag. ``None`` when nothing can be
    inferred: the bag is empty (the opponent drew less than it played, or
    holds all the unseen tiles), or the play used the whole rack."""
    played = [rack_tile(t) for t in move.tiles_used]
    leave_size = rack_size - len(played)  # the bag had tiles after it: the rack was refilled
    if move.kind is not MoveKind.PLACE or not bag_count or leave_size <= 0 or leave_size > len(unseen):
        return None
    before = board.copy()
    before.remove(move)
    return infer_leaves(
        engine, before, move, score, unseen, leave_size,
        bag_count=bag_count + len(played), seed=seed, margin=margin, samples=samples, seconds=seconds,
        stop=stop, enough=enough,
    )
