"""The README's test command: every check runs even when one fails, and
skipped tests say why."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FAKE_PYTHON = """#!/bin/sh
echo "$*" >> "{log}"
case "$2" in pytest) exit 1;; esac
exit 0
"""


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_test_runs_every_check_and_fails_when_one_fails(tmp_path: Path) -> None:
    """A stand-in virtual environment whose pytest fails: mypy and ruff still run."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "calls.log"
    python = venv / "bin" / "python"
    python.write_text(FAKE_PYTHON.format(log=log))
    python.chmod(0o755)
    for stamp in (".installed", ".installed-test"):
        (venv / stamp).touch()
    done = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "test", f"VENV={venv}"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode != 0, done.stdout
    calls = log.read_text().splitlines()
    assert [call.split()[1] for call in calls] == ["pytest", "mypy", "ruff"]


def test_skipped_tests_say_why(tmp_path: Path) -> None:
    env = {**os.environ, "TILEBAG_SHARED_DATA": str(tmp_path / "absent")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", str(ROOT / "tests" / "test_check.py"), "-k", "shared"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stdout
    assert "SKIPPED" in done.stdout and "shared game records not found" in done.stdout
