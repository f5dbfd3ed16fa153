"""Events through a real ``tilebag serve`` process: a whole Swiss event of
eight accounts played online (each round's games made by the server, their
results recorded as they end, and recorded again at start when no process
did), an event over the board entered by hand with a correction and a
result a player entered and the opponent confirmed, the sheets, the tsh
file and the games' archive read back; who may do what, and hostile input.

The accounts are made in the database (the server's own ``Accounts``), each
with a session as a login opens it (registration through the API is
limited to a few accounts an address). The players' moves are sent through
the API with their sessions: the first player of a board plays the static
bot's move (``servers.best_action``), then someone resigns, so that each
game is short and who wins varies."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from io import StringIO
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("argon2", reason="the server tests need the server extra")

from sqlalchemy import delete, select  # noqa: E402

from servers import Server, best_action  # noqa: E402
from tilebag.events import Game, Player, standings, tsh  # noqa: E402
from tilebag.formats import gcg  # noqa: E402
from tilebag.server.accounts import Accounts  # noqa: E402
from tilebag.server.store import ResultTable, Store  # noqa: E402

pytestmark = pytest.mark.slow
"""Every test starts ``tilebag serve`` as a real process."""

NAMES = (f"e{n}" for n in itertools.count(100))


@dataclass
class Account:
    """An account with a session, as a browser logged in has it."""

    name: str
    id: int
    client: httpx.Client


def make_accounts(server: Server, count: int) -> list[Account]:
    store = Store(f"sqlite:///{server.db}", migrate_schema=False)
    accounts = Accounts(store)
    made = []
    for _ in range(count):
        name = next(NAMES)
        user = accounts.register(name, "correct horse")
        session = accounts.open_session(user.id)
        client = httpx.Client(base_url=server.url, cookies={"tilebag_session": session.secret},
                              headers={"X-CSRF-Token": session.csrf}, timeout=30)
        made.append(Account(name, user.id, client))
    store.engine.dispose()
    return made


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def shown(server: Server, event: int) -> dict[str, Any]:
    return ok(httpx.get(f"{server.url}/api/events/{event}"))  # type: ignore[no-any-return]


def recorded(division: dict[str, Any]) -> list[Game]:
    """The games the API shows as results (confirmed ones), as :class:`tilebag.events.Game`."""
    games = []
    for played in division["rounds"]:
        for p in played["pairings"]:
            result = p["result"]
            if result is None or not result["confirmed"]:
                continue
            if p["b"] is None:
                games.append(Game.bye(played["number"], p["a"], spread=result["a_score"]))
            else:
                first = None if result["forfeit"] else p["first"]
                games.append(Game(played["number"], p["a"], p["b"], result["a_score"], result["b_score"], first=first,
                                  forfeit=result["forfeit"]))
    return games


def expected_standings(division: dict[str, Any]) -> list[tuple[int, int, float, float, int]]:
    """(rank, number, wins, losses, spread) by :func:`tilebag.events.standings` from the players and results shown."""
    players = [Player(p["number"], p["name"], rating=p["rating"], joined=p["joined"], withdrawn=p["withdrawn"])
               for p in division["players"]]
    return [(s.rank, s.player.id, s.wins, s.losses, s.spread) for s in standings(players, recorded(division))]


def api_standings(division: dict[str, Any]) -> list[tuple[int, int, float, float, int]]:
    return [(s["rank"], s["number"], s["wins"], s["losses"], s["spread"]) for s in division["standings"]]


def play(account: Account, game: str, action: str) -> dict[str, Any]:
    """``account``'s action in the game (its session opens its seat); the seat's view after it."""
    if action == "best":
        view = ok(account.client.get(f"/api/games/{game}"))
        assert view["turn"] == view["you"], view
        action = best_action(view)
    return ok(account.client.post(f"/api/games/{game}/actions", json={"action": action}))  # type: ignore[no-any-return]


def wait_for_results(server: Server, event: int, round_number: int, timeout: float = 20.0) -> dict[str, Any]:
    """The event once every board of the round has a confirmed result."""
    deadline = time.monotonic() + timeout
    while True:
        seen = shown(server, event)
        played = seen["divisions"][0]["rounds"][round_number - 1]
        if all(p["result"] is not None and p["result"]["confirmed"] for p in played["pairings"]):
            return seen
        assert time.monotonic() < deadline, f"round {round_number}'s results were not recorded: {played}"
        time.sleep(0.1)


def test_a_swiss_event_played_online_records_each_game_as_it_ends(server: Server) -> None:
    director, *players = make_accounts(server, 9)
    made = ok(director.client.post("/api/events", json={
        "name": "Online Swiss", "online": True, "rounds": 5, "rules": "standard", "clock": {"game_minutes": 25}}), 201)
    event = made["id"]
    for index, player in enumerate(players):
        rating = None if index % 3 == 2 else 1500 + 40 * index
        added = ok(director.client.post(f"/api/events/{event}/players",
                                        json={"username": player.name, **({"rating": rating} if rating else {})}), 201)
        assert added["number"] == index + 1 and added["username"] == player.name and added["division"] == "A"
    by_number = {index + 1: player for index, player in enumerate(players)}
    listed = {e["id"]: e for e in ok(httpx.get(f"{server.url}/api/events"))}
    assert listed[event] == {"id": event, "name": "Online Swiss", "director": director.name, "online": True,
                             "status": "open", "players": 8}

    met: set[frozenset[int]] = set()
    expected: dict[tuple[int, int], tuple[int, int]] = {}
    """Each board's scores as its a and b, from the games' final views and the resignation rule."""
    for round_number in range(1, 6):
        method = "swiss" if round_number < 5 else "koth"
        before = shown(server, event)["divisions"][0]
        paired = ok(director.client.post(f"/api/events/{event}/rounds/{round_number}/pair", json={"method": method}))
        assert paired["method"] == ("swiss" if method == "swiss" else "king of the hill") and not paired["started"]
        boards = paired["pairings"]
        assert len(boards) == 4 and all(p["b"] is not None and p["game"] is None for p in boards)
        pairs = {frozenset((p["a"], p["b"])) for p in boards}
        if method == "swiss":
            assert not pairs & met, f"round {round_number} pairs again {pairs & met}"
            met |= pairs
        else:  # king of the hill: first against second, third against fourth, by the standings before
            order = [s["number"] for s in before["standings"]]
            assert pairs == {frozenset(order[i:i + 2]) for i in range(0, 8, 2)}
        started = ok(director.client.post(f"/api/events/{event}/rounds/{round_number}/start", json={}))
        assert started["started"] and all(p["game"] for p in started["pairings"])
        again = director.client.post(f"/api/events/{event}/rounds/{round_number}/start", json={})
        assert again.status_code == 409 and "has started" in again.json()["error"]
        for board in started["pairings"]:
            first = board["first"]
            second = board["b"] if first == board["a"] else board["a"]
            game = board["game"]
            seen = ok(by_number[first].client.get(f"/api/games/{game}"))
            assert seen["you"] == 0 and seen["turn"] == 0
            assert [s["name"] for s in seen["seats"]] == [by_number[first].name, by_number[second].name]
            way = (round_number + board["board"]) % 3
            if way == 0:  # the first player plays, the second resigns
                play(by_number[first], game, "best")
                final = play(by_number[second], game, "resign")
                resigned = 1
            elif way == 1:  # the first player resigns at once: 0-0, recorded 0-1
                final = play(by_number[first], game, "resign")
                resigned = 0
            else:  # both play, then the first resigns (whatever the scores say, the second wins)
                play(by_number[first], game, "best")
                play(by_number[second], game, "best")
                final = play(by_number[first], game, "resign")
                resigned = 0
            assert final["status"] == "over"
            s0, s1 = final["scores"]
            if resigned == 0 and s0 >= s1:
                s1 = s0 + 1
            if resigned == 1 and s1 >= s0:
                s0 = s1 + 1
            expected[(round_number, board["board"])] = (s0, s1) if first == board["a"] else (s1, s0)
        seen = wait_for_results(server, event, round_number)
        for p in seen["divisions"][0]["rounds"][round_number - 1]["pairings"]:
            result = p["result"]
            assert (result["a_score"], result["b_score"]) == expected[(round_number, p["board"])]
            assert result["confirmed"] and not result["forfeit"]
            first_won = result["a_score"] > result["b_score"] if p["first"] == p["a"] else result["b_score"] > result["a_score"]
            assert first_won == ((round_number + p["board"]) % 3 == 0)

    final = shown(server, event)
    assert final["status"] == "over" and final["online"] and final["clock"]["game_minutes"] == 25
    division = final["divisions"][0]
    assert api_standings(division) == expected_standings(division)
    assert sum(s["wins"] for s in division["standings"]) == 20 and all(
        s["firsts"] + s["seconds"] == 5 for s in division["standings"])
    assert {p["username"] for p in division["players"]} == {p.name for p in players}

    # the games that ended, as one GCG archive
    archive = httpx.get(f"{server.url}/api/events/{event}/games.gcg")
    assert archive.status_code == 200 and "attachment" in archive.headers["content-disposition"]
    games = {p["game"] for played in division["rounds"] for p in played["pairings"]}
    assert {line.removeprefix("#id tilebag ") for line in archive.text.splitlines() if line.startswith("#id ")} == games
    assert archive.text.count("#title Online Swiss, round ") == 20
    # (gcg.read_games splits records after a move line: a game resigned before any move runs into the next one)
    records = list(gcg.read_games(StringIO(archive.text)))
    assert records and all(r.title and "Online Swiss, round" in r.title for r in records)
    assert all(r.events and r.events[-1].kind.value == "resign" for r in records)

    # the tsh file read back: the same players, results and standings
    exported = httpx.get(f"{server.url}/api/events/{event}/export.t")
    assert exported.status_code == 200 and exported.headers["content-disposition"].endswith('.t"')
    read = tsh.loads(exported.text)
    assert [p.name for p in read.players] == [p.name for p in players] and len(read.results) == 20
    assert [(s.rank, s.player.id, s.wins, s.losses, s.spread) for s in standings(read.players, read.results)] == \
        api_standings(division)

    # a result no process recorded (a server stopped as the game ended) is recorded when the server starts again
    last = division["rounds"][4]["pairings"][0]
    server.kill()
    store = Store(f"sqlite:///{server.db}", migrate_schema=False)
    with store.engine.begin() as connection:
        assert connection.execute(delete(ResultTable).where(ResultTable.game_id == last["game"])).rowcount == 1
    store.engine.dispose()
    server.start()
    again = wait_for_results(server, event, 5)["divisions"][0]
    assert again["rounds"][4]["pairings"][0]["result"] == last["result"]
    assert api_standings(again) == api_standings(division)
    store = Store(f"sqlite:///{server.db}", migrate_schema=False)
    with store.engine.connect() as connection:  # each game recorded once, whatever told its end again
        assert len(connection.execute(select(ResultTable.id)).all()) == 20
    store.engine.dispose()


def test_an_event_over_the_board_entered_by_hand(server: Server) -> None:
    director, ann, ben, stranger = make_accounts(server, 4)
    event = ok(director.client.post("/api/events", json={"name": "<b>Club</b> night", "online": False, "rounds": 2}),
               201)["id"]
    names = ["Cy", "<b>Bold</b> & co", "Di", "Ed"]
    for name in names:
        ok(director.client.post(f"/api/events/{event}/players", json={"name": name}), 201)
    five = ok(director.client.post(f"/api/events/{event}/players", json={"username": ann.name, "rating": 1700}), 201)
    six = ok(director.client.post(f"/api/events/{event}/players", json={"username": ben.name, "name": "Ben B."}), 201)
    assert (five["number"], five["name"], six["number"], six["name"], six["username"]) == (5, ann.name, 6, "Ben B.",
                                                                                          ben.name)
    twice = director.client.post(f"/api/events/{event}/players", json={"username": ann.name.upper()})
    assert twice.status_code == 409

    # only the director changes the event
    for path, body in ((f"/api/events/{event}/players", {"name": "Mallory"}),
                       (f"/api/events/{event}/rounds/1/pair", {"method": "swiss"}),
                       (f"/api/events/{event}/players/2/withdraw", {})):
        refused = stranger.client.post(path, json=body)
        assert refused.status_code == 403 and "director" in refused.json()["error"], path
    assert httpx.post(f"{server.url}/api/events/{event}/rounds/1/pair", json={"method": "swiss"}).status_code == 401
    bad = director.client.post(f"/api/events/{event}/rounds/1/pair", json={"method": "dutch"})
    assert bad.status_code == 400 and "unknown pairing method" in bad.json()["error"]

    paired = ok(director.client.post(f"/api/events/{event}/rounds/1/pair",
                                     json={"method": "fixed", "fixed": [[1, 2], [3, 4], [5, 6]], "seed": 7}))
    assert {frozenset((p["a"], p["b"])) for p in paired["pairings"]} == {frozenset(pair) for pair in ((1, 2), (3, 4), (5, 6))}
    assert paired["seed"] == 7 and paired["method"] == "fixed"
    assert stranger.client.post(f"/api/events/{event}/rounds/1/start", json={}).status_code == 403
    started = ok(director.client.post(f"/api/events/{event}/rounds/1/start"))
    assert started["started"] and all(p["game"] is None for p in started["pairings"])
    assert director.client.post(f"/api/events/{event}/rounds/1/pair", json={"method": "random"}).status_code == 409

    # the director's results count at once; a second one for a board corrects it
    ok(director.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 1, "score": 420,
                                                                   "opponent_score": 380}))
    ok(director.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 4, "score": 350,
                                                                   "opponent_score": 401}))
    corrected = ok(director.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 2, "score": 399,
                                                                              "opponent_score": 395}))
    assert corrected["confirmed"] and corrected["corrected"] and (corrected["a"], corrected["a_score"]) == (2, 399)
    assert director.client.post(f"/api/events/{event}/results", json={
        "round": 1, "player": 1, "score": 99999, "opponent_score": 1}).status_code == 400

    # a player's result counts once the opponent confirms it; nobody else enters or confirms it
    wrong = ann.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 1, "score": 500,
                                                                   "opponent_score": 1})
    assert wrong.status_code == 403
    assert ann.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 5, "forfeit": True}).status_code == 403
    entered = ok(ann.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 5, "score": 410,
                                                                       "opponent_score": 388}))
    assert not entered["confirmed"] and entered["entered_by"] == 5
    waiting = shown(server, event)["divisions"][0]
    board_3 = next(p for p in waiting["rounds"][0]["pairings"] if 5 in (p["a"], p["b"]))
    assert board_3["result"] == ({"a_score": 410, "b_score": 388, "forfeit": False, "confirmed": False} if board_3["a"] == 5
                                 else {"a_score": 388, "b_score": 410, "forfeit": False, "confirmed": False})
    assert next(s for s in waiting["standings"] if s["number"] == 5)["wins"] == 0
    assert stranger.client.post(f"/api/events/{event}/results/confirm", json={"round": 1, "player": 6}).status_code == 403
    assert ann.client.post(f"/api/events/{event}/results/confirm", json={"round": 1, "player": 5}).status_code == 409
    confirmed = ok(ben.client.post(f"/api/events/{event}/results/confirm", json={"round": 1, "player": 6}))
    assert confirmed["confirmed"]

    # round 2: a withdrawal makes a bye, which counts at once; a board changed before the start; a forfeit
    withdrawn = ok(director.client.post(f"/api/events/{event}/players/4/withdraw", json={}))
    assert withdrawn["withdrawn"] == 2
    second = ok(director.client.post(f"/api/events/{event}/rounds/2/pair", json={"method": "swiss", "seed": 3}))
    bye = next(p for p in second["pairings"] if p["b"] is None)
    assert bye["result"] == {"a_score": 50, "b_score": 0, "forfeit": False, "confirmed": True}
    board = second["pairings"][0]
    others = [p for p in second["pairings"] if p["b"] is not None and p is not board]
    changed = ok(director.client.post(f"/api/events/{event}/rounds/2/pairings/1",
                                      json={"a": board["a"], "b": others[0]["a"]}))
    assert any({p["a"], p["b"]} == {board["a"], others[0]["a"]} for p in changed["pairings"])
    outside = director.client.post(f"/api/events/{event}/rounds/2/pairings/1", json={"a": 98, "b": 99})
    assert outside.status_code == 409
    ok(director.client.post(f"/api/events/{event}/rounds/2/start", json={}))
    played = [p for p in changed["pairings"] if p["b"] is not None]
    forfeit = ok(director.client.post(f"/api/events/{event}/results", json={"round": 2, "player": played[0]["a"],
                                                                            "forfeit": True}))
    assert forfeit["forfeit"] and forfeit["b"] == played[0]["a"] and (forfeit["a_score"], forfeit["b_score"]) == (50, 0)
    ok(director.client.post(f"/api/events/{event}/results", json={"round": 2, "player": played[1]["b"], "score": 377,
                                                                   "opponent_score": 377}))
    seen = shown(server, event)
    division = seen["divisions"][0]
    assert seen["status"] == "over" and api_standings(division) == expected_standings(division)
    assert next(s for s in division["standings"] if s["number"] == 4)["withdrawn"] == 2
    assert "email" not in str(seen) and "token" not in str(seen)

    # the sheets: names escaped in the pages, which load nothing
    page = httpx.get(f"{server.url}/api/events/{event}/standings.html")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; co" in page.text and "<b>Bold" not in page.text and "<b>Club" not in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"] and "<script" not in page.text
    pairings = httpx.get(f"{server.url}/api/events/{event}/rounds/1/pairings.html")
    assert pairings.status_code == 200 and "&lt;b&gt;Bold" in pairings.text and "<b>Bold" not in pairings.text
    text = httpx.get(f"{server.url}/api/events/{event}/standings.txt")
    assert text.status_code == 200 and "<b>Bold</b> & co" in text.text and "Won-Lost" in text.text
    assert httpx.get(f"{server.url}/api/events/{event}/rounds/3/pairings.html").status_code == 404
    read = tsh.loads(httpx.get(f"{server.url}/api/events/{event}/export.t").text)
    assert [p.name for p in read.players] == ["Cy", "<b>Bold</b> & co", "Di", "Ed", ann.name, "Ben B."]
    assert [(s.rank, s.player.id, s.wins, s.losses, s.spread) for s in standings(read.players, read.results)] == \
        api_standings(division)
    assert httpx.get(f"{server.url}/api/events/{event}/games.gcg").text == ""


def test_an_online_round_needs_every_player_s_account_and_hostile_input_changes_nothing(server: Server) -> None:
    director, ann, ben = make_accounts(server, 3)
    url = server.url
    for body in ({"name": "x", "online": True, "clock": {"game_minutes": 0}},
                 {"name": "x", "online": True, "rules": "no such rules"},
                 {"name": "x", "online": True, "clock": {"days_per_move": 2, "game_minutes": 5}},
                 {"name": "x", "online": True, "options": {"game-clock": "5m"}, "clock": {"game_minutes": 5}},
                 {"name": "x" * 201, "online": False},
                 {"name": "x", "online": False, "divisions": ["A", "a"]},
                 {"name": "x", "online": False, "rounds": 0},
                 {"name": "x", "online": False, "owner": "me"},
                 {"name": "x"}):
        refused = director.client.post("/api/events", json=body)
        assert refused.status_code == 400 and "error" in refused.json(), (body, refused.text)
    assert httpx.post(f"{url}/api/events", json={"name": "x", "online": False}).status_code == 401
    assert ok(httpx.get(f"{url}/api/events")) == []
    for path in ("/api/events/7", "/api/events/7/standings.txt", "/api/events/7/games.gcg"):
        assert httpx.get(f"{url}{path}").status_code == 404, path
    for path in ("/api/events/x", "/api/events/0", f"/api/events/{2**70}", "/api/events/1/rounds/99999/pairings.html"):
        assert httpx.get(f"{url}{path}").status_code in (400, 404), path

    event = ok(director.client.post("/api/events", json={
        "name": "Online pairs", "online": True, "divisions": ["Open", "Lite"], "clock": {"days_per_move": 3}}), 201)["id"]
    assert director.client.post(f"/api/events/{event}/players", json={"name": "Nobody"}).status_code == 400
    assert director.client.post(f"/api/events/{event}/players", json={"username": "nosuchname", "division": "Open"}
                                ).status_code == 404
    for body in ({"username": ann.name, "division": "Open"}, {"name": "Zed <i>", "division": "Open"},
                 {"username": ben.name, "division": "Lite"}):
        ok(director.client.post(f"/api/events/{event}/players", json=body), 201)
    ok(director.client.post(f"/api/events/{event}/rounds/1/pair", json={"method": "rr", "division": "Open"}))
    refused = director.client.post(f"/api/events/{event}/rounds/1/start", json={"division": "open"})
    assert refused.status_code == 409 and "Zed <i> (#2)" in refused.json()["error"]
    assert shown(server, event)["divisions"][0]["rounds"][0]["started"] is False
    assert director.client.post(f"/api/events/{event}/rounds/1/start", json={}).status_code == 400  # which division?
    assert httpx.get(f"{url}/api/events/{event}/standings.txt").status_code == 400
    assert httpx.get(f"{url}/api/events/{event}/standings.txt", params={"division": "Lite"}).status_code == 200

    # the player without an account loses by forfeit: the round starts with a game for no one, and says so
    ok(director.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 2, "forfeit": True,
                                                                   "division": "Open"}))
    nothing = director.client.post(f"/api/events/{event}/rounds/1/start", json={"division": "Open"})
    assert nothing.status_code == 409 and "no board" in nothing.json()["error"]

    # a player's account cannot enter the result of a board whose game is played here
    ok(director.client.post(f"/api/events/{event}/players", json={"username": director.name, "division": "Lite"}), 201)
    ok(director.client.post(f"/api/events/{event}/rounds/1/pair", json={"method": "rr", "division": "Lite"}))
    lite = ok(director.client.post(f"/api/events/{event}/rounds/1/start", json={"division": "Lite"}))
    game = lite["pairings"][0]["game"]
    assert game and lite["division"] == "Lite"
    ben_seat = ok(ben.client.get(f"/api/games/{game}"))
    assert ben_seat["you"] in (0, 1) and ben_seat["status"] == "playing"
    own = ben.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 1, "score": 400,
                                                                "opponent_score": 300, "division": "Lite"})
    assert own.status_code == 409 and "recorded when it ends" in own.json()["error"]
    assert ann.client.post(f"/api/events/{event}/results", json={"round": 1, "player": 1, "score": 400,
                                                                 "opponent_score": 300, "division": "Lite"}
                           ).status_code == 403
    for body in ({"round": "1", "player": 1, "score": 1, "opponent_score": 0},
                 {"round": 1, "player": 1, "score": 1.5, "opponent_score": 0},
                 {"round": 1, "player": 1, "score": 1, "opponent_score": 0, "division": "x" * 41},
                 {"round": 2**40, "player": 1, "score": 1, "opponent_score": 0, "division": "Lite"}):
        assert director.client.post(f"/api/events/{event}/results", json=body).status_code == 400, body
