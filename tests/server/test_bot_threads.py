"""How many threads a server's bots search their endgames on: the
``--bot-threads`` setting, carried to the worker processes the bots think
in, and the same move on any number."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tilebag.engine.players import StaticPlayer
from tilebag.formats import gcg
from tilebag.game import Game
from tilebag.server.thinking import Thinkers, _think


def endgame_record(seed: int) -> tuple[str, int]:
    """A static self-play game played to its empty bag, as the record the
    player to move sees, and that player's seat."""
    game = Game(["ann", "champion"], seed=seed)
    bot = StaticPlayer("bot")
    while len(game.bag) and not game.is_over():
        game.push(bot.choose(game))
    assert not game.is_over()
    return gcg.dumps(game.record()), game.turn


def test_a_champion_answers_alike_on_one_thread_and_on_three() -> None:
    record, seat = endgame_record(6)
    one = _think(record, None, "champion", "champion", seat, 6, 1)
    three = _think(record, None, "champion", "champion", seat, 6, 3)
    assert one is not None and one == three


def test_the_setting_reaches_the_bots_worker_processes() -> None:
    record, seat = endgame_record(6)
    thinkers = Thinkers(workers=1, threads=2)
    try:
        assert thinkers.threads == 2 and thinkers.bot("champion", "champion").choose is not None
        assert thinkers.think(record, None, "champion", "champion", seat, 6) == _think(record, None, "champion", "champion", seat, 6, 1)
    finally:
        thinkers.close()


@pytest.mark.parametrize("value", ["0", "65", "many"])
def test_a_bot_threads_setting_out_of_range_is_refused(value: str) -> None:
    run = subprocess.run([sys.executable, "-m", "tilebag", "serve", "--bot-threads", value], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--bot-threads" in run.stderr and "Traceback" not in run.stderr
