"""Fuzzing the game-record reader and checker with mutated real records.

Every record in ``tests/data/records`` (and the real tournament records in
``../shared/data/gcg`` when they are there) is mutated by seeded operators
(``mutate.py``). Whatever comes out, reading it raises only
:class:`~tilebag.FormatError`, a record that reads is checked without any
exception and writes a record that reads back to the same text, and the command
exits 0, 1 or 2 with no traceback. A failure names its seed: the mutant is
``mutant(corpus[seed % len(corpus)], seed)``.

``PYTHONPATH=tests python tests/formats/test_fuzz_records.py N`` runs N cases through the library
(and every tenth through the command in-process), for longer runs.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import OWN_RECORDS, shared_gcg_files
from mutate import hang_guard, mutant
from tilebag import FormatError
from tilebag.formats import gcg, replay
from tilebag.ui.cli import main

CASES = 300
"""Mutants per run of the suite: a few seconds."""
COMMAND_CASES = 60


def corpus() -> list[bytes]:
    files = sorted(OWN_RECORDS.glob("*.gcg")) + shared_gcg_files()
    return [path.read_bytes() for path in files]


def check_library(data: bytes, path: Path, seed: int) -> None:
    """Read, check and write back one mutant; only FormatError may escape the reader."""
    path.write_bytes(data)
    try:
        record = gcg.load(path)
    except FormatError:
        return
    except Exception as err:  # pragma: no cover - the failure being looked for
        raise AssertionError(f"seed {seed}: gcg.load raised {type(err).__name__}: {err}") from err
    try:
        replay.check(record, source=str(path))
        text = gcg.dumps(record)
        again = gcg.dumps(gcg.loads(text))
    except Exception as err:  # pragma: no cover
        raise AssertionError(f"seed {seed}: {type(err).__name__} after reading: {err}") from err
    assert again == text, f"seed {seed}: the record written back reads differently"


def check_command(data: bytes, path: Path, seed: int) -> None:
    """``tilebag gcg check`` on one mutant, in this process: exit 0/1/2, no exception."""
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["gcg", "check", str(path)])
    except SystemExit as exit_:  # argparse
        status = int(exit_.code or 0)
    except Exception as error:  # pragma: no cover
        raise AssertionError(f"seed {seed}: the command raised {type(error).__name__}: {error}") from error
    assert status in (0, 1, 2), f"seed {seed}: exit {status}"
    assert "Traceback" not in err.getvalue(), f"seed {seed}: {err.getvalue()}"


@pytest.fixture(scope="module")
def records() -> list[bytes]:
    return corpus()


@pytest.mark.parametrize("block", range(10))
def test_mutated_records_read_check_and_write_back(records: list[bytes], block: int, tmp_path: Path) -> None:
    for seed in range(block, CASES, 10):
        with hang_guard(seed):
            check_library(mutant(records[seed % len(records)], seed), tmp_path / "fuzz.gcg", seed)


def test_mutated_records_through_the_command(records: list[bytes], tmp_path: Path) -> None:
    for seed in range(10_000, 10_000 + COMMAND_CASES):
        with hang_guard(seed):
            check_command(mutant(records[seed % len(records)], seed), tmp_path / "fuzz.gcg", seed)


def test_the_corpus_holds_every_layout_tilebag_reads(records: list[bytes]) -> None:
    assert len(records) >= 13
    assert any(b"#action" in r for r in records) and any(b"#anagram" in r for r in records)
    assert any(b"NoName" in r for r in records) and any(b"#incomplete" in r for r in records)


if __name__ == "__main__":  # pragma: no cover - longer runs by hand
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    data = corpus()
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "fuzz.gcg"
        for seed in range(total):
            with hang_guard(seed):
                check_library(mutant(data[seed % len(data)], seed), target, seed)
                if seed % 10 == 0:
                    check_command(mutant(data[seed % len(data)], seed), target, seed)
            if seed % 500 == 499:
                print(f"{seed + 1} cases", file=sys.stderr)
    print(f"{total} mutated records: no exception but FormatError, exit codes 0/1/2 only")
