"""``tilebag match``: paired games, the same games whatever the number of
workers, the statistics, bad specs, and a stop with Ctrl+C that keeps what
was done."""

from __future__ import annotations

import subprocess
import sys

import pytest

from running import interrupted_under_way
from tilebag.engine.bots.specs import BotSpecError, parse_bot_spec
from tilebag.lab.match import MatchResult, elo_difference, play_pair, run_match


def test_a_bot_against_itself_scores_the_same_from_each_seat_of_a_pair() -> None:
    static = parse_bot_spec("static")
    pair = play_pair(static, static, seed=12)
    first, second = pair.games
    assert (first.a_score, first.b_score) == (second.b_score, second.a_score)  # the same bag, the seats swapped
    assert pair.spread == 0 and first.a_result + second.a_result == 1.0


def test_the_games_are_the_same_on_one_worker_and_on_two() -> None:
    one = run_match("static", "greedy", games=8, seed=40, workers=1, progress=False)
    two = run_match("static", "greedy", games=8, seed=40, workers=2, progress=False)
    assert [(p.seed, p.games) for p in one.pairs] == [(p.seed, p.games) for p in two.pairs]
    assert one.games == 8 and [p.seed for p in one.pairs] == [40, 41, 42, 43]


@pytest.mark.slow
def test_the_statistics_of_a_match() -> None:
    result = run_match("static", "beginner", games=20, seed=1, workers=1, progress=False)
    low, high = result.win_interval()
    assert low <= result.win_rate <= high
    spread_low, spread_high = result.spread_interval()
    assert spread_low <= result.spread <= spread_high
    data = result.to_dict()
    assert data["games"] == 20 and data["a"] == "static" and data["b"] == "beginner"
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert MatchResult("a", "b").win_rate == 0.0


@pytest.mark.parametrize(
    "spec", ["genius", "static:depth=2", "static:leaves", "beginner:seed=x", "sim:seconds=0", "sim:workers=0", "champion:workers=some",
             "champion:threads=0", "champion:threads=65"]
)
def test_a_spec_that_names_no_bot_is_refused(spec: str) -> None:
    with pytest.raises(BotSpecError):
        parse_bot_spec(spec)
    run = subprocess.run([sys.executable, "-m", "tilebag", "match", spec, "static", "--games", "2"], capture_output=True, text=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr and run.stderr.startswith("tilebag:")


@pytest.mark.slow
def test_a_simulating_bot_can_be_given_every_core_for_its_moves() -> None:
    from tilebag.engine.bots.champion import ChampionPlayer
    from tilebag.engine.montecarlo.sim import SimPlayer

    sim = parse_bot_spec("sim:seconds=0.5,workers=all").make()
    assert isinstance(sim, SimPlayer) and sim.workers is None
    champion = parse_bot_spec("champion:workers=2").make()
    assert isinstance(champion, ChampionPlayer) and champion._sim.workers == 2
    assert parse_bot_spec("sim").make().workers == 1  # a match already plays a game on each core
    result = run_match("sim:seconds=60,iterations=16,workers=2", "static", games=2, seed=7, workers=1, progress=False)
    same = run_match("sim:seconds=60,iterations=16,workers=1", "static", games=2, seed=7, workers=1, progress=False)
    assert [p.games for p in result.pairs] != [] and result.games == 2
    assert [(g.a_score, g.b_score) for p in result.pairs for g in p.games] == [
        (g.a_score, g.b_score) for p in same.pairs for g in p.games
    ]  # a count of iterations gives the same choices on any number of workers


@pytest.mark.slow
def test_ctrl_c_stops_a_match_and_reports_the_games_finished() -> None:
    returncode, out, err = interrupted_under_way("match", "static", "greedy", "--games", "100000", "--workers", "2")
    assert returncode == 130, err
    assert "stopped early" in out and "Traceback" not in err
    games = int(out.split(": ")[1].split()[0])
    assert games > 0


def test_the_champion_is_given_threads_for_its_endgames() -> None:
    from tilebag.engine.bots import make_bot
    from tilebag.engine.bots.champion import ChampionPlayer

    champion = parse_bot_spec("champion:threads=all,workers=1").make()
    assert isinstance(champion, ChampionPlayer) and champion.threads is None and champion._sim.workers == 1
    assert parse_bot_spec("champion").make().threads == 1  # a match already plays a game on each core
    made = make_bot("champion", threads=3)
    assert isinstance(made, ChampionPlayer) and made.threads == 3 and make_bot("static", threads=3).name == "static"
