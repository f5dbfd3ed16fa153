"""The simulating player: legal, reproducible choices; the candidates it
keeps; the static player's choice where it does not simulate."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilebag import Game
from tilebag.engine.bots.specs import BotSpecError, parse_bot_spec
from tilebag.engine.montecarlo.sim import SimPlayer
from tilebag.engine.players import StaticPlayer


def midgame(seed: int, moves: int = 6) -> Game:
    game = Game(["sim", "other"], seed=seed)
    static = StaticPlayer("static")
    for _ in range(moves):
        game.push(static.choose(game))
    return game


def test_a_fixed_seed_and_count_of_iterations_give_the_same_choice() -> None:
    game = midgame(5)
    first = SimPlayer("sim", seconds=30, iterations=40, seed=7)
    second = SimPlayer("sim", seconds=30, iterations=40, seed=7)
    assert first.choose(game) == second.choose(game)
    assert first.last is not None and second.last is not None
    assert [c.values for c in first.last.candidates] == [c.values for c in second.last.candidates]


def test_the_choice_is_legal_and_the_game_is_unchanged() -> None:
    game = midgame(9)
    before = game.position()
    sim = SimPlayer("sim", seconds=0.3, seed=1)
    move = sim.choose(game)
    assert move in game.legal_moves
    assert game.position() == before
    assert sim.last is not None and sim.last.rollouts >= sim.last.iterations >= 1
    means = [c.mean for c in sim.last.candidates]
    assert means == sorted(means, reverse=True)


def test_with_the_bag_empty_it_plays_each_candidate_out_once() -> None:
    """The racks are known: one iteration, each candidate played to the end
    of the game, and the best result played (won, then the final spread);
    ``late=off``: the static player's choice."""
    checked = 0
    for seed in range(2, 8):
        game = Game(["sim", "other"], seed=seed)
        static = StaticPlayer("static")
        while len(game.bag) and not game.is_over():
            game.push(static.choose(game))
        if game.is_over():
            continue
        sim = SimPlayer("sim", seconds=5)
        move = sim.choose(game)
        assert move in game.legal_moves
        assert sim.last is not None and sim.last.iterations == 1
        best = sim.last.candidates[0]
        assert move == best.play.move and best.values == [max(c.values[0] for c in sim.last.candidates)]
        assert SimPlayer("sim", seconds=0.1, late=None).choose(game) == static.choose(game)
        checked += 1
    assert checked >= 3


def test_a_simulation_with_the_bag_empty_plays_each_candidate_out_once() -> None:
    """The racks are known, so every deal is the same: one iteration, each
    candidate played to the end of the game, the best final spread first."""
    from tilebag.engine.players import engine_for

    game = Game(["sim", "other"], seed=3)
    static = StaticPlayer("static")
    while len(game.bag):
        game.push(static.choose(game))
    assert not game.is_over()
    sim = SimPlayer("sim", seconds=5, wins=False)
    engine = engine_for(game, None, static.leave_values(game))
    plays = engine.plays(game.board, game.rack(), bag_count=0, top=6)
    result = sim.simulate_position(game.position(), engine, plays, unseen=game.unseen(game.turn),
                                   opponent_size=len(game.rack(1 - game.turn)), until_limits=True)
    assert result.iterations == 1 and len(result.candidates) == len(plays)
    finals = [c.points[0] for c in result.candidates]
    assert finals == sorted(finals, reverse=True) and all(p % 1000 == 0 for p in finals)


def test_a_sim_spec_makes_a_sim_player() -> None:
    bot = parse_bot_spec("sim:plies=3,seconds=0.5,candidates=6,late=4").make("s")
    assert isinstance(bot, SimPlayer) and (bot.plies, bot.seconds, bot.candidates, bot.late) == (3, 0.5, 6, 4)


@pytest.mark.slow
def test_late_in_the_game_the_rollouts_play_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """From seven tiles in the bag (``late``) the rollouts play until the
    game ends, not ``plies``; ``late=off`` keeps them to ``plies``."""
    from tilebag.engine.montecarlo import sim

    played: list[int] = []
    real = sim._iterations

    def counting(engine, job, moves, numbers):  # type: ignore[no-untyped-def]
        played.append(job.plies)
        return real(engine, job, moves, numbers)

    monkeypatch.setattr(sim, "_iterations", counting)
    game = Game(["sim", "other"], seed=4)
    static = StaticPlayer("static")
    while len(game.bag) > sim.LATE_BAG:
        game.push(static.choose(game))
    assert len(game.bag) > 3
    for spec, plies in (("sim:iterations=8", sim.TO_THE_END), ("sim:iterations=8,late=off", 2), ("sim:late=3,plies=3", 3)):
        bot = parse_bot_spec(spec).make("s")
        played.clear()
        bot.choose(game)
        assert played and set(played) == {plies}, spec
    for bad in ("sim:late=soon", "sim:late=-1"):
        with pytest.raises(BotSpecError, match="late is tiles in the bag"):
            parse_bot_spec(bad)


def test_a_sim_drops_candidates_at_the_confidence_it_is_given() -> None:
    from tilebag.engine.montecarlo.sim import DROP_Z

    assert SimPlayer("s").z == DROP_Z
    sure = parse_bot_spec("sim:confidence=99.9").make("s")
    assert isinstance(sure, SimPlayer) and round(sure.z, 2) == 3.29
    for bad in ("sim:confidence=100", "sim:confidence=40", "sim:confidence=sure"):
        with pytest.raises(BotSpecError, match="confidence is a percentage"):
            parse_bot_spec(bad)
    with pytest.raises(ValueError, match="between 50 and 100"):
        SimPlayer("s", confidence=100)


def test_bench_sim_counts_rollouts() -> None:
    from tilebag.lab.bench import bench_sim

    result = bench_sim(1, seconds=0.2)
    assert result.positions == 1 and result.rollouts > 0 and result.rollouts_per_second > 0


def test_a_sim_bot_plays_a_match() -> None:
    from tilebag.lab.match import run_match

    result = run_match("sim:seconds=0.02,candidates=4", "static", games=2, seed=3, workers=1, progress=False)
    assert result.games == 2 and result.seconds_per_move()[0] > 0


@pytest.mark.slow
def test_the_champion_simulates_then_solves_the_endgame() -> None:
    from tilebag.engine.bots import make_bot
    from tilebag.engine.bots.champion import ChampionPlayer
    from tilebag.engine.endgame.solver import solve

    champion = make_bot("champion", "c")
    assert isinstance(champion, ChampionPlayer)
    champion.seconds = 0.2
    champion._sim.seconds = 0.2
    game = midgame(4)
    assert champion.choose(game) in game.legal_moves
    static = StaticPlayer("static")
    while len(game.bag) and not game.is_over():
        game.push(static.choose(game))
    if not game.is_over():
        solution = solve(game.position(), champion.engine(game), seconds=5)
        champion.seconds = 5
        chosen = champion.choose(game)
        assert chosen in game.legal_moves
        if solution.exact:  # the same search to the end: the same move
            assert chosen == game.check(solution.moves[0].move)


@pytest.mark.slow
def test_a_game_reviewed_by_simulation(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from tilebag.engine.analysis.sim_review import review_game
    from tilebag.formats import gcg
    from tilebag.lab.selfplay import run_selfplay

    summary = run_selfplay(["static", "greedy"], games=1, seed=3, out=tmp_path, progress=False)
    record = gcg.load(summary.records[0])
    reviews = review_game(record, seconds=0.02)
    assert len(reviews) >= 10 and reviews[0].number == 1
    assert all(0 <= r.played_chance <= 1 and 0 <= r.best_chance <= 1 and r.lost >= 0 for r in reviews)
    assert [r.number for r in reviews] == sorted(r.number for r in reviews)
    run = subprocess.run(
        [sys.executable, "-m", "tilebag", "analyze", str(summary.records[0]), "--engine", "sim", "--seconds", "0.02", "--json"],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["sim"] and {"played_win", "best_win", "win_lost"} <= set(data["sim"][0])


def test_two_workers_give_the_values_of_one() -> None:
    """Each iteration's draw depends only on the seed and its number: the
    rollouts shared among processes give exactly the serial values."""
    game = midgame(5)
    values = []
    for workers in (1, 2):
        sim = SimPlayer("sim", seconds=60, iterations=24, seed=3, workers=workers)
        sim.choose(game)
        assert sim.last is not None and sim.last.iterations == 24
        values.append([(c.play.move, c.values, c.points) for c in sim.last.candidates])
    assert values[0] == values[1]


OPENING = "15/15/15/15/15/15/15/3HORN8/15/15/15/15/15/15/15 AEINRSU/ 14/0 0 lex kjxqz;"


def test_the_sim_command_ranks_the_candidates() -> None:
    import json
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "tilebag", "sim", "--cgp", OPENING, "--iterations", "16", "--candidates", "5",
         "--workers", "1", "--json"],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["iterations"] == 16 and 2 <= len(data["candidates"]) <= 5
    wins = [c["win"] for c in data["candidates"]]
    assert wins[0] == max(wins) and data["best"] == data["candidates"][0]["move"]
    assert all(c["iterations"] == 16 for c in data["candidates"])


def test_the_sim_command_refuses_an_empty_bag_and_bad_options() -> None:
    import subprocess
    import sys

    from tilebag.formats import cgp

    game = Game(["a", "b"], seed=2)
    static = StaticPlayer("static")
    while len(game.bag) and not game.is_over():
        game.push(static.choose(game))
    ended = cgp.dumps(cgp.position_from(game.board, [game.rack(game.turn), game.rack(1 - game.turn)],
                                        [game.players[game.turn].score, game.players[1 - game.turn].score]))
    for args, said in (([ended], "the bag is empty"), ([OPENING, "--seconds", "0"], "--seconds must be more than 0")):
        run = subprocess.run([sys.executable, "-m", "tilebag", "sim", "--cgp", *args], capture_output=True, text=True)
        assert run.returncode == 2 and said in run.stderr, run.stderr
        assert "Traceback" not in run.stderr
