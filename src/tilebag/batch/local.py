"""Batches in processes on this machine (the default backend)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from tilebag.batch.backend import GIVE_UP_AFTER, Backend, BatchDone, ClusterError, Job, run_batch

_job: Job[object, object] | None = None
_state: object = None


def exit_with_parent(poll: float = 1.0) -> None:
    """In a worker process: end it soon after the process that started it
    is gone. A parent killed outright (``kill -9``, or a server whose last
    act is to re-raise the SIGTERM it was stopped with) never stops its
    workers, and a worker waiting for work would otherwise live on."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="tilebag-parent-watch", daemon=True).start()


def _load(job: Job[object, object]) -> None:
    """A worker process starts: the job is loaded once."""
    global _job, _state
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's: it keeps what was done
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    exit_with_parent()
    _job, _state = job, job.load()


def _run_here(items: Sequence[object]) -> BatchDone[object]:
    assert _job is not None, "the worker was not started with a job"
    return run_batch(_job, _state, items)


class LocalBackend(Backend):
    """``workers`` processes (default: every core); with one (unless
    ``in_process`` is False), the batches run in this process, one at a
    time, when :meth:`wait` is called. A process that dies is replaced and
    its batches are done again.

    :param start_method: how worker processes start (``fork``, ``spawn``,
        ``forkserver``; default: the platform's). A threaded program, a
        server, should not fork.
    """

    name = "local"

    def __init__(self, workers: int | None = None, *, in_process: bool | None = None,
                 start_method: str | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.in_process = self.workers == 1 if in_process is None else in_process
        self.start_method = start_method
        self._job: Job[object, object] | None = None
        self._state: object = None
        self._pool: ProcessPoolExecutor | None = None
        self._futures: dict[Future[BatchDone[object]], tuple[int, Sequence[object], float]] = {}
        self._queued: list[tuple[int, Sequence[object]]] = []
        self.restarts = 0
        self.lost_in_a_row = 0
        self._broken = False
        self.overheads: list[float] = []

    @property
    def slots(self) -> int:
        return self.workers

    def start(self, job: Job[object, object]) -> None:  # type: ignore[override]
        if self._job is not None:
            if job == self._job:
                return  # the workers have it loaded
            self.close()
        self._job = job
        if self.in_process:
            self._state = job.load()
        else:
            self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        assert self._job is not None, "start the backend with a job"
        context = multiprocessing.get_context(self.start_method) if self.start_method else None
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=_load,
                                   initargs=(self._job,))

    def alive(self) -> int:
        if self._pool is None:
            return 1
        processes = getattr(self._pool, "_processes", None) or {}
        return sum(1 for process in processes.values() if process.is_alive()) or self.workers

    def submit(self, key: int, items: Sequence[object]) -> None:
        if self._pool is None:
            self._queued.append((key, items))
            return
        try:
            self._futures[self._pool.submit(_run_here, items)] = (key, items, time.perf_counter())
        except BrokenProcessPool:  # a worker died already: the next wait starts a new pool
            self._queued.append((key, items))
            self._broken = True

    def pending(self) -> int:
        return len(self._queued) + len(self._futures)

    def wait(self, timeout: float) -> list[tuple[int, BatchDone[object]]]:
        if self._pool is None:
            if not self._queued:
                return []
            assert self._job is not None, "start the backend first"
            key, items = self._queued.pop(0)
            return [(key, run_batch(self._job, self._state, items))]
        finished: list[tuple[int, BatchDone[object]]] = []
        broken, self._broken = self._broken, False
        done = wait(self._futures, timeout=timeout, return_when=FIRST_COMPLETED)[0] if self._futures else set()
        for future in done:
            key, items, sent = self._futures.pop(future)
            try:
                batch = future.result()
            except BrokenProcessPool:
                broken = True
                self._queued.append((key, items))
                continue
            self.overheads.append(max(0.0, time.perf_counter() - sent - batch.seconds))
            finished.append((key, batch))
        if finished:
            self.lost_in_a_row = 0
        if broken:
            self.lost_in_a_row += 1
            if self.lost_in_a_row > GIVE_UP_AFTER * self.workers:
                raise ClusterError(f"worker processes died {self.lost_in_a_row} times in a row without finishing a batch")
            self._restart()
        return finished

    def _restart(self) -> None:
        """A worker died: a new pool takes every batch that was not returned."""
        self.restarts += 1
        lost = self._queued + [(key, items) for key, items, _ in self._futures.values()]
        self._queued = []
        self._futures = {}
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()
        for key, items in lost:
            self.submit(key, items)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self._futures = {}
        self._queued = []
        self._broken = False
        self._job = None
        self._state = None
