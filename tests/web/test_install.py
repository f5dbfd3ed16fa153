"""The browser game on exactly what a player installs.

``make install`` (what ``make play`` installs first) is run afresh in a copy of
the checkout at a path with spaces; ``tilebag serve`` is started from that
environment, a game's WebSocket is opened by this test's own client (not one
from that environment), and the seat's page is loaded in Chromium until the
board and the rack are drawn. A library that only the test extras bring in
once hid a game page that could never connect: this is the test that sees it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="the install test needs the test extra (httpx)")
ws_client = pytest.importorskip("websockets.sync.client", reason="the install test needs the test extra (websockets)")

from browsers import chromium  # noqa: E402
from play_install import PlayInstall  # noqa: E402
from servers import Server, free_port  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.browser]
"""Builds a virtual environment (a minute, once per run) and drives Chromium."""

TEST_TOOLS = ("pytest", "playwright", "httpx", "hypothesis", "mypy", "ruff")



def test_the_play_install_holds_no_test_tools(play_install: PlayInstall) -> None:
    """What is tested here is what a player has: nothing the test extras bring."""
    listed = subprocess.run(
        [str(play_install.python), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
        env=play_install.env(),
    )
    names = {package["name"].lower() for package in json.loads(listed.stdout)}
    assert "tilebag" in names and "uvicorn" in names
    assert not names & set(TEST_TOOLS), names & set(TEST_TOOLS)


def test_the_play_install_serves_the_browser_game(web: Server) -> None:
    made = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "Ann"}, {"bot": "static"}]}).json()
    game, seat = made["id"], made["seats"][0]
    # the WebSocket handshake, from a client that is not the server's own library
    with ws_client.connect(f"ws://127.0.0.1:{web.port}/api/games/{game}/ws?token={seat['token']}", open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
    assert hello["type"] == "hello" and hello["view"]["you"] == 0 and len(hello["view"]["rack"]) == 7
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(seat["url"])
        page.wait_for_selector("#rack .rack-tile")
        page.wait_for_function("document.getElementById('connection').textContent === 'live'", timeout=10_000)
        assert page.locator("#board [data-square]").count() == 225
        assert page.locator("#rack .rack-tile").count() == 7
        box = page.locator("#play").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 800, box  # Play on screen, without scrolling
        # a link to a game that does not exist says so, and leads back to the lobby
        missing = page.goto(f"{web.url}/games/no-such-game")
        assert missing is not None and missing.status == 404
        assert "no such game" in page.inner_text("main").lower()
        page.click("text=lobby")
        page.wait_for_url(f"{web.url}/")


def test_serve_refuses_to_start_without_a_websocket_library(tmp_path: Path) -> None:
    """Without ``websockets`` or ``wsproto`` the pages could never connect: exit 2, one line saying why."""
    hidden = (
        "import importlib.abc, sys\n"
        "class Hide(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.partition('.')[0] in ('websockets', 'wsproto'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Hide())\n"
        "from tilebag.ui.cli import main\n"
        f"sys.exit(main(['serve', '--port', '{free_port()}', '--db', 'sqlite:///{tmp_path / 'games.db'}']))\n"
    )
    done = subprocess.run([sys.executable, "-c", hidden], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "WebSocket" in done.stderr, done.stderr
    assert not (tmp_path / "games.db").exists()  # refused before anything was made
