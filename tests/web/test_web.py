"""The game page in a real Chromium (Debian's ``/usr/bin/chromium``, driven by
Playwright), served from what ``make play`` installs: whole games through the
page only (taps, clicks and keys) at 1280x800, 390x844 and 360x640 for 2, 3
and 4 seats; every dialog; a challenge upheld and one that fails; the final
challenge; a clock running out; pre-moves; examining a finished game and its
rematch; a dropped connection; links that cannot show a game; and the checks
of accessibility (names, keyboard, contrast). Screenshots of each state are
kept in ``test-output/``."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

pytest.importorskip("fastapi", reason="the browser tests need the server extra")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the test extra (playwright)")

from servers import Server, best_action, get  # noqa: E402
from tilebag.lexicon import default_lexicon  # noqa: E402

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("TILEBAG_SCREENSHOTS", "test-output"))
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}




def shot(page: Any, name: str) -> None:
    """A screenshot in the test output (a test artifact), to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def make(web: Server, seats: list[dict[str, object]], **extra: object) -> dict[str, Any]:
    response = httpx.post(f"{web.url}/api/games", json={"seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def wait_text(page: Any, selector: str, text: str, timeout: float = 20.0) -> str:
    """The text of ``selector`` once it holds ``text`` (else the test fails, saying what it held)."""
    deadline = time.monotonic() + timeout
    while True:
        found = page.inner_text(selector)
        if text in found:
            return str(found)
        assert time.monotonic() < deadline, f"{selector} never said {text!r}; it says {found!r}"
        time.sleep(0.1)


def board_of(page: Any) -> list[str]:
    """The page's board: each square's tile (lower case for a blank), or "" for an empty square."""
    return page.evaluate("[...document.querySelectorAll('#board [data-square]')].map((s) => s.dataset.tile || '')")  # type: ignore[no-any-return]


def api_board(view: dict[str, Any]) -> list[str]:
    return [square for row in view["rows"] for square in row]


class Person:
    """A person at a seat, playing through the page only."""

    def __init__(self, web: Server, page: Any, game: str, token: str) -> None:
        self.web, self.page, self.game, self.token = web, page, game, token

    @classmethod
    def open(cls, web: Server, browser: Any, game: str, token: str, viewport: dict[str, int]) -> Person:
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(f"{web.url}/games/{game}?token={token}")
        page.wait_for_selector("#board [data-square]")
        return cls(web, page, game, token)

    def view(self) -> dict[str, Any]:
        return get(self.web, self.game, self.token)

    def tap_play(self, action: str) -> None:
        """A play placed by tapping: a rack tile, then its square, for each tile
        (a blank's letter chosen in the dialog); then the Play button."""
        page = self.page
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
                tile = "#rack .rack-tile:not(.used)" + ("[aria-label='blank']" if blank else "")
                page.locator(tile, has_text=None if blank else letter).first.click()
                page.click(f'[data-square="{chr(ord("A") + col)}{row + 1}"]')
                if blank:
                    page.click(f'dialog .letter-grid button[aria-label="{letter.upper()}"]')
            row, col = (row, col + 1) if across else (row + 1, col)
        page.click("#play")

    def exchange(self, tiles: str) -> None:
        page = self.page
        page.click("#exchange")
        page.wait_for_selector("dialog .exchange-rack")
        for tile in tiles:
            name = "blank" if tile == "?" else f"{tile},"
            page.locator(f"dialog .exchange-rack button[aria-pressed='false'][aria-label^='{name}']").first.click()
        page.click("dialog button:has-text('Exchange')")

    def confirm(self, button: str, answer: str) -> None:
        self.page.click(button)
        self.page.click(f"dialog button:has-text('{answer}')")

    def take_turn(self) -> str:
        """The static bot's choice for this seat, made through the page."""
        view = self.view()
        if view["status"] == "final-challenge":
            self.page.click("#accept")
            return "accept"
        action = best_action(view)
        if action == "-":
            self.confirm("#pass", "Pass")
        elif action.startswith("-"):
            self.exchange(action[1:])
        else:
            self.tap_play(action)
        return action

    def settled(self, timeout: float = 15.0) -> dict[str, Any]:
        """The API's view once the page shows the same board, rack and no pending tile."""
        deadline = time.monotonic() + timeout
        while True:
            view = self.view()
            pending = self.page.locator("#board .pending").count()
            rack = sorted(t[:1].strip() or "?" for t in self.page.locator("#rack .rack-tile").all_inner_texts())
            if not pending and board_of(self.page) == api_board(view) and (view["status"] == "over" or rack == sorted(str(view.get("rack", "")))):
                return view
            assert time.monotonic() < deadline, (board_of(self.page), api_board(view), rack, view.get("rack"))
            time.sleep(0.1)


def play_out(people: dict[int, Person], watchers: list[Any] = (), limit: int = 200) -> dict[str, Any]:  # type: ignore[assignment]
    """Play the game to its end through the pages, comparing each page's board with the API's after every turn."""
    first = next(iter(people.values()))
    for _ in range(limit):
        view = first.view()
        if view["status"] == "over":
            break
        turn = view["turn"]
        if turn not in people:
            time.sleep(0.05)  # a bot's turn
            continue
        person = people[turn]
        person.page.wait_for_function("!document.getElementById('pass').disabled || !document.getElementById('final').hidden")
        person.take_turn()
        person.settled()
        assert person.page.inner_text("#error") == ""
    else:
        pytest.fail("the game did not end")
    final = first.view()
    for person in people.values():
        person.page.wait_for_selector("#result:not([hidden])")
        assert board_of(person.page) == api_board(person.view())
    for page in watchers:
        page.wait_for_selector("#result:not([hidden])")
    return final


def test_a_game_against_a_bot_made_in_the_lobby_goes_straight_to_the_seat(web: Server, browser: Any) -> None:
    page = browser.new_page(viewport=LAPTOP)
    page.goto(web.url + "/")
    page.fill(".seat-name", "Ann")
    page.click("text=Create the game")
    page.wait_for_url("**/games/*?token=*")  # no second click: the other seat is a bot
    page.wait_for_selector("#rack .rack-tile")
    url = urlparse(page.url)
    game, token = url.path.rsplit("/", 1)[-1], parse_qs(url.query)["token"][0]
    assert page.get_attribute('[data-square="A1"]', "aria-label") == "A1, triple word, empty"
    person = Person(web, page, game, token)
    final = play_out({0: person})
    assert final["status"] == "over" and page.is_visible("#examine")
    shot(page, "laptop-a-game-against-the-bot")
    page.goto(web.url + "/")  # the lobby keeps the seat's link
    page.wait_for_selector(f"#mine a[href*='{game}']")


def test_the_lobby_offers_options_as_choices_and_keeps_the_links(web: Server, browser: Any) -> None:
    """Options are what they are (a choice, a number within its limits, minutes); the
    links come with copy buttons and are kept under "My games" after a reload."""
    page = browser.new_page(viewport=LAPTOP)
    page.goto(web.url + "/")
    page.wait_for_selector("#options select[name=challenge]", state="attached")
    page.click("#create summary:has-text('Change the rules')")
    choices = page.eval_on_selector_all("#option-challenge option", "(os) => os.map((o) => o.value)")
    assert {"void", "single", "double", "5-point"} <= set(choices)
    bonus = page.locator("#option-bingo-bonus")
    assert (bonus.get_attribute("type"), bonus.get_attribute("min"), bonus.get_attribute("max")) == ("number", "0", "200")
    page.select_option("#option-challenge", "single")
    bonus.fill("40")
    page.fill("#option-game-clock", "25")
    rows = page.locator("#seats li")
    rows.nth(0).locator(".seat-name").fill("Ann")
    rows.nth(1).locator(".seat-kind").select_option("person")
    rows.nth(1).locator(".seat-name").fill("Ben")
    page.click("#add-seat")
    assert rows.nth(2).locator(".seat-kind").input_value() == "open"
    page.click("text=Create the game")
    page.wait_for_selector("#created .links li, #create-error:not(:empty)")
    assert not page.inner_text("#create-error"), page.inner_text("#create-error")
    links = page.locator("#created .links li")
    assert links.count() == 2 and links.nth(0).locator("button", has_text="Copy").count() == 1
    shot(page, "lobby-a-game-made")
    href = links.nth(1).locator("a").get_attribute("href")
    game = urlparse(href).path.rsplit("/", 1)[-1]
    made: Any = get(web, game)
    assert sorted(made["rules"]["options"]) == ["bingo bonus 40", "game clock 25 min each", "single challenge"], made["rules"]
    assert [s.get("kind") for s in made["seats"]][2] == "open"
    page.reload()
    page.wait_for_selector(f"#mine a[href*='{game}']")
    assert page.locator(f"#mine a[href*='{game}']").count() == 2, "Ann's link and Ben's"
    page.locator(f"#mine a[href*='{game}']").first.click()
    page.wait_for_selector("#rack .rack-tile")


def test_three_seats_on_phones_two_people_and_a_bot_with_a_watcher(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"name": "ben"}, {"bot": "static"}], seed=31)
    people = {seat["seat"]: Person.open(web, browser, made["id"], seat["token"], PHONE) for seat in made["seats"] if "token" in seat}
    watcher = browser.new_context(viewport=SMALL_PHONE).new_page()
    watcher.goto(f"{web.url}/games/{made['id']}")
    watcher.wait_for_selector("#board [data-square]")
    assert watcher.is_hidden("#rack-area") and watcher.inner_text("#role") == "watching"
    for person in people.values():
        assert person.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        cards = person.page.locator("#players").bounding_box()
        assert cards is not None and cards["y"] + cards["height"] < PHONE["height"]
    shot(people[0].page, "phone-three-seats")
    play_out(people, [watcher])
    shot(watcher, "small-phone-watching-the-end")


def test_four_seats_two_people_two_bots_at_360_wide(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"bot": "greedy"}, {"name": "ben"}, {"bot": "static"}], seed=41)
    people = {seat["seat"]: Person.open(web, browser, made["id"], seat["token"], SMALL_PHONE) for seat in made["seats"] if "token" in seat}
    page = people[0].page
    assert page.locator("#players .player").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    for button in page.locator("#actions button:visible").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 43.9, box  # tap targets of 44 px
    play_out(people)
    shot(page, "small-phone-four-seats-over")


def first_two(view: dict[str, Any]) -> tuple[str, str]:
    """A play of two of the rack's tiles through the start square that is no word."""
    lexicon = default_lexicon()
    rack = [t for t in str(view["rack"]) if t != "?"]
    for i, a in enumerate(rack):
        for b in rack[i + 1 :]:
            for word in (a + b, b + a):
                if word not in lexicon:
                    return f"8H {word}", word
    pytest.skip("every pair of this rack is a word")


def test_challenges_the_dialogs_and_the_notices(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"name": "ben"}], seed=5)
    ann, ben = (Person.open(web, browser, made["id"], seat["token"], LAPTOP) for seat in made["seats"])
    # a phony played, challenged off: the notice says which word and whose play comes off
    action, word = first_two(ann.view())
    ann.tap_play(action)
    ann.settled()
    ben.page.wait_for_function("!document.getElementById('challenge').disabled")
    ben.confirm("#challenge", "Challenge")
    wait_text(ben.page, "#notice", f"{word} is not acceptable")
    wait_text(ann.page, "#notice", "not acceptable")
    assert ben.page.locator("#log tr.withdrawn").count() == 1 and ben.page.locator("#log .phony").count() == 1
    shot(ben.page, "a-phony-challenged-off")
    # the play came off and ann lost her turn: ben plays, ann challenges a good play and loses a turn
    ben.page.wait_for_function("!document.getElementById('pass').disabled")
    ben.tap_play(best_action(ben.view()))
    ben.settled()
    ann.page.wait_for_function("!document.getElementById('challenge').disabled")
    ann.confirm("#challenge", "Challenge")
    wait_text(ann.page, "#notice", "the play stands: ann loses a turn")
    assert ann.view()["turn"] == 1  # ben's turn again
    # the dialogs: pass asks first, and Cancel changes nothing
    before = ben.view()
    ben.page.click("#pass")
    ben.page.click("dialog button:has-text('Cancel')")
    assert ben.view()["seq"] == before["seq"]
    ben.confirm("#pass", "Pass")
    wait_text(ann.page, "#notice", "ben passed")
    # the exchange dialog: All, then Cancel; then two tiles
    ann.page.click("#exchange")
    ann.page.click("dialog button.all")
    assert ann.page.locator("dialog .exchange-rack [aria-pressed='true']").count() == 7
    ann.page.click("dialog button:has-text('Cancel')")
    ann.exchange(str(ann.view()["rack"])[:2])
    wait_text(ben.page, "#notice", "ann exchanged 2 tiles")
    shot(ben.page, "notices-after-an-exchange")
    # resign asks first
    ben.confirm("#resign", "Resign")
    ben.page.wait_for_selector("#result:not([hidden])")
    assert "resigned" in ben.page.inner_text("#result")


def test_the_final_challenge_is_explained_with_accept_on_screen(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"name": "ben"}], seed=4, options={"challenge": "double"})
    people = {seat["seat"]: Person.open(web, browser, made["id"], seat["token"], LAPTOP) for seat in made["seats"]}
    for _ in range(200):
        view = people[0].view()
        if view["status"] != "playing":
            break
        person = people[int(view["turn"])]
        person.take_turn()
        person.settled()
    view = people[0].view()
    assert view["status"] == "final-challenge", view["status"]
    challenger = people[int(view["turn"])]
    challenger.page.wait_for_selector("#final:not([hidden])")
    notice = challenger.page.inner_text("#notice")
    assert "went out" in notice and "Accept the play, or challenge it" in notice
    assert not challenger.page.locator("#actions").is_visible(), "Accept and Challenge are the only moves"
    for part in ("#accept", "#board", "#rack"):  # on screen without scrolling
        box = challenger.page.locator(part).bounding_box()
        assert box is not None and box["y"] + box["height"] <= LAPTOP["height"], part
    scores = [s["score"] for s in view["seats"]]
    assert "racks" not in view and scores == view["scores"]  # nothing counted before the end
    shot(challenger.page, "the-final-challenge")
    challenger.page.click("#accept")
    challenger.page.wait_for_selector("#result:not([hidden])")


def test_a_turn_timer_counts_down_and_a_time_out_is_said(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"name": "ben"}], options={"turn-time": "4", "game-clock": "10m"})
    ann, ben = (Person.open(web, browser, made["id"], seat["token"], LAPTOP) for seat in made["seats"])
    # both cards read in one look while it is still ann's turn (by then the turn may have timed out)
    seen = ann.page.wait_for_function(
        """() => {
            const turn = document.querySelector('.player.turn[data-seat="0"] .clock');
            const other = document.querySelector('.player[data-seat="1"] .clock');
            return turn && other && turn.textContent.includes('turn 0:0') && other.textContent;
        }"""
    ).json_value()
    assert seen.startswith("10:00"), seen  # ben's game clock left, not the time used: it is not his turn
    ben.page.wait_for_function("document.getElementById('notice').textContent.includes('time ran out')", timeout=15_000)
    assert "time out" in ben.page.inner_text("#log")
    shot(ben.page, "a-time-out")


def test_a_premove_is_played_when_the_turn_comes(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"name": "ben"}], seed=9)
    ann, ben = (Person.open(web, browser, made["id"], seat["token"], LAPTOP) for seat in made["seats"])
    ann.tap_play(best_action(ann.view()))
    ann.settled()
    # ben's turn: ann places her next play while he thinks, and arms it
    premove = best_action(ann.view())
    assert " " in premove, "a placement"
    ann.tap_play(premove)  # its last step clicks "Play when it's my turn"
    wait_text(ann.page, "#notice", "Pre-move")
    assert ann.page.locator("#board .pending").count() > 0
    shot(ann.page, "a-premove-armed")
    ben.confirm("#pass", "Pass")  # the board does not change under ann's tiles
    deadline = time.monotonic() + 15
    while len(ann.view()["events"]) < 3:  # ann's play, ben's pass, ann's pre-move
        assert time.monotonic() < deadline, "the pre-move was not played"
        time.sleep(0.1)
    assert ann.view()["events"][2]["seat"] == 0 and ann.view()["events"][2]["kind"] == "place"
    ann.settled()


def test_examine_a_finished_game_and_rematch(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"bot": "static"}], seed=8, options={"finish-target": "60"})
    ann = Person.open(web, browser, made["id"], made["seats"][0]["token"], LAPTOP)
    play_out({0: ann})
    page = ann.page
    page.wait_for_selector("#examine:not([hidden])")
    page.wait_for_function("document.getElementById('turn-label').textContent.length > 0")
    final_board = board_of(page)
    page.click("#first-turn")
    page.wait_for_function("document.getElementById('turn-label').textContent.startsWith('The start')")
    assert not any(board_of(page))
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('turn-label').textContent.startsWith('1 of')")
    assert sum(1 for square in board_of(page) if square) > 0
    page.wait_for_selector("#turn-analysis .best-plays", timeout=60_000)  # the analysis of that turn beside it
    page.click("#last-turn")
    assert board_of(page) == final_board
    shot(page, "examine")
    assert httpx.get(f"{web.url}{page.get_attribute('#record', 'href')}").text.startswith("#")
    with page.expect_download() as picture:
        page.click("#picture")
    assert picture.value.suggested_filename.endswith(".png")
    page.click("#rematch")
    page.wait_for_url(lambda url: made["id"] not in url and "token=" in url)
    page.wait_for_selector("#board [data-square]")


def test_the_page_survives_a_server_restart_mid_game(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"bot": "static"}], seed=8)
    ann = Person.open(web, browser, made["id"], made["seats"][0]["token"], LAPTOP)
    ann.take_turn()
    ann.settled()
    deadline = time.monotonic() + 20
    while ann.view()["turn"] != 0:  # the bot's reply too
        assert time.monotonic() < deadline
        time.sleep(0.1)
    board = board_of(ann.settled() and ann.page)
    web.kill()
    # the page says so, and counts its attempts to connect again
    ann.page.wait_for_function("/connection lost: trying again.*\\(attempt 2\\)/.test(document.getElementById('connection').textContent)")
    web.start()
    ann.page.wait_for_function("document.getElementById('connection').textContent === 'live'", timeout=30_000)
    assert board_of(ann.page) == board
    ann.take_turn()
    ann.settled()


def test_a_practice_seat_gets_hints_that_go_stale(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann", "practice": True}, {"bot": "static"}], seed=4)
    ann = Person.open(web, browser, made["id"], made["seats"][0]["token"], LAPTOP)
    page = ann.page
    page.wait_for_selector("#coach:not([hidden])")
    page.click("text=Hint")
    page.wait_for_function("/ for \\d+/.test(document.getElementById('coach-answer').textContent)")
    ann.take_turn()
    ann.settled()
    page.wait_for_function("document.getElementById('coach-answer').textContent === ''")  # the answer was for the position before
    other = make(web, [{"name": "ann"}, {"bot": "static"}])  # a seat without practice, a closed dictionary: no coaching
    refused = httpx.post(f"{web.url}/api/games/{other['id']}/coach", json={"ask": "hint"},
                         headers={"Authorization": f"Bearer {other['seats'][0]['token']}"})
    assert refused.status_code == 403


def test_a_player_joins_an_open_seat_and_observers_chat(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"open": True}])
    page = browser.new_page(viewport=LAPTOP)
    page.on("dialog", lambda dialog: dialog.accept("Cleo"))  # the name the lobby asks for
    page.goto(web.url + "/")
    page.wait_for_selector("#lobby li button")
    page.click("#lobby li button:has-text('Join')")
    page.wait_for_url(f"**/games/{made['id']}?token=*")
    page.wait_for_selector(".player:has-text('Cleo')")
    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(f"{web.url}/games/{made['id']}")
    watcher.wait_for_selector("#chat-name:not([hidden])")
    watcher.fill("#chat-name", "Dora")
    watcher.fill("#chat-text", "good luck " + "x" * 60)
    watcher.click("#chat-form button")
    page.wait_for_function("document.getElementById('chat').textContent.includes('Dora:')")
    assert page.locator("#chat time").first.inner_text()  # a timestamp
    page.fill("#chat-text", "y" * 450)
    assert "left" in page.inner_text("#chat-count")  # the limit is said before it is reached


def test_links_that_cannot_show_a_game_say_so(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"bot": "static"}])
    page = browser.new_page()
    page.goto(f"{web.url}/games/{made['id']}?token=not-this-games-token")
    page.wait_for_selector("#notice-page:not([hidden])")
    assert "not valid for this game" in page.inner_text("#notice-page") and not page.is_visible("#board")
    page.click("text=Watch the game")
    page.wait_for_selector("#board [data-square]")
    assert page.locator("#rack .rack-tile").count() == 0
    missing = page.goto(f"{web.url}/games/no-such-game")
    assert missing is not None and missing.status == 404 and "no such game" in page.inner_text("main").lower()


def test_the_first_picture_comes_from_the_api_without_the_socket(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"bot": "static"}])
    page = browser.new_page()
    page.route_web_socket("**/ws**", lambda socket: None)  # a socket that connects and never says a word
    page.goto(made["seats"][0]["url"])
    page.wait_for_selector("#rack .rack-tile")
    assert page.locator("#board [data-square]").count() == 225 and page.locator("#rack .rack-tile").count() == 7


def test_a_letter_not_on_the_rack_spends_no_blank(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"bot": "static"}], seed=12)
    ann = Person.open(web, browser, made["id"], made["seats"][0]["token"], LAPTOP)
    rack = str(ann.view()["rack"])
    missing = next(letter for letter in "QZXJKVWY" if letter not in rack)
    ann.page.click('[data-square="H8"]')
    ann.page.keyboard.press(missing)
    assert ann.page.locator("#board .pending").count() == 0  # nothing placed, no blank spent
    assert f"no {missing} on your rack" in ann.page.inner_text("#preview")


CONTRAST = """() => {
  const lum = (rgb) => { const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const parse = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const background = (node) => { for (let n = node; n; n = n.parentElement) { const c = parse(getComputedStyle(n).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3); } return [255, 255, 255]; };
  const bad = [];
  for (const node of document.querySelectorAll('body *')) {
    if (!node.childNodes.length || ![...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
    const style = getComputedStyle(node);
    if (style.visibility === 'hidden' || style.display === 'none' || node.closest('[hidden], button:disabled, [aria-hidden=true]')) continue;
    const fg = parse(style.color).slice(0, 3), bg = background(node);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) bad.push(`${node.tagName}.${node.className} "${node.textContent.trim().slice(0, 20)}" ${ratio.toFixed(2)}`);
  }
  return bad;
}"""


def test_accessibility_names_keyboard_and_contrast(web: Server, browser: Any) -> None:
    made = make(web, [{"name": "ann"}, {"bot": "static"}], seed=1)
    ann = Person.open(web, browser, made["id"], made["seats"][0]["token"], LAPTOP)
    page = ann.page
    page.wait_for_selector("#rack .rack-tile")
    assert page.evaluate(CONTRAST) == []  # WCAG AA: 4.5:1, 3:1 for large text
    names = page.evaluate("[...document.querySelectorAll('#board [data-square]')].map((s) => [s.dataset.square, s.getAttribute('aria-label')])")
    assert all(label.startswith(square) for square, label in names)
    assert page.locator("#board [role=row]").count() == 15
    unnamed = page.evaluate("[...document.querySelectorAll('button, input, select, a')].filter((e) => !e.closest('[hidden]') && !(e.getAttribute('aria-label') || e.textContent.trim() || e.labels?.length || e.placeholder)).length")
    assert unnamed == 0
    # the keyboard reaches the controls, and plays: arrows to the start square, letters, Enter
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") in ("A", "BUTTON")
    action = best_action(ann.view())
    where, word = action.split(" ")
    assert where[0].isdigit(), "an opening play is across"
    page.click('[data-square="H8"]')
    target = f"{where[-1]}{where[:-1]}"
    page.click(f'[data-square="{target}"]')
    for letter in word:
        page.keyboard.press("?" if letter.islower() else letter)
        if letter.islower():
            page.keyboard.press(letter.upper())
    page.keyboard.press("Enter")
    ann.settled()
    assert page.evaluate("document.title").startswith("tilebag") or "turn" in page.evaluate("document.title")
    # the others' plays are announced: the notice is a live region
    assert page.get_attribute("#notice", "aria-live") == "polite"
