"""The backend interface: jobs, batches, and how a backend is chosen."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from tilebag.errors import TilebagError

Item = TypeVar("Item")
Result = TypeVar("Result")

INSTALL_HINT = "pip install 'tilebag[cluster]'"


class ClusterError(TilebagError):
    """A cluster that cannot be used: Ray is not installed, or the address is wrong."""


class Job(ABC, Generic[Item, Result]):
    """Work done item by item. A job is pickled to every worker, which calls
    :meth:`load` once (the lexicon, the leaves, the compiled core) and then
    :meth:`run` for each item it is given. A job must be a plain object of
    an importable class: Ray and worker processes rebuild it by name."""

    @abstractmethod
    def load(self) -> object:
        """What a worker keeps between items."""

    @abstractmethod
    def run(self, state: object, item: Item) -> Result:
        """One item's result; the same whichever worker does it."""


@dataclass(frozen=True)
class BatchDone(Generic[Result]):
    """A batch's results, in the order of its items, and the seconds the
    worker spent on them (to tell the work from the scheduling around it)."""

    results: list[Result]
    seconds: float


GIVE_UP_AFTER = 3
"""Workers lost in a row (no batch back in between), per worker slot, after
which a run stops: a worker that cannot even start (its job fails to load,
tilebag is missing on a cluster machine) would otherwise be replaced forever."""


def run_batch(job: Job[Item, Result], state: object, items: Sequence[Item]) -> BatchDone[Result]:
    """Do a batch on a worker."""
    started = time.perf_counter()
    results = [job.run(state, item) for item in items]
    return BatchDone(results, time.perf_counter() - started)


class Backend(ABC):
    """Workers that do batches of a job. :meth:`start` gives them the job;
    :meth:`submit` queues a batch under a key; :meth:`wait` returns batches
    finished since (each key once, even when a worker died and its batch
    was done again elsewhere)."""

    name: str = "backend"
    overheads: list[float]
    """Per batch returned in the current run: its round trip less the worker's time on it."""

    @abstractmethod
    def start(self, job: Job[Item, Result]) -> None:
        """Load ``job`` on every worker."""

    @property
    @abstractmethod
    def slots(self) -> int:
        """Batches that can run at once."""

    @abstractmethod
    def alive(self) -> int:
        """Workers alive now."""

    @abstractmethod
    def submit(self, key: int, items: Sequence[object]) -> None:
        """Queue a batch."""

    @abstractmethod
    def wait(self, timeout: float) -> list[tuple[int, BatchDone[object]]]:
        """Batches finished, waiting up to ``timeout`` seconds for the first."""

    @abstractmethod
    def pending(self) -> int:
        """Batches submitted and not yet returned by :meth:`wait`."""

    @abstractmethod
    def close(self) -> None:
        """Stop the workers (unfinished batches are dropped)."""
