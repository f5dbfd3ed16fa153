"""The opening adjustment: vowels beside letter premiums cost a first play."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import tilebag.engine as engine_module
from tilebag.board import Board
from tilebag.engine import Engine
from tilebag.engine.bots.specs import BotSpecError, parse_bot_spec
from tilebag.engine.equity.opening import OPENING_PENALTY, HotSquares, adjust_opening
from tilebag.engine.movegen.generator import native_available
from tilebag.engine.players import StaticPlayer
from tilebag.game import Game
from tilebag.layout import load_layout
from tilebag.lexicon import default_lexicon
from tilebag.move import Move
from tilebag.rules import Rules


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.for_lexicon(default_lexicon())


def test_the_hot_squares_of_the_standard_board() -> None:
    layout = load_layout("standard")
    hot = HotSquares.of(layout)
    row8 = {layout.square_name(s) for s in hot.across if s // layout.cols == 7}
    assert row8 == {"C8", "G8", "I8", "M8"}, "row 7 and row 9 have their double letters in C, G, I and M"
    transposed = {layout.square(s % layout.cols, s // layout.cols) for s in hot.across}
    assert transposed == hot.down, "the board is symmetric, so down plays' squares mirror across plays'"


def test_a_blank_counts_as_the_vowel_it_stands_for() -> None:
    board = Board()
    hot = HotSquares.of(board.layout)
    assert hot.vowels(Move.from_gcg("8G AIRTH"), board.alphabet) == 1
    assert hot.vowels(Move.from_gcg("8G aIRTH"), board.alphabet) == 1
    assert hot.vowels(Move.from_gcg("H8 AIRTH"), board.alphabet) == 1, "down: I on H9, beside G9 and I9"
    assert hot.vowels(Move.exchange([1, 5]), board.alphabet) == 0


def test_the_engine_takes_the_penalty_off_first_plays_only(engine: Engine) -> None:
    board = Board()
    rack = board.alphabet.parse_rack("AEIRTHS")
    plain = engine.with_opening_penalty(0)
    unadjusted = list(plain.plays(board, rack, bag_count=86))
    assert unadjusted == list(
        engine.generator.generate(board, rack, leaves=engine.leaves, bag_count=86, exchanges=True)
    )
    adjusted = list(engine.plays(board, rack, bag_count=86))
    hot = HotSquares.of(board.layout)
    by_move = {play.move: play for play in unadjusted}
    assert len(adjusted) == len(unadjusted)
    penalised = 0
    for play in adjusted:
        vowels = hot.vowels(play.move, board.alphabet)
        assert play.equity == by_move[play.move].equity - OPENING_PENALTY * vowels
        penalised += vowels > 0
    assert penalised > 100
    assert adjusted == adjust_opening(unadjusted, board.layout, board.alphabet, OPENING_PENALTY)
    assert list(engine.plays(board, rack, bag_count=86, top=5)) == adjusted[:5]
    board.place(adjusted[0].move)
    rack = board.alphabet.parse_rack("AEIOUST")
    assert list(engine.plays(board, rack, bag_count=79)) == list(plain.plays(board, rack, bag_count=79)), (
        "only a first play is adjusted"
    )


@pytest.mark.parametrize("fetch", [64, 1], ids=["best-64-first", "often-all"])
def test_the_best_few_first_plays_are_the_head_of_the_adjusted_list(
    engine: Engine, fetch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine reads only the best few plays of an empty board when they
    settle the adjusted best; with few fetched it must read them all, and
    either way gives the head of the fully adjusted list."""
    monkeypatch.setattr(engine_module, "OPENING_FETCH", fetch)
    board = Board()
    rng = random.Random(fetch)
    for _ in range(40):
        bag = board.alphabet.distribution()
        rng.shuffle(bag)
        rack = bag[:7]
        full = list(engine.plays(board, rack, bag_count=86))
        for top in (1, 3, 10):
            assert list(engine.plays(board, rack, bag_count=86, top=top)) == full[:top], (rack, top)


@pytest.mark.parametrize("core", ["python", "native"])
def test_with_a_short_bag_the_best_first_plays_are_still_the_head_of_the_list(core: str) -> None:
    """Exchanges of more tiles than the bag holds are dropped after the
    ranking: the adjusted list must not be cut before."""
    if core == "native" and not native_available():
        pytest.skip("the compiled core was not built in this installation")
    engine = Engine.for_lexicon(default_lexicon(), Rules(exchange_min_bag=1), core=core)
    board = Board()
    rack = board.alphabet.parse_rack("QVVWWUU")
    full = list(engine.plays(board, rack, bag_count=3))
    assert full and all(len(play.move.tiles) <= 3 for play in full if play.move.is_exchange)
    for top in (1, 2, 5, 20):
        assert list(engine.plays(board, rack, bag_count=3, top=top)) == full[:top]


def test_the_static_bot_s_opening_penalty_is_a_spec_option() -> None:
    player = parse_bot_spec("static:opening=0").make()
    assert isinstance(player, StaticPlayer) and player.opening_penalty == 0
    game = Game(["a", "b"], seed=4)
    assert player.engine(game).opening_penalty == 0
    assert StaticPlayer().engine(game).opening_penalty == OPENING_PENALTY
    assert parse_bot_spec("static:opening=1.5").make().opening_penalty == 1500  # type: ignore[attr-defined]
    for bad in ("static:opening=-1", "static:opening=lots"):
        with pytest.raises(BotSpecError, match="opening"):
            parse_bot_spec(bad)


def test_bench_opening_measures_each_penalty_against_none() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tilebag",
            "bench",
            "opening",
            "--openings",
            "12",
            "--replies",
            "3",
            "--penalties",
            "2,5",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [gain["penalty"] for gain in result["gains"]] == [2.0, 5.0]
    assert all(gain["openings"] >= 10 and gain["changed"] <= gain["openings"] for gain in result["gains"])
    bad = subprocess.run(
        [sys.executable, "-m", "tilebag", "bench", "opening", "--penalties", "x"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "--penalties" in bad.stderr
