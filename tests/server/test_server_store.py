"""The server's store on its own: what two processes sharing a database see."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the store needs the server extra")

from tilebag.server.store import GameNotFoundError, SeatRow, Store  # noqa: E402


def _pg(url: str) -> str:
    return "postgresql+psycopg://" + url.removeprefix("postgresql://")


def _one_change_at_a_time(url: str) -> None:
    """Two processes' changes to one game take turns under the game's row
    lock, and the second reads what the first stored before it judges."""
    first, second = Store(url), Store(url, migrate_schema=False)
    seats = [SeatRow(0, "alice", "person", None, "h"), SeatRow(1, "bob", "person", None, "i")]
    game = first.create_game({"rules": "standard"}, 7, seats)
    holding, release = threading.Event(), threading.Event()
    seen: list[list[int]] = []

    def slow() -> None:
        with first.locked(game) as log:
            log.append(0, "move", "8D WORD", 1.0, client_id="c1")
            holding.set()
            release.wait(10)

    def other() -> None:
        with second.locked(game) as log:
            seen.append([action.seq for action in log.since(0)])
            log.append(1, "chat", "hello")

    one = threading.Thread(target=slow)
    one.start()
    assert holding.wait(10)
    two = threading.Thread(target=other)
    two.start()
    time.sleep(0.5)
    assert seen == []  # waiting for the first change to commit
    release.set()
    one.join(10)
    two.join(10)
    assert seen == [[1]]
    assert [(a.seq, a.seat, a.kind, a.text) for a in first.actions(game)] == [(1, 0, "move", "8D WORD"), (2, 1, "chat", "hello")]
    with pytest.raises(RuntimeError), second.locked(game) as log:  # a change that fails stores nothing
        log.append(0, "move", "9D NOPE")
        raise RuntimeError("refused")
    with second.locked(game) as log:
        assert log.repeated("c1") and not log.repeated("c2") and log.last == 2
    with pytest.raises(GameNotFoundError), first.locked("no-such-game"):
        pass
    big = first.create_game({"rules": "standard"}, 2**63 - 1, seats)  # a seed as the server draws them, and larger
    assert second.game(big) == ({"rules": "standard"}, 2**63 - 1, "playing")


def test_changes_to_one_game_take_turns_on_sqlite(tmp_path: Path) -> None:
    _one_change_at_a_time(f"sqlite:///{tmp_path / 'games.db'}")


@pytest.mark.service
def test_changes_to_one_game_take_turns_on_a_real_postgresql() -> None:
    from services import postgresql

    with postgresql() as database:
        _one_change_at_a_time(_pg(database))


def _leases(url: str) -> None:
    store = Store(url)
    seats = [SeatRow(0, "alice", "person", None, "h"), SeatRow(1, "Static bot", "bot", "static", None)]
    game = store.create_game({"rules": "standard"}, 3, seats, bot_due=False)
    assert store.waiting_bots() == []
    with store.locked(game) as log:
        log.set_bot_due(True)
    assert store.waiting_bots() == [game]
    assert store.claim_bot_turn(game, "process a", 30) and store.claim_bot_turn(game, "process a", 30)
    assert not store.claim_bot_turn(game, "process b", 30)  # a live process holds it
    assert store.waiting_bots() == []
    store.renew_leases("process a", -1)  # process a stopped renewing, long ago
    assert store.waiting_bots() == [game] and store.claim_bot_turn(game, "process b", 30)
    store.release_bot_turn(game, "process a")  # too late: b holds it now
    assert not store.claim_bot_turn(game, "process a", 30)
    store.release_bot_turn(game, "process b")
    assert store.claim_bot_turn(game, "process a", 30)
    store.clear_leases()
    assert store.claim_bot_turn(game, "process c", 30)
    store.set_damaged(game, "action 3 does not replay")
    assert store.waiting_bots() == [] and [(d.game_id, d.damage) for d in store.damaged()] == [(game, "action 3 does not replay")]
    assert store.lobby() == []


def test_bots_turns_are_leases_any_live_process_may_take_over(tmp_path: Path) -> None:
    _leases(f"sqlite:///{tmp_path / 'games.db'}")


@pytest.mark.service
def test_bots_turns_are_leases_on_a_real_postgresql() -> None:
    from services import postgresql

    with postgresql() as database:
        _leases(_pg(database))


def test_the_lobby_lists_games_not_over_without_rebuilding_them(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    seats = [SeatRow(0, "alice", "person", None, "h"), SeatRow(1, "Static bot", "bot", "static", None)]
    running = store.create_game({"rules": "standard"}, 1, seats)
    finished = store.create_game({"rules": "standard"}, 2, seats)
    store.set_status(finished, "over")
    listed = store.lobby()
    assert [game_id for game_id, *_ in listed] == [running]
    assert listed[0][3] == seats and listed[0][2] == "playing"


def _claim_all_from_two_stores(url: str) -> None:
    first, second = Store(url), Store(url, migrate_schema=False)
    games = [first.create_game({"rules": "standard"}, n, [SeatRow(0, "a", "person", None, "h")]) for n in range(30)]
    for game in games:
        assert first.queue_analysis(game)
    assert not second.queue_analysis(games[0])  # once in the queue
    taken: dict[str, list[str]] = {"first": [], "second": []}

    def claim(name: str, store: Store) -> None:
        while batch := store.claim_analyses(name, limit=3):
            taken[name] += batch

    workers = [threading.Thread(target=claim, args=(name, store)) for name, store in (("first", first), ("second", second))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sorted(taken["first"] + taken["second"]) == sorted(games)  # every game taken, and by one store only
    assert first.claim_analyses("third") == []
    first.finish_analysis(games[0], result={"turns": []})
    second.finish_analysis(games[1], error="the record is not a game")
    done, failed = second.analysis(games[0]), first.analysis(games[1])
    assert done is not None and done.status == "done" and done.result == {"turns": []}
    assert failed is not None and failed.status == "failed" and failed.error == "the record is not a game"
    # an analysis taken by a process that died is taken again once it is stale
    assert sorted(first.claim_analyses("late", limit=100, stale_after=0.0)) == sorted(games[2:])


def test_two_stores_share_the_analysis_queue_and_never_take_a_game_twice(tmp_path: Path) -> None:
    _claim_all_from_two_stores(f"sqlite:///{tmp_path / 'games.db'}")


@pytest.mark.service
def test_the_analysis_queue_on_a_real_postgresql() -> None:
    from services import postgresql

    with postgresql() as database:
        _claim_all_from_two_stores(_pg(database))


def _upgrade_from_0002(url: str) -> None:
    """A database the last release made (schema 0002, a game with an action) is migrated at start, its games intact."""
    from importlib import resources

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    config = Config()
    config.set_main_option("script_location", str(resources.files("tilebag.server") / "migrations"))
    config.set_main_option("sqlalchemy.url", url)
    command.upgrade(config, "0002")
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO games VALUES ('old', '2026-01-01', '{\"rules\": \"standard\"}', 12345, 'playing')"))
        connection.execute(text("INSERT INTO seats VALUES ('old', 0, 'alice', 'person', NULL, 'h'), ('old', 1, 'bob', 'person', NULL, 'i')"))
        connection.execute(text("INSERT INTO actions VALUES ('old', 1, 0, 'chat', 'hello', NULL, '2026-01-01')"))
    engine.dispose()
    store = Store(url)
    assert store.game("old") == ({"rules": "standard"}, 12345, "playing")
    with store.locked("old") as log:
        assert [a.text for a in log.since(0)] == ["hello"]
        log.append(1, "chat", "hi", client_id="b1")
    assert store.waiting_bots() == [] and store.damaged() == []


def test_a_database_of_the_last_schema_is_migrated_with_its_games(tmp_path: Path) -> None:
    _upgrade_from_0002(f"sqlite:///{tmp_path / 'games.db'}")


@pytest.mark.service
def test_a_database_of_the_last_schema_is_migrated_on_a_real_postgresql() -> None:
    from services import postgresql

    with postgresql() as database:
        _upgrade_from_0002(_pg(database))


def test_the_migrations_build_the_schema_the_tables_describe(tmp_path: Path) -> None:
    """The tables in ``store`` and the Alembic migrations say the same: a
    column, index or type added to one and not the other fails here."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from tilebag.server.store import Base

    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata)
    assert differences == []
