"""Several ``tilebag serve`` processes sharing real PostgreSQL and Redis
servers, as a club hosting it runs them: the database is the only truth,
the broker only a hint. Each defect a fault run found is pinned here (a
seedless game on PostgreSQL, an action while Redis is down, a notice lost
after a commit, a bot's turn whose process died, two processes starting
together, an action sent twice), and a bounded fault-injection run kills
processes and restarts Redis while people and bots play.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("fastapi", reason="the server tests need the server extra")

from servers import best_action, free_port, launch  # noqa: E402
from services import RedisProcess, postgresql, redis_process  # noqa: E402
from tilebag.server.rooms import Rooms  # noqa: E402
from tilebag.server.service import GameService  # noqa: E402
from tilebag.server.store import Store  # noqa: E402

pytestmark = pytest.mark.slow
"""Every test starts ``tilebag serve`` processes (those marked ``service`` on PostgreSQL and Redis too)."""

QUIET = ("--bot-workers", "0", "--analysis-workers", "0")
"""Bots think in the server's process and no analysis runs: these tests are about the games' truth."""


class Process:
    """One ``tilebag serve`` on a fixed port, which a test may kill and start again."""

    def __init__(self, database: str, broker: str | None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [*QUIET, *(["--broker", broker] if broker else [])]
        self.database = database
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.process = launch(self.port, self.database, *self.args)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None

    @property
    def up(self) -> bool:
        return self.process is not None and self.process.poll() is None


@contextmanager
def cluster(count: int = 2, *, redis: bool = True) -> Iterator[tuple[str, RedisProcess | None, list[Process]]]:
    """PostgreSQL, Redis and ``count`` server processes sharing them (started one after another)."""
    with ExitStack() as stack:
        database = stack.enter_context(postgresql())
        broker = stack.enter_context(redis_process()) if redis else None
        processes = [Process(database, broker.url if broker else None) for _ in range(count)]
        for process in processes:
            stack.callback(process.stop)
            process.start()
        yield database, broker, processes


def headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def view(base: str, game: str, token: str | None = None) -> dict[str, object]:
    response = httpx.get(f"{base}/api/games/{game}", headers=headers(token), timeout=10)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def post(base: str, game: str, token: str, action: str, action_id: str | None = None) -> httpx.Response:
    body: dict[str, object] = {"action": action}
    if action_id is not None:
        body["id"] = action_id
    return httpx.post(f"{base}/api/games/{game}/actions", json=body, headers=headers(token), timeout=30)


def next_action(seen: dict[str, object]) -> str:
    return "accept" if seen["status"] == "final-challenge" else best_action(seen)


def sql_url(database: str) -> str:
    return "postgresql+psycopg://" + database.removeprefix("postgresql://")


def wait_for(what: str, check: object, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"{what} did not happen in {timeout} s"
        time.sleep(0.1)


@pytest.mark.service
def test_games_without_a_seed_and_with_64_bit_seeds_are_made_on_postgresql() -> None:
    with cluster(1, redis=False) as (_, _, [server]):
        made = httpx.post(f"{server.url}/api/games", json={"seats": [{"name": "ann"}, {"name": "ben"}]})
        assert made.status_code == 201, made.text  # the server drew a 62-bit seed
        seeded = httpx.post(f"{server.url}/api/games", json={"seats": [{"name": "ann"}, {"bot": "static"}], "seed": 2**63 - 1})
        assert seeded.status_code == 201, seeded.text
        game, token = made.json()["id"], made.json()["seats"][0]["token"]
        assert post(server.url, game, token, "resign").status_code == 200
        rematch = httpx.post(f"{server.url}/api/games/{game}/rematch", headers=headers(token))
        assert rematch.status_code == 200, rematch.text


@pytest.mark.service
def test_actions_while_redis_is_down_are_answered_stored_once_and_seen_by_both() -> None:
    with cluster() as (database, broker, [one, two]):
        assert broker is not None
        made = httpx.post(f"{one.url}/api/games", json={"seats": [{"name": "ann"}, {"name": "ben"}], "seed": 9}).json()
        game = made["id"]
        tokens = [seat["token"] for seat in made["seats"]]
        broker.stop()
        for turn in range(4):  # alternately on each process, with no broker between them
            base = (one, two)[turn % 2].url
            seen = view(base, game, tokens[turn % 2])
            response = post(base, game, tokens[turn % 2], next_action(seen), f"redis-down-{turn}")
            assert response.status_code == 200, response.text
            assert view(one.url, game) == view(two.url, game)  # each reads the database first
        broker.start()
        seen = view(two.url, game, tokens[0])
        assert post(two.url, game, tokens[0], next_action(seen)).status_code == 200
        wait_for("the first process hearing of it", lambda: view(one.url, game) == view(two.url, game))
        stored = [a.kind for a in Store(sql_url(database), migrate_schema=False).actions(game)]
        assert stored.count("move") == 5  # each stored once
        for process in (one, two):
            process.kill()
            process.start()  # every game replays: nothing stored is corrupt
        assert view(one.url, game) == view(two.url, game) and len(view(one.url, game)["events"]) == 5  # type: ignore[arg-type]


@pytest.mark.service
def test_a_notice_lost_after_a_commit_leaves_no_process_behind() -> None:
    """An action stored by a process that never told the others (killed
    between its commit and its notice): the others serve it, tell their
    sockets, and judge the next move on the board it made."""
    from websockets.sync.client import connect

    with cluster() as (database, _, [one, two]):
        made = httpx.post(f"{one.url}/api/games", json={"seats": [{"name": "ann"}, {"name": "ben"}], "seed": 4}).json()
        game = made["id"]
        tokens = [seat["token"] for seat in made["seats"]]
        assert view(one.url, game) == view(two.url, game)  # both hold the game in memory
        with connect(f"ws://127.0.0.1:{two.port}/api/games/{game}/ws") as watcher:
            assert json.loads(watcher.recv(timeout=10))["type"] == "hello"
            silent = GameService(Rooms(Store(sql_url(database), migrate_schema=False)))  # a process with no broker at all
            room = silent.load(game)
            assert room is not None
            silent.act(room, 0, next_action(view(one.url, game, tokens[0])), bots=False)
            message = json.loads(watcher.recv(timeout=10))  # caught up from the database, not told
            assert message["type"] == "Played" and message["seat"] == 0
        seen = view(two.url, game, tokens[1])
        assert seen["turn"] == 1 and len(seen["events"]) == 1  # type: ignore[arg-type]
        reply = post(one.url, game, tokens[1], next_action(seen))  # judged on the board the lost notice made
        assert reply.status_code == 200, reply.text
        assert view(one.url, game) == view(two.url, game)


@pytest.mark.service
def test_a_bots_turn_held_by_a_dead_process_is_taken_over() -> None:
    with cluster(1) as (database, _, [server]):
        store = Store(sql_url(database), migrate_schema=False)
        dead = GameService(Rooms(store))  # a process that takes a person's move and the bot's turn, then dies
        room, tokens = dead.create([{"name": "ann"}, {"bot": "static"}], {}, 17, bots=False)
        lease = 6.0
        claimed = time.monotonic()
        assert store.claim_bot_turn(room.game_id, "a process now dead", lease)
        dead.act(room, 0, next_action(view(server.url, room.game_id, tokens[0])), bots=False)
        time.sleep(1.5)
        events = len(view(server.url, room.game_id)["events"])  # type: ignore[arg-type]
        if time.monotonic() - claimed < lease:  # looked while the lease held (a busy machine may take longer)
            assert events == 1, "the bot's turn was taken while another process held it"
        wait_for("the bot's move", lambda: len(view(server.url, room.game_id)["events"]) == 2, 40)  # type: ignore[arg-type]
        time.sleep(1.0)
        assert len(view(server.url, room.game_id)["events"]) == 2  # type: ignore[arg-type]  # and once only


@pytest.mark.service
def test_two_processes_starting_together_on_a_fresh_database_both_serve() -> None:
    with postgresql() as database:
        ports = [free_port(), free_port()]
        processes = [
            subprocess.Popen([sys.executable, "-m", "tilebag", "serve", "--port", str(port), "--db", database, *QUIET],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for port in ports
        ]
        try:
            for port, process in zip(ports, processes, strict=True):
                def answers(port: int = port, process: subprocess.Popen[str] = process) -> bool:
                    assert process.poll() is None, process.stdout.read() if process.stdout else ""
                    try:
                        return httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200
                    except httpx.HTTPError:
                        return False

                wait_for("the server's start", answers, 60)
        finally:
            for process in processes:
                process.terminate()
                process.wait(timeout=15)


def test_the_same_action_id_twice_is_stored_once(tmp_path: Path) -> None:
    port = free_port()
    process = launch(port, tmp_path / "games.db", *QUIET)
    try:
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{base}/api/games", json={"seats": [{"name": "ann"}, {"name": "ben"}], "seed": 6}).json()
        game, token = made["id"], made["seats"][0]["token"]
        action = next_action(view(base, game, token))
        first = post(base, game, token, action, "ann-1")
        again = post(base, game, token, action, "ann-1")  # the answer was lost: the client sends it again
        assert first.status_code == again.status_code == 200, again.text
        assert first.json() == again.json() and len(again.json()["events"]) == 1
        assert post(base, game, token, "-", "x" * 65).status_code == 400
        moves = [a for a in Store(f"sqlite:///{tmp_path / 'games.db'}", migrate_schema=False).actions(game) if a.kind == "move"]
        assert len(moves) == 1
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_a_socket_never_hears_again_what_its_hello_holds(tmp_path: Path) -> None:
    """Sockets that connect while two bots play: every event after a hello is newer than it."""
    from websockets.sync.client import connect

    port = free_port()
    process = launch(port, tmp_path / "games.db", *QUIET)
    try:
        base = f"http://127.0.0.1:{port}"
        game = httpx.post(f"{base}/api/games", json={"seats": [{"bot": "static"}, {"bot": "greedy"}]}).json()["id"]
        checked = 0
        while view(base, game)["status"] != "over":
            with connect(f"ws://127.0.0.1:{port}/api/games/{game}/ws") as socket:
                hello = json.loads(socket.recv(timeout=10))
                assert hello["type"] == "hello"
                try:
                    for _ in range(6):
                        message = json.loads(socket.recv(timeout=2))
                        if message["type"] in ("Played", "Challenged", "GameEnded", "TimeUp"):
                            assert message["seq"] > hello["seq"], (message, hello["seq"])
                            checked += 1
                except TimeoutError:
                    pass
        assert checked > 0
    finally:
        process.terminate()
        process.wait(timeout=15)


# -- a bounded fault run -----------------------------------------------------------------


class Player(threading.Thread):
    """The people of one game, playing it through either process (whichever
    answers), each action with an id, sent again with the same id when no
    answer came; what was acknowledged is kept."""

    def __init__(self, processes: list[Process], game: str, tokens: dict[int, str], seed: int) -> None:
        super().__init__(daemon=True)
        self.processes, self.game, self.tokens = processes, game, tokens
        self.random = random.Random(seed)
        self.acknowledged: list[str] = []
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.over = False

    def _any(self) -> list[Process]:
        return self.random.sample(self.processes, len(self.processes))

    def _view(self, token: str | None) -> dict[str, object] | None:
        for process in self._any():
            try:
                response = httpx.get(f"{process.url}/api/games/{self.game}", headers=headers(token), timeout=10)
            except httpx.HTTPError:
                continue
            if response.status_code == 200:
                return response.json()  # type: ignore[no-any-return]
            if response.status_code >= 500:
                self.errors.append(f"GET {response.status_code} {response.text[:200]}")
        return None

    def run(self) -> None:
        count = 0
        while not self.stop.is_set():
            seen = self._view(None)
            if seen is None:
                time.sleep(0.2)
                continue
            if seen["status"] == "over":
                self.over = True
                return
            turn = seen["turn"]
            if turn not in self.tokens:
                time.sleep(0.05)  # a bot's turn
                continue
            token = self.tokens[int(str(turn))]
            mine = self._view(token)
            if mine is None or mine["turn"] != turn or mine["status"] == "over":
                continue
            action, action_id = next_action(mine), f"{self.game}-{count}"
            count += 1
            time.sleep(self.random.uniform(0.05, 0.4))  # a person thinks
            for _ in range(40):  # the same id until a process answers
                if self.stop.is_set():
                    return
                process = self._any()[0]
                try:
                    response = post(process.url, self.game, token, action, action_id)
                except httpx.HTTPError:
                    time.sleep(0.2)
                    continue
                if response.status_code == 200:
                    self.acknowledged.append(action_id)
                elif response.status_code >= 500:
                    self.errors.append(f"POST {response.status_code} {response.text[:200]}")
                break  # a 4xx: the game moved on (a timeout, a bot): look again


@pytest.mark.service
def test_a_fault_run_loses_nothing_acknowledged_and_the_processes_agree(tmp_path: Path) -> None:
    with cluster() as (database, broker, processes):
        assert broker is not None
        layouts = [
            [{"name": "ann"}, {"bot": "static"}],
            [{"name": "ann"}, {"name": "ben"}],
            [{"bot": "greedy"}, {"name": "cy"}, {"bot": "static"}],
            [{"name": "ann"}, {"bot": "static"}, {"name": "ben"}, {"bot": "greedy"}],
        ] * 3
        players = []
        for number, seats in enumerate(layouts):
            made = httpx.post(f"{processes[number % 2].url}/api/games", json={"seats": seats, "seed": 100 + number}).json()
            tokens = {seat["seat"]: seat["token"] for seat in made["seats"] if "token" in seat}
            players.append(Player(processes, made["id"], tokens, number))
        for player in players:
            player.start()
        chaos = random.Random(7)
        kills = 0
        while kills < 5 and not all(p.over for p in players):  # counted, not timed: a loaded machine restarts slowly
            time.sleep(chaos.uniform(1.0, 2.5))
            if kills == 2:
                broker.stop()
                time.sleep(1.0)
                broker.start()
            victim = chaos.choice(processes)
            victim.kill()
            kills += 1
            time.sleep(chaos.uniform(0.2, 1.0))
            victim.start()
        for process in processes:
            if not process.up:
                process.start()
        for player in players:  # the games play on to the end with both processes up
            player.join(120)
        assert all(p.over for p in players), [p.game for p in players if not p.over]
        assert kills >= 3 and broker.process is not None
        errors = [error for p in players for error in p.errors]
        assert not errors, errors[:5]  # no 5xx while the processes were up
        store = Store(sql_url(database), migrate_schema=False)
        for player in players:
            ids = [a.client_id for a in _client_ids(store, player.game)]
            assert sorted(set(player.acknowledged) - set(ids)) == []  # nothing acknowledged is lost
            assert len(ids) == len(set(ids))  # nor stored twice
            seen = [view(process.url, player.game) for process in processes]
            assert seen[0] == seen[1], player.game  # the processes agree
            record = tmp_path / f"{player.game}.gcg"
            record.write_text(httpx.get(f"{processes[0].url}/api/games/{player.game}/gcg").text, encoding="utf-8")
            check = subprocess.run([sys.executable, "-m", "tilebag", "gcg", "check", str(record)], capture_output=True, text=True)
            assert check.returncode == 0, check.stdout + check.stderr
        for process in processes:  # and a restart rebuilds every game
            process.stop()
            process.start()
        for player in players:
            assert view(processes[0].url, player.game) == view(processes[1].url, player.game)
        assert store.damaged() == []


def _client_ids(store: Store, game: str) -> list[object]:
    from sqlalchemy import select

    from tilebag.server.store import ActionTable

    with store.engine.connect() as connection:
        rows = connection.execute(
            select(ActionTable.client_id).where(ActionTable.game_id == game, ActionTable.client_id.is_not(None))
        )
        return list(rows)


def test_a_game_that_does_not_replay_is_set_aside_and_the_others_are_served(tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "games.db"
    base = f"http://127.0.0.1:{port}"
    process = launch(port, db, *QUIET)
    try:
        games = [
            httpx.post(f"{base}/api/games", json={"seats": [{"name": "ann"}, {"bot": "static"}], "seed": n}).json()
            for n in (1, 2)
        ]
        broken, fine = games[0]["id"], games[1]["id"]
        with Store(f"sqlite:///{db}", migrate_schema=False).locked(broken) as log:  # a record no play can make
            log.append(0, "move", "1A QQQQQQQ")
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        process = launch(port, db, *QUIET)  # starts, whatever one game's record holds
        assert httpx.get(f"{base}/api/games/{fine}").status_code == 200
        refused = httpx.get(f"{base}/api/games/{broken}")
        assert refused.status_code == 410 and "damaged" in refused.json()["error"]
        assert broken not in [game["id"] for game in httpx.get(f"{base}/api/games").json()]
        listed = subprocess.run(
            [sys.executable, "-m", "tilebag", "admin", "damaged", "--db", f"sqlite:///{db}", "--json"],
            capture_output=True, text=True, timeout=60,
        )
        assert listed.returncode == 1, listed.stderr
        [row] = json.loads(listed.stdout)
        assert row["id"] == broken and "action 1" in row["damage"] and "QQQQQQQ" in row["damage"]
    finally:
        process.terminate()
        process.wait(timeout=15)
