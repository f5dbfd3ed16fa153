"""Rules as data: presets, aliases, challenge modes and impossible options."""

from __future__ import annotations

import dataclasses

import pytest

from tilebag import ChallengeMode, EndAdjustment, Game, Rules, TilebagError, find_rules
from tilebag.rules import PRESETS, RulesError


def test_standard_preset_is_the_rules_of_the_spec():
    rules = find_rules("standard")
    assert rules == Rules()
    assert rules.alphabet == "english" and rules.layout == "standard"
    assert (rules.rack_size, rules.bingo_tiles, rules.bingo_bonus) == (7, 7, 50)
    assert rules.min_first_word == 2
    assert rules.challenge is ChallengeMode.DOUBLE
    assert rules.exchange_min_bag == 7
    assert rules.end_adjustment is EndAdjustment.TRANSFER
    assert (rules.min_players, rules.max_players) == (1, 4)
    assert [rules.scoreless_limit(n) for n in (1, 2, 3, 4)] == [2, 4, 6, 8]


def test_tournament_preset_ends_after_six_scoreless_turns():
    rules = find_rules("tournament")
    assert rules.name == "tournament"
    assert rules.scoreless_turns == 6
    assert [rules.scoreless_limit(n) for n in (2, 3, 4)] == [6, 6, 6]
    assert rules.challenge is ChallengeMode.DOUBLE


@pytest.mark.parametrize(
    ("alias", "preset"),
    [
        ("classic", "standard"),
        ("default", "standard"),
        ("club", "tournament"),
        (" Club ", "tournament"),
        ("STANDARD", "standard"),
    ],
)
def test_aliases(alias, preset):
    assert find_rules(alias) is find_rules(preset)


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(RulesError) as info:
        find_rules("scrabble-deluxe")
    message = str(info.value)
    assert message.startswith("unknown rules 'scrabble-deluxe'; known: standard, tournament, ")
    assert all(name in message for name in PRESETS)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TilebagError)


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("void", ChallengeMode.VOID),
        ("single", ChallengeMode.SINGLE),
        ("double", ChallengeMode.DOUBLE),
        ("DOUBLE", ChallengeMode.DOUBLE),
        ("5-point", ChallengeMode.FIVE_POINT),
        ("5", ChallengeMode.FIVE_POINT),
        ("five_point", ChallengeMode.FIVE_POINT),
        ("FIVE-POINT", ChallengeMode.FIVE_POINT),
        ("10-point", ChallengeMode.TEN_POINT),
        ("10", ChallengeMode.TEN_POINT),
        (" ten-point ", ChallengeMode.TEN_POINT),
    ],
)
def test_challenge_mode_names(text, mode):
    assert ChallengeMode.parse(text) is mode


def test_unknown_challenge_mode():
    with pytest.raises(ValueError) as info:
        ChallengeMode.parse("triple")
    assert str(info.value) == "unknown challenge mode 'triple'; choose one of void, single, double, 5-point, 10-point"


def test_challenge_penalties():
    assert {m: m.penalty_points for m in ChallengeMode} == {
        ChallengeMode.VOID: 0,
        ChallengeMode.SINGLE: 0,
        ChallengeMode.DOUBLE: 0,
        ChallengeMode.FIVE_POINT: 5,
        ChallengeMode.TEN_POINT: 10,
    }


def test_replace_changes_one_field_and_keeps_the_preset():
    rules = find_rules("tournament").replace(challenge=ChallengeMode.VOID)
    assert rules.challenge is ChallengeMode.VOID
    assert rules.scoreless_turns == 6
    assert find_rules("tournament").challenge is ChallengeMode.DOUBLE
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.rack_size = 9  # type: ignore[misc]


def test_nine_tile_racks():
    rules = Rules(rack_size=9)
    assert rules.bingo_tiles == 7
    game = Game(2, rules=rules, seed=1, first=0)
    assert [len(game.rack(i)) for i in range(2)] == [9, 9]
    assert len(game.bag) == 82


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rack_size": 0}, "rack_size must be at least 1, got 0"),
        ({"bingo_tiles": 8}, "bingo_tiles must be between 1 and the rack size 7, got 8"),
        ({"bingo_tiles": 0}, "bingo_tiles must be between 1 and the rack size 7, got 0"),
        ({"rack_size": 5}, "bingo_tiles must be between 1 and the rack size 5, got 7"),
        ({"min_first_word": 0}, "min_first_word must be between 2 (a word has two letters at least) and the rack size 7, got 0"),
        ({"min_first_word": 8}, "min_first_word must be between 2 (a word has two letters at least) and the rack size 7, got 8"),
        ({"scoreless_turns": 0}, "scoreless_turns must be at least 1, got 0"),
        ({"min_players": 0}, "min_players must be between 1 and max_players"),
        ({"min_players": 3, "max_players": 2}, "min_players must be between 1 and max_players"),
    ],
)
def test_impossible_rules(fields, message):
    with pytest.raises(RulesError) as info:
        Rules(**fields)
    assert str(info.value) == message
    with pytest.raises(RulesError):
        Rules().replace(**fields)


def test_players_allowed_by_the_rules():
    for n in (1, 2, 3, 4):
        assert len(Game(n, seed=0).players) == n
    with pytest.raises(RulesError, match="5 players: the rules allow 1 to 4"):
        Game(5, seed=0)
    with pytest.raises(RulesError, match="0 players: the rules allow 1 to 4"):
        Game([], seed=0)
    with pytest.raises(RulesError, match="1 players: the rules allow 2 to 4"):
        Game(1, rules=Rules(min_players=2), seed=0)


def test_doubled_end_adjustment_needs_two_players():
    rules = Rules(end_adjustment=EndAdjustment.DOUBLE)
    assert len(Game(2, rules=rules, seed=0).players) == 2
    for n in (1, 3, 4):
        with pytest.raises(RulesError, match="only make sense with 2 players"):
            Game(n, rules=rules, seed=0)


def test_first_play_of_one_tile_is_not_a_rule():
    # with it, "8H Q" is a legal first play that forms no word, scores 0 and
    # passes a void-mode lexicon check
    with pytest.raises(RulesError):
        Rules(min_first_word=1)
