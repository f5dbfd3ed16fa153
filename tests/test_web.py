"""The browser client in a real Chromium (Debian's ``/usr/bin/chromium``,
driven by Playwright): a game made in the lobby and played against a bot
by clicking and typing, and an illegal play refused in place."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

pytest.importorskip("fastapi", reason="the browser tests need the server extra")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the test extra (playwright)")

from test_server import Server, best_action, free_port, get, launch  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(os.environ.get("TILEBAG_SCREENSHOTS", "test-output"))


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here: Debian's chromium package gives /usr/bin/chromium (.ci/run installs it as root)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Server]:
    port = free_port()
    db = tmp_path / "games.db"
    server = Server(f"http://127.0.0.1:{port}", port, db, launch(port, db))
    yield server
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()


def shot(page: sync_api.Page, name: str) -> None:
    """A screenshot in the test output, to look at when a test fails."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def type_play(page: sync_api.Page, action: str) -> None:
    """Click the play's first square (twice for a play down) and type its tiles."""
    where, word = action.split(" ")
    across = where[0].isdigit()
    square = f"{where[-1]}{where[:-1]}" if across else where
    page.click(f'[data-square="{square}"]')
    if not across:
        page.click(f'[data-square="{square}"]')
    for letter in word:
        if letter != ".":
            page.keyboard.press(letter.upper())


def game_of(page: sync_api.Page) -> tuple[str, str]:
    url = urlparse(page.url)
    return url.path.rsplit("/", 1)[-1], parse_qs(url.query)["token"][0]


def test_a_game_made_in_the_lobby_is_played_against_a_bot_by_typing(web: Server, browser: sync_api.Browser) -> None:
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(web.url + "/")
    page.fill(".seat-name", "Ann")
    page.click("text=Create the game")
    page.click("text=Play as Ann")
    page.wait_for_selector("#rack .rack-tile")
    assert page.locator("#board [data-square]").count() == 225
    assert page.get_attribute('[data-square="A1"]', "aria-label") == "A1, triple word, empty"
    assert page.get_attribute('[data-square="D1"]', "aria-label") == "D1, double letter, empty"
    assert page.get_attribute('[data-square="F2"]', "aria-label") == "F2, triple letter, empty"
    game, token = game_of(page)
    for turn in range(3):
        view = get(web, game, token)
        action = best_action(view)
        if action == "-":
            page.click("#pass")
        elif action.startswith("-"):  # an exchange: the tiles chosen on the rack
            page.click("#exchange")
            for letter in action[1:]:
                page.locator("#rack .rack-tile:not(.chosen)", has_text=letter.replace("?", " ")).first.click()
            page.click("#exchange")
        else:
            type_play(page, action)
            page.wait_for_function("document.getElementById('preview').textContent.includes('points')")
            page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelectorAll('#log li').length >= {2 * turn + 2}")  # mine, then the bot's
        assert page.inner_text("#error") == ""
    shot(page, "game-against-a-bot")
    assert get(web, game, token)["events"]


def test_an_illegal_play_shows_the_servers_reason_and_changes_nothing(web: Server, browser: sync_api.Browser) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})  # a phone
    page.goto(web.url + "/")
    page.fill(".seat-name", "Ann")
    page.click("text=Create the game")
    page.click("text=Play as Ann")
    page.wait_for_selector("#rack .rack-tile")
    game, token = game_of(page)
    before = get(web, game, token)
    rack = str(before["rack"]).replace("?", "")
    type_play(page, f"1A {rack[:2]}")  # a first play away from the centre square
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('error').textContent.length > 0")
    assert "start square" in page.inner_text("#error")  # the server's reason, shown in place
    shot(page, "illegal-play-on-a-phone")
    assert get(web, game, token) == before
    assert page.locator("#board .pending").count() == 2  # the tiles stay where the player put them
