"""The server's store on its own: what two processes sharing a database see."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the store needs the server extra")

from tilebag.server.store import SeatRow, StaleError, Store  # noqa: E402


def test_two_stores_on_one_database_cannot_both_store_the_same_next_action(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first, second = Store(url), Store(url, migrate_schema=False)
    game = first.create_game({"rules": "standard"}, 7, [SeatRow(0, "alice", "person", None, "h"), SeatRow(1, "bob", "person", None, "i")])
    assert first.add_action(game, 0, "move", "8D WORD", 1.0, after=0) == 1
    with pytest.raises(StaleError):
        second.add_action(game, 1, "move", "E5 OWL", 2.0, after=0)  # it had not seen action 1
    assert second.add_action(game, 1, "chat", "hello", None) == 2  # no expectation: the next free number
    assert [(a.seq, a.seat, a.kind, a.text) for a in first.actions(game)] == [
        (1, 0, "move", "8D WORD"),
        (2, 1, "chat", "hello"),
    ]
    assert [a.seq for a in second.actions(game, after=1)] == [2]


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


def test_the_analysis_queue_on_a_real_postgresql() -> None:
    from services import postgresql

    with postgresql() as database:
        _claim_all_from_two_stores("postgresql+psycopg://" + database.removeprefix("postgresql://"))
