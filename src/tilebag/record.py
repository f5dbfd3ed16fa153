"""Game records: what happened in a game, as a list of typed events.

A :class:`GameRecord` is plain data, apart from any live game. GCG files read
into one and are written from one (:mod:`tilebag.formats.gcg`); a :class:`tilebag.Game`
produces one with :meth:`tilebag.Game.record`, and :func:`tilebag.formats.replay.replay`
turns one back into a game.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from tilebag.alphabet import Tile, load_alphabet
from tilebag.errors import FormatError
from tilebag.move import Move
from tilebag.rules import Rules


class EventKind(enum.Enum):
    """Every kind of event a game record holds."""

    PLACE = "place"
    """Tiles placed on the board."""
    EXCHANGE = "exchange"
    PASS = "pass"
    WITHDRAWN = "withdrawn"
    """A challenged play taken back (GCG ``--``): it scores minus what it scored."""
    CHALLENGE = "challenge"
    """A challenge that did not remove the play (GCG ``(challenge)``): a bonus
    to the player who made the play, or a penalty (or a lost turn, 0 points)
    for the player who challenged."""
    END_RACK_POINTS = "end rack points"
    """The player who went out gains the tiles left on the other racks (GCG
    ``(RACK) +N``)."""
    END_RACK_PENALTY = "end rack penalty"
    """A player loses the value of their own rack (GCG ``RACK (RACK) -N``)."""
    TIME_PENALTY = "time penalty"
    """Points lost on the clock (GCG ``(time) -N``)."""
    RECYCLE = "recycle"
    """Variation: a board letter replaced by a rack tile at the start of a
    turn (the turn goes on)."""
    BLANK_SWAP = "blank swap"
    """Variation: a played blank taken for the letter it stands for (the
    turn goes on)."""
    TIME_OUT = "time out"
    """The turn timer ran out: the turn was a pass."""
    RESIGN = "resign"
    """A player resigned: the game ended there (GCG ``#resign nick``)."""

    @property
    def is_turn(self) -> bool:
        """True for the kinds that are a player's turn."""
        return self in (EventKind.PLACE, EventKind.EXCHANGE, EventKind.PASS, EventKind.TIME_OUT)

    @property
    def is_move(self) -> bool:
        """True for the kinds that are a player's move: a turn, or an action
        that starts one (a recycle or a blank swap).

        >>> EventKind.RECYCLE.is_move, EventKind.RECYCLE.is_turn, EventKind.CHALLENGE.is_move
        (True, False, False)
        """
        return self.is_turn or self in (EventKind.RECYCLE, EventKind.BLANK_SWAP)


def withdrawn_plays(events: Sequence[Event]) -> set[int]:
    """The ``id`` of each placement event that a later event withdrew (a
    challenge took it off the board before the next move).

    >>> from tilebag.move import Move
    >>> play = Event(EventKind.PLACE, 0, 14, move=Move.from_gcg("8F HORN"))
    >>> withdrawn_plays([play, Event(EventKind.WITHDRAWN, 0, -14)]) == {id(play)}
    True
    """
    found: set[int] = set()
    for i, event in enumerate(events):
        if event.kind is not EventKind.PLACE:
            continue
        for later in events[i + 1 :]:
            if later.kind.is_move:
                break
            if later.kind is EventKind.WITHDRAWN and later.player == event.player:
                found.add(id(event))
                break
    return found


@dataclass
class Event:
    """One line of a game record."""

    kind: EventKind
    player: int
    """Index of the player the event belongs to (0-based, record order)."""
    score: int = 0
    """Points the event adds (negative for penalties and withdrawals)."""
    total: int = 0
    """The player's running total after the event."""
    rack: tuple[Tile, ...] | None = None
    """The player's rack before the event, as recorded (possibly partial);
    ``None`` when not recorded."""
    move: Move | None = None
    """The placement, exchange or pass (for turn events)."""
    exchange_count: int | None = None
    """For an exchange recorded only as a count of tiles."""
    end_rack: tuple[Tile, ...] = ()
    """The tiles named in parentheses by end-of-game events."""
    notes: list[str] = field(default_factory=list)
    """Comments attached to the event (GCG ``#note``)."""
    line: int = field(default=0, compare=False)
    """Line of the source file it was read from (0 if none)."""
    words: tuple[tuple[Tile, ...], ...] = field(default=(), compare=False, repr=False)
    """The words a placement formed, when the game that played it kept them."""
    text: str = field(default="", compare=False, repr=False)
    """The event as its file wrote it, for messages about it (``""`` for an
    event not read from a file: see :func:`event_text`)."""


def event_text(record: GameRecord, event: Event) -> str:
    """An event as messages about it quote it: as its file wrote it, or for
    an event made in memory, its player's nickname, move, score and total.

    >>> from tilebag.move import Move
    >>> record = GameRecord([PlayerInfo("alice")])
    >>> event_text(record, Event(EventKind.PLACE, 0, 14, 14, move=Move.from_gcg("8F HORN")))
    'alice: place 8F HORN +14 14'
    """
    if event.text:
        return event.text
    nick = record.players[event.player].nickname if event.player < len(record.players) else f"player{event.player + 1}"
    move = f" {event.move.gcg(load_alphabet(record.alphabet))}" if event.move is not None else ""
    return f"{nick}: {event.kind.value}{move} {event.score:+d} {event.total}"


@dataclass
class PlayerInfo:
    """A player as a record names them."""

    nickname: str
    """Short name without spaces, used on each event line."""
    name: str = ""
    """Full name (may contain spaces)."""

    def __post_init__(self) -> None:
        if not self.name:
            self.name = self.nickname


@dataclass
class GameRecord:
    """A whole game as recorded: who played, with what, and every event."""

    players: list[PlayerInfo] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    lexicon: str | None = None
    alphabet: str = "english"
    """Name of the tile set the tiles are coded in."""
    id: str | None = None
    """Identifier: an authority and an id, e.g. ``io.woogles kYmDwcfkbY``."""
    title: str | None = None
    description: str | None = None
    notes: list[str] = field(default_factory=list)
    """Notes before the first event."""
    final_racks: dict[int, tuple[Tile, ...]] = field(default_factory=dict)
    """Racks at the end of the record (GCG ``#rack1``...), by player index:
    written for a game that is not over, so that it can be resumed."""
    to_move: int | None = None
    """The player to move at the end of the record (GCG ``#to-move nick``,
    after the racks): written for a game that is not over."""
    rule_options: dict[str, object] = field(default_factory=dict)
    """The rules options the record states, by :class:`~tilebag.rules.Rules`
    field name (``challenge``, ``rack_size``, ``layout`` ...) with their
    values: the options a game was not played by as standard. See
    :meth:`rules`."""
    clock_used: tuple[float, ...] | None = None
    """Seconds each player had used at the end of the record, in seat order
    (games with a turn timer or a game clock), if recorded."""
    pragmas: list[tuple[str, str]] = field(default_factory=list)
    """The format's other ``#keyword value`` lines, which tilebag does not
    use, kept in order so they round-trip."""
    pragma_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    """The line each item was first read from, by its keyword in the file
    (``rack1``, ``to-move``, ``lexicon``, ``rack-size`` ...)."""
    encoding: str | None = field(default=None, compare=False)
    """The declared ``#character-encoding``, if any (a property of the file,
    not of the game: records compare equal whatever their encoding)."""
    errors: list[FormatError] = field(default_factory=list, compare=False, repr=False)
    """Malformed lines skipped by a lenient reader (each names its line)."""
    warnings: list[str] = field(default_factory=list, compare=False, repr=False)
    """Things a reader noticed but could work around (e.g. a wrong encoding)."""

    def rules(self, base: Rules | None = None) -> Rules:
        """``base`` (the standard rules by default) with the record's tile
        set and the rules options it states.

        >>> GameRecord(rule_options={"rack_size": 9}).rules().describe()
        ['rack size 9']

        :raises RulesError: when the options conflict.
        """
        return (base or Rules()).replace(alphabet=self.alphabet, **self.rule_options)

    def pragma(self, key: str) -> str | None:
        """The value of another pragma (the first with that keyword), if present."""
        for k, v in self.pragmas:
            if k == key:
                return v
        return None
