"""Word lists, leave files and positions as strangers write them: refused
with the line and the reason, in bounded time and memory, never a traceback
(the commands exit 2)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from running import tilebag, write
from tilebag import FormatError
from tilebag.engine.equity.leaves import MAX_LEAVE_TILES, KlvLeaves, dumps_klv2, load_leaves
from tilebag.formats.cgp import MAX_CGP_CHARS, CgpError, parse
from tilebag.kwg import IS_END
from tilebag.lexicon import load_lexicon, max_word_length, read_word_list

EMPTY = "/".join(["15"] * 15)


# -- word lists ------------------------------------------------------------------------


def test_a_word_longer_than_any_board_is_refused_at_once(tmp_path: Path) -> None:
    """A 100,000-letter line used to take minutes and gigabytes (the GADDAG
    of a word grows with the square of its length)."""
    words = write(tmp_path, "w.txt", "qi\n" + "A" * 100_000 + "\nza\n")
    done = tilebag("lexicon", "build", str(words), "-o", str(tmp_path / "w.kwg"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"tilebag: {words}:2: 'AAAA")
    assert "(100000 characters) is longer than any board (15 squares)" in done.stderr
    assert not (tmp_path / "w.kwg").exists()


def test_the_longest_word_a_board_holds_is_accepted() -> None:
    assert max_word_length() == 15
    assert list(read_word_list(["ABCDEFGHIJKLMNO"])) == ["ABCDEFGHIJKLMNO"]
    with pytest.raises(FormatError, match="has 16 tiles: no board is longer than 15 squares") as info:
        list(read_word_list(["QI", "ABCDEFGHIJKLMNOP"], source="w.txt"))
    assert info.value.line == 2


@pytest.mark.parametrize("text", ["", "# only a comment\n\n", "A\nI\n"])
def test_a_word_list_without_words_is_refused(tmp_path: Path, text: str) -> None:
    words = write(tmp_path, "w.txt", text)
    done = tilebag("lexicon", "build", str(words), "-o", str(tmp_path / "w.kwg"))
    assert done.returncode == 2
    assert done.stderr.strip().endswith("the word list holds no words of two letters or more")
    with pytest.raises(FormatError, match="holds no words"):
        load_lexicon(words)


def test_one_letter_words_are_skipped_with_a_note(tmp_path: Path) -> None:
    words = write(tmp_path, "w.txt", "QI\nA\nZA\nI\n")
    done = tilebag("lexicon", "build", str(words), "-o", str(tmp_path / "w.kwg"))
    assert done.returncode == 0, done.stderr
    assert f"note: {words}: 2 one-letter words skipped (no play forms one), the first on line 2" in done.stderr
    assert done.stdout.startswith(f"{tmp_path / 'w.kwg'}: 2 words")


def test_a_broken_gzip_word_list(tmp_path: Path) -> None:
    words = write(tmp_path, "w.txt.gz", b"\x1f\x8b\x08\x00garbage")
    done = tilebag("lexicon", "build", str(words), "-o", str(tmp_path / "w.kwg"))
    assert done.returncode == 2 and "not a readable .gz file" in done.stderr


# -- leave files -----------------------------------------------------------------------


def test_a_binary_leave_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    leaves = write(tmp_path, "leaves.txt", bytes(range(256)) * 4)
    done = tilebag("moves", "--cgp", f"{EMPTY} AEINRST/ 0/0 0", "--leaves", str(leaves))
    assert done.returncode == 2
    assert done.stderr.startswith(f"tilebag: {leaves}:2: not a text table (byte 0x80 is not UTF-8)")  # byte 10 ends line 1
    assert "Traceback" not in done.stderr


def test_an_empty_leave_file_is_refused(tmp_path: Path) -> None:
    for name, data in (("empty.txt", b""), ("comments.txt", b"# nothing\n"), ("empty.klv2", dumps_klv2({}))):
        path = write(tmp_path, name, data)
        with pytest.raises(FormatError, match="lists no leaves"):
            load_leaves(path)


def test_a_leave_longer_than_a_rack_keeps_is_refused(tmp_path: Path) -> None:
    table = write(tmp_path, "t.txt", "ES 1.5\n" + "E" * (MAX_LEAVE_TILES + 1) + " 3\n")
    with pytest.raises(FormatError, match=f"has {MAX_LEAVE_TILES + 1} tiles: no rack keeps more than 19") as info:
        load_leaves(table)
    assert info.value.line == 2
    klv = write(tmp_path, "t.klv2", dumps_klv2({(5,) * (MAX_LEAVE_TILES + 1): 1.0}))
    with pytest.raises(FormatError, match="a leave of more than 19 tiles"):
        load_leaves(klv)
    assert len(KlvLeaves.from_bytes(dumps_klv2({(5,) * MAX_LEAVE_TILES: 1.0}))) == 1


def test_a_leave_graph_out_of_tile_order_is_refused(tmp_path: Path) -> None:
    """Lookups stop at the first tile past the one sought: an unsorted
    sibling list would give wrong values, silently."""
    accepts, shift = 1 << 23, 24
    nodes = [IS_END | 1, (19 << shift) | accepts, (5 << shift) | accepts | IS_END]  # S then E
    data = struct.pack(f"<I{len(nodes)}I", len(nodes), *nodes) + struct.pack("<I2f", 2, 1.0, 2.0)
    path = write(tmp_path, "unsorted.klv2", data)
    with pytest.raises(FormatError, match="increasing tile order, got tiles 19 then 5"):
        load_leaves(path)


# -- positions ---------------------------------------------------------------------------


@pytest.mark.parametrize("cgp", ["", "   "])
def test_an_empty_position_is_an_error(cgp: str) -> None:
    done = tilebag("moves", "--cgp", cgp)
    assert done.returncode == 2 and "empty input: a CGP record is" in done.stderr
    assert tilebag("moves", "--cgp", "-", stdin="\n\n").returncode == 2


def test_a_position_is_size_limited() -> None:
    with pytest.raises(CgpError, match=f"a CGP record is at most {MAX_CGP_CHARS}"):
        parse(f"{EMPTY} AB/CD 0/0 0 " + "gid x; " * 5000)
    done = tilebag("moves", "--cgp", "-", stdin="A" * 1_000_000 + "\n" + f"{EMPTY} QI/ 0/0 0\n")
    assert done.returncode == 2
    assert "position 0: input of 10001 characters" in done.stderr
    assert done.stdout.count("\n") > 0  # the next position is still answered


@pytest.mark.slow
def test_a_lexicon_the_position_names_is_never_replaced_silently(tmp_path: Path) -> None:
    position = f"{EMPTY} AEINRST/ 0/0 0 lex NWL20;"
    done = tilebag("moves", "--cgp", position, "--top", "1")
    assert done.returncode == 2
    assert "the position names the lexicon 'NWL20', which tilebag does not have (it has kjxqz)" in done.stderr
    assert tilebag("moves", "--cgp", position, "--top", "1", "--lexicon", "kjxqz").returncode == 0
    assert tilebag("moves", "--cgp", position.replace("NWL20", "KJXQZ"), "--top", "1").returncode == 0
    words = write(tmp_path, "mine.txt", "RETAINS\nSTAINER\n")
    done = tilebag("moves", "--cgp", f"{EMPTY} AEINRST/ 0/0 0 lex {words};", "--top", "1")
    assert done.returncode == 2 and "does not have" in done.stderr  # a name, never a path to open
