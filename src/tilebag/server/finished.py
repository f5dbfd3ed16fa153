"""What a server does with each finished game, once, off the event loop.

A game that ends may change ratings (:mod:`tilebag.server.ratings`) and an
event's results (:mod:`tilebag.server.event_rounds`). Each such job is a
:class:`FinishedGames` worker: a thread of its own that takes the games the
service says are over (it is told again by every later change, a chat
message, so it remembers those it handled), and at start and every
``sweep_seconds`` asks its job for the games no process handled (a process
stopped between a game's end and the job). A failure is logged and left to
the next sweep. The workers are chained: each tells the next of every game.

>>> done = []
>>> worker = FinishedGames("example", handle=done.append, pending=lambda: ["g0"], sweep_seconds=60)
>>> worker.start(); worker.game_over("g1"); worker.game_over("g1"); worker.stop()
>>> done
['g0', 'g1']
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from tilebag.server.room import RoomError

LOGGER = logging.getLogger("tilebag.server")


class FinishedGames:
    """Runs ``handle(game_id)`` once for each finished game, on a thread named
    after ``job``; ``pending()`` lists the games no process handled yet."""

    def __init__(
        self,
        job: str,
        *,
        handle: Callable[[str], object],
        pending: Callable[[], list[str]],
        then: Callable[[str], None] | None = None,
        sweep_seconds: float = 60.0,
    ) -> None:
        self.job = job
        self.handle = handle
        self.pending = pending
        self.then = then
        self.sweep_seconds = sweep_seconds
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._settled: set[str] = set()
        """Games this process has handled (told again by every later change, a chat message)."""
        self._thread = threading.Thread(target=self._run, name=f"tilebag-{job}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def game_over(self, game_id: str) -> None:
        """A game is over (from any thread, the event loop included: this only queues it)."""
        if game_id not in self._settled:
            self._queue.put(game_id)
        if self.then is not None:
            self.then(game_id)

    def sweep(self) -> None:
        """Handle the games no process handled."""
        for game_id in self.pending():
            self._settled.discard(game_id)
            self._handle(game_id)

    def _run(self) -> None:
        self._guarded(self.sweep)
        while True:
            try:
                game_id = self._queue.get(timeout=self.sweep_seconds)
            except queue.Empty:
                self._guarded(self.sweep)
                continue
            if game_id is None:
                return
            self._handle(game_id)

    def _handle(self, game_id: str) -> None:
        if game_id in self._settled:
            return
        if self._guarded(lambda: self.handle(game_id)):
            if len(self._settled) > 100_000:
                self._settled.clear()
            self._settled.add(game_id)

    def _guarded(self, work: Callable[[], object]) -> bool:
        """Run ``work``; whether it finished (a failure is logged: the next sweep tries again)."""
        try:
            work()
            return True
        except RoomError as err:
            LOGGER.warning("%s: a finished game was not handled: %s", self.job, err)
        except Exception:
            LOGGER.exception("%s: handling a finished game failed", self.job)
        return False
