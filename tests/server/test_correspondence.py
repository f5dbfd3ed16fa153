"""Correspondence games on a real ``tilebag serve`` process: days per move,
the deadline each turn gets (in the database and in the seat's view), a
late turn made a pass by the sweeper even across a ``kill -9`` and a
restart, and a second late turn in a row that loses the game.

A test cannot wait days: it moves a deadline into the past by writing
``games.turn_due`` in the server's SQLite file, as the sweeper reads it."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("argon2", reason="the server tests need the server extra")

from servers import Server, best_action, serving  # noqa: E402

pytestmark = pytest.mark.slow
"""Every test starts ``tilebag serve`` as a real process."""

PAST = "2000-01-01T00:00:00.000+00:00"
SWEEP = {**os.environ, "TILEBAG_CORRESPONDENCE_SWEEP": "0.2"}
"""The server's environment: its sweeper looks every 0.2 s."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with serving(tmp_path / "games.db", env=SWEEP) as running:
        yield running


def register(server: Server, name: str) -> tuple[httpx.Client, dict[str, str]]:
    """A client logged in as a new account, and the header its changes send."""
    client = httpx.Client(base_url=server.url)
    answer = client.post("/api/account", json={"username": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    return client, {"X-CSRF-Token": answer.json()["csrf"]}


def stored_due(server: Server, game: str) -> str | None:
    with sqlite3.connect(server.db) as db:
        row = db.execute("SELECT turn_due FROM games WHERE id = ?", (game,)).fetchone()
    return None if row is None else row[0]


def expire(server: Server, game: str) -> None:
    """Move the game's deadline into the past, as days going by would."""
    with sqlite3.connect(server.db) as db:
        db.execute("UPDATE games SET turn_due = ? WHERE id = ?", (PAST, game))


def days_ahead(due: object, days: int) -> bool:
    """Whether an ISO time is about ``days`` days from now."""
    assert isinstance(due, str), due
    return abs(datetime.fromisoformat(due) - (datetime.now(UTC) + timedelta(days=days))) < timedelta(minutes=2)


def view(client: httpx.Client, game: str, token: str | None = None) -> dict[str, object]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.get(f"/api/games/{game}", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def until(check: object, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"{what} never happened"
        time.sleep(0.1)


def test_a_late_turn_is_a_pass_across_a_restart_and_a_second_loses(server: Server) -> None:
    ann, ann_csrf = register(server, "Ann")
    # a player has many correspondence games at once
    games: list[str] = []
    bob_tokens: list[str] = []
    for days in (3, 1, 14):
        made = ann.post("/api/games", json={"seats": [{"me": True}, {"name": "bob"}], "days_per_move": days},
                        headers=ann_csrf)
        assert made.status_code == 201, made.text
        games.append(made.json()["id"])
        bob_tokens.append(made.json()["seats"][1]["token"])
    first = games[0]
    mine = ann.get("/api/my/games").json()
    assert {g["id"] for g in mine} == set(games) and all(g["your_turn"] for g in mine)
    for game, days in zip(games, (3, 1, 14), strict=True):
        seen = view(ann, game)  # Ann's seat, opened by her session
        assert seen["you"] == 0 and seen["turn"] == 0 and seen["days_per_move"] == days
        assert days_ahead(seen["turn_due"], days) and stored_due(server, game) == seen["turn_due"]
    assert view(httpx.Client(base_url=server.url), first)["turn_due"] == view(ann, first)["turn_due"]  # an observer's too
    # a game with a seat still open starts, and gets its deadline, when the seat is taken
    waiting = ann.post("/api/games", json={"seats": [{"me": True}, {"open": True}], "days_per_move": 2},
                       headers=ann_csrf).json()["id"]
    assert view(ann, waiting)["turn_due"] is None and stored_due(server, waiting) is None
    assert httpx.post(f"{server.url}/api/games/{waiting}/join", json={"name": "cat"}).status_code == 200
    assert days_ahead(view(ann, waiting)["turn_due"], 2) and days_ahead(stored_due(server, waiting), 2)
    # a game played in one sitting has no deadline
    sitting = ann.post("/api/games", json={"seats": [{"me": True}, {"name": "bob"}]}, headers=ann_csrf).json()["id"]
    assert "turn_due" not in view(ann, sitting) and stored_due(server, sitting) is None
    # days per move are checked; a correspondence game has no clocks
    for bad in ({"days_per_move": 0}, {"days_per_move": 15}, {"days_per_move": "3"}, {"days_per_move": 2.5},
                {"days_per_move": 3, "rules": "online"}, {"days_per_move": 3, "options": {"game-clock": "25m"}}):
        refused = httpx.post(f"{server.url}/api/games", json={"seats": [{"name": "a"}, {"name": "b"}], **bad})
        assert refused.status_code == 400, (bad, refused.text)
    before = {game: stored_due(server, game) for game in games[1:]}

    # the deadline passes while the server is down (killed): it is applied when the server starts again
    server.kill()
    expire(server, first)
    server.start()
    until(lambda: view(ann, first)["turn"] == 1, "the late turn's pass")
    seen = view(ann, first)
    assert seen["events"][-1]["kind"] == "pass" and seen["events"][-1]["seat"] == 0 and seen["status"] == "playing"
    assert days_ahead(seen["turn_due"], 3), "the next turn has its own deadline"
    assert days_ahead(stored_due(server, first), 3)
    for game in games[1:]:  # the others were not late: untouched
        assert view(ann, game)["turn"] == 0 and stored_due(server, game) == before[game]

    # bob moves in time; then Ann's next turn runs out too: her second late turn in a row loses the game
    bob = httpx.Client(base_url=server.url)
    moved = bob.post(f"/api/games/{first}/actions", json={"action": best_action(view(bob, first, bob_tokens[0]))},
                     headers={"Authorization": f"Bearer {bob_tokens[0]}"})
    assert moved.status_code == 200, moved.text
    assert moved.json()["turn"] == 0 and days_ahead(moved.json()["turn_due"], 3)
    expire(server, first)
    until(lambda: view(ann, first)["status"] == "over", "the second late turn's loss")
    seen = view(ann, first)
    assert seen["events"][-1]["kind"] == "resign" and seen["events"][-1]["seat"] == 0
    assert "Ann resigned" in str(seen["result"]) and seen["turn_due"] is None and stored_due(server, first) is None
    # the loss replays: the same after another restart
    server.kill()
    server.start()
    assert view(ann, first)["result"] == seen["result"]
    assert [view(ann, game)["status"] for game in games[1:]] == ["playing", "playing"]
