"""Inferring the opponent's leave from its last play, and simulations that
deal the leaves found."""

from __future__ import annotations

from collections import Counter

import pytest

from tilebag import Game
from tilebag.alphabet import rack_tile
from tilebag.engine.montecarlo import sim
from tilebag.engine.montecarlo.inference import infer_from_game, infer_leaves
from tilebag.engine.montecarlo.sim import SimPlayer
from tilebag.engine.movegen.generator import MoveGenerator, native_available
from tilebag.engine.players import StaticPlayer, engine_for
from tilebag.move import Move
from tilebag.record import EventKind

needs_native = pytest.mark.skipif(not native_available(), reason="the compiled core is not built")


def after_static_play(seed: int, turns: int) -> Game:
    """A static self-play game just after the static player's placement."""
    static = StaticPlayer("static")
    game = Game(["a", "b"], seed=seed)
    while not game.is_over():
        game.push(static.choose(game))
        last = game.events[-1]
        if len(game.events) >= turns and last.kind is EventKind.PLACE and len(last.move.tiles_used) < 7:  # type: ignore[union-attr]
            return game
    raise AssertionError(f"no placement after turn {turns} in game {seed}")


def test_every_leave_kept_makes_the_play_the_static_players_best() -> None:
    """Checked against the full list of plays of each rack: with the leave
    found, no play is worth more than the play made; every leave comes from
    the unseen tiles and has the size the opponent kept."""
    game = after_static_play(11, 6)
    engine = engine_for(game, None, StaticPlayer("static").leave_values(game))
    last = game.events[-1]
    assert last.move is not None
    found = infer_from_game(game, engine, seed=3, samples=400, seconds=10)
    assert found is not None and found.tried == 400 and 0 < len(found.leaves) < found.tried
    played = [rack_tile(t) for t in last.move.tiles_used]
    board = game.board.copy()
    board.remove(last.move)
    unseen = Counter(game.unseen(game.turn))
    bag_before = len(game.bag) + len(played)
    for leave in set(found.leaves):
        assert len(leave) == len(game.rack(1 - game.turn)) - len(played) and not Counter(leave) - unseen
        rack = played + list(leave)
        plays = engine.plays(board, rack, bag_count=bag_before)
        made = engine.equity(last.move, last.score, rack, bag_count=bag_before)
        assert plays[0].equity <= made or plays[0].move == last.move


def test_drawing_stops_once_enough_leaves_are_kept() -> None:
    game = after_static_play(11, 6)
    engine = engine_for(game, None, StaticPlayer("static").leave_values(game))
    found = infer_from_game(game, engine, seed=3, samples=4000, seconds=10, enough=25)
    assert found is not None and len(found.leaves) == 25 and found.tried < 4000


def test_a_margin_keeps_more_leaves() -> None:
    game = after_static_play(12, 5)
    engine = engine_for(game, None, StaticPlayer("static").leave_values(game))
    exact = infer_from_game(game, engine, seed=4, samples=400, seconds=10)
    loose = infer_from_game(game, engine, seed=4, samples=400, seconds=10, margin=8)
    assert exact is not None and loose is not None
    assert len(loose.leaves) > len(exact.leaves) and set(exact.leaves) <= set(loose.leaves)


@pytest.mark.slow
def test_the_leave_really_kept_is_never_ruled_out() -> None:
    """Over static self-play, whenever the leave the opponent really kept is
    among those drawn, it is among those kept; and most leaves drawn are
    ruled out, so the leaves kept say something."""
    static = StaticPlayer("static")
    drawn_true = kept_true = 0
    shares = []
    for seed in range(3):
        game = Game(["a", "b"], seed=seed)
        while not game.is_over():
            engine = engine_for(game, None, static.leave_values(game))
            inference = infer_from_game(game, engine, seed=seed, samples=400, seconds=10)
            if inference is not None:
                last = game.events[-1]
                assert last.rack is not None and last.move is not None
                played = [rack_tile(t) for t in last.move.tiles_used]
                true = tuple(sorted((Counter(last.rack) - Counter(played)).elements()))
                board = game.board.copy()
                board.remove(last.move)
                drawn = infer_leaves(  # with any margin every leave drawn is kept: the same draws, unfiltered
                    engine, board, last.move, last.score, game.unseen(game.turn), len(true),
                    bag_count=len(game.bag) + len(played), seed=seed, margin=10_000, samples=400, seconds=10,
                ).leaves
                assert set(inference.leaves) <= set(drawn)
                drawn_true += true in drawn
                kept_true += true in inference.leaves
                shares.append(inference.share)
            game.push(static.choose(game))
    assert drawn_true >= 10 and kept_true == drawn_true
    assert sum(shares) / len(shares) < 0.6


def test_the_inference_sees_only_what_the_player_to_move_sees() -> None:
    """The opponent's rack swapped for other unseen tiles: the same leaves."""
    game = after_static_play(13, 4)
    engine = engine_for(game, None, StaticPlayer("static").leave_values(game))
    before = infer_from_game(game, engine, seed=5, samples=400, seconds=10)
    other = 1 - game.turn
    swapped = sorted(game.bag.tiles())[: len(game.rack(other))]
    game.set_rack(other, swapped)
    assert sorted(game.rack(other)) == swapped
    assert infer_from_game(game, engine, seed=5, samples=400, seconds=10) == before


def test_nothing_is_inferred_after_an_exchange_a_pass_or_a_bingo() -> None:
    game = Game(["a", "b"], seed=14)
    engine = game.engine
    assert infer_from_game(game, engine, seed=1) is None  # no play yet
    game.push(Move.exchange(game.rack()[:3]))
    assert infer_from_game(game, engine, seed=1) is None
    game.push(Move.pass_())
    assert infer_from_game(game, engine, seed=1) is None
    with pytest.raises(ValueError, match="placement"):
        infer_leaves(engine, game.board, Move.pass_(), 0, game.unseen(0), 3, bag_count=80, seed=1)
    with pytest.raises(ValueError, match="unseen"):
        infer_leaves(engine, game.board, Move.from_gcg("8H AB"), 5, game.unseen(0)[:2], 3, bag_count=80, seed=1)


def test_each_iteration_deals_the_opponent_a_kept_leave_in_turn() -> None:
    game = after_static_play(15, 6)
    me = game.turn
    leaves = tuple(tuple(sorted(game.unseen(me)[i : i + 2])) for i in (0, 5))
    job = sim._Job(game.position(), tuple(game.unseen(me)), len(game.rack(1 - me)), 2, None, 0, 99, leaves)
    deals = sim._deals(job, range(5))
    assert [kept for kept, _, _ in deals] == [leaves[0], leaves[1], leaves[0], leaves[1], leaves[0]]
    for kept, unseen, seeds in deals:
        assert len(seeds) == 1 and Counter(unseen) + Counter(kept) == Counter(game.unseen(me))


@needs_native
def test_the_compiled_rollouts_deal_the_kept_leaves_as_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    game = after_static_play(16, 6)
    engine = engine_for(game, None, StaticPlayer("static").leave_values(game))
    me = game.turn
    found = infer_from_game(game, engine, seed=2, samples=400, seconds=10)
    assert found is not None and found.leaves
    plays = engine.plays(game.board, game.rack(), bag_count=len(game.bag), top=5)
    moves = [(play.move, play.score) for play in plays]
    job = sim._Job(game.position(), tuple(game.unseen(me)), len(game.rack(1 - me)), 2, None,
                   game.scores[me] - game.scores[1 - me], 77, found.leaves[:3])
    compiled = sim._iterations(engine, job, moves, range(7))
    with monkeypatch.context() as patch:
        patch.setattr(MoveGenerator, "native_rollouts", lambda *args, **kwargs: None)
        assert compiled == sim._iterations(engine, job, moves, range(7))
    uninformed = sim._Job(*[getattr(job, f) for f in ("position", "unseen", "opponent_size", "plies", "wins", "spread_before", "seed")])
    assert compiled != sim._iterations(engine, uninformed, moves, range(7))


@needs_native
def test_the_compiled_rollouts_refuse_a_kept_leave_that_does_not_fit() -> None:
    game = after_static_play(17, 4)
    engine = engine_for(game, None, StaticPlayer("static").leave_values(game))
    core = engine.generator._native_core()
    rack, unseen = bytes(game.rack()), bytes(game.unseen(game.turn))
    candidate = (2, 0, 0, False, b"", 0)  # the pass
    assert len(core.rollouts(bytes(game.board.tiles), rack, 5, unseen, [candidate], [1], 2, None, 7, 0, 4, 7, None, unseen[:2])) == 1
    for kept in (unseen[:12], bytes([99])):
        with pytest.raises(ValueError):
            core.rollouts(bytes(game.board.tiles), rack, 5, unseen, [candidate], [1], 2, None, 7, 0, 4, 7, None, kept)


def test_a_sim_bot_uses_the_inference_and_can_be_told_not_to() -> None:
    game = after_static_play(18, 6)
    informed = SimPlayer("sim", seconds=5, iterations=16, seed=1)
    blind = SimPlayer("sim", seconds=5, iterations=16, seed=1, infer=None)
    assert informed.choose(game) in game.legal_moves and blind.choose(game) in game.legal_moves
    assert informed.last is not None and blind.last is not None
    assert [c.values for c in informed.last.candidates + informed.last.dropped] != [
        c.values for c in blind.last.candidates + blind.last.dropped
    ]


def test_a_spec_sets_the_inference_margin_or_turns_it_off() -> None:
    from tilebag.engine.bots.specs import BotSpecError, parse_bot_spec

    made = [parse_bot_spec(text).make("s") for text in ("sim", "sim:infer=5", "sim:infer=off")]
    assert [bot.infer for bot in made if isinstance(bot, SimPlayer)] == [0.0, 5.0, None]
    for bad in ("sim:infer=-1", "sim:infer=lots"):
        with pytest.raises(BotSpecError, match="infer is points from 0, or off"):
            parse_bot_spec(bad)
