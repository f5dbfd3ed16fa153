"""Ratings, profiles and history: the rating categories, the Glicko-2 and
OpenSkill updates against hand calculations and the library, a finished
game's result applied once (in this process, from threads racing, and on
PostgreSQL), and two accounts playing a rated game on a real ``tilebag
serve`` whose profiles then show it, with a result the server applies at
start for a game that ended while no process applied it."""

from __future__ import annotations

import io
import math
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="the server tests need the test extra (httpx)")
pytest.importorskip("openskill", reason="the server tests need the server extra")

from openskill.models import PlackettLuce  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

from servers import Server, best_action, free_port, launch  # noqa: E402
from services import postgresql  # noqa: E402
from tilebag.engine.bots import make_bot  # noqa: E402
from tilebag.formats import gcg  # noqa: E402
from tilebag.game import GameState  # noqa: E402
from tilebag.move import MoveKind  # noqa: E402
from tilebag.record import EventKind  # noqa: E402
from tilebag.rules import find_rules  # noqa: E402
from tilebag.server.accounts import Accounts, User  # noqa: E402
from tilebag.server.ratings import (  # noqa: E402
    GLICKO_SCALE,
    Glicko,
    apply_result,
    category_of,
    glicko2_update,
    history_of,
    rating_of,
    ratings_of,
    updated_ratings,
)
from tilebag.server.room import Room  # noqa: E402
from tilebag.server.rooms import Rooms  # noqa: E402
from tilebag.server.service import GameService  # noqa: E402
from tilebag.server.store import GameTable, RatingHistoryTable, Store  # noqa: E402

pytestmark = pytest.mark.slow
"""The games here are rebuilt with the default lexicon, and one test starts ``tilebag serve``."""

PASSWORD = "correct horse"


# -- categories and the systems --------------------------------------------------------------


@pytest.mark.parametrize(("rules", "options", "seats", "clock", "days", "category"), [
    ("standard", {}, 2, None, None, "rapid"),
    ("standard", {}, 2, 5 * 60, None, "blitz"),
    ("standard", {}, 2, 10 * 60, None, "rapid"),  # 10 minutes is no longer blitz
    ("tournament", {}, 2, 25 * 60, None, "rapid"),
    ("online", {}, 2, None, None, "rapid"),  # void challenge and a turn timer are standard
    ("speed", {"challenge": "single"}, 2, 3 * 60, None, "blitz"),
    ("standard", {}, 2, None, 3, "correspondence"),
    ("standard", {}, 3, None, None, "multiplayer"),
    ("tournament", {}, 4, 25 * 60, 2, "multiplayer"),
    ("nine-tile", {}, 2, None, None, "house"),
    ("finish-line", {}, 2, 5 * 60, None, "house"),
    ("anagram", {}, 4, None, None, "house"),
    ("recycle", {}, 2, None, 3, "house"),
    ("blank-swap", {}, 2, None, None, "house"),
    ("kids", {}, 2, None, None, "house"),  # an open dictionary
    ("long-first-word", {}, 2, None, None, "house"),
    ("standard", {"bingo-bonus": "35"}, 2, None, None, "house"),
    ("standard", {"exchange-min-bag": "1"}, 3, None, None, "house"),
])
def test_the_category_of_a_game(rules: str, options: dict[str, str], seats: int, clock: int | None, days: int | None,
                                category: str) -> None:
    made = find_rules(rules).with_options(options)
    assert category_of(made, seats, clock_seconds=clock, corr_days=days) == category


def test_two_players_glicko2_against_a_hand_calculation() -> None:
    winner, loser = updated_ratings([Glicko(), Glicko()], [0, 1])
    # two new players, 1500 ± 350: each expected to score 1/2; by Glickman's steps 3 to 7
    phi = 350 / GLICKO_SCALE
    g = 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)
    v = 1 / (g**2 * 0.25)
    phi_after = 1 / math.sqrt(1 / (phi**2 + winner.volatility**2) + 1 / v)
    gain = GLICKO_SCALE * phi_after**2 * g * 0.5
    assert winner.rating == pytest.approx(1500 + gain, abs=0.01) and gain == pytest.approx(162.3, abs=0.1)
    assert loser.rating == pytest.approx(1500 - gain, abs=0.01)
    assert winner.deviation == loser.deviation == pytest.approx(GLICKO_SCALE * phi_after, abs=0.01)
    assert winner.volatility == pytest.approx(0.06, abs=1e-4)
    # a draw between equals moves no rating; an upset moves more than the expected result
    drawn = updated_ratings([Glicko(), Glicko()], [0, 0])
    assert [round(p.rating, 6) for p in drawn] == [1500, 1500]
    strong, weak = Glicko(1800, 80), Glicko(1500, 80)
    upset = updated_ratings([strong, weak], [1, 0])
    expected = updated_ratings([strong, weak], [0, 1])
    assert strong.rating - upset[0].rating > 0 and upset[1].rating - weak.rating > expected[0].rating - strong.rating > 0
    assert upset[1].rating - weak.rating == pytest.approx(strong.rating - upset[0].rating, rel=0.01)
    # Glickman's example: rating and deviation as his paper gives them
    example = glicko2_update(Glicko(1500, 200), [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)])
    assert (round(example.rating, 1), round(example.deviation, 1)) == (1464.1, 151.5)


def test_three_and_four_players_openskill_on_the_1500_scale() -> None:
    four = updated_ratings([Glicko()] * 4, [0, 1, 2, 3])
    ratings = [p.rating for p in four]
    assert ratings == sorted(ratings, reverse=True) and ratings[0] > 1500 > ratings[3]
    assert all(p.deviation < 350 for p in four)
    # the library's own update, through rating = 1500 + 42 (mu - 25) and deviation = 42 sigma
    model = PlackettLuce()
    players = [Glicko(1600, 200), Glicko(1450, 300), Glicko(1500, 120)]
    teams = [[model.rating(mu=25 + (p.rating - 1500) / 42, sigma=p.deviation / 42)] for p in players]
    library = model.rate(teams, ranks=[2, 1, 2])
    ours = updated_ratings(players, [1, 0, 1])
    for mine, (theirs,) in zip(ours, library, strict=True):
        assert mine.rating == pytest.approx(1500 + 42 * (theirs.mu - 25))
        assert mine.deviation == pytest.approx(42 * theirs.sigma)
    assert ours[1].rating > players[1].rating and ours[0].rating < players[0].rating
    with pytest.raises(ValueError, match="2 players or more"):
        updated_ratings([Glicko()], [0])


# -- a result applied once -------------------------------------------------------------------


def accounts_named(store: Store, *names: str) -> list[User]:
    accounts = Accounts(store)
    return [accounts.register(name, PASSWORD) for name in names]


def rated_game(service: GameService, users: list[User], *, category: str = "rapid", bot: bool = False) -> Room:
    seats: list[dict[str, object]] = [{"name": u.username, "user": u.id} for u in users]
    if bot:
        seats.append({"bot": "greedy"})
    room, _ = service.create(seats, {"rules": "standard"}, 7, bots=False, rated=True, category=category)
    return room


def first_play(service: GameService, room: Room) -> None:
    """The seat to move plays the greedy bot's best move."""
    game = room.game
    move = make_bot("greedy", "x").choose(game)
    service.act(room, game.turn, game.notation(move) if move.kind is MoveKind.PLACE else move.gcg(game.alphabet, game.layout),
                bots=False)


def history_count(store: Store, game_id: str) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(
            select(func.count()).select_from(RatingHistoryTable).where(RatingHistoryTable.game_id == game_id)).scalar() or 0)


@pytest.fixture
def sqlite_service(tmp_path: Path) -> Iterator[GameService]:
    yield GameService(Rooms(Store(f"sqlite:///{tmp_path / 'games.db'}")))


def test_a_result_is_applied_once_and_only_where_it_should_be(sqlite_service: GameService) -> None:
    service, store = sqlite_service, sqlite_service.store
    ann, ben, cy, dee = accounts_named(store, "ann", "ben", "cyd", "dee")
    room = rated_game(service, [ann, ben])
    assert not apply_result(store, room.game_id), "not over: nothing to apply"
    first_play(service, room)
    service.act(room, 1, "resign", bots=False)
    assert room.game.state is GameState.OVER
    assert apply_result(store, room.game_id, rooms=service.rooms)
    after = (rating_of(store, ann.id, "rapid"), rating_of(store, ben.id, "rapid"))
    assert after[0] is not None and after[1] is not None
    assert after[0].rating > 1500 > after[1].rating and after[0].games == after[1].games == 1 and after[0].provisional
    # again, from this process or a fresh one: nothing changes
    assert not apply_result(store, room.game_id, rooms=service.rooms)
    assert not apply_result(store, room.game_id)
    assert (rating_of(store, ann.id, "rapid"), rating_of(store, ben.id, "rapid")) == after
    assert history_count(store, room.game_id) == 2
    with store.engine.connect() as connection:
        done, ended = connection.execute(select(GameTable.rated_done, GameTable.ended).where(GameTable.id == room.game_id)).one()
    assert done and ended

    # aborted: a resignation before anyone placed tiles or exchanged
    aborted = rated_game(service, [ann, ben])
    service.act(aborted, 0, "resign", bots=False)
    assert not apply_result(store, aborted.game_id, rooms=service.rooms)
    assert history_count(store, aborted.game_id) == 0
    # a seat no account holds (a bot's): not rated
    with_bot = rated_game(service, [cy, dee], bot=True)
    first_play(service, with_bot)
    service.act(with_bot, 1, "resign", bots=False)
    assert not apply_result(store, with_bot.game_id, rooms=service.rooms)
    assert ratings_of(store, cy.id) == {} and ratings_of(store, dee.id) == {}
    assert (rating_of(store, ann.id, "rapid"), rating_of(store, ben.id, "rapid")) == after

    # three accounts: OpenSkill, the player who resigned last
    three = rated_game(service, [cy, dee, ann], category="multiplayer")
    first_play(service, three)
    service.act(three, 1, "resign", bots=False)
    assert apply_result(store, three.game_id, rooms=service.rooms)
    cy_after, dee_after, ann_after = (rating_of(store, u.id, "multiplayer") for u in (cy, dee, ann))
    assert cy_after and dee_after and ann_after
    assert cy_after.rating > ann_after.rating > dee_after.rating
    assert rating_of(store, ann.id, "rapid") == after[0], "each category apart"


def test_processes_seeing_the_same_end_apply_it_once(sqlite_service: GameService) -> None:
    service, store = sqlite_service, sqlite_service.store
    ann, ben = accounts_named(store, "ann", "ben")
    room = rated_game(service, [ann, ben])
    first_play(service, room)
    service.act(room, 1, "resign", bots=False)
    # many "processes" at once, each with a store and rooms of its own on the same file
    assert _race(store.url, [room.game_id]) == [1]
    assert history_count(store, room.game_id) == 2
    ann_rating = rating_of(store, ann.id, "rapid")
    assert ann_rating is not None and ann_rating.games == 1


def _race(url: str, game_ids: list[str], count: int = 6) -> list[int]:
    """How many of ``count`` threads for each game, each thread with a store of its own, applied its result
    (all the threads started at once)."""
    jobs = [game_id for game_id in game_ids for _ in range(count)]
    stores = [Store(url, migrate_schema=False) for _ in jobs]
    rooms = [Rooms(store) for store in stores]
    for each, game_id in zip(rooms, jobs, strict=True):
        each.load(game_id)  # each thread's game in memory already: they reach the database together
    start = threading.Barrier(len(jobs))
    applied: dict[int, bool] = {}

    def apply(index: int) -> None:
        start.wait()
        applied[index] = apply_result(stores[index], jobs[index], rooms=rooms[index])

    threads = [threading.Thread(target=apply, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for store in stores:
        store.engine.dispose()
    assert len(applied) == len(jobs), "a thread failed"
    return [sum(applied[i] for i, game_id in enumerate(jobs) if game_id == wanted) for wanted in game_ids]


@pytest.mark.service
def test_on_postgresql_the_same_end_is_applied_once() -> None:
    with postgresql() as plain:
        url = "postgresql+psycopg://" + plain.removeprefix("postgresql://")
        service = GameService(Rooms(Store(url)))
        store = service.store
        ann, *others = accounts_named(store, "ann", "ben", "cyd", "dee")
        rooms = [rated_game(service, [ann, other]) for other in others]
        for room in rooms:
            first_play(service, room)
            service.act(room, 1, "resign", bots=False)
        # three games of ann's (her first rated ones), raced together: each applied once, no update of hers lost
        assert _race(url, [room.game_id for room in rooms], count=3) == [1, 1, 1]
        ann_rating = rating_of(store, ann.id, "rapid")
        assert ann_rating is not None and ann_rating.games == 3
        assert sorted(point.game_id for point in history_of(store, ann.id)) == sorted(room.game_id for room in rooms)
        store.engine.dispose()


# -- two accounts on a real server -----------------------------------------------------------


def log_in(server_url: str, name: str) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=server_url)
    answer = client.post("/api/login", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return client, answer.json()["csrf"]


def play_as(client: httpx.Client, csrf: str, game_id: str, action: str | None = None) -> None:
    """The account's action in the game: ``action``, or the best play its view shows."""
    if action is None:
        view = client.get(f"/api/games/{game_id}").json()
        assert view["you"] == view["turn"], view
        action = best_action(view)
    answer = client.post(f"/api/games/{game_id}/actions", json={"action": action}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 200, answer.text


def rated_between(store: Store, first: User, second: User) -> str:
    """A rated rapid game between two accounts, made as a seek will make it: straight into the store."""
    service = GameService(Rooms(store))
    room = rated_game(service, [first, second])
    return room.game_id


def test_two_accounts_play_a_rated_game_and_their_profiles_show_it(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = Store(f"sqlite:///{db}")
    ann, ben = accounts_named(store, "Ann", "Ben")
    # a rated game that ended while no server applied its result (ann won): the server applies it at start
    service = GameService(Rooms(store))
    earlier = rated_game(service, [ann, ben])
    first_play(service, earlier)
    service.act(earlier, 1, "resign", bots=False)
    assert rating_of(store, ann.id, "rapid") is None
    game_id = rated_between(store, ben, ann)  # ben moves first

    port = free_port()
    server = Server(f"http://127.0.0.1:{port}", port, db, launch(port, db, "--bot-workers", "0", "--analysis-workers", "0"))
    try:
        bens, ben_csrf = log_in(server.url, "ben")
        anns, ann_csrf = log_in(server.url, "ann")
        play_as(bens, ben_csrf, game_id)
        play_as(anns, ann_csrf, game_id, "resign")  # ben wins
        profiles = {}
        deadline = time.monotonic() + 20
        while True:  # the results are applied off the requests' path
            profiles = {name: httpx.get(f"{server.url}/api/users/{name}") for name in ("ann", "BEN")}
            if all(len(p.json()["history"].get("rapid", [])) == 2 for p in profiles.values()):
                break
            assert time.monotonic() < deadline, profiles["ann"].text
            time.sleep(0.2)
        ann_page, ben_page = profiles["ann"].json(), profiles["BEN"].json()
        assert ann_page["username"] == "Ann" and ben_page["username"] == "Ben"
        for page, wins, won_last in ((ann_page, 1, False), (ben_page, 1, True)):
            rapid = page["ratings"]["rapid"]
            assert rapid["games"] == 2 and rapid["provisional"] is True and 0 < rapid["deviation"] < 350
            history = page["history"]["rapid"]
            assert [point["game"] for point in history] == [earlier.game_id, game_id]
            assert (history[1]["rating"] > history[0]["rating"]) is won_last
            assert rapid["rating"] == history[1]["rating"]
            assert page["totals"]["games"] == 2 and page["totals"]["wins"] == wins
            last = page["games"][0]
            assert last["id"] == game_id and last["rated"] and last["category"] == "rapid"
            assert last["result"] == ("win" if won_last else "loss")
            assert (last["rating_change"] > 0) is won_last
            assert last["rating_change"] == pytest.approx(history[1]["rating"] - history[0]["rating"], abs=0.11)
        assert ann_page["history"]["rapid"][0]["rating"] > 1500 > ben_page["history"]["rapid"][0]["rating"]
        assert ann_page["games"][0]["opponents"] == ["Ben"] and ben_page["games"][1]["opponents"] == ["Ann"]
        ben_score = ben_page["games"][0]["score"]
        assert ben_page["games"][0]["scores"] == [ben_score, 0] and ben_score > 0
        assert ann_page["totals"]["average_score"] == pytest.approx(ann_page["games"][1]["score"] / 2, abs=0.05)
        assert ann_page["totals"]["bingos_per_game"] >= 0

        archive = httpx.get(f"{server.url}/api/users/ann/games.gcg")
        assert archive.status_code == 200 and archive.headers["content-disposition"] == 'attachment; filename="Ann.gcg"'
        records = list(gcg.read_games(io.StringIO(archive.text)))
        assert [record.id for record in records] == [f"tilebag {game_id}", f"tilebag {earlier.game_id}"]
        assert all(record.events[-1].kind is EventKind.RESIGN for record in records)
        assert [p.nickname for p in records[0].players] == ["Ben", "Ann"]

        # nothing private in a profile: no rack, no password hash, no session or CSRF secret
        secrets = [ann_csrf, ben_csrf, *(c.value for c in anns.cookies.jar), *(c.value for c in bens.cookies.jar)]
        for answer in (profiles["ann"], profiles["BEN"]):
            text = answer.text
            assert '"rack' not in text and "argon2" not in text and "email" not in text and "token" not in text
            assert not [s for s in secrets if s in text]
        assert not [s for s in secrets if s in archive.text] and "argon2" not in archive.text
        # an unknown or malformed name: the same 404
        missing = [httpx.get(f"{server.url}/api/users/{name}") for name in ("nobody", "<script>", "a" * 300, "x%00y")]
        assert {m.status_code for m in missing} == {404} and len({m.text for m in missing}) == 1
        assert httpx.get(f"{server.url}/api/users/nobody/games.gcg").status_code == 404

        # the same end applied again, from this process: nothing changes
        assert not apply_result(store, game_id)
        assert httpx.get(f"{server.url}/api/users/ann").json() == ann_page
    finally:
        server.process.terminate()
        try:
            log = server.process.communicate(timeout=10)[0]
        except subprocess.TimeoutExpired:
            server.process.kill()
            log = ""
    assert f"rated game {earlier.game_id}" in log and f"rated game {game_id}" in log
    assert PASSWORD not in log and not [s for s in secrets if s in log]
