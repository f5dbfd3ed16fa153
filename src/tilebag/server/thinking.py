"""Bots that think in worker processes, so that their thinking does not hold
up the server's own work (answering requests, telling the WebSockets).

A worker is handed what the bot's seat may see of the game and nothing else:
its record as that seat sees it (:func:`~tilebag.server.views.record_of`, its
own racks, the others' hidden), the lexicon's name and the seat. It rebuilds
the game from that record (:func:`~tilebag.formats.replay.resume`: the tiles
the seat cannot see are dealt at random from the unseen ones), and returns
the move its bot chooses; the server then checks and plays it like any other.
A worker never reads the database, and a bot there could not peek at another
rack if it tried. The variations that let a bot start its turn with several
actions (recycle, blank swap) are played by bots in the server's process.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from tilebag.engine import Engine
from tilebag.engine.bots import make_bot
from tilebag.engine.players import Player, engine_for
from tilebag.formats import gcg
from tilebag.formats.replay import resume
from tilebag.game import Game, GameState
from tilebag.lexicon import Lexicon, default_lexicon, load_lexicon
from tilebag.move import Move, MoveKind

LOGGER = logging.getLogger("tilebag.server")

THINK_SECONDS = 120.0
"""The longest a worker may think about one move before the server gives up on it."""

_lexicons: dict[str | None, Lexicon] = {}
"""The lexicons a worker process loaded, by name (``None``: the default one)."""


def _start_worker() -> None:
    from tilebag.batch.local import exit_with_parent

    exit_with_parent()  # a server killed outright leaves no bot worker behind


def _lexicon(name: str | None) -> Lexicon:
    found = _lexicons.get(name)
    if found is None:
        found = _lexicons[name] = default_lexicon() if name is None else load_lexicon(name)
    return found


def _think(record: str, lexicon: str | None, kind: str, name: str, seat: int, seed: int, threads: int | None = 1) -> str | None:
    """The move (GCG notation) the bot at ``seat`` makes in the game this
    record (as the seat sees it) leaves, or ``None`` when it is not that
    seat's turn there."""
    game = resume(gcg.loads(record), lexicon=_lexicon(lexicon), seed=seed)
    if game.turn != seat or game.state is not GameState.PLAYING:
        return None
    move = make_bot(kind, name, threads=threads).choose(game)
    return game.notation(move) if move.kind is MoveKind.PLACE else move.gcg(game.alphabet, game.layout)


class Thinkers:
    """The worker processes bots think in (started with ``spawn``: the
    server's threads are not copied into them)."""

    def __init__(self, workers: int = 1, threads: int | None = 1) -> None:
        self.workers = workers
        self.threads = threads
        """The threads each bot's endgame search runs on (``None``: one a core)."""
        self._lock = threading.Lock()
        self.pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
        )

    def think(self, record: str, lexicon: str | None, kind: str, name: str, seat: int, seed: int) -> str | None:
        """The bot's move in the game its seat's record leaves, thought in a
        worker (see :func:`_think`). A worker that died (killed, out of
        memory) is replaced, and the move asked of the new one."""
        for attempt in range(2):
            pool = self.pool
            try:
                return pool.submit(_think, record, lexicon, kind, name, seat, seed, self.threads).result(timeout=THINK_SECONDS)
            except BrokenProcessPool:
                LOGGER.warning("a bot worker process died: starting another")
                with self._lock:
                    if self.pool is pool:
                        self.pool = self._start()
                if attempt:
                    raise
        return None

    def bot(self, kind: str, name: str) -> RemoteBot:
        return RemoteBot(self, kind, name)

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


class RemoteBot:
    """A bot of one kind at one seat that thinks in a worker process
    (:meth:`think`, with no lock held); as a :class:`Player` it thinks
    here, for the rare turn the worker could not answer."""

    def __init__(self, thinkers: Thinkers, kind: str, name: str) -> None:
        self.thinkers = thinkers
        self.kind = kind
        self.name = name
        self._here: Player | None = None

    def engine(self, game: Game) -> Engine:
        """The engine its plays come from (the game's: its words are the game's words)."""
        return engine_for(game, None)

    def think(self, record: str, lexicon: str | None, seat: int, seed: int) -> tuple[str | None, float]:
        """The move (GCG notation) the bot makes in the game its seat's record
        leaves, and the seconds it took; no move when it is not its turn there."""
        started = time.monotonic()
        text = self.thinkers.think(record, lexicon, self.kind, self.name, seat, seed)
        return text, time.monotonic() - started

    def choose(self, game: Game) -> Move:
        if self._here is None:
            self._here = make_bot(self.kind, self.name, threads=self.thinkers.threads)
        return self._here.choose(game)
