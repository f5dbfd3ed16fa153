"""What a player installs, built afresh for the tests that are about it.

``make install`` (the first half of ``make play``) is run in a copy of this
checkout at a path with spaces, so the virtual environment holds exactly what
a player gets: tilebag with its ``full-screen`` and ``server`` extras and
nothing from the test extras. The browser game is served from it, so a
library that only the tests bring in can never again hide a broken game.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

LEFT_OUT = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "*.so", ".hypothesis", "test-output", ".*_cache"
)
"""What a copy of a working tree leaves out where git cannot say what is ignored."""


@dataclass(frozen=True)
class PlayInstall:
    """A copy of the checkout and the virtual environment ``make install`` made in it."""

    folder: Path
    """The copy, at a path with spaces."""

    @property
    def tilebag(self) -> Path:
        """The ``tilebag`` command a player runs: ``.venv/bin/tilebag``."""
        return self.folder / ".venv" / "bin" / "tilebag"

    @property
    def python(self) -> Path:
        return self.folder / ".venv" / "bin" / "python"

    def env(self) -> dict[str, str]:
        """This environment without what would let the test's own packages in."""
        return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}


def copy_checkout(folder: Path) -> None:
    """The working tree as it is (uncommitted changes included) into ``folder``,
    without virtual environments, builds or caches."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0 or shutil.which("git") is None:
        shutil.copytree(ROOT, folder, ignore=LEFT_OUT)
        return
    for name in listed.stdout.decode().split("\0"):
        source = ROOT / name
        if name and source.is_file():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def build_once(parent: Path) -> PlayInstall:
    """:func:`build` under ``parent`` unless a process of this test run built it there already
    (it waits while another builds)."""
    import fcntl

    parent.mkdir(parents=True, exist_ok=True)
    with open(parent / "building.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        install = PlayInstall(parent / "a clone with spaces" / "tilebag")
        if (install.folder / ".venv" / ".installed").exists():
            return install
        return build(parent)


def build(parent: Path) -> PlayInstall:
    """``make install`` in a fresh copy of the checkout under ``parent``.

    Fails the test (it does not skip) when the install fails: a player would be
    left without a game.
    """
    if shutil.which("make") is None:
        pytest.skip("make is not installed: the play install is the Makefile's")
    install = PlayInstall(parent / "a clone with spaces" / "tilebag")
    shutil.rmtree(install.folder, ignore_errors=True)  # what a build that failed half way left
    copy_checkout(install.folder)
    done = subprocess.run(
        ["make", "-C", str(install.folder), "install"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=install.env(),
    )
    if done.returncode != 0:
        pytest.fail(f"make install failed in a fresh copy:\n{done.stdout}\n{done.stderr}")
    return install
