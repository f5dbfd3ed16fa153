"""Game records of variation games: the rules as pragmas, read back
exactly, and replayed to the same game (every score and total checked as for
standard records)."""

from __future__ import annotations

import pytest

from gamestate import event_key
from tilebag import AcceptAll, Game, Move, Termination, WordList, gcg, replay
from tilebag.lexicon import Lexicon
from tilebag.rules import OPTIONS, PRESETS, ChallengeMode, FinishLevel, Rules

WORDS = ["EAT", "TEA", "ATE", "ETA", "TEAS", "ETAS", "ZEA", "HA", "HE", "AT", "TA"]


def game_with(rules: Rules, racks: tuple[str, ...], lexicon: Lexicon | None = None) -> Game:
    """alice and bob with these racks, alice to move."""
    game = Game(["alice", "bob"], rules=rules, lexicon=lexicon or WordList(WORDS, name="variations"), seed=3, first=0)
    for seat, rack in enumerate(racks):
        game.set_rack(seat, rack, exact=True)
    return game


def state(game: Game) -> tuple[object, ...]:
    """What a record must rebuild: board, racks, scores, events, whose turn,
    how and whether the game ended, the clocks. (The bag's order is not in a
    record.)"""
    return (
        bytes(game.board.tiles),
        game.board.tile_count,
        tuple(tuple(sorted(p.rack)) for p in game.players),
        tuple(p.score for p in game.players),
        tuple(p.lost_turns for p in game.players),
        tuple(event_key(e) for e in game.events),
        game.turn,
        game.scoreless,
        game.termination,
        game.went_out,
        game.finish_winner,
        game.outcome(),
        tuple(game.clock_used),
        game.turn_elapsed,
    )


def written(game: Game) -> str:
    """The game's record as GCG, with the racks left at the end (``#rack1``...)."""
    record = game.record()
    record.final_racks = {i: tuple(sorted(p.rack)) for i, p in enumerate(game.players)}
    return gcg.dumps(record)


def round_trip(game: Game) -> tuple[str, Game]:
    """Write the game, read it back, replay it: the same record, a clean
    check, and the same game."""
    text = written(game)
    record = gcg.loads(text)
    assert gcg.dumps(record) == text, "writing what was read gives the same text"
    original = game.record()
    assert record.events == original.events
    assert record.pragmas == original.pragmas
    report = replay.check(record)
    assert report.ok and not report.findings, [f.format() for f in report.findings]
    replayed = replay.replay(record)
    assert replay.rules_for(record).replace(name=game.rules.name) == game.rules
    assert state(replayed) == state(game)
    return text, replayed


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def move(text: str) -> Move:
    return Move.from_gcg(text)


# -- rules as pragmas ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_reads_back_from_its_pragmas(name: str) -> None:
    rules = PRESETS[name]
    pragmas = gcg.rules_pragmas(rules)
    assert gcg.pragma_rules(pragmas) == rules.replace(name="standard")
    assert bool(pragmas) == (name != "standard")


def test_every_option_has_a_pragma_named_by_its_flag() -> None:
    changed = Rules(
        rack_size=9,
        bingo_tiles=8,
        bingo_bonus=40,
        min_first_word=4,
        challenge=ChallengeMode.TEN_POINT,
        scoreless_turns=6,
        exchange_min_bag=1,
        finish_target=300,
        anagram=True,
        recycle=True,
        blank_swap=True,
        open_dictionary=True,
        turn_time=90.5,
        game_clock=1500.0,
        overtime_penalty=10,
    )
    pragmas = dict(gcg.rules_pragmas(changed))
    assert pragmas == {
        "challenge-rule": "10-point",
        "scoreless-turns": "6",
        "rack-size": "9",
        "bingo-tiles": "8",
        "bingo-bonus": "40",
        "min-first-word": "4",
        "exchange-min-bag": "1",
        "finish-target": "300",
        "anagram": "",
        "recycle": "",
        "blank-swap": "",
        "open-dictionary": "",
        "turn-time": "90.5",
        "game-clock": "1500",
        "overtime-penalty": "10",
    }
    named = {("challenge-rule" if o.name == "challenge" else o.flag) for o in OPTIONS.values()}
    assert set(pragmas) | {"finish-level", "finish-player-targets"} == named
    assert gcg.pragma_rules(gcg.rules_pragmas(changed)) == changed.replace(name="standard")
    assert dict(gcg.rules_pragmas(Rules(finish_level=FinishLevel.EXPERT))) == {"finish-level": "expert"}
    assert dict(gcg.rules_pragmas(Rules(finish_player_targets=(200, 70)))) == {"finish-player-targets": "200 70"}


def test_a_variation_record_states_its_rules_in_its_head() -> None:
    game = game_with(Rules(rack_size=9, finish_level=FinishLevel.EXPERT, game_clock=1500.0, overtime_penalty=10),
                     ("AEIOULNRS", "EEIOUANRT"), AcceptAll())
    head = lines_of(gcg.dumps(game.record()))
    assert head[:4] == ["#character-encoding UTF-8", "#player1 alice alice", "#player2 bob bob", "#lexicon any"]
    assert head[4:] == [
        "#rack-size 9",
        "#finish-level expert",
        "#game-clock 1500",
        "#overtime-penalty 10",
    ]


def test_a_bad_rules_pragma_is_reported_not_guessed() -> None:
    report = replay.check(gcg.loads("#rack-size nine\n>a: HNOR 8F HORN +14 14\n"))
    assert not report.ok and report.game is None
    assert report.errors[0].message.startswith("cannot set up the game: #rack-size 'nine': ")
    report = replay.check(gcg.loads("#finish-level expert\n#finish-target 300\n>a: HNOR 8F HORN +14 14\n"))
    assert "both set the Finish Line target" in report.errors[0].message
    # Other programs' challenge rules are left alone, as before.
    assert replay.check(gcg.loads("#challenge-rule TRIPLE\n>a: HNOR 8F HORN +14 14\n")).ok


# -- standard records are unchanged ------------------------------------------------------------

# Written by the code before variation records existed (the same game, two rule sets).
STANDARD_RECORD = """\
#character-encoding UTF-8
#player1 alice alice
#player2 bob bob
#lexicon worked
>alice: AEHINOR 8F HORN +14 14
>bob: AEFMQXZ H6 FA.M +9 9
>alice: AEIITU? -AEI +0 14
>bob: AEPQSTX 10F PASTE +25 34
>alice: BMOUUUV 9H .OB +16 30
>bob: EIOOQXZ J9 ..ZO +15 49
>bob: EIOOQXZ -- -15 34
>alice: AMRUUUV - +0 30
>bob: EIOOQXZ - +0 34
>alice: AMRUUUV - +0 30
>alice: AMRUUUV (AMRUUUV) -12 18
>bob: EIOOQXZ (EIOOQXZ) -32 2
"""

FIVE_POINT_RECORD = """\
#character-encoding UTF-8
#player1 alice alice
#player2 bob bob
#lexicon worked
#challenge-rule 5-point
#scoreless-turns 3
>alice: AEHINOR 8F HORN +14 14
>bob: AEFMQXZ H6 FA.M +9 9
>alice: AEIITU? -AEI +0 14
>bob: AEPQSTX 10F PASTE +25 34
>alice: BMOUUUV 9H .OB +16 30
>bob: EIOOQXZ J9 ..ZO +15 49
>bob: EIOOQXZ -- -15 34
>alice: AMRUUUV - +0 30
>bob: EIOOQXZ - +0 34
>alice: AMRUUUV (AMRUUUV) -12 18
>bob: EIOOQXZ (EIOOQXZ) -32 2
"""


def scripted_game(rules: Rules | None = None) -> Game:
    words = ["HORN", "FARM", "PASTE", "FARMS", "MOB", "NOT", "BE", "BIT", "PI", "AT"]
    game = Game(["alice", "bob"], rules=rules, lexicon=WordList(words, name="worked"), seed=7, first=0)
    game.set_rack(0, "HNORAEI", exact=True)
    game.push(game.parse_move("8F HORN"))
    game.set_rack(1, "AFMXQZE", exact=True)
    game.push(game.parse_move("H6 FA.M"))
    game.push(Move.exchange(game.alphabet.parse_rack("AEI")))
    game.set_rack(1, "PASTEXQ", exact=True)
    game.push(game.parse_move("10F PASTE"))
    game.set_rack(0, "MOBUUUV", exact=True)
    game.push(game.parse_move("9H MOB"))
    game.set_rack(1, "XQZO")
    game.push(game.parse_move("J9 ..ZO"))
    game.challenge(0)
    while not game.is_over():
        game.push(Move.pass_())
    return game


@pytest.mark.parametrize(
    ("rules", "expected"),
    [(None, STANDARD_RECORD), (Rules(challenge=ChallengeMode.FIVE_POINT, scoreless_turns=3), FIVE_POINT_RECORD)],
)
def test_records_without_variations_are_written_as_before(rules: Rules | None, expected: str) -> None:
    assert gcg.dumps(scripted_game(rules).record()) == expected
    report = replay.check(gcg.loads(expected))
    assert report.ok and report.game is not None and report.game.scores == [18, 2]


# -- nine-tile racks ----------------------------------------------------------------------------


def test_nine_tile_bingo() -> None:
    game = game_with(Rules(rack_size=9), ("AEIOULNRS", "EEIOUANRT"), AcceptAll())
    score = game.push(game.parse_move("8G AEIOULNR"))  # eight tiles: a bingo
    assert score > 50
    game.push(Move.pass_())
    text, replayed = round_trip(game)
    assert "#rack-size 9" in lines_of(text)
    assert f">alice: AEILNORSU 8G AEIOULNR +{score} {score}" in lines_of(text)
    assert len(replayed.rack(0)) == 9


# -- Finish Line ----------------------------------------------------------------------------------


def test_finish_line_end() -> None:
    game = game_with(Rules(finish_player_targets=(500, 20)), ("EATSQOI", "ZAXEIOU"), AcceptAll())
    game.push(game.parse_move("8G EAT"))
    game.push(game.parse_move("9G ZA"))
    assert game.termination is Termination.FINISH_LINE
    text, replayed = round_trip(game)
    assert "#finish-player-targets 500 20" in lines_of(text)
    assert lines_of(text)[-3] == ">bob: AEIOUXZ 9G ZA +44 44", "no rack adjustments follow"
    assert replayed.finish_winner == 1 and replayed.finish_targets == (500, 20)


def test_finish_line_level() -> None:
    game = game_with(Rules(finish_level=FinishLevel.BEGINNER), ("EATSQOI", "ZAXEIOU"), AcceptAll())
    game.push(game.parse_move("8G EAT"))
    text, replayed = round_trip(game)
    assert "#finish-level beginner" in lines_of(text)
    assert replayed.finish_targets == (70, 70)


# -- minimum first word -------------------------------------------------------------------------


def test_minimum_first_word() -> None:
    game = game_with(Rules(min_first_word=4), ("EATSQOI", "XSAEIOU"), AcceptAll())
    game.push(Move.pass_())  # alice cannot make four letters
    game.push(game.parse_move("8H XSAE"))
    text, _ = round_trip(game)
    assert "#min-first-word 4" in lines_of(text)


def test_a_first_word_too_short_for_the_record_rules_is_reported() -> None:
    text = "#min-first-word 4\n#player1 a a\n#player2 b b\n>a: EATSQOI 8G EAT +6 6\n"
    report = replay.check(gcg.loads(text))
    (error,) = report.errors
    assert error.line == 4 and error.message.startswith("illegal placement") and "at least 4" in error.message
