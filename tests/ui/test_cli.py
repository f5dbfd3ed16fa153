"""The ``tilebag`` command, run as a real process."""

from __future__ import annotations

import importlib.resources
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from running import tilebag, write
from tilebag import load_alphabet
from word_graphs import HAND_MADE

GOOD = "#player1 a Alice\n#player2 b Bob\n>a: HNOR 8F HORN +14 14\n>b: AFM H6 FA.M +9 9\n"


def test_version() -> None:
    done = tilebag("--version")
    assert done.returncode == 0
    assert done.stdout.startswith("tilebag ")


def test_gcg_check_clean(tmp_path: Path) -> None:
    path = write(tmp_path, "good.gcg", GOOD)
    done = tilebag("gcg", "check", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{path}: ok (2 events, 14-9)"


def test_gcg_check_disagreement_exits_1_with_file_and_line(tmp_path: Path) -> None:
    good = write(tmp_path, "good.gcg", GOOD)
    bad = write(tmp_path, "bad.gcg", GOOD.replace("FA.M +9 9", "FA.M +10 10"))
    done = tilebag("gcg", "check", str(good), str(bad))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert f"{bad}:4: >b: AFM H6 FA.M +10 10: recorded score +10, the rules give +9 (FARM 9)" in lines
    assert f"{bad}:4: >b: AFM H6 FA.M +10 10: recorded running total 10, the rules give 9" in lines
    assert f"{good}: ok (2 events, 14-9)" in lines


def test_gcg_check_unparseable_exits_2(tmp_path: Path) -> None:
    bad = write(tmp_path, "broken.gcg", GOOD + ">a: HNOR 8F +14\n")
    done = tilebag("gcg", "check", str(bad))
    assert done.returncode == 2
    assert done.stderr.strip() == f"{bad}:5: score '8F' is not a number such as +14 or -7"


def test_gcg_check_missing_file_exits_2(tmp_path: Path) -> None:
    done = tilebag("gcg", "check", str(tmp_path / "nope.gcg"))
    assert done.returncode == 2
    assert "nope.gcg: cannot read: No such file or directory" in done.stderr


def test_gcg_check_worst_status_wins(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.gcg", GOOD.replace("+9 9", "+9 10"))
    done = tilebag("gcg", "check", str(bad), str(tmp_path / "nope.gcg"))
    assert done.returncode == 2


def test_gcg_check_lexicon_warnings(tmp_path: Path) -> None:
    words = write(tmp_path, "tiny.txt", "# a tiny list\nhorn\n\nFARM\n")
    record = write(tmp_path, "g.gcg", GOOD + ">a: AEPST 10F PASTE +25 39\n")
    done = tilebag("gcg", "check", "--lexicon", str(words), str(record))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{record}:5: >a: AEPST 10F PASTE +25 39: warning: not in tiny: PASTE, FARMS" in done.stdout.splitlines()


def test_gcg_check_bad_lexicon_file_names_the_line(tmp_path: Path) -> None:
    words = write(tmp_path, "bad.txt", "horn\nfarm\ndon't\n")
    record = write(tmp_path, "g.gcg", GOOD)
    done = tilebag("gcg", "check", "--lexicon", str(words), str(record))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"tilebag: {words.resolve()}:3: \"don't\" is not a word of the english tile set (\"'\" is not a tile)"
    )


def test_gcg_check_alphabet_option(shared_data: Path) -> None:
    path = shared_data / "gcg" / "gcgio_testdata_polish_endgame.gcg"
    without = tilebag("gcg", "check", str(path))
    assert without.returncode == 2
    assert without.stderr.strip().endswith("(the record parses with --alphabet polish)")
    assert f"{path}:6: bad rack 'ĆĘIKPST'" in without.stderr
    done = tilebag("gcg", "check", "--alphabet", "polish", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == f"{path}: ok (53 events, 316-323)"


def test_gcg_check_all_shared_records(shared_data: Path) -> None:
    files = sorted((shared_data / "gcg").glob("*.gcg"))
    english = [str(f) for f in files if "polish" not in f.name]
    done = tilebag("gcg", "check", "--quiet", *english, str(shared_data / "worked-example.gcg"))
    assert done.returncode == 0, done.stdout + done.stderr
    # The only output: the record whose declared encoding does not fit its bytes.
    assert done.stdout.splitlines() == [
        f"warning: {shared_data}/gcg/gcgio_testdata_name_weird_encoding_with_header.gcg:2: "
        "the bytes are not ISO8859-6 as line 1 declares; read as UTF-8 or ISO-8859-1"
    ]


def test_unknown_alphabet_exits_2(tmp_path: Path) -> None:
    done = tilebag("gcg", "check", "--alphabet", "klingon", str(write(tmp_path, "g.gcg", GOOD)))
    assert done.returncode == 2
    assert "no tile set named 'klingon' and no such file; known: english" in done.stderr


@pytest.mark.parametrize(("words", "status"), [(["QI", "za"], 0), (["QI", "QX"], 1)])
def test_word_judge(words: list[str], status: int) -> None:
    done = tilebag("word", *words)
    assert done.returncode == status
    assert f"{words[-1].upper()}: {'acceptable' if status == 0 else 'not acceptable'} in kjxqz" in done.stdout


# -- tilebag lexicon ------------------------------------------------------------


def kjxqz_sample(count: int) -> list[str]:
    """A few hundred words of the default lexicon, its first and last among
    them, upper case, in order."""
    words = (importlib.resources.files("kjxqz") / "words.txt").read_text(encoding="utf-8").upper().splitlines()
    return sorted({words[0], words[-1], *random.Random(11).sample(words, count)})


def tilebag_bytes(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "tilebag", *args], capture_output=True, timeout=120, check=False)


def test_lexicon_build_words_info_round_trip(tmp_path: Path) -> None:
    words = kjxqz_sample(300)
    assert words[0] == "AA" and words[-1] == "ZZZ"
    source = tmp_path / "sample.txt"
    source.write_bytes("".join(f"{word}\n" for word in words).encode("ascii"))
    graph = tmp_path / "sample.kwg"
    done = tilebag("lexicon", "build", str(source), "-o", str(graph))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar off a terminal
    size = graph.stat().st_size
    assert re.fullmatch(
        rf"{re.escape(str(graph))}: {len(words)} words, {size // 4} nodes \(DAWG\+GADDAG\), {size} bytes, \d+\.\d\d s\n",
        done.stdout,
    ), done.stdout
    listed = tilebag_bytes("lexicon", "words", str(graph))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == source.read_bytes()
    info = tilebag("lexicon", "info", str(graph))
    assert info.returncode == 0, info.stderr
    lines = info.stdout.splitlines()
    assert lines[:3] == [f"file: {graph}", f"nodes: {size // 4} ({size} bytes)", f"words: {len(words)}"]
    lengths = Counter(len(word) for word in words)
    assert lines[3] == "lengths: " + " ".join(f"{n}:{lengths[n]}" for n in sorted(lengths))
    assert lines[4:] == ["gaddag: yes"]


def test_lexicon_build_dawg_only_any_case_comments_and_repeats(tmp_path: Path) -> None:
    source = write(tmp_path, "mixed.txt", "# words\nzzz\nQI\n\nqi  # again\nAa\nA\nhorn\n")
    graph = tmp_path / "mixed.kwg"
    done = tilebag("lexicon", "build", "--dawg-only", str(source), "-o", str(graph))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{graph}: 4 words, ") and "(DAWG)" in done.stdout
    listed = tilebag("lexicon", "words", str(graph))
    assert listed.stdout.splitlines() == ["AA", "HORN", "QI", "ZZZ"]
    info = tilebag("lexicon", "info", str(graph))
    assert info.stdout.splitlines()[2:] == ["words: 4", "lengths: 2:2 3:1 4:1", "gaddag: no (DAWG only)"]


def test_lexicon_build_bad_line_exits_2(tmp_path: Path) -> None:
    source = write(tmp_path, "bad.txt", "horn\nfarm\ndon't\n")
    graph = tmp_path / "bad.kwg"
    done = tilebag("lexicon", "build", str(source), "-o", str(graph))
    assert done.returncode == 2
    assert done.stderr == f"tilebag: {source}:3: \"don't\" is not a word of the english tile set (\"'\" is not a tile)\n"
    assert done.stdout == "" and not graph.exists()


def test_lexicon_build_unreadable_or_unwritable_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    done = tilebag("lexicon", "build", str(missing), "-o", str(tmp_path / "x.kwg"))
    assert done.returncode == 2
    assert done.stderr == f"tilebag: {missing}: cannot read: No such file or directory\n"
    source = write(tmp_path, "ok.txt", "QI\n")
    target = tmp_path / "no" / "such" / "dir.kwg"
    done = tilebag("lexicon", "build", str(source), "-o", str(target))
    assert done.returncode == 2
    assert done.stderr == f"tilebag: {target}: cannot write: No such file or directory\n"


def test_lexicon_other_alphabet(tmp_path: Path) -> None:
    spanish = load_alphabet("spanish")
    words = sorted(["CHURRO", "LLAMA", "ÑANDU", "CARRO", "ZORRO", "CAÑA"], key=lambda word: spanish.parse_word(word))
    source = tmp_path / "es.txt"
    source.write_text("".join(f"{word}\n" for word in words), encoding="utf-8")
    graph = tmp_path / "es.kwg"
    done = tilebag("lexicon", "build", "--alphabet", "spanish", str(source), "-o", str(graph))
    assert done.returncode == 0, done.stderr
    listed = tilebag_bytes("lexicon", "words", "--alphabet", "spanish", str(graph))
    assert listed.stdout == source.read_bytes()
    assert words.index("CHURRO") > words.index("CAÑA")  # CH is one tile, after C
    wrong = tilebag("lexicon", "words", str(graph))
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr == (
        f"tilebag: {graph}: tile code 28 is not in the english tile set (codes 1..26); "
        "is the graph for another --alphabet?\n"
    )


def test_lexicon_words_of_a_file_made_elsewhere(tmp_path: Path) -> None:
    graph = tmp_path / "hand.kwg"
    graph.write_bytes(HAND_MADE)
    listed = tilebag("lexicon", "words", str(graph))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == ["AB", "AC", "AD", "BC", "BD"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "a KWG needs at least its root node, the file is empty"),
        (b"\x00" * 6, "a KWG is a whole number of 4-byte nodes, got 6 bytes"),
        (bytes.fromhex("07004000"), "node 0 points to node 7, past the end of the graph (1 nodes)"),
        (bytes.fromhex("0100400000008001"), "the last node does not end its sibling list"),
    ],
    ids=["empty", "6 bytes", "arc past the end", "list runs off"],
)
def test_lexicon_words_malformed_kwg_exits_2(tmp_path: Path, data: bytes, message: str) -> None:
    graph = tmp_path / "broken.kwg"
    graph.write_bytes(data)
    done = tilebag("lexicon", "words", str(graph))
    assert done.returncode == 2
    assert (done.stdout, done.stderr) == ("", f"tilebag: {graph}: {message}\n")


def test_lexicon_words_missing_file_exits_2(tmp_path: Path) -> None:
    done = tilebag("lexicon", "info", str(tmp_path / "nope.kwg"))
    assert done.returncode == 2
    assert done.stderr == f"tilebag: {tmp_path / 'nope.kwg'}: cannot read: No such file or directory\n"


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_lexicon_build_draws_progress_on_a_terminal(tmp_path: Path) -> None:
    source = write(tmp_path, "small.txt", "QI\nZA\nHORN\n")
    controller, terminal = os.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tilebag", "lexicon", "build", str(source), "-o", str(tmp_path / "s.kwg")],
            stdout=subprocess.PIPE,
            stderr=terminal,
            text=True,
            timeout=120,
            check=False,
        )
        os.close(terminal)
        drawn = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # Linux: the terminal side is closed
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(controller)
    assert done.returncode == 0
    # steps are the words, then the GADDAG's entries
    bar = rb"\r\[#+\] +\d+\.\ds compiling " + re.escape(bytes(source)) + rb" (\d+)/\1 100%\r\n$"
    assert re.search(bar, drawn), drawn


def test_lexicon_words_into_a_closed_pipe(tmp_path: Path) -> None:
    graph = tmp_path / "hand.kwg"
    graph.write_bytes(HAND_MADE)
    reader, writer = os.pipe()
    os.close(reader)  # nobody reads: the first write fails
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tilebag", "lexicon", "info", str(graph)],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, "")
