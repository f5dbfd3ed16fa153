"""What the browser tests share: one Chromium for a module, and ``tilebag
serve`` as a player has it (from what ``make play`` installs, not from the
test environment), on a free port over a fresh database."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from play_install import PlayInstall
    from servers import Server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright (the test files skip without it)."""
    from browsers import chromium

    with chromium() as launched:
        yield launched


@pytest.fixture
def web(tmp_path: Path, play_install: PlayInstall) -> Iterator[Server]:
    """``.venv/bin/tilebag serve`` of the play install, on a free port."""
    from servers import Server, free_port, launch

    port = free_port()
    db = tmp_path / "games.db"
    program, env = (str(play_install.tilebag),), play_install.env()
    server = Server(f"http://127.0.0.1:{port}", port, db, launch(port, db, program=program, env=env), program, env)
    yield server
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()
