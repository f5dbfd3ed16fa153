"""The pre-endgame solver (one tile in the bag, or two) against the endgames solved
one by one, on small positions taken from self-play games."""

from __future__ import annotations

from collections import Counter

import pytest

from tilebag import Game
from tilebag.bag import Bag
from tilebag.engine.endgame.preendgame import solve_preendgame
from tilebag.engine.endgame.solver import solve
from tilebag.engine.movegen.generator import Play
from tilebag.engine.players import StaticPlayer
from tilebag.move import Move, MoveKind
from tilebag.position import Position


def small_preendgame(seed: int) -> tuple[Game, Position, list[int]]:
    """A late board of a static game, with racks cut short: the player to
    move keeps three tiles, the opponent two, and one tile is in the bag."""
    game = Game(["a", "b"], seed=seed)
    static = StaticPlayer("static")
    while len(game.bag) > 12 and not game.is_over():
        game.push(static.choose(game))
    me = game.turn
    mine = game.rack(me)[:3]
    unseen = game.unseen(me)[:3]
    position = Position(
        game.board.copy(), [mine, unseen[:2]] if me == 0 else [unseen[:2], mine],
        Bag(game.alphabet, tiles=unseen[2:3]), [p.score for p in game.players], turn=me,
    )
    return game, position, unseen


def brute_force(position: Position, game: Game, unseen: list[int]) -> dict[str, tuple[float, float]]:
    """Each placement's weighted wins and mean final spread, every endgame
    solved by the Python reference search."""
    engine = game.engine
    me = position.turn
    values = {}
    plays = [p for p in engine.plays(position.board, position.racks[me], bag_count=1) if p.move.kind is MoveKind.PLACE]
    for play in plays[:4]:
        wins = spread = 0.0
        for tile, count in Counter(unseen).items():
            after = position.copy()
            after.bag = Bag(game.alphabet, tiles=[tile])
            after.racks[1 - me] = [t for t in unseen]
            after.racks[1 - me].remove(tile)
            after.make(play.move, play.score)
            final = -solve(after, engine, core="python").spread
            wins += count * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            spread += count * final
        values[str(play.move)] = (wins, spread / len(unseen))
    return values


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_each_candidate_is_worth_what_its_endgames_are(seed: int) -> None:
    game, position, unseen = small_preendgame(seed)
    expected = brute_force(position, game, unseen)
    before = position.copy()
    result = solve_preendgame(position, game.engine, unseen=unseen, candidates=4)
    assert position == before
    assert result.exact and result.plays
    best = max(expected.values())
    assert (result.plays[0].wins, pytest.approx(result.plays[0].spread)) == (best[0], pytest.approx(best[1]))
    for candidate in result.plays:
        wins, spread = expected[str(candidate.play.move)]
        assert candidate.wins == wins and candidate.spread == pytest.approx(spread)
        assert 0 <= result.win_chance(candidate) <= 1
    keys = [(c.wins, c.spread) for c in result.plays]
    assert keys == sorted(keys, reverse=True)


def test_a_position_without_exactly_one_tile_in_the_bag_is_refused() -> None:
    game = Game(["a", "b"], seed=1)
    with pytest.raises(ValueError, match="exactly one tile in the bag"):
        solve_preendgame(game.position(), game.engine, unseen=game.unseen(0))


def test_out_of_time_it_keeps_only_the_candidates_finished() -> None:
    game, position, unseen = small_preendgame(5)
    result = solve_preendgame(position, game.engine, unseen=unseen, stop=lambda: True)
    assert result.stopped and result.plays == [] and result.endgames == 0


@pytest.mark.slow
def test_the_champion_plays_the_pre_endgame_solution() -> None:
    from tilebag.engine.bots.champion import ChampionPlayer

    static = StaticPlayer("static")
    for seed in range(1, 40):
        game = Game(["a", "b"], seed=seed)
        while len(game.bag) > 1 and not game.is_over():
            game.push(static.choose(game))
        if len(game.bag) == 1:
            break
    else:
        pytest.skip("no game of these seeds stopped with one tile in the bag")
    champion = ChampionPlayer(seconds=1)
    move = champion.choose(game)
    assert move in game.legal_moves
    result = champion.last_preendgame
    assert result is not None and result.unseen == len(game.unseen(game.turn))
    if result.plays:  # the best candidate finished in time is played
        assert move == game.check(result.plays[0].play.move)


def two_tile_preendgame(seed: int) -> tuple[Game, Position, list[int]]:
    """The board of a static game when its bag holds two tiles, with racks
    cut short: the player to move keeps three tiles, the opponent two of
    the unseen tiles, and two more are in the bag."""
    game = Game(["a", "b"], seed=seed)
    static = StaticPlayer("static")
    while len(game.bag) > 2 and not game.is_over():
        game.push(static.choose(game))
    assert len(game.bag) == 2
    me = game.turn
    mine = game.rack(me)[:3]
    unseen = game.unseen(me)[:4]
    position = Position(
        game.board.copy(), [mine, unseen[:2]] if me == 0 else [unseen[:2], mine],
        Bag(game.alphabet, tiles=unseen[2:]), [p.score for p in game.players], turn=me,
    )
    return game, position, unseen


def ordered_ways(unseen: list[int]) -> Counter[tuple[int, int]]:
    """Each draw of two of ``unseen`` in order, and the ways it comes."""
    return Counter((a, b) for i, a in enumerate(unseen) for j, b in enumerate(unseen) if i != j)


def rest(unseen: list[int], drawn: list[int]) -> list[int]:
    left = list(unseen)
    for tile in drawn:
        left.remove(tile)
    return left


def placements(position: Position, game: Game, bag_count: int) -> list[Play]:
    rack = position.racks[position.turn]
    return [p for p in game.engine.plays(position.board, rack, bag_count=bag_count) if p.move.kind is MoveKind.PLACE]


@pytest.mark.parametrize("seed", [2, 3, 8])
def test_a_placement_drawing_both_tiles_is_worth_what_the_endgames_of_every_pair_are(seed: int) -> None:
    game, position, unseen = two_tile_preendgame(seed)
    me = position.turn
    several = [p.move for p in placements(position, game, 2) if len(p.move.tiles_used) >= 2][:3]
    before = position.copy()
    result = solve_preendgame(position, game.engine, unseen=unseen, moves=several)
    assert position == before
    assert len(result.plays) == len(several) == 3
    assert result.bag == 2 and result.samples == 0 and result.unseen == 4 and not result.stopped
    pairs = Counter[tuple[int, int]]()
    for (a, b), ways in ordered_ways(unseen).items():
        pairs[min(a, b), max(a, b)] += ways
    checked = 0
    for candidate in result.plays:
        assert {o.tiles: o.count for o in candidate.outcomes} == dict(pairs)
        assert candidate.draws == 4 * 3 and candidate.exact
        for outcome in candidate.outcomes:
            after = position.copy()
            after.racks[1 - me] = rest(unseen, list(outcome.tiles))
            after.bag = Bag(game.alphabet, tiles=outcome.tiles)
            after.make(candidate.play.move, candidate.play.score)  # draws both
            assert not after.bag and sorted(after.racks[me][-2:]) == sorted(outcome.tiles)
            assert outcome.spread == -solve(after, game.engine, core="python").spread
            assert outcome.tile == outcome.tiles[0]
            checked += 1
        wins = sum(o.count * (1.0 if o.spread > 0 else 0.5 if o.spread == 0 else 0.0) for o in candidate.outcomes)
        assert candidate.wins == wins and 0 <= result.win_chance(candidate) <= 1
    assert checked and result.exact
    keys = [(c.wins, c.spread) for c in result.plays]
    assert keys == sorted(keys, reverse=True)


def by_hand(position: Position, game: Game, unseen: list[int], play: Play, drawn: int, left: int, replies: int) -> int:
    """The final spread after the one-tile ``play`` draws ``drawn`` and
    leaves ``left`` in the bag: the opponent's best of its best ``replies``
    placements, each followed by the endgame, and the pass, after which the
    player plays the best of its own."""
    me = position.turn
    after = position.copy()
    after.racks[1 - me] = rest(unseen, [drawn, left])
    after.bag = Bag(game.alphabet, tiles=[drawn])
    after.make(play.move, play.score)
    after.bag = Bag(game.alphabet, tiles=[left])
    finals = []
    for reply in placements(after, game, 1)[:replies]:
        endgame = after.copy()
        endgame.make(reply.move, reply.score)  # draws the last tile: the player is to move
        finals.append(solve(endgame, game.engine, core="python").spread)
    passed = after.copy()
    passed.make(Move.pass_())
    mine = []
    for answer in placements(passed, game, 1)[:replies]:
        endgame = passed.copy()
        endgame.make(answer.move, answer.score)
        mine.append(-solve(endgame, game.engine, core="python").spread)
    finals.append(max(mine))
    return min(finals)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_one_tile_placement_leaves_the_opponent_a_pre_endgame_valued_by_its_best_replies(seed: int) -> None:
    game, position, unseen = two_tile_preendgame(seed)
    one = next(p for p in placements(position, game, 2) if len(p.move.tiles_used) == 1)
    result = solve_preendgame(position, game.engine, unseen=unseen, moves=[one.move], replies=2)
    [candidate] = result.plays
    assert candidate.play.move == one.move and candidate.complete and not candidate.exact and not result.exact
    assert {o.tiles: o.count for o in candidate.outcomes} == dict(ordered_ways(unseen))  # the order matters
    assert not any(o.exact for o in candidate.outcomes)
    for outcome in candidate.outcomes[:3]:
        drawn, left = outcome.tiles
        assert outcome.tile == drawn
        assert outcome.spread == by_hand(position, game, unseen, one, drawn, left, replies=2)


def test_sampled_draws_are_the_same_for_a_seed_and_counted() -> None:
    game, position, unseen = two_tile_preendgame(8)

    def sampled(seed: int) -> list[tuple[str, list[tuple[tuple[int, ...], int, int]]]]:
        result = solve_preendgame(position, game.engine, unseen=unseen, candidates=3, samples=7, seed=seed)
        assert result.samples == 7 and not result.exact and not result.stopped
        for candidate in result.plays:
            assert candidate.draws == 7 and candidate.sampled and not candidate.exact
        return [(str(c.play.move), [(o.tiles, o.count, o.spread) for o in c.outcomes]) for c in result.plays]

    first = sampled(1)
    assert first and sampled(1) == first
    exact = solve_preendgame(position, game.engine, unseen=unseen, candidates=3)
    values = {(str(c.play.move), o.tiles): o.spread for c in exact.plays for o in c.outcomes}
    for move, outcomes in first:  # each draw sampled is worth what it is worth when every draw is solved
        assert all(values[move, tiles] == spread for tiles, _, spread in outcomes)


def test_every_draw_is_solved_when_the_time_allows() -> None:
    game, position, unseen = two_tile_preendgame(3)
    result = solve_preendgame(position, game.engine, unseen=unseen, candidates=3, seconds=60)
    assert result.samples == 0 and not result.stopped and len(result.plays) == 3
    unlimited = solve_preendgame(position, game.engine, unseen=unseen, candidates=3)
    assert [(c.play, c.outcomes) for c in result.plays] == [(c.play, c.outcomes) for c in unlimited.plays]


def test_a_known_bag_gives_its_one_pair() -> None:
    game, position, unseen = two_tile_preendgame(2)
    bag = position.bag.tiles()
    result = solve_preendgame(position, game.engine, unseen=unseen, draws=bag, candidates=2)
    for candidate in result.plays:
        assert [o.tiles for o in candidate.outcomes] == [tuple(sorted(bag))] and candidate.draws == 2


def test_bad_two_tile_input_is_refused() -> None:
    game, position, unseen = two_tile_preendgame(3)
    three = position.copy()
    three.bag = Bag(game.alphabet, tiles=unseen[1:])
    with pytest.raises(ValueError, match="exactly one tile in the bag, or two .this bag holds 3"):
        solve_preendgame(three, game.engine, unseen=unseen)
    stranger = next(t for t in range(1, 27) if t not in unseen)
    with pytest.raises(ValueError, match="the tiles the bag may hold must be among the unseen tiles"):
        solve_preendgame(position, game.engine, unseen=unseen, draws=[unseen[2], stranger])
    with pytest.raises(ValueError, match="opponent's rack and both tiles"):
        solve_preendgame(position, game.engine, unseen=unseen[:2])
    with pytest.raises(ValueError, match="samples must be at least 1"):
        solve_preendgame(position, game.engine, unseen=unseen, samples=0)


def test_the_champion_solves_the_pre_endgame_with_two_tiles_in_the_bag() -> None:
    from tilebag.engine.bots.champion import ChampionPlayer

    static = StaticPlayer("static")
    game = Game(["a", "b"], seed=3)  # its pre-endgame with two tiles in the bag is solved in about a second
    while len(game.bag) > 2:
        game.push(static.choose(game))
    assert len(game.bag) == 2
    champion = ChampionPlayer(seconds=4)  # it returns once solved
    move = champion.choose(game)
    assert move in game.legal_moves
    result = champion.last_preendgame
    assert result is not None and result.bag == 2 and result.plays
    assert move == game.check(result.plays[0].play.move)
