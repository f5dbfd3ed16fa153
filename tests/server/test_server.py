"""``tilebag serve`` as a real process: games played through the HTTP API
and a WebSocket, every payload checked for another seat's tiles, refused
requests that change nothing, and a ``kill -9`` in the middle of a game."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("fastapi", reason="the server tests need the server extra")

from servers import Server, act, best_action, create, free_port, get, launch, my_turn  # noqa: E402
from tilebag.lexicon import default_lexicon  # noqa: E402
from tilebag.server.store import Store  # noqa: E402

pytestmark = pytest.mark.slow
"""Every test starts ``tilebag serve`` as a real process and plays through it."""



def assert_private(payload: object, seat: int | None, racks: dict[int, str], over: bool) -> None:
    """No payload for ``seat`` holds another seat's rack before the end."""
    if over:
        return
    data = payload if isinstance(payload, dict) else {}
    assert "racks" not in data
    if seat is None:
        assert "rack" not in data and "unseen" not in data
    for event in data.get("events", []):  # type: ignore[union-attr]
        assert "rack" not in event or event["seat"] == seat
        if event.get("kind") == "exchange" and event["seat"] != seat:
            assert str(event["move"]).lstrip("-").isdigit()
    for other, rack in racks.items():
        if other != seat and len(rack) >= 5:
            assert f'"rack": "{rack}"' not in json.dumps(data)


def test_a_person_plays_a_bot_to_the_end_and_the_record_checks(server: Server, tmp_path: Path) -> None:
    made = create(server, [{"name": "alice"}, {"bot": "static"}], seed=11)
    game, token = str(made["id"]), str(made["seats"][0]["token"])  # type: ignore[index]
    assert "token" not in made["seats"][1]  # type: ignore[index]
    for _ in range(60):
        mine = my_turn(server, game, token)
        watched = get(server, game)
        assert_private(watched, None, {0: str(mine.get("rack", ""))}, mine["status"] == "over")
        if mine["status"] == "over":
            break
        if mine["status"] == "final-challenge":
            response = act(server, game, token, "accept")
        else:
            response = act(server, game, token, best_action(mine))
        assert response.status_code == 200, response.text
    else:
        pytest.fail("the game did not end in 60 actions")
    final = get(server, game)
    assert final["status"] == "over" and "result" in final and len(final["racks"]) == 2  # type: ignore[arg-type]
    record = httpx.get(f"{server.url}/api/games/{game}/gcg").text
    path = tmp_path / "game.gcg"
    path.write_text(record, encoding="utf-8")
    check = subprocess.run([sys.executable, "-m", "tilebag", "gcg", "check", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_refused_requests_change_nothing(server: Server) -> None:
    made = create(server, [{"name": "alice"}, {"name": "bob"}], seed=3)
    game = str(made["id"])
    alice, bob = (str(seat["token"]) for seat in made["seats"])  # type: ignore[union-attr]
    before = get(server, game, alice)
    refusals = [
        (act(server, game, "not-a-token", "-"), 401),
        (act(server, game, None, "-"), 403),
        (act(server, game, bob, "-"), 409),
        (act(server, game, alice, "8A QQQQQQQ"), 422),
        (act(server, game, alice, "Z99 NOPE"), 400),
        (act(server, game, alice, 17), 400),
        (act(server, game, alice, "x" * 500), 400),
        (httpx.post(f"{server.url}/api/games/{game}/actions", content=b"{not json", headers={"Authorization": f"Bearer {alice}"}), 400),
        (httpx.post(f"{server.url}/api/games/{game}/actions", content=b"x" * 20_000, headers={"Authorization": f"Bearer {alice}"}), 413),
        # sent in chunks, with no Content-Length to refuse it by: counted as it comes
        (httpx.post(f"{server.url}/api/games/{game}/actions", content=iter([b"x" * 8_000] * 5), headers={"Authorization": f"Bearer {alice}"}), 413),
        (httpx.get(f"{server.url}/api/games/nosuchgame"), 404),
        (httpx.post(f"{server.url}/api/games", json={"seats": [{"name": "a"}, {"name": "A"}]}), 400),
        (httpx.post(f"{server.url}/api/games", json={"seats": [{"name": "a"}, {"bot": "grandmaster"}]}), 400),
    ]
    for response, status in refusals:
        assert response.status_code == status, (response.status_code, response.text)
        assert "error" in response.json()
        assert alice not in response.text and bob not in response.text
    assert get(server, game, alice) == before


def test_a_bot_worker_killed_mid_game_is_replaced_and_the_bot_moves(server: Server) -> None:
    made = create(server, [{"name": "alice"}, {"bot": "static"}], seed=5)
    game, token = str(made["id"]), str(made["seats"][0]["token"])  # type: ignore[index]
    for _ in range(2):
        workers = subprocess.run(["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True).stdout.split()
        for pid in workers:  # the bots' worker processes (spawned by the server)
            os.kill(int(pid), signal.SIGKILL)
        mine = my_turn(server, game, token)
        response = act(server, game, token, best_action(mine))
        assert response.status_code == 200, response.text
        after = my_turn(server, game, token)  # the bot moved, in a new worker
        assert len(after["events"]) == len(mine["events"]) + 2  # type: ignore[arg-type]


def test_a_seed_needs_the_servers_permission(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tilebag", "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'g.db'}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        seeded = httpx.post(f"http://127.0.0.1:{port}/api/games", json={"seats": [{"name": "a"}, {"name": "b"}], "seed": 1})
        assert seeded.status_code == 400 and "--allow-seeds" in seeded.json()["error"]
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_kill_9_then_restart_gives_back_the_game_exactly(server: Server) -> None:
    made = create(server, [{"name": "alice"}, {"bot": "static"}], seed=21)
    game, token = str(made["id"]), str(made["seats"][0]["token"])  # type: ignore[index]
    for _ in range(4):
        view = my_turn(server, game, token)
        assert act(server, game, token, best_action(view)).status_code == 200
    my_turn(server, game, token)
    httpx.post(f"{server.url}/api/games/{game}/chat", json={"text": "good luck"}, headers={"Authorization": f"Bearer {token}"})
    before = get(server, game, token)
    server.kill()
    server.start()
    after = get(server, game, token)
    assert after == before
    assert act(server, game, token, best_action(after)).status_code == 200  # and it goes on
    assert my_turn(server, game, token)["seq"] > after["seq"]  # and the bot moves again


def test_a_seat_joins_an_open_game_and_a_websocket_follows_it(server: Server) -> None:
    from websockets.sync.client import connect

    made = create(server, [{"name": "alice"}, {"open": True}], seed=5)
    game, alice = str(made["id"]), str(made["seats"][0]["token"])  # type: ignore[index]
    joined = httpx.post(f"{server.url}/api/games/{game}/join", json={"name": "carol"})
    assert joined.status_code == 200
    carol = joined.json()["token"]
    assert httpx.post(f"{server.url}/api/games/{game}/join", json={"name": "dave"}).status_code == 409
    with connect(f"ws://127.0.0.1:{server.port}/api/games/{game}/ws?token={carol}") as ws, connect(
        f"ws://127.0.0.1:{server.port}/api/games/{game}/ws"
    ) as observer:
        hello = json.loads(ws.recv(timeout=10))
        assert hello["type"] == "hello" and hello["view"]["you"] == 1 and hello["view"]["seats"][1]["name"] == "carol"
        assert "rack" not in json.loads(observer.recv(timeout=10))["view"]
        view = get(server, game, alice)
        assert act(server, game, alice, best_action(view)).status_code == 200
        played = json.loads(ws.recv(timeout=10))
        assert played["type"] == "Played" and played["seat"] == 0 and played["seq"] >= 1
        seen = json.loads(observer.recv(timeout=10))
        assert seen["type"] == "Played" and "rack" not in json.dumps(seen)
        assert httpx.post(
            f"{server.url}/api/games/{game}/chat", json={"text": "<b>hi</b>"}, headers={"Authorization": f"Bearer {carol}"}
        ).status_code == 200
        messages = [json.loads(ws.recv(timeout=10)) for _ in range(3)]
        assert any(m["type"] == "Chat" and m["text"] == "<b>hi</b>" for m in messages)
    # a client that was away asks for what it missed
    with connect(f"ws://127.0.0.1:{server.port}/api/games/{game}/ws?token={carol}") as late:
        assert json.loads(late.recv(timeout=10))["type"] == "hello"
        late.send(json.dumps({"since": 0}))
        caught = []
        while not caught or caught[-1]["type"] != "view":
            caught.append(json.loads(late.recv(timeout=10)))
        types = [m["type"] for m in caught]
        assert "Played" in types and "Chat" in types and all(m["seq"] >= 1 for m in caught)


def test_random_bad_requests_get_a_4xx_and_change_nothing(server: Server) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    made = create(server, [{"name": "alice"}, {"name": "bob"}], seed=9)
    game = str(made["id"])
    alice = str(made["seats"][0]["token"])  # type: ignore[index]
    before = get(server, game, alice)
    junk = st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(lambda t: t.encode("utf-8")),
        st.recursive(
            st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=30)),
            lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
            max_leaves=8,
        ).map(lambda value: json.dumps(value).encode("utf-8")),
    )
    tokens = st.sampled_from([None, "nope", alice[:-1] + "x", "x" * 300])

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=junk, token=tokens, path=st.sampled_from(["actions", "chat", "join"]))
    def bad(body: bytes, token: str | None, path: str) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        response = httpx.post(f"{server.url}/api/games/{game}/{path}", content=body, headers=headers)
        assert 400 <= response.status_code < 500, (response.status_code, response.text)
        assert "error" in response.json()
        assert alice not in response.text

    bad()
    assert get(server, game, alice) == before


def test_the_servers_clock_ends_a_turn_and_ticks_to_the_players(server: Server) -> None:
    from websockets.sync.client import connect

    made = create(server, [{"name": "alice"}, {"name": "bob"}], options={"turn-time": "2"}, seed=4)
    game, alice = str(made["id"]), str(made["seats"][0]["token"])  # type: ignore[index]
    with connect(f"ws://127.0.0.1:{server.port}/api/games/{game}/ws?token={alice}") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        seen: list[dict[str, object]] = []
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not any(m["type"] == "TimeUp" for m in seen):
            seen.append(json.loads(ws.recv(timeout=10)))
    assert any(m["type"] == "clock" and m["seat"] == 0 for m in seen)
    assert any(m["type"] == "TimeUp" and m["seat"] == 0 for m in seen)
    view = get(server, game, alice)
    assert view["turn"] == 1 and view["events"][0]["kind"] == "time out"  # type: ignore[index]


def test_chat_is_rate_limited_per_seat(server: Server) -> None:
    made = create(server, [{"name": "alice"}, {"name": "bob"}], seed=4)
    game, alice = str(made["id"]), str(made["seats"][0]["token"])  # type: ignore[index]
    statuses = [
        httpx.post(f"{server.url}/api/games/{game}/chat", json={"text": f"hi {i}"}, headers={"Authorization": f"Bearer {alice}"}).status_code
        for i in range(12)
    ]
    assert statuses[0] == 200 and 429 in statuses
    assert len(get(server, game)["chat"]) == statuses.count(200)  # type: ignore[arg-type]


def test_a_rematch_gives_each_seat_its_own_token_and_turns_the_seats(server: Server) -> None:
    made = create(server, [{"name": "alice"}, {"name": "bob"}], seed=8)
    game = str(made["id"])
    alice, bob = (str(seat["token"]) for seat in made["seats"])  # type: ignore[union-attr]
    rematch = httpx.post(f"{server.url}/api/games/{game}/rematch", headers={"Authorization": f"Bearer {alice}"})
    assert rematch.status_code == 409  # not before the end
    assert act(server, game, alice, "resign").status_code == 200
    first = httpx.post(f"{server.url}/api/games/{game}/rematch", headers={"Authorization": f"Bearer {alice}"}).json()
    second = httpx.post(f"{server.url}/api/games/{game}/rematch", headers={"Authorization": f"Bearer {bob}"}).json()
    assert first["id"] == second["id"] != game
    assert (first["seat"], second["seat"]) == (1, 0) and first["token"] != second["token"]
    again = httpx.post(f"{server.url}/api/games/{game}/rematch", headers={"Authorization": f"Bearer {alice}"})
    assert again.status_code == 409
    view = get(server, str(first["id"]), str(second["token"]))
    assert [s["name"] for s in view["seats"]] == ["bob", "alice"] and view["turn"] == 0  # type: ignore[index]
    assert httpx.post(f"{server.url}/api/games/{first['id']}/join", json={"name": "eve"}).status_code == 409


def a_phony(rack: str) -> str:
    """Two tiles of the rack that make no word, played across the centre."""
    lexicon = default_lexicon()
    letters = [t for t in rack if t != "?"]
    for i, first in enumerate(letters):
        for j, second in enumerate(letters):
            if i != j and first + second not in lexicon:
                return f"8H {first}{second}"
    raise AssertionError(f"every pair of {rack} is a word")


def play_on(server: Server, game: str, tokens: list[str], limit: int = 80) -> dict[str, object]:
    """Both people play the static bot's plays (accepting the last play) to the end;
    every view each seat and an observer get is checked for another seat's tiles."""
    for _ in range(limit):
        views = [get(server, game, token) for token in tokens]
        racks = {seat: str(v.get("rack", "")) for seat, v in enumerate(views)}
        over = views[0]["status"] == "over"
        for seat, seen in enumerate(views):
            assert_private(seen, seat, racks, over)
        assert_private(get(server, game), None, racks, over)
        if over:
            return views[0]
        seat = int(views[0]["turn"])  # type: ignore[call-overload]
        action = "accept" if views[seat]["status"] == "final-challenge" else best_action(views[seat])
        response = act(server, game, tokens[seat], action)
        assert response.status_code == 200, f"{action}: {response.text}"
        answer = response.json()
        assert_private(answer, seat, racks, answer["status"] == "over")
    raise AssertionError(f"the game did not end in {limit} actions")


@pytest.mark.parametrize("mode", ["double", "single", "void", "5-point"])
def test_two_people_play_to_the_end_under_each_challenge_mode(server: Server, mode: str, tmp_path: Path) -> None:
    """A phony, a challenge of it, a challenge of a good play, then the game
    to its end, each as the mode rules; the record checks."""
    made = create(server, [{"name": "alice"}, {"name": "bob"}], options={"challenge": mode}, seed=31)
    game = str(made["id"])
    alice, bob = (str(seat["token"]) for seat in made["seats"])  # type: ignore[attr-defined]
    before = get(server, game, alice)
    phony = act(server, game, alice, a_phony(str(before["rack"])))
    if mode == "void":  # a phony is refused outright, and nothing may be challenged
        assert phony.status_code == 422 and "not in the" in phony.json()["error"], phony.text
        assert get(server, game, alice) == before
        assert act(server, game, alice, best_action(before)).status_code == 200
        refused = act(server, game, bob, "challenge")
        assert refused.status_code == 409, refused.text
    else:
        assert phony.status_code == 200, phony.text
        withdrawn = act(server, game, bob, "challenge")
        assert withdrawn.status_code == 200, withdrawn.text
        after = withdrawn.json()
        assert [e["kind"] for e in after["events"]][-1] == "withdrawn"
        assert after["scores"] == [0, 0] and after["board"] == "/".join(["15"] * 15) and after["turn"] == 1
        assert act(server, game, bob, best_action(get(server, game, bob))).status_code == 200
        good = get(server, game, alice)
        scores = list(good["scores"])  # type: ignore[call-overload]
        upheld = act(server, game, alice, "challenge")
        assert upheld.status_code == 200, upheld.text
        ruled = upheld.json()
        if mode == "double":  # the challenger loses a turn
            assert ruled["turn"] == 1 and ruled["scores"] == scores
        elif mode == "single":  # no penalty
            assert ruled["turn"] == 0 and ruled["scores"] == scores
        else:  # the failed challenge costs the challenger 5 points
            assert ruled["turn"] == 0 and ruled["scores"] == [scores[0] - 5, scores[1]]
        assert act(server, game, alice, "challenge").status_code == 409  # nothing left to challenge
    final = play_on(server, game, [alice, bob])
    assert final["status"] == "over" and "result" in final
    assert mode == "double" or mode in json.dumps(final["rules"])  # the view names a mode that is not the default
    path = tmp_path / "game.gcg"
    path.write_text(httpx.get(f"{server.url}/api/games/{game}/gcg").text, encoding="utf-8")
    check = subprocess.run([sys.executable, "-m", "tilebag", "gcg", "check", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.service
def test_two_processes_on_postgresql_and_redis_serve_the_same_game() -> None:
    """Two servers sharing one PostgreSQL and one Redis: a move posted to
    one reaches the WebSocket clients of the other, and each shows the
    same game."""
    from websockets.sync.client import connect

    from services import postgresql, redis_server

    with postgresql() as database, redis_server() as broker:
        ports = [free_port(), free_port()]
        first = launch(ports[0], database, "--broker", broker)
        second = launch(ports[1], database, "--broker", broker)  # after the first: it finds the schema migrated
        try:
            one, two = (f"http://127.0.0.1:{port}" for port in ports)
            made = httpx.post(f"{one}/api/games", json={"seats": [{"name": "alice"}, {"name": "bob"}], "seed": 2}).json()
            game = made["id"]
            alice, bob = (seat["token"] for seat in made["seats"])
            with connect(f"ws://127.0.0.1:{ports[1]}/api/games/{game}/ws") as watcher:
                assert json.loads(watcher.recv(timeout=10))["type"] == "hello"
                view = httpx.get(f"{one}/api/games/{game}", headers={"Authorization": f"Bearer {alice}"}).json()
                response = httpx.post(
                    f"{one}/api/games/{game}/actions", json={"action": best_action(view)}, headers={"Authorization": f"Bearer {alice}"}
                )
                assert response.status_code == 200, response.text
                message = json.loads(watcher.recv(timeout=15))
                assert message["type"] == "Played" and message["seat"] == 0
            seen = [
                httpx.get(f"{base}/api/games/{game}", headers={"Authorization": f"Bearer {bob}"}).json() for base in (one, two)
            ]
            assert seen[0] == seen[1] and seen[1]["turn"] == 1
            reply = httpx.post(
                f"{two}/api/games/{game}/actions", json={"action": best_action(seen[1])}, headers={"Authorization": f"Bearer {bob}"}
            )
            assert reply.status_code == 200, reply.text
            deadline = time.monotonic() + 10
            while httpx.get(f"{one}/api/games/{game}").json()["turn"] != 0:
                assert time.monotonic() < deadline, "the first server never heard of bob's move"
                time.sleep(0.1)
        finally:
            for process in (first, second):
                process.terminate()
                process.wait(timeout=10)


def test_bench_serve_plays_games_at_once_and_reports_them() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tilebag", "bench", "serve", "--games", "3", "--json"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)
    assert result["games"] == 3 and result["actions"] >= 3 * 5
    assert 0 < result["p50_ms"] <= result["p99_ms"] and result["server_rss_mb"] > 10 and result["actions_per_second"] > 0


def test_four_seats_two_people_two_bots_play_to_the_end_and_nothing_leaks(server: Server) -> None:
    made = create(server, [{"name": "alice"}, {"bot": "greedy"}, {"name": "bob"}, {"bot": "static"}], seed=13)
    game = str(made["id"])
    tokens = {seat["seat"]: str(seat["token"]) for seat in made["seats"] if "token" in seat}  # type: ignore[union-attr]
    assert sorted(tokens) == [0, 2]
    racks: dict[int, str] = {}
    for _ in range(200):
        views = {seat: get(server, game, token) for seat, token in tokens.items()}
        observer = get(server, game)
        over = observer["status"] == "over"
        for seat, seen in views.items():
            racks[seat] = str(seen.get("rack", ""))
        for seat, seen in views.items():
            assert_private(seen, seat, racks, over)
        assert_private(observer, None, racks, over)
        if over:
            break
        turn = observer["turn"]
        if turn not in tokens:
            time.sleep(0.05)  # a bot's turn: it moves after the last answer
            continue
        seen = views[int(str(turn))]
        if (seen["turn"], seen["board"]) != (turn, observer["board"]):
            continue  # a bot moved between the two reads: read again
        action = "accept" if seen["status"] == "final-challenge" else best_action(seen)
        response = act(server, game, tokens[int(str(turn))], action)
        assert response.status_code == 200, response.text
    else:
        pytest.fail("the four-seat game did not end")
    final = get(server, game)
    assert final["status"] == "over" and len(final["racks"]) == 4  # type: ignore[arg-type]


def _analysis(url: str, game: str, timeout: float = 120.0) -> tuple[dict[str, object], list[int]]:
    """The game's analysis once the queue made it, and the status codes seen on the way."""
    codes = []
    deadline = time.monotonic() + timeout
    while True:
        response = httpx.get(f"{url}/api/games/{game}/analysis", timeout=10)
        codes.append(response.status_code)
        if response.status_code == 200:
            return response.json(), codes
        assert response.status_code in (202, 409), response.text
        assert time.monotonic() < deadline, f"no analysis in {timeout} s: {response.text}"
        time.sleep(0.2)


def test_finished_games_are_analysed_by_the_queue_and_kept_with_the_game(server: Server) -> None:
    made = create(server, [{"bot": "static"}, {"bot": "greedy"}], seed=12)
    data, codes = _analysis(server.url, str(made["id"]))
    assert data["status"] == "done" and data["turns"] and len(data["totals"]) == 2  # type: ignore[arg-type]
    assert 202 in codes or codes.count(409) > 0  # it was made in the background, not in the request
    store = Store(f"sqlite:///{server.db}", migrate_schema=False)
    row = store.analysis(str(made["id"]))
    assert row is not None and row.status == "done" and row.worker and row.result == {
        k: v for k, v in data.items() if k != "status"}
    server.kill()
    server.start()  # a new process reads the analysis kept with the game: no new work
    again = httpx.get(f"{server.url}/api/games/{made['id']}/analysis", timeout=10)
    assert again.status_code == 200 and again.json() == data
    assert store.analysis(str(made["id"])) == row


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed: pip install 'tilebag[cluster]'")
def test_a_server_sends_the_analysis_of_finished_games_to_ray(tmp_path: Path) -> None:
    port = free_port()
    process = launch(port, tmp_path / "games.db", "--cluster", "auto", "--analysis-workers", "1")
    try:
        url = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{url}/api/games", json={"seats": [{"bot": "static"}, {"bot": "static"}], "seed": 5}).json()
        data, _ = _analysis(url, made["id"])
        assert data["status"] == "done" and data["turns"]
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
    assert "analysed on auto" in out and "analysed 1 finished games on ray" in out, out
