"""Accounts: who a person is on this server, from one visit to the next.

A guest plays by seat link, as ever; an account adds a name kept across
games. What this module decides, in one place:

- **a username** is 3 to 20 letters, digits, ``_`` or ``-``, starting with a
  letter or digit; names that differ only by case are one name
  (:func:`username_key`), so ``Ann`` and ``ann`` never both exist;
- **a password** is 8 to 200 characters, kept only as an Argon2 hash
  (``argon2-cffi``), never logged;
- **a session** (the browser's cookie) and **an API token** (for scripts and
  bots, ``Authorization: Bearer``) are random secrets stored as their
  SHA-256 hash, so the database alone never lets anyone in; a session also
  carries a CSRF secret that every change made with the cookie must repeat;
- **deleting an account** keeps its games: the seats it held read
  "deleted", and the name is free again.

>>> check_username("Ann_Marie-2")
'Ann_Marie-2'
>>> username_key("Ann_Marie-2")
'ann_marie-2'
>>> check_username("a")
Traceback (most recent call last):
...
tilebag.server.accounts.AccountError: a username is 3 to 20 characters: letters, digits, _ and -, starting with a letter or digit
>>> accounts = Accounts(Store("sqlite://"))
>>> ann = accounts.register("Ann", "correct horse")
>>> accounts.authenticate("ANN", "correct horse") == ann, accounts.authenticate("ann", "wrong password!")
(True, None)
>>> session = accounts.open_session(ann.id)
>>> accounts.session_user(session.secret) == (ann, session.csrf)
True
>>> accounts.close_session(session.secret); accounts.session_user(session.secret) is None
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from tilebag.errors import TilebagError
from tilebag.server.store import MAX_EMAIL, SeatTable, SessionTable, Store, TokenTable, UserTable, now

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
"""What a username may be."""

MIN_PASSWORD, MAX_PASSWORD = 8, 200
"""A password's length: long enough to resist guessing, short enough to hash cheaply."""

SESSION_DAYS = 30
"""How long a session lasts without use."""

TOKEN_PREFIX = "tbu_"
"""How an account's API token begins: a seat's token never does, so one look tells them apart."""

DELETED = "deleted"
"""The name a deleted account's seats read."""

_HASHER = PasswordHasher()
_DUMMY_HASH = _HASHER.hash("a password no account has")
"""Checked against when the name is unknown, so a refusal takes as long either way."""


class AccountError(TilebagError, ValueError):
    """A username, password or email that cannot be used (the message says why)."""


@dataclass(frozen=True)
class User:
    """An account as the server uses it: never its password hash."""

    id: int
    username: str
    role: str = "player"

    @property
    def admin(self) -> bool:
        return self.role == "admin"


@dataclass(frozen=True)
class OpenedSession:
    """A new session: its secret goes in the cookie, its CSRF secret to the page."""

    secret: str
    csrf: str


@dataclass(frozen=True)
class TokenRow:
    """An API token as listed: its name and when it was made, never the secret."""

    id: int
    name: str
    created: str


def check_username(name: str) -> str:
    """``name`` if it may be a username.

    :raises AccountError: saying what a username may be.
    """
    if not isinstance(name, str) or not USERNAME.fullmatch(name):
        raise AccountError("a username is 3 to 20 characters: letters, digits, _ and -, starting with a letter or digit")
    return name


def username_key(name: str) -> str:
    """The username as compared: names that differ only by case are the same.

    >>> username_key("ANN") == username_key("ann")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def check_password(password: str) -> str:
    """``password`` if it is long enough and not too long.

    >>> check_password("short")
    Traceback (most recent call last):
    ...
    tilebag.server.accounts.AccountError: a password is 8 to 200 characters
    """
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def check_email(email: str | None) -> str | None:
    """``email`` if it looks like an address (or none was given).

    >>> check_email("ann@example.org"), check_email(None), check_email("")
    ('ann@example.org', None, None)
    """
    if not email:
        return None
    if len(email) > MAX_EMAIL or not re.fullmatch(r"[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+", email):
        raise AccountError("that email address does not look like one")
    return email


def secret_hash(secret: str) -> str:
    """How a session or token secret is stored: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class Accounts:
    """The accounts, sessions and API tokens, in the server's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -- accounts ---------------------------------------------------------------------------

    def register(self, username: str, password: str, email: str | None = None) -> User:
        """A new account.

        :raises AccountError: for a name, password or email that cannot be used, or a name taken.
        """
        name = check_username(username)
        check_password(password)
        mail = check_email(email)
        hashed = _HASHER.hash(password)
        try:
            with self.engine.begin() as connection:
                user_id = connection.execute(
                    insert(UserTable).values(username=name, key=username_key(name), password_hash=hashed,
                                             email=mail, created=now(), role="player", disabled=False)
                ).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            raise AccountError("that username is not available: choose another") from None
        return User(int(user_id), name)

    def authenticate(self, username: str, password: str) -> User | None:
        """The account ``username`` and ``password`` open, or ``None`` (whatever was wrong: the
        caller cannot tell an unknown name from a wrong password, nor can a clock)."""
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            return None
        with self.engine.connect() as connection:
            row = connection.execute(
                select(UserTable.id, UserTable.username, UserTable.role, UserTable.password_hash, UserTable.disabled)
                .where(UserTable.key == username_key(username[:40]))
            ).first()
        stored = row.password_hash if row is not None else _DUMMY_HASH
        try:
            _HASHER.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return None
        if row is None or row.disabled:
            return None
        if _HASHER.check_needs_rehash(stored):
            with self.engine.begin() as connection:
                connection.execute(update(UserTable).where(UserTable.id == row.id)
                                   .values(password_hash=_HASHER.hash(password)))
        return User(row.id, row.username, row.role)

    def user(self, username: str) -> User | None:
        """The account named ``username`` (any case), if it exists and is not disabled."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(UserTable.id, UserTable.username, UserTable.role)
                .where(UserTable.key == username_key(username[:40]), UserTable.disabled.is_(False))
            ).first()
        return User(row.id, row.username, row.role) if row is not None else None

    def change_password(self, user: User, old: str, new: str, *, keep: str | None = None) -> None:
        """Change ``user``'s password, and end every other session (``keep``: this one's secret).

        :raises AccountError: for a wrong old password or a new one that cannot be used.
        """
        check_password(new)
        if self.authenticate(user.username, old) != user:
            raise AccountError("the current password is not right")
        with self.engine.begin() as connection:
            connection.execute(update(UserTable).where(UserTable.id == user.id).values(password_hash=_HASHER.hash(new)))
            ending = delete(SessionTable).where(SessionTable.user_id == user.id)
            if keep is not None:
                ending = ending.where(SessionTable.secret_hash != secret_hash(keep))
            connection.execute(ending)

    def delete(self, user: User, password: str) -> None:
        """Delete ``user``'s account: its sessions and tokens end, its seats read "deleted".

        :raises AccountError: for a wrong password.
        """
        if self.authenticate(user.username, password) != user:
            raise AccountError("the password is not right")
        with self.engine.begin() as connection:
            connection.execute(update(SeatTable).where(SeatTable.user_id == user.id)
                               .values(name=DELETED, user_id=None))
            connection.execute(delete(SessionTable).where(SessionTable.user_id == user.id))
            connection.execute(delete(TokenTable).where(TokenTable.user_id == user.id))
            connection.execute(delete(UserTable).where(UserTable.id == user.id))

    def set_disabled(self, username: str, disabled: bool) -> bool:
        """Disable (or enable again) an account; a disabled one's sessions end. Whether it exists."""
        with self.engine.begin() as connection:
            found = connection.execute(select(UserTable.id).where(UserTable.key == username_key(username))).first()
            if found is None:
                return False
            connection.execute(update(UserTable).where(UserTable.id == found.id).values(disabled=disabled))
            if disabled:
                connection.execute(delete(SessionTable).where(SessionTable.user_id == found.id))
                connection.execute(delete(TokenTable).where(TokenTable.user_id == found.id))
        return True

    def set_role(self, username: str, role: str) -> bool:
        """Make an account an ``admin`` or a ``player``. Whether it exists."""
        if role not in ("admin", "player"):
            raise AccountError(f"no such role: {role!r} (admin or player)")
        with self.engine.begin() as connection:
            changed = connection.execute(update(UserTable).where(UserTable.key == username_key(username)).values(role=role))
        return bool(changed.rowcount)

    # -- sessions ---------------------------------------------------------------------------

    def open_session(self, user_id: int) -> OpenedSession:
        """A new session for the account: the secret for the cookie, and its CSRF secret."""
        opened = OpenedSession(secrets.token_urlsafe(32), secrets.token_urlsafe(24))
        with self.engine.begin() as connection:
            connection.execute(insert(SessionTable).values(
                secret_hash=secret_hash(opened.secret), user_id=user_id, csrf=opened.csrf,
                expires=now(SESSION_DAYS * 86400)))
        return opened

    def session_user(self, secret: str) -> tuple[User, str] | None:
        """The account a session's cookie opens and the session's CSRF secret, or ``None``
        (no such session, ended, expired, or its account disabled)."""
        if not secret or len(secret) > 100:
            return None
        with self.engine.connect() as connection:
            row = connection.execute(
                select(UserTable.id, UserTable.username, UserTable.role, SessionTable.csrf, SessionTable.expires)
                .join(UserTable, UserTable.id == SessionTable.user_id)
                .where(SessionTable.secret_hash == secret_hash(secret), UserTable.disabled.is_(False))
            ).first()
        if row is None or row.expires < now():
            return None
        return User(row.id, row.username, row.role), row.csrf

    def close_session(self, secret: str) -> None:
        """End a session (log out): its cookie opens nothing any more."""
        with self.engine.begin() as connection:
            connection.execute(delete(SessionTable).where(SessionTable.secret_hash == secret_hash(secret)))

    # -- API tokens -------------------------------------------------------------------------

    def create_token(self, user: User, name: str) -> tuple[int, str]:
        """A new API token for ``user``: its id and the secret, shown this once."""
        label = (name or "token").strip()[:40] or "token"
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with self.engine.begin() as connection:
            token_id = connection.execute(insert(TokenTable).values(
                secret_hash=secret_hash(secret), user_id=user.id, name=label, created=now())
            ).inserted_primary_key[0]  # type: ignore[index]
        return int(token_id), secret

    def tokens(self, user: User) -> list[TokenRow]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(TokenTable.id, TokenTable.name, TokenTable.created)
                                      .where(TokenTable.user_id == user.id).order_by(TokenTable.id)).all()
        return [TokenRow(r.id, r.name, r.created) for r in rows]

    def revoke_token(self, user: User, token_id: int) -> bool:
        """Revoke one of ``user``'s tokens. Whether it was theirs."""
        with self.engine.begin() as connection:
            gone = connection.execute(delete(TokenTable).where(TokenTable.id == token_id, TokenTable.user_id == user.id))
        return bool(gone.rowcount)

    def token_user(self, secret: str) -> User | None:
        """The account an API token opens, or ``None``."""
        if not secret.startswith(TOKEN_PREFIX) or len(secret) > 100:
            return None
        with self.engine.connect() as connection:
            row = connection.execute(
                select(UserTable.id, UserTable.username, UserTable.role)
                .join(TokenTable, TokenTable.user_id == UserTable.id)
                .where(TokenTable.secret_hash == secret_hash(secret), UserTable.disabled.is_(False))
            ).first()
        return User(row.id, row.username, row.role) if row is not None else None
