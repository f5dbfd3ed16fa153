"""Many game records analysed at once, on every core or on a Ray cluster.

The records are read (and checked) where the command runs; workers get the
parsed records, never a file name, and send back each record's analysis as
JSON-ready data and as the text report ``tilebag analyze`` prints.

>>> from tilebag.batch import LocalBackend
>>> from tilebag.engine.players import GreedyPlayer, StaticPlayer
>>> from tilebag.game import Game
>>> game, bots = Game(["static", "greedy"], seed=8), [StaticPlayer(), GreedyPlayer()]
>>> while not game.is_over():
...     _ = game.push(bots[game.turn].choose(game))
>>> done, stopped = analyze_records([("game.gcg", game.record())], AnalysisJob(top=2), LocalBackend(1), progress=False)
>>> done[0].source, done[0].error, len(done[0].data["turns"]) > 0, stopped
('game.gcg', None, True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from tilebag.batch import Backend, Job, run_job
from tilebag.engine.analysis.review import analyze_game
from tilebag.engine.equity.leaves import DEFAULT_LEAVES, LeaveValues, load_leaves
from tilebag.errors import TilebagError
from tilebag.lexicon import GraphLexicon, load_lexicon
from tilebag.record import GameRecord


@dataclass(frozen=True)
class AnalysedRecord:
    """One record's analysis (``error`` says why there is none)."""

    source: str
    data: dict[str, Any]
    report: str
    error: str | None = None


@dataclass(frozen=True)
class AnalysisJob(Job[tuple[str, GameRecord], AnalysedRecord]):
    """Analysis for :mod:`tilebag.batch`: a record, by static equity and,
    with ``seconds``, by simulation. Workers load the lexicon and leaves once."""

    lexicon: str | None = None
    leaves: str | None = None
    top: int = 5
    seconds: float | None = None

    def load(self) -> object:
        lexicon = load_lexicon(self.lexicon)
        return (lexicon, load_leaves(self.leaves or DEFAULT_LEAVES, lexicon.alphabet))

    def run(self, state: object, item: tuple[str, GameRecord]) -> AnalysedRecord:
        lexicon, leaves = cast(tuple[GraphLexicon, LeaveValues], state)
        source, record = item
        try:
            analysis = analyze_game(record, lexicon=lexicon, leaves=leaves, top=self.top, source=source)
            data = analysis.to_dict()
            report = analysis.report()
            if self.seconds is not None:
                from tilebag.engine.analysis.sim_review import review_game, sim_report

                reviews = review_game(record, lexicon=lexicon, seconds=self.seconds)
                data["sim"] = [review.to_dict() for review in reviews]
                report += sim_report(reviews, self.seconds)
        except TilebagError as error:  # a record the rules refuse: said, and the others go on
            return AnalysedRecord(source, {}, "", str(error))
        return AnalysedRecord(source, data, report)


def analyze_records(
    records: Sequence[tuple[str, GameRecord]],
    job: AnalysisJob,
    backend: Backend,
    *,
    progress: bool | None = None,
    skip: frozenset[int] = frozenset(),
    on_result: Callable[[int, AnalysedRecord], None] | None = None,
) -> tuple[list[AnalysedRecord], bool]:
    """Each record's analysis, in the order given, and whether the run was
    stopped (Ctrl+C) before the last: then only those finished are listed.
    Records whose index is in ``skip`` are left out (done before)."""
    run = run_job(job, records, backend, label="records", progress=progress, skip=skip, on_result=on_result)
    return [run.results[i] for i in range(len(records)) if i in run.results], run.stopped
