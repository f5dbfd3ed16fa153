"""A simulation's rollouts in the compiled core: the same deals and the same
values as the reference rollouts in :mod:`tilebag.engine.montecarlo.sim`, and bad
input refused."""

from __future__ import annotations

from collections import Counter

import pytest

from tilebag import Game
from tilebag.alphabet import rack_tile
from tilebag.engine import Engine
from tilebag.engine.equity.winpct import WinTable
from tilebag.engine.montecarlo import sim
from tilebag.engine.movegen.generator import MoveGenerator, native_available
from tilebag.engine.players import StaticPlayer, engine_for
from tilebag.move import Move

needs_native = pytest.mark.skipif(not native_available(), reason="the compiled core is not built")


def positions(seeds: range, *, small_bag: bool, left: int = 8) -> list[Game]:
    """Static self-play games stopped in the middle game, or with ``left`` tiles or fewer in the bag."""
    static = StaticPlayer("static")
    found = []
    for seed in seeds:
        game = Game(["a", "b"], seed=seed)
        while not game.is_over() and (len(game.bag) > left if small_bag else len(game.events) < 4 + seed % 5):
            game.push(static.choose(game))
        if not game.is_over() and len(game.bag):
            found.append(game)
    return found


def job_and_moves(game: Game, engine: Engine, plies: int, wins: WinTable | None) -> tuple[sim._Job, list[tuple[Move, int]]]:
    me = game.turn
    plays = engine.plays(game.board, game.rack(), bag_count=len(game.bag), top=6)
    moves = [(play.move, play.score) for play in plays] + [(Move.pass_(), 0)]
    if len(game.bag) >= 7:
        moves.append((Move.exchange(sorted(game.rack())[:3]), 0))
    job = sim._Job(game.position(), tuple(game.unseen(me)), len(game.rack(1 - me)), plies, wins,
                   game.scores[me] - game.scores[1 - me], 1234 + len(game.events))
    return job, moves


@needs_native
@pytest.mark.parametrize("small_bag", [False, True])
def test_the_compiled_rollouts_give_the_reference_values(small_bag: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every candidate of every iteration, with the win table and without,
    for one to three plies: placements, the pass and an exchange, in the
    middle game and with the bag nearly empty (where rollouts go out and
    leaves count against the player)."""
    static = StaticPlayer("static")
    compared = 0
    for number, game in enumerate(positions(range(40, 44), small_bag=small_bag)):
        engine = engine_for(game, None, static.leave_values(game))
        assert engine.core == "native"
        for wins in (None, WinTable.load()):
            job, moves = job_and_moves(game, engine, 1 + number % 3, wins)
            compiled = sim._iterations(engine, job, moves, range(5))
            with monkeypatch.context() as patch:
                patch.setattr(MoveGenerator, "native_rollouts", lambda *args, **kwargs: None)
                reference = sim._iterations(engine, job, moves, range(5))
            assert compiled == reference
            compared += 1
    assert compared >= 6


@needs_native
def test_candidates_that_keep_the_same_tiles_roll_out_as_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled core shares the work of searches with one rack on
    boards that differ around a play: the opponent's first reply (one
    rack for every candidate of an iteration) and the player's next after
    candidates that keep the same tiles (they draw the same ones). With
    many such candidates (the same tiles in several places), over two and
    three plies, no value changes."""
    static = StaticPlayer("static")
    shared = 0
    for game in positions(range(90, 96), small_bag=False):
        engine = engine_for(game, None, static.leave_values(game))
        plays = engine.plays(game.board, game.rack(), bag_count=len(game.bag), top=60)
        by_leave: dict[tuple[int, ...], list[tuple[Move, int]]] = {}
        for play in plays:
            used = Counter(rack_tile(tile) for tile in play.move.tiles_used)
            by_leave.setdefault(tuple(sorted((Counter(game.rack()) - used).elements())), []).append((play.move, play.score))
        moves = [move for group in by_leave.values() if len(group) > 1 for move in group[:4]][:16]
        shared += len(moves)
        for plies in (2, 3):
            job, _ = job_and_moves(game, engine, plies, WinTable.load())
            compiled = sim._iterations(engine, job, moves, range(6))
            with monkeypatch.context() as patch:
                patch.setattr(MoveGenerator, "native_rollouts", lambda *args, **kwargs: None)
                assert compiled == sim._iterations(engine, job, moves, range(6))
    assert shared >= 30


@needs_native
def test_rollouts_that_end_the_game_count_the_racks_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a tile or two in the bag, four plies often end the game: a side
    goes out and gains the other's rack, or the racks are counted after the
    scoreless turns. The compiled rollouts count them as the reference."""
    static = StaticPlayer("static")
    for game in positions(range(70, 76), small_bag=True, left=2):
        engine = engine_for(game, None, static.leave_values(game))
        job, moves = job_and_moves(game, engine, 4, None)
        compiled = sim._iterations(engine, job, moves, range(6))
        with monkeypatch.context() as patch:
            patch.setattr(MoveGenerator, "native_rollouts", lambda *args, **kwargs: None)
            assert compiled == sim._iterations(engine, job, moves, range(6))


@needs_native
def test_late_rollouts_play_to_the_end_of_the_game_in_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """With seven tiles or fewer in the bag a simulation's rollouts play to
    the end: more plies than :data:`sim.TO_THE_END` change nothing, every
    value is a final spread (the racks counted, no leave left to value),
    and the compiled core gives the reference's values."""
    static = StaticPlayer("static")
    checked = 0
    for game in positions(range(80, 84), small_bag=True, left=sim.LATE_BAG):
        engine = engine_for(game, None, static.leave_values(game))
        job, moves = job_and_moves(game, engine, sim.TO_THE_END, None)
        longer, _ = job_and_moves(game, engine, 2 * sim.TO_THE_END, None)
        shorter, _ = job_and_moves(game, engine, 2, None)
        compiled = sim._iterations(engine, job, moves, range(4))
        assert compiled == sim._iterations(engine, longer, moves, range(4))
        assert compiled != sim._iterations(engine, shorter, moves, range(4))
        assert all(points % 1000 == 0 for values in compiled for _, points in values)
        with monkeypatch.context() as patch:
            patch.setattr(MoveGenerator, "native_rollouts", lambda *args, **kwargs: None)
            assert compiled == sim._iterations(engine, job, moves, range(4))
        checked += 1
    assert checked >= 3


@needs_native
@pytest.mark.parametrize("compiled", [True, False])
def test_a_rollout_that_ends_the_game_is_valued_by_its_result(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished game is won, drawn or lost: its value is that, not the
    win table's guess for a position with the spread it ended on."""
    if not compiled:
        monkeypatch.setattr(MoveGenerator, "native_rollouts", lambda *args, **kwargs: None)
    static = StaticPlayer("static")
    won = lost = 0
    for game in positions(range(80, 86), small_bag=True, left=3):
        engine = engine_for(game, None, static.leave_values(game))
        job, moves = job_and_moves(game, engine, sim.TO_THE_END, WinTable.load())
        for values in sim._iterations(engine, job, moves, range(3)):
            for value, points in values:
                final = 1000 * job.spread_before + points
                expected = sim.WIN_UNITS if final > 0 else 0 if final < 0 else sim.WIN_UNITS // 2
                assert value == expected + points // 1000
                won += final > 0
                lost += final < 0
    assert won and lost


@needs_native
@pytest.mark.parametrize("compiled", [True, False])
def test_a_one_ply_rollout_is_the_candidates_equity_less_the_best_replys(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What each side's last play kept counts as its equity counted it, the
    opponent's against the player: one ply on, a candidate is worth its
    equity less the equity of the opponent's best reply on the dealt rack."""
    static = StaticPlayer("static")
    checked = 0
    for game in positions(range(60, 64), small_bag=False):
        engine = engine_for(game, None, static.leave_values(game))
        job, moves = job_and_moves(game, engine, 1, None)
        if not compiled:
            monkeypatch.setattr(MoveGenerator, "native_rollouts", lambda *args, **kwargs: None)
        values = sim._iterations(engine, job, moves, range(1))[0]
        me = game.turn
        tiles = sim.dealt(job.unseen, hash((job.seed, 0)) & sim._MASK)
        for (move, score), (value, points) in zip(moves, values, strict=True):
            position = game.position()
            position.racks[1 - me] = tiles[: job.opponent_size]
            position.bag = sim._RolloutBag(engine.alphabet, tiles[job.opponent_size :])
            equity = engine.equity(move, score, position.racks[me], bag_count=len(position.bag))
            position.make(move, score)
            reply = engine.best(position.board, position.racks[1 - me], bag_count=len(position.bag))
            assert reply is not None
            assert points == value == equity - reply.equity
            checked += 1
    assert checked >= 20


@pytest.mark.slow
@needs_native
def test_the_reference_core_rolls_out_as_the_compiled_one() -> None:
    game = positions(range(50, 51), small_bag=False)[0]
    static = StaticPlayer("static")
    leaves = static.leave_values(game)
    native, python = (engine_for(game, core, leaves) for core in ("native", "python"))
    job, moves = job_and_moves(game, native, 2, WinTable.load())
    assert sim._iterations(native, job, moves, range(3)) == sim._iterations(python, job, moves, range(3))


def test_the_deal_is_a_seeded_shuffle() -> None:
    tiles = list(range(1, 11))
    assert sim.dealt(tiles, 5) == sim.dealt(tiles, 5) and sorted(sim.dealt(tiles, 5)) == tiles
    assert len({tuple(sim.dealt(tiles, seed)) for seed in range(50)}) == 50
    for place in (0, 6, 9):  # every tile as likely at each place: chi-square, 9 degrees of freedom, under its 99.9% point
        seen = Counter(sim.dealt(tiles, seed)[place] for seed in range(3000))
        assert sum((seen[t] - 300) ** 2 / 300 for t in tiles) < 27.9


def test_a_rollout_bag_draws_from_its_end_and_takes_exchanges_back_at_the_bottom() -> None:
    game = Game(["a", "b"], seed=1)
    bag = sim._RolloutBag(game.alphabet, [1, 2, 3, 4, 5])
    assert bag.draw(2) == [4, 5]
    bag.put_back([9, 8])
    assert bag.draw(4) == [8, 1, 2, 3] and bag.draw(9) == [9]


@needs_native
def test_the_compiled_rollouts_refuse_bad_input() -> None:
    game = positions(range(60, 61), small_bag=False)[0]
    engine = engine_for(game, None, StaticPlayer("static").leave_values(game))
    core = engine.generator._native_core()
    board, rack, unseen = bytes(game.board.tiles), bytes(game.rack()), bytes(game.unseen(game.turn))
    good = (0, 7, 7, False, bytes([1, 2]), 3)

    def call(board: bytes = board, unseen: bytes = unseen, candidate: object = good, wins: object = None) -> list[list[tuple[int, int]]]:
        return core.rollouts(board, rack, 7, unseen, [candidate], [1], 2, None, 7, 0, 4, 7, wins)  # type: ignore[list-item, arg-type]

    assert len(call()) == 1
    for bad in (
        {"board": board[:-1]},
        {"unseen": unseen + bytes([99])},
        {"unseen": unseen[:3]},
        {"candidate": (7, 0, 0, False, b"", 0)},
        {"candidate": (0, 14, 7, False, bytes([1, 2]), 3)},
        {"candidate": "8H"},
        {"wins": (0.0, [1.0, 2.0], [0.0])},
    ):
        with pytest.raises((ValueError, TypeError)):
            call(**bad)
