"""Fuzzing the other readers of outside input: CGP positions, word lists and
leave files, mutated by the seeded operators of ``mutate.py``.

Whatever a mutant holds, the reader raises only :class:`~tilebag.FormatError`
(:class:`~tilebag.formats.cgp.CgpError` is one), what it accepts works (a position
writes back to itself and has its plays generated, a word list compiles, a
leave table answers), and the commands exit 0 or 2 without a traceback. A
failure names its seed.
"""

from __future__ import annotations

import contextlib
import importlib.resources
import io
import subprocess
import sys
from pathlib import Path

import pytest

from mutate import hang_guard, mutant
from tilebag import FormatError
from tilebag.alphabet import load_alphabet
from tilebag.engine.equity.leaves import DEFAULT_LEAVES, HeuristicLeaves, dumps_klv2, load_leaves
from tilebag.engine.movegen.generator import MoveGenerator
from tilebag.formats import cgp
from tilebag.lab.bench import bag_count
from tilebag.lexicon import checked_words, compile_words, default_lexicon
from tilebag.ui.cli import main

ENGLISH = load_alphabet("english")
EMPTY = "/".join(["15"] * 15)


def positions() -> list[bytes]:
    suite = importlib.resources.files("tilebag") / "data" / "bench" / "movegen.cgp"
    lines = [line for line in suite.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    extra = [
        f"{EMPTY} AELNOQT/ 0/0 0 lex NWL18; lm -2;",
        "15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 ADEEGIL/ 0/32 0 lex kjxqz; cr double; bb 50; tmr 1000/-20;",
        "15/15/15/15/15/15/15/4[CH]U[RR]O7/15/15/15/15/15/15/15 AEIOUS/BCD 120/98 0 ld spanish;",
        f"{EMPTY} AB/CD/EF 10/0/0 3 lex kjxqz; bdn CrosswordGame; gid x; oru;",
    ]
    return [line.encode() for line in lines + extra]


def word_list() -> bytes:
    words = (importlib.resources.files("kjxqz") / "words.txt").read_text(encoding="utf-8").split()
    return "\n".join(words[:: len(words) // 300][:300]).encode()


def leave_files() -> list[tuple[str, bytes]]:
    heuristic = HeuristicLeaves(ENGLISH)
    table = {key: heuristic.value(key) for key in (b"\x00", b"\x13", b"\x00\x13", b"\x05\x12\x13", b"\x11", b"\x11\x15")}
    text = "".join(f"{ENGLISH.format_rack(key)} {value!r}\n" for key, value in table.items())
    klv2 = dumps_klv2(table)
    count = int.from_bytes(klv2[:4], "little")
    values_at = 4 + 4 * count + 4
    klv1 = klv2[:values_at] + b"".join(int(v * 256).to_bytes(2, "little", signed=True) for v in table.values())
    return [("leaves.txt", text.encode()), ("leaves.klv2", klv2), ("leaves.klv", klv1)]


# -- positions -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generator() -> MoveGenerator:
    return MoveGenerator(default_lexicon().kwg)


@pytest.mark.parametrize("block", range(4))
def test_mutated_positions_parse_or_fail_cleanly(block: int, generator: MoveGenerator) -> None:
    corpus = positions()
    leaves = load_leaves(DEFAULT_LEAVES, ENGLISH)
    for seed in range(block, 400, 4):
        text = mutant(corpus[seed % len(corpus)], seed).decode("utf-8", "replace")
        with hang_guard(seed):
            try:
                position = cgp.parse(text)
            except FormatError:
                continue
            except Exception as err:  # pragma: no cover - the failure being looked for
                raise AssertionError(f"seed {seed}: {type(err).__name__}: {err}") from err
            again = cgp.dumps(position)
            assert cgp.dumps(cgp.parse(again)) == again, f"seed {seed}"
            if position.alphabet is ENGLISH and position.board.layout.name == "standard" and len(position.rack) <= 7:
                generator.generate(position.board, position.rack, leaves=leaves, bag_count=bag_count(position), top=3)


def test_mutated_positions_through_the_command() -> None:
    corpus = positions()
    lines = [mutant(corpus[seed % len(corpus)], seed).replace(b"\n", b" ") for seed in range(1000, 1150)]
    done = subprocess.run(
        [sys.executable, "-m", "tilebag", "moves", "--cgp", "-", "--top", "2", "--lexicon", "kjxqz"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 2), done.stderr[-2000:]
    assert b"Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stdout  # the mutants that are still positions were answered


# -- word lists --------------------------------------------------------------------------------


def test_mutated_word_lists_read_or_fail_cleanly(tmp_path: Path) -> None:
    base = word_list()
    for seed in range(150):
        data = mutant(base, seed)
        with hang_guard(seed):
            try:
                words = checked_words(data.decode("utf-8", "replace").splitlines(), source="w.txt", alphabet=ENGLISH)
            except FormatError:
                continue
            except Exception as err:  # pragma: no cover
                raise AssertionError(f"seed {seed}: {type(err).__name__}: {err}") from err
            assert compile_words(words, ENGLISH).count_words() == len({w.upper() for w in words}), f"seed {seed}"


def test_mutated_word_lists_through_the_command(tmp_path: Path) -> None:
    base = word_list()
    source, target = tmp_path / "w.txt", tmp_path / "w.kwg"
    for seed in range(2000, 2040):
        source.write_bytes(mutant(base, seed))
        out, err = io.StringIO(), io.StringIO()
        with hang_guard(seed), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["lexicon", "build", str(source), "-o", str(target)])
        assert status in (0, 2), f"seed {seed}: exit {status}"
        assert "Traceback" not in err.getvalue(), f"seed {seed}"


# -- leave files -------------------------------------------------------------------------------


def test_mutated_leave_files_load_or_fail_cleanly(tmp_path: Path) -> None:
    files = leave_files()
    probes = [ENGLISH.parse_rack(r) for r in ("?", "S", "?S", "ERS", "Q", "QU", "AEINRST", "")]
    for seed in range(300):
        name, base = files[seed % len(files)]
        path = tmp_path / name
        path.write_bytes(mutant(base, seed))
        with hang_guard(seed):
            try:
                leaves = load_leaves(path, ENGLISH)
            except FormatError:
                continue
            except Exception as err:  # pragma: no cover
                raise AssertionError(f"seed {seed} ({name}): {type(err).__name__}: {err}") from err
            for probe in probes:
                leaves.value(probe)


def test_mutated_leave_files_through_the_command(tmp_path: Path) -> None:
    files = leave_files()
    for seed in range(3000, 3030):
        name, base = files[seed % len(files)]
        path = tmp_path / name
        path.write_bytes(mutant(base, seed))
        out, err = io.StringIO(), io.StringIO()
        with hang_guard(seed), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["moves", "--cgp", f"{EMPTY} AEINRST/ 0/0 0", "--top", "1", "--leaves", str(path)])
        assert status in (0, 2), f"seed {seed}: exit {status}"
        assert "Traceback" not in err.getvalue(), f"seed {seed}"
