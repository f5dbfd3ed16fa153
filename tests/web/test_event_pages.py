"""An event's pages in Chromium, on the server ``make play`` installs: a
director makes an over-the-board club night, adds players, pairs a round and
enters its results through the page, while a guest watching the event's page
sees the standings change."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the browser tests need the server extra")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the test extra (playwright)")

from servers import Server  # noqa: E402

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def test_a_director_runs_a_round_and_a_watcher_sees_the_standings(web: Server, browser: Any) -> None:
    director = browser.new_context(viewport=LAPTOP).new_page()
    director.goto(f"{web.url}/login?next=/events")
    director.fill("#register-name", "Dana")
    director.fill("#register-password", "correct horse")
    director.click("text=Make the account")
    director.wait_for_url("**/events")
    director.fill("#event-name-input", "Tuesday <b>club</b>")
    director.fill("#event-rounds", "3")
    director.uncheck("#event-online")
    director.click("text=Create the event")
    director.wait_for_url("**/events/*")
    director.wait_for_selector("#event-about:not(:empty)")
    assert director.inner_text("#event-name") == "Tuesday <b>club</b>", "a name is shown as text"
    for name in ("Ann", "Ben", "Cy", "Di"):
        director.fill("#player-name", name)
        director.click("#add-player button[type=submit]")
        director.wait_for_selector(f"#divisions td:has-text('{name}')")
    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(director.url)
    watcher.wait_for_selector("#divisions td:has-text('Di')")
    assert not watcher.is_visible("#director"), "only the director has the controls"

    director.select_option("#pair-method", "swiss")
    director.click("#pair-round button[type=submit]")
    director.wait_for_selector("#divisions caption:has-text('Round 1')")
    rows = director.locator("#divisions section.round tr").all_inner_texts()[1:]
    assert len(rows) == 2, rows
    boards = [[cell.split(" (#")[1].rstrip(")") for cell in row.split("\t")[1:3]] for row in rows]
    for (a, _), (mine, theirs) in zip(boards, [(420, 380), (350, 401)], strict=True):
        director.fill("#result-round", "1")
        director.fill("#result-player", a)
        director.fill("#result-score", str(mine))
        director.fill("#result-opponent", str(theirs))
        director.click("#enter-result button[type=submit]")
        director.wait_for_selector(f"#divisions td:has-text('{mine}–{theirs}')")
    # the watcher's page asks again by itself: the winners lead, by their spread
    leader = watcher.wait_for_selector("#divisions table tr:nth-child(3) td:nth-child(6):has-text('+51')", timeout=30000)
    assert leader is not None
    standings = watcher.locator("#divisions table").first.inner_text()
    assert "+40" in standings and "-40" in standings and "-51" in standings
    sheet = director.request.get(f"{web.url}/api/events/{director.url.rsplit('/', 1)[1]}/standings.html")
    assert sheet.status == 200 and "<b>club</b>" not in sheet.text() and "&lt;b&gt;club&lt;/b&gt;" in sheet.text()
