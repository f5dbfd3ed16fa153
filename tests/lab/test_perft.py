"""``tilebag bench perft``: the move generator against the brute-force
enumerator of :mod:`tilebag.lab.perft` (``make test`` runs the long runs;
``engine/test_movegen.py`` a few positions in-process)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import tilebag.lab.perft as perft
from running import interrupted_under_way
from tilebag.engine.movegen.generator import native_available
from tilebag.ui.cli import main


def test_bench_perft_checks_a_few_positions_and_exits_0() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tilebag", "bench", "perft", "--positions", "3"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("perft: 3 positions (seed 1) of the sample lexicon")
    assert "every one listed by every core" in done.stdout


def test_a_mismatch_is_printed_with_the_rack_the_board_and_the_plays_and_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An enumerator that loses one play of each position: every core lists it, so it is extra."""
    enumerate_all = perft.brute_force

    def one_play_short(*args: object) -> dict[perft.PlayKey, perft.Move]:
        found = enumerate_all(*args)  # type: ignore[arg-type]
        del found[min(found)]
        return found

    monkeypatch.setattr(perft, "brute_force", one_play_short)
    assert main(["bench", "perft", "--positions", "2"]) == 1
    out = capsys.readouterr().out
    assert out.count("position 0, python core: rack ") == 1 and "position 1, python core" in out
    assert "extra (1): " in out and "missing" not in out and "listed twice" not in out
    assert "A B C D E F G H I J K L M N O" in out and "CGP: 15/15/" in out  # the board, drawn and as a record
    cores = 2 if native_available() else 1
    assert f"{2 * cores} mismatches with the enumerator" in out.splitlines()[-1]


@pytest.mark.slow
def test_ctrl_c_stops_and_reports_the_positions_checked() -> None:
    returncode, out, err = interrupted_under_way("bench", "perft", "--positions", "100000")
    assert returncode == 130, err
    assert "stopped early" in out and "Traceback" not in err
    assert int(out.split()[1]) > 0  # "perft: N positions ..."
