"""Writing GCG records (:func:`dumps`, :func:`dump`): the writer half of
:mod:`tilebag.formats.gcg`, which reads them back to the same record.

>>> from tilebag.record import Event, EventKind, GameRecord, PlayerInfo
>>> from tilebag.move import Move
>>> record = GameRecord([PlayerInfo("alice")], rule_options={"rack_size": 9}, clock_used=(61.0,))
>>> record.events.append(Event(EventKind.PLACE, 0, 14, 14, move=Move.from_gcg("8F HORN")))
>>> print(dumps(record), end="")
#character-encoding UTF-8
#player1 alice alice
#rack-size 9
#clock-used 61
>alice: 8F HORN +14 14
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from tilebag.alphabet import Alphabet, load_alphabet
from tilebag.formats.gcg_pragmas import (
    ACTION_PRAGMA,
    ALPHABET_PRAGMAS,
    ANAGRAM_PRAGMA,
    CLOCK_PRAGMA,
    RESIGN_PRAGMA,
    TIME_OUT_PRAGMA,
    TO_MOVE_PRAGMA,
    options_pragmas,
    seconds_text,
)
from tilebag.layout import BoardLayout, load_layout
from tilebag.move import PLAYED_THROUGH, Move, MoveKind
from tilebag.record import Event, EventKind, GameRecord


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
    for key, value in options_pragmas(record.rule_options):
        w(f"#{key} {value}\n" if value else f"#{key}\n")
    if record.clock_used is not None:
        w(f"#{CLOCK_PRAGMA} {' '.join(seconds_text(s) for s in record.clock_used)}\n")
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
        return [f"#{ACTION_PRAGMA} {nick}: {rack + ' ' if rack else ''}{move.gcg(alphabet, layout)}"]
    if event.kind is EventKind.RESIGN:
        return [f"#{RESIGN_PRAGMA} {nick}"]
    if event.kind is EventKind.TIME_OUT:
        return [f"#{TIME_OUT_PRAGMA} {nick}", format_event(record, event)]
    if event.kind is EventKind.PLACE and move is not None and move.kind is MoveKind.ANAGRAM:
        position = layout.position_name(move.row, move.col, move.down)
        marker = f"#{ANAGRAM_PRAGMA} {nick}: {position} {alphabet.format_word(move.tiles)}"
        if squares is None:
            squares = _Squares.before(record, event)
        placement = squares.placement(move).gcg(alphabet, layout)
        return [marker, f">{nick}: {rack + ' ' if rack else ''}{placement} {event.score:+d} {event.total}"]
    return [format_event(record, event)]


def format_event(record: GameRecord, event: Event) -> str:
    """One event as a GCG line (without the line break): its event line, or
    for a recycle or a blank swap its ``#action`` line, for a resignation its
    ``#resign`` line (see :func:`event_lines`).

    >>> from tilebag.formats.gcg import loads
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
