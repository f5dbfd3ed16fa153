"""Club nights and tournaments kept in a database: events, their divisions
and players, the rounds with the method and seed each was paired by, the
pairings, and the results.

The same :class:`EventStore` serves a director's laptop (``tilebag event``
on a local SQLite file) and the server (its own database, SQLite or
PostgreSQL). It decides nothing about standings or pairings itself: those
are :mod:`tilebag.events`, computed from what is stored. A corrected result
changes every standing after it because standings are never stored.

What a division keeps:

- **players**, numbered from 1 in the order they are added (tsh's
  numbering), each with the round they joined and the round they withdrew
  from: a late entry joins from the next round to pair, a withdrawn player
  is not paired from the next round on;
- **rounds**, each paired once by a method (:class:`tilebag.events.Method`)
  and a seed, both stored, so the pairings can be made again from what was
  stored; a round may be paired again, or a pairing changed, until it
  starts (its first result);
- **pairings**, board by board; a bye in the pairings is a result (a win of
  :data:`~tilebag.events.BYE_SPREAD`), with nothing to enter;
- **results**: games entered by the director, or by a player and then
  confirmed by the opponent (only confirmed results count), byes and
  forfeits the director gives, corrections (stamped with their time).

Every change is one transaction under the event's row lock, so a director
at the command line and a server sharing the database take turns.

>>> from tilebag.server.store import Store
>>> events = EventStore(Store("sqlite://"))
>>> club = events.create_event("Tuesday club", rounds=2)
>>> for name, rating in [("Ann", 1800), ("Bob", 1700), ("Cy", 1600)]:
...     _ = events.add_player(club.id, None, name, rating=rating)
>>> [(p.a, p.b) for p in events.pair(club.id, None, 1, "swiss", seed=1)]
[(2, 1), (3, None)]
>>> _ = events.enter_result(club.id, None, 1, 1, 420, 380)
>>> [(s.player.name, s.record, s.spread) for s in events.standings(club.id, None)]
[('Cy', '1-0', 50), ('Ann', '1-0', 40), ('Bob', '0-1', -40)]
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import unicodedata
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from tilebag.errors import TilebagError, quote
from tilebag.events import tsh
from tilebag.events.pairing import Method, Pairing, Pairings, find_method, pair_round
from tilebag.events.standings import (
    BYE_SPREAD,
    FORFEIT_SPREAD,
    MAX_NAME_CHARS,
    Game,
    Player,
    PlayerId,
    Standing,
    standings,
)
from tilebag.rules import find_rules
from tilebag.server.store import (
    DivisionTable,
    EventPlayerTable,
    EventTable,
    PairingTable,
    ResultTable,
    RoundTable,
    Store,
    now,
)

__all__ = [
    "CLOCK_KEYS",
    "MAX_DIVISION_CHARS",
    "Event",
    "EventError",
    "EventStore",
    "Result",
    "Round",
]

MAX_DIVISION_CHARS = 40
"""The longest division name."""

CLOCK_KEYS = frozenset({"game_minutes", "overtime_penalty", "days_per_move"})
"""What an event's clock may say (as the server's seeks name it)."""

MAX_ROUNDS = tsh.MAX_ROUNDS
"""The most rounds an event may plan (what a ``.t`` file can hold)."""

MAX_PLAYERS = tsh.MAX_PLAYERS
"""The most players in a division."""


class EventError(TilebagError, ValueError):
    """A change an event cannot take, or a name that finds nothing: the
    message says what and why, and nothing was stored.

    >>> from tilebag.server.store import Store
    >>> EventStore(Store("sqlite://")).event(7)
    Traceback (most recent call last):
    ...
    tilebag.server.events.EventError: there is no event 7
    """


@dataclass(frozen=True)
class Event:
    """An event as stored."""

    id: int
    name: str
    director: str | None
    """The director's name (an event in a local file)."""
    director_id: int | None
    """The director's account (an event on a server)."""
    created: str
    rules: str
    """The rules preset, by its own name."""
    options: dict[str, str]
    """The rules options that change the preset, as the command line names them."""
    clock: dict[str, int | None] | None
    rounds: int | None
    """The rounds planned, or None: as many as the director pairs."""
    online: bool
    status: str
    """``open`` (no round paired), ``running`` or ``over`` (every round planned has every result)."""
    divisions: tuple[str, ...]


@dataclass(frozen=True)
class Round:
    """A round as it was paired."""

    number: int
    method: Method
    seed: int
    """What was left to chance (a shuffle, a coin for the start): the same seed pairs the same way."""
    started: bool
    """A result is in (or the director started it): the pairings no longer change."""


@dataclass(frozen=True)
class Result:
    """A stored result and who entered it."""

    game: Game
    entered: str
    """When it was entered (ISO time, UTC)."""
    entered_by: PlayerId | None
    """The player who entered it, or None: the director (or the server, for an online game)."""
    confirmed: bool
    """It counts: entered by the director, or confirmed by the opponent of the player who entered it."""
    game_id: str | None = None
    """The server's game, for a game played online."""
    corrected_at: str | None = None
    """When a director last corrected it."""


def _check_text(text: object, what: str, limit: int) -> str:
    if not isinstance(text, str) or not text.strip():
        raise EventError(f"{what} is needed, got {text!r}")
    text = text.strip()
    if len(text) > limit:
        raise EventError(f"{what} {quote(text)} is longer than {limit} characters")
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise EventError(f"{what} {quote(text)} has a control character")
    return text


def _key(name: str) -> str:
    """A name as names are compared: any case, spaces trimmed."""
    return name.strip().casefold()


def _who(player: Player) -> str:
    return f"{player.name} (#{player.id})"


@dataclass
class _Division:
    """A division read whole (events are small): what every decision about it is made from."""

    id: int
    name: str
    event: Event
    players: list[Player]
    accounts: dict[PlayerId, int]
    extra: dict[PlayerId, dict[str, str]]
    rounds: dict[int, Round]
    boards: dict[int, list[Pairing]]
    results: list[tuple[int, Result]] = field(default_factory=list)
    """Each with its row id, in the order entered."""

    def player(self, number: PlayerId) -> Player:
        for player in self.players:
            if player.id == number:
                return player
        raise EventError(f"division {self.name} has no player {number!r} (it has {len(self.players)})")

    def next_round(self) -> int:
        """The next round to pair."""
        return max(self.rounds, default=0) + 1

    def first_open(self) -> int:
        """The first round that has not started."""
        return max((r.number for r in self.rounds.values() if r.started), default=0) + 1

    def board(self, round_number: int, player: PlayerId) -> Pairing | None:
        """``player``'s board in the round, None when not paired in it."""
        for pairing in self.boards.get(round_number, ()):
            if player in pairing.players:
                return pairing
        return None

    def stored(self, round_number: int, players: Sequence[PlayerId | None]) -> list[tuple[int, Result]]:
        """The stored results of the round that any of ``players`` has."""
        wanted = {p for p in players if p is not None}
        return [(row, r) for row, r in self.results if r.game.round == round_number and wanted & set(r.game.players)]

    def games(self, *, without_byes_of: int | None = None) -> list[Game]:
        """What the standings count: the confirmed results, and the byes of
        the pairings (but those of round ``without_byes_of``, being paired
        again) that no stored result of that player's replaces."""
        counted = [r.game for _, r in self.results if r.confirmed]
        has = {(r.game.round, who) for _, r in self.results for who in r.game.players}
        for number, boards in self.boards.items():
            if number == without_byes_of:
                continue
            for pairing in boards:
                if pairing.b is None and (number, pairing.a) not in has:
                    counted.append(Game.bye(number, pairing.a))
        return sorted(counted, key=lambda g: (g.round, min(g.players)))

    def missing(self, round_number: int) -> list[Pairing]:
        """The boards of the round (byes aside) without a confirmed result."""
        done = {(r.game.round, who) for _, r in self.results if r.confirmed for who in r.game.players}
        return [p for p in self.boards.get(round_number, ()) if p.b is not None and (round_number, p.a) not in done]

    def total_rounds(self, round_number: int) -> int:
        return self.event.rounds if self.event.rounds is not None else max(round_number, 1)

    def pairings(self, round_number: int) -> Pairings:
        found = self.rounds.get(round_number)
        if found is None:
            raise EventError(f"division {self.name}: round {round_number} is not paired")
        return Pairings(round_number, found.method, tuple(self.boards.get(round_number, ())))

    def boards_text(self, boards: Sequence[Pairing]) -> str:
        by_id = {p.id: p for p in self.players}
        return ", ".join(
            f"{_who(by_id[p.a])} v {_who(by_id[p.b])}" if p.b is not None else f"{_who(by_id[p.a])} (bye)" for p in boards
        )

    def tsh_division(self) -> tsh.Division:
        games = self.games()
        scored = {(g.round, who) for g in games for who in g.players}
        pending = [
            p for number in sorted(self.boards) for p in self.boards[number]
            if p.b is not None and not {(number, who) for who in p.players} & scored
        ]
        return tsh.Division(tuple(self.players), tuple(games), tuple(pending), dict(self.extra))


class EventStore:
    """The events of one database (:class:`~tilebag.server.store.Store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        self._sqlite = store.url.startswith("sqlite")
        self._writing: contextlib.AbstractContextManager[object] = (
            threading.Lock() if self._sqlite else contextlib.nullcontext()
        )
        """SQLite has one writer at a time: this process's threads take turns here, not in SQLite's busy loop."""

    # -- transactions ---------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self, event_id: int) -> Iterator[tuple[Connection, Event]]:
        """The event under its row lock, in one transaction: committed when
        the block ends, rolled back (nothing stored) if it raises."""
        with self._writing, self.engine.begin() as connection:
            self._lock(connection, event_id)
            yield connection, _event(connection, event_id)

    def _lock(self, connection: Connection, event_id: int) -> None:
        """Take the event's row lock in the transaction of ``connection``."""
        if self._sqlite:  # a write first: the transaction holds SQLite's write lock from its start
            found = connection.execute(
                update(EventTable).where(EventTable.id == event_id).values(id=EventTable.id)
            ).rowcount == 1
        else:
            found = connection.execute(
                select(EventTable.id).where(EventTable.id == event_id).with_for_update()
            ).first() is not None
        if not found:
            raise EventError(f"there is no event {event_id}")

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A read in one transaction: on PostgreSQL one snapshot (repeatable
        read); on SQLite each statement sees what was committed before it."""
        with self.engine.connect() as connection:
            if not self._sqlite:
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                yield connection

    def _read(self, event_id: int, division: str | None) -> _Division:
        with self._reading() as connection:
            return _load(connection, _event(connection, event_id), division)

    # -- events and divisions -------------------------------------------------------------

    def create_event(
        self, name: str, *, divisions: Sequence[str] = ("A",), rules: str = "standard",
        options: Mapping[str, object] | None = None, clock: Mapping[str, object] | None = None,
        rounds: int | None = None, director: str | None = None, director_id: int | None = None, online: bool = False,
    ) -> Event:
        """A new event with its divisions (one, ``A``, unless told).

        :raises EventError: for a name or a division that cannot be, two
            divisions of one name, a number of rounds out of range, a clock
            that says what a clock does not.
        :raises RulesError: for an unknown preset or an option it does not take.
        """
        name = _check_text(name, "an event's name", MAX_NAME_CHARS)
        names = [_check_text(d, "a division's name", MAX_DIVISION_CHARS) for d in divisions]
        if not names:
            raise EventError("an event has at least one division")
        twice = [d for d in names if [_key(n) for n in names].count(_key(d)) > 1]
        if twice:
            raise EventError(f"two divisions are named {quote(twice[0])}")
        given = {str(k).strip().lower().replace("_", "-"): _option_text(v) for k, v in (options or {}).items()}
        preset = find_rules(rules)
        preset.with_options(given)
        if rounds is not None and (not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS):
            raise EventError(f"an event has 1 to {MAX_ROUNDS} rounds, not {rounds!r}")
        if director is not None:
            director = _check_text(director, "a director's name", MAX_NAME_CHARS)
        checked_clock = _check_clock(clock)
        with self._writing, self.engine.begin() as connection:
            event_id = connection.execute(
                insert(EventTable).values(
                    name=name, director_id=director_id, director=director, created=now(), rules=preset.name,
                    options=json.dumps(given), clock=None if checked_clock is None else json.dumps(checked_clock),
                    rounds=rounds, online=bool(online), status="open",
                ).returning(EventTable.id)
            ).scalar_one()
            for division in names:
                connection.execute(insert(DivisionTable).values(event_id=event_id, name=division))
            return _event(connection, event_id)

    def add_division(self, event_id: int, name: str) -> Event:
        """A new division in the event.

        :raises EventError: for a name that cannot be or that a division has already.
        """
        name = _check_text(name, "a division's name", MAX_DIVISION_CHARS)
        with self._locked(event_id) as (connection, event):
            _add_division(connection, event, name)
            return _event(connection, event_id)

    def event(self, event_id: int) -> Event:
        """The event of that number.

        :raises EventError: when there is none.
        """
        with self._reading() as connection:
            return _event(connection, event_id)

    def events(self) -> list[Event]:
        """Every event, oldest first."""
        with self._reading() as connection:
            ids = connection.execute(select(EventTable.id).order_by(EventTable.id)).scalars().all()
            return [_event(connection, event_id) for event_id in ids]

    def find_event(self, text: str) -> Event:
        """The event ``text`` names: its number, or its name (any case).

        :raises EventError: when none has it, or several events share the name.
        """
        text = str(text).strip()
        with self._reading() as connection:
            if text.isascii() and text.isdigit() and len(text) <= 9:
                found = connection.execute(select(EventTable.id).where(EventTable.id == int(text))).first()
                if found is not None:
                    return _event(connection, int(text))
            ids = connection.execute(select(EventTable.id).where(EventTable.name == text)).scalars().all()
            if not ids:
                ids = connection.execute(
                    select(EventTable.id).where(func.lower(EventTable.name) == text.lower())
                ).scalars().all()
            if not ids:
                raise EventError(f"there is no event {quote(text)}")
            if len(ids) > 1:
                raise EventError(f"{len(ids)} events are named {quote(text)}: give its number ({', '.join(map(str, ids))})")
            return _event(connection, ids[0])

    # -- players --------------------------------------------------------------------------

    def add_player(
        self, event_id: int, division: str | None, name: str, *, rating: int | None = None,
        user_id: int | None = None, joined: int | None = None,
    ) -> Player:
        """A new player, numbered after the others. A late entry joins from
        the next round to pair (``joined`` may say a later one, or a round
        already paired that has not started: that round must then be paired
        again to include them). What the rounds missed count (byes, forfeit
        losses, nothing) the director gives with :meth:`give_bye` or
        :meth:`give_forfeit`.

        :raises EventError: for a name another player of the division has, a
            round that has started, a full division.
        :raises ResultError: for a name or a rating that cannot be.
        """
        return self.add_players(event_id, division, [(name, rating, user_id)], joined=joined)[0]

    def add_players(
        self, event_id: int, division: str | None, entries: Sequence[tuple[str, int | None, int | None]], *,
        joined: int | None = None,
    ) -> list[Player]:
        """Several players at once (each ``(name, rating, user_id)``), all or
        none: as :meth:`add_player`, in one transaction."""
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            first_open, next_round = d.first_open(), d.next_round()
            if joined is None:
                joined = next_round
            _check_round(d, joined)
            if joined < first_open:
                raise EventError(f"division {d.name}: round {first_open - 1} has started; a late entry joins from "
                                 f"round {first_open} on")
            added: list[Player] = []
            for name, rating, user_id in entries:
                if isinstance(rating, int) and rating > tsh.MAX_RATING:
                    raise EventError(f"a rating is at most {tsh.MAX_RATING}, not {rating}")
                if len(d.players) >= MAX_PLAYERS:
                    raise EventError(f"division {d.name} has {MAX_PLAYERS} players, the most a division has")
                player = Player(len(d.players) + 1, name.strip() if isinstance(name, str) else name, rating=rating,
                                joined=joined)
                for other in d.players:
                    if _key(other.name) == _key(player.name):
                        raise EventError(
                            f"division {d.name} has a player named {quote(other.name)} already (#{other.id})")
                connection.execute(insert(EventPlayerTable).values(
                    division_id=d.id, number=player.id, name=player.name, user_id=user_id, rating=player.rating,
                    joined=player.joined, withdrawn=None, tsh_fields=None))
                d.players.append(player)
                added.append(player)
            return added

    def withdraw(self, event_id: int, division: str | None, player: PlayerId, *, from_round: int | None = None) -> Player:
        """Withdraw ``player``: not paired from ``from_round`` on (by default
        the next round to pair; a round already paired that has not started
        must then be paired again, or the player given a forfeit in it).
        Their results stand.

        :raises EventError: for a player withdrawn already, or a round that has started.
        """
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            found = d.player(player)
            if found.withdrawn is not None:
                raise EventError(f"{_who(found)} has withdrawn already (not paired from round {found.withdrawn})")
            first_open = d.first_open()
            if from_round is None:
                from_round = max(d.next_round(), found.joined)
            else:
                _check_round(d, from_round)
            if from_round < first_open:
                raise EventError(f"division {d.name}: round {first_open - 1} has started; a player withdraws from "
                                 f"round {first_open} on")
            if from_round < found.joined:
                raise EventError(f"{_who(found)} joins in round {found.joined}: withdraw from round {found.joined} on")
            gone = Player(found.id, found.name, rating=found.rating, joined=found.joined, withdrawn=from_round)
            connection.execute(update(EventPlayerTable).where(
                EventPlayerTable.division_id == d.id, EventPlayerTable.number == found.id).values(withdrawn=from_round))
            return gone

    def players(self, event_id: int, division: str | None) -> tuple[Player, ...]:
        """The division's players, by number."""
        return tuple(self._read(event_id, division).players)

    def accounts(self, event_id: int, division: str | None) -> dict[PlayerId, int]:
        """The accounts of the players who have one (a server's event), by player number."""
        return dict(self._read(event_id, division).accounts)

    def find_player(self, event_id: int, division: str | None, text: str) -> Player:
        """The player ``text`` names: their number, or their name (any case).

        :raises EventError: when no player has it, or several do.
        """
        d = self._read(event_id, division)
        text = str(text).strip()
        if text.isascii() and text.isdigit() and len(text) <= 6:
            return d.player(int(text))
        named = [p for p in d.players if _key(p.name) == _key(text)]
        if not named:
            raise EventError(f"division {d.name} has no player {quote(text)}")
        if len(named) > 1:
            raise EventError(f"{len(named)} players of division {d.name} are named {quote(text)}: give the number "
                             f"({', '.join(str(p.id) for p in named)})")
        return named[0]

    # -- rounds and pairings ----------------------------------------------------------------

    def pair(
        self, event_id: int, division: str | None, round_number: int, method: Method | str, *,
        seed: int | None = None, fixed: Sequence[tuple[PlayerId, PlayerId | None]] | None = None,
    ) -> Pairings:
        """Pair the round by ``method`` (:func:`tilebag.events.pair_round`)
        and store the pairings, the method and the seed (drawn when not
        given). Rounds are paired in order; a round that has not started may
        be paired again (with the seed it had, unless another is given) while
        the next round is not paired. Swiss, king of the hill and the
        Australian draw rank the players by the results, so every board of
        the rounds before needs its result.

        :raises EventError: for a round out of order, one that has started, or
            results missing.
        :raises PairingError: for an unknown method or fixed pairings that do not pair the round.
        """
        chosen = find_method(method)
        if seed is not None and (not isinstance(seed, int) or not 0 <= seed < 2**63):
            raise EventError(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            known = d.rounds.get(round_number) if isinstance(round_number, int) else None
            _check_pairable(d, round_number)
            if chosen in (Method.SWISS, Method.KING_OF_THE_HILL, Method.AUSTRALIAN_DRAW):
                for earlier in range(1, round_number):
                    missing = d.missing(earlier)
                    if missing:
                        raise EventError(
                            f"division {d.name}: round {earlier} has no result yet for {d.boards_text(missing)}; "
                            f"{chosen.value} ranks the players by their results: enter them first (or pair by "
                            "round robin, random or fixed)")
            if seed is None:
                seed = known.seed if known is not None else secrets.randbelow(2**31)
            pairings = pair_round(
                chosen, d.players, d.games(without_byes_of=round_number), round_number, seed=seed,
                total_rounds=d.total_rounds(round_number), fixed=fixed,
            )
            _store_round(connection, d, Round(round_number, chosen, seed, False), pairings.games)
            if event.status == "open":
                connection.execute(update(EventTable).where(EventTable.id == event.id).values(status="running"))
            return pairings

    def change_pairing(
        self, event_id: int, division: str | None, round_number: int, player: PlayerId, opponent: PlayerId | None,
    ) -> Pairings:
        """Before the round starts: put ``player`` against ``opponent`` (None:
        give ``player`` the bye). Their former opponents play each other (or
        take the bye); the other boards stay as they were, and the new
        boards' starts are balanced as pairing does. The round is then
        stored as fixed, the director's own pairing.

        :raises EventError: for a round not paired or started, a player not in it.
        :raises PairingError: when the change would leave two byes.
        """
        if player == opponent:
            raise EventError(f"round {round_number}: player {player} cannot play themselves")
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            old = d.pairings(round_number)
            if d.rounds[round_number].started:
                raise EventError(f"division {d.name}: round {round_number} has started; its pairings stay")
            mine = d.board(round_number, player)
            if mine is None:
                raise EventError(f"{_who(d.player(player))} is not paired in round {round_number}")
            theirs = None
            if opponent is not None:
                theirs = d.board(round_number, opponent)
                if theirs is None:
                    raise EventError(f"{_who(d.player(opponent))} is not paired in round {round_number}")
            else:
                theirs = next((p for p in old if p.b is None and p is not mine), None)
            if theirs is mine or (opponent is None and mine.b is None):
                return old
            former = mine.b if mine.a == player else mine.a
            if opponent is not None:
                assert theirs is not None
                other = theirs.b if theirs.a == opponent else theirs.a
            else:
                other = theirs.a if theirs is not None else None
            changed = [p for p in old if p is not mine and p is not theirs]
            pairs: list[tuple[PlayerId, PlayerId | None]] = [(p.a, p.b) for p in changed]
            pairs.append((player, opponent))
            left = [who for who in (former, other) if who is not None]
            if len(left) == 2:
                pairs.append((left[0], left[1]))
            elif left:
                pairs.append((left[0], None))
            fresh = pair_round(
                Method.FIXED, d.players, d.games(without_byes_of=round_number), round_number,
                seed=d.rounds[round_number].seed, total_rounds=d.total_rounds(round_number), fixed=pairs,
            )
            kept = {frozenset(p.players): p for p in changed}
            boards = tuple(kept.get(frozenset(p.players), p) for p in fresh)
            seed = d.rounds[round_number].seed
            _store_round(connection, d, Round(round_number, Method.FIXED, seed, False), boards)
            return Pairings(round_number, Method.FIXED, boards)

    def start_round(self, event_id: int, division: str | None, round_number: int) -> None:
        """Start the round: its pairings no longer change (entering its first result does this too)."""
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            d.pairings(round_number)
            _start(connection, d, round_number)

    def rounds(self, event_id: int, division: str | None) -> tuple[Round, ...]:
        """The rounds paired, in order."""
        d = self._read(event_id, division)
        return tuple(d.rounds[n] for n in sorted(d.rounds))

    def pairings(self, event_id: int, division: str | None, round_number: int) -> Pairings:
        """The round's pairings, board 1 first, byes last.

        :raises EventError: for a round not paired.
        """
        return self._read(event_id, division).pairings(round_number)

    def missing(self, event_id: int, division: str | None, round_number: int) -> tuple[Pairing, ...]:
        """The round's boards (byes aside) still without a confirmed result."""
        return tuple(self._read(event_id, division).missing(round_number))

    # -- results --------------------------------------------------------------------------

    def enter_result(
        self, event_id: int, division: str | None, round_number: int, player: PlayerId, score: int,
        opponent_score: int, *, by: PlayerId | None = None, game_id: str | None = None,
    ) -> Result:
        """Enter the result of ``player``'s game in the round: their score and
        their opponent's (the opponent and who went first come from the
        pairing). Entered by the director (``by`` None) it counts at once;
        entered by a player (``by``), it counts once the opponent confirms it
        (:meth:`confirm_result`, or the same result entered by the opponent).
        ``game_id``: the server's game, for a game played online.

        :raises EventError: for a round not paired, a player without an
            opponent in it, a result that is in already (correct it with
            :meth:`correct_result`), a player entering another's game.
        :raises ResultError: for a score out of range.
        """
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            pairing, opponent = _opponent(d, round_number, player)
            if by is not None and by not in pairing.players:
                raise EventError(f"{_who(d.player(by))} did not play {_who(d.player(player))} in round {round_number}")
            game = Game(round_number, player, opponent, score, opponent_score, first=pairing.first)
            existing = d.stored(round_number, pairing.players)
            if existing:
                _, result = existing[0]
                if by is not None and not result.confirmed and result.entered_by not in (None, by):
                    if result.game != game:
                        raise EventError(
                            f"round {round_number}: {_who(d.player(result.entered_by))} entered "
                            f"{_score_text(d, result.game)}; confirm it, or ask the director to correct it")
                    return _confirm(connection, d, existing[0][0], result)
                raise EventError(f"round {round_number}: {_who(d.player(player))} has a result already "
                                 f"({_score_text(d, result.game)}): correct it instead")
            stored = Result(game, now(), by, by is None, game_id)
            _insert(connection, d, stored)
            _after_result(connection, d, round_number)
            return stored

    def confirm_result(self, event_id: int, division: str | None, round_number: int, player: PlayerId) -> Result:
        """``player`` confirms the result their opponent entered: it counts from now.

        :raises EventError: when there is no result to confirm, or ``player`` entered it.
        """
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            who = d.player(player)
            existing = d.stored(round_number, [player])
            if not existing or existing[0][1].confirmed:
                raise EventError(f"round {round_number}: {_who(who)} has no result waiting to be confirmed")
            row, result = existing[0]
            if result.entered_by == player:
                raise EventError(f"round {round_number}: {_who(who)} entered this result: their opponent confirms it")
            return _confirm(connection, d, row, result)

    def correct_result(
        self, event_id: int, division: str | None, round_number: int, player: PlayerId, score: int,
        opponent_score: int,
    ) -> Result:
        """The director corrects the result of ``player``'s game in the round
        (a forfeit given there included): it replaces the one stored, and
        the standings after it follow.

        :raises EventError: when there is no result to correct (enter it instead).
        :raises ResultError: for a score out of range.
        """
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            pairing, opponent = _opponent(d, round_number, player)
            game = Game(round_number, player, opponent, score, opponent_score, first=pairing.first)
            existing = d.stored(round_number, pairing.players)
            if not existing:
                raise EventError(f"round {round_number}: {_who(d.player(player))} has no result to correct: enter it")
            return _replace(connection, d, existing, game)

    def give_forfeit(
        self, event_id: int, division: str | None, round_number: int, player: PlayerId, *,
        spread: int = FORFEIT_SPREAD, correct: bool = False,
    ) -> Result:
        """``player`` forfeits the round: a loss by ``spread``, and a win by as
        much for their opponent when they were paired with one. Given for a
        round not paired (a late entry's missed round, a player who will not
        come), it takes the player out of that round's pairing.

        :raises EventError: for a player with a result in the round already
            (unless ``correct``), a round the event does not have.
        """
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            d.player(player)
            _check_round(d, round_number)
            pairing = d.board(round_number, player)
            opponent = None if pairing is None or pairing.b is None else pairing.b if pairing.a == player else pairing.a
            game = Game.forfeit_loss(round_number, player, opponent=opponent, spread=spread)
            return self._give(connection, d, game, correct)

    def give_bye(
        self, event_id: int, division: str | None, round_number: int, player: PlayerId, *,
        spread: int = BYE_SPREAD, correct: bool = False,
    ) -> Result:
        """A bye for ``player`` in a round they are not paired against
        anyone in: a win by ``spread`` (a late entry's missed round, say).
        The byes of the pairings need no giving.

        :raises EventError: for a player paired with an opponent in the round
            (change the pairing), a result in the round already (unless
            ``correct``), a round the event does not have.
        """
        with self._locked(event_id) as (connection, event):
            d = _load(connection, event, division)
            who = d.player(player)
            _check_round(d, round_number)
            pairing = d.board(round_number, player)
            if pairing is not None and pairing.b is not None:
                other = d.player(pairing.b if pairing.a == player else pairing.a)
                raise EventError(f"round {round_number}: {_who(who)} is paired with {_who(other)}; change the pairing first")
            return self._give(connection, d, Game.bye(round_number, player, spread=spread), correct)

    def _give(self, connection: Connection, d: _Division, game: Game, correct: bool) -> Result:
        existing = d.stored(game.round, list(game.players))
        if existing and not correct:
            who = d.player(game.a if game.b is None or not game.forfeit else game.b)
            raise EventError(f"round {game.round}: {_who(who)} has a result already "
                             f"({_score_text(d, existing[0][1].game)}): correct it instead")
        if correct and existing:
            return _replace(connection, d, existing, game)
        stored = Result(game, now(), None, True)
        _insert(connection, d, stored)
        _after_result(connection, d, game.round)
        return stored

    def results(self, event_id: int, division: str | None) -> tuple[Result, ...]:
        """The stored results, those waiting to be confirmed too, in the order entered."""
        return tuple(r for _, r in self._read(event_id, division).results)

    def games(self, event_id: int, division: str | None) -> tuple[Game, ...]:
        """What the standings count: the confirmed results and the byes of the pairings, by round."""
        return tuple(self._read(event_id, division).games())

    # -- standings and files --------------------------------------------------------------

    def standings(self, event_id: int, division: str | None, *, through_round: int | None = None) -> list[Standing]:
        """The standings (:func:`tilebag.events.standings`), after round ``through_round`` when given."""
        d = self._read(event_id, division)
        return standings(d.players, d.games(), through_round=through_round)

    def scorecard(self, event_id: int, division: str | None, player: PlayerId) -> Standing:
        """``player``'s standing, with the scorecard: each round's opponent, start, scores and record after it."""
        d = self._read(event_id, division)
        d.player(player)
        return next(s for s in standings(d.players, d.games()) if s.player.id == player)

    def division(self, event_id: int, division: str | None) -> tsh.Division:
        """The division as a ``.t`` file holds it: players, counted results, pairings without a result yet."""
        return self._read(event_id, division).tsh_division()

    def division_name(self, event_id: int, division: str | None) -> str:
        """The division's name as stored (``division`` None: the event's only one).

        :raises EventError: when the event has no such division, or several and none was named.
        """
        return self._read(event_id, division).name

    def export_tsh(self, event_id: int, division: str | None) -> str:
        """The division as the text of a tsh ``.t`` file (:func:`tilebag.events.tsh.dumps`).

        :raises TshError: for what a ``.t`` file cannot hold.
        """
        return tsh.dumps(self.division(event_id, division))

    def import_tsh(
        self, text: str, *, name: str | None = None, event_id: int | None = None, division: str | None = None,
        director: str | None = None,
    ) -> tuple[Event, str]:
        """Read a ``.t`` file's text (untrusted: :func:`tilebag.events.tsh.loads`
        checks it) into a division: of a new event called ``name``, or a new
        division of event ``event_id``. Each round becomes a fixed round
        (started when it has a game's result), its boards those of the file;
        the results count as the director's. Fields tilebag does not read
        are kept and written back by :meth:`export_tsh`. The event and the
        division's name (``A`` unless told).

        :raises TshError: naming the line, for a file that cannot be read.
        :raises EventError: for a division name the event has already.
        """
        read = tsh.loads(text)
        division = _check_text(division if division is not None else "A", "a division's name", MAX_DIVISION_CHARS)
        event_name = _check_text(name if name is not None else "imported", "an event's name", MAX_NAME_CHARS)
        if director is not None:
            director = _check_text(director, "a director's name", MAX_NAME_CHARS)
        with self._writing, self.engine.begin() as connection:
            if event_id is None:
                event_id = connection.execute(
                    insert(EventTable).values(
                        name=event_name, director_id=None, director=director, created=now(), rules="standard",
                        options="{}", clock=None, rounds=None, online=False, status="open",
                    ).returning(EventTable.id)
                ).scalar_one()
            else:
                self._lock(connection, event_id)
            event = _event(connection, event_id)
            division_id = _add_division(connection, event, division)
            for player in read.players:
                kept = read.extra.get(player.id)
                connection.execute(insert(EventPlayerTable).values(
                    division_id=division_id, number=player.id, name=player.name, user_id=None, rating=player.rating,
                    joined=player.joined, withdrawn=player.withdrawn, tsh_fields=json.dumps(kept) if kept else None))
            boards: dict[int, list[Pairing]] = defaultdict(list)
            started: set[int] = set()
            for game in read.results:
                if game.b is not None:
                    boards[game.round].append(Pairing(game.round, game.a, game.b, game.first))
                    started.add(game.round)
                elif game.is_bye:
                    boards[game.round].append(Pairing(game.round, game.a))
            for pending in read.pending:
                boards[pending.round].append(pending)
            stamp = now()
            for game in read.results:
                connection.execute(insert(ResultTable).values(_result_row(division_id, Result(game, stamp, None, True))))
            for number in range(1, max(boards, default=0) + 1):
                ordered = sorted(boards.get(number, ()), key=lambda p: (p.b is None, min(p.players)))
                connection.execute(insert(RoundTable).values(
                    division_id=division_id, number=number, method=Method.FIXED.value, seed=0,
                    started=number in started))
                for board, pairing in enumerate(ordered, start=1):
                    connection.execute(insert(PairingTable).values(
                        division_id=division_id, round=number, board=board, a=pairing.a, b=pairing.b,
                        first=pairing.first))
            if boards:
                connection.execute(update(EventTable).where(EventTable.id == event_id).values(status="running"))
            return _event(connection, event_id), division


# -- reading and writing rows ------------------------------------------------------------


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if not isinstance(value, str | int | float):
        raise EventError(f"a rules option is a text, a number or yes/no, not {value!r}")
    return str(value)


def _check_clock(clock: Mapping[str, object] | None) -> dict[str, int | None] | None:
    if clock is None:
        return None
    checked: dict[str, int | None] = {}
    for key, value in clock.items():
        if key not in CLOCK_KEYS:
            raise EventError(f"a clock says {', '.join(sorted(CLOCK_KEYS))}, not {quote(str(key))}")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100_000):
            raise EventError(f"clock {key}: a whole number, not {value!r}")
        checked[key] = value
    return checked


def _event(connection: Connection, event_id: int) -> Event:
    row = connection.execute(select(EventTable).where(EventTable.id == event_id)).mappings().first()
    if row is None:
        raise EventError(f"there is no event {event_id}")
    divisions = connection.execute(
        select(DivisionTable.name).where(DivisionTable.event_id == event_id).order_by(DivisionTable.id)
    ).scalars().all()
    return Event(
        id=row["id"], name=row["name"], director=row["director"], director_id=row["director_id"],
        created=row["created"], rules=row["rules"], options=dict(json.loads(row["options"] or "{}")),
        clock=json.loads(row["clock"]) if row["clock"] else None, rounds=row["rounds"], online=bool(row["online"]),
        status=row["status"], divisions=tuple(divisions),
    )


def _add_division(connection: Connection, event: Event, name: str) -> int:
    for other in event.divisions:
        if _key(other) == _key(name):
            raise EventError(f"{event.name} has a division {quote(other)} already")
    return int(connection.execute(
        insert(DivisionTable).values(event_id=event.id, name=name).returning(DivisionTable.id)
    ).scalar_one())


def _load(connection: Connection, event: Event, division: str | None) -> _Division:
    rows = connection.execute(
        select(DivisionTable.id, DivisionTable.name).where(DivisionTable.event_id == event.id).order_by(DivisionTable.id)
    ).all()
    if division is None:
        if len(rows) != 1:
            names = ", ".join(name for _, name in rows) or "none"
            raise EventError(f"{event.name} has divisions {names}: say which")
        division_id, name = rows[0]
    else:
        found = [(i, n) for i, n in rows if _key(n) == _key(division)]
        if not found:
            names = ", ".join(name for _, name in rows) or "none"
            raise EventError(f"{event.name} has no division {quote(division)} (its divisions: {names})")
        division_id, name = found[0]
    players, accounts, extra = [], {}, {}
    for p in connection.execute(
        select(EventPlayerTable).where(EventPlayerTable.division_id == division_id).order_by(EventPlayerTable.number)
    ).mappings():
        players.append(Player(p["number"], p["name"], rating=p["rating"], joined=p["joined"], withdrawn=p["withdrawn"]))
        if p["user_id"] is not None:
            accounts[p["number"]] = p["user_id"]
        if p["tsh_fields"]:
            extra[p["number"]] = {str(k): str(v) for k, v in json.loads(p["tsh_fields"]).items()}
    rounds = {
        r["number"]: Round(r["number"], find_method(r["method"]), r["seed"], bool(r["started"]))
        for r in connection.execute(select(RoundTable).where(RoundTable.division_id == division_id)).mappings()
    }
    boards: dict[int, list[Pairing]] = defaultdict(list)
    for b in connection.execute(
        select(PairingTable).where(PairingTable.division_id == division_id)
        .order_by(PairingTable.round, PairingTable.board)
    ).mappings():
        boards[b["round"]].append(Pairing(b["round"], b["a"], b["b"], b["first"]))
    results = [
        (r["id"], Result(
            Game(r["round"], r["a"], r["b"], r["score_a"], r["score_b"], r["first"], bool(r["forfeit"])),
            r["entered"], r["entered_by"], bool(r["confirmed"]), r["game_id"], r["corrected_at"]))
        for r in connection.execute(
            select(ResultTable).where(ResultTable.division_id == division_id).order_by(ResultTable.id)
        ).mappings()
    ]
    return _Division(division_id, name, event, players, accounts, extra, rounds, dict(boards), results)


def _check_round(d: _Division, round_number: int) -> None:
    if isinstance(round_number, bool) or not isinstance(round_number, int) or not 1 <= round_number <= MAX_ROUNDS:
        raise EventError(f"a round is a number from 1 to {MAX_ROUNDS}, not {round_number!r}")
    if d.event.rounds is not None and round_number > d.event.rounds:
        planned = f"{d.event.rounds} round{'s' if d.event.rounds > 1 else ''}"
        raise EventError(f"{d.event.name} has {planned}: there is no round {round_number}")


def _check_pairable(d: _Division, round_number: int) -> None:
    _check_round(d, round_number)
    next_round = d.next_round()
    if round_number > next_round:
        raise EventError(f"division {d.name}: round {next_round} is the next to pair, not round {round_number}")
    known = d.rounds.get(round_number)
    if known is not None and known.started:
        raise EventError(f"division {d.name}: round {round_number} has started (a result is in); its pairings stay")
    if known is not None and round_number + 1 in d.rounds:
        raise EventError(f"division {d.name}: round {round_number + 1} is paired already; round {round_number} "
                         "cannot be paired again")
    if not d.players:
        raise EventError(f"division {d.name} has no players to pair")


def _store_round(connection: Connection, d: _Division, paired: Round, boards: Sequence[Pairing]) -> None:
    where = (PairingTable.division_id == d.id, PairingTable.round == paired.number)
    connection.execute(delete(PairingTable).where(*where))
    connection.execute(delete(RoundTable).where(RoundTable.division_id == d.id, RoundTable.number == paired.number))
    connection.execute(insert(RoundTable).values(
        division_id=d.id, number=paired.number, method=paired.method.value, seed=paired.seed, started=paired.started))
    for board, pairing in enumerate(boards, start=1):
        connection.execute(insert(PairingTable).values(
            division_id=d.id, round=paired.number, board=board, a=pairing.a, b=pairing.b, first=pairing.first))


def _opponent(d: _Division, round_number: int, player: PlayerId) -> tuple[Pairing, PlayerId]:
    who = d.player(player)
    d.pairings(round_number)
    pairing = d.board(round_number, player)
    if pairing is None:
        raise EventError(f"{_who(who)} is not paired in round {round_number}")
    if pairing.b is None:
        raise EventError(f"{_who(who)} has the bye in round {round_number}: a bye needs no result")
    return pairing, pairing.b if pairing.a == player else pairing.a


def _score_text(d: _Division, game: Game) -> str:
    a = d.player(game.a)
    if game.b is None:
        return f"{'forfeit loss' if game.forfeit else 'bye'} for {_who(a)}"
    b = d.player(game.b)
    return f"{_who(a)} {game.score_a}, {_who(b)} {game.score_b}{' by forfeit' if game.forfeit else ''}"


def _result_row(division_id: int, result: Result) -> dict[str, object]:
    game = result.game
    return {
        "division_id": division_id, "round": game.round, "a": game.a, "b": game.b, "score_a": game.score_a,
        "score_b": game.score_b, "first": game.first, "forfeit": game.forfeit, "entered": result.entered,
        "entered_by": result.entered_by, "confirmed": result.confirmed, "game_id": result.game_id,
        "corrected_at": result.corrected_at,
    }


def _insert(connection: Connection, d: _Division, result: Result) -> None:
    connection.execute(insert(ResultTable).values(_result_row(d.id, result)))


def _confirm(connection: Connection, d: _Division, row: int, result: Result) -> Result:
    connection.execute(update(ResultTable).where(ResultTable.id == row).values(confirmed=True))
    _after_result(connection, d, result.game.round)
    return Result(result.game, result.entered, result.entered_by, True, result.game_id, result.corrected_at)


def _replace(connection: Connection, d: _Division, existing: list[tuple[int, Result]], game: Game) -> Result:
    connection.execute(delete(ResultTable).where(ResultTable.id.in_([row for row, _ in existing])))
    stamp = now()
    corrected = Result(game, stamp, None, True, existing[0][1].game_id, stamp)
    _insert(connection, d, corrected)
    _after_result(connection, d, game.round)
    return corrected


def _start(connection: Connection, d: _Division, round_number: int) -> None:
    connection.execute(update(RoundTable).where(
        RoundTable.division_id == d.id, RoundTable.number == round_number).values(started=True))


def _after_result(connection: Connection, d: _Division, round_number: int) -> None:
    """A result is in (read back from this transaction): its round has
    started when it has a game, and the event is over once every round
    planned has every result in every division."""
    now_stored = _load(connection, d.event, d.name)
    if round_number in now_stored.rounds and any(
        r.game.round == round_number and r.game.b is not None for _, r in now_stored.results
    ):
        _start(connection, d, round_number)
    event = d.event
    if event.rounds is None:
        return
    over = True
    for name in event.divisions:
        other = now_stored if name == d.name else _load(connection, event, name)
        if any(n not in other.rounds or other.missing(n) for n in range(1, event.rounds + 1)):
            over = False
    status = "over" if over else "running"
    if status != event.status:
        connection.execute(update(EventTable).where(EventTable.id == event.id).values(status=status))
