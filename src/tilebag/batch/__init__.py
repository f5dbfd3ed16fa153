"""Batch work on every core of one machine, or on a Ray cluster.

Self-play, matches, leave training and the analysis of many records are all
the same shape: many independent items (a seed, a record), each worth a
result, with a lexicon, leave values and a compiled core that every worker
needs once. A :class:`Job` says what a worker loads and how it does one item;
a backend runs batches of items on its workers and hands each batch's
results back exactly once; :func:`run_job` ties the two together with a
progress bar, batch sizes that keep the scheduling cost small, and a clean
stop on Ctrl+C.

Two backends: :class:`LocalBackend` (processes on this machine, the default)
and :class:`~tilebag.batch.ray_cluster.RayBackend` (``pip install
'tilebag[cluster]'``). A job's results do not depend on the backend, the
number of workers or the batch sizes: each item is done alone, from its own
seed.

>>> from tilebag.batch import Job, LocalBackend, run_job
>>> class Squares(Job[int, int]):
...     def load(self) -> object:
...         return None
...     def run(self, state: object, item: int) -> int:
...         return item * item
>>> sorted(run_job(Squares(), [1, 2, 3], LocalBackend(1), progress=False).results.items())
[(0, 1), (1, 4), (2, 9)]
"""

from tilebag.batch.backend import Backend, BatchDone, ClusterError, Job
from tilebag.batch.choose import backend_for
from tilebag.batch.local import LocalBackend
from tilebag.batch.runner import RunResult, run_job

__all__ = ["Backend", "BatchDone", "ClusterError", "Job", "LocalBackend", "RunResult", "backend_for", "run_job"]
