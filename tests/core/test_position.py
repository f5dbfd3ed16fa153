"""The light :class:`~tilebag.position.Position`: make and unmake restore it
exactly, and it agrees with the :class:`~tilebag.game.Game` it came from
after every move; a game's undo is exact with its lighter history."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamestate import assert_tiles_accounted, fingerprint
from tilebag import Game, Move, Position, default_lexicon
from tilebag.engine.movegen.generator import MoveGenerator


@pytest.fixture(scope="module")
def generator() -> MoveGenerator:
    kwg = default_lexicon().kwg  # type: ignore[attr-defined]
    return MoveGenerator(kwg)


def state(position: Position) -> tuple[object, ...]:
    return (
        bytes(position.board.tiles),
        position.board.tile_count,
        tuple(tuple(rack) for rack in position.racks),
        tuple(position.scores),
        position.scoreless,
        position.turn,
        position.bag.get_state(),
    )


def random_move(generator: MoveGenerator, position: Position, rng: random.Random) -> Move:
    plays = generator.generate(position.board, position.racks[position.turn], bag_count=len(position.bag), exchanges=True)
    return rng.choice(list(plays)).move


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(1, 30))
def test_make_then_unmake_in_reverse_restores_the_position_exactly(generator: MoveGenerator, seed: int, moves: int) -> None:
    position = Game(2, seed=seed).position()
    rng = random.Random(seed)
    states = []
    undos = []
    for _ in range(moves):
        if position.is_over():
            break
        states.append(state(position))
        undos.append(position.make(random_move(generator, position, rng)))
    for before, undo in zip(reversed(states), reversed(undos), strict=True):
        position.unmake(undo)
        assert state(position) == before


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_position_made_alongside_a_game_agrees_with_it_after_every_move(generator: MoveGenerator, seed: int) -> None:
    game = Game(2, seed=seed)
    position = game.position()
    rng = random.Random(seed)
    while not game.is_over():
        move = random_move(generator, position, rng)
        game.push(move)
        position.make(move)
        assert position.board == game.board
        if game.is_over():
            break  # the game counts the racks at the end; a position leaves that to its search
        assert position.scores == game.scores
        assert [sorted(r) for r in position.racks] == [sorted(p.rack) for p in game.players]
        assert position.turn == game.turn and position.scoreless == game.scoreless
        assert position.bag.get_state() == game.bag.get_state()
        assert position == game.position()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(1, 40))
def test_a_game_pushed_then_popped_to_the_start_is_exactly_the_new_game(generator: MoveGenerator, seed: int, moves: int) -> None:
    game = Game(2, seed=seed)
    rng = random.Random(seed)
    states = []
    for _ in range(moves):
        if game.is_over():
            break
        states.append(fingerprint(game))
        plays = generator.generate(game.board, game.rack(), bag_count=len(game.bag), exchanges=True)
        game.push(rng.choice(list(plays)).move)
        assert_tiles_accounted(game)
    for before in reversed(states):
        game.pop()
        assert fingerprint(game) == before


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.lists(st.integers(0, 9), min_size=1, max_size=40))
def test_pop_undoes_moves_challenges_and_penalties_exactly(generator: MoveGenerator, seed: int, steps: list[int]) -> None:
    """Moves mixed with challenges ruled both ways and time penalties: each
    pop gives back the game as it was before that action (the light undo
    records, the whole ones, and the board before a withdrawn play)."""
    from tilebag import EventKind

    game = Game(2, seed=seed)
    rng = random.Random(seed)
    states = []
    for step in steps:
        if game.is_over():
            break
        before = fingerprint(game)
        if step == 0 and game.challengeable is not None:
            game.challenge(valid=False)  # a ruling: the play comes off
        elif step == 1 and game.challengeable is not None:
            game.challenge(valid=True)  # a ruling: the play stands, the challenger pays
        elif step == 2:
            game.add_points(game.turn, -10, EventKind.TIME_PENALTY)
        else:
            plays = generator.generate(game.board, game.rack(), bag_count=len(game.bag), exchanges=True)
            game.push(rng.choice(list(plays)).move)
        assert_tiles_accounted(game)
        states.append(before)
    for before in reversed(states):
        game.pop()
        assert fingerprint(game) == before


def test_the_variations_actions_are_the_games_to_play() -> None:
    position = Game(2, seed=1).position()
    with pytest.raises(ValueError, match="placements, exchanges and passes"):
        position.make(Move.from_gcg("recycle H8 Z"))


def test_a_copy_is_independent_and_equal() -> None:
    position = Game(2, seed=3).position()
    copy = position.copy()
    assert copy == position and copy.key() == position.key()
    copy.make(Move.pass_())
    assert copy != position and position.turn != copy.turn
