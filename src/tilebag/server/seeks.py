"""Seeks and challenges: games offered in the lobby, kept in the database.

A **seek** is a game an account offers: how many play (2 to 4), the rules, a
clock, whether it is rated, and the rating range it is open to. Other
accounts accept it, one place each; the acceptance that takes the last place
makes the game. A **challenge** is a seek of two that one account only may
accept, or decline.

What this module decides, in one place:

- **An offer is checked whole before anything is stored**: the rules preset
  and options as :func:`~tilebag.server.room.rules_of` reads them, the seats
  within what those rules allow, the clock (:class:`Clock`: a game clock of 1
  to 1440 minutes each with an optional overtime penalty, or 1 to 14 days per
  move for correspondence; the game clocks have no increment, so one is
  refused rather than ignored) and the rating range.
- **The last place is taken once.** An acceptance is decided in one
  transaction with the seek's row locked (``SELECT ... FOR UPDATE`` on
  PostgreSQL; on SQLite the transaction writes first, which takes the
  database's only write lock): when two people take the last place at once,
  through any of the processes sharing the database, one of them fills it
  and the other is refused. The seek is marked ``started`` in that
  transaction; its game is made right after
  (:meth:`~tilebag.server.service.GameService.create`) and its id stored with
  the seek. A process killed between the two leaves the seek started with no
  game: nobody can take it again, and its players offer another.
- **Who moves first is drawn**: the players are shuffled into the game's
  seats, as drawing tiles decides it at a board. Each seat is held by its
  player's account, so their session (or API token) opens it: no seat link.
- **A live seek lasts while its maker is around**: it expires
  :data:`SEEK_SECONDS` after it was last renewed, by its maker's open lobby
  socket or a request of theirs to the lobby (:meth:`Seeks.renew`). A
  correspondence seek (days per move) lasts :data:`CORRESPONDENCE_SEEK_DAYS`
  days, whoever is around. Expired seeks are marked by :meth:`Seeks.sweep`.
- **Blocks hold** (as :mod:`tilebag.server.safety` keeps them): nobody takes
  a place beside an account that blocked them or that they blocked, and
  nobody challenges one.
- **Ratings**: a seek is rated in the category
  :func:`~tilebag.server.ratings.category_of` gives its rules, seats and
  clock; its rating range is checked against the accepting account's rating
  in that category (:data:`~tilebag.server.ratings.START_RATING` before its
  first rated game there). Every player of a seek has an account, so a rated
  seek is always between accounts.

>>> Clock.of(game_minutes=25, overtime_penalty=10).options()
{'game-clock': '25m', 'overtime-penalty': '10'}
>>> Clock.of(days_per_move=3).options()
{'game-clock': 'none', 'overtime-penalty': '0', 'turn-time': 'none'}
>>> Clock.of(game_minutes=5, increment_seconds=2)
Traceback (most recent call last):
...
tilebag.server.room.RoomError: increment_seconds: the game clocks here have no increment (one clock for the whole game, with an optional overtime penalty): leave it out
>>> terms = terms_of(Offer(seats=2, rules="club", clock=Clock.of(game_minutes=5)))
>>> terms.preset, terms.category, terms.corr_days, terms.game_setup()["options"]
('tournament', 'blitz', None, {'game-clock': '5m'})
>>> terms_of(Offer(seats=5)).category
Traceback (most recent call last):
...
tilebag.server.room.RoomError: seats: a seek is for 2 to 4 players, not 5
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from random import SystemRandom
from typing import Literal

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from tilebag.rules import Rules, RulesError
from tilebag.server.accounts import Accounts, User
from tilebag.server.ratings import START_RATING, category_of, rating_of
from tilebag.server.room import RoomError, rules_of
from tilebag.server.safety import blocked_by_any, is_blocked
from tilebag.server.service import GameService
from tilebag.server.store import SeekSeatTable, SeekTable, UserTable, now

SEEK_SECONDS = 120.0
"""How long a live seek (or challenge) lasts after it was last renewed by its maker."""

RENEW_SECONDS = 30.0
"""How often a maker's open lobby socket renews their seeks."""

CORRESPONDENCE_SEEK_DAYS = 7
"""How long a correspondence seek lasts, renewed or not."""

MAX_OPEN_SEEKS = 10
"""The most seeks and challenges one account may have open at once."""

MAX_GAME_MINUTES = 24 * 60
"""The longest game clock a seek may give each player (the rules' own limit)."""

MAX_DAYS_PER_MOVE = 14
"""The most days per move of a correspondence seek."""

MAX_OVERTIME_PENALTY = 100
"""The most points a minute over the game clock may cost."""

RATING_LIMITS = (0, 4000)
"""The lowest and highest rating a seek's range may name."""

MAX_OPTIONS = 30
"""The most rules options an offer may change."""

STATUSES = ("open", "started", "cancelled", "declined", "expired")
"""What a seek's ``status`` may be: open, its game made (or being made), cancelled by its maker, a
challenge declined, or expired."""

Why = Literal["taken", "started", "cancelled", "declined", "expired"]
"""Why a seek left the lobby (see :meth:`Seeks.accept` for ``taken`` and ``started``)."""

_CLOCK_OPTIONS = frozenset({"game-clock", "overtime-penalty"})
"""The rules options a seek's clock sets: an offer with a clock may not set them again."""

_CORRESPONDENCE_OPTIONS = frozenset({"game-clock", "overtime-penalty", "turn-time"})
"""The rules options that time a game played in one sitting: a correspondence game has none."""


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Clock:
    """How long the players have: a game clock each (``game_minutes``, and
    the points a started minute over it costs, ``overtime_penalty``; none:
    as the rules say), or ``days_per_move`` for a correspondence game."""

    game_minutes: int | None = None
    overtime_penalty: int | None = None
    days_per_move: int | None = None

    @classmethod
    def of(
        cls, *, game_minutes: object = None, increment_seconds: object = None, overtime_penalty: object = None,
        days_per_move: object = None,
    ) -> Clock:
        """A clock as a request gives it.

        :raises RoomError: (400) saying what is wrong with it.
        """
        for name, value in (("game_minutes", game_minutes), ("increment_seconds", increment_seconds),
                            ("overtime_penalty", overtime_penalty), ("days_per_move", days_per_move)):
            if value is not None and not _whole(value):
                raise RoomError(400, f"clock.{name}: a whole number")
        if increment_seconds not in (None, 0):
            raise RoomError(400, "increment_seconds: the game clocks here have no increment (one clock for the whole "
                                 "game, with an optional overtime penalty): leave it out")
        if days_per_move is not None:
            if game_minutes is not None or overtime_penalty is not None:
                raise RoomError(400, "a clock is either game_minutes (with overtime_penalty) or days_per_move, not both")
            assert isinstance(days_per_move, int)
            if not 1 <= days_per_move <= MAX_DAYS_PER_MOVE:
                raise RoomError(400, f"days_per_move: 1 to {MAX_DAYS_PER_MOVE}, not {days_per_move}")
            return cls(days_per_move=days_per_move)
        if game_minutes is None:
            raise RoomError(400, "a clock needs game_minutes or days_per_move (send \"clock\": null for none)")
        assert isinstance(game_minutes, int)
        if not 1 <= game_minutes <= MAX_GAME_MINUTES:
            raise RoomError(400, f"game_minutes: 1 to {MAX_GAME_MINUTES}, not {game_minutes}")
        if overtime_penalty is not None:
            assert isinstance(overtime_penalty, int)
            if not 0 <= overtime_penalty <= MAX_OVERTIME_PENALTY:
                raise RoomError(400, f"overtime_penalty: 0 to {MAX_OVERTIME_PENALTY} points, not {overtime_penalty}")
        return cls(game_minutes=game_minutes, overtime_penalty=overtime_penalty)

    def options(self) -> dict[str, str]:
        """The rules options that give a game this clock (a correspondence
        game's days are its own: no clock, no turn timer)."""
        if self.days_per_move is not None:
            return {"game-clock": "none", "overtime-penalty": "0", "turn-time": "none"}
        chosen = {"game-clock": f"{self.game_minutes}m"}
        if self.overtime_penalty is not None:
            chosen["overtime-penalty"] = str(self.overtime_penalty)
        return chosen

    def to_json(self) -> dict[str, int]:
        """The clock as the API shows it.

        >>> Clock.of(game_minutes=3).to_json(), Clock.of(days_per_move=2).to_json()
        ({'game_minutes': 3}, {'days_per_move': 2})
        """
        return {name: value for name, value in (("game_minutes", self.game_minutes),
                                                  ("overtime_penalty", self.overtime_penalty),
                                                  ("days_per_move", self.days_per_move)) if value is not None}

    @classmethod
    def from_json(cls, data: object) -> Clock | None:
        """A clock as :meth:`to_json` stored it (none: no clock)."""
        if not isinstance(data, dict):
            return None
        return cls.of(**{key: data.get(key) for key in ("game_minutes", "overtime_penalty", "days_per_move")})


@dataclass(frozen=True)
class Offer:
    """A game offered, as a request gives it (checked by :func:`terms_of`)."""

    seats: int
    rules: str = "standard"
    options: Mapping[str, object] = field(default_factory=dict)
    rated: bool = False
    clock: Clock | None = None
    min_rating: int | None = None
    max_rating: int | None = None


@dataclass(frozen=True)
class Terms:
    """An offer checked: the game it makes, and how it is rated."""

    seats: int
    preset: str
    """The rules preset, by its own name (an alias given is resolved)."""
    options: dict[str, str]
    """The rules options as offered, named as the command line names them (``rack-size``)."""
    clock: Clock | None
    rated: bool
    min_rating: int | None
    max_rating: int | None
    category: str
    """The rating category of the game (:func:`~tilebag.server.ratings.category_of`)."""

    @property
    def corr_days(self) -> int | None:
        """Days per move of a correspondence game (none: played in one sitting)."""
        return self.clock.days_per_move if self.clock is not None else None

    def game_setup(self) -> dict[str, object]:
        """The game's setup as :meth:`~tilebag.server.service.GameService.create` takes it."""
        options = {**self.options, **(self.clock.options() if self.clock is not None else {})}
        return {"rules": self.preset, **({"options": options} if options else {})}

    def to_json(self) -> str:
        """The seek's ``setup`` as the database keeps it."""
        return json.dumps({"rules": self.preset, "options": self.options,
                           "clock": self.clock.to_json() if self.clock is not None else None, "category": self.category})


def _option_name(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _option_text(name: str, value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if not isinstance(value, str | int | float):
        raise RoomError(400, f"options.{name[:40]}: a text, number or yes/no")
    text = str(value)
    if len(text) > 100:
        raise RoomError(400, f"options.{name[:40]}: at most 100 characters")
    return text


def terms_of(offer: Offer) -> Terms:
    """An offer checked whole: the rules it names, its seats, clock and rating range.

    :raises RoomError: (400) naming what is wrong: an unknown preset or
        option, a value the option does not take, seats the rules do not
        allow, a clock out of bounds, a rating range upside down.
    """
    if not _whole(offer.seats) or not 2 <= offer.seats <= 4:
        raise RoomError(400, f"seats: a seek is for 2 to 4 players, not {offer.seats}")
    if not isinstance(offer.rules, str) or not offer.rules.strip() or len(offer.rules) > 40:
        raise RoomError(400, "rules: the name of a rules preset (tilebag rules lists them)")
    if len(offer.options) > MAX_OPTIONS:
        raise RoomError(400, f"options: at most {MAX_OPTIONS}")
    options: dict[str, str] = {}
    for raw, value in offer.options.items():
        if not isinstance(raw, str) or not raw.strip() or len(raw) > 40:
            raise RoomError(400, "options: each option is named as the command line names it (rack-size, challenge...)")
        options[_option_name(raw)] = _option_text(raw, value)
    if offer.clock is not None:
        timed = _CORRESPONDENCE_OPTIONS if offer.clock.days_per_move is not None else _CLOCK_OPTIONS
        clash = sorted(timed & set(options))
        if clash:
            raise RoomError(400, f"options {', '.join(clash)}: the seek's clock sets how long the players have; "
                                 "give it there, once")
    setup: dict[str, object] = {"rules": offer.rules, "options": {**options, **(offer.clock.options() if offer.clock else {})}}
    rules: Rules = rules_of(setup)
    if not rules.min_players <= offer.seats <= rules.max_players:
        raise RoomError(400, f"seats: the {rules.name} rules are for {rules.min_players} to {rules.max_players} players")
    try:
        rules.finish_targets(offer.seats)
    except RulesError as err:
        raise RoomError(400, str(err)) from None
    if not isinstance(offer.rated, bool):
        raise RoomError(400, "rated: true or false")
    low, high = RATING_LIMITS
    for name, rating in (("min_rating", offer.min_rating), ("max_rating", offer.max_rating)):
        if rating is not None and (not _whole(rating) or not low <= rating <= high):
            raise RoomError(400, f"{name}: a rating from {low} to {high}")
    if offer.min_rating is not None and offer.max_rating is not None and offer.min_rating > offer.max_rating:
        raise RoomError(400, "min_rating is above max_rating")
    corr_days = offer.clock.days_per_move if offer.clock is not None else None
    clock_seconds = int(rules.game_clock) if rules.game_clock is not None else None
    category = category_of(rules, offer.seats, clock_seconds=clock_seconds, corr_days=corr_days)
    return Terms(offer.seats, rules.name, options, offer.clock, offer.rated, offer.min_rating, offer.max_rating, category)


@dataclass(frozen=True)
class Seek:
    """A seek as the database holds it, with its players' names."""

    id: str
    by_id: int
    by: str
    """Its maker's username."""
    to_id: int | None
    to: str | None
    """The player challenged (none: a seek open to all)."""
    terms: Terms
    takers: tuple[tuple[int, str], ...]
    """The accounts that took a place (its maker first), in the order they came: ids and usernames."""
    created: str
    expires: str
    status: str
    game_id: str | None

    @property
    def taker_ids(self) -> tuple[int, ...]:
        return tuple(user_id for user_id, _ in self.takers)

    @property
    def audience(self) -> tuple[int, ...] | None:
        """Who may see it: its maker and the player challenged; none for everyone (a seek open to all)."""
        return None if self.to_id is None else (self.by_id, self.to_id)

    def visible_to(self, user_id: int | None) -> bool:
        return self.to_id is None or user_id in (self.by_id, self.to_id)

    @property
    def live(self) -> bool:
        """Whether it is played in one sitting (renewed while its maker is around), not by correspondence."""
        return self.terms.corr_days is None

    def public(self, viewer: int | None) -> dict[str, object]:
        """What the API shows of it to the account ``viewer`` (none: a guest): names, never an id of an account."""
        terms = self.terms
        return {
            "id": self.id, "by": self.by, "to": self.to, "seats": terms.seats, "taken": [name for _, name in self.takers],
            "rules": terms.preset, "options": terms.options, "rated": terms.rated,
            "clock": terms.clock.to_json() if terms.clock is not None else None,
            "min_rating": terms.min_rating, "max_rating": terms.max_rating, "category": terms.category,
            "created": self.created, "expires": self.expires, "yours": viewer is not None and viewer == self.by_id,
        }


@dataclass(frozen=True)
class Waiting:
    """An acceptance that took a place: ``left`` more are needed."""

    seek: Seek
    left: int


@dataclass(frozen=True)
class Started:
    """An acceptance that filled the seek: its game, and each player's seat by account."""

    seek: Seek
    game_id: str
    seats: dict[int, int]
    """Each player's seat, by account id."""


def _terms(row: RowMapping) -> Terms:
    setup = json.loads(row["setup"])
    return Terms(row["seats"], str(setup.get("rules")), dict(setup.get("options") or {}), Clock.from_json(setup.get("clock")),
                 bool(row["rated"]), row["min_rating"], row["max_rating"], str(setup.get("category")))


class Seeks:
    """The seeks and challenges of a server's database, and the games they make (through ``service``)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        self.engine = service.store.engine
        self._sqlite = self.store.url.startswith("sqlite")
        self._writing: contextlib.AbstractContextManager[object] = (
            threading.Lock() if self._sqlite else contextlib.nullcontext()
        )
        """SQLite has one writer at a time: this process's threads take turns here, not in SQLite's busy loop."""

    # -- reading ------------------------------------------------------------------------

    def _seeks(self, connection: Connection, *conditions: ColumnElement[bool]) -> list[Seek]:
        maker, target = aliased(UserTable), aliased(UserTable)
        query = (
            select(SeekTable.__table__, maker.username.label("by_name"), target.username.label("to_name"))
            .join(maker, maker.id == SeekTable.user_id)
            .outerjoin(target, target.id == SeekTable.to_user_id)
            .where(*conditions)
            .order_by(SeekTable.created)
            .limit(500)
        )
        rows = connection.execute(query).mappings().all()
        takers: dict[str, list[tuple[int, str]]] = {row["id"]: [] for row in rows}
        if rows:
            places = (
                select(SeekSeatTable.seek_id, SeekSeatTable.user_id, UserTable.username)
                .join(UserTable, UserTable.id == SeekSeatTable.user_id)
                .where(SeekSeatTable.seek_id.in_(list(takers)))
                .order_by(SeekSeatTable.seek_id, SeekSeatTable.place)
            )
            for seek_id, user_id, username in connection.execute(places):
                takers[seek_id].append((user_id, username))
        return [
            Seek(row["id"], row["user_id"], row["by_name"], row["to_user_id"], row["to_name"], _terms(row),
                 tuple(takers[row["id"]]), row["created"], row["expires"], row["status"], row["game_id"])
            for row in rows
        ]

    def get(self, seek_id: str) -> Seek | None:
        """The seek of that id, whatever its status."""
        with self.engine.connect() as connection:
            found = self._seeks(connection, SeekTable.id == seek_id)
        return found[0] if found else None

    def visible(self, viewer: int | None) -> list[Seek]:
        """The open seeks, oldest first: those open to all, and the challenges ``viewer`` made or was sent."""
        shown: ColumnElement[bool] = SeekTable.to_user_id.is_(None)
        if viewer is not None:
            shown = shown | (SeekTable.user_id == viewer) | (SeekTable.to_user_id == viewer)
        with self.engine.connect() as connection:
            return self._seeks(connection, SeekTable.status == "open", SeekTable.expires > now(), shown)

    # -- offering -----------------------------------------------------------------------

    def offer(self, user: User, offer: Offer, *, to: str | None = None) -> Seek:
        """A new seek by ``user`` (with ``to``, a challenge of that player).

        :raises RoomError: 400 for an offer that makes no game (see
            :func:`terms_of`) or a challenge of oneself or of more than two;
            404 for a challenge of no such player; 403 when one of the two
            blocked the other; 429 for an account with :data:`MAX_OPEN_SEEKS`
            open already.
        """
        terms = terms_of(offer)
        target: User | None = None
        if to is not None:
            if terms.seats != 2:
                raise RoomError(400, "seats: a challenge is a game of 2")
            target = Accounts(self.store).user(to) if isinstance(to, str) and to.strip() else None
            if target is None:
                raise RoomError(404, f"no player named {str(to)[:40]!r}")
            if target.id == user.id:
                raise RoomError(400, "you cannot challenge yourself")
        seek_id = secrets.token_urlsafe(12)
        lasts = CORRESPONDENCE_SEEK_DAYS * 86400.0 if terms.corr_days is not None else SEEK_SECONDS
        with self._writing, self.engine.begin() as connection:
            if target is not None:
                blocked = self._block(user.id, [target.id])
                if blocked is not None:
                    raise RoomError(403, "this player blocked you" if blocked == "by them" else "you blocked this player")
            held = connection.execute(
                select(func.count()).select_from(SeekTable)
                .where(SeekTable.user_id == user.id, SeekTable.status == "open", SeekTable.expires > now())
            ).scalar_one()
            if held >= MAX_OPEN_SEEKS:
                raise RoomError(429, f"you have {held} seeks open: cancel one first")
            connection.execute(insert(SeekTable).values(
                id=seek_id, user_id=user.id, created=now(), expires=now(lasts), seats=terms.seats,
                setup=terms.to_json(), rated=terms.rated, min_rating=terms.min_rating, max_rating=terms.max_rating,
                to_user_id=target.id if target is not None else None, status="open", game_id=None))
            connection.execute(insert(SeekSeatTable).values(seek_id=seek_id, user_id=user.id, place=0, joined=now()))
            return self._seeks(connection, SeekTable.id == seek_id)[0]

    # -- accepting ----------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self, seek_id: str) -> Iterator[tuple[Connection, Seek | None]]:
        """The seek under its row lock, in one transaction (committed when the block ends, rolled back if it
        raises): another process's change to it waits for this one."""
        with self._writing, self.engine.begin() as connection:
            if self._sqlite:  # a write first: the transaction holds SQLite's write lock from its start
                connection.execute(update(SeekTable).where(SeekTable.id == seek_id).values(id=SeekTable.id))
            else:
                connection.execute(select(SeekTable.id).where(SeekTable.id == seek_id).with_for_update())
            found = self._seeks(connection, SeekTable.id == seek_id)
            yield connection, (found[0] if found else None)

    def _block(self, user_id: int, others: Sequence[int]) -> Literal["by them", "by you"] | None:
        """Whether one of ``others`` blocked ``user_id`` (``by them``), or ``user_id`` blocked one of them
        (``by you``); none when neither (as :mod:`tilebag.server.safety` keeps blocks)."""
        if blocked_by_any(self.store, others, user_id):
            return "by them"
        if any(is_blocked(self.store, user_id, other) for other in others):
            return "by you"
        return None

    def _check_rating(self, seek: Seek, user: User) -> None:
        terms = seek.terms
        if terms.min_rating is None and terms.max_rating is None:
            return
        row = rating_of(self.store, user.id, terms.category)
        rating = row.rating if row is not None else START_RATING
        low = terms.min_rating if terms.min_rating is not None else RATING_LIMITS[0]
        high = terms.max_rating if terms.max_rating is not None else RATING_LIMITS[1]
        if not low <= rating <= high:
            raise RoomError(403, f"your {terms.category} rating {rating:.0f} is outside this seek's range {low} to {high}")

    def accept(self, seek_id: str, user: User) -> Waiting | Started:
        """``user`` takes a place in the seek: :class:`Waiting` while more are
        needed, :class:`Started` with the game when this place was the last.
        Decided under the seek's row lock, so the last place is taken once
        whichever processes are asked at once.

        :raises RoomError: 404 for no such seek (or a challenge of another
            player); 409 when it is no longer open, is the account's own, or
            the account has a place in it already; 403 when the account's
            rating is outside the seek's range, or it and one of the seek's
            players blocked the other.
        """
        seen = self.get(seek_id)
        if seen is None or not seen.visible_to(user.id):
            raise RoomError(404, "no such seek")
        self._check_rating(seen, user)
        with self._locked(seek_id) as (connection, seek):
            if seek is None:
                raise RoomError(404, "no such seek")
            if seek.by_id == user.id:
                raise RoomError(409, "this seek is yours: wait for others to accept it")
            if seek.status != "open" or seek.expires <= now():
                raise RoomError(409, "this seek is no longer open: it was taken, cancelled or it expired")
            if user.id in seek.taker_ids:
                raise RoomError(409, "you have a place in this seek already")
            if self._block(user.id, seek.taker_ids) is not None:
                raise RoomError(403, "you cannot play with one of this seek's players: one of you blocked the other")
            connection.execute(insert(SeekSeatTable).values(seek_id=seek_id, user_id=user.id,
                                                            place=len(seek.takers), joined=now()))
            takers = (*seek.takers, (user.id, user.username))
            if len(takers) < seek.terms.seats:
                return Waiting(self._seeks(connection, SeekTable.id == seek_id)[0], seek.terms.seats - len(takers))
            connection.execute(update(SeekTable).where(SeekTable.id == seek_id).values(status="started"))
        return self._start(seek, user, takers)

    def _start(self, seek: Seek, user: User, takers: tuple[tuple[int, str], ...]) -> Started:
        """Make the game of a seek just filled (marked started already); if it cannot be made, the last
        place is given back and the seek is open again."""
        order = list(takers)
        SystemRandom().shuffle(order)
        seats: list[dict[str, object]] = [{"name": name, "user": user_id} for user_id, name in order]
        terms = seek.terms
        try:
            room, _ = self.service.create(seats, terms.game_setup(), secrets.randbits(62), bots=False, rated=terms.rated,
                                          category=terms.category, corr_days=terms.corr_days)
        except Exception:
            with self._writing, self.engine.begin() as connection:
                connection.execute(delete(SeekSeatTable).where(SeekSeatTable.seek_id == seek.id,
                                                               SeekSeatTable.user_id == user.id))
                connection.execute(update(SeekTable).where(SeekTable.id == seek.id, SeekTable.status == "started",
                                                           SeekTable.game_id.is_(None)).values(status="open"))
            raise
        with self._writing, self.engine.begin() as connection:
            connection.execute(update(SeekTable).where(SeekTable.id == seek.id).values(game_id=room.game_id))
        started = Seek(seek.id, seek.by_id, seek.by, seek.to_id, seek.to, terms, takers, seek.created, seek.expires,
                       "started", room.game_id)
        return Started(started, room.game_id, {user_id: seat for seat, (user_id, _) in enumerate(order)})

    # -- withdrawing --------------------------------------------------------------------

    def cancel(self, seek_id: str, user: User) -> Seek:
        """Its maker withdraws a seek (or a challenge).

        :raises RoomError: 404 for no such seek (or another's challenge),
            403 for a seek that is not the account's, 409 for one no longer open.
        """
        with self._locked(seek_id) as (connection, seek):
            if seek is None or not seek.visible_to(user.id):
                raise RoomError(404, "no such seek")
            if seek.by_id != user.id:
                hint = ": decline it instead" if seek.to_id == user.id else ""
                raise RoomError(403, f"only the player who offered it may cancel it{hint}")
            if seek.status != "open":
                raise RoomError(409, "this seek is no longer open")
            connection.execute(update(SeekTable).where(SeekTable.id == seek_id).values(status="cancelled"))
        return seek

    def decline(self, seek_id: str, user: User) -> Seek:
        """The player challenged declines a challenge.

        :raises RoomError: 404 for no such challenge (or another's), 403 for
            its maker (who cancels it), 409 for one no longer open.
        """
        with self._locked(seek_id) as (connection, seek):
            if seek is None or seek.to_id is None or not seek.visible_to(user.id):
                raise RoomError(404, "no such challenge")
            if seek.to_id != user.id:
                raise RoomError(403, "only the player challenged may decline it (cancel your own challenge instead)")
            if seek.status != "open":
                raise RoomError(409, "this challenge is no longer open")
            connection.execute(update(SeekTable).where(SeekTable.id == seek_id).values(status="declined"))
        return seek

    # -- lasting ------------------------------------------------------------------------

    def renew(self, user_id: int) -> int:
        """Renew the account's live seeks for :data:`SEEK_SECONDS` more (its
        maker is around); how many. A seek that expired stays expired."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(SeekTable.id, SeekTable.setup)
                .where(SeekTable.user_id == user_id, SeekTable.status == "open", SeekTable.expires > now())
            ).all()
        live = [seek_id for seek_id, setup in found if not (json.loads(setup).get("clock") or {}).get("days_per_move")]
        if not live:
            return 0
        with self._writing, self.engine.begin() as connection:
            renewed = connection.execute(
                update(SeekTable)
                .where(SeekTable.id.in_(live), SeekTable.status == "open", SeekTable.expires > now())
                .values(expires=now(SEEK_SECONDS))
            )
        return int(renewed.rowcount)

    def sweep(self) -> list[Seek]:
        """Mark the open seeks whose time ran out as expired: those this call
        marked (each is marked by one process only, whichever sweep first)."""
        with self.engine.connect() as connection:
            due = list(connection.execute(
                select(SeekTable.id).where(SeekTable.status == "open", SeekTable.expires <= now()).limit(500)
            ).scalars())
        gone = []
        for seek_id in due:
            with self._writing, self.engine.begin() as connection:
                marked = connection.execute(
                    update(SeekTable).where(SeekTable.id == seek_id, SeekTable.status == "open", SeekTable.expires <= now())
                    .values(status="expired")
                )
                if marked.rowcount == 1:
                    gone.extend(self._seeks(connection, SeekTable.id == seek_id))
        return gone
