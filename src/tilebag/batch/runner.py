"""Running a job's items on a backend: batches, progress and stopping."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar, cast

from tilebag.batch.backend import Backend, Job
from tilebag.progress import Progress

Item = TypeVar("Item")
Result = TypeVar("Result")

TARGET_SECONDS = 2.0
"""How long a batch should take: long enough that sending it and its
results (a few milliseconds on Ray, less between local processes) is well
under 5% of it, short enough that a stop or a lost worker loses little."""

POLL_SECONDS = 0.25


@dataclass
class RunResult(Generic[Result]):
    """What a run did: each item's result by its index, whether it was
    stopped, and how the time went."""

    results: dict[int, Result] = field(default_factory=dict)
    stopped: bool = False
    seconds: float = 0.0
    batches: int = 0
    work_seconds: float = 0.0
    """Seconds the workers spent on items (summed over workers)."""
    overheads: list[float] = field(default_factory=list)
    """Per batch: its round trip less the worker's time on it."""
    workers: int = 1
    backend: str = "local"
    startup: float = 0.0
    """Seconds to start the workers (Ray itself, and each worker's load)."""

    @property
    def overhead_share(self) -> float:
        """The median batch's scheduling cost as a share of its work."""
        if not self.overheads or not self.batches or not self.work_seconds:
            return 0.0
        return statistics.median(self.overheads) / (self.work_seconds / self.batches)

    def summary(self) -> str:
        """One line for a log."""
        median = statistics.median(self.overheads) * 1000 if self.overheads else 0.0
        return (f"{self.backend}: {self.workers} workers, {len(self.results)} items in {self.batches} batches, "
                f"{self.seconds:.1f} s ({self.startup:.1f} s to start); {median:.1f} ms a batch besides the work "
                f"({self.overhead_share:.1%})")


def run_job(
    job: Job[Item, Result],
    items: Sequence[Item],
    backend: Backend,
    *,
    skip: frozenset[int] = frozenset(),
    label: str = "items",
    progress: bool | None = None,
    on_result: Callable[[int, Result], None] | None = None,
    weight: Callable[[Result], int] | None = None,
    steps: int | None = None,
    close: bool = True,
) -> RunResult[Result]:
    """Do every item of ``items`` (but the indexes in ``skip``, done
    before) on ``backend``, calling ``on_result(index, result)`` as each
    batch comes back. Ctrl+C stops the run and keeps every result back.

    :param weight: how many steps of the progress bar a result counts for
        (default 1; a pair of games counts 2).
    :param steps: the steps left in all (default: the items left).
    :param close: stop the backend's workers at the end (``False`` keeps
        them, loaded, for the next run of the same job).
    """
    todo = [index for index in range(len(items)) if index not in skip]
    run: RunResult[Result] = RunResult(backend=backend.name)
    started = time.perf_counter()
    per_item: float | None = None
    batches: dict[int, list[int]] = {}
    position = keys = 0

    def next_batch() -> list[int]:
        nonlocal position
        left = len(todo) - position
        if per_item is None:
            size = 1  # until the first batch says how long an item takes
        else:
            size = max(1, int(TARGET_SECONDS / max(per_item, 1e-6)))
            size = min(size, max(1, left // (2 * backend.slots)))  # every worker busy to the end
        chunk = todo[position : position + size]
        position += len(chunk)
        return chunk

    backend.overheads = []  # this run's alone: a backend kept between runs (a server's) would gather them forever
    backend.start(job)
    run.startup = time.perf_counter() - started
    run.workers = backend.alive()
    done_steps = returned = 0
    with Progress(len(todo) if steps is None else steps, label, enabled=progress) as bar:
        try:
            while position < len(todo) or backend.pending():
                while position < len(todo) and backend.pending() < backend.slots:
                    chunk = next_batch()
                    batches[keys] = chunk
                    backend.submit(keys, [items[index] for index in chunk])
                    keys += 1
                for key, done in backend.wait(POLL_SECONDS):
                    chunk = batches.pop(key)
                    run.batches += 1
                    run.work_seconds += done.seconds
                    returned += len(chunk)
                    per_item = run.work_seconds / returned
                    for index, value in zip(chunk, done.results, strict=True):
                        result = cast(Result, value)
                        run.results[index] = result
                        if on_result is not None:
                            on_result(index, result)
                        done_steps += 1 if weight is None else weight(result)
                elapsed = time.perf_counter() - started
                rate = len(run.results) / elapsed if elapsed > 0 else 0.0
                bar.note = f"{rate:.1f} {label}/s, {backend.alive()} workers"
                bar.update(done_steps)
        except KeyboardInterrupt:
            run.stopped = True
        finally:
            run.workers = max(run.workers, backend.alive())
            run.overheads = backend.overheads
            if close or run.stopped:
                backend.close()
    run.seconds = time.perf_counter() - started
    return run
