"""The README's test command (``make test``, the whole suite) and the fast
tier (``make check``): every check runs even when one fails, and skipped
tests say why."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

FAKE_PYTHON = """#!/bin/sh
echo "$*" >> "{log}"
case "$2" in {failing}) exit 1;; esac
exit 0
"""


def run_make(target: str, tmp_path: Path, failing: str = "pytest") -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """``make TARGET`` with a stand-in virtual environment whose ``failing``
    tool (pytest unless told) fails; what it ran, one call a line (the
    arguments given to python)."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "calls.log"
    python = venv / "bin" / "python"
    python.write_text(FAKE_PYTHON.format(log=log, failing=failing))
    python.chmod(0o755)
    for stamp in (".installed", ".installed-test"):
        (venv / stamp).touch()
    done = subprocess.run(
        ["make", "-s", "-C", str(ROOT), target, f"VENV={venv}"], capture_output=True, text=True, timeout=60, check=False
    )
    return done, log.read_text().splitlines()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_test_runs_every_check_and_fails_when_one_fails(tmp_path: Path) -> None:
    """The whole suite, mypy, ruff and perft on the sample and on the full lexicon: all run when pytest fails."""
    done, calls = run_make("test", tmp_path)
    assert done.returncode != 0, done.stdout
    # mypy and perft run beside the tests, in this order; the tests, then ruff
    beside = [call for call in calls if call.split()[1] in ("mypy", "tilebag")]
    assert beside == ["-m mypy", "-m tilebag bench perft --positions 300 --seed 7",
                      "-m tilebag bench perft --full --positions 4 --seed 11"]
    assert [call for call in calls if call not in beside] == [
        "-m pytest -n 3 --dist worksteal --durations=15", "-m ruff check src tests"]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_test_fails_when_a_check_beside_the_tests_fails(tmp_path: Path) -> None:
    done, calls = run_make("test", tmp_path, failing="mypy")
    assert done.returncode != 0 and len(calls) == 5, (done.stdout, calls)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_check_runs_the_fast_tier_then_ruff_even_when_a_test_fails(tmp_path: Path) -> None:
    done, calls = run_make("check", tmp_path)
    assert done.returncode != 0, done.stdout
    assert calls == ["-m pytest -n 2 -q -m not slow and not service and not browser", "-m ruff check src tests"]


def test_skipped_tests_say_why(tmp_path: Path) -> None:
    env = {**os.environ, "TILEBAG_SHARED_DATA": str(tmp_path / "absent")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", str(ROOT / "tests" / "formats" / "test_check.py"), "-k", "shared"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stdout
    assert "SKIPPED" in done.stdout and "shared game records not found" in done.stdout
