"""Accounts on a real ``tilebag serve`` process: register, log in and out,
sessions behind an HttpOnly cookie with CSRF, API tokens, a game's seat
opened by its account, "my games", and hostile input that changes nothing."""

from __future__ import annotations

import time

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("argon2", reason="the server tests need the server extra")

from servers import Server, best_action  # noqa: E402

pytestmark = pytest.mark.slow
"""Every test starts ``tilebag serve`` as a real process."""



def register(server: Server, name: str, password: str = "correct horse") -> tuple[httpx.Client, str]:
    """A client logged in as a new account, and its CSRF token."""
    client = httpx.Client(base_url=server.url)
    answer = client.post("/api/account", json={"username": name, "password": password})
    assert answer.status_code == 201, answer.text
    assert answer.json()["username"] == name
    return client, answer.json()["csrf"]


def test_register_log_out_and_in_and_the_cookie_is_safe(server: Server) -> None:
    client, csrf = register(server, "Ann")
    cookie = client.cookies.jar
    set_cookie = client.post("/api/login", json={"username": "ann", "password": "correct horse"}).headers["set-cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=lax" in set_cookie.replace("Lax", "lax") and "Max-Age" in set_cookie
    me = client.get("/api/me").json()
    assert me["username"] == "Ann" and me["role"] == "player" and me["csrf"]
    assert "password" not in str(me) and "hash" not in str(me)
    # a change made with the cookie alone (as another site's page would) is refused
    stolen = {c.name: c.value for c in cookie}
    assert httpx.post(f"{server.url}/api/logout", cookies=stolen).status_code == 403
    assert client.post("/api/logout", headers={"X-CSRF-Token": me["csrf"]}).status_code == 204
    # the session is over, even for a copy of its cookie
    assert httpx.get(f"{server.url}/api/me", cookies=stolen).status_code == 401
    assert client.get("/api/me").status_code == 401
    # wrong password and unknown name get the same answer
    wrong = client.post("/api/login", json={"username": "Ann", "password": "not the password"})
    unknown = client.post("/api/login", json={"username": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401 and wrong.json() == unknown.json()
    assert client.post("/api/login", json={"username": "ANN", "password": "correct horse"}).status_code == 200
    assert csrf != client.get("/api/me").json()["csrf"], "each session has its own CSRF token"
    token = client.post("/api/tokens", json={}, headers={"X-CSRF-Token": client.get("/api/me").json()["csrf"]}).json()["token"]
    secrets = ["correct horse", "not the password", csrf, token, *stolen.values(), *(c.value for c in client.cookies.jar)]
    server.process.terminate()
    log = server.process.communicate(timeout=10)[0]
    assert "refused POST /api/logout" in log  # the refusal is logged...
    assert not [s for s in secrets if s in log], "...and no password, session, CSRF or API token is"


def test_usernames_are_checked_and_unique_whatever_the_case(server: Server) -> None:
    register(server, "Ben_2")
    for name in ("ben_2", "BEN_2", "ab", "x" * 21, "<b>Ben</b>", "Ben 2", "'; DROP TABLE users; --", "_ben", "Bén"):
        answer = httpx.post(f"{server.url}/api/account", json={"username": name, "password": "correct horse"})
        assert answer.status_code == 400, (name, answer.text)
    short = httpx.post(f"{server.url}/api/account", json={"username": "Cleo", "password": "short"})
    assert short.status_code == 400 and "8 to 200" in short.json()["error"]
    assert httpx.post(f"{server.url}/api/account", json={"username": "Cleo", "password": "x" * 1000}).status_code == 400


def test_a_thousand_registrations_from_one_address_are_refused(server: Server) -> None:
    answers = [httpx.post(f"{server.url}/api/account", json={"username": f"bot{n}", "password": "correct horse"}).status_code
               for n in range(40)]
    assert answers.count(201) <= 5 and answers.count(429) >= 35, answers
    made = [n for n, status in enumerate(answers) if status == 201]
    assert made == list(range(len(made)))


def test_logins_are_rate_limited_per_name(server: Server) -> None:
    """Ten wrong guesses at once, then one every six seconds: however long
    each guess takes to check (Argon2 on a busy machine can take a second),
    the guesses let through are ten and what the clock refilled meanwhile."""
    register(server, "Dora")
    answers: list[int] = []
    started = time.monotonic()
    while 429 not in answers and len(answers) < 40:
        guess = httpx.post(f"{server.url}/api/login", json={"username": "Dora", "password": f"guess {len(answers)}"})
        answers.append(guess.status_code)
    elapsed = time.monotonic() - started
    assert 429 in answers, answers
    let_through = answers.index(429)
    assert set(answers[:let_through]) == {401}, answers
    assert 10 <= let_through <= 10 + elapsed / 6, (answers, elapsed)


def test_api_tokens_open_the_account_until_revoked(server: Server) -> None:
    client, csrf = register(server, "Eve")
    made = client.post("/api/tokens", json={"name": "my bot"}, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201
    token, token_id = made.json()["token"], made.json()["id"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert httpx.get(f"{server.url}/api/me", headers=bearer).json()["username"] == "Eve"
    listed = client.get("/api/tokens").json()
    assert listed == [{"id": token_id, "name": "my bot", "created": listed[0]["created"]}]
    # a script with a token needs no CSRF header
    assert httpx.delete(f"{server.url}/api/tokens/{token_id}", headers=bearer).status_code == 204
    assert httpx.get(f"{server.url}/api/me", headers=bearer).status_code == 401
    assert httpx.get(f"{server.url}/api/me", headers={"Authorization": "Bearer tbu_forged"}).status_code == 401


def test_an_accounts_seat_is_opened_by_its_session_and_listed_in_my_games(server: Server) -> None:
    ann, ann_csrf = register(server, "Ann")
    ben, ben_csrf = register(server, "Ben")
    made = ann.post("/api/games", json={"seats": [{"me": True}, {"open": True}], "seed": 5},
                    headers={"X-CSRF-Token": ann_csrf})
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    assert made.json()["seats"][0]["name"] == "Ann"
    joined = ben.post(f"/api/games/{game}/join", json={}, headers={"X-CSRF-Token": ben_csrf})
    assert joined.status_code == 200, joined.text
    assert ben.post(f"/api/games/{game}/join", json={}, headers={"X-CSRF-Token": ben_csrf}).status_code == 409
    # the session is the credential: no link token needed
    view = ann.get(f"/api/games/{game}").json()
    assert view["you"] == 0 and "rack" in view
    ben_view = ben.get(f"/api/games/{game}").json()
    assert ben_view["you"] == 1 and ben_view["rack"] != view["rack"]
    assert "rack" not in httpx.get(f"{server.url}/api/games/{game}").json()  # an observer's
    mine = ann.get("/api/my/games").json()
    assert [(g["id"], g["seat"], g["your_turn"]) for g in mine] == [(game, 0, view["turn"] == 0)]
    first = 0 if view["turn"] == 0 else 1
    mover, csrf = (ann, ann_csrf) if first == 0 else (ben, ben_csrf)
    action = best_action(mover.get(f"/api/games/{game}").json())
    # an action with the cookie but without the CSRF token changes nothing
    refused = mover.post(f"/api/games/{game}/actions", json={"action": action})
    assert refused.status_code == 403 and mover.get(f"/api/games/{game}").json()["seq"] == view["seq"]
    played = mover.post(f"/api/games/{game}/actions", json={"action": action}, headers={"X-CSRF-Token": csrf})
    assert played.status_code == 200, played.text
    other = ben if first == 0 else ann
    assert other.get("/api/my/games").json()[0]["your_turn"] is True
    # and a seat token still works for guests, as before
    assert "token" in made.json()["seats"][0]


def test_a_deleted_accounts_games_stay_under_deleted(server: Server) -> None:
    ann, csrf = register(server, "Ann")
    game = ann.post("/api/games", json={"seats": [{"me": True}, {"bot": "greedy"}]},
                    headers={"X-CSRF-Token": csrf}).json()["id"]
    wrong = ann.request("DELETE", "/api/account", json={"password": "wrong password"}, headers={"X-CSRF-Token": csrf})
    assert wrong.status_code == 400
    gone = ann.request("DELETE", "/api/account", json={"password": "correct horse"}, headers={"X-CSRF-Token": csrf})
    assert gone.status_code == 204
    assert httpx.get(f"{server.url}/api/games/{game}").json()["seats"][0]["name"] == "deleted"
    assert httpx.post(f"{server.url}/api/login", json={"username": "Ann", "password": "correct horse"}).status_code == 401
    again, _ = register(server, "Ann")  # the name is free again
    assert again.get("/api/my/games").json() == []


def test_changing_the_password_ends_the_other_sessions(server: Server) -> None:
    here, csrf = register(server, "Fay")
    there = httpx.Client(base_url=server.url)
    assert there.post("/api/login", json={"username": "Fay", "password": "correct horse"}).status_code == 200
    changed = here.post("/api/password", json={"old": "correct horse", "new": "battery staple"},
                        headers={"X-CSRF-Token": csrf})
    assert changed.status_code == 204
    assert here.get("/api/me").status_code == 200 and there.get("/api/me").status_code == 401
    assert there.post("/api/login", json={"username": "Fay", "password": "battery staple"}).status_code == 200
