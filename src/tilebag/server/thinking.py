"""Bots that think in worker processes, so that their thinking does not hold
up the server's own work (answering requests, telling the WebSockets).

A worker keeps its own copy of each game it has thought about, caught up
from the database before each move (every action the bot's move follows is
stored before the bot is asked), and returns the move its bot chooses; the
server then checks and plays it like any other.
The variations that let a bot start its turn with several actions
(recycle, blank swap) are played by bots in the server's process, since the
worker would not see the actions of the turn so far.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from tilebag.engine import Engine
from tilebag.engine.bots import make_bot
from tilebag.engine.players import Player, engine_for
from tilebag.game import Game, GameState
from tilebag.move import Move, MoveKind

if TYPE_CHECKING:
    from tilebag.server.service import GameService

LOGGER = logging.getLogger("tilebag.server")

_worker_games: GameService | None = None
"""The worker process's own view of the database (set when it starts)."""


def _start_worker(url: str) -> None:
    global _worker_games
    from tilebag.batch.local import exit_with_parent
    from tilebag.server.rooms import Rooms
    from tilebag.server.service import GameService
    from tilebag.server.store import Store

    exit_with_parent()  # a server killed outright leaves no bot worker behind
    _worker_games = GameService(Rooms(Store(url, migrate_schema=False)))


def _think(game_id: str, kind: str, name: str, seat: int) -> str | None:
    """The move the bot at ``seat`` makes in the game as stored (GCG
    notation), or ``None`` when it is not that seat's turn there."""
    assert _worker_games is not None
    room = _worker_games.load(game_id)  # kept from the last time, and caught up with what was stored since
    if room is None:
        return None
    _worker_games.refresh(room)
    game = room.game
    if game.turn != seat or game.state is not GameState.PLAYING:
        return None
    move = make_bot(kind, name).choose(game)
    return game.notation(move) if move.kind is MoveKind.PLACE else move.gcg(game.alphabet, game.layout)


class Thinkers:
    """The worker processes bots think in (started with ``spawn``: the
    server's threads are not copied into them)."""

    def __init__(self, url: str, workers: int = 1) -> None:
        self.url = url
        self.workers = workers
        self._lock = threading.Lock()
        self.pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(self.url,),
        )

    def think(self, game_id: str, kind: str, name: str, seat: int) -> str | None:
        """The bot's move in the stored game, thought in a worker (see
        :func:`_think`). A worker that died (killed, out of memory) is
        replaced, and the move asked of the new one."""
        for attempt in range(2):
            pool = self.pool
            try:
                return pool.submit(_think, game_id, kind, name, seat).result(timeout=120)
            except BrokenProcessPool:
                LOGGER.warning("a bot worker process died: starting another")
                with self._lock:
                    if self.pool is pool:
                        self.pool = self._start()
                if attempt:
                    raise
        return None

    def bot(self, game_id: str, kind: str, name: str) -> RemoteBot:
        return RemoteBot(self, game_id, kind, name)

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


class RemoteBot:
    """A bot of one kind at one seat that thinks in a worker process
    (:meth:`think`, with no lock held); as a :class:`Player` it thinks
    here, for the rare turn the worker could not see."""

    def __init__(self, thinkers: Thinkers, game_id: str, kind: str, name: str) -> None:
        self.thinkers = thinkers
        self.game_id = game_id
        self.kind = kind
        self.name = name
        self._here: Player | None = None

    def engine(self, game: Game) -> Engine:
        """The engine its plays come from (the game's: its words are the game's words)."""
        return engine_for(game, None)

    def think(self, seat: int) -> tuple[str | None, float]:
        """The move (GCG notation) the bot makes in the game as stored, and
        the seconds it took; no move when the stored game is not at its turn."""
        started = time.monotonic()
        text = self.thinkers.think(self.game_id, self.kind, self.name, seat)
        return text, time.monotonic() - started

    def choose(self, game: Game) -> Move:
        if self._here is None:
            self._here = make_bot(self.kind, self.name)
        return self._here.choose(game)
