"""A safe community: blocks, reports, who may chat, and the admins' actions,
over the server's database.

What this module decides, in one place:

- **a block** is one account's, of another: the blocked account cannot chat
  in a game where the blocker holds a seat (its messages are refused, 403:
  :func:`check_chat`), and cannot challenge the blocker (the seeks use
  :func:`is_blocked`). Blocking is silent: the blocked account is not told
  who, only that a player of that game does not take its messages;
- **observers chat where the game's maker allows it** (the game's setup
  ``observers_chat``, allowed unless it is ``false``);
- **a report** names a player (and, if it is about one, a chat message of a
  game, by its sequence number) with a reason of 1 to 1000 characters, for
  the admins, who list the open ones and resolve them;
- **an unknown name, a disabled account and a malformed one get the same
  answer** (404 :data:`NO_SUCH_PLAYER`), so that no one learns which names exist
  or were disabled by trying them.

Text (a reason, a chat message) is kept and given back as it was written: a
client escapes it where it shows it.

>>> from tilebag.server.accounts import Accounts
>>> store = Store("sqlite://")
>>> ann, ben = (Accounts(store).register(name, "correct horse") for name in ("Ann", "Ben"))
>>> safety = Safety(store)
>>> safety.block(ann, "ben"); safety.blocked(ann), is_blocked(store, ann.id, ben.id), is_blocked(store, ben.id, ann.id)
(['Ben'], True, False)
>>> safety.block(ann, "nobody")
Traceback (most recent call last):
...
tilebag.server.room.RoomError: no such player
>>> report = safety.report(ben, "Ann", "<b>rude</b>")
>>> [(r.reporter, r.reported, r.reason) for r in safety.open_reports()]
[('Ben', 'Ann', '<b>rude</b>')]
>>> safety.resolve(report), safety.open_reports()
(True, [])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from tilebag.server.accounts import User, username_key
from tilebag.server.room import Room, RoomError
from tilebag.server.store import ActionTable, BlockTable, GameTable, ReportTable, SeatTable, Store, UserTable, now

MAX_REASON = 1000
"""The longest reason a report may give."""

MAX_BLOCKS = 1000
"""The most accounts one account may block."""

NO_SUCH_PLAYER = "no such player"
"""What a name that opens no account is told (unknown, disabled or malformed alike)."""

OBSERVERS_MUTED = "observers cannot chat in this game: its maker turned observers' chat off"
BLOCKED_CHAT = "a player of this game does not take your messages"


@dataclass(frozen=True)
class Report:
    """A report checked (:meth:`Safety.check_report`) and ready to be filed."""

    reporter_id: int
    user_id: int
    reason: str
    game: str | None = None
    chat_seq: int | None = None


@dataclass(frozen=True)
class ReportRow:
    """An open report as the admins see it."""

    id: int
    reporter: str | None
    """Who reported (none: an account deleted since)."""
    reported: str | None
    """Who was reported (none: an account deleted since)."""
    reason: str
    created: str
    game: str | None = None
    chat_seq: int | None = None
    chat: str | None = None
    """The text of the chat message reported, when one was."""


@dataclass(frozen=True)
class UserRow:
    """An account as an admin lists it: never its password hash."""

    username: str
    role: str
    disabled: bool
    created: str


def is_blocked(store: Store, by_user_id: int, user_id: int) -> bool:
    """Whether the account ``by_user_id`` blocked the account ``user_id``."""
    with store.engine.connect() as connection:
        found = connection.execute(
            select(BlockTable.user_id).where(BlockTable.user_id == by_user_id, BlockTable.blocked_id == user_id)
        ).first()
    return found is not None


def blocked_by_any(store: Store, by_user_ids: Sequence[int], user_id: int) -> bool:
    """Whether any of the accounts ``by_user_ids`` blocked the account ``user_id``."""
    if not by_user_ids:
        return False
    with store.engine.connect() as connection:
        found = connection.execute(
            select(BlockTable.user_id).where(BlockTable.user_id.in_(list(by_user_ids)), BlockTable.blocked_id == user_id)
        ).first()
    return found is not None


def observers_chat(setup: dict[str, object]) -> bool:
    """Whether a game lets its observers chat (its maker may turn it off).

    >>> observers_chat({}), observers_chat({"observers_chat": False})
    (True, False)
    """
    return setup.get("observers_chat") is not False


def check_chat(store: Store, room: Room, seat: int | None, user_id: int | None = None) -> None:
    """Refuse a chat message that ``seat`` (``None``: an observer, logged in
    as the account ``user_id`` or a guest) may not send in the room's game.

    :raises RoomError: (403) for an observer where the game's maker turned
        observers' chat off, or a sender whose account an account holding
        a seat of the game blocked.
    """
    if seat is None and not observers_chat(room.setup):
        raise RoomError(403, OBSERVERS_MUTED)
    sender = room.seats[seat].user_id if seat is not None else user_id
    if sender is None:
        return
    others = [row.user_id for row in room.seats if row.user_id is not None and row.user_id != sender]
    if blocked_by_any(store, others, sender):
        raise RoomError(403, BLOCKED_CHAT)


def check_reason(reason: str) -> str:
    """A report's reason, its whitespace folded, if it is 1 to 1000 characters.

    >>> check_reason("  spam   in chat ")
    'spam in chat'

    :raises RoomError: (400) saying what a reason is.
    """
    folded = " ".join(str(reason).split())
    if not folded or len(folded) > MAX_REASON:
        raise RoomError(400, f"a report's reason is 1 to {MAX_REASON} characters (this one has {len(folded)})")
    return folded


class Safety:
    """Blocks, reports and the admins' view of the accounts, in the server's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def account_id(self, username: str) -> int:
        """The id of the account named ``username`` (any case), if it exists and is not disabled.

        :raises RoomError: (404) :data:`NO_SUCH_PLAYER` otherwise, whatever the name.
        """
        if not isinstance(username, str) or not 1 <= len(username) <= 40:
            raise RoomError(404, NO_SUCH_PLAYER)
        with self.engine.connect() as connection:
            found = connection.execute(
                select(UserTable.id).where(UserTable.key == username_key(username), UserTable.disabled.is_(False))
            ).scalar()
        if found is None:
            raise RoomError(404, NO_SUCH_PLAYER)
        return int(found)

    # -- blocks ---------------------------------------------------------------------------------

    def block(self, user: User, username: str) -> None:
        """``user`` blocks the account ``username`` (blocking twice is blocking once).

        :raises RoomError: 404 for no such player, 400 for oneself or too many blocks.
        """
        blocked = self.account_id(username)
        if blocked == user.id:
            raise RoomError(400, "you cannot block yourself")
        with self.engine.begin() as connection:
            if connection.execute(select(BlockTable.user_id).where(
                    BlockTable.user_id == user.id, BlockTable.blocked_id == blocked)).first() is not None:
                return
            count = connection.execute(select(func.count()).where(BlockTable.user_id == user.id)).scalar() or 0
            if count >= MAX_BLOCKS:
                raise RoomError(400, f"an account blocks at most {MAX_BLOCKS} others: unblock some first")
            try:
                connection.execute(insert(BlockTable).values(user_id=user.id, blocked_id=blocked, created=now()))
            except IntegrityError:  # blocked at the same moment by another request
                pass

    def unblock(self, user: User, username: str) -> None:
        """``user`` unblocks the account ``username`` (one not blocked stays so).

        :raises RoomError: 404 for no such player.
        """
        blocked = self.account_id(username)
        with self.engine.begin() as connection:
            connection.execute(delete(BlockTable).where(BlockTable.user_id == user.id, BlockTable.blocked_id == blocked))

    def blocked(self, user: User) -> list[str]:
        """The names of the accounts ``user`` blocked, in alphabetical order."""
        with self.engine.connect() as connection:
            names = connection.execute(
                select(UserTable.username).join(BlockTable, BlockTable.blocked_id == UserTable.id)
                .where(BlockTable.user_id == user.id)
            ).scalars()
            return sorted(names, key=str.casefold)

    # -- reports --------------------------------------------------------------------------------

    def report(self, user: User, username: str, reason: str, game: str | None = None, chat_seq: int | None = None) -> int:
        """``user`` reports the account ``username`` for ``reason``, perhaps
        for a game and one of its chat messages; the report's id
        (:meth:`check_report`, then :meth:`file`).

        :raises RoomError: as :meth:`check_report` does.
        """
        return self.file(self.check_report(user, username, reason, game, chat_seq))

    def check_report(
        self, user: User, username: str, reason: str, game: str | None = None, chat_seq: int | None = None
    ) -> Report:
        """A report ``user`` may make of the account ``username``, checked (not stored yet).

        :raises RoomError: 404 for no such player or game, or no such chat
            message of the player's in it; 400 for a reason that is empty or
            too long, oneself, or a chat message without its game.
        """
        text = check_reason(reason)
        reported = self.account_id(username)
        if reported == user.id:
            raise RoomError(400, "you cannot report yourself")
        if chat_seq is not None and game is None:
            raise RoomError(400, "a chat message is reported with its game")
        with self.engine.connect() as connection:
            if game is not None:
                if len(game) > 40 or connection.execute(select(GameTable.id).where(GameTable.id == game)).first() is None:
                    raise RoomError(404, "no such game")
            if chat_seq is not None:
                said = connection.execute(
                    select(ActionTable.seq)
                    .join(SeatTable, (SeatTable.game_id == ActionTable.game_id) & (SeatTable.seat == ActionTable.seat))
                    .where(ActionTable.game_id == game, ActionTable.seq == chat_seq, ActionTable.kind == "chat",
                           SeatTable.user_id == reported)
                ).first()
                if said is None:
                    raise RoomError(404, "no such chat message of that player's in that game")
        return Report(user.id, reported, text, game, chat_seq)

    def file(self, report: Report) -> int:
        """Store a checked report for the admins; its id."""
        with self.engine.begin() as connection:
            made = connection.execute(insert(ReportTable).values(
                reporter_id=report.reporter_id, user_id=report.user_id, game_id=report.game, chat_seq=report.chat_seq,
                reason=report.reason, created=now(), resolved=False))
            return int(made.inserted_primary_key[0])  # type: ignore[index]

    def open_reports(self, *, limit: int = 500) -> list[ReportRow]:
        """The reports not resolved yet, oldest first (at most ``limit``), with
        the names of those involved and the text of a chat message reported."""
        reporter, reported = aliased(UserTable), aliased(UserTable)
        query = (
            select(ReportTable.id, reporter.username, reported.username, ReportTable.reason, ReportTable.created,
                   ReportTable.game_id, ReportTable.chat_seq, ActionTable.kind, ActionTable.text)
            .outerjoin(reporter, reporter.id == ReportTable.reporter_id)
            .outerjoin(reported, reported.id == ReportTable.user_id)
            .outerjoin(ActionTable, (ActionTable.game_id == ReportTable.game_id) & (ActionTable.seq == ReportTable.chat_seq))
            .where(ReportTable.resolved.is_(False))
            .order_by(ReportTable.id)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            ReportRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6], _chat_text(row[7], row[8])) for row in rows
        ]

    def resolve(self, report_id: int) -> bool:
        """Mark a report resolved. Whether there was such an open report."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(ReportTable).where(ReportTable.id == report_id, ReportTable.resolved.is_(False)).values(resolved=True)
            )
        return bool(done.rowcount)

    # -- the accounts, as the admins see them ---------------------------------------------------

    def users(self) -> list[UserRow]:
        """Every account: its name, role, whether it is disabled, and when it was made (never its hash)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(UserTable.username, UserTable.role, UserTable.disabled, UserTable.created).order_by(UserTable.key)
            ).all()
        return [UserRow(name, role, bool(disabled), created) for name, role, disabled, created in rows]


def _chat_text(kind: str | None, text: str | None) -> str | None:
    """The words of a stored chat message (an observer's is JSON of its name and text)."""
    if kind == "chat":
        return text
    if kind == "watchchat" and text:
        try:
            return str(json.loads(text).get("text", ""))
        except (ValueError, AttributeError):
            return None
    return None
