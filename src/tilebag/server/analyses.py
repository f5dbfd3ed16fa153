"""Finished games analysed off the request path, on a batch backend.

When a game ends, its id goes into the database's analysis queue
(:meth:`tilebag.server.store.Store.queue_analysis`). Each server process
runs an :class:`AnalysisQueue`: a thread that takes queued games (each game
is taken by one process only, however many share the database), rebuilds
their records, and sends them to a backend of :mod:`tilebag.batch`: worker
processes of its own (the default), or a Ray cluster that other servers and
commands share (``tilebag serve --cluster``). The analyses are stored with
the games; the browser client's analysis view reads them from there.

A game whose analysis was taken by a process that died is taken again
after :data:`STALE_SECONDS`.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections import defaultdict

from tilebag.batch import Backend, run_job
from tilebag.engine.analysis.batch import AnalysisJob
from tilebag.record import GameRecord
from tilebag.server.room import RoomError
from tilebag.server.rooms import Rooms

LOGGER = logging.getLogger(__name__)

POLL_SECONDS = 5.0
"""How often the queue is read when no game of this process ended meanwhile."""

STALE_SECONDS = 600.0
"""How long a taken analysis may run before another process takes it again."""

TOP = 3
"""Best plays kept per turn, as the analysis view shows them."""


class AnalysisQueue:
    """The thread that analyses finished games for one server process.

    :param seconds: also simulate each turn for this long (the chance of
        winning each play gave away); ``None``: static equity only.
    """

    def __init__(self, rooms: Rooms, backend: Backend, *, seconds: float | None = None, batch: int = 8) -> None:
        self.rooms = rooms
        self.store = rooms.store
        self.backend = backend
        self.seconds = seconds
        self.batch = batch
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tilebag-analyses", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """A game ended here: look at the queue now."""
        self._wake.set()

    def stop(self) -> None:
        """Stop taking games and stop the workers (an analysis under way is
        taken again by a server later, once it is stale)."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)
        self.backend.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                taken = self.store.claim_analyses(self.worker, limit=self.batch, stale_after=STALE_SECONDS)
                if taken:
                    self._analyse(taken)
                    continue
            except Exception:  # the queue must outlive a bad game or a lost worker
                LOGGER.exception("analysing finished games failed")
            self._wake.wait(POLL_SECONDS)
            self._wake.clear()

    def _analyse(self, game_ids: list[str]) -> None:
        by_lexicon: dict[str | None, list[tuple[str, GameRecord]]] = defaultdict(list)
        for game_id in game_ids:
            try:
                room = self.rooms.load(game_id)
            except RoomError as err:  # set aside as damaged
                self.store.finish_analysis(game_id, error=str(err))
                continue
            if room is None:
                self.store.finish_analysis(game_id, error="the game is not in the database")
                continue
            with room.lock:
                record = room.game.record()
            lexicon = room.setup.get("lexicon")
            by_lexicon[lexicon if isinstance(lexicon, str) else None].append((game_id, record))
        for lexicon, records in by_lexicon.items():
            job = AnalysisJob(lexicon, None, TOP, self.seconds)
            run = run_job(job, records, self.backend, label="analyses", progress=False, close=False)
            for index, analysed in run.results.items():
                game_id = records[index][0]
                if analysed.error is not None:
                    self.store.finish_analysis(game_id, error=analysed.error)
                else:
                    self.store.finish_analysis(game_id, result=analysed.data)
            LOGGER.info("analysed %d finished games on %s", len(run.results), self.backend.name)
