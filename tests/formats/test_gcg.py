"""GCG reading and writing: every event type, encodings, streaming, round trips, errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conftest import SHARED_DATA, shared_gcg_files
from tilebag import EventKind, FormatError, Game, Move, load_alphabet
from tilebag.formats import gcg
from tilebag.record import GameRecord

ENGLISH = load_alphabet("english")

SHARED_RECORDS = shared_gcg_files() or [
    pytest.param(None, marks=pytest.mark.skip(reason=f"shared game records not found at {SHARED_DATA}"))
]


def alphabet_for(path: Path) -> str | None:
    # The one Polish record carries no pragma saying so (see the check tests).
    return "polish" if "polish" in path.name else None


# -- every event type ----------------------------------------------------------

EVERY_EVENT = """\
#character-encoding UTF-8
#player1 doug Doug Smith
#player2 emely Emely Jones
#title A title
#description Every kind of event
#id io.woogles abc123
#lexicon NWL20
#game-type classic
#note before the first move
>doug: DINNVWY 8D WINDY +32 32
#note nice
opening
>emely: ADEEGIL 7C GALE +16 16
>doug: AEJNOSV E3 JAVE(L)IN +34 66
>emely: DEIILTZ 4B TIL.. +24 40
>emely: DEIILTZ -- -24 16
>doug: AAEINRU -AAU +0 66
>emely: DEIILTZ -3 +0 16
>doug: - +0 66
>emely: (challenge) +5 21
>doug: AEINORS (time) -10 56
>emely: (OPEG) +14 35
>doug: OPEG (OPEG) -7 49
#rack1 AEINRST
#rack2 ?
"""


def test_every_event_type_parses() -> None:
    record = gcg.loads(EVERY_EVENT)
    assert [p.nickname for p in record.players] == ["doug", "emely"]
    assert record.players[0].name == "Doug Smith"
    assert record.title == "A title"
    assert record.description == "Every kind of event"
    assert record.id == "io.woogles abc123"
    assert record.lexicon == "NWL20"
    assert record.pragma("game-type") == "classic"
    assert record.notes == ["before the first move"]
    kinds = [e.kind for e in record.events]
    assert kinds == [
        EventKind.PLACE,
        EventKind.PLACE,
        EventKind.PLACE,
        EventKind.PLACE,
        EventKind.WITHDRAWN,
        EventKind.EXCHANGE,
        EventKind.EXCHANGE,
        EventKind.PASS,
        EventKind.CHALLENGE,
        EventKind.TIME_PENALTY,
        EventKind.END_RACK_POINTS,
        EventKind.END_RACK_PENALTY,
    ]
    first = record.events[0]
    assert first.notes == ["nice\nopening"]
    assert first.move == Move.from_gcg("8D WINDY")
    assert first.score == 32 and first.total == 32 and first.line == 10
    # Played-through tiles in parentheses and as dots parse alike.
    assert record.events[2].move == Move.from_gcg("E3 JAVE.IN")
    assert record.events[5].move == Move.exchange(ENGLISH.parse_rack("AAU"))
    assert record.events[6].move is None and record.events[6].exchange_count == 3
    assert record.events[8].rack is None and record.events[8].score == 5
    assert record.events[9].score == -10
    assert record.events[10].end_rack == tuple(sorted(ENGLISH.parse_rack("OPEG")))
    assert record.events[11].score == -7
    assert record.final_racks == {0: tuple(sorted(ENGLISH.parse_rack("AEINRST"))), 1: (0,)}


def test_every_event_type_round_trips() -> None:
    record = gcg.loads(EVERY_EVENT)
    text = gcg.dumps(record)
    assert gcg.loads(text) == record
    # Writing is stable: a second round gives the same text.
    assert gcg.dumps(gcg.loads(text)) == text


def test_written_event_lines() -> None:
    text = gcg.dumps(gcg.loads(EVERY_EVENT))
    lines = text.splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    assert ">emely: DEIILTZ -- -24 16" in lines
    assert ">emely: DEIILTZ -3 +0 16" in lines
    assert ">doug: - +0 66" in lines
    assert ">emely: (challenge) +5 21" in lines
    assert ">doug: AEINORS (time) -10 56" in lines
    assert ">emely: (EGOP) +14 35" in lines
    assert ">doug: EGOP (EGOP) -7 49" in lines
    assert "#rack2 ?" in lines


def test_blanks_are_lowercase_in_words_and_question_marks_on_racks() -> None:
    record = gcg.loads(">a: ?ADIORR 3A mIRADOR +74 74\n")
    event = record.events[0]
    assert event.move is not None
    assert event.move.tiles[0] == 13 | 0x80
    assert event.rack is not None and 0 in event.rack
    assert ">a: ADIORR? 3A mIRADOR +74 74" in gcg.dumps(record)


def test_missing_and_partial_racks() -> None:
    record = gcg.loads(">a: 8G GUM +12 12\n>b: EPW 9H PEW +18 18\n>a:  (Q) +20 32\n")
    assert record.events[0].rack is None
    assert record.events[1].rack == tuple(sorted(ENGLISH.parse_rack("EPW")))
    assert record.events[2].kind is EventKind.END_RACK_POINTS
    assert gcg.loads(gcg.dumps(record)) == record


def test_players_named_only_by_events() -> None:
    record = gcg.loads(">x: AB 8G AB +8 8\n>y: CD - +0 0\n")
    assert [p.nickname for p in record.players] == ["x", "y"]


# -- encodings and line endings ---------------------------------------------------


def test_iso_8859_1_without_declaration(tmp_path: Path) -> None:
    path = tmp_path / "latin.gcg"
    path.write_bytes("#player1 césar César\n#player2 b b\n>césar: AB 8G AB +8 8\n".encode("latin-1"))
    record = gcg.load(path)
    assert record.players[0].nickname == "césar"
    assert record.events[0].player == 0


def test_utf8_declared_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "dos.gcg"
    text = "#character-encoding UTF-8\r\n#player1 zoë Zoë\r\n#player2 b b\r\n>zoë: AB 8G AB +8 8\r\n#note one\r\n\r\n"
    path.write_bytes(text.encode("utf-8"))
    record = gcg.load(path)
    assert record.encoding == "UTF-8"
    assert record.players[0].name == "Zoë"
    assert record.events[0].notes == ["one"]


def test_wrong_declared_encoding_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "weird.gcg"
    path.write_bytes("#character-encoding ISO8859-6\n#player1 césar c\n#player2 b b\n".encode())
    record = gcg.load(path)
    assert record.players[0].nickname == "césar"
    assert len(record.warnings) == 1
    assert record.warnings[0].startswith(f"{path}:2: the bytes are not ISO8859-6")


def test_unknown_declared_encoding_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "unknown.gcg"
    path.write_bytes(b"#character-encoding KLINGON\n#player1 a a\n")
    assert "unknown character encoding 'KLINGON'" in gcg.load(path).warnings[0]


def test_utf8_byte_order_mark() -> None:
    decoded = gcg.decode("\ufeff#player1 a a\n".encode("utf-8"))
    assert decoded.text == "#player1 a a\n"


# -- streaming -------------------------------------------------------------------------


def test_read_game_streams_one_game_at_a_time() -> None:
    one = "#player1 a a\n#player2 b b\n>a: AB 8G AB +8 8\n"
    two = "#player1 c c\n#player2 d d\n>c: CD - +0 0\n>d: EF - +0 0\n"
    handle = io.StringIO(one + two)
    first = gcg.read_game(handle)
    second = gcg.read_game(handle)
    assert first is not None and second is not None
    assert [p.nickname for p in first.players] == ["a", "b"]
    assert [p.nickname for p in second.players] == ["c", "d"]
    assert len(second.events) == 2
    assert second.events[0].line == 6  # line numbers run on through the stream
    assert gcg.read_game(handle) is None
    assert len(list(gcg.read_games(io.StringIO(one + two)))) == 2


def test_a_game_resigned_before_any_move_ends_at_the_next_games_first_line() -> None:
    """An archive (a player's games, an event's) may hold a game whose only
    event is a resignation: no move line, and yet the next record starts anew."""
    from tilebag.game import Game

    resigned = Game(["ann", "ben"], seed=1, first=0)
    resigned.resign(0)
    played = "#character-encoding UTF-8\n#player1 c c\n#player2 d d\n>c: CD - +0 0\n"
    records = list(gcg.read_games(io.StringIO(gcg.dumps(resigned.record()) + played)))
    assert [[p.nickname for p in r.players] for r in records] == [["ann", "ben"], ["c", "d"]]
    assert len(records[1].events) == 1


def test_read_game_returns_none_on_empty_input() -> None:
    assert gcg.read_game(io.StringIO("")) is None
    assert gcg.read_game(io.StringIO("\n\n")) is None


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (">a: AB 8G AB +x 8", "score '+x' is not a number such as +14 or -7"),
        (">a: AB 8G AB +8 y", "running total 'y' is not a number"),
        (">a: AB 8G A1B +8 8", "'1' is not a tile of the english tile set"),
        (">a: A$B 8G AB +8 8", "bad rack 'A$B': '$' is not a tile of the english tile set"),
        (">a: AB Z9 AB +8 8", "'Z9' is off the 15x15 board"),
        (">a AB 8G AB +8 8", "an event line is '>nickname: ...'"),
        (">a: +8", "an event needs a play, a score and a running total"),
        (">z: AB 8G AB +8 8", "unknown player 'z' (the #player pragmas name a, b)"),
        ("what is this", "not a pragma (#...) or an event (>...): 'what is this'"),
    ],
)
def test_malformed_lines_name_their_line(line: str, message: str) -> None:
    text = f"#player1 a a\n#player2 b b\n{line}\n"
    with pytest.raises(FormatError) as info:
        gcg.loads(text, source="game.gcg")
    assert info.value.line == 3
    assert message in str(info.value)
    assert str(info.value).startswith("game.gcg:3: ")


def test_lenient_mode_collects_errors_with_line_numbers() -> None:
    text = "#player1 a a\n#player2 b b\n>a: AB 8G AB +8 8\n>b: garbage\n>b: CD - +0 0\nnonsense\n"
    record = gcg.loads(text, lenient=True)
    assert [e.line for e in record.errors] == [4, 6]
    assert [e.kind for e in record.events] == [EventKind.PLACE, EventKind.PASS]


def test_file_without_a_game(tmp_path: Path) -> None:
    path = tmp_path / "empty.gcg"
    path.write_text("\n")
    with pytest.raises(FormatError, match="holds no game"):
        gcg.load(path)


def test_alphabet_from_pragma_and_lexicon() -> None:
    assert gcg.loads("#tile-distribution polish\n#player1 a a\n>a: ĄĘ 8G ĄĘ +8 8\n").alphabet == "polish"
    assert gcg.loads("#lexicon OSPS49\n#player1 a a\n>a: ĄĘ 8G ĄĘ +8 8\n").alphabet == "polish"
    record = gcg.loads(">a: ĄĘ 8G ĄĘ +8 8\n", alphabet="polish")
    assert "#tile-distribution polish" in gcg.dumps(record)
    assert gcg.loads(gcg.dumps(record)) == record


# -- tilebag's own games ------------------------------------------------------------------


def test_game_record_round_trip_and_end_of_game_per_the_rules() -> None:
    game = Game(["alice", "bob"], seed=3, first=0)
    game.set_rack(0, "HNOR")
    game.push_gcg("8F HORN")
    game.push(Move.pass_())
    record = game.record()
    text = gcg.dumps(record)
    assert ">alice: " in text and "8F HORN +14 14" in text
    assert "#lexicon kjxqz" in text
    assert gcg.loads(text) == record


def test_game_ending_writes_penalties_for_each_rack() -> None:
    game = Game(["alice", "bob"], seed=5)
    for _ in range(4):
        game.push(Move.pass_())
    assert game.is_over()
    text = gcg.dumps(game.record())
    penalty_lines = [line for line in text.splitlines() if ") -" in line]
    assert len(penalty_lines) == 2
    back = gcg.loads(text)
    assert [e.kind for e in back.events[-2:]] == [EventKind.END_RACK_PENALTY] * 2


# -- the shared real-game records ------------------------------------------------------


@pytest.mark.parametrize("path", SHARED_RECORDS, ids=lambda p: p.name if isinstance(p, Path) else str(p))
def test_shared_record_reads_and_round_trips(path: Path) -> None:
    record = gcg.load(path, alphabet=alphabet_for(path))
    assert isinstance(record, GameRecord)
    assert record.events, "every shared record has events"
    assert not record.errors
    again = gcg.loads(gcg.dumps(record), alphabet=record.alphabet)
    assert again == record


def test_shared_record_iso_8859_1_name(shared_data: Path) -> None:
    record = gcg.load(shared_data / "gcg" / "gcgio_testdata_name_iso8859-1.gcg")
    assert record.players[0].nickname == "césar"
    utf8 = gcg.load(shared_data / "gcg" / "gcgio_testdata_name_utf8_noheader.gcg")
    assert utf8.players[0].nickname == "césar"


def test_shared_record_with_continued_notes(shared_data: Path) -> None:
    record = gcg.load(shared_data / "gcg" / "gcgio_testdata_utf8_dos.gcg")
    noted = [e for e in record.events if any("\n" in n for n in e.notes)]
    assert len(noted) == 1
    assert noted[0].notes[0].endswith("will it work?")
