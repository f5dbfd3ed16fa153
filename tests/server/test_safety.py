"""A safe community on a real ``tilebag serve`` process: blocks and what they
do to chat, observers' chat turned off by a game's maker, reports made by a
player and read by an admin (made one by ``tilebag admin make-admin``),
accounts disabled by an admin or the command (their sessions end at once),
non-admins refused and the refusal logged, and hostile input that changes
nothing."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("argon2", reason="the server tests need the server extra")

from servers import TEST_TILEBAG, Server  # noqa: E402

pytestmark = pytest.mark.slow
"""Every test starts ``tilebag serve`` as a real process."""

HOSTILE_NAMES = ["Nobody", "<script>alert(1)</script>", "'; DROP TABLE users; --", "x" * 300, "ann%00", "."]



class Player:
    """A logged-in account's client: every change sends its CSRF token."""

    def __init__(self, server: Server, name: str) -> None:
        self.client = httpx.Client(base_url=server.url)
        answer = self.client.post("/api/account", json={"username": name, "password": "correct horse"})
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["csrf"]

    def post(self, path: str, body: object = None) -> httpx.Response:
        return self.client.post(path, json={} if body is None else body, headers={"X-CSRF-Token": self.csrf})

    def delete(self, path: str) -> httpx.Response:
        return self.client.delete(path, headers={"X-CSRF-Token": self.csrf})

    def get(self, path: str) -> httpx.Response:
        return self.client.get(path)


def admin(server: Server, *task: str) -> subprocess.CompletedProcess[str]:
    """``tilebag admin TASK --db`` on the server's database, as an operator runs it."""
    return subprocess.run([*TEST_TILEBAG, "admin", *task, "--db", f"sqlite:///{server.db}"],
                          capture_output=True, text=True, timeout=60)


def game_of(maker: Player, joiner: Player, **extra: object) -> str:
    """A game the two accounts hold seats in."""
    made = maker.post("/api/games", {"seats": [{"me": True}, {"open": True}], **extra})
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    assert joiner.post(f"/api/games/{game}/join").status_code == 200
    return str(game)


def test_a_block_stops_chat_and_observers_chat_only_where_allowed(server: Server) -> None:
    ann, ben = Player(server, "Ann"), Player(server, "Ben")
    game = game_of(ann, ben)
    assert ben.post(f"/api/games/{game}/chat", {"text": "hi"}).status_code == 200
    assert ann.post("/api/blocks", {"username": "BEN"}).status_code == 204
    assert ann.post("/api/blocks", {"username": "ben"}).status_code == 204, "blocking twice is blocking once"
    assert ann.get("/api/blocks").json() == ["Ben"] and ben.get("/api/blocks").json() == []
    refused = ben.post(f"/api/games/{game}/chat", {"text": "hello?"})
    assert refused.status_code == 403 and "Ann" not in refused.text
    assert ann.post(f"/api/games/{game}/chat", {"text": "bye"}).status_code == 200, "the blocker still speaks"
    chat = [line["text"] for line in ann.get(f"/api/games/{game}").json()["chat"]]
    assert chat == ["hi", "bye"], "the refused message was never stored"
    # a game made later, with the block standing
    assert ben.post(f"/api/games/{game_of(ben, ann)}/chat", {"text": "again"}).status_code == 403
    assert ann.delete("/api/blocks/ben").status_code == 204
    assert ann.get("/api/blocks").json() == []
    assert ben.post(f"/api/games/{game}/chat", {"text": "hello again"}).status_code == 200
    # names that open no account all get the same answer; oneself cannot be blocked; a guest cannot block
    answers = [ann.post("/api/blocks", {"username": name}) for name in HOSTILE_NAMES]
    answers += [ann.delete(f"/api/blocks/{name}") for name in ("Nobody", "%3Cb%3E", "x" * 300)]
    assert {(a.status_code, a.json()["error"]) for a in answers} == {(404, "no such player")}
    assert ann.post("/api/blocks", {"username": "ann"}).status_code == 400
    assert ann.post("/api/blocks", {"name": "ben"}).status_code == 400
    assert httpx.post(f"{server.url}/api/blocks", json={"username": "ben"}).status_code == 401
    assert ann.get("/api/blocks").json() == []
    # observers chat unless the game's maker turned it off
    time.sleep(2.2)  # the chat limit by address (5 at once, then 1 a second) is spent: two more messages
    watcher = httpx.Client(base_url=server.url)
    assert watcher.post(f"/api/games/{game}/chat", json={"text": "nice", "name": "Dora"}).status_code == 200
    quiet = ann.post("/api/games", {"seats": [{"me": True}, {"name": "bob"}], "observers_chat": False}).json()
    muted = watcher.post(f"/api/games/{quiet['id']}/chat", json={"text": "nice", "name": "Dora"})
    assert muted.status_code == 403 and "observers" in muted.json()["error"]
    token = quiet["seats"][1]["token"]
    said = watcher.post(f"/api/games/{quiet['id']}/chat", json={"text": "hi"}, headers={"Authorization": f"Bearer {token}"})
    assert said.status_code == 200, "the seats still chat"


def test_reports_reach_the_admins_and_an_admin_disables_an_account(server: Server) -> None:
    ann, ben, cleo = Player(server, "Ann"), Player(server, "Ben"), Player(server, "Cleo")
    game = game_of(ann, ben)
    rude = ben.post(f"/api/games/{game}/chat", {"text": "<b>you</b> are bad"}).json()["seq"]
    own = ann.post(f"/api/games/{game}/chat", {"text": "hm"}).json()["seq"]
    reason = "<script>alert('x')</script> '; DROP TABLE reports; -- rude"
    made = ann.post("/api/reports", {"username": "ben", "reason": reason, "game": game, "chat_seq": rude})
    assert made.status_code == 201, made.text
    # hostile or wrong reports change nothing (and do not count against the limit)
    for body, status in [
        ({"username": "Nobody", "reason": "x"}, 404), ({"username": "'; DROP TABLE users; --", "reason": "x"}, 404),
        ({"username": "x" * 300, "reason": "x"}, 404),
        ({"username": "ann", "reason": "x", "game": "no-such-game"}, 404),
        ({"username": "ann", "reason": "x", "game": game, "chat_seq": rude}, 404),  # Ben's message, not Ann's
        ({"username": "ann", "reason": "x", "chat_seq": own}, 400),
        ({"username": "ann", "reason": "   "}, 400), ({"username": "ann", "reason": "x" * 1001}, 400),
        ({"username": "ben", "reason": "me"}, 400), ({"username": "ann"}, 400),
    ]:
        answer = ben.post("/api/reports", body)
        assert answer.status_code == status, (body, answer.text)
    huge = ben.post("/api/reports", {"username": "ann", "reason": "x" * 20_000})
    assert huge.status_code == 413
    assert ben.post("/api/reports", {"username": "ann", "reason": "spam"}).status_code == 201, "none of those counted"
    assert httpx.post(f"{server.url}/api/reports", json={"username": "ben", "reason": "x"}).status_code == 401
    # the admins' routes are refused to players (and logged), until the operator makes Cleo an admin
    assert cleo.get("/api/admin/reports").status_code == 403
    assert ann.post("/api/admin/users/ben/disable").status_code == 403
    assert admin(server, "make-admin", "Nobody").returncode == 2
    made_admin = admin(server, "make-admin", "cleo")
    assert made_admin.returncode == 0, made_admin.stderr
    reports = cleo.get("/api/admin/reports")
    assert reports.status_code == 200, reports.text
    report, other = reports.json()
    assert (other["reporter"], other["reported"], other["chat"]) == ("Ben", "Ann", None)
    assert (report["reporter"], report["reported"], report["game"], report["chat_seq"]) == ("Ann", "Ben", game, rude)
    assert report["chat"] == "<b>you</b> are bad" and report["reason"] == reason, "kept as written"
    listed = admin(server, "reports", "--json")
    assert listed.returncode == 0 and [r["id"] for r in json.loads(listed.stdout)] == [report["id"], other["id"]]
    users = admin(server, "users", "--json")
    assert {(u["username"], u["role"], u["disabled"]) for u in json.loads(users.stdout)} == {
        ("Ann", "player", False), ("Ben", "player", False), ("Cleo", "admin", False)}
    assert "argon2" not in users.stdout and "hash" not in users.stdout
    # reports are limited per account: five at once
    statuses = [ann.post("/api/reports", {"username": "ben", "reason": f"again {i}"}).status_code for i in range(6)]
    assert statuses[:4] == [201] * 4 and statuses[-1] == 429
    assert len(cleo.get("/api/admin/reports").json()) == 6
    assert cleo.post(f"/api/admin/reports/{report['id']}/resolve").status_code == 204
    assert cleo.post(f"/api/admin/reports/{report['id']}/resolve").status_code == 404
    assert report["id"] not in [r["id"] for r in cleo.get("/api/admin/reports").json()]

    # disabling an account ends its session and its API tokens at once; enabling lets it log in again
    ben_token = ben.post("/api/tokens", {"name": "bot"}).json()["token"]
    assert cleo.post("/api/admin/users/BEN/disable").status_code == 204
    assert ben.get("/api/me").status_code == 401
    assert httpx.get(f"{server.url}/api/me", headers={"Authorization": f"Bearer {ben_token}"}).status_code == 401
    login = {"username": "Ben", "password": "correct horse"}
    assert httpx.post(f"{server.url}/api/login", json=login).status_code == 401
    for name in ("Nobody", "<b>x", "x" * 300):
        unknown = cleo.post(f"/api/admin/users/{name}/disable")
        assert (unknown.status_code, unknown.json()["error"]) == (404, "no such player")
    assert ann.post("/api/reports", {"username": "ben", "reason": "x"}).json()["error"] == "no such player"
    assert cleo.post("/api/admin/users/cleo/disable").status_code == 400, "an admin does not lock themself out"
    assert cleo.post("/api/admin/users/ben/enable").status_code == 204
    ben_again = httpx.Client(base_url=server.url)
    assert ben_again.post("/api/login", json=login).status_code == 200
    # the command disables too, running beside the server
    assert admin(server, "disable", "Ben").returncode == 0
    assert ben_again.get("/api/me").status_code == 401
    assert admin(server, "enable", "ben").returncode == 0 and admin(server, "disable", "Nobody").returncode == 2

    server.process.terminate()
    log = server.process.communicate(timeout=10)[0]
    assert "refused GET /api/admin/reports: 403" in log and "refused POST /api/admin/users/ben/disable: 403" in log
    assert "correct horse" not in log and ben_token not in log and ann.csrf not in log
