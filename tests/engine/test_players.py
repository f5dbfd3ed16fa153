"""The bots: what each one chooses, and complete games that stay within the rules."""

from __future__ import annotations

import pytest

from gamestate import assert_tiles_accounted
from tilebag.engine.bots import make_bot
from tilebag.engine.equity.leaves import load_leaves
from tilebag.engine.equity.opening import OPENING_PENALTY, adjust_opening
from tilebag.engine.players import GreedyPlayer, Player, StaticPlayer
from tilebag.formats import gcg, replay
from tilebag.game import Game
from tilebag.lab.selfplay import play_game, run_selfplay, wilson_interval
from tilebag.lexicon import AcceptAll, WordList
from tilebag.move import MoveKind


def test_greedy_plays_the_highest_score_and_static_the_best_equity() -> None:
    game = Game(["a", "b"], seed=11, first=0)
    game.set_rack(0, "QUIZERS")
    plays = game.engine.generator.generate(game.board, game.rack(), leaves=load_leaves(), bag_count=len(game.bag))
    greedy = GreedyPlayer().choose(game)
    assert game.score(greedy) == max(play.score for play in plays)
    static = StaticPlayer().choose(game)
    best = adjust_opening(plays, game.board.layout, game.alphabet, OPENING_PENALTY)[0]  # the first play's adjustment
    assert static == best.move


def test_static_exchanges_a_hopeless_rack() -> None:
    game = Game(["a", "b"], seed=2, first=0)
    game.set_rack(0, "QVVWWUU")
    move = StaticPlayer().choose(game)
    assert move.kind is MoveKind.EXCHANGE


def test_a_bot_with_no_play_exchanges_or_passes() -> None:
    game = Game(["a", "b"], seed=2, first=0, lexicon=WordList(["ZZZ"]))
    assert GreedyPlayer().choose(game).kind is MoveKind.EXCHANGE
    assert StaticPlayer().choose(game).kind is MoveKind.EXCHANGE


def test_bots_need_a_word_graph() -> None:
    game = Game(["a", "b"], seed=2, lexicon=AcceptAll())
    with pytest.raises(TypeError, match="word graph"):
        GreedyPlayer().choose(game)


def test_make_bot_names_the_known_kinds() -> None:
    assert isinstance(make_bot("Static"), StaticPlayer)
    assert isinstance(make_bot("greedy", "g"), Player)
    with pytest.raises(ValueError, match="greedy, static"):
        make_bot("genius")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bot_games_end_within_the_rules_and_replay_exactly(seed: int) -> None:
    bots = [StaticPlayer("s"), GreedyPlayer("g")]
    game = Game(["s", "g"], seed=seed)
    while not game.is_over():
        game.push(bots[game.turn].choose(game))
        assert_tiles_accounted(game)
    record = game.record()
    report = replay.check(gcg.loads(gcg.dumps(record)))
    assert not report.errors, report.errors
    assert report.game is not None and report.game.scores == game.scores


def test_four_bots_play_to_the_end() -> None:
    game = play_game([StaticPlayer(f"s{i}") for i in range(4)], seed=4)
    assert game.is_over()
    assert not replay.check(gcg.loads(gcg.dumps(game.record()))).errors


def test_selfplay_summary_counts_every_game() -> None:
    summary = run_selfplay(["static", "static"], games=2, seed=9)
    assert [bot.name for bot in summary.bots] == ["static1", "static2"]
    assert sum(bot.wins for bot in summary.bots) == 2
    assert all(bot.games == 2 for bot in summary.bots)
    low, high = summary.bots[0].win_interval()
    assert 0.0 <= low <= summary.bots[0].wins / 2 <= high <= 1.0


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == 1.0 and 0.6 < low < 0.8
