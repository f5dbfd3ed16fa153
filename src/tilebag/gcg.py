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
game can be resumed (:func:`tilebag.replay.resume`); a finished game's
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
import enum
import io
import logging
import re
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from tilebag.alphabet import Alphabet, Tile, alphabet_names, load_alphabet
from tilebag.errors import FormatError, InvalidMoveError, quote
from tilebag.layout import BoardLayout, layout_names, load_layout
from tilebag.move import PLAYED_THROUGH, Move, MoveKind
from tilebag.record import Event, EventKind, GameRecord, PlayerInfo
from tilebag.rules import OPTIONS, Rules, RulesError, check_bounds

LOGGER = logging.getLogger(__name__)

ALPHABET_PRAGMAS = ("tile-distribution", "letter-distribution", "tile-set", "alphabet")
"""Pragmas naming the tile set (the first is the one tilebag writes)."""

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

CHALLENGE_PRAGMA = "challenge-rule"
"""The pragma of the ``challenge`` option (its name in other programs' records)."""

CLOCK_PRAGMA = "clock-used"
"""Seconds each player used, in seat order (games with a turn timer or a game clock)."""

TO_MOVE_PRAGMA = "to-move"
"""The nickname of the player to move, at the end of the record of a game that is not over."""

_ACTION, _ANAGRAM, _TIME_OUT, _RESIGN = "action", "anagram-play", "time-out", "resign"
"""Pragmas that are events or belong to one (see the module docstring)."""


# -- rules as pragmas ----------------------------------------------------


def rules_pragmas(rules: Rules) -> list[tuple[str, str]]:
    """The pragmas that state every rules option a game does not play as
    standard, each named by its command-line flag (``challenge`` as
    ``challenge-rule``); a yes/no option that is on is a bare pragma.

    >>> from tilebag.rules import find_rules
    >>> rules_pragmas(find_rules("tournament"))
    [('scoreless-turns', '6'), ('game-clock', '1500'), ('overtime-penalty', '10')]
    >>> rules_pragmas(Rules(anagram=True, finish_player_targets=(200, 70)))
    [('finish-player-targets', '200 70'), ('anagram', '')]
    >>> rules_pragmas(Rules())
    []
    """
    standard = Rules()
    first: list[tuple[str, str]] = []
    rest: list[tuple[str, str]] = []
    for option in OPTIONS.values():
        value = getattr(rules, option.name)
        if value == getattr(standard, option.name):
            continue
        if option.name == "challenge":
            first.append((CHALLENGE_PRAGMA, _value_text(value)))
        elif option.name == "scoreless_turns":
            first.append((option.flag, _value_text(value)))
        else:
            rest.append((option.flag, _value_text(value)))
    if rules.layout != standard.layout:
        first.append(("board-layout", rules.layout))
    return first + rest


class PragmaError(RulesError):
    """A rules pragma whose value is not one its option takes; :attr:`key`
    is the pragma."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def pragma_rules(pragmas: Iterable[tuple[str, str]], base: Rules | None = None) -> Rules:
    """``base`` (the standard rules by default) changed by the rules
    pragmas among these (see :func:`rules_pragmas`); other pragmas are left
    alone, and so is a ``#challenge-rule`` naming a mode tilebag does not
    know (other programs write their own).

    >>> pragma_rules([("rack-size", "9"), ("recycle", ""), ("lexicon", "CSW21")]).describe()
    ['rack size 9', 'recycle']

    :raises PragmaError: naming a pragma whose value is not one its option takes.
    :raises RulesError: for options that conflict.
    """
    rules = base or Rules()
    changes: dict[str, object] = {}
    for key, text in pragmas:
        if key == "board-layout":
            if text and "layout" not in changes:
                changes["layout"] = text
            continue
        name = "challenge" if key == CHALLENGE_PRAGMA else key.replace("-", "_")
        if name not in OPTIONS or name in changes:
            continue  # not a rules pragma, or said again (the first one counts)
        option = OPTIONS[name]
        try:
            changes[name] = option.parse(text or "yes")
            check_bounds(name, changes[name])
        except (ValueError, RulesError) as err:
            if key == CHALLENGE_PRAGMA:
                continue
            raise PragmaError(key, f"#{key} {quote(text)}: {err}") from None
    try:
        return rules.replace(**changes)
    except RulesError as err:
        raise RulesError(f"the rules pragmas conflict: {err}") from None


def _value_text(value: object) -> str:
    """An option's value as its pragma writes it (what its option reads back)."""
    if value is True:
        return ""
    if value is False:
        return "no"
    if value is None:
        return "none"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return " ".join(_value_text(v) for v in value)
    if isinstance(value, float):
        return seconds_text(value)
    return str(value)


def seconds_text(value: float) -> str:
    """A number of seconds, exactly: ``180`` or ``90.5``."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


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
        if seen_event and stripped.lower().startswith(("#player1 ", "#character-encoding")):
            lines.push_back(item)
            break
        if stripped.startswith(">"):
            seen_event = True
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
                _check_rules_pragmas(record, source)
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
    return record


def _check_rules_pragmas(record: GameRecord, source: str | None) -> None:
    """The rules pragmas must each take a value their option takes, and
    together make rules that do not conflict.

    :raises FormatError: naming the line of the pragma that is wrong (the
        first rules pragma, for a conflict).
    """
    try:
        pragma_rules(record.pragmas)
    except PragmaError as err:
        raise FormatError(str(err), line=record.pragma_lines.get(err.key, 0), source=source) from None
    except RulesError as err:
        lines = [
            record.pragma_lines.get(key, 0)
            for key, _ in record.pragmas
            if key in ("board-layout", CHALLENGE_PRAGMA) or key.replace("-", "_") in OPTIONS
        ]
        raise FormatError(str(err), line=min(lines, default=0), source=source) from None


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
        if key in (_ACTION, _ANAGRAM, _TIME_OUT, _RESIGN):
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
            _ACTION: "'#action nick: RACK recycle G8 Z' or '#action nick: RACK swap G8'",
            _ANAGRAM: "'#anagram-play nick: 8G TEAS'",
            _TIME_OUT: "'#time-out nick'",
            _RESIGN: "'#resign nick'",
        }
        tokens = rest.split()
        if not nickname or (key == _ANAGRAM and len(tokens) != 2) or (key in (_TIME_OUT, _RESIGN) and tokens):
            raise self.error(f"write #{key} as {shapes[key]}, got {quote(value)}", number)
        player = self.player(nickname, number)
        total = next((e.total for e in reversed(self.record.events) if e.player == player), 0)
        if key == _RESIGN:
            self.record.events.append(Event(EventKind.RESIGN, player, 0, total, line=number))
            return
        if key == _TIME_OUT:
            self.marker = _Marker(key, player, number)
            return
        if key == _ANAGRAM:
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
        if marker.key == _TIME_OUT:
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


# -- writing -------------------------------------------------------------


def dumps(record: GameRecord) -> str:
    """A record as GCG text (UTF-8 declared on the first line)."""
    out = io.StringIO()
    write_game(record, out)
    return out.getvalue()


def dump(record: GameRecord, path: str | Path) -> None:
    """Write a record to a GCG file (UTF-8)."""
    Path(path).write_text(dumps(record), encoding="utf-8")


def write_game(record: GameRecord, handle: IO[str]) -> None:
    """Write a record as GCG to a text handle."""
    alphabet = load_alphabet(record.alphabet)
    w = handle.write
    w("#character-encoding UTF-8\n")
    for i, p in enumerate(record.players, start=1):
        w(f"#player{i} {p.nickname} {p.name}\n")
    if record.title is not None:
        w(f"#title {record.title}\n")
    if record.description is not None:
        w(f"#description {record.description}\n")
    if record.id is not None:
        w(f"#id {record.id}\n")
    if record.lexicon is not None:
        w(f"#lexicon {record.lexicon}\n")
    if record.alphabet != "english":
        w(f"#{ALPHABET_PRAGMAS[0]} {record.alphabet}\n")
    for key, value in record.pragmas:
        w(f"#{key} {value}\n" if value else f"#{key}\n")
    _write_notes(record.notes, w)
    squares = _Squares()
    for event in record.events:
        for line in event_lines(record, event, squares):
            w(line + "\n")
        _write_notes(event.notes, w)
        squares.follow(event)
    for index, tiles in sorted(record.final_racks.items()):
        w(f"#rack{index + 1} {alphabet.format_rack(tiles)}\n" if tiles else f"#rack{index + 1}\n")
    if record.to_move is not None:
        w(f"#{TO_MOVE_PRAGMA} {_nickname(record, record.to_move)}\n")


class _Squares:
    """The squares that hold a tile, followed through a record's events: what
    the writer needs to write an anagram play as a placement that plays
    through the word it rearranges."""

    def __init__(self) -> None:
        self.filled: set[tuple[int, int]] = set()
        self.added: set[tuple[int, int]] = set()
        """The squares the last placement filled (emptied again if it is withdrawn)."""

    @classmethod
    def before(cls, record: GameRecord, event: Event) -> _Squares:
        """The squares filled when ``event`` (one of the record's) happens."""
        squares = cls()
        for e in record.events:
            if e is event:
                break
            squares.follow(e)
        return squares

    def follow(self, event: Event) -> None:
        if event.kind is EventKind.PLACE and event.move is not None:
            self.added = {(r, c) for r, c, _ in event.move.squares()} - self.filled
            self.filled |= self.added
        elif event.kind is EventKind.WITHDRAWN:
            self.filled -= self.added
            self.added = set()

    def placement(self, anagram: Move) -> Move:
        """An anagram play as the placement of the tiles it adds, the
        squares of the rearranged word played through."""
        tiles = [PLAYED_THROUGH if (r, c) in self.filled else t for r, c, t in anagram.squares()]
        return Move.place(anagram.row, anagram.col, anagram.down, tiles)


def event_lines(record: GameRecord, event: Event, squares: _Squares | None = None) -> list[str]:
    """The GCG lines of one event (without line breaks): its event line,
    after the pragma an anagram play or a time-out needs; a recycle, a
    blank swap or a resignation is a pragma line alone.

    ``squares`` are the squares filled before the event (found from the
    record's events when not given).
    """
    alphabet = load_alphabet(record.alphabet)
    layout = load_layout("standard")
    nick = _nickname(record, event.player)
    rack = "" if event.rack is None else alphabet.format_rack(event.rack)
    move = event.move
    if event.kind in (EventKind.RECYCLE, EventKind.BLANK_SWAP) and move is not None:
        return [f"#{_ACTION} {nick}: {rack + ' ' if rack else ''}{move.gcg(alphabet, layout)}"]
    if event.kind is EventKind.RESIGN:
        return [f"#{_RESIGN} {nick}"]
    if event.kind is EventKind.TIME_OUT:
        return [f"#{_TIME_OUT} {nick}", format_event(record, event)]
    if event.kind is EventKind.PLACE and move is not None and move.kind is MoveKind.ANAGRAM:
        position = layout.position_name(move.row, move.col, move.down)
        marker = f"#{_ANAGRAM} {nick}: {position} {alphabet.format_word(move.tiles)}"
        if squares is None:
            squares = _Squares.before(record, event)
        placement = squares.placement(move).gcg(alphabet, layout)
        return [marker, f">{nick}: {rack + ' ' if rack else ''}{placement} {event.score:+d} {event.total}"]
    return [format_event(record, event)]


def format_event(record: GameRecord, event: Event) -> str:
    """One event as a GCG line (without the line break): its event line, or
    for a recycle or a blank swap its ``#action`` line, for a resignation its
    ``#resign`` line (see :func:`event_lines`).

    >>> record = loads(">alice: HNOR 8F HORN +14 14\\n")
    >>> format_event(record, record.events[0])
    '>alice: HNOR 8F HORN +14 14'
    """
    if event.kind in (EventKind.RECYCLE, EventKind.BLANK_SWAP, EventKind.RESIGN) or (
        event.move is not None and event.move.kind is MoveKind.ANAGRAM
    ):
        return event_lines(record, event)[-1]
    alphabet = load_alphabet(record.alphabet)
    rack = "" if event.rack is None else alphabet.format_rack(event.rack)
    body = _event_body(event, rack, alphabet, load_layout("standard"))
    return f">{_nickname(record, event.player)}: {body} {event.score:+d} {event.total}"


def _nickname(record: GameRecord, player: int) -> str:
    return record.players[player].nickname if player < len(record.players) else f"player{player + 1}"


def _event_body(event: Event, rack: str, alphabet: Alphabet, layout: BoardLayout) -> str:
    kind = event.kind
    if (
        kind in (EventKind.PLACE, EventKind.PASS, EventKind.TIME_OUT)
        or (kind is EventKind.EXCHANGE and event.move is not None)
    ):
        assert event.move is not None
        action = event.move.gcg(alphabet, layout)
    elif kind is EventKind.EXCHANGE:
        action = f"-{event.exchange_count}"
    elif kind is EventKind.WITHDRAWN:
        action = "--"
    elif kind is EventKind.CHALLENGE:
        action = "(challenge)"
    elif kind is EventKind.TIME_PENALTY:
        action = "(time)"
    else:
        action = f"({alphabet.format_rack(event.end_rack)})"
    return f"{rack} {action}" if rack else action


def _write_notes(notes: Iterable[str], w: object) -> None:
    for note in notes:
        first, *more = note.split("\n")
        w(f"#note {first}\n")  # type: ignore[operator]
        for line in more:
            w(f"{line}\n")  # type: ignore[operator]
