"""Game records as strangers write them: what a record may name, the limits
on its size and numbers, and the older layouts real records use.

Each test pins a defect found by trying tilebag as a new user would; the
command's exit codes are 0 (the record agrees with the rules), 1 (a figure
or placement disagrees) and 2 (the record is malformed), never a traceback.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import OWN_RECORDS
from running import tilebag, write
from tilebag import FormatError, Game, Illegal, IllegalMoveError, NothingToUndoError
from tilebag.errors import QUOTE_LIMIT
from tilebag.formats import gcg, replay
from tilebag.lexicon import AcceptAll

PLAY = "#player1 a a\n#player2 b b\n>a: HNORSTU 8F HORN +14 14\n"


# -- 1. a record names tile sets and layouts, never files -------------------------


@pytest.mark.parametrize("pragma", ["tile-distribution", "letter-distribution", "board-layout"])
@pytest.mark.parametrize("target", ["/etc/passwd", "../../../../etc/passwd", "SECRET"])
def test_a_record_cannot_make_tilebag_read_a_file(tmp_path: Path, pragma: str, target: str) -> None:
    secret = write(tmp_path, "secret.txt", "the first line of a private file\n")
    target = str(secret) if target == "SECRET" else target
    record = write(tmp_path, "x.gcg", f"#{pragma} {target}\n{PLAY}")
    done = tilebag("gcg", "check", str(record))
    assert done.returncode == 2, done
    what = "board layout" if pragma == "board-layout" else "tile set"
    assert done.stderr.startswith(f"{record}:1: #{pragma}: unknown {what} "), done.stderr
    assert "a record names one of" in done.stderr
    assert "private" not in done.stderr + done.stdout and "root:" not in done.stderr + done.stdout
    assert "parses with --alphabet" not in done.stderr  # no false hint


AUDIT = textwrap.dedent(
    """
    import sys
    opened = []
    sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" else None)
    from tilebag.ui.cli import main
    status = main(["gcg", "check", sys.argv[1]])
    print("OPENED", [p for p in opened if "secret" in p])
    sys.exit(status)
    """
)


def test_no_file_named_inside_a_record_is_opened(tmp_path: Path) -> None:
    """Watched with an audit hook: nothing a record names is opened, not even to look."""
    secret = write(tmp_path, "secret.txt", "A 1 1 vowel\n")
    text = f"#tile-distribution {secret}\n#board-layout {tmp_path / 'secret'}\n{PLAY}"
    record = write(tmp_path, "x.gcg", text)
    done = subprocess.run(
        [sys.executable, "-c", AUDIT, str(record)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2, done.stderr
    assert "OPENED []" in done.stdout


def test_the_alphabet_option_may_name_a_file(tmp_path: Path) -> None:
    tiles = write(tmp_path, "duo.txt", "? 2 0 consonant\nA 40 1 vowel\nH 20 4 consonant\nN 20 1 consonant\nO 20 1 vowel\nR 20 1 consonant\n")
    record = write(tmp_path, "x.gcg", "#tile-distribution duo\n#player1 a a\n#player2 b b\n>a: AHNOR 8F HORN +14 14\n")
    assert tilebag("gcg", "check", str(record)).returncode == 2  # a record cannot name it ...
    done = tilebag("gcg", "check", "--alphabet", str(tiles), str(record))  # ... the command line can
    assert done.returncode == 0, done.stderr


# -- 2. malformed records: exit 2 with file:line, bounded, no traceback --------------


def test_players_but_no_events(tmp_path: Path) -> None:
    done = tilebag("gcg", "check", str(write(tmp_path, "x.gcg", "#player1 a a\n#player2 b b\n")))
    assert (done.returncode, done.stdout.split(": ", 1)[1].strip()) == (0, "ok (0 events, 0-0)")
    assert replay.replay(gcg.loads("#player1 a a\n#player2 b b\n")).scores == [0, 0]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (">a: HNORSTU 8F HORN +14 " + "1" * 5000, "running total '1111"),
        (">a: HNORSTU 8F HORN +" + "9" * 400 + " 14", "score '+999"),
        (">a: HNORSTU -" + "7" * 50 + " +0 0", "an exchange of '777"),
        (">a: HNORSTU 8F " + "HORN" * 30_000 + " +14 14", "characters, at most 10000"),
        ("#tile-distribution " + "x" * 1000, "unknown tile set 'xxxx"),
        ("#rack-size 1000000000", "#rack-size '1000000000': "),
        ("#turn-time nan", "#turn-time 'nan': "),
        ("#" + "a" * 20_000, "characters, at most 10000"),
    ],
)
def test_malformed_lines_exit_2_naming_the_line(tmp_path: Path, line: str, message: str) -> None:
    record = write(tmp_path, "x.gcg", f"#player1 a a\n#player2 b b\n{line}\n")
    done = tilebag("gcg", "check", str(record))
    assert done.returncode == 2, done
    assert done.stderr.startswith(f"{record}:3: "), done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr) < 400  # quotes at most QUOTE_LIMIT characters of the input


def test_numbers_are_bounded_but_real_scores_are_not_refused() -> None:
    record = gcg.loads(">a: HNORSTU 8F HORN +14 999999\n")
    assert record.events[0].total == 999999
    with pytest.raises(FormatError, match="has more than 6 digits"):
        gcg.loads(">a: HNORSTU 8F HORN +14 1000000\n")


def test_a_nul_byte_or_a_codec_that_is_not_text_in_the_encoding_line(tmp_path: Path) -> None:
    for declared in (b"UTF\x00-8", b"hex", b"rot13", b"idna", b"x" * 300):
        record = write(tmp_path, "x.gcg", b"#character-encoding " + declared + b"\n" + PLAY.encode())
        done = tilebag("gcg", "check", str(record))
        assert done.returncode == 0, (declared, done.stderr)
        assert "unknown character encoding" in done.stdout


def test_record_size_and_length_limits(tmp_path: Path) -> None:
    huge = write(tmp_path, "huge.gcg", PLAY + "#note " + "x" * 5000 + "\n" + ("#note x\n" * 300_000))
    with pytest.raises(FormatError, match="larger than 1048576 bytes"):
        gcg.load(huge)
    long = write(tmp_path, "long.gcg", PLAY + ">b: - +0 0\n>a: - +0 14\n" * 3000)
    with pytest.raises(FormatError, match="a game has at most 5000 lines") as info:
        gcg.load(long)
    assert info.value.line == 5001


@pytest.mark.parametrize("text", ["8H " + "A" * 100_000 + "0", "8H " + "A" * 100_000, "-" + "A" * 100_000, "anagram 8H " + "A" * 100_000])
def test_messages_quote_at_most_a_few_dozen_characters_of_input(text: str) -> None:
    game = Game(["a", "b"], seed=1, lexicon=AcceptAll())
    with pytest.raises(ValueError) as info:
        game.push_gcg(text)
    assert len(str(info.value)) < QUOTE_LIMIT + 120
    assert f"({len(text)} characters)" in str(info.value)


# -- 3. a letter written for a played-through square must be the one there -----------


def farm_position() -> Game:
    game = Game(["alice", "bob"], seed=7, first=0, lexicon=AcceptAll())
    game.set_rack(0, "HNORSTU")
    game.push_gcg("8F HORN")
    game.set_rack(1, "AFMXYZE")
    return game


def test_a_wrong_played_through_letter_is_refused_with_the_square_and_both_letters() -> None:
    game = farm_position()
    before = (game.scores, game.rack(1), game.board.tiles[:])
    with pytest.raises(IllegalMoveError) as info:
        game.push_gcg("H6 FA(X)M")
    assert info.value.reason is Illegal.PLAYED_THROUGH_MISMATCH
    assert str(info.value) == "H6 FA(X)M: H8 holds R, but the play writes (X) for it"
    assert (game.scores, game.rack(1), game.board.tiles[:]) == before
    for right in ("H6 FA(R)M", "H6 FA(r)M", "H6 FARM", "H6 FA.M"):
        assert game.notation(game.check(game.parse_move(right))) == "H6 FA(R)M"


def test_a_played_through_blank_is_written_as_its_letter() -> None:
    game = Game(["alice", "bob"], seed=7, first=0, lexicon=AcceptAll())
    game.set_rack(0, "HNO?STU")
    game.push_gcg("8F HOrN")
    game.set_rack(1, "AFMXYZE")
    assert game.push_gcg("H6 FA(R)M") == 8
    game.pop()
    with pytest.raises(IllegalMoveError, match=r"H8 holds r, but the play writes \(s\) for it"):
        game.push_gcg("H6 FA(s)M")


def test_a_record_with_a_wrong_played_through_letter_fails_the_check(tmp_path: Path) -> None:
    record = write(tmp_path, "x.gcg", ">a: HNORSTU 8F HORN +14 14\n>b: AFMXYZE H6 FA(X)M +9 9\n")
    done = tilebag("gcg", "check", str(record))
    assert done.returncode == 1
    assert f"{record}:2: >b: AEFMXYZ H6 FA(X)M +9 9: illegal placement: " in done.stdout
    assert "H8 holds R, but the play writes (X) for it" in done.stdout


# -- 7. the library's own errors ------------------------------------------------------


def test_undo_on_a_new_game_and_a_seat_that_does_not_exist() -> None:
    game = Game(2, seed=1)
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        game.pop()
    with pytest.raises(IndexError):  # still an IndexError, as popping an empty stack is
        game.pop()
    for call in (lambda: game.set_rack(5, "AB"), lambda: game.set_rack(-1, "AB"), lambda: game.rack(2)):
        with pytest.raises(IllegalMoveError, match="there is no player") as info:
            call()
        assert info.value.reason is Illegal.WRONG_PLAYER


# -- 10. real records in layouts other programs write --------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in OWN_RECORDS.glob("*.gcg")))
def test_own_records_check_clean(name: str) -> None:
    record = gcg.load(OWN_RECORDS / name)
    report = replay.check(record, source=name)
    assert report.ok, [f.format(name) for f in report.errors]


def test_quackle_older_layout_reads_as_the_same_game() -> None:
    older = gcg.load(OWN_RECORDS / "quackle-older-layout.gcg")
    plain = gcg.load(OWN_RECORDS / "selfplay-standard.gcg")
    assert [(e.player, e.score, e.total) for e in older.events] == [(e.player, e.score, e.total) for e in plain.events]
    assert replay.replay(older).scores == replay.replay(plain).scores


def test_seats_that_share_a_nickname_are_read_by_turn_order() -> None:
    shared = gcg.load(OWN_RECORDS / "shared-nickname.gcg")
    plain = gcg.load(OWN_RECORDS / "selfplay-standard.gcg")
    assert [e.player for e in shared.events] == [e.player for e in plain.events]
    game = replay.replay(shared)
    assert [p.name for p in game.players] == ["First Player", "Second Player"]


def test_a_recorded_rack_that_lacks_a_played_tile_is_a_warning(tmp_path: Path) -> None:
    path = OWN_RECORDS / "rack-lacks-a-tile.gcg"
    report = replay.check(gcg.load(path))
    assert report.ok
    (warning,) = report.warnings
    assert warning.line == 13 and warning.message == "plays J, which the recorded rack BEGINNR does not hold"
    done = tilebag("gcg", "check", str(path))
    assert done.returncode == 0
    assert f"{path}:13: >greedy: BEGINNR G11 REJIG +23 134: warning: plays J" in done.stdout
