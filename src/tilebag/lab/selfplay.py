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
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from tilebag.batch import Job, backend_for, run_job
from tilebag.batch.results import ResultsFile
from tilebag.engine.bots import make_bot
from tilebag.engine.players import Player
from tilebag.errors import FormatError
from tilebag.formats import gcg
from tilebag.game import Game
from tilebag.lexicon import Lexicon
from tilebag.move import Move, MoveKind
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
    stopped: bool = False
    """True when the run was stopped (Ctrl+C) before its last game."""

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


@dataclass(frozen=True)
class GameDone:
    """One self-play game as a worker reports it: the seats' names, scores
    and bingos, the winning seats, and the GCG record when one is kept."""

    number: int
    names: tuple[str, ...]
    scores: tuple[int, ...]
    bingos: tuple[int, ...]
    winners: tuple[int, ...]
    record: str | None = None


@dataclass(frozen=True)
class SelfplayJob(Job[int, GameDone]):
    """Self-play for :mod:`tilebag.batch`: a game number's game. Workers
    make the bots once."""

    kinds: tuple[str, ...]
    seed: int
    rules: Rules | None = None
    lexicon: Lexicon | None = None
    records: bool = False

    def load(self) -> object:
        names = _seat_names(self.kinds)
        return [make_bot(kind, name) for kind, name in zip(self.kinds, names, strict=True)]

    def play(self, state: object, item: int) -> tuple[Game, list[int]]:
        """Game ``item`` (seats rotate from game to game) and each seat's bingos."""
        bots: list[Player] = state  # type: ignore[assignment]
        shift = item % len(bots)
        seated = bots[shift:] + bots[:shift]
        bingos = [0] * len(seated)

        def count_bingo(game: Game, move: Move) -> None:
            if tiles_placed(game, move) >= game.rules.bingo_tiles:
                bingos[game.turn] += 1

        game = play_game(seated, seed=self.seed + item, rules=self.rules, lexicon=self.lexicon, on_move=count_bingo)
        return game, bingos

    def run(self, state: object, item: int) -> GameDone:
        game, bingos = self.play(state, item)
        outcome = game.outcome()
        assert outcome is not None
        text = None
        if self.records:
            record = game.record()
            record.id = f"tilebag-selfplay-{self.seed + item}"
            text = gcg.dumps(record)
        return GameDone(item, tuple(p.name for p in game.players), tuple(p.score for p in game.players),
                        tuple(bingos), tuple(sorted(outcome.winners)), text)


def run_selfplay(
    kinds: Sequence[str],
    *,
    games: int,
    seed: int,
    out: Path | None = None,
    rules: Rules | None = None,
    lexicon: Lexicon | None = None,
    progress: bool | None = None,
    workers: int | None = 1,
    cluster: str | None = None,
) -> Summary:
    """Play ``games`` games between bots of the given kinds (``beginner``,
    ``greedy``, ``static``: :data:`tilebag.engine.bots.BOTS`), writing each
    record to ``out`` when given, on ``workers`` processes (``None``: every
    core) or a Ray cluster (see :func:`tilebag.batch.backend_for`). The
    games are the same however they are run. Ctrl+C stops the run
    (:attr:`Summary.stopped`) with the games finished; with ``out``, the
    same call goes on from there (``out/games.jsonl`` keeps each game).

    :raises ValueError: for an ``out`` folder of another run.
    """
    names = _seat_names(kinds)
    summary = Summary([BotSummary(name) for name in names])
    job = SelfplayJob(tuple(kinds), seed, rules, lexicon, records=out is not None)
    kept: dict[int, GameDone] = {}
    log: ResultsFile | None = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        log = ResultsFile(out / "games.jsonl", {"selfplay": list(kinds), "seed": seed, "rules": (rules or Rules()).name})
        kept = {done.number: done for done in (_game_from(data, log.path, n) for n, data in enumerate(log.load(), 2))}

    def finished(_index: int, done: GameDone) -> None:
        if out is not None and log is not None:
            path = out / f"game-{seed + done.number:06d}.gcg"
            assert done.record is not None
            path.write_text(done.record)
            log.add(asdict(replace(done, record=None)))
        _tally(summary, done)

    numbers = list(range(games))
    for number in numbers:
        if number in kept:
            _tally(summary, kept[number])
    run = run_job(job, numbers, backend_for(cluster, workers), skip=frozenset(kept), label="games",
                  progress=progress, on_result=finished)
    if out is not None:
        summary.records = [out / f"game-{seed + n:06d}.gcg" for n in numbers if n in kept or n in run.results]
    summary.seconds = run.seconds
    summary.stopped = run.stopped
    return summary


def _game_from(data: dict[str, Any], path: Path, line: int) -> GameDone:
    """A game kept in a self-play folder's ``games.jsonl``."""
    try:
        return GameDone(int(data["number"]), tuple(data["names"]), tuple(data["scores"]), tuple(data["bingos"]),
                        tuple(data["winners"]))
    except (KeyError, TypeError, ValueError) as error:
        raise FormatError(f"not a game ({error})", source=str(path), line=line) from None


def _seat_names(kinds: Sequence[str]) -> list[str]:
    """Distinct names: the kind, numbered when a kind plays itself."""
    lowered = [kind.lower() for kind in kinds]
    seen: dict[str, int] = {}
    names: list[str] = []
    for kind in lowered:
        seen[kind] = seen.get(kind, 0) + 1
        names.append(f"{kind}{seen[kind]}" if lowered.count(kind) > 1 else kind)
    return names


def _tally(summary: Summary, done: GameDone) -> None:
    by_name = {bot.name: bot for bot in summary.bots}
    for seat, name in enumerate(done.names):
        entry = by_name[name]
        entry.games += 1
        entry.points += done.scores[seat]
        if seat in done.winners:
            entry.wins += 1.0 / len(done.winners)
        entry.bingos += done.bingos[seat]
    summary.games += 1
