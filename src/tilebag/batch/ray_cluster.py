"""Batches on a Ray cluster (``pip install 'tilebag[cluster]'``).

Each worker is a Ray actor holding one CPU: it loads the job once when it
starts and then does the batches it is sent. An actor that dies (its
process killed, its machine gone) is replaced by a new one, and the batch
it held is sent again, so every batch comes back exactly once.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Sequence
from typing import Any

from tilebag.batch.backend import GIVE_UP_AFTER, INSTALL_HINT, Backend, BatchDone, ClusterError, Job, run_batch

log = logging.getLogger(__name__)


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--cluster needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


class _Worker:
    """The actor's body: the job and what it loaded."""

    def __init__(self, job: Job[object, object]) -> None:
        self.job = job
        self.state = job.load()

    def run(self, items: Sequence[object]) -> BatchDone[object]:
        return run_batch(self.job, self.state, items)

    def pid(self) -> int:
        return os.getpid()


class RayBackend(Backend):
    """Ray actors, one per CPU of the cluster (or ``workers`` of them).

    :param address: ``ray://HOST:PORT`` of a running cluster, or ``None``
        to start a local Ray on this machine.
    """

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.ray = _ray()
        self.address = address
        self.requested = workers
        self._started_here = False
        self._actor_class: Any = None
        self._job: Job[object, object] | None = None
        self._actors: list[Any] = []
        self._idle: list[Any] = []
        self._running: dict[Any, tuple[int, Sequence[object], Any, float]] = {}
        self._queued: list[tuple[int, Sequence[object]]] = []
        self.replaced = 0
        self.lost_in_a_row = 0
        self.overheads: list[float] = []

    def connect(self) -> None:
        """Start or join Ray now (else the first run does). Called from the
        main thread, it keeps the program's own SIGINT and SIGTERM handlers:
        Ray's core would take SIGTERM over and abort on it, and a server or a
        training run stopped with SIGTERM could not stop its work cleanly."""
        ray = self.ray
        if ray.is_initialized():
            return
        main = threading.current_thread() is threading.main_thread()
        kept = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)} if main else {}
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING}
        try:
            if self.address is None:
                ray.init(num_cpus=self.requested or os.cpu_count() or 1, **options)
                self._started_here = True
            else:
                ray.init(address=self.address, **options)
        except Exception as error:  # Ray raises many kinds; the user needs one line
            raise ClusterError(f"could not start or join Ray at {self.address or 'this machine'}: {error}") from error
        for number, handler in kept.items():
            if handler is not None:
                signal.signal(number, handler)

    @property
    def slots(self) -> int:
        return len(self._actors)

    def start(self, job: Job[object, object]) -> None:  # type: ignore[override]
        if self._actors:
            if job == self._job:
                return  # the workers have it loaded
            self._stop_actors()
        self.connect()
        ray = self.ray
        cpus = int(ray.cluster_resources().get("CPU", 1))
        count = max(1, min(cpus, self.requested or cpus))
        self._job = job
        self._actor_class = ray.remote(num_cpus=1, max_restarts=0)(_Worker)
        self._actors = [self._actor_class.remote(job) for _ in range(count)]
        self._idle = list(self._actors)

    def alive(self) -> int:
        return len(self._actors)

    def worker_pids(self) -> list[int]:
        """The process of each worker (for tests that kill one)."""
        return [int(pid) for pid in self.ray.get([actor.pid.remote() for actor in self._actors])]

    def submit(self, key: int, items: Sequence[object]) -> None:
        self._queued.append((key, items))
        self._dispatch()

    def pending(self) -> int:
        return len(self._queued) + len(self._running)

    def _dispatch(self) -> None:
        while self._queued and self._idle:
            actor = self._idle.pop()
            key, items = self._queued.pop(0)
            self._running[actor.run.remote(items)] = (key, items, actor, time.perf_counter())

    def wait(self, timeout: float) -> list[tuple[int, BatchDone[object]]]:
        ray = self.ray
        self._dispatch()
        if not self._running:
            return []
        ready, _ = ray.wait(list(self._running), num_returns=1, timeout=timeout)
        if ready:  # and any others already done
            ready, _ = ray.wait(list(self._running), num_returns=len(self._running), timeout=0)
        finished: list[tuple[int, BatchDone[object]]] = []
        for ref in ready:
            key, items, actor, sent = self._running.pop(ref)
            try:
                done = ray.get(ref)
            except ray.exceptions.RayActorError as error:
                self.lost_in_a_row += 1
                if self.lost_in_a_row > GIVE_UP_AFTER * max(1, len(self._actors)):
                    raise ClusterError(f"Ray workers died {self.lost_in_a_row} times in a row without finishing "
                                       f"a batch; the last: {error}") from None
                self._replace(actor, error)
                self._queued.insert(0, (key, items))
                continue
            except ray.exceptions.RayTaskError as error:
                raise error.as_instanceof_cause() from None
            self._idle.append(actor)
            self.lost_in_a_row = 0
            self.overheads.append(max(0.0, time.perf_counter() - sent - done.seconds))
            finished.append((key, done))
        self._dispatch()
        return finished

    def _replace(self, actor: Any, error: Exception) -> None:
        """A worker died: a new one takes its place."""
        self.replaced += 1
        log.warning("a Ray worker died (%s); starting another", type(error).__name__)
        if actor in self._actors:
            self._actors.remove(actor)
        fresh = self._actor_class.remote(self._job)
        self._actors.append(fresh)
        self._idle.append(fresh)

    def _stop_actors(self) -> None:
        for actor in self._actors:
            try:
                self.ray.kill(actor)
            except Exception:  # already gone
                pass
        self._actors, self._idle, self._running, self._queued = [], [], {}, []
        self._job = None

    def close(self) -> None:
        ray = self.ray
        self._stop_actors()
        if self._started_here and ray.is_initialized():
            ray.shutdown()
