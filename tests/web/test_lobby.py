"""The live lobby in a real Chromium (Debian's ``/usr/bin/chromium``, driven
by Playwright): two people logged in as two accounts, each in a browser of
their own; a game one offers appears in the other's lobby as it is offered,
and a guest's, without an Accept; the other accepts it, and both land on the
game's page with their racks drawn. Then "play the static bot" in one click.
Screenshots are kept in ``test-output/``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the browser tests need the server extra")
pytest.importorskip("playwright.sync_api", reason="the browser tests need the test extra (playwright)")

from browsers import chromium  # noqa: E402
from servers import Server  # noqa: E402
from tilebag.server.accounts import Accounts  # noqa: E402
from tilebag.server.store import Store  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(os.environ.get("TILEBAG_SCREENSHOTS", "test-output"))
LAPTOP = {"width": 1280, "height": 800}
PASSWORD = "correct horse"



def logged_in(browser: Any, web: Server, name: str) -> Any:
    """A browser of its own (a Playwright context), logged in as ``name``: a page of the lobby."""
    context = browser.new_context(viewport=LAPTOP)
    answer = context.request.post(f"{web.url}/api/login", data={"username": name, "password": PASSWORD})
    assert answer.ok, answer.text()
    page = context.new_page()
    page.goto(f"{web.url}/")
    return page


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_seek_made_in_one_browser_is_accepted_in_another_and_both_play(web: Server) -> None:
    accounts = Accounts(Store(f"sqlite:///{web.db}", migrate_schema=False))
    for name in ("Ann", "Ben"):
        accounts.register(name, PASSWORD)
    with chromium() as browser:
        ann, ben = logged_in(browser, web, "Ann"), logged_in(browser, web, "Ben")
        guest = browser.new_context(viewport=LAPTOP).new_page()
        guest.goto(f"{web.url}/")
        for page in (ann, ben, guest):
            page.wait_for_selector("#lobby-status:has-text('live')")
        assert guest.is_visible("#login-hint") and guest.is_hidden("#offer")
        assert ben.is_hidden("#login-hint")

        ann.select_option("#offer-clock", "game")
        ann.fill("#offer-minutes", "10")
        ann.click("#offer button[type=submit]")
        ann.wait_for_selector("#seeks li.yours:has-text('Your seek') button:has-text('Cancel')")
        offered = ben.wait_for_selector("#seeks li:has-text('Ann')")  # live: nobody reloaded
        assert "10 min each" in offered.inner_text() and "casual rapid" in offered.inner_text()
        guest.wait_for_selector("#seeks li:has-text('Ann')")
        assert guest.locator("#seeks button").count() == 0  # a guest sees, and is asked to log in
        shot(ben, "lobby-seek-offered")

        ben.click("#seeks li:has-text('Ann') button:has-text('Accept')")
        for page in (ben, ann):  # the one who accepted goes to the game, and the one who offered is taken there
            page.wait_for_url("**/games/**")
            page.wait_for_selector("#rack .rack-tile")
            assert page.locator("#rack .rack-tile").count() == 7
        assert ann.url == ben.url
        assert ann.inner_text("#players").count("Ann") == 1 and "Ben" in ann.inner_text("#players")
        guest.wait_for_selector("#seeks li:has-text('No games offered yet.')")
        shot(ann, "lobby-game-started-ann")
        shot(ben, "lobby-game-started-ben")

        ann.goto(f"{web.url}/")
        ann.click("#play-bot")  # one click: the account's seat against the static bot
        ann.wait_for_url("**/games/**")
        ann.wait_for_selector("#rack .rack-tile")
        assert "Static bot" in ann.inner_text("#players")


def test_a_click_while_the_lobby_is_still_loading_is_not_lost(web: Server) -> None:
    """The lobby's catalog is held back, as on a slow connection: Play the
    static bot, clicked before it arrives, still makes the game, and a game
    made with the form waits for the catalog instead of reloading the page."""
    with chromium() as browser:
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.add_init_script("localStorage.setItem('tilebag.name', 'Dora')")
        held: list[Any] = []
        holding = [True]
        page.route("**/api/catalog", lambda route: held.append(route) if holding[0] else route.continue_())
        page.goto(f"{web.url}/", wait_until="domcontentloaded")
        page.wait_for_function("() => document.querySelector('#play-bot') !== null")
        page.click("#play-bot")
        holding[0] = False
        page.wait_for_url("**/games/**")
        page.wait_for_selector("#rack .rack-tile")
        assert "Dora" in page.inner_text("#players") and "Static bot" in page.inner_text("#players")
        held.clear()
        holding[0] = True
        page.goto(f"{web.url}/", wait_until="domcontentloaded")
        page.wait_for_function("() => document.querySelector('#create') !== null")
        page.evaluate("document.querySelector('#create').requestSubmit()")
        assert page.url == f"{web.url}/", "the form was sent by the browser before the page could read it"
        assert len(held) == 1 and page.locator("#seats > *").count() == 0
        holding[0] = False
        held[0].continue_()
        page.wait_for_url("**/games/**")  # the form's default, the account-less player against the static bot
        page.wait_for_selector("#rack .rack-tile")
