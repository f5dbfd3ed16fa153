"""Game records of variation games: the rules as pragmas, the variations'
events as lines a standard reader can skip, read back exactly, and replayed
to the same game (every score and total checked as for standard records)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamestate import event_key
from tilebag import AcceptAll, EventKind, FormatError, Game, Move, Termination, WordList
from tilebag.formats import gcg, replay
from tilebag.lexicon import Lexicon
from tilebag.move import MoveKind
from tilebag.record import GameRecord
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
        "#clock-used 0 0",
        # the game is not over: the racks and who is to move, to resume it
        "#rack1 AEILNORSU",
        "#rack2 AEEINORTU",
        "#to-move alice",
    ]


def test_a_bad_rules_pragma_is_a_malformed_record_naming_its_line() -> None:
    with pytest.raises(FormatError) as info:
        gcg.loads("#player1 a a\n#rack-size nine\n>a: HNOR 8F HORN +14 14\n", source="x.gcg")
    assert str(info.value).startswith("x.gcg:2: #rack-size 'nine': ")
    with pytest.raises(FormatError) as info:
        gcg.loads("#note a conflict\n#finish-level expert\n#finish-target 300\n>a: HNOR 8F HORN +14 14\n")
    assert info.value.line == 2 and "both set the Finish Line target" in str(info.value)
    lenient = gcg.loads("#rack-size nine\n>a: HNOR 8F HORN +14 14\n", lenient=True)
    assert [e.line for e in lenient.errors] == [1]
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


# -- anagram plays ----------------------------------------------------------------------------------


def test_anagram_play() -> None:
    game = game_with(Rules(anagram=True), ("EATZQJO", "SXAEIOU"))
    game.push(game.parse_move("8G EAT"))
    assert game.push(move("anagram 8G TEAS")) == 4
    game.push(Move.pass_())
    text, replayed = round_trip(game)
    lines = lines_of(text)
    # The whole new word in a pragma, then a standard placement of the tile
    # added, through the squares of the word it rearranged.
    at = lines.index("#anagram-play bob: 8G TEAS")
    assert lines[at + 1] == ">bob: AEIOSUX 8G ...S +4 4"
    play = replayed.events[1]
    assert play.kind is EventKind.PLACE and play.move is not None and play.move.kind is MoveKind.ANAGRAM


def test_anagram_play_that_changes_a_cross_word() -> None:
    game = game_with(Rules(anagram=True), ("EATZQJO", "HSAEIOU"))
    game.push(game.parse_move("8G EAT"))
    game.push(game.parse_move("H7 HA"))
    game.push(Move.pass_())
    assert game.push(move("anagram 8G TEAS")) == 9  # TEAS 4, HE 5
    text, _ = round_trip(game)
    assert ">bob: AEIOSUX 8G ...S +9 14" in lines_of(text)


def test_challenged_off_anagram_play() -> None:
    game = game_with(Rules(anagram=True), ("EATZQJO", "SXAEIOU"), WordList(["EAT"]))
    game.push(game.parse_move("8G EAT"))
    game.push(move("anagram 8G TEAS"))
    assert not game.challenge(0).valid
    game.push(game.parse_move("9G ZA"))  # the board is EAT again: ZA hooks under it
    text, replayed = round_trip(game)
    lines = lines_of(text)
    at = lines.index("#anagram-play bob: 8G TEAS")
    assert lines[at + 1 : at + 3] == [">bob: AEIOSUX 8G ...S +4 4", ">bob: AEIOSUX -- -4 0"]
    assert replayed.board.word_text(Move.place(7, 6, False, (0, 0, 0))) == "EAT"


def test_anagram_written_after_a_withdrawn_play_plays_through_the_right_squares() -> None:
    game = game_with(Rules(anagram=True), ("EATZQJO", "SXAEIOU"), WordList(["EAT", "TEAS"]))
    game.push(game.parse_move("8G EAT"))
    game.push(game.parse_move("8G ...S"))  # EATS...
    assert not game.challenge(0).valid  # ...is not in the word list: the S comes off J8
    game.push(Move.pass_())
    game.push(move("anagram 8G TEAS"))
    text, _ = round_trip(game)
    lines = lines_of(text)
    assert lines[lines.index("#anagram-play bob: 8G TEAS") + 1] == ">bob: AEIOSUX 8G ...S +4 4"


# -- recycle ----------------------------------------------------------------------------------------


def test_recycle_twice_in_one_turn() -> None:
    game = game_with(Rules(recycle=True), ("TEAQJOI", "ZTXEIOU"))
    game.push(game.parse_move("8G TEA"))
    game.push(move("recycle G8 Z"))
    game.push(move("recycle G8 T"))
    game.push(move("recycle G8 Z"))
    game.push(Move.pass_())
    text, replayed = round_trip(game)
    lines = lines_of(text)
    at = lines.index("#action bob: EIOTUXZ recycle G8 Z")
    assert lines[at : at + 4] == [
        "#action bob: EIOTUXZ recycle G8 Z",
        "#action bob: EIOTTUX recycle G8 T",
        "#action bob: EIOTUXZ recycle G8 Z",
        ">bob: EIOTTUX - +0 0",
    ]
    assert [e.kind for e in replayed.events[1:4]] == [EventKind.RECYCLE] * 3
    assert replayed.board.word_text(Move.place(7, 6, False, (0, 0, 0))) == "ZEA"


def test_recycle_then_a_play_and_notes_stay_with_their_events() -> None:
    game = game_with(Rules(recycle=True), ("TEAQJOI", "ZTXEIOU"), AcceptAll())
    game.push(game.parse_move("8G TEA"))
    game.push(move("recycle G8 Z"))
    game.push(game.parse_move("I8 .T"))
    record = game.record()
    record.final_racks = {i: tuple(sorted(p.rack)) for i, p in enumerate(game.players)}
    record.events[1].notes.append("Z for T")
    record.events[2].notes.append("then TO")
    text = gcg.dumps(record)
    assert "#action bob: EIOTUXZ recycle G8 Z\n#note Z for T\n>bob: EIOTTUX I8 .T" in text
    back = gcg.loads(text)
    assert back == record
    assert state(replay.replay(back, lexicon=AcceptAll())) == state(game)


def test_illegal_recycles_in_a_record_are_reported_at_their_line() -> None:
    head = "#recycle\n#player1 a a\n#player2 b b\n>a: AEIJOQT 8G TEA +6 6\n"
    report = replay.check(gcg.loads(head + "#action b: EIOTUXZ recycle G9 Z\n"))
    assert report.errors[0].line == 5 and "the square is empty" in report.errors[0].message
    report = replay.check(gcg.loads(head + "#action b: EIOTUXQ recycle G8 Z\n>b: EIOTUXQ - +0 0\n"))
    assert report.ok  # the rack line is the recorder's note: a warning
    assert report.warnings[0].line == 5
    assert "recycles Z, which the recorded rack EIOQTUX does not hold" in report.warnings[0].message
    report = replay.check(gcg.loads(head.replace("#recycle\n", "") + "#action b: EIOTUXZ recycle G8 Z\n"))
    assert report.errors[0].line == 4 and "recycling is not in these rules" in report.errors[0].message


def test_recycled_words_are_checked_against_a_lexicon_like_plays() -> None:
    text = "#recycle\n#player1 a a\n#player2 b b\n>a: AEIJOQT 8G TEA +6 6\n#action b: EIOTUXZ recycle G8 X\n"
    assert replay.check(gcg.loads(text)).ok  # the record is the authority on what was accepted
    report = replay.check(gcg.loads(text), lexicon=WordList(WORDS, name="small"))
    assert report.ok
    (warning,) = report.warnings
    assert warning.line == 5 and warning.message == "not in small: XEA"


# -- blank swap ---------------------------------------------------------------------------------------


def test_blank_swap_both_blanks() -> None:
    game = game_with(Rules(blank_swap=True), ("??EQJOI", "TAXEIOU"))
    game.push(game.parse_move("8G tEa"))
    game.push(move("swap G8"))
    game.push(move("swap I8"))
    game.push(Move.pass_())
    text, replayed = round_trip(game)
    lines = lines_of(text)
    assert "#blank-swap" in lines
    at = lines.index("#action bob: AEIOTUX swap G8")
    assert lines[at + 1 : at + 3] == ["#action bob: AEIOUX? swap I8", ">bob: EIOUX?? - +0 0"]
    assert replayed.rack(1).count(0) == 2


def test_a_blank_swap_without_the_letter_is_reported() -> None:
    text = "#blank-swap\n#player1 a a\n#player2 b b\n>a: ??EQJOI 8G tEa +2 2\n#action b: EIOSUXZ swap G8\n"
    report = replay.check(gcg.loads(text))
    assert report.ok and report.warnings[0].line == 5
    assert "swaps T, which the recorded rack EIOSUXZ does not hold" in report.warnings[0].message


# -- turn timer and game clock ----------------------------------------------------------------------


def test_time_out() -> None:
    game = game_with(Rules(turn_time=180.0, recycle=True), ("TEAQJOI", "ZTXEIOU"))
    game.push(game.parse_move("8G TEA"), seconds=100)
    game.push(move("recycle G8 Z"), seconds=100)
    game.time_out()
    game.push(Move.pass_(), seconds=20)
    text, replayed = round_trip(game)
    lines = lines_of(text)
    assert "#turn-time 180" in lines and "#clock-used 120 180" in lines
    at = lines.index("#time-out bob")
    assert lines[at - 1] == "#action bob: EIOTUXZ recycle G8 Z"
    assert lines[at + 1] == ">bob: EIOTTUX - +0 0", "a standard reader sees a pass"
    assert replayed.events[2].kind is EventKind.TIME_OUT


def test_a_time_out_needs_a_turn_timer() -> None:
    report = replay.check(gcg.loads("#player1 a a\n#player2 b b\n#time-out a\n>a: EATSQOI - +0 0\n"))
    (error,) = report.errors
    assert error.line == 4 and error.message == "a time-out, but these rules have no turn timer"


def game_over_the_clock() -> Game:
    game = game_with(Rules(game_clock=60.0, overtime_penalty=10), ("TEAQJOI", "ZTXEIOU"))
    game.push(game.parse_move("8G TEA"), seconds=130)  # 70 s over: two started minutes
    for _ in range(4):
        game.push(Move.pass_(), seconds=1)
    assert game.is_over()
    return game


def test_game_clock_penalty_at_the_end() -> None:
    game = game_over_the_clock()
    text, replayed = round_trip(game)
    lines = lines_of(text)
    assert "#game-clock 60" in lines and "#overtime-penalty 10" in lines and "#clock-used 132 2" in lines
    assert lines[-3] == ">alice: (time) -20 -42"
    # The penalty counts among the adjustments at the end, as in the game.
    outcome = replayed.outcome()
    assert outcome is not None and outcome.scores_before_adjustments == (6, 0)


def test_game_clock_penalty_without_the_clock_times() -> None:
    """A record that does not say how long each player took (as other
    programs write them): the recorded penalty sets the clock."""
    game = game_over_the_clock()
    text = "\n".join(line for line in lines_of(written(game)) if not line.startswith("#clock-used")) + "\n"
    report = replay.check(gcg.loads(text))
    assert report.ok, [f.format() for f in report.findings]
    assert report.game is not None
    assert [event_key(e) for e in report.game.events] == [event_key(e) for e in game.events]
    assert report.game.outcome() == game.outcome()


def test_a_wrong_time_penalty_is_reported_against_the_clock() -> None:
    text = written(game_over_the_clock()).replace("(time) -20 -42", "(time) -10 -32")
    report = replay.check(gcg.loads(text))
    messages = [(f.line, f.message) for f in report.errors]
    line = lines_of(text).index(">alice: (time) -10 -32") + 1
    assert (line, "recorded time penalty -10, the game clock gives -20 (10 points per started minute over)") in messages
    assert (line, "recorded running total -32, the rules give -42") in messages
    under = written(game_over_the_clock()).replace("#clock-used 132 2", "#clock-used 59 2")
    report = replay.check(gcg.loads(under))
    assert "recorded time penalty -20, but alice used 59 s, not over the game clock of 60 s" in [
        f.message for f in report.errors
    ]
    missing = written(game_over_the_clock()).replace(">alice: (time) -20 -42\n", "")
    report = replay.check(gcg.loads(missing))
    assert [f.message for f in report.errors] == [
        "alice used 132 s of a 60 s game clock: a time penalty of -20 is not in the record"
    ]


# -- wrong scores, the command line, and standard readers ---------------------------------------------


def anagram_record() -> str:
    game = game_with(Rules(anagram=True, recycle=True), ("EATZQJO", "SXAEIOU"), AcceptAll())
    game.push(game.parse_move("8G EAT"))
    game.push(move("anagram 8G TEAS"))
    game.push(move("recycle G8 Z"))  # alice: ZEAS is not a word, but the record says it was accepted
    game.push(Move.pass_())
    return written(game)


def test_a_wrong_score_in_a_variation_record_is_reported_with_its_line() -> None:
    text = anagram_record().replace("8G ...S +4 4", "8G ...S +6 6")
    line = lines_of(text).index(">bob: AEIOSUX 8G ...S +6 6") + 1
    report = replay.check(gcg.loads(text))
    assert [(f.line, f.message) for f in report.errors] == [
        (line, "recorded score +6, the rules give +4 (TEAS 4)"),
        (line, "recorded running total 6, the rules give 4"),
    ]
    with pytest.raises(replay.ReplayError, match=f"^<record>:{line}: >bob: AEIOSUX 8G ...S \\+6 6: recorded score"):
        replay.replay(gcg.loads(text))


def tilebag(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tilebag", *args], capture_output=True, text=True, timeout=120, check=False)


def test_gcg_check_command_on_variation_records(tmp_path: Path) -> None:
    good = tmp_path / "good.gcg"
    good.write_text(anagram_record(), encoding="utf-8")
    bad = tmp_path / "bad.gcg"
    text = anagram_record().replace("8G ...S +4 4", "8G ...S +6 6")
    bad.write_text(text, encoding="utf-8")
    line = lines_of(text).index(">bob: AEIOSUX 8G ...S +6 6") + 1
    done = tilebag("gcg", "check", str(good), str(bad))
    assert done.returncode == 1, done.stderr
    out = done.stdout.splitlines()
    assert f"{good}: ok (4 events, 6-4)" in out
    assert f"{bad}:{line}: >bob: AEIOSUX 8G ...S +6 6: recorded score +6, the rules give +4 (TEAS 4)" in out


TILEBAG_TURN_PRAGMAS = ("#action ", "#anagram-play ", "#time-out ")


def test_a_reader_that_skips_unknown_pragmas_sees_a_standard_game() -> None:
    game = game_with(Rules(anagram=True, recycle=True, blank_swap=True, turn_time=180.0), ("??EQJOI", "TAXSIOU"))
    game.push(game.parse_move("8G tEa"))
    game.push(move("swap G8"))
    game.push(move("anagram 8G ETaS"))
    game.time_out()
    text = written(game)
    standard = "".join(line + "\n" for line in lines_of(text) if not line.startswith(TILEBAG_TURN_PRAGMAS))
    record = gcg.loads(standard)
    assert [e.kind for e in record.events] == [EventKind.PLACE, EventKind.PLACE, EventKind.PASS]
    assert [e.move for e in record.events if e.move is not None] == [move("8G tEa"), move("8G ...S"), Move.pass_()]
    # Every line is one of the standard forms: the scores and totals are the game's.
    assert [(e.score, e.total) for e in record.events] == [(2, 2), (3, 3), (0, 2)]


# -- malformed variation lines ----------------------------------------------------------------------------

HEAD = "#player1 a a\n#player2 b b\n>a: AEIJOQT 8G TEA +6 6\n"


@pytest.mark.parametrize(
    ("tail", "line", "message"),
    [
        ("#anagram-play b: 8G TEAS\n>b: AEIOSUX -AEI +0 0\n", 5, "must be followed by b's placement line"),
        ("#anagram-play b: 8G TEAS\n>b: AEIOSUX 8G ...T +4 4\n", 5, "is not the anagram play 8G TEAS of line 4"),
        ("#anagram-play b: 8G TEAS\n>a: AEIOSUX -AEI +0 0\n", 5, "#anagram-play on line 4 is b's"),
        ("#anagram-play b: 8G\n", 4, "write #anagram-play as '#anagram-play nick: 8G TEAS'"),
        ("#time-out b\n>b: EIOTUXZ 8G ...S +4 4\n", 5, "must be followed by b's pass line"),
        ("#time-out b\n", 4, "#time-out is followed by no event line of its player"),
        ("#time-out b\n#action b: EIOTUXZ recycle G8 Z\n", 5, "comes before the event line #time-out on line 4"),
        ("#action b: EIOTUXZ 8G ...S\n", 4, "an #action is a recycle or a blank swap"),
        ("#action b: EIOTUXZ recycle G8\n", 4, "write it as 'recycle H8 X'"),
        ("#action c: EIOTUXZ recycle G8 Z\n", 4, "unknown player 'c'"),
    ],
)
def test_malformed_variation_lines_name_their_line(tail: str, line: int, message: str) -> None:
    with pytest.raises(FormatError, match=str(line)) as info:
        gcg.loads(HEAD + tail)
    assert info.value.line == line
    assert message in str(info.value)


def test_lenient_reading_skips_a_malformed_variation_line() -> None:
    record = gcg.loads(HEAD + "#anagram-play b: 8G TEAS\n>b: AEIOSUX -AEI +0 0\n>a: AEIJOQT - +0 6\n", lenient=True)
    assert [e.line for e in record.errors] == [5]
    assert [e.kind for e in record.events] == [EventKind.PLACE, EventKind.PASS]


def test_an_action_line_without_a_rack() -> None:
    record = gcg.loads(HEAD + "#action b: recycle G8 Z\n")
    event = record.events[-1]
    assert event.kind is EventKind.RECYCLE and event.rack is None and event.move == move("recycle G8 Z")
    assert gcg.event_lines(record, event) == ["#action b: recycle G8 Z"]
    assert isinstance(record, GameRecord)
