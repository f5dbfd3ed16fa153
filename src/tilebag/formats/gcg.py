"""GCG, the players' game record format: reading and writing.

A GCG file is a list of pragma lines (``#player1 nick Full Name``,
``#lexicon``, ``#note`` ...) and event lines (``>nick: RACK 8D WORD +24 24``).
:func:`read_game` streams one game at a time from a text handle and returns
``None`` at the end; :func:`load` reads a file, decoding it as its
``#character-encoding`` line says (UTF-8, or ISO-8859-1 as the format's
default); :func:`dumps` writes a record. Writing then reading gives the same
record.

>>> record = loads(">alice: HNOR 8F HORN +14 14\\n>bob: AFM H6 FA.M +9 9\\n")
>>> [p.nickname for p in record.players], record.events[1].move
(['alice', 'bob'], Move.from_gcg('H6 FA.M'))
>>> print(dumps(record), end="")
#character-encoding UTF-8
#player1 alice alice
#player2 bob bob
>alice: HNOR 8F HORN +14 14
>bob: AFM H6 FA.M +9 9
>>> loads(dumps(record)) == record
True

Extension pragmas tilebag writes for its own games (other programs ignore
them): ``#tile-distribution NAME`` (a tile set other than English),
``#board-layout NAME``, ``#challenge-rule MODE`` (when not double),
``#scoreless-turns N`` (when not two per player), and one pragma for every
other rules option that is not standard, named by its command-line flag
(:func:`rules_pragmas`): ``#rack-size 9``, ``#finish-level expert``,
``#anagram``, ``#turn-time 180`` ... A game with a turn timer or a game
clock also says how long each player took (``#clock-used 1630 1200``).

The variations' actions are written so that a reader that skips pragmas it
does not know sees an ordinary game: a recycle or a blank swap is a pragma
line of its own (``#action bob: EIOTUXZ recycle G8 Z``, ``#action bob:
EIOTUX? swap G8``); an anagram play is an ordinary placement line, the
rearranged word played through, after a pragma naming the whole new word
(``#anagram-play bob: 8G TEAS`` then ``>bob: ADEST 8G ...S +4 4``); a turn
the timer ended is a pass line after ``#time-out bob``.

A player who resigns ends the game with ``#resign bob`` (an event of its
own, with no score). A record of a game that is not over ends with each
player's rack, ``#rack1 AEINRST`` ... (the convention other programs use for
the racks at the end of a record), then names the player to move
(``#to-move bob``: the events say it too, unless there are none yet), so the
game can be resumed (:func:`tilebag.formats.replay.resume`); a finished game's
record has neither.

>>> record = loads(">alice: HNOR 8F HORN +14 14\\n#resign bob\\n")
>>> record.events[1].kind, record.events[1].player, record.events[1].total
(<EventKind.RESIGN: 'resign'>, 1, 0)

>>> record = loads(">alice: AEIJOQT 8G TEA +6 6\\n#action bob: EIOTUXZ recycle G8 Z\\n")
>>> record.events[1].kind, record.events[1].move, record.events[1].total
(<EventKind.RECYCLE: 'recycle'>, Move.from_gcg('recycle G8 Z'), 0)
"""

from __future__ import annotations

import codecs
import io
import logging
import re
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from tilebag.alphabet import Alphabet, Tile, alphabet_names, load_alphabet
from tilebag.clock import parse_seconds
from tilebag.errors import FormatError, InvalidMoveError, quote
from tilebag.formats.gcg_pragmas import (
    ACTION_PRAGMA,
    ALPHABET_PRAGMAS,
    ANAGRAM_PRAGMA,
    CHALLENGE_PRAGMA,
    CLOCK_PRAGMA,
    RESIGN_PRAGMA,
    TIME_OUT_PRAGMA,
    TO_MOVE_PRAGMA,
    PragmaError,
    is_rules_pragma,
    options_pragmas,
    pragma_options,
    pragma_rules,
    rules_pragmas,
    seconds_text,
)
from tilebag.formats.gcg_write import dump, dumps, event_lines, format_event, write_game
from tilebag.layout import layout_names, load_layout
from tilebag.move import PLAYED_THROUGH, Move, MoveKind
from tilebag.record import Event, EventKind, GameRecord, PlayerInfo
from tilebag.rules import Rules, RulesError

LOGGER = logging.getLogger(__name__)

LEXICON_ALPHABETS = {
    "OSPS": "polish",
    "FISE": "spanish",
    "FILE": "spanish",
    "RD": "german",
    "DSW": "german",
    "FRA": "french",
    "ODS": "french",
}
"""Lexicon name prefixes that imply a tile set other than English."""

MAX_RECORD_BYTES = 1 << 20
"""The largest GCG file :func:`load` reads (a long annotated game is 20 KB)."""

MAX_LINE_CHARS = 10_000
"""The longest line a record may have (a long ``#note`` included)."""

MAX_GAME_LINES = 5_000
"""The most lines one game of a record may have (a game has about 30 events)."""

MAX_DIGITS = 6
"""Scores and running totals have at most this many digits."""

_NUMBER = re.compile(r"^[+-]?\d+$")
_SIGNED = re.compile(r"^[+-]\d+$")
_POSITION = re.compile(r"^(?:\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$")
_CROSS_WORD = re.compile(r"^[^\W\d_]+,?$")
"""A word of the cross-words Quackle's older records list after the running total."""

@dataclass
class ReadResult:
    """Text decoded from a GCG file's bytes."""

    text: str
    encoding: str
    declared: str | None
    warnings: list[str] = field(default_factory=list)


def decode(data: bytes) -> ReadResult:
    """Decode a GCG file: as its ``#character-encoding`` line says, else UTF-8,
    else ISO-8859-1 (the format's original encoding). A declaration that does
    not fit the bytes is reported in :attr:`ReadResult.warnings`, and the
    bytes are read as UTF-8 or ISO-8859-1 instead.

    >>> decode("#player1 c\\xe9sar c\\xe9sar\\n".encode("latin-1")).encoding
    'iso-8859-1'
    """
    warnings: list[str] = []
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    first = data.split(b"\n", 1)[0].strip()
    declared: str | None = None
    if first.lower().startswith(b"#character-encoding"):
        declared = first[len(b"#character-encoding") :].strip().decode("ascii", "replace")
        codec = _text_codec(declared)
        if codec is None:
            warnings.append(f"1: unknown character encoding {quote(declared)}; read as UTF-8 or ISO-8859-1")
        else:
            try:
                return ReadResult(data.decode(codec), codec, declared, warnings)
            except UnicodeDecodeError as err:
                line = data[: err.start].count(b"\n") + 1
                warnings.append(
                    f"{line}: the bytes are not {declared} as line 1 declares; read as UTF-8 or ISO-8859-1"
                )
    try:
        return ReadResult(data.decode("utf-8"), "utf-8", declared, warnings)
    except UnicodeDecodeError:
        return ReadResult(data.decode("iso-8859-1"), "iso-8859-1", declared, warnings)


def _text_codec(name: str) -> str | None:
    """The codec a declared character encoding names, when it is a text
    encoding (not a bytes-to-bytes codec such as ``hex``, nor a name with
    a NUL byte in it)."""
    if not 0 < len(name) <= 40 or not name.isprintable():
        return None
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _UNSAFE_CODECS:
        return None
    return info.name


_UNSAFE_CODECS = frozenset({"idna", "punycode", "unicode-escape", "raw-unicode-escape", "undefined"})
"""Text codecs no record is written in, whose decoding does surprising work."""


class _LineSource:
    """Lines of a handle with one line of push-back (to stop at the start of
    the next game)."""

    _pending: weakref.WeakKeyDictionary[object, tuple[int, str]] = weakref.WeakKeyDictionary()
    _numbers: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()

    def __init__(self, handle: IO[str]) -> None:
        self.handle = handle

    def next(self) -> tuple[int, str] | None:
        pending = self._pending.pop(self.handle, None)
        if pending is not None:
            return pending
        line = self.handle.readline()
        if not line:
            return None
        number = self._numbers.get(self.handle, 0) + 1
        self._numbers[self.handle] = number
        return number, line

    def push_back(self, item: tuple[int, str]) -> None:
        self._pending[self.handle] = item


def read_game(
    handle: IO[str],
    *,
    alphabet: Alphabet | str | None = None,
    lenient: bool = False,
    source: str | None = None,
) -> GameRecord | None:
    """Read the next game from a text handle; ``None`` at the end.

    The tile set is, in order: the ``alphabet`` argument, a tile-set pragma,
    one implied by the ``#lexicon``, English. In ``lenient`` mode a malformed
    line is skipped and its error kept in ``record.errors`` (each with its
    line number); otherwise the first one raises.

    Lines longer than :data:`MAX_LINE_CHARS` and games longer than
    :data:`MAX_GAME_LINES` are refused even in lenient mode.

    :raises FormatError: naming the line, when not lenient.
    """
    lines = _LineSource(handle)
    raw: list[tuple[int, str]] = []
    seen_event = False
    seen_players = False  # a game resigned before any move has no event line: its #player1 still ends it
    while True:
        item = lines.next()
        if item is None:
            break
        number, line = item
        if len(line) > MAX_LINE_CHARS + 2:
            raise FormatError(f"the line has {len(line)} characters, at most {MAX_LINE_CHARS}", line=number, source=source)
        if len(raw) >= MAX_GAME_LINES:
            raise FormatError(f"a game has at most {MAX_GAME_LINES} lines", line=number, source=source)
        stripped = line.strip()
        lowered = stripped.lower()
        if (seen_event or seen_players) and lowered.startswith(("#player1 ", "#character-encoding")):
            lines.push_back(item)  # the next game's first line
            break
        if stripped.startswith(">"):
            seen_event = True
        elif lowered.startswith("#player1 "):
            seen_players = True
        raw.append((number, line.rstrip("\r\n").rstrip("\r")))
    if not any(text.strip() for _, text in raw):
        return None
    return _parse(raw, alphabet=alphabet, lenient=lenient, source=source)


def read_games(handle: IO[str], **options: object) -> Iterator[GameRecord]:
    """Every game in a text handle, one at a time."""
    while True:
        record = read_game(handle, **options)  # type: ignore[arg-type]
        if record is None:
            return
        yield record


def loads(text: str, **options: object) -> GameRecord:
    """Read one game from a string.

    :raises FormatError: when the text holds no game or a malformed line.
    """
    record = read_game(io.StringIO(text), **options)  # type: ignore[arg-type]
    if record is None:
        raise FormatError("no game in the text", source=options.get("source"))  # type: ignore[arg-type]
    return record


def load(
    path: str | Path,
    *,
    alphabet: Alphabet | str | None = None,
    lenient: bool = False,
) -> GameRecord:
    """Read the (first) game of a GCG file, decoding it as it declares.

    :raises FormatError: naming the file and line; for a file larger than
        :data:`MAX_RECORD_BYTES`.
    :raises OSError: when the file cannot be read.
    """
    path = Path(path)
    with path.open("rb") as handle:
        data = handle.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise FormatError(f"the file is larger than {MAX_RECORD_BYTES} bytes: not a game record", source=str(path))
    decoded = decode(data)
    record = read_game(io.StringIO(decoded.text), alphabet=alphabet, lenient=lenient, source=str(path))
    if record is None:
        raise FormatError("the file holds no game", source=str(path))
    record.warnings[:0] = [f"{path}:{w}" for w in decoded.warnings]  # "file:line: message"
    return record


def _alphabet_for(pragmas: dict[str, tuple[int, str]], explicit: Alphabet | str | None, source: str | None) -> Alphabet:
    """The record's tile set: the caller's choice, else the one a pragma
    names (by name only), else the one its lexicon implies, else English.

    :raises FormatError: naming the line of a pragma that names no tile set
        tilebag knows.
    """
    if isinstance(explicit, Alphabet):
        return explicit
    if explicit:
        return load_alphabet(explicit)
    for key in ALPHABET_PRAGMAS:
        if key in pragmas:
            number, value = pragmas[key]
            name = value.split()[0] if value.split() else ""
            if name.lower() not in alphabet_names():
                raise FormatError(
                    f"#{key}: unknown tile set {quote(name)}; a record names one of {', '.join(alphabet_names())}",
                    line=number,
                    source=source,
                )
            return load_alphabet(name)
    lexicon = pragmas.get("lexicon", (0, ""))[1].upper()
    for prefix, name in LEXICON_ALPHABETS.items():
        if lexicon.startswith(prefix):
            return load_alphabet(name)
    return load_alphabet("english")


def _parse(
    raw: list[tuple[int, str]],
    *,
    alphabet: Alphabet | str | None,
    lenient: bool,
    source: str | None,
) -> GameRecord:
    first_values: dict[str, tuple[int, str]] = {}
    for number, text in raw:
        stripped = text.strip()
        if stripped.startswith("#"):
            key, _, value = stripped[1:].partition(" ")
            first_values.setdefault(key.lower(), (number, value.strip()))
    try:
        tiles = _alphabet_for(first_values, alphabet, source)
    except FormatError as err:
        if not lenient:
            raise
        tiles = load_alphabet("english")
        errors = [err]
    else:
        errors = []
    record = GameRecord(alphabet=tiles.name)
    record.errors.extend(errors)
    parser = _Parser(record, tiles, source)
    lines: list[tuple[int, str | None]] = [*raw, (0, None)]  # None: the end, where a marker left over is an error
    for number, line in lines:
        try:
            if line is None:
                parser.finish()
                _take_rules_pragmas(record, source)
            else:
                parser.line(number, line)
        except FormatError as err:
            if not lenient:
                raise
            record.errors.append(err)
            LOGGER.warning("%s", err)
        except InvalidMoveError as err:
            error = FormatError(str(err), line=number, source=source)
            if not lenient:
                raise error from None
            record.errors.append(error)
            LOGGER.warning("%s", error)
    _event_texts(record)
    return record


def _take_rules_pragmas(record: GameRecord, source: str | None) -> None:
    """Move the rules pragmas into :attr:`GameRecord.rule_options`: each
    must take a value its option takes, and together they must make rules
    that do not conflict.

    :raises FormatError: naming the line of the pragma that is wrong (the
        first rules pragma, for a conflict).
    """
    try:
        options, others = pragma_options(record.pragmas)
        Rules().replace(**options)
    except PragmaError as err:
        raise FormatError(str(err), line=record.pragma_lines.get(err.key, 0), source=source) from None
    except RulesError as err:
        lines = [record.pragma_lines.get(key, 0) for key, _ in record.pragmas if is_rules_pragma(key)]
        raise FormatError(f"the rules pragmas conflict: {err}", line=min(lines, default=0), source=source) from None
    record.rule_options = options
    record.pragmas = others


def _event_texts(record: GameRecord) -> None:
    """Give each event its text as this format writes it (what a check of
    the record quotes)."""
    for event in record.events:
        event.text = format_event(record, event)


@dataclass
class _Marker:
    """A ``#anagram-play`` or ``#time-out`` pragma, waiting for the event line it belongs to."""

    key: str
    player: int
    line: int
    move: Move | None = None


class _Parser:
    def __init__(self, record: GameRecord, alphabet: Alphabet, source: str | None) -> None:
        self.record = record
        self.alphabet = alphabet
        self.layout = load_layout("standard")
        self.source = source
        self.note_open = False
        self.nicknames: dict[str, list[int]] = {}
        """The seats of each nickname (two seats may share one: ``NoName``)."""
        self.declared: set[str] = set()
        self.marker: _Marker | None = None

    def error(self, message: str, number: int) -> FormatError:
        return FormatError(message, line=number, source=self.source)

    def line(self, number: int, text: str) -> None:
        stripped = text.strip()
        if not stripped:
            return
        if stripped.startswith("#"):
            self.pragma(number, stripped)
        elif stripped.startswith(">"):
            self.note_open = False
            self.event(number, stripped)
        elif self.note_open:
            self.notes()[-1] += "\n" + text.rstrip()
        else:
            raise self.error(f"not a pragma (#...) or an event (>...): {quote(stripped)}", number)

    def notes(self) -> list[str]:
        return self.record.events[-1].notes if self.record.events else self.record.notes

    def pragma(self, number: int, text: str) -> None:
        key, _, value = text[1:].partition(" ")
        key = key.lower()
        value = value.strip()
        self.note_open = False
        if key in (ACTION_PRAGMA, ANAGRAM_PRAGMA, TIME_OUT_PRAGMA, RESIGN_PRAGMA):
            self.turn_pragma(key, value, number)
            return
        self.declared.add(key)
        record = self.record
        record.pragma_lines.setdefault(key, number)
        if key == "note":
            self.notes().append(value)
            self.note_open = True
        elif key == "character-encoding":
            record.encoding = value
        elif re.fullmatch(r"player[1-9]", key):
            index = int(key[6:]) - 1
            nickname, _, name = value.partition(" ")
            if not nickname:
                raise self.error(f"#{key} needs a nickname", number)
            while len(record.players) <= index:
                record.players.append(PlayerInfo(f"player{len(record.players) + 1}"))
            record.players[index] = PlayerInfo(nickname, name.strip() or nickname)
            for seats in self.nicknames.values():
                if index in seats:
                    seats.remove(index)
            self.nicknames.setdefault(nickname, []).append(index)
            self.nicknames[nickname].sort()
        elif re.fullmatch(r"rack[1-9]", key):
            index = int(key[4:]) - 1
            record.final_racks[index] = self.rack(value, number)
        elif key == TO_MOVE_PRAGMA:
            if not value or " " in value:
                raise self.error(f"write #{key} as '#{key} nick', got {quote(value)}", number)
            record.to_move = self.player(value, number)
        elif key == "title":
            record.title = value
        elif key == "description":
            record.description = value
        elif key == "id":
            record.id = value
        elif key == "lexicon":
            record.lexicon = value
        elif key == CLOCK_PRAGMA:
            seconds = parse_seconds(value.split())
            if seconds is None:
                raise self.error(f"#{key} {quote(value)}: give the seconds each player used, such as 1630 1200", number)
            record.clock_used = seconds
        elif key in ALPHABET_PRAGMAS:
            record.alphabet = self.alphabet.name
        else:
            if key == "board-layout" and value.lower() not in layout_names():
                raise self.error(
                    f"#{key}: unknown board layout {quote(value)}; a record names one of {', '.join(layout_names())}",
                    number,
                )
            record.pragmas.append((key, value))

    def rack(self, text: str, number: int) -> tuple[Tile, ...]:
        try:
            return tuple(sorted(self.alphabet.parse_rack(text)))
        except InvalidMoveError as err:
            message = str(err).removeprefix(f"{quote(text)}: ")
            raise self.error(f"bad rack {quote(text)}: {message}", number) from None

    def player(self, nickname: str, number: int, *, score: int | None = None, total: int | None = None) -> int:
        """The seat of a nickname. When seats share it, the seat whose
        running total the event's ``score`` and ``total`` continue, else the
        next of them in turn order (the game alternates).

        :raises FormatError: for a nickname no ``#player`` pragma names.
        """
        seats = self.nicknames.get(nickname)
        if seats:
            return seats[0] if len(seats) == 1 else self.shared_seat(seats, score, total)
        if any(key.startswith("player") for key in self.declared):
            known = ", ".join(p.nickname for p in self.record.players)
            raise self.error(f"unknown player {quote(nickname)} (the #player pragmas name {known})", number)
        if not nickname or len(nickname) > 100 or not nickname.isprintable():
            raise self.error(f"a nickname is up to 100 printable characters, got {quote(nickname)}", number)
        # A record without #player pragmas names its players by their events.
        self.record.players.append(PlayerInfo(nickname))
        self.nicknames[nickname] = [len(self.record.players) - 1]
        return len(self.record.players) - 1

    def shared_seat(self, seats: list[int], score: int | None, total: int | None) -> int:
        events = self.record.events
        if score is not None and total is not None:
            fits = [s for s in seats if next((e.total for e in reversed(events) if e.player == s), 0) + score == total]
            if len(fits) == 1:
                return fits[0]
        last = next((e.player for e in reversed(events) if e.kind.is_turn), None)
        if last is None:
            return seats[0]
        count = max(len(self.record.players), 1)
        return min(seats, key=lambda s: (s - last - 1) % count)

    def finish(self) -> None:
        """The end of the game's lines: no marker may be left waiting."""
        marker, self.marker = self.marker, None
        if marker is not None:
            raise self.error(f"#{marker.key} is followed by no event line of its player", marker.line)

    def turn_pragma(self, key: str, value: str, number: int) -> None:
        """``#action nick: [RACK] recycle G8 Z`` (or ``swap G8``) and
        ``#resign nick``, events of their own; ``#anagram-play nick: 8G TEAS``
        and ``#time-out nick``, which say what the player's next event line
        is."""
        if self.marker is not None:
            marker, self.marker = self.marker, None
            raise self.error(f"#{key} comes before the event line #{marker.key} on line {marker.line} belongs to", number)
        nickname, _, rest = value.partition(" ")
        nickname = nickname.removesuffix(":")
        shapes = {
            ACTION_PRAGMA: "'#action nick: RACK recycle G8 Z' or '#action nick: RACK swap G8'",
            ANAGRAM_PRAGMA: "'#anagram-play nick: 8G TEAS'",
            TIME_OUT_PRAGMA: "'#time-out nick'",
            RESIGN_PRAGMA: "'#resign nick'",
        }
        tokens = rest.split()
        if not nickname or (key == ANAGRAM_PRAGMA and len(tokens) != 2) or (key in (TIME_OUT_PRAGMA, RESIGN_PRAGMA) and tokens):
            raise self.error(f"write #{key} as {shapes[key]}, got {quote(value)}", number)
        player = self.player(nickname, number)
        total = next((e.total for e in reversed(self.record.events) if e.player == player), 0)
        if key == RESIGN_PRAGMA:
            self.record.events.append(Event(EventKind.RESIGN, player, 0, total, line=number))
            return
        if key == TIME_OUT_PRAGMA:
            self.marker = _Marker(key, player, number)
            return
        if key == ANAGRAM_PRAGMA:
            move = Move.from_gcg(f"anagram {tokens[0]} {tokens[1]}", self.alphabet, self.layout)
            self.marker = _Marker(key, player, number, move)
            return
        rack = None
        if tokens and tokens[0] not in ("recycle", "swap"):
            rack = self.rack(tokens[0], number)
            tokens = tokens[1:]
        if not tokens or tokens[0] not in ("recycle", "swap"):
            raise self.error(f"an #action is a recycle or a blank swap: write it as {shapes[key]}, got {quote(value)}", number)
        move = Move.from_gcg(" ".join(tokens), self.alphabet, self.layout)
        kind = EventKind.RECYCLE if move.kind is MoveKind.RECYCLE else EventKind.BLANK_SWAP
        self.record.events.append(Event(kind, player, 0, total, rack=rack, move=move, line=number))

    def apply_marker(self, marker: _Marker | None, event: Event, number: int) -> None:
        """Make the event the anagram play or the time-out its marker says."""
        if marker is None:
            return
        name = self.record.players[marker.player].nickname
        if event.player != marker.player:
            raise self.error(f"#{marker.key} on line {marker.line} is {name}'s, but this line is not", number)
        if marker.key == TIME_OUT_PRAGMA:
            if event.kind is not EventKind.PASS:
                raise self.error(f"#{marker.key} on line {marker.line} must be followed by {name}'s pass line", number)
            event.kind = EventKind.TIME_OUT
            return
        anagram = marker.move
        assert anagram is not None
        line_move = event.move
        if event.kind is not EventKind.PLACE or line_move is None:
            raise self.error(f"#{marker.key} on line {marker.line} must be followed by {name}'s placement line", number)
        fits = (line_move.row, line_move.col, line_move.down, len(line_move.tiles)) == (
            anagram.row,
            anagram.col,
            anagram.down,
            len(anagram.tiles),
        ) and all(t in (PLAYED_THROUGH, new) for t, new in zip(line_move.tiles, anagram.tiles, strict=True))
        if not fits:
            word = f"{self.layout.position_name(anagram.row, anagram.col, anagram.down)} {self.alphabet.format_word(anagram.tiles)}"
            raise self.error(
                f"the placement {line_move.gcg(self.alphabet, self.layout)} is not the anagram play {word} "
                f"of line {marker.line} (its tiles added, the rearranged word played through)",
                number,
            )
        event.move = anagram

    def bounded_int(self, text: str, what: str, example: str, number: int) -> int:
        """A score or a running total, of at most :data:`MAX_DIGITS` digits."""
        if not _NUMBER.match(text):
            raise self.error(f"{what} {quote(text)} is not a number such as {example}", number)
        if len(text.lstrip("+-")) > MAX_DIGITS:
            raise self.error(f"{what} {quote(text)} has more than {MAX_DIGITS} digits", number)
        return int(text)

    def event(self, number: int, text: str) -> None:
        marker, self.marker = self.marker, None  # used by this line, even a malformed one
        head, colon, rest = text[1:].partition(":")
        if not colon:
            raise self.error(f"an event line is '>nickname: ...', got {quote(text)}", number)
        tokens = _without_cross_words(rest.split())
        if len(tokens) < 3 and not (len(tokens) == 2 and tokens[0].startswith("(")):
            raise self.error(f"an event needs a play, a score and a running total: {quote(text)}", number)
        score = self.bounded_int(tokens[-2], "score", "+14 or -7", number)
        total = self.bounded_int(tokens[-1], "running total", "314", number)
        player = self.player(head.strip(), number, score=score, total=total)
        body = tokens[:-2]
        action = body[-1]
        has_rack = len(body) == 3 or (len(body) == 2 and not _POSITION.match(body[0]))
        rack = self.rack(body[0], number) if has_rack else None
        event = Event(EventKind.PASS, player, score, total, rack=rack, line=number)
        if len(body) > 3:
            raise self.error(f"too many fields in {quote(text)}", number)
        if action == "--":
            event.kind = EventKind.WITHDRAWN
        elif action.lower() == "(challenge)":
            event.kind = EventKind.CHALLENGE
        elif action.lower() == "(time)":
            event.kind = EventKind.TIME_PENALTY
        elif action.startswith("(") and action.endswith(")") and not (len(body) >= 2 and _POSITION.match(body[-2])):
            event.end_rack = self.rack(action[1:-1], number)
            penalty = score < 0 or (rack is not None and rack == event.end_rack and len(body) == 2)
            event.kind = EventKind.END_RACK_PENALTY if penalty else EventKind.END_RACK_POINTS
        elif action.startswith("-"):
            letters = action[1:]
            if not letters:
                event.kind = EventKind.PASS
                event.move = Move.pass_()
            elif letters.isdigit():
                if len(letters) > 2:
                    raise self.error(f"an exchange of {quote(letters)} tiles: a rack holds far fewer", number)
                event.kind = EventKind.EXCHANGE
                event.exchange_count = int(letters)
            else:
                event.kind = EventKind.EXCHANGE
                event.move = Move.exchange(self.rack(letters, number))
        else:
            if len(body) == 3:
                position, word = body[1], body[2]
            elif len(body) == 2:
                position, word = body
            else:
                raise self.error(f"a placement needs a position and a word: {quote(text)}", number)
            event.kind = EventKind.PLACE
            event.move = Move.from_gcg(f"{position} {word}", self.alphabet, self.layout)
        if len(body) == 3 and event.kind is not EventKind.PLACE:
            raise self.error(f"too many fields in {quote(text)}", number)
        self.apply_marker(marker, event, number)
        self.record.events.append(event)


def _without_cross_words(tokens: list[str]) -> list[str]:
    """An event line's fields without the cross-words that Quackle's older
    records list after the running total (``>Quackle: BEDGMNP 7e BEDIM +26
    66 BE, ET, DO``): tilebag finds the words a play forms itself.

    >>> _without_cross_words("BEDGMNP 7e BEDIM +26 66 BE, ET, DO".split())
    ['BEDGMNP', '7e', 'BEDIM', '+26', '66']
    >>> _without_cross_words("HNOR 8F HORN +14 14".split())
    ['HNOR', '8F', 'HORN', '+14', '14']
    """
    if len(tokens) < 2 or (_NUMBER.match(tokens[-2]) and _NUMBER.match(tokens[-1])):
        return tokens
    for i in range(len(tokens) - 3, -1, -1):
        if not _CROSS_WORD.match(tokens[i + 2]):
            break
        if _SIGNED.match(tokens[i]) and _NUMBER.match(tokens[i + 1]):
            return tokens[: i + 2]
    return tokens


__all__ = [
    "ALPHABET_PRAGMAS",
    "CHALLENGE_PRAGMA",
    "CLOCK_PRAGMA",
    "MAX_DIGITS",
    "MAX_GAME_LINES",
    "MAX_LINE_CHARS",
    "MAX_RECORD_BYTES",
    "TO_MOVE_PRAGMA",
    "PragmaError",
    "ReadResult",
    "decode",
    "dump",
    "dumps",
    "event_lines",
    "format_event",
    "load",
    "loads",
    "options_pragmas",
    "pragma_rules",
    "read_game",
    "read_games",
    "rules_pragmas",
    "seconds_text",
    "write_game",
]
