"""Fan-out between server processes: when one process stores an action, the
others that hold the same game hear of it and catch up from the database.

The broker carries only a game's id and its new sequence number; the
actions themselves are in the database, which every process reads. One
process needs no broker (:class:`LocalBroker`); several share Redis
(:class:`RedisBroker`, ``--broker redis://...``).

The lobby's notices (a seek offered or gone, a game started, a turn come)
go on a channel of their own, as text the lobby makes and reads
(:mod:`tilebag.server.api.lobby`); they are hints too, and the lobby's
seeks stay in the database.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

LOGGER = logging.getLogger("tilebag.server")

CHANNEL = "tilebag:games"
"""The Redis channel the processes tell each other on."""

LOBBY_CHANNEL = "tilebag:lobby"
"""The Redis channel of the lobby's notices."""

Heard = Callable[[str, int], None]
"""Called with a game's id and the sequence number another process stored."""

HeardNotice = Callable[[str], None]
"""Called with a lobby notice another process published."""

Missed = Callable[[], object]
"""Called when notices may have been missed (the broker's connection was
lost and is back): the listener catches up from the database."""


class Broker(Protocol):
    """A hint to the other processes that a game changed. A notice may be
    lost (a process killed after its commit, the broker restarted): the
    database stays the truth, and listeners catch up from it."""

    def publish(self, game_id: str, seq: int) -> None:
        """Tell the other processes that ``game_id`` has actions up to ``seq``
        (may raise when the broker is out of reach: the caller logs it)."""

    def start(self, heard: Heard, missed: Missed | None = None) -> None:
        """Start listening: ``heard`` is called for what the others publish,
        ``missed`` each time the listener is subscribed again."""

    def publish_lobby(self, notice: str) -> None:
        """Tell the other processes' lobbies ``notice`` (may raise, as :meth:`publish`)."""

    def listen_lobby(self, heard: HeardNotice) -> None:
        """Start listening to the lobby's notices: ``heard`` is called with each."""

    def close(self) -> None: ...


class LocalBroker:
    """One process: nobody else to tell."""

    def publish(self, game_id: str, seq: int) -> None:
        pass

    def start(self, heard: Heard, missed: Missed | None = None) -> None:
        pass

    def publish_lobby(self, notice: str) -> None:
        pass

    def listen_lobby(self, heard: HeardNotice) -> None:
        pass

    def close(self) -> None:
        pass


class RedisBroker:
    """Processes sharing one Redis server: each publishes what it stored and
    listens, on a thread of its own, to what the others did."""

    def __init__(self, url: str) -> None:
        import redis

        # a Redis that does not answer must not hold up an action that is stored already:
        # publishing gives up after a few seconds (and is logged), listening notices a dead link
        self._redis = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10)
        self._redis.ping()
        self._thread: threading.Thread | None = None
        self._lobby_thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._own = threading.local()

    def publish(self, game_id: str, seq: int) -> None:
        self._redis.publish(CHANNEL, f"{game_id} {seq}")

    def start(self, heard: Heard, missed: Missed | None = None) -> None:
        # subscribe messages are kept: one comes each time redis-py subscribes again after a lost
        # connection, and what was published meanwhile never reaches this process
        pubsub = self._redis.pubsub(ignore_subscribe_messages=False)
        pubsub.subscribe(CHANNEL)

        def listen() -> None:
            first = True
            while not self._stopping.is_set():
                try:
                    message = pubsub.get_message(timeout=0.5)
                except Exception as err:  # the connection dropped: say so and go on listening
                    LOGGER.warning("the broker's connection failed (listening again): %s", err)
                    self._stopping.wait(1.0)
                    continue
                if not message:
                    continue
                if message.get("type") == "subscribe":
                    if not first and missed is not None:
                        try:
                            missed()
                        except Exception:
                            LOGGER.exception("could not catch up after the broker came back")
                    first = False
                    continue
                try:
                    game_id, seq = message["data"].decode("ascii").split()
                    heard(game_id, int(seq))
                except Exception:
                    LOGGER.exception("could not apply a broker message")

        self._thread = threading.Thread(target=listen, name="tilebag-broker", daemon=True)
        self._thread.start()

    def publish_lobby(self, notice: str) -> None:
        self._redis.publish(LOBBY_CHANNEL, notice)

    def listen_lobby(self, heard: HeardNotice) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(LOBBY_CHANNEL)

        def listen() -> None:
            while not self._stopping.is_set():
                try:
                    message = pubsub.get_message(timeout=0.5)
                except Exception as err:  # the connection dropped: the lobby's sockets read the database again
                    LOGGER.warning("the broker's lobby connection failed (listening again): %s", err)
                    self._stopping.wait(1.0)
                    continue
                if message and message.get("type") == "message":
                    try:
                        heard(message["data"].decode("utf-8"))
                    except Exception:
                        LOGGER.exception("could not apply a lobby notice")

        self._lobby_thread = threading.Thread(target=listen, name="tilebag-broker-lobby", daemon=True)
        self._lobby_thread.start()

    def close(self) -> None:
        self._stopping.set()
        for thread in (self._thread, self._lobby_thread):
            if thread is not None:
                thread.join(timeout=2)
        self._redis.close()


def broker_for(url: str | None) -> Broker:
    """The broker a ``--broker`` URL names (none: this process alone)."""
    if not url:
        return LocalBroker()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBroker(url)
    raise ValueError(f"unknown broker {url!r}: give a redis:// URL")
