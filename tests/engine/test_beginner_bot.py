"""The beginner bot: legal in every rules preset, reproducible, modest, and
weaker than the static bot; and the bots' descriptions for a menu."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from gamestate import assert_tiles_accounted
from tilebag import Game, Move, Rules, WordList
from tilebag.engine.bots import BOTS, STRONGEST_BOT, describe_bot, make_bot
from tilebag.engine.players import (
    BEGINNER_MAX_WORD,
    MAX_START_ACTIONS,
    BeginnerPlayer,
    Player,
    StaticPlayer,
    start_actions,
)
from tilebag.formats import gcg, replay
from tilebag.lab.selfplay import run_selfplay, tiles_placed
from tilebag.lexicon import Lexicon, default_lexicon
from tilebag.move import MoveKind
from tilebag.rules import PRESETS

MAX_PUSHES = 1000


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return default_lexicon()


def play_checked(bots: list[Player], rules: Rules, seed: int, lexicon: Lexicon) -> tuple[Game, list[Move]]:
    """A complete game between bots; every push must be legal (it raises
    otherwise), every tile stays accounted for, and no turn starts with too
    many actions. Returns the game and the beginner's moves."""
    game = Game([bot.name for bot in bots], rules=rules, lexicon=lexicon, seed=seed)
    beginner_moves: list[Move] = []
    pushes = 0
    while not game.is_over():
        seat = game.turn
        bot = bots[seat]
        move = bot.choose(game)
        if isinstance(bot, BeginnerPlayer):
            beginner_moves.append(move)
            if move.kind in (MoveKind.PASS, MoveKind.EXCHANGE):
                assert not bot.plays(game), f"{move} with a play to make"
        game.push(move)
        pushes += 1
        assert_tiles_accounted(game)
        if not move.kind.ends_turn:
            assert game.turn == seat and start_actions(game) <= MAX_START_ACTIONS
        assert pushes < MAX_PUSHES, "the game does not end"
    return game, beginner_moves


@pytest.mark.parametrize("preset", list(PRESETS))
def test_beginner_plays_every_preset_legally_and_its_records_check_clean(
    preset: str, lexicon: Lexicon, tmp_path: Path
) -> None:
    rules = PRESETS[preset]
    game, moves = play_checked([BeginnerPlayer("beginner"), StaticPlayer("static")], rules, 21, lexicon)
    assert moves and game.is_over()
    assert all(m.kind is not MoveKind.RECYCLE for m in moves)
    if not rules.anagram:
        assert all(m.kind is not MoveKind.ANAGRAM for m in moves)
    if not rules.blank_swap:
        assert all(m.kind is not MoveKind.BLANK_SWAP for m in moves)
    path = tmp_path / "game.gcg"
    gcg.dump(game.record(), path)
    report = replay.check(gcg.load(path), lexicon=lexicon, source=path.name)
    assert report.errors == [], [f.format(path.name) for f in report.errors]
    assert report.warnings == []  # real words only: no phony to report
    assert report.game is not None and report.game.scores == game.scores


@pytest.mark.parametrize(("preset", "players"), [("house", 4), ("nine-tile", 3), ("finish-line", 3)])
def test_beginners_at_a_bigger_table(preset: str, players: int, lexicon: Lexicon) -> None:
    bots: list[Player] = [BeginnerPlayer(f"b{i}", seed=i) for i in range(players)]
    game, _ = play_checked(bots, PRESETS[preset], 8, lexicon)
    if PRESETS[preset].is_finish_line:
        outcome = game.outcome()
        assert outcome is not None and outcome.termination.name == "FINISH_LINE"


def test_the_same_position_gives_the_same_move(lexicon: Lexicon) -> None:
    first = Game(["a", "b"], lexicon=lexicon, seed=5)
    second = Game(["a", "b"], lexicon=lexicon, seed=5)
    for _ in range(12):
        if first.is_over():
            break
        move = BeginnerPlayer().choose(first)
        assert BeginnerPlayer(core="python").choose(second) == move  # the same whatever the core
        first.push(move)
        second.push(move)
    # another seed gives another beginner
    games = [Game(["a", "b"], lexicon=lexicon, seed=s) for s in range(8)]
    assert any(BeginnerPlayer(seed=1).choose(g) != BeginnerPlayer(seed=2).choose(g) for g in games)


def test_self_play_with_a_beginner_replays_exactly(lexicon: Lexicon) -> None:
    def game_of(seed: int) -> Game:
        bots = [BeginnerPlayer("b"), StaticPlayer("s")]
        game = Game(["b", "s"], lexicon=lexicon, seed=seed)
        while not game.is_over():
            game.push(bots[game.turn].choose(game))
        return game

    assert gcg.dumps(game_of(4).record()) == gcg.dumps(game_of(4).record())


def test_beginner_plays_short_modest_words(lexicon: Lexicon) -> None:
    ratios: list[float] = []
    tiles: list[int] = []
    beginner, static = BeginnerPlayer(), StaticPlayer()
    for seed in range(6):
        game = Game(["b", "s"], lexicon=lexicon, seed=seed)
        while not game.is_over():
            if game.turn == 1:
                game.push(static.choose(game))
                continue
            move = beginner.choose(game)
            if move.kind is MoveKind.PLACE:
                candidates = beginner.plays(game)
                best = max(c.score for c in candidates)
                if best > 0:
                    ratios.append(game.score(move) / best)
                tiles.append(tiles_placed(game, move))
                assert len(move.tiles) <= BEGINNER_MAX_WORD or all(len(c.move.tiles) > BEGINNER_MAX_WORD for c in candidates)
            game.push(move)
    assert 0.5 < statistics.mean(ratios) < 0.9  # a decent play, seldom the best
    assert statistics.median(tiles) <= 4
    assert sum(1 for t in tiles if t >= 7) <= len(tiles) // 10  # bingos are rare


def test_beginner_takes_a_finish_line_win() -> None:
    game = Game(2, rules=Rules(finish_player_targets=(5, 50)), lexicon=WordList(["AT", "TA", "CAT", "ACT"]),
                seed=1, first=0)
    game.set_rack(0, "CATQJXZ", exact=True)
    move = BeginnerPlayer().choose(game)
    game.push(move)
    assert game.finish_winner == 0


def test_beginner_exchanges_or_passes_only_with_no_play() -> None:
    game = Game(2, lexicon=WordList(["ZZZ"]), seed=1, first=0)
    game.set_rack(0, "AEIOUBC", exact=True)
    move = BeginnerPlayer().choose(game)
    assert move.kind is MoveKind.EXCHANGE and sorted(move.tiles) == sorted(game.rack(0))
    game = Game(2, lexicon=WordList(["AB", "BA"]), seed=1, first=0)
    game.set_rack(0, "ABEIOUY", exact=True)
    assert BeginnerPlayer().choose(game).kind is MoveKind.PLACE


@pytest.mark.slow
def test_beginner_is_much_weaker_than_the_static_bot(lexicon: Lexicon) -> None:
    summary = run_selfplay(["beginner", "static"], games=10, seed=1, lexicon=lexicon, progress=False)
    beginner, static = summary.bots
    assert static.wins >= 8
    assert 180 < beginner.mean_score < static.mean_score - 100


def test_bot_kinds_and_descriptions() -> None:
    assert list(BOTS) == ["beginner", "greedy", "static", "champion"]
    assert isinstance(make_bot("Beginner", "Ann"), BeginnerPlayer)
    assert make_bot("beginner").name == "beginner"
    for kind in BOTS:
        text = describe_bot(kind)
        assert text.startswith(f"{kind}: ") and "\n" not in text
    assert "strongest" in describe_bot(STRONGEST_BOT)
    with pytest.raises(ValueError, match="known: beginner, greedy, static, champion"):
        describe_bot("genius")
