"""The endgame solver against brute-force minimax on small endgames of
self-play games, and its line played out on the real game."""

from __future__ import annotations

import pytest

from tilebag.engine import Engine
from tilebag.engine.endgame import solve
from tilebag.engine.players import StaticPlayer
from tilebag.game import Game
from tilebag.lexicon import default_lexicon
from tilebag.move import Move, MoveKind
from tilebag.position import Position

ENGINE = Engine.for_lexicon(default_lexicon())


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


CASES = [g for g in (small_endgame(seed, 2) for seed in range(1, 40)) if g is not None][:12]


@pytest.mark.parametrize("game", CASES, ids=lambda g: f"{''.join(map(str, g.rack(0)))}-{''.join(map(str, g.rack(1)))}")
def test_the_solver_finds_the_value_brute_force_finds(game: Game) -> None:
    position = game.position()
    limit = game.rules.scoreless_limit(2)
    solution = solve(position, ENGINE)
    assert solution.exact
    expected = brute_force(game.position(), limit)
    assert solution.gain == expected
    me = position.turn
    assert solution.spread == position.scores[me] - position.scores[1 - me] + expected
    assert position == game.position()  # the position given is not changed


def test_there_are_enough_small_endgames() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("game", CASES[:6], ids=str)
def test_the_line_played_on_the_game_ends_with_the_spread_it_promised(game: Game) -> None:
    me = game.turn
    solution = solve(game.position(), ENGINE)
    for step in solution.moves:
        game.push(step.move if step.move.kind is not MoveKind.PASS else Move.pass_())
        if game.is_over():
            break
    assert game.is_over(), "the solution's line stops before the end of the game"
    assert game.scores[me] - game.scores[1 - me] == solution.spread


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
    text = subprocess.run([sys.executable, "-m", "tilebag", "endgame", "--cgp", ENDGAME_CGP], capture_output=True, text=True)
    assert "final spread +15" in text.stdout and "depth 1:" in text.stderr


@pytest.mark.parametrize(
    ("cgp", "says"),
    [
        ("15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 ZA/AT 22/0 0", "the bag is not empty"),
        ("15/15 nonsense", "tilebag:"),
        (ENDGAME_CGP.replace(" UENUREB/RAI", " UENUREB/"), "3 tiles unseen"),  # an empty rack: the RAI are unseen
    ],
)
def test_the_endgame_command_refuses_what_is_no_endgame(cgp: str, says: str) -> None:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "tilebag", "endgame", "--cgp", cgp], capture_output=True, text=True)
    assert run.returncode == 2 and says in run.stderr and "Traceback" not in run.stderr


def test_bench_endgame_reports_its_figures() -> None:
    from tilebag.engine.endgame import bench_endgames

    result = bench_endgames(2, seed=6, seconds=0.5)
    assert result.positions == 2 and 0 <= result.exact <= 2 and len(result.times) == 2
    assert set(result.as_dict()) >= {"median_s", "p90_s", "max_s", "exact"}
