"""The account pages in Chromium, on the server ``make play`` installs: make
an account, log out and in, play a game whose seat the account holds without
any link token, see it under "Your games", make and revoke an API token, and
a player's page."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the browser tests need the server extra")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the test extra (playwright)")
httpx = pytest.importorskip("httpx", reason="the browser tests need the test extra (httpx)")

from servers import Server, best_action  # noqa: E402

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}




def register(page: Any, web: Server, name: str, password: str = "correct horse") -> None:
    page.goto(f"{web.url}/login?next=/account")
    page.fill("#register-name", name)
    page.fill("#register-password", password)
    page.click("text=Make the account")
    page.wait_for_url("**/account")
    page.wait_for_selector(f"#nav-profile:has-text('{name}')")


def test_an_account_is_made_logged_out_and_in_again(web: Server, browser: Any) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    register(page, web, "Ann")
    assert "No games yet" in page.wait_for_selector("#my-games li").inner_text()
    page.click("#logout")
    page.wait_for_url(f"{web.url}/")
    assert page.request.get(f"{web.url}/api/me").status == 401
    page.goto(f"{web.url}/login?next=/account")
    page.fill("#login-name", "ann")
    page.fill("#login-password", "wrong password")
    page.click("#login button[type=submit]")
    assert "do not match" in page.wait_for_selector("#login-error:not(:empty)").inner_text()
    page.fill("#login-password", "correct horse")
    page.click("#login button[type=submit]")
    page.wait_for_selector("#nav-profile:has-text('Ann')")
    # the session cookie is out of the page's scripts' reach
    assert "tilebag_session" not in page.evaluate("document.cookie")


def test_the_accounts_seat_opens_without_a_link_and_is_listed(web: Server, browser: Any) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    register(page, web, "Ben")
    page.goto(f"{web.url}/")  # the lobby's new game: the first seat is "you (Ben)", the second a bot
    assert page.wait_for_selector("#seats li .seat-kind").input_value() == "me"
    page.click("text=Create the game")
    page.wait_for_url("**/games/*?token=*")
    game = page.url.split("/games/", 1)[1].split("?", 1)[0]
    page.goto(f"{web.url}/games/{game}")  # no ?token=: the session is the credential
    page.wait_for_selector("#rack .rack-tile")
    assert page.locator(".player.you").count() == 1
    page.goto(f"{web.url}/account")
    link = page.wait_for_selector(f"#my-games a[href='/games/{game}']")
    assert "Static bot" in link.inner_text()
    # an API token, shown once, listed by its name, revoked
    page.fill("#token-name", "my bot")
    page.click("text=Make a token")
    token = page.wait_for_selector("#token-value").input_value()
    assert token.startswith("tbu_")
    page.wait_for_selector("#tokens li:has-text('my bot')")
    assert token not in page.inner_text("#tokens")
    page.click("#tokens button:has-text('Revoke')")
    page.wait_for_selector("#tokens li", state="detached")
    assert context.request.get(f"{web.url}/api/me", headers={"Authorization": f"Bearer {token}"}).status == 401


def test_a_players_page_for_an_unknown_name_says_so(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{web.url}/users/nobody_here")
    assert "No such player" in page.wait_for_selector("#profile-error:not(:empty)").inner_text()


def test_a_players_page_after_a_rated_game(web: Server, browser: Any) -> None:
    """Two accounts play a rated game offered in the lobby (one move, then a
    resignation); each one's page shows the rating, its chart, the game and its
    link, the totals and the archive, and another player's page offers Block."""
    players = {}
    for name in ("Ann", "Ben"):
        client = httpx.Client(base_url=web.url)
        made = client.post("/api/account", json={"username": name, "password": "correct horse"})
        assert made.status_code == 201, made.text
        players[name] = (client, {"X-CSRF-Token": made.json()["csrf"]})
    ann, ann_csrf = players["Ann"]
    ben, ben_csrf = players["Ben"]
    seek = ann.post("/api/seeks", json={"seats": 2, "rules": "standard", "rated": True}, headers=ann_csrf).json()["id"]
    started = ben.post(f"/api/seeks/{seek}/accept", headers=ben_csrf).json()
    game = started["game"]
    view = ann.get(f"/api/games/{game}").json()
    mover, other = (players["Ann"], players["Ben"]) if view["turn"] == view["you"] else (players["Ben"], players["Ann"])
    played = mover[0].post(f"/api/games/{game}/actions", json={"action": best_action(mover[0].get(f"/api/games/{game}").json())},
                           headers=mover[1])
    assert played.status_code == 200, played.text
    assert other[0].post(f"/api/games/{game}/actions", json={"action": "resign"}, headers=other[1]).status_code == 200
    deadline = time.monotonic() + 20  # the result is applied on the server's own thread
    while not ann.get("/api/users/Ann").json()["ratings"] and time.monotonic() < deadline:
        time.sleep(0.2)

    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{web.url}/login?next=/users/Ann")
    page.fill("#login-name", "Ann")
    page.fill("#login-password", "correct horse")
    page.click("#login button[type=submit]")
    page.wait_for_url("**/users/Ann")
    ratings = page.wait_for_selector("#ratings tr:has-text('rapid')").inner_text()
    assert "?" in ratings, "provisional after one game"
    assert page.locator("#history svg polyline").count() == 1
    row = page.wait_for_selector(f"#games tr:has(a[href='/games/{game}'])").inner_text()
    assert "Ben" in row and ("win" in row or "loss" in row)
    assert page.inner_text("#totals").split()[:2] == ["games", "1"]
    assert page.get_attribute("#archive", "href") == "/api/users/Ann/games.gcg"
    assert not page.is_visible("#player-actions"), "no Block or Report on your own page"
    page.goto(f"{web.url}/users/ben")
    page.wait_for_selector("#player-actions:not([hidden])")
    page.click("#block")
    assert "blocked" in page.wait_for_selector("#player-said:not(:empty)").inner_text()
    assert ann.get("/api/blocks").json() == ["Ben"]
