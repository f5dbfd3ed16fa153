"""``tilebag serve`` as a real process, and an HTTP client of its API: for
the server's tests (``server/``) and the browser game's (``web/``)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("fastapi", reason="the server tests need the server extra")

from services import free_port  # noqa: E402
from tilebag.engine import Engine  # noqa: E402
from tilebag.formats import cgp  # noqa: E402
from tilebag.lexicon import default_lexicon  # noqa: E402

__all__ = ["TEST_TILEBAG", "Server", "act", "best_action", "create", "free_port", "get", "launch", "my_turn", "serving"]


TEST_TILEBAG = (sys.executable, "-m", "tilebag")
"""``tilebag`` as the test environment has it (the play install's is ``play_install.PlayInstall.tilebag``)."""


@dataclass
class Server:
    url: str
    port: int
    db: Path
    process: subprocess.Popen[str]
    program: tuple[str, ...] = TEST_TILEBAG
    env: dict[str, str] | None = None

    def start(self) -> None:
        self.process = launch(self.port, self.db, program=self.program, env=self.env)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


def launch(
    port: int, db: Path | str, *extra: str, program: tuple[str, ...] = TEST_TILEBAG, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """``tilebag serve`` (of ``program``) on ``port`` over the database ``db``, once it answers."""
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    process = subprocess.Popen(
        [*program, "serve", "--port", str(port), "--db", url, "--allow-seeds", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped: {process.stdout.read() if process.stdout else ''}")
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start in 60 s")


@contextlib.contextmanager
def serving(
    db: Path, *extra: str, program: tuple[str, ...] = TEST_TILEBAG, env: dict[str, str] | None = None
) -> Iterator[Server]:
    """``tilebag serve`` (of ``program``) on a free port over the SQLite file ``db``, stopped after."""
    port = free_port()
    server = Server(f"http://127.0.0.1:{port}", port, db, launch(port, db, *extra, program=program, env=env), program, env)
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.terminate()
            try:
                server.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.process.kill()


def create(server: Server, seats: list[dict[str, object]], **extra: object) -> dict[str, object]:
    response = httpx.post(f"{server.url}/api/games", json={"seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def get(server: Server, game: str, token: str | None = None) -> dict[str, object]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.get(f"{server.url}/api/games/{game}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def my_turn(server: Server, game: str, token: str, timeout: float = 30.0) -> dict[str, object]:
    """The seat's view once it is this seat's turn or the game is over (bots move after an action is answered)."""
    deadline = time.monotonic() + timeout
    while True:
        view = get(server, game, token)
        if view["status"] == "over" or view["turn"] == view["you"]:
            return view
        assert time.monotonic() < deadline, f"the seat's turn never came: {view}"
        time.sleep(0.05)


def act(server: Server, game: str, token: str | None, action: object) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{server.url}/api/games/{game}/actions", json={"action": action}, headers=headers)


ENGINE: Engine | None = None


def best_action(view: dict[str, object]) -> str:
    """The static bot's play from what the seat's view shows (the board and its own rack)."""
    global ENGINE
    if ENGINE is None:
        ENGINE = Engine(default_lexicon().kwg)  # type: ignore[attr-defined]
    rack = str(view["rack"])
    position = cgp.parse(f"{view['board']} {rack or ''}/ 0/0 0")
    best = ENGINE.best(position.board, position.rack, bag_count=int(view["bag"]))  # type: ignore[call-overload]
    if best is None or best.move.kind.value == "pass":
        return "-"
    if best.move.kind.value == "exchange":
        return best.move.gcg(position.board.alphabet)
    return position.board.notation(best.move)
