"""The server's database: games, their seats and every accepted action, in
SQLAlchemy 2 tables whose schema Alembic migrates (applied at start).

A game is stored as what it was made from (seats, rules, lexicon name,
seed) and the list of actions accepted since, in order. That is enough to
rebuild it exactly: the seeded bag and the actions give the same board,
racks, bag order, scores and clocks (:meth:`tilebag.server.rooms.Room.rebuild`).

>>> store = Store("sqlite://")
>>> game_id = store.create_game({"rules": "standard"}, 7, [SeatRow(0, "alice", "person", None, "h")])
>>> store.add_action(game_id, 0, "move", "8D WORD", 1.5)
1
>>> [(a.seq, a.kind, a.text) for a in store.actions(game_id)]
[(1, 'move', '8D WORD')]
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path

from sqlalchemy import ForeignKey, Integer, String, Text, create_engine, event, func, insert, select, update
from sqlalchemy.engine import Engine as SqlEngine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

MAX_NAME = 40
"""The longest seat name."""

MAX_CHAT = 500
"""The longest chat message."""


class Base(DeclarativeBase):
    pass


class GameTable(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[str] = mapped_column(String(40))
    setup: Mapped[str] = mapped_column(Text)
    """The game's setup as JSON: rules preset and options, lexicon, seats."""
    seed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), default="playing")


class SeatTable(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    kind: Mapped[str] = mapped_column(String(10))
    """``person``, ``bot`` or ``open`` (a person's seat not taken yet)."""
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionTable(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    """``move``, ``challenge``, ``accept``, ``resign``, ``timeout``, ``chat``, ``join``."""
    text: Mapped[str] = mapped_column(Text, default="")
    seconds: Mapped[float | None] = mapped_column(nullable=True)
    created: Mapped[str] = mapped_column(String(40))


class AnalysisTable(Base):
    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    status: Mapped[str] = mapped_column(String(10))
    """``queued``, ``running`` (a server took it), ``done`` or ``failed``."""
    queued: Mapped[str] = mapped_column(String(40))
    started: Mapped[str | None] = mapped_column(String(40), nullable=True)
    finished: Mapped[str | None] = mapped_column(String(40), nullable=True)
    worker: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The server process that took it (host and process id)."""
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The analysis as JSON (:meth:`tilebag.engine.analysis.GameAnalysis.to_dict`)."""
    error: Mapped[str | None] = mapped_column(Text, nullable=True)


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


@dataclass(frozen=True)
class ActionRow:
    seq: int
    seat: int
    kind: str
    text: str
    seconds: float | None


class StaleError(RuntimeError):
    """Another process stored an action of this game first."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def migrate(url: str) -> None:
    """Bring the database's schema up to date (Alembic, applied at start)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("tilebag.server") / "migrations"))
    config.set_main_option("sqlalchemy.url", url)
    command.upgrade(config, "head")


class Store:
    """The games, seats and actions in one database (its URL: SQLite or PostgreSQL)."""

    def __init__(self, url: str, *, migrate_schema: bool = True) -> None:
        self.url = url
        if url.startswith("sqlite"):
            self.engine: SqlEngine = create_engine(url, connect_args={"check_same_thread": False})

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
        if url in ("sqlite://", "sqlite:///:memory:"):
            Base.metadata.create_all(self.engine)  # a memory database: the schema as it is now
        elif migrate_schema:
            migrate(url)
        self._lock = threading.Lock()

    def create_game(self, setup: dict[str, object], seed: int, seats: list[SeatRow]) -> str:
        game_id = secrets.token_urlsafe(8)
        with Session(self.engine) as session, session.begin():
            session.add(GameTable(id=game_id, created=_now(), setup=json.dumps(setup), seed=seed, status="playing"))
            for seat in seats:
                session.add(
                    SeatTable(
                        game_id=game_id,
                        seat=seat.seat,
                        name=seat.name,
                        kind=seat.kind,
                        bot=seat.bot,
                        token_hash=seat.token_hash,
                    )
                )
        return game_id

    def add_action(
        self, game_id: str, seat: int, kind: str, text: str, seconds: float | None, *, after: int | None = None
    ) -> int:
        """Write an accepted action (committed before this returns); its
        sequence number. With ``after``, only if the game's last action is
        that one: when two processes sharing the database store an action
        of one game at once, the database keeps the first.

        :raises StaleError: when another action was stored after ``after``.
        """
        actions = ActionTable.__table__
        # SQLAlchemy Core, not the ORM: this runs for every action, and the
        # primary key (game, seq) decides which of two processes was first
        for _ in range(10):
            try:
                with self._lock, self.engine.begin() as connection:
                    seq = after
                    if seq is None:  # the next free number: another process may take it first, then try again
                        last = connection.execute(select(func.max(actions.c.seq)).where(actions.c.game_id == game_id))
                        seq = int(last.scalar() or 0)
                    row = {"game_id": game_id, "seq": seq + 1, "seat": seat, "kind": kind, "text": text,
                           "seconds": seconds, "created": _now()}
                    connection.execute(insert(ActionTable), row)
                return seq + 1
            except IntegrityError:  # the transaction is rolled back
                if after is not None:
                    raise StaleError(f"game {game_id} has an action after {after}") from None
        raise StaleError(f"game {game_id}: other processes keep storing actions first")

    def take_seat(self, game_id: str, seat: int, name: str, token_hash: str) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatTable, (game_id, seat))
            if row is None:
                raise KeyError(seat)
            row.name, row.kind, row.token_hash = name, "person", token_hash

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
            return [SeatRow(r.seat, r.name, r.kind, r.bot, r.token_hash) for r in rows]

    def actions(self, game_id: str, *, after: int = 0) -> list[ActionRow]:
        """A game's actions in order (those after sequence number ``after``)."""
        actions = ActionTable.__table__
        query = (
            select(actions.c.seq, actions.c.seat, actions.c.kind, actions.c.text, actions.c.seconds)
            .where(actions.c.game_id == game_id, actions.c.seq > after)
            .order_by(actions.c.seq)
        )
        with self.engine.connect() as connection:
            return [ActionRow(*row) for row in connection.execute(query)]

    def lobby(self, *, limit: int = 200) -> list[tuple[str, dict[str, object], str, list[SeatRow]]]:
        """The games not over, newest first (at most ``limit``): each one's
        id, setup, status and seats, read without rebuilding any game."""
        with Session(self.engine) as session:
            games = list(
                session.scalars(
                    select(GameTable).where(GameTable.status != "over").order_by(GameTable.created.desc()).limit(limit)
                )
            )
            seats: dict[str, list[SeatRow]] = {game.id: [] for game in games}
            if games:
                query = select(SeatTable).where(SeatTable.game_id.in_(list(seats))).order_by(SeatTable.seat)
                for r in session.scalars(query):
                    seats[r.game_id].append(SeatRow(r.seat, r.name, r.kind, r.bot, r.token_hash))
            return [(game.id, json.loads(game.setup), game.status, seats[game.id]) for game in games]

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
                connection.execute(insert(AnalysisTable), {"game_id": game_id, "status": "queued", "queued": _now()})
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
                    .values(status="running", worker=worker[:80], started=_now())
                )
                if claimed.rowcount == 1:
                    taken.append(game_id)
        return taken

    def finish_analysis(self, game_id: str, *, result: dict[str, object] | None = None, error: str | None = None) -> None:
        """Store a game's analysis (or why there is none)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(AnalysisTable).where(AnalysisTable.game_id == game_id).values(
                    status="done" if error is None else "failed", finished=_now(),
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
