"""The endgame solver against brute-force minimax on small endgames of
self-play games, and its line played out on the real game; the compiled
search (its own move order, on one thread or several) against the
reference search: the same value, and a line that makes it."""

from __future__ import annotations

import functools
import signal
import threading
import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tilebag.engine import Engine
from tilebag.engine.endgame.solver import EndgameSolution, solve
from tilebag.engine.movegen.generator import native_available
from tilebag.engine.players import StaticPlayer
from tilebag.formats import cgp
from tilebag.game import Game
from tilebag.lexicon import default_lexicon
from tilebag.move import Move, MoveKind
from tilebag.position import Position
from tilebag.rules import Rules
from tilebag.ui.cmd_endgame import endgame_position

ENGINE = Engine.for_lexicon(default_lexicon())
CORES = ["python", "native"] if native_available() else ["python"]
needs_native = pytest.mark.skipif(not native_available(), reason="the compiled core was not built in this installation")


def small_endgame(seed: int, most: int) -> Game | None:
    """A static self-play game played on until the bag is empty and each
    rack holds at most ``most`` tiles (None when it ends first)."""
    game = Game(["a", "b"], lexicon=default_lexicon(), seed=seed)
    bot = StaticPlayer("bot")
    while not game.is_over():
        if not len(game.bag) and all(len(game.rack(i)) <= most for i in range(2)):
            return game
        game.push(bot.choose(game))
    return None


def brute_force(position: Position, limit: int) -> int:
    """Plain minimax over every play and the pass, to the end of the game:
    the spread the player to move makes from here."""
    me, other = position.turn, 1 - position.turn
    values = ENGINE.alphabet.scores
    plays = [(p.move, p.score) for p in ENGINE.plays(position.board, position.racks[me], bag_count=0)]
    best = None
    for move, score in [*plays, (Move.pass_(), 0)]:
        undo = position.make(move, score)
        if not position.racks[me]:
            value = score + 2 * sum(values[t] for t in position.racks[other])
        elif position.scoreless >= limit:
            value = score - sum(values[t] for t in position.racks[me]) + sum(values[t] for t in position.racks[other])
        else:
            value = score - brute_force(position, limit)
        position.unmake(undo)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def endgames(most: int, seeds: range, count: int) -> list[tuple[int, Game]]:
    """The first ``count`` small endgames of those seeds' games, with their seeds."""
    found = ((seed, small_endgame(seed, most)) for seed in seeds)
    return [(seed, game) for seed, game in found if game is not None][:count]


SMALL = endgames(2, range(1, 40), 12)
CASES = [game for _, game in SMALL]
LARGER = endgames(4, range(1, 60), 16)
"""Endgames of up to 4 tiles a rack: a few hundred to a few thousand positions each."""


def game_id(game: Game) -> str:
    return f"{''.join(map(str, game.rack(0)))}-{''.join(map(str, game.rack(1)))}"


def fresh(seed: int, most: int) -> Game:
    """A new copy of a small endgame (to play on)."""
    game = small_endgame(seed, most)
    assert game is not None
    return game


@functools.cache
def brute_force_value(index: int) -> int:
    game = CASES[index]
    return brute_force(game.position(), game.rules.scoreless_limit(2))


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("index", range(len(CASES)), ids=lambda i: game_id(CASES[i]))
def test_the_solver_finds_the_value_brute_force_finds(index: int, core: str) -> None:
    game = CASES[index]
    position = game.position()
    solution = solve(position, ENGINE, core=core)
    assert solution.exact
    expected = brute_force_value(index)
    assert solution.gain == expected
    me = position.turn
    assert solution.spread == position.scores[me] - position.scores[1 - me] + expected
    assert position == game.position()  # the position given is not changed


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("limit", [1, 2, 3])
def test_the_rules_say_how_many_scoreless_turns_end_the_game(limit: int, core: str) -> None:
    rules = Rules(scoreless_turns=limit)
    for game in CASES[:4]:
        solution = solve(game.position(), ENGINE, rules=rules, core=core)
        assert solution.exact and solution.gain == brute_force(game.position(), limit)


def test_there_are_enough_small_endgames() -> None:
    assert len(CASES) >= 8 and len(LARGER) >= 10


def play_out(game: Game, solution: EndgameSolution) -> int:
    """Play a solution's line on the game; the final spread of the player
    who was to move."""
    me = game.turn
    for step in solution.moves:
        game.push(step.move if step.move.kind is not MoveKind.PASS else Move.pass_())
        if game.is_over():
            break
    assert game.is_over(), "the solution's line stops before the end of the game"
    return game.scores[me] - game.scores[1 - me]


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("seed", [seed for seed, _ in SMALL[:6]])
def test_the_line_played_on_the_game_ends_with_the_spread_it_promised(seed: int, core: str) -> None:
    game = fresh(seed, 2)
    solution = solve(game.position(), ENGINE, core=core)
    assert play_out(game, solution) == solution.spread


def same_search(position: Position, max_depth: int = 30, threads: int = 1) -> tuple[EndgameSolution, EndgameSolution]:
    """The reference's and the compiled search's solutions of one position."""
    before = position.copy()
    reference = solve(position, ENGINE, core="python", max_depth=max_depth)
    compiled = solve(position, ENGINE, core="native", max_depth=max_depth, threads=threads)
    assert position == before  # neither changes the position given
    return reference, compiled


def assert_same(reference: EndgameSolution, compiled: EndgameSolution) -> None:
    """The same value, found exactly: the compiled search orders its moves
    its own way (those going out first), so its line may be another line
    of the same value."""
    assert reference.exact and compiled.exact
    assert (compiled.gain, compiled.spread) == (reference.gain, reference.spread)


@needs_native
@pytest.mark.parametrize(("seed", "game"), LARGER, ids=[game_id(game) for _, game in LARGER])
def test_the_compiled_search_finds_the_reference_value(seed: int, game: Game) -> None:
    reference, compiled = same_search(game.position())
    assert_same(reference, compiled)
    assert play_out(fresh(seed, 4), compiled) == compiled.spread


@needs_native
@pytest.mark.parametrize(("seed", "game"), LARGER[:8], ids=[game_id(game) for _, game in LARGER[:8]])
def test_threads_change_neither_the_value_nor_the_move(seed: int, game: Game) -> None:
    one = solve(game.position(), ENGINE, core="native", threads=1)
    for threads in (2, 3):
        more = solve(game.position(), ENGINE, core="native", threads=threads)
        assert (more.exact, more.gain, more.moves[0].move) == (one.exact, one.gain, one.moves[0].move)
        assert play_out(fresh(seed, 4), more) == more.spread


HARD = {
    "seed5": "K1D1O2V7/NEE1U2OR6/OXY1T2GI6/BE1QI3L2O3/1CLIENTAL2U3/8E2T3/4P3T1PI3/3FOEHNS1OE3/4M5E4/1JO1M5T4/"
    "1ER1I5ID3/WARIER1F2ZA3/ANA2EVANGeL3/ES5N2R4/S6G2SCRUB DWIDITO/YUAHA?A 434/378 0",
    "seed7": "A4ILEX6/WAGGON9/N1OOF10/Y2RAN9/4YO9/5V3FEAT2/COZ2A1BEAMIER1/1hABITUE1VUM3/2P2E9/2P6JEE1H1/"
    "1QI1AUCTIoNS1I1/2E4H2STORK/1UREDINIA4EN/7O5DO/7L6W GTIRDST/SLERLD 451/402 0",
}
"""Full racks (7 and 7 tiles, or nearly) that take seconds or more to solve."""


def hard(name: str) -> Position:
    return endgame_position(cgp.parse(HARD[name]))


@needs_native
@pytest.mark.slow
def test_full_racks_on_two_threads_find_the_value_of_one() -> None:
    one = solve(hard("seed5"), ENGINE, core="native", threads=1)
    two = solve(hard("seed5"), ENGINE, core="native", threads=2)
    assert one.exact and two.exact
    assert (two.gain, two.moves[0].move) == (one.gain, one.moves[0].move)


@needs_native
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1000, 100_000), most=st.integers(1, 3))
def test_any_small_endgame_has_one_value_in_both_searches(seed: int, most: int) -> None:
    game = small_endgame(seed, most)
    assume(game is not None)
    assert game is not None
    reference, compiled = same_search(game.position(), threads=1 + seed % 3)
    assert_same(reference, compiled)


@needs_native
def test_the_compiled_search_reports_each_depth_and_stops_when_asked() -> None:
    depths: list[tuple[int, int, float]] = []
    lines: list[EndgameSolution] = []
    started = time.monotonic()
    asked = threading.Event()
    threading.Timer(0.3, asked.set).start()
    solution = solve(hard("seed5"), ENGINE, core="native", on_depth=lambda *d: depths.append(d), on_line=lines.append,
                     stop=asked.is_set)
    assert time.monotonic() - started < 30  # stopped, not searched out (a generous bound: the machine may be busy)
    assert not solution.exact and not solution.stopped and solution.moves
    assert [d[0] for d in depths] == list(range(1, solution.depth + 1)) == [line.depth for line in lines]
    assert solution.gain == depths[-1][1] and [m.move for m in solution.moves] == [m.move for m in lines[-1].moves]
    timed = solve(hard("seed5"), ENGINE, core="native", seconds=0.2)
    assert timed.seconds < 10 and timed.depth >= 1 and not timed.exact


@needs_native
def test_ctrl_c_keeps_the_deepest_line_of_the_compiled_search() -> None:
    searching = threading.Event()

    def interrupt(signum: int, frame: object) -> None:
        if searching.is_set():  # a late signal (the search over already) is let go
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        threading.Timer(0.3, lambda: signal.raise_signal(signal.SIGINT)).start()
        searching.set()
        solution = solve(hard("seed7"), ENGINE, core="native", seconds=120.0)  # stopped by the signal, not the time
        searching.clear()
        time.sleep(0.4)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert solution.stopped and solution.depth >= 1 and solution.moves


def test_an_unknown_core_is_refused() -> None:
    with pytest.raises(ValueError, match="no endgame search core"):
        solve(CASES[0].position(), ENGINE, core="fortran")


def test_a_bag_with_tiles_is_no_endgame() -> None:
    with pytest.raises(ValueError, match="empty bag"):
        solve(Game(2, seed=1).position(), ENGINE)


ENDGAME_CGP = "7I6Q/7N5OI/7W4XU1/7A3PITH/5CERVEZA1LI/7D2AW1OD/8O2K1V1/7EPIGYnES/8T5H/8ID3JO/4L2LOO2FAG/FOOTY2INN1RAN1/U3T2BEG1EME1/REDATE1RE2C1s1/L2MANTISSAS3 UENUREB/RAI 437/420 0"
"""The bag-empty position of a static self-play game (seed 6)."""


def test_the_endgame_command_prints_the_exact_line_and_spread() -> None:
    import json
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "tilebag", "endgame", "--cgp", ENDGAME_CGP, "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["exact"] and found["spread"] == 15 and found["moves"][0] == {"move": "G1 BEE", "score": 18}
    for threads in ("1", "3"):  # the same answer on any number of threads
        run = subprocess.run([sys.executable, "-m", "tilebag", "endgame", "--cgp", ENDGAME_CGP, "--json", "--threads", threads],
                             capture_output=True, text=True)
        assert json.loads(run.stdout)["moves"][0] == found["moves"][0] and json.loads(run.stdout)["spread"] == 15
    text = subprocess.run([sys.executable, "-m", "tilebag", "endgame", "--cgp", ENDGAME_CGP], capture_output=True, text=True)
    assert "final spread +15" in text.stdout and "depth 1:" in text.stderr


@pytest.mark.parametrize(
    ("cgp_text", "says"),
    [
        ("15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 ZA/AT 22/0 0", "the bag is not empty"),
        ("15/15 nonsense", "tilebag:"),
        (ENDGAME_CGP.replace(" UENUREB/RAI", " UENUREB/"), "3 tiles unseen"),  # an empty rack: the RAI are unseen
    ],
)
def test_the_endgame_command_refuses_what_is_no_endgame(cgp_text: str, says: str) -> None:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "tilebag", "endgame", "--cgp", cgp_text], capture_output=True, text=True)
    assert run.returncode == 2 and says in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_bench_endgame_reports_its_figures() -> None:
    from tilebag.lab.bench import bench_endgames

    result = bench_endgames(2, seed=6, seconds=0.5)
    assert result.games == result.positions == len(result.times) == 2 and 0 <= result.exact <= 2
    assert all(seconds < 1.0 for seconds in result.times) and result.nodes > 0 and not result.stopped
    assert result.core == ENGINE.core and len(result.exact_times) == result.exact
    figures = result.as_dict()
    assert set(figures) >= {"median_s", "p90_s", "max_s", "exact", "nodes_per_second", "core"}
    assert figures["median_s"] <= figures["p90_s"] <= figures["max_s"]


def test_the_bench_command_prints_its_figures() -> None:
    import json
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "tilebag", "bench", "endgame", "--games", "1", "--seconds", "0.3", "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout)
    assert figures["games"] == 1 and figures["positions"] <= 1 and figures["max_s"] < 1.0


def test_the_bench_checks_every_endgame_solved_on_threads_against_one_thread() -> None:
    from tilebag.lab.bench import bench_endgames

    result = bench_endgames(3, seed=3, seconds=5.0, threads=2, check=True)
    assert result.threads == 2 and result.exact >= 2
    assert result.checked == result.exact and result.disagreements == []
    assert "solved again on one thread: " in result.text() and result.as_dict()["checked"] == result.checked


def test_threads_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="1 to 64 threads, not 0"):
        solve(CASES[0].position(), ENGINE, threads=0)
