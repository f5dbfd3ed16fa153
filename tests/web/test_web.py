"""The browser client in a real Chromium (Debian's ``/usr/bin/chromium``,
driven by Playwright): a game made in the lobby and played against a bot
by clicking and typing, and an illegal play refused in place."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

pytest.importorskip("fastapi", reason="the browser tests need the server extra")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the test extra (playwright)")

from browsers import chromium  # noqa: E402
from play_install import PlayInstall  # noqa: E402
from servers import Server, best_action, free_port, get, launch  # noqa: E402

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("TILEBAG_SCREENSHOTS", "test-output"))


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def web(tmp_path: Path, play_install: PlayInstall) -> Iterator[Server]:
    """``tilebag serve`` as a player has it: from what ``make play`` installs."""
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
        play_turn(page, web, game, token)  # typed, or an exchange chosen on the rack
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
    tiles = page.locator("#rack .rack-tile")
    first = tiles.nth(0).inner_text()
    tiles.nth(0).drag_to(tiles.nth(3))  # the rack reordered by dragging
    assert page.locator("#rack .rack-tile").nth(3).inner_text() == first
    rack = str(before["rack"]).replace("?", "")
    type_play(page, f"1A {rack[:2]}")  # a first play away from the centre square
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('error').textContent.length > 0")
    assert "start square" in page.inner_text("#error")  # the server's reason, shown in place
    shot(page, "illegal-play-on-a-phone")
    assert get(web, game, token) == before
    assert page.locator("#board .pending").count() == 2  # the tiles stay where the player put them


def play_turn(page: sync_api.Page, web: Server, game: str, token: str) -> None:
    """The seat's turn played on its page: the static bot's choice, typed or clicked."""
    view = get(web, game, token)
    if view["status"] == "final-challenge":
        page.click("#accept")
        return
    action = best_action(view)
    if action == "-":
        page.click("#pass")
    elif action.startswith("-"):
        page.click("#exchange")
        for letter in action[1:]:
            page.locator("#rack .rack-tile:not(.chosen)", has_text=letter.replace("?", " ")).first.click()
        page.click("#exchange")
    else:
        type_play(page, action)
        page.keyboard.press("Enter")


def test_two_people_play_a_short_game_in_two_browsers_while_a_third_watches(web: Server, browser: sync_api.Browser) -> None:
    made = httpx.post(f"{web.url}/api/games", json={
        "seats": [{"name": "ann"}, {"name": "ben"}], "options": {"finish-target": "60"}, "seed": 21}).json()
    game = made["id"]
    tokens = [seat["token"] for seat in made["seats"]]
    pages = []
    for token in tokens:
        page = browser.new_context(viewport={"width": 1024, "height": 900}).new_page()
        page.goto(f"{web.url}/games/{game}?token={token}")
        page.wait_for_selector("#rack .rack-tile")
        pages.append(page)
    second_tab = pages[0].context.new_page()  # the same seat in a second tab stays in step
    second_tab.goto(f"{web.url}/games/{game}?token={tokens[0]}")
    second_tab.wait_for_selector("#rack .rack-tile")
    watcher = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    watcher.goto(f"{web.url}/games/{game}")
    watcher.wait_for_selector("#board [data-square]")
    for _ in range(30):
        view = get(web, game, tokens[0])
        if view["status"] == "over":
            break
        seat = int(view["turn"])  # type: ignore[call-overload]
        before = len(view["events"])  # type: ignore[arg-type]
        play_turn(pages[seat], web, game, tokens[seat])
        for page in [*pages, second_tab, watcher]:  # every page follows live, without a reload
            page.wait_for_function(
                f"document.querySelectorAll('#log li').length > {before} || document.getElementById('result').textContent")
    else:
        pytest.fail("the game did not end")
    for page in [*pages, watcher]:
        page.wait_for_function("document.getElementById('result').textContent.length > 0")
    assert watcher.locator("#rack .rack-tile").count() == 0  # an observer never has a rack
    assert second_tab.inner_text("#log") == pages[0].inner_text("#log")
    assert pages[0].is_visible("#record")
    record = httpx.get(f"{web.url}/api/games/{game}/gcg").text
    assert record.startswith("#") and "#player1" in record
    shot(pages[0], "finished-game")
    shot(watcher, "finished-game-watched-on-a-phone")


def test_the_page_survives_a_server_restart_mid_game(web: Server, browser: sync_api.Browser) -> None:
    made = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "ann"}, {"bot": "static"}], "seed": 8}).json()
    game, token = made["id"], made["seats"][0]["token"]
    page = browser.new_page()
    page.goto(f"{web.url}/games/{game}?token={token}")
    page.wait_for_selector("#rack .rack-tile")
    play_turn(page, web, game, token)
    page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
    board = page.locator("#board").inner_text()
    web.kill()
    # the page says so, and counts its attempts to connect again
    page.wait_for_function("/connection lost: trying again.*\\(attempt 2\\)/.test(document.getElementById('connection').textContent)")
    web.start()
    page.wait_for_function("document.getElementById('connection').textContent === 'live'", timeout=30_000)
    assert page.locator("#board").inner_text() == board
    play_turn(page, web, game, token)
    page.wait_for_function("document.querySelectorAll('#log li').length >= 4")
    assert page.inner_text("#error") == ""


def test_a_practice_seat_gets_hints_and_the_finished_game_an_analysis(web: Server, browser: sync_api.Browser) -> None:
    made = httpx.post(f"{web.url}/api/games", json={
        "seats": [{"name": "ann", "practice": True}, {"bot": "static"}], "options": {"finish-target": "40"}, "seed": 4}).json()
    game, token = made["id"], made["seats"][0]["token"]
    page = browser.new_page()
    page.goto(f"{web.url}/games/{game}?token={token}")
    page.wait_for_selector("#coach:not([hidden])")
    page.click("text=Hint")
    page.wait_for_function("/ for \\d+/.test(document.getElementById('coach-answer').textContent)")
    page.click("text=Two-letter words")
    page.wait_for_function("document.getElementById('coach-answer').textContent.includes('Two-letter words')")
    for _ in range(20):
        if get(web, game, token)["status"] == "over":
            break
        count = page.locator("#log li").count()
        play_turn(page, web, game, token)
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {count} || document.getElementById('result').textContent")
        page.wait_for_timeout(200)
    page.wait_for_selector("#analysis:not([hidden])")
    page.click("#analyse")
    page.wait_for_selector("#analysis-body table")
    assert "mistake score" in page.inner_text("#analysis-body")
    shot(page, "analysis")
    # a seat without practice, in a closed-dictionary game, gets no coaching
    other = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "ann"}, {"bot": "static"}]}).json()
    refused = httpx.post(f"{web.url}/api/games/{other['id']}/coach", json={"ask": "hint"},
                         headers={"Authorization": f"Bearer {other['seats'][0]['token']}"})
    assert refused.status_code == 403


def test_a_player_joins_an_open_seat_from_the_lobby(web: Server, browser: sync_api.Browser) -> None:
    made = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "ann"}, {"open": True}]}).json()
    page = browser.new_page()
    page.on("dialog", lambda dialog: dialog.accept("Cleo"))  # the name the lobby asks for
    page.goto(web.url + "/")
    page.wait_for_selector("#lobby li button")
    page.click("#lobby li button:has-text('Join')")
    page.wait_for_url(f"**/games/{made['id']}?token=*")
    page.wait_for_selector("#players li:has-text('Cleo')")
    game, token = game_of(page)
    assert get(web, game, token)["you"] == 1


def test_the_turn_timer_counts_down_on_the_page(web: Server, browser: sync_api.Browser) -> None:
    made = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "ann"}, {"name": "ben"}], "options": {"turn-time": "60"}}).json()
    page = browser.new_page()
    page.goto(f"{web.url}/games/{made['id']}?token={made['seats'][0]['token']}")
    page.wait_for_function("document.querySelector('.clock') && document.querySelector('.clock').textContent.includes('s left')")

    def left() -> int:
        text = page.locator(".clock").first.inner_text()
        return int(text.split("·")[-1].split()[0])

    first = left()
    page.wait_for_timeout(2500)
    assert 1 <= first - left() <= 4


def test_the_analysis_view_shows_what_the_servers_queue_made_simulation_included(
    tmp_path: Path, browser: sync_api.Browser, play_install: PlayInstall
) -> None:
    port = free_port()
    process = launch(
        port, tmp_path / "games.db", "--analysis-seconds", "0.05", program=(str(play_install.tilebag),), env=play_install.env()
    )
    try:
        url = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{url}/api/games", json={"seats": [{"bot": "static"}, {"bot": "greedy"}], "seed": 8}).json()
        page = browser.new_page()
        page.goto(f"{url}/games/{made['id']}")  # an onlooker: the game plays itself out
        page.wait_for_selector("#analysis:not([hidden])", timeout=60_000)
        page.click("#analyse")
        page.wait_for_selector("#analysis-sim", timeout=120_000)  # asked again while the queue worked
        text = page.inner_text("#analysis-body")
        assert "mistake score" in text and "Chance of winning by simulation" in text
        shot(page, "analysis-sim")
    finally:
        process.terminate()
        process.wait(timeout=30)


def board_of(page: sync_api.Page) -> list[str]:
    """The page's board: each square's tile (lower case for a blank), or "" for an empty square."""
    return page.evaluate("[...document.querySelectorAll('#board [data-square]')].map((s) => s.dataset.tile || '')")  # type: ignore[no-any-return]


def api_board(view: dict[str, object]) -> list[str]:
    """The same from the API's view (its CGP board field)."""
    squares: list[str] = []
    for row in str(view["board"]).split("/"):
        run = ""
        for char in row + "/":
            if char.isdigit():
                run += char
                continue
            squares += [""] * int(run or 0)
            run = ""
            if char != "/":
                squares.append(char)
    return squares


def tap_play(page: sync_api.Page, action: str) -> None:
    """A play placed by tapping: a rack tile, then its square, for each tile; then the Play button."""
    where, word = action.split(" ")
    across = where[0].isdigit()
    row = int(where[:-1] if across else where[1:]) - 1
    col = ord(where[-1] if across else where[0]) - ord("A")
    through = False  # inside "(...)": letters already on the board
    for letter in word:
        if letter in "()":
            through = letter == "("
            continue
        if letter != "." and not through:
            blank = letter.islower()
            tile = " " if blank else letter
            if blank:
                page.once("dialog", lambda dialog, letter=letter: dialog.accept(letter.upper()))
            page.locator("#rack .rack-tile:not(.used)", has_text=tile).first.click()
            page.click(f'[data-square="{chr(ord("A") + col)}{row + 1}"]')
        row, col = (row, col + 1) if across else (row + 1, col)
    page.click("#play")


def test_a_whole_game_against_the_bot_clicked_through_is_drawn_as_the_api_has_it(
    web: Server, browser: sync_api.Browser
) -> None:
    made = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "ann"}, {"bot": "static"}], "seed": 5}).json()
    game, token = made["id"], made["seats"][0]["token"]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{web.url}/games/{game}?token={token}")
    page.wait_for_selector("#rack .rack-tile")
    plays = 0
    for _ in range(60):
        view = get(web, game, token)
        deadline = time.monotonic() + 20
        while view["status"] != "over" and view["turn"] != 0:  # the bot's turn: wait for it
            assert time.monotonic() < deadline, "the bot never moved"
            time.sleep(0.05)
            view = get(web, game, token)
        if view["status"] == "over":
            break
        page.wait_for_function("!document.getElementById('play').disabled || document.getElementById('accept').offsetParent")
        action = "accept" if view["status"] == "final-challenge" else best_action(view)
        if action == "accept":
            page.click("#accept")
        elif action.startswith("-"):
            play_turn(page, web, game, token)
        else:
            tap_play(page, action)
            plays += 1
        # the play is drawn as played: no tile left pending, and the board and rack are the server's
        page.wait_for_function("document.querySelectorAll('#board .pending').length === 0")
        deadline = time.monotonic() + 10
        while True:
            now = get(web, game, token)
            drawn, rack = board_of(page), page.locator("#rack .rack-tile").all_inner_texts()
            if drawn == api_board(now) and sorted(t[:1].strip() or "?" for t in rack) == sorted(str(now["rack"])):
                break
            assert time.monotonic() < deadline, (action, drawn, api_board(now), rack, now["rack"])
            time.sleep(0.1)
        assert page.inner_text("#error") == "", action
    else:
        pytest.fail("the game did not end in 60 turns")
    page.wait_for_function("document.getElementById('result').textContent.length > 0")
    assert board_of(page) == api_board(get(web, game, token)) and plays >= 5
    shot(page, "a-whole-game-clicked-through")


def test_the_game_fits_a_laptop_and_a_phone_and_names_every_square(web: Server, browser: sync_api.Browser) -> None:
    made = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "ann"}, {"bot": "static"}]}).json()
    link = made["seats"][0]["url"]
    laptop = browser.new_page(viewport={"width": 1280, "height": 800})
    laptop.goto(link)
    laptop.wait_for_selector("#rack .rack-tile")
    for part in ("#board", "#rack", "#play", "#exchange", "#pass"):
        box = laptop.locator(part).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800, (part, box)
    board, side = laptop.locator("#board").bounding_box(), laptop.locator("aside").bounding_box()
    assert board is not None and side is not None and side["x"] >= board["x"] + board["width"]  # beside, not below
    assert laptop.locator("#columns span").all_inner_texts() == list("ABCDEFGHIJKLMNO")
    assert laptop.locator("#rows span").all_inner_texts() == [str(n) for n in range(1, 16)]
    assert laptop.inner_text('[data-square="H8"]') == "★"
    names = laptop.evaluate("[...document.querySelectorAll('#board [data-square]')].map((s) => [s.dataset.square, s.getAttribute('aria-label')])")
    assert len(names) == 225 and all(label.startswith(square) and label[len(square)] in ",:" for square, label in names)
    assert names[7 * 15 + 7] == ["H8", "H8, double word, start square, empty"]
    shot(laptop, "laptop-1280x800")
    phone = browser.new_page(viewport={"width": 360, "height": 640})
    phone.goto(link)
    phone.wait_for_selector("#rack .rack-tile")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # nothing scrolls sideways
    shot(phone, "phone-360x640")


def test_a_link_with_a_wrong_token_says_so_and_offers_to_watch(web: Server, browser: sync_api.Browser) -> None:
    made = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "ann"}, {"bot": "static"}]}).json()
    page = browser.new_page()
    page.goto(f"{web.url}/games/{made['id']}?token=not-this-games-token")
    page.wait_for_selector("#notice:not([hidden])")
    assert "not valid for this game" in page.inner_text("#notice")
    assert "reconnecting" not in page.inner_text("body") and not page.is_visible("#board")
    page.click("text=Watch the game")
    page.wait_for_selector("#board [data-square]")
    assert page.locator("#rack .rack-tile").count() == 0  # an observer: no rack
    page.wait_for_function("document.getElementById('connection').textContent === 'live'")


def test_the_first_picture_comes_from_the_api_without_the_socket(web: Server, browser: sync_api.Browser) -> None:
    made = httpx.post(f"{web.url}/api/games", json={"seats": [{"name": "ann"}, {"bot": "static"}]}).json()
    page = browser.new_page()
    page.route_web_socket("**/ws**", lambda socket: None)  # a socket that connects and never says a word
    page.goto(made["seats"][0]["url"])
    page.wait_for_selector("#rack .rack-tile")
    assert page.locator("#board [data-square]").count() == 225 and page.locator("#rack .rack-tile").count() == 7
