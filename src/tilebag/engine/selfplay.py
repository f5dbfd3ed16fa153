"""Self-play: bots play complete games against each other.

Each game is seeded (``seed + game number``), so a run is reproducible, and
can be written as a GCG record. Seats rotate from game to game; who moves
first is drawn as the rules say. The summary gives each bot's wins (a draw
counts half) with a 95% Wilson interval, its mean score and bingos per game.

>>> summary = run_selfplay(["static", "greedy"], games=1, seed=5)
>>> summary.games, len(summary.bots)
(1, 2)
>>> sum(bot.wins for bot in summary.bots)
1.0
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tilebag.engine.bots import make_bot
from tilebag.engine.players import Player
from tilebag.formats import gcg
from tilebag.game import Game
from tilebag.lexicon import Lexicon
from tilebag.move import Move, MoveKind
from tilebag.progress import Progress
from tilebag.rules import Rules
from tilebag.table import Table


@dataclass
class BotSummary:
    """One bot's results over a run."""

    name: str
    games: int = 0
    wins: float = 0.0
    """Games won; a draw counts half."""
    points: int = 0
    bingos: int = 0

    @property
    def mean_score(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def bingos_per_game(self) -> float:
        return self.bingos / self.games if self.games else 0.0

    def win_interval(self, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of the win rate (95% by default)."""
        return wilson_interval(self.wins, self.games, z)


@dataclass
class Summary:
    """What a self-play run produced."""

    bots: list[BotSummary]
    games: int = 0
    seconds: float = 0.0
    records: list[Path] = field(default_factory=list)

    @property
    def seconds_per_game(self) -> float:
        return self.seconds / self.games if self.games else 0.0

    def text(self) -> str:
        """A short report, one line per bot."""
        lines = [f"{self.games} games, {self.seconds_per_game * 1000:.0f} ms per game"]
        for bot in self.bots:
            low, high = bot.win_interval()
            rate = bot.wins / bot.games if bot.games else 0.0
            lines.append(
                f"{bot.name}: {bot.wins:g} wins ({rate:.1%}, 95% interval {low:.1%}-{high:.1%}), "
                f"mean score {bot.mean_score:.1f}, {bot.bingos_per_game:.2f} bingos per game"
            )
        return "\n".join(lines)


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def play_game(
    bots: Sequence[Player],
    *,
    seed: int,
    rules: Rules | None = None,
    lexicon: Lexicon | None = None,
    on_move: Callable[[Game, Move], None] | None = None,
    first: int | None = None,
) -> Game:
    """One complete game between bots (seat order as given), played at a
    :class:`~tilebag.table.Table` as any game with bots is. A bot's turn may
    take several moves (recycles and blank swaps keep the turn).

    :param on_move: called with the game and each move before it is pushed.
    :param first: the seat that moves first (default: drawn as the rules say).
    """
    game = Game([bot.name for bot in bots], rules=rules, lexicon=lexicon, seed=seed, first=first)
    table = Table(game, dict(enumerate(bots)), details=False)
    table.before_move = on_move
    table.run_bots()
    return game


def tiles_placed(game: Game, move: Move) -> int:
    """Rack tiles a move would put on the board now (an anagram play's
    rearranged letters are not counted: they were on the board already)."""
    if move.kind is MoveKind.ANAGRAM:
        return len(game.anagram_play(move).tiles_used)
    if move.kind is MoveKind.PLACE:
        return len(move.placed())
    return 0


def run_selfplay(
    kinds: Sequence[str],
    *,
    games: int,
    seed: int,
    out: Path | None = None,
    rules: Rules | None = None,
    lexicon: Lexicon | None = None,
    progress: bool | None = None,
    on_game: Callable[[int, Game], None] | None = None,
) -> Summary:
    """Play ``games`` games between bots of the given kinds (``beginner``,
    ``greedy``, ``static``: :data:`tilebag.engine.bots.BOTS`), writing each
    record to ``out`` when given."""
    names = _seat_names(kinds)
    bots = [make_bot(kind, name) for kind, name in zip(kinds, names, strict=True)]
    summary = Summary([BotSummary(name) for name in names])
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with Progress(games, "games", enabled=progress) as bar:
        for number in range(games):
            shift = number % len(bots)
            seated = bots[shift:] + bots[:shift]
            bingos = [0] * len(seated)

            def count_bingo(game: Game, move: Move, bingos: list[int] = bingos) -> None:
                if tiles_placed(game, move) >= game.rules.bingo_tiles:
                    bingos[game.turn] += 1

            game = play_game(seated, seed=seed + number, rules=rules, lexicon=lexicon, on_move=count_bingo)
            _tally(summary, game, seated, bingos)
            if out is not None:
                path = out / f"game-{seed + number:06d}.gcg"
                record = game.record()
                record.id = f"tilebag-selfplay-{seed + number}"
                gcg.dump(record, path)
                summary.records.append(path)
            if on_game is not None:
                on_game(number, game)
            summary.games += 1
            bar.advance()
    summary.seconds = time.perf_counter() - started
    return summary


def _seat_names(kinds: Sequence[str]) -> list[str]:
    """Distinct names: the kind, numbered when a kind plays itself."""
    lowered = [kind.lower() for kind in kinds]
    seen: dict[str, int] = {}
    names: list[str] = []
    for kind in lowered:
        seen[kind] = seen.get(kind, 0) + 1
        names.append(f"{kind}{seen[kind]}" if lowered.count(kind) > 1 else kind)
    return names


def _tally(summary: Summary, game: Game, seated: Sequence[Player], bingos: Sequence[int]) -> None:
    outcome = game.outcome()
    assert outcome is not None
    by_name = {bot.name: bot for bot in summary.bots}
    winners = outcome.winners
    for seat, bot in enumerate(seated):
        entry = by_name[bot.name]
        entry.games += 1
        entry.points += game.players[seat].score
        if seat in winners:
            entry.wins += 1.0 / len(winners)
        entry.bingos += bingos[seat]
