"""The ``tilebag`` command, run as a real process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def tilebag(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tilebag", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


GOOD = "#player1 a Alice\n#player2 b Bob\n>a: HNOR 8F HORN +14 14\n>b: AFM H6 FA.M +9 9\n"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


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
    assert "unknown tile set 'klingon'" in done.stderr


@pytest.mark.parametrize(("words", "status"), [(["QI", "za"], 0), (["QI", "QX"], 1)])
def test_word_judge(words: list[str], status: int) -> None:
    done = tilebag("word", *words)
    assert done.returncode == status
    assert f"{words[-1].upper()}: {'acceptable' if status == 0 else 'not acceptable'} in kjxqz" in done.stdout
