"""The server's database: games, their seats and every accepted action, in
SQLAlchemy 2 tables whose schema Alembic migrates (applied at start).

A game is stored as what it was made from (seats, rules, lexicon name,
seed) and the list of actions accepted since, in order. That is enough to
rebuild it exactly: the seeded bag and the actions give the same board,
racks, bag order, scores and clocks (:meth:`tilebag.server.rooms.Rooms.rebuild`).

The database is the only truth when several processes serve the same games:
an action is written through :meth:`Store.locked`, which holds the game's row
lock, so that a process first reads what the others stored since it last
looked, then judges and appends its action with the next sequence number,
then commits. No two processes ever judge a move on different boards.

>>> store = Store("sqlite://")
>>> game_id = store.create_game({"rules": "standard"}, 2**62, [SeatRow(0, "alice", "person", None, "h")])
>>> with store.locked(game_id) as log:
...     log.since(0), log.append(0, "move", "8D WORD", 1.5, client_id="a1")
([], 1)
>>> with store.locked(game_id) as log:
...     log.repeated("a1"), log.append(0, "chat", "hello")
(True, 2)
>>> [(a.seq, a.kind, a.text) for a in store.actions(game_id)]
[(1, 'move', '8D WORD'), (2, 'chat', 'hello')]
>>> store.game(game_id)[1] == 2**62
True
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.engine import Engine as SqlEngine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool

MAX_NAME = 40
"""The longest seat name."""

MAX_CHAT = 500
"""The longest chat message."""

MAX_EMAIL = 254
"""The longest email address."""

MAX_CLIENT_ID = 64
"""The longest action id a client may send (see :meth:`GameLog.repeated`)."""

MIGRATION_LOCK = 0x7469_6C65_6261_67
"""The PostgreSQL advisory lock that processes starting together take to migrate the schema one at a time."""


class Base(DeclarativeBase):
    pass


class GameTable(Base):
    __tablename__ = "games"
    __table_args__ = (Index("games_waiting_bots", "bot_due", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[str] = mapped_column(String(40))
    setup: Mapped[str] = mapped_column(Text)
    """The game's setup as JSON: rules preset and options, lexicon, seats."""
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(20), default="playing")
    """``playing``, ``over``, or ``damaged`` (its actions do not replay: set aside, see :attr:`damage`)."""
    bot_due: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether a bot is to act in the game as stored: any live process may move it."""
    lease_owner: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The process moving the game's bot now, until :attr:`lease_until`."""
    lease_until: Mapped[str | None] = mapped_column(String(40), nullable=True)
    damage: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Why a damaged game could not be rebuilt: the action that failed, and the error."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the game's result changes its accounts' ratings."""
    category: Mapped[str | None] = mapped_column(String(30), nullable=True)
    """The rating category (``blitz``, ``rapid``, ``correspondence``, ``multiplayer``, ``house``...)."""
    rated_done: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the ratings were updated for the game's result (once, whichever process saw it end)."""
    ended: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """When the game ended (ISO time, UTC)."""
    corr_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A correspondence game's days per move (1 to 14); none for a game played in one sitting."""
    turn_due: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    """When the turn to move in a correspondence game times out (ISO time, UTC)."""


class SeatTable(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    kind: Mapped[str] = mapped_column(String(10))
    """``person``, ``bot`` or ``open`` (a person's seat not taken yet)."""
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    """The account that holds the seat (none: a guest's, by its link)."""


class UserTable(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(20))
    key: Mapped[str] = mapped_column(String(20), unique=True)
    """The username as compared (:func:`tilebag.server.accounts.username_key`): unique."""
    password_hash: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(MAX_EMAIL), nullable=True)
    created: Mapped[str] = mapped_column(String(40))
    role: Mapped[str] = mapped_column(String(10), default="player")
    """``player`` or ``admin``."""
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)


class SessionTable(Base):
    __tablename__ = "sessions"

    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    expires: Mapped[str] = mapped_column(String(40))


class TokenTable(Base):
    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    created: Mapped[str] = mapped_column(String(40))


class RatingTable(Base):
    """An account's rating in one category."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    category: Mapped[str] = mapped_column(String(30), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    """Glicko-2's volatility (2-player categories); unused by the multiplayer system."""
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[str] = mapped_column(String(40))


class RatingHistoryTable(Base):
    """An account's rating in a category after each rated game."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    category: Mapped[str] = mapped_column(String(30))
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    at: Mapped[str] = mapped_column(String(40))


class SeekTable(Base):
    """A game offered in the lobby (or, with :attr:`to_user_id`, a direct challenge)."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created: Mapped[str] = mapped_column(String(40))
    expires: Mapped[str] = mapped_column(String(40))
    """When the seek goes if nobody takes it (renewed while its maker's lobby is open)."""
    seats: Mapped[int] = mapped_column(Integer)
    setup: Mapped[str] = mapped_column(Text)
    """The game as JSON: rules preset, options, lexicon, clock."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    min_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    to_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True)
    """The player challenged (none: open to all)."""
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)
    """``open``, ``started``, ``cancelled``, ``declined`` or ``expired``."""
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeekSeatTable(Base):
    """An account that took a place in a seek (its maker too), in the order they came."""

    __tablename__ = "seek_seats"

    seek_id: Mapped[str] = mapped_column(ForeignKey("seeks.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    place: Mapped[int] = mapped_column(Integer)
    joined: Mapped[str] = mapped_column(String(40))


class BlockTable(Base):
    """An account that blocked another: no chat, no challenges from it."""

    __tablename__ = "blocks"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    created: Mapped[str] = mapped_column(String(40))


class ReportTable(Base):
    """A report of a player (or of one chat message) for the admins."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    chat_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(Text)
    created: Mapped[str] = mapped_column(String(40))
    resolved: Mapped[bool] = mapped_column(Boolean, default=False)


class ActionTable(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "client_id", name="actions_client_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    """``move``, ``challenge``, ``accept``, ``resign``, ``timeout``, ``chat``, ``watchchat`` (an observer's, its
    text JSON of name and message, its seat -1), ``join``, ``rematch``."""
    text: Mapped[str] = mapped_column(Text, default="")
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    created: Mapped[str] = mapped_column(String(40))
    client_id: Mapped[str | None] = mapped_column(String(MAX_CLIENT_ID), nullable=True)
    """The id the client sent with the action: the same id twice is stored once."""


class AnalysisTable(Base):
    __tablename__ = "analyses"
    __table_args__ = (Index("analyses_by_status", "status", "queued"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    status: Mapped[str] = mapped_column(String(10))
    """``queued``, ``running`` (a server took it), ``done`` or ``failed``."""
    queued: Mapped[str] = mapped_column(String(40))
    started: Mapped[str | None] = mapped_column(String(40), nullable=True)
    finished: Mapped[str | None] = mapped_column(String(40), nullable=True)
    worker: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The server process that took it (host and process id)."""
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The analysis as JSON (:meth:`tilebag.engine.analysis.review.GameAnalysis.to_dict`)."""
    error: Mapped[str | None] = mapped_column(Text, nullable=True)


class EventTable(Base):
    """A club night or a tournament (:mod:`tilebag.server.events`)."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    director_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    """The director's account, on a server (none: see :attr:`director`)."""
    director: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """The director's name, for an event kept in a local file."""
    created: Mapped[str] = mapped_column(String(40))
    rules: Mapped[str] = mapped_column(String(40))
    """The rules preset, by its own name."""
    options: Mapped[str] = mapped_column(Text)
    """The rules options as JSON, named as the command line names them (``{"challenge": "void"}``)."""
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The games' clock as JSON (``{"game_minutes": 25, "overtime_penalty": 10}``), or none."""
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The rounds planned (none: as many as the director pairs)."""
    online: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the games are played on the server (else over the board, results entered by hand)."""
    status: Mapped[str] = mapped_column(String(12), default="open")
    """``open`` (no round paired yet), ``running`` or ``over`` (the last round planned has every result)."""


class DivisionTable(Base):
    """A division of an event: its own players, rounds and standings."""

    __tablename__ = "divisions"
    __table_args__ = (UniqueConstraint("event_id", "name", name="divisions_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))


class EventPlayerTable(Base):
    """A player of a division (:class:`tilebag.events.Player`)."""

    __tablename__ = "event_players"

    division_id: Mapped[int] = mapped_column(ForeignKey("divisions.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 and up in the division, in the order they were added (tsh's numbering)."""
    name: Mapped[str] = mapped_column(String(200))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    """The player's account, on a server (none: a name only)."""
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    joined: Mapped[int] = mapped_column(Integer, default=1)
    """The first round the player is paired in."""
    withdrawn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The first round the player is no longer paired in."""
    tsh_fields: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The fields of an imported ``.t`` line that tilebag does not read, as JSON, written back on export."""


class RoundTable(Base):
    """A round of a division as it was paired: by what method and from what seed."""

    __tablename__ = "rounds"

    division_id: Mapped[int] = mapped_column(ForeignKey("divisions.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    method: Mapped[str] = mapped_column(String(20))
    """A :class:`tilebag.events.Method` value (``swiss``, ``king of the hill``...)."""
    seed: Mapped[int] = mapped_column(BigInteger)
    started: Mapped[bool] = mapped_column(Boolean, default=False)
    """A result is in: the pairings can no longer change."""


class PairingTable(Base):
    """A board of a round: ``a`` against ``b``, or a bye for ``a``."""

    __tablename__ = "pairings"

    division_id: Mapped[int] = mapped_column(ForeignKey("divisions.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the top board; byes last."""
    a: Mapped[int] = mapped_column(Integer)
    b: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """None: ``a`` has the bye."""
    first: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Who goes first (``a`` when known), or none."""
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The board's game on the server, for a round of an online event
    (:mod:`tilebag.server.event_rounds`); while the game is being made, ``~``
    and the time its making began; none for a bye, or a board without a game."""


class ResultTable(Base):
    """A result (:class:`tilebag.events.Game`): a game, a forfeit or a bye a director gave."""

    __tablename__ = "results"
    __table_args__ = (Index("results_by_round", "division_id", "round"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("divisions.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    a: Mapped[int] = mapped_column(Integer)
    b: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score_a: Mapped[int] = mapped_column(Integer)
    score_b: Mapped[int] = mapped_column(Integer)
    first: Mapped[int | None] = mapped_column(Integer, nullable=True)
    forfeit: Mapped[bool] = mapped_column(Boolean, default=False)
    entered: Mapped[str] = mapped_column(String(40))
    entered_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The player (by number) who entered it, to be confirmed by the opponent; none: the director, or the server."""
    confirmed: Mapped[bool] = mapped_column(Boolean, default=True)
    """Whether it counts: a player's result counts once the opponent confirms it."""
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
    """The server's game, for a game played online."""
    corrected_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """When a director last corrected it (ISO time, UTC)."""


@dataclass(frozen=True)
class AnalysisRow:
    """A finished game's place in the analysis queue, and its analysis once done."""

    game_id: str
    status: str
    result: dict[str, object] | None
    error: str | None
    worker: str | None
    finished: str | None


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    kind: str
    bot: str | None
    token_hash: str | None
    user_id: int | None = None
    """The account holding the seat (none: a guest's, or a bot's)."""


@dataclass(frozen=True)
class ActionRow:
    seq: int
    seat: int
    kind: str
    text: str
    seconds: float | None
    created: str = ""
    """When it was stored (ISO time, UTC)."""


class GameNotFoundError(LookupError):
    """The database has no game of that id."""


@dataclass(frozen=True)
class DamagedRow:
    """A game set aside because its stored actions do not replay."""

    game_id: str
    damage: str


def now(later: float = 0.0) -> str:
    """Now (or ``later`` seconds from now) as the database keeps times: ISO text in UTC, which sorts as time does."""
    return (datetime.now(UTC) + timedelta(seconds=later)).isoformat(timespec="milliseconds")


def migrate(url: str) -> None:
    """Bring the database's schema up to date (Alembic, applied at start).

    Processes starting together take turns: on PostgreSQL under an advisory
    lock, on an SQLite file under a lock on a file beside it. The first
    migrates; the others find the schema up to date.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("tilebag.server") / "migrations"))
    config.set_main_option("sqlalchemy.url", url)
    if url.startswith("postgresql"):
        engine = create_engine(url)
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
                try:
                    connection.commit()
                    config.attributes["connection"] = connection
                    command.upgrade(config, "head")
                    connection.commit()
                finally:
                    connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                    connection.commit()
        finally:
            engine.dispose()
        return
    with _file_lock(url):
        command.upgrade(config, "head")


@contextlib.contextmanager
def _file_lock(url: str) -> Iterator[None]:
    """A lock on a file beside an SQLite database (nothing for a database in memory, or where no
    ``fcntl`` is)."""
    path = url.removeprefix("sqlite:///")
    try:
        import fcntl
    except ImportError:  # not a POSIX system: processes sharing an SQLite file are not supported there
        yield
        return
    if path in ("", ":memory:") or url == "sqlite://":
        yield
        return
    with open(f"{path}.migrating", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


class GameLog:
    """One game's actions inside a transaction that holds the game's row lock
    (:meth:`Store.locked`): what was stored after a sequence number, and the
    actions appended now, all committed together when the block ends."""

    def __init__(self, connection: Connection, game_id: str, last: int) -> None:
        self._connection = connection
        self.game_id = game_id
        self.last = last
        """The last sequence number stored (those appended here included)."""

    def since(self, seq: int) -> list[ActionRow]:
        """The actions stored after ``seq``, in order."""
        return _actions(self._connection, self.game_id, seq)

    def repeated(self, client_id: str) -> bool:
        """Whether an action with this client id is stored already (a client
        that sent it again, not knowing the first one arrived)."""
        found = self._connection.execute(
            select(ActionTable.seq).where(ActionTable.game_id == self.game_id, ActionTable.client_id == client_id)
        )
        return found.first() is not None

    def append(
        self, seat: int, kind: str, text: str, seconds: float | None = None, *, client_id: str | None = None,
        created: str | None = None,
    ) -> int:
        """Store an action after the last one (``created``: when, if the caller shows it already); its sequence number."""
        self.last += 1
        self._connection.execute(
            insert(ActionTable),
            {"game_id": self.game_id, "seq": self.last, "seat": seat, "kind": kind, "text": text,
             "seconds": seconds, "created": created or now(), "client_id": client_id},
        )
        return self.last

    def set_status(self, status: str) -> None:
        self._connection.execute(update(GameTable).where(GameTable.id == self.game_id).values(status=status))

    def set_bot_due(self, due: bool) -> None:
        """Say whether a bot is to act in the game as it now stands."""
        self._connection.execute(update(GameTable).where(GameTable.id == self.game_id).values(bot_due=due))

    def set_turn_due(self, due: str | None, *, expired_by: str | None = None) -> bool:
        """Set when the turn to move in a correspondence game times out (none: no deadline). With
        ``expired_by``, only if the stored deadline had passed by then: a time out about to be applied
        is checked again here, under the game's row lock, so that it is applied once. Whether it was set."""
        query = update(GameTable).where(GameTable.id == self.game_id)
        if expired_by is not None:
            query = query.where(GameTable.turn_due.is_not(None), GameTable.turn_due <= expired_by)
        return self._connection.execute(query.values(turn_due=due)).rowcount == 1

    def take_seat(self, seat: int, name: str, token_hash: str, user_id: int | None = None) -> None:
        self._connection.execute(
            update(SeatTable).where(SeatTable.game_id == self.game_id, SeatTable.seat == seat)
            .values(name=name, kind="person", token_hash=token_hash, user_id=user_id)
        )

    def queue_analysis(self) -> None:
        """Put the game, now over, in the analysis queue (once)."""
        queued = self._connection.execute(select(AnalysisTable.game_id).where(AnalysisTable.game_id == self.game_id))
        if queued.first() is None:
            self._connection.execute(insert(AnalysisTable), {"game_id": self.game_id, "status": "queued", "queued": now()})


def _actions(connection: Connection, game_id: str, after: int) -> list[ActionRow]:
    actions = ActionTable.__table__
    query = (
        select(actions.c.seq, actions.c.seat, actions.c.kind, actions.c.text, actions.c.seconds, actions.c.created)
        .where(actions.c.game_id == game_id, actions.c.seq > after)
        .order_by(actions.c.seq)
    )
    return [ActionRow(*row) for row in connection.execute(query)]


class Store:
    """The games, seats and actions in one database (its URL: SQLite or PostgreSQL)."""

    def __init__(self, url: str, *, migrate_schema: bool = True) -> None:
        self.url = url
        self._sqlite = url.startswith("sqlite")
        in_memory = url in ("sqlite://", "sqlite:///:memory:")
        if in_memory:  # one connection, or each thread would see a database of its own
            self.engine: SqlEngine = create_engine(url, connect_args={"check_same_thread": False}, poolclass=StaticPool)
        elif self._sqlite:
            self.engine = create_engine(url, connect_args={"check_same_thread": False})

            @event.listens_for(self.engine, "connect")
            def _sqlite_pragmas(connection: object, _: object) -> None:
                cursor = connection.cursor()  # type: ignore[attr-defined]
                cursor.execute("PRAGMA journal_mode=WAL")
                # each commit is in the write-ahead log when it returns: a server killed at any
                # moment (kill -9 included) loses nothing; only a power cut may lose the last commits
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.close()
        else:
            self.engine = create_engine(url, pool_pre_ping=True)
        if in_memory:
            Base.metadata.create_all(self.engine)  # the schema as it is now
        elif migrate_schema:
            migrate(url)
        self._writing: contextlib.AbstractContextManager[object] = (
            threading.Lock() if self._sqlite else contextlib.nullcontext()
        )

    def create_game(
        self, setup: dict[str, object], seed: int, seats: list[SeatRow], *, bot_due: bool = False,
        rated: bool = False, category: str | None = None, corr_days: int | None = None,
    ) -> str:
        """A new game's id (``bot_due``: a bot makes the first move; ``rated``, ``category``
        and ``corr_days``: see :class:`GameTable`)."""
        game_id = secrets.token_urlsafe(8)
        with Session(self.engine) as session, session.begin():
            session.add(
                GameTable(id=game_id, created=now(), setup=json.dumps(setup), seed=seed, status="playing", bot_due=bot_due,
                          rated=rated, category=category, corr_days=corr_days)
            )
            for seat in seats:
                session.add(
                    SeatTable(
                        game_id=game_id,
                        seat=seat.seat,
                        name=seat.name,
                        kind=seat.kind,
                        bot=seat.bot,
                        token_hash=seat.token_hash,
                        user_id=seat.user_id,
                    )
                )
        return game_id

    @contextlib.contextmanager
    def locked(self, game_id: str) -> Iterator[GameLog]:
        """The game's log under its row lock, in one transaction: committed
        when the block ends, rolled back (nothing stored) if it raises.
        Another process's change to the same game waits for this one.

        :raises GameNotFoundError: for a game the database does not have.
        """
        # SQLite has one writer at a time anyway: this process's threads take turns here rather
        # than in SQLite's busy loop, which sleeps
        with self._writing, self.engine.begin() as connection:
            if self._sqlite:  # a write first: the transaction holds SQLite's write lock from its start
                locked = connection.execute(update(GameTable).where(GameTable.id == game_id).values(id=GameTable.id))
                found = locked.rowcount == 1
            else:
                found = connection.execute(select(GameTable.id).where(GameTable.id == game_id).with_for_update()).first() is not None
            if not found:
                raise GameNotFoundError(game_id)
            last = connection.execute(select(func.max(ActionTable.seq)).where(ActionTable.game_id == game_id)).scalar()
            yield GameLog(connection, game_id, int(last or 0))

    def set_status(self, game_id: str, status: str) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(GameTable, game_id)
            if row is not None:
                row.status = status

    def game(self, game_id: str) -> tuple[dict[str, object], int, str] | None:
        """A game's setup, seed and status, or ``None``."""
        with Session(self.engine) as session:
            row = session.get(GameTable, game_id)
            if row is None:
                return None
            return json.loads(row.setup), row.seed, row.status

    def seats(self, game_id: str) -> list[SeatRow]:
        with Session(self.engine) as session:
            rows = session.scalars(select(SeatTable).where(SeatTable.game_id == game_id).order_by(SeatTable.seat))
            return [SeatRow(r.seat, r.name, r.kind, r.bot, r.token_hash, r.user_id) for r in rows]

    def actions(self, game_id: str, *, after: int = 0) -> list[ActionRow]:
        """A game's actions in order (those after sequence number ``after``)."""
        with self.engine.connect() as connection:
            return _actions(connection, game_id, after)

    def last_seqs(self, game_ids: list[str]) -> dict[str, int]:
        """Each game's last stored sequence number (games with no action are left out)."""
        if not game_ids:
            return {}
        actions = ActionTable.__table__
        query = (
            select(actions.c.game_id, func.max(actions.c.seq)).where(actions.c.game_id.in_(game_ids)).group_by(actions.c.game_id)
        )
        with self.engine.connect() as connection:
            return {game_id: int(seq) for game_id, seq in connection.execute(query)}

    # -- bots' turns: a lease in the database, so that any live process may move a bot -------

    def claim_bot_turn(self, game_id: str, owner: str, seconds: float) -> bool:
        """Take the game's bot turn for ``owner`` for ``seconds`` (renewed by
        :meth:`renew_leases`): when no one holds it, its holder's lease ran out
        (that process died), or ``owner`` holds it already."""
        free = GameTable.lease_owner.is_(None) | (GameTable.lease_owner == owner) | (GameTable.lease_until < now())
        with self.engine.begin() as connection:
            taken = connection.execute(
                update(GameTable).where(GameTable.id == game_id, free).values(lease_owner=owner, lease_until=now(seconds))
            )
            return taken.rowcount == 1

    def release_bot_turn(self, game_id: str, owner: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                update(GameTable).where(GameTable.id == game_id, GameTable.lease_owner == owner).values(lease_owner=None, lease_until=None)
            )

    def renew_leases(self, owner: str, seconds: float) -> None:
        """Keep ``owner``'s leases for ``seconds`` more (a live process's heartbeat)."""
        with self.engine.begin() as connection:
            connection.execute(update(GameTable).where(GameTable.lease_owner == owner).values(lease_until=now(seconds)))

    def clear_leases(self) -> None:
        """Free every lease (a process that serves the database alone, at its start: the holders are gone)."""
        with self.engine.begin() as connection:
            connection.execute(update(GameTable).where(GameTable.lease_owner.is_not(None)).values(lease_owner=None, lease_until=None))

    def waiting_bots(self, *, limit: int = 100) -> list[str]:
        """Games where a bot is to act and no live process holds its turn."""
        query = (
            select(GameTable.id)
            .where(GameTable.bot_due.is_(True), GameTable.status == "playing")
            .where(GameTable.lease_owner.is_(None) | (GameTable.lease_until < now()))
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    # -- games that cannot be rebuilt ---------------------------------------------------

    def set_damaged(self, game_id: str, damage: str) -> None:
        """Set a game aside: its stored actions do not replay (``damage`` says which and why)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(GameTable).where(GameTable.id == game_id).values(status="damaged", damage=damage[:2000], bot_due=False)
            )

    def damaged(self) -> list[DamagedRow]:
        """The games set aside as damaged, oldest first."""
        query = select(GameTable.id, GameTable.damage).where(GameTable.status == "damaged").order_by(GameTable.created)
        with self.engine.connect() as connection:
            return [DamagedRow(game_id, damage or "") for game_id, damage in connection.execute(query)]

    def lobby(self, *, limit: int = 200) -> list[tuple[str, dict[str, object], str, list[SeatRow]]]:
        """The games being played, newest first (at most ``limit``): each one's
        id, setup, status and seats, read without rebuilding any game."""
        with Session(self.engine) as session:
            games = list(
                session.scalars(
                    select(GameTable)
                    .where(GameTable.status == "playing")
                    .order_by(GameTable.created.desc())
                    .limit(limit)
                )
            )
            seats: dict[str, list[SeatRow]] = {game.id: [] for game in games}
            if games:
                query = select(SeatTable).where(SeatTable.game_id.in_(list(seats))).order_by(SeatTable.seat)
                for r in session.scalars(query):
                    seats[r.game_id].append(SeatRow(r.seat, r.name, r.kind, r.bot, r.token_hash, r.user_id))
            return [(game.id, json.loads(game.setup), game.status, seats[game.id]) for game in games]

    def games_of_user(self, user_id: int, *, limit: int = 200) -> list[tuple[str, int]]:
        """The games the account holds a seat in, newest first (at most ``limit``): each one's id and the seat."""
        query = (
            select(SeatTable.game_id, SeatTable.seat)
            .join(GameTable, GameTable.id == SeatTable.game_id)
            .where(SeatTable.user_id == user_id, GameTable.status != "damaged")
            .order_by(GameTable.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return [(game_id, seat) for game_id, seat in connection.execute(query)]

    def game_ids(self, *, status: str | None = None) -> list[str]:
        with Session(self.engine) as session:
            query = select(GameTable.id).order_by(GameTable.created)
            if status is not None:
                query = query.where(GameTable.status == status)
            return list(session.scalars(query))


    # -- the analysis queue ------------------------------------------------------------------

    def queue_analysis(self, game_id: str) -> bool:
        """Put a finished game in the analysis queue (once: False when it is there already)."""
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(AnalysisTable), {"game_id": game_id, "status": "queued", "queued": now()})
            return True
        except IntegrityError:
            return False

    def claim_analyses(self, worker: str, *, limit: int = 8, stale_after: float = 600.0) -> list[str]:
        """Take up to ``limit`` queued games for ``worker``, oldest first,
        and those another worker took more than ``stale_after`` seconds ago
        and never finished (its process died). Each game is taken by one
        worker only, whichever processes share the database."""
        row = AnalysisTable
        stale = (datetime.now(UTC) - timedelta(seconds=stale_after)).isoformat(timespec="milliseconds")
        waiting = (row.status == "queued") | ((row.status == "running") & (row.started < stale))
        with self.engine.connect() as connection:
            candidates = list(connection.execute(
                select(row.game_id).where(waiting).order_by(row.queued).limit(limit)).scalars())
        taken = []
        for game_id in candidates:
            with self.engine.begin() as connection:  # the row changes only if no one took it meanwhile
                claimed = connection.execute(
                    update(row).where(row.game_id == game_id, waiting)
                    .values(status="running", worker=worker[:80], started=now())
                )
                if claimed.rowcount == 1:
                    taken.append(game_id)
        return taken

    def finish_analysis(self, game_id: str, *, result: dict[str, object] | None = None, error: str | None = None) -> None:
        """Store a game's analysis (or why there is none)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(AnalysisTable).where(AnalysisTable.game_id == game_id).values(
                    status="done" if error is None else "failed", finished=now(),
                    result=None if result is None else json.dumps(result), error=error)
            )

    def analysis(self, game_id: str) -> AnalysisRow | None:
        """A game's analysis row, or ``None`` when it was never queued."""
        with Session(self.engine) as session:
            row = session.get(AnalysisTable, game_id)
            if row is None:
                return None
            result = json.loads(row.result) if row.result else None
            return AnalysisRow(row.game_id, row.status, result, row.error, row.worker, row.finished)


def default_database() -> Path:
    """The SQLite file used when no ``--db`` is given: in the user's data folder."""
    import os

    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tilebag" / "tilebag.db"
