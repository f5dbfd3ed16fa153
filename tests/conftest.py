"""Shared test fixtures.

The real game records live in ``shared/data`` beside the checkout (CI has
it; a fresh clone does not). Tests that need it skip, saying why, when it is
absent. Set ``TILEBAG_SHARED_DATA`` to point elsewhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
"""The tests' folder: the helpers every test imports (``gamestate``, ``services``...)
and ``data``. The tests themselves are in a folder for each package
(``core``, ``engine``, ``formats``, ``ui``, ``server``, ``lab``); pytest's
default import mode puts this folder on ``sys.path`` when it loads this file."""
ROOT = TESTS.parent
"""The checkout."""
DATA = TESTS / "data"
"""The tests' own data files, in every clone."""
SHARED_DATA = Path(os.environ.get("TILEBAG_SHARED_DATA", ROOT.parent / "shared" / "data"))


def shared_data_path() -> Path:
    """The shared data folder, or skip the test when it is not there."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared game records not found at {SHARED_DATA} (set TILEBAG_SHARED_DATA)")
    return SHARED_DATA


@pytest.fixture
def shared_data() -> Path:
    return shared_data_path()


def shared_gcg_files() -> list[Path]:
    """The shared real-game records (empty when the folder is absent)."""
    folder = SHARED_DATA / "gcg"
    return sorted(folder.glob("*.gcg")) if folder.is_dir() else []


OWN_RECORDS = DATA / "records"
"""The project's own game records (see the README there): in every clone."""


def own_gcg_files() -> list[Path]:
    """The project's own records."""
    return sorted(OWN_RECORDS.glob("*.gcg"))


@pytest.fixture(scope="session")
def play_install(tmp_path_factory: pytest.TempPathFactory) -> object:
    """The virtual environment ``make install`` makes, built once a run in a
    fresh copy of the checkout (see ``play_install.py``): with parallel
    workers (pytest-xdist), the first builds it and the others wait for it."""
    from play_install import build_once

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the folder every worker's own folder is in
    return build_once(shared / "play install")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[object]:
    """``tilebag serve`` as a real process (from the test environment) on a
    free port over a fresh SQLite file: the server's tests."""
    from servers import serving

    with serving(tmp_path / "games.db") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium, driven by Playwright (the browser tests skip without it)."""
    from browsers import chromium

    with chromium() as launched:
        yield launched


@pytest.fixture
def web(tmp_path: Path, play_install: object) -> Iterator[object]:
    """``.venv/bin/tilebag serve`` of the play install (what ``make play``
    installs, not the test environment), on a free port: the browser tests."""
    from play_install import PlayInstall
    from servers import serving

    assert isinstance(play_install, PlayInstall)
    with serving(tmp_path / "games.db", program=(str(play_install.tilebag),), env=play_install.env()) as running:
        yield running
