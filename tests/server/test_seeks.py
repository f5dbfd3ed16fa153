"""The live lobby on real ``tilebag serve`` processes: seeks of 2, 3 and 4
offered, listed and accepted, rated and casual, by correspondence; the game
they start with each player in a seat their session opens; challenges
accepted and declined; blocks and rating ranges that refuse; cancelling;
seeks that expire unless their maker is around; the lobby's socket; hostile
input that changes nothing; and many people taking the last place at once
through two processes sharing real PostgreSQL and Redis (one game).

The accounts are made in the database (the server's own ``Accounts``), each
with a session as a login opens it: registration through the API is limited
to a few accounts an address, and is tested in ``test_accounts.py``."""

from __future__ import annotations

import itertools
import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("argon2", reason="the server tests need the server extra")

from sqlalchemy import insert, select, update  # noqa: E402

from servers import free_port, launch  # noqa: E402
from services import postgresql, redis_server  # noqa: E402
from tilebag.server.accounts import Accounts  # noqa: E402
from tilebag.server.store import GameTable, RatingTable, SeekTable, Store, now  # noqa: E402

pytestmark = pytest.mark.slow
"""Every test starts ``tilebag serve`` as a real process."""

QUIET = ("--bot-workers", "0", "--analysis-workers", "0")
"""No bot workers nor analysis: these tests are about the lobby."""

NAMES = (f"p{n}" for n in itertools.count(100))
"""A fresh username each time (the server's accounts live as long as the module's server)."""


@dataclass
class Served:
    """One ``tilebag serve`` process and its database."""

    url: str
    port: int
    store: Store
    process: subprocess.Popen[str]


@dataclass
class Player:
    """An account with a session, as a browser logged in has it."""

    name: str
    id: int
    client: httpx.Client
    """Sends the session's cookie and its CSRF token with every request."""
    cookie: str


def make_players(served: Served, count: int, base: str | None = None) -> list[Player]:
    accounts = Accounts(served.store)
    made = []
    for _ in range(count):
        name = next(NAMES)
        user = accounts.register(name, "correct horse")
        session = accounts.open_session(user.id)
        client = httpx.Client(base_url=base or served.url, cookies={"tilebag_session": session.secret},
                              headers={"X-CSRF-Token": session.csrf}, timeout=30)
        made.append(Player(name, user.id, client, f"tilebag_session={session.secret}"))
    return made


def start(port: int, database: str, *extra: str) -> subprocess.Popen[str]:
    return launch(port, database, *QUIET, *extra)


def stop(process: subprocess.Popen[str]) -> str:
    """Stop a server; what it logged."""
    process.terminate()
    try:
        return process.communicate(timeout=15)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()[0]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("lobby") / "games.db"
    port = free_port()
    process = start(port, f"sqlite:///{db}")
    yield Served(f"http://127.0.0.1:{port}", port, Store(f"sqlite:///{db}", migrate_schema=False), process)
    stop(process)


def offer(player: Player, **fields: object) -> str:
    made = player.client.post("/api/seeks", json={"seats": 2, "rules": "standard", **fields})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def listed(player: Player | None, served: Served) -> dict[str, dict[str, Any]]:
    answer = player.client.get("/api/seeks") if player else httpx.get(f"{served.url}/api/seeks")
    assert answer.status_code == 200, answer.text
    return {seek["id"]: seek for seek in answer.json()}


def game_row(served: Served, game: str) -> Any:
    with served.store.engine.connect() as connection:
        return connection.execute(
            select(GameTable.rated, GameTable.category, GameTable.corr_days).where(GameTable.id == game)).one()


def assert_seated(players: list[Player], game: str) -> None:
    """Each player's session opens their own seat of the game: a rack of their own, no link needed."""
    seats = set()
    for player in players:
        view = player.client.get(f"/api/games/{game}").json()
        assert view["seats"][view["you"]]["name"] == player.name and len(view["rack"]) == 7
        seats.add(view["you"])
    assert seats == set(range(len(players)))


def test_a_seek_of_two_is_listed_accepted_and_starts_a_game_each_player_sits_in(served: Served) -> None:
    ann, ben, cal = make_players(served, 3)
    seek = offer(ann, clock={"game_minutes": 5, "overtime_penalty": 10}, options={"challenge": "single"})
    shown = listed(ben, served)[seek]
    assert shown == {
        "id": seek, "by": ann.name, "to": None, "seats": 2, "taken": [ann.name], "rules": "standard",
        "options": {"challenge": "single"}, "rated": False, "clock": {"game_minutes": 5, "overtime_penalty": 10},
        "min_rating": None, "max_rating": None, "category": "blitz", "created": shown["created"],
        "expires": shown["expires"], "yours": False,
    }
    assert listed(ann, served)[seek]["yours"] is True and listed(None, served)[seek]["yours"] is False
    assert ann.client.post(f"/api/seeks/{seek}/accept").status_code == 409  # one's own
    accepted = ben.client.post(f"/api/seeks/{seek}/accept")
    assert accepted.status_code == 200, accepted.text
    game = accepted.json()["game"]
    assert_seated([ann, ben], game)
    view = ben.client.get(f"/api/games/{game}").json()
    assert view["you"] == accepted.json()["seat"] and view["clocks"] is not None
    assert "rack" not in httpx.get(f"{served.url}/api/games/{game}").json()  # an observer's view
    assert tuple(game_row(served, game)) == (False, "blitz", None)
    assert seek not in listed(ben, served)
    late = cal.client.post(f"/api/seeks/{seek}/accept")
    assert late.status_code == 409 and "no longer open" in late.json()["error"]
    assert game in [g["id"] for g in ann.client.get("/api/my/games").json()]


def test_seeks_of_three_and_four_wait_for_their_players_then_start_one_rated_game(served: Served) -> None:
    ann, ben, cal, dee = make_players(served, 4)
    three = offer(ann, seats=3)
    waiting = ben.client.post(f"/api/seeks/{three}/accept")
    assert waiting.status_code == 202 and waiting.json() == {"waiting": 1}
    assert ben.client.post(f"/api/seeks/{three}/accept").status_code == 409  # a place each
    assert listed(dee, served)[three]["taken"] == [ann.name, ben.name]
    started = cal.client.post(f"/api/seeks/{three}/accept")
    assert started.status_code == 200, started.text
    assert_seated([ann, ben, cal], started.json()["game"])
    assert tuple(game_row(served, started.json()["game"])) == (False, "multiplayer", None)

    four = offer(dee, seats=4, rated=True, clock={"game_minutes": 20})
    assert [p.client.post(f"/api/seeks/{four}/accept").json() for p in (ann, ben)] == [{"waiting": 2}, {"waiting": 1}]
    last = cal.client.post(f"/api/seeks/{four}/accept")
    assert last.status_code == 200
    game = last.json()["game"]
    assert_seated([dee, ann, ben, cal], game)
    assert tuple(game_row(served, game)) == (True, "multiplayer", None)


def test_a_correspondence_seek_lasts_days_and_makes_a_correspondence_game(served: Served) -> None:
    ann, ben = make_players(served, 2)
    seek = offer(ann, rules="tournament", rated=True, clock={"days_per_move": 3})
    shown = listed(ben, served)[seek]
    assert shown["clock"] == {"days_per_move": 3} and shown["category"] == "correspondence"
    assert (datetime.fromisoformat(shown["expires"]) - datetime.now(UTC)).days >= 6
    game = ben.client.post(f"/api/seeks/{seek}/accept").json()["game"]
    assert tuple(game_row(served, game)) == (True, "correspondence", 3)
    described = ann.client.get(f"/api/games/{game}").json()["rules"]["options"]
    assert not [line for line in described if "clock" in line or "timer" in line]  # the preset's 25 minutes are off


def test_challenges_are_seen_and_taken_by_the_player_challenged_only(served: Served) -> None:
    ann, ben, cal = make_players(served, 3)
    made = ann.client.post("/api/challenges", json={"to": ben.name.upper(), "rated": True})
    assert made.status_code == 201, made.text
    first = made.json()["id"]
    assert listed(ben, served)[first]["to"] == ben.name and listed(ann, served)[first]["yours"]
    assert first not in listed(cal, served) and first not in listed(None, served)
    assert cal.client.post(f"/api/seeks/{first}/accept").status_code == 404
    assert cal.client.post(f"/api/challenges/{first}/decline").status_code == 404
    assert ann.client.post(f"/api/challenges/{first}/decline").status_code == 403  # the challenger cancels instead
    assert ben.client.delete(f"/api/seeks/{first}").status_code == 403  # the one challenged declines instead
    assert ben.client.post(f"/api/challenges/{first}/decline").status_code == 204
    assert first not in listed(ben, served) and ben.client.post(f"/api/seeks/{first}/accept").status_code == 409
    again = ann.client.post("/api/challenges", json={"to": ben.name, "clock": {"game_minutes": 3}}).json()["id"]
    accepted = ben.client.post(f"/api/seeks/{again}/accept")
    assert accepted.status_code == 200, accepted.text
    assert_seated([ann, ben], accepted.json()["game"])
    for body, status in (({"to": "nobody-here"}, 404), ({"to": ann.name}, 400), ({"to": ben.name, "seats": 3}, 400),
                         ({"to": "'; DROP TABLE users; --"}, 404), ({"to": "<b>ben</b>"}, 404), ({}, 400)):
        refused = ann.client.post("/api/challenges", json=body)
        assert refused.status_code == status, (body, refused.text)


def test_blocked_players_cannot_challenge_nor_play_beside_each_other(served: Served) -> None:
    ann, ben, cal = make_players(served, 3)
    assert ben.client.post("/api/blocks", json={"username": ann.name}).status_code == 204
    refused = ann.client.post("/api/challenges", json={"to": ben.name})
    assert refused.status_code == 403 and "blocked you" in refused.json()["error"]
    assert ben.client.post("/api/challenges", json={"to": ann.name}).status_code == 403
    seek = offer(ann)
    assert ben.client.post(f"/api/seeks/{seek}/accept").status_code == 403
    three = offer(cal, seats=3)
    assert ann.client.post(f"/api/seeks/{three}/accept").status_code == 202
    assert ben.client.post(f"/api/seeks/{three}/accept").status_code == 403  # ann has a place in it
    assert listed(cal, served)[three]["taken"] == [cal.name, ann.name]  # the refusal changed nothing
    assert cal.client.post(f"/api/seeks/{seek}/accept").status_code == 200


def test_a_rating_range_admits_only_the_ratings_in_it(served: Served) -> None:
    ann, new, strong = make_players(served, 3)
    with served.store.engine.begin() as connection:
        connection.execute(insert(RatingTable).values(user_id=strong.id, category="blitz", rating=1720.0, deviation=80.0,
                                                      volatility=0.06, games=30, updated=now()))
    high = offer(ann, rated=True, clock={"game_minutes": 5}, min_rating=1600)
    refused = new.client.post(f"/api/seeks/{high}/accept")
    assert refused.status_code == 403 and "1500" in refused.json()["error"]  # a new player counts as 1500
    low = offer(ann, rated=True, clock={"game_minutes": 5}, max_rating=1700)
    assert strong.client.post(f"/api/seeks/{low}/accept").status_code == 403
    assert strong.client.post(f"/api/seeks/{high}/accept").status_code == 200
    assert new.client.post(f"/api/seeks/{low}/accept").status_code == 200


def test_only_its_maker_cancels_a_seek(served: Served) -> None:
    ann, ben = make_players(served, 2)
    seek = offer(ann)
    assert ben.client.delete(f"/api/seeks/{seek}").status_code == 403
    assert httpx.delete(f"{served.url}/api/seeks/{seek}").status_code == 401  # a guest
    stolen = httpx.delete(f"{served.url}/api/seeks/{seek}", cookies=dict(ann.client.cookies))  # no CSRF token
    assert stolen.status_code == 403 and seek in listed(ben, served)
    assert ann.client.delete("/api/seeks/no-such-seek").status_code == 404
    assert ann.client.delete(f"/api/seeks/{'x' * 500}").status_code == 404
    assert ann.client.delete(f"/api/seeks/{seek}").status_code == 204
    assert ann.client.delete(f"/api/seeks/{seek}").status_code == 409
    assert seek not in listed(ben, served) and ben.client.post(f"/api/seeks/{seek}/accept").status_code == 409


HOSTILE: list[dict[str, object]] = [
    {"seats": 1}, {"seats": 5}, {"seats": "2"}, {"seats": True}, {"seats": 2.5}, {"seats": None},
    {"rules": "no-such-preset"}, {"rules": "<script>alert(1)</script>"}, {"rules": "standard'; DROP TABLE seeks; --"},
    {"rules": ""}, {"rules": "x" * 500}, {"rules": 7},
    {"options": {"no-such-option": "1"}}, {"options": {"rack-size": "<b>9</b>"}}, {"options": {"<img src=x>": "1"}},
    {"options": {"rack-size": "99"}}, {"options": {"challenge": "'; DELETE FROM seeks; --"}}, {"options": []},
    {"options": {"rack-size": {"nested": 1}}}, {"options": {f"o{n}": "1" for n in range(40)}},
    {"options": {"finish-player-targets": "100,100,100"}}, {"rules": "finish-line", "seats": 2,
                                                              "options": {"finish-player-targets": "50"}},
    {"rated": "yes"}, {"min_rating": -5}, {"max_rating": 99999}, {"min_rating": 1800, "max_rating": 1200},
    {"min_rating": "<b>"}, {"clock": {"game_minutes": 0}}, {"clock": {"game_minutes": 100000}},
    {"clock": {"game_minutes": 5, "increment_seconds": 2}}, {"clock": {"days_per_move": 15}},
    {"clock": {"days_per_move": 0}}, {"clock": {"days_per_move": 2, "game_minutes": 5}}, {"clock": {}},
    {"clock": {"game_minutes": "5"}}, {"clock": {"game_minutes": 5, "overtime_penalty": 1000}}, {"clock": "5+0"},
    {"clock": {"game_minutes": 5}, "options": {"game-clock": "10m"}},
    {"clock": {"days_per_move": 2}, "options": {"turn-time": "60"}}, {"rate": True}, {"seats": 2, "user": 1},
]
"""Offers that make no game: each refused with 400, naming what was wrong."""


def test_hostile_offers_are_refused_and_change_nothing(served: Served) -> None:
    ann, ben = make_players(served, 2)
    before = listed(ben, served)
    for body in HOSTILE:
        refused = ann.client.post("/api/seeks", json={"seats": 2, **body} if "seats" not in body else body)
        assert refused.status_code == 400, (body, refused.text)
        assert refused.json()["error"], body
    increment = ann.client.post("/api/seeks", json={"seats": 2, "clock": {"game_minutes": 5, "increment_seconds": 3}})
    assert "increment" in increment.json()["error"]
    unknown = ann.client.post("/api/seeks", json={"seats": 2, "rules": "no-such-preset"})
    assert "'no-such-preset'" in unknown.json()["error"]
    option = ann.client.post("/api/seeks", json={"seats": 2, "options": {"zap-bonus": "1"}})
    assert "'zap-bonus'" in option.json()["error"]
    assert ann.client.post("/api/seeks", content=b"{not json", headers={"Content-Type": "application/json"}).status_code == 400
    assert httpx.post(f"{served.url}/api/seeks", json={"seats": 2}).status_code == 401  # a guest
    assert httpx.post(f"{served.url}/api/seeks", json={"seats": 2}, cookies=dict(ann.client.cookies)).status_code == 403
    assert listed(ben, served) == before
    for bad in ("no-such-seek", "' OR '1'='1", "%3Cscript%3E"):
        assert ben.client.post(f"/api/seeks/{bad}/accept").status_code == 404
    made = [ann.client.post("/api/seeks", json={"seats": 2}).status_code for _ in range(12)]
    assert made == [201] * 10 + [429] * 2  # ten open seeks an account


class Lobby:
    """A lobby socket, read message by message."""

    def __init__(self, served: Served, player: Player | None) -> None:
        from websockets.sync.client import connect

        headers = {"Cookie": player.cookie} if player else {}
        self._open = ExitStack()
        self.socket = self._open.enter_context(connect(f"ws://127.0.0.1:{served.port}/api/lobby/ws",
                                                       additional_headers=headers))
        self.hello = json.loads(self.socket.recv(timeout=10))
        assert self.hello["type"] == "hello"

    def next(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """The first message ``wanted`` takes (those before it are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            if wanted(message):
                return message  # type: ignore[no-any-return]

    def quiet(self, seconds: float = 0.5) -> list[dict[str, Any]]:
        """Every message that comes within ``seconds``."""
        heard = []
        try:
            while True:
                heard.append(json.loads(self.socket.recv(timeout=seconds)))
        except TimeoutError:
            return heard

    def close(self) -> None:
        self._open.close()


def test_the_lobby_socket_tells_seeks_challenges_games_and_turns(served: Served) -> None:
    ann, ben = make_players(served, 2)
    with ExitStack() as stack:
        lobby = {name: Lobby(served, player) for name, player in (("ann", ann), ("ben", ben), ("guest", None))}
        for socket in lobby.values():
            stack.callback(socket.close)
        assert lobby["ann"].hello["you"] == ann.name and lobby["guest"].hello["you"] is None
        seek = offer(ann, seats=3)
        for name, yours in (("ann", True), ("ben", False), ("guest", False)):
            told = lobby[name].next(lambda m: m.get("id") == seek)
            assert told["type"] == "seek" and told["yours"] is yours and told["by"] == ann.name
        assert ben.client.post(f"/api/seeks/{seek}/accept").status_code == 202  # a place taken: the seek again
        assert lobby["guest"].next(lambda m: m.get("id") == seek)["taken"] == [ann.name, ben.name]
        assert ann.client.delete(f"/api/seeks/{seek}").status_code == 204
        gone = lobby["guest"].next(lambda m: m["type"] == "seek-gone")
        assert gone == {"type": "seek-gone", "id": seek, "why": "cancelled"}

        challenge = ann.client.post("/api/challenges", json={"to": ben.name}).json()["id"]
        told = lobby["ben"].next(lambda m: m.get("id") == challenge)
        assert told["type"] == "challenge" and told["by"] == ann.name and told["to"] == ben.name
        game = ben.client.post(f"/api/seeks/{challenge}/accept").json()["game"]
        for name in ("ann", "ben"):
            started = lobby[name].next(lambda m: m["type"] == "game")
            assert started["id"] == game
            assert started["seat"] == (ann if name == "ann" else ben).client.get(f"/api/games/{game}").json()["you"]
        assert not [m for m in lobby["guest"].quiet() if challenge in json.dumps(m)]  # a challenge is the two's

        view = ann.client.get(f"/api/games/{game}").json()
        mover, other = (ann, "ben") if view["turn"] == view["you"] else (ben, "ann")
        assert mover.client.post(f"/api/games/{game}/actions", json={"action": "-"}).status_code == 200
        assert lobby[other].next(lambda m: m["type"] == "your-turn") == {"type": "your-turn", "game": game}
        mover.client.post(f"/api/games/{game}/chat", json={"text": "good game"})
        assert not [m for m in lobby[other].quiet() if m["type"] == "your-turn"]  # told once a turn


def test_seeks_expire_unless_their_maker_is_in_the_lobby(served: Served) -> None:
    ann, ben = make_players(served, 2)
    watcher = Lobby(served, None)
    try:
        seek = offer(ann)
        with served.store.engine.begin() as connection:  # as if ann had left two minutes ago
            connection.execute(update(SeekTable).where(SeekTable.id == seek).values(expires=now(-1)))
        gone = watcher.next(lambda m: m["type"] == "seek-gone" and m["id"] == seek)
        assert gone["why"] == "expired"
        assert seek not in listed(ben, served) and ben.client.post(f"/api/seeks/{seek}/accept").status_code == 409
    finally:
        watcher.close()
    kept = offer(ann)
    with served.store.engine.begin() as connection:  # nearly run out...
        connection.execute(update(SeekTable).where(SeekTable.id == kept).values(expires=now(5)))
    present = Lobby(served, ann)  # ...when ann comes back to the lobby
    try:
        left = datetime.fromisoformat(listed(ben, served)[kept]["expires"]) - datetime.now(UTC)
        assert left.total_seconds() > 100
    finally:
        present.close()


@pytest.mark.service
def test_many_taking_the_last_place_at_once_on_two_processes_start_one_game() -> None:
    with ExitStack() as stack:
        database = stack.enter_context(postgresql())
        broker = stack.enter_context(redis_server())
        ports = [free_port(), free_port()]
        processes = []
        for port in ports:
            processes.append(start(port, database, "--broker", broker))
            stack.callback(stop, processes[-1])
        store = Store("postgresql+psycopg://" + database.removeprefix("postgresql://"), migrate_schema=False)
        served = [Served(f"http://127.0.0.1:{port}", port, store, process) for port, process in zip(ports, processes, strict=True)]
        makers = make_players(served[0], 2)
        crowd = [player for n in range(8) for player in make_players(served[n % 2], 1)]
        watcher = Lobby(served[1], None)  # on the other process: told through Redis
        stack.callback(watcher.close)
        for seats in (2, 3):
            seek = offer(makers[seats - 2], seats=seats)
            assert watcher.next(lambda m, seek=seek: m.get("id") == seek)["type"] == "seek"
            barrier = threading.Barrier(len(crowd))
            answers: dict[str, httpx.Response] = {}

            def take(player: Player, seek: str = seek, barrier: threading.Barrier = barrier,
                     answers: dict[str, httpx.Response] = answers) -> None:
                barrier.wait()
                answers[player.name] = player.client.post(f"/api/seeks/{seek}/accept")

            threads = [threading.Thread(target=take, args=(player,)) for player in crowd]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            statuses = sorted(answer.status_code for answer in answers.values())
            assert statuses == sorted([200] + [202] * (seats - 2) + [409] * (len(crowd) - seats + 1)), statuses
            game = next(answer.json()["game"] for answer in answers.values() if answer.status_code == 200)
            with store.engine.connect() as connection:
                made = connection.execute(select(SeekTable.status, SeekTable.game_id).where(SeekTable.id == seek)).one()
            assert tuple(made) == ("started", game)
            seated = [p for p in crowd if answers[p.name].status_code in (200, 202)]
            assert_seated([makers[seats - 2], *seated], game)  # through either process
            assert watcher.next(lambda m, seek=seek: m.get("id") == seek and m["type"] == "seek-gone")["why"] == "taken"
        with store.engine.connect() as connection:
            assert len(connection.execute(select(GameTable.id)).all()) == 2  # one game a seek, never two


def test_no_secret_reaches_the_log(tmp_path: Path) -> None:
    port = free_port()
    process = start(port, f"sqlite:///{tmp_path / 'games.db'}")
    try:
        served = Served(f"http://127.0.0.1:{port}", port, Store(f"sqlite:///{tmp_path / 'games.db'}", migrate_schema=False),
                        process)
        ann, ben = make_players(served, 2)
        seek = offer(ann)
        assert ben.client.delete(f"/api/seeks/{seek}").status_code == 403
        socket = Lobby(served, ann)
        socket.close()
        secrets = [ann.cookie.split("=", 1)[1], ben.cookie.split("=", 1)[1], ann.client.headers["X-CSRF-Token"]]
    finally:
        log = stop(process)
    assert "refused DELETE /api/seeks/" in log  # the refusal is logged...
    assert not [secret for secret in secrets if secret in log]  # ...and no session nor CSRF token
