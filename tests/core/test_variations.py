"""The variations of the rules, one test per sentence of the SPEC's
"Variations" section, played through the API: each legal case, and illegal
attempts that are refused with a reason and leave the game unchanged."""

from __future__ import annotations

import pytest

from gamestate import assert_tiles_accounted, fingerprint
from tilebag import (
    AcceptAll,
    EventKind,
    Game,
    Illegal,
    IllegalMoveError,
    Move,
    PhonyError,
    Rules,
    Termination,
    WordList,
)
from tilebag.alphabet import BLANK, load_alphabet
from tilebag.lexicon import Lexicon
from tilebag.move import MoveKind
from tilebag.rules import ChallengeMode, FinishLevel, RulesError, find_rules

EN = load_alphabet("english")
WORDS = ["EAT", "TEA", "ATE", "ETA", "TEAS", "ETAS", "ZEA", "HA", "HE", "AT", "TA"]


def game_with(rules: Rules, racks: tuple[str, ...], lexicon: Lexicon | None = None) -> Game:
    """A game with these racks, the first seat to move."""
    game = Game(len(racks), rules=rules, lexicon=lexicon or WordList(WORDS, name="variations"), seed=3, first=0)
    for seat, rack in enumerate(racks):
        game.set_rack(seat, rack, exact=True)
    return game


def refused(game: Game, move: Move, reason: Illegal, match: str = "", seconds: float | None = None) -> None:
    """The move is refused for this reason and the game is unchanged."""
    before = fingerprint(game)
    with pytest.raises(IllegalMoveError, match=match) as info:
        game.push(move, seconds=seconds)
    assert info.value.reason is reason, info.value
    assert fingerprint(game) == before, "a refused move changed the game"


def move(text: str) -> Move:
    return Move.from_gcg(text, EN)


# -- 9-tile racks: racks of 9; the bingo bonus of 50 for 7, 8 or 9 tiles -------------


def test_nine_tile_racks_are_dealt_and_refilled() -> None:
    game = Game(4, rules=find_rules("nine-tile"), lexicon=AcceptAll(), seed=2, first=0)
    assert [len(game.rack(i)) for i in range(4)] == [9] * 4
    assert len(game.bag) == 100 - 36
    game.set_rack(0, "AEIOULNRS", exact=True)
    game.push(game.parse_move("8H AEI"))
    assert len(game.rack(0)) == 9
    assert_tiles_accounted(game)


@pytest.mark.parametrize(("word", "bonus"), [("AEIOUL", 0), ("AEIOULN", 50), ("AEIOULNR", 50), ("AEIOULNRS", 50)])
def test_nine_tile_bingo_for_seven_eight_or_nine_tiles(word: str, bonus: int) -> None:
    game = Game(2, rules=find_rules("nine-tile"), lexicon=AcceptAll(), seed=2, first=0)
    game.set_rack(0, "AEIOULNRS", exact=True)
    placement = game.parse_move(f"8G {word}")
    words = sum(w.score for w in game.words(placement))
    assert game.push(placement) == words + bonus


# -- Finish Line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "targets"),
    [(FinishLevel.BEGINNER, (70, 60, 50)), (FinishLevel.INTERMEDIATE, (120, 100, 90)), (FinishLevel.EXPERT, (200, 180, 160))],
)
def test_finish_line_targets_by_level_and_player_count(level: FinishLevel, targets: tuple[int, int, int]) -> None:
    for players, target in zip((2, 3, 4), targets, strict=True):
        game = Game(players, rules=Rules(finish_level=level), lexicon=AcceptAll(), seed=1)
        assert game.finish_targets == (target,) * players


def test_finish_line_per_player_and_custom_targets() -> None:
    assert Game(2, rules=Rules(finish_player_targets=(200, 70)), seed=1).finish_targets == (200, 70)
    assert Game(3, rules=Rules(finish_target=150), seed=1).finish_targets == (150, 150, 150)
    with pytest.raises(RulesError, match="2 targets for 3 players"):
        Game(3, rules=Rules(finish_player_targets=(200, 70)), seed=1)
    with pytest.raises(RulesError, match="both set the Finish Line target"):
        Rules(finish_level=FinishLevel.EXPERT, finish_target=300)


def test_finish_line_ends_the_game_at_once_and_counts_no_racks() -> None:
    game = game_with(Rules(finish_player_targets=(500, 20)), ("EATSQOI", "ZAXEIOU"), AcceptAll())
    assert game.push(game.parse_move("8G EAT")) == 6
    assert not game.is_over()
    # Z on the G9 double letter: ZA 21, EZ 21, AA 2
    assert game.push(game.parse_move("9G ZA")) == 44
    assert game.is_over() and len(game.bag) > 0
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.FINISH_LINE and outcome.winners == (1,)
    assert not [e for e in game.events if e.kind in (EventKind.END_RACK_PENALTY, EventKind.END_RACK_POINTS)]
    assert game.scores == [6, 44]
    assert "reached the Finish Line target of 20" in game.result_text()
    assert_tiles_accounted(game)


def test_finish_line_player_who_reaches_their_target_wins_without_leading() -> None:
    game = game_with(Rules(finish_player_targets=(500, 10)), ("ZAXQIEO", "HATSEOU"), AcceptAll())
    game.push(game.parse_move("8G ZAX"))
    game.push(game.parse_move("9G HA"))
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert game.scores[0] > game.scores[1]


def test_a_withdrawn_finishing_play_reopens_the_game() -> None:
    game = game_with(Rules(finish_target=10), ("ZAXQIEO", "HATSEOU"), WordList(["HAT"]))
    game.push(game.parse_move("8G ZAX"))
    assert game.is_over()
    assert not game.challenge(1).valid
    assert not game.is_over() and game.finish_winner is None and game.turn == 1
    assert_tiles_accounted(game)


# -- Minimum first word of 3, 4 or 5 letters ------------------------------------------------


@pytest.mark.parametrize("length", [3, 4, 5])
def test_minimum_first_word(length: int) -> None:
    game = game_with(Rules(min_first_word=length), ("EATSQOI", "XSAEIOU"), AcceptAll())
    refused(game, move(f"8H {'EATSQ'[: length - 1]}"), Illegal.FIRST_PLAY_TOO_SHORT, f"at least {length} tiles")
    game.push(Move.pass_())  # the turn passes until someone can
    game.push(game.parse_move(f"8H {'XSAEI'[:length]}"))
    assert game.board.tile_count == length
    assert game.is_legal(game.parse_move("H8 XE"))  # later plays may be shorter


# -- Anagram -------------------------------------------------------------------------------


def test_anagram_rearranges_one_word_in_its_squares_then_adds_tiles() -> None:
    game = game_with(Rules(anagram=True), ("EATZQJO", "SXAEIOU"))
    game.push(game.parse_move("8G EAT"))
    rack = game.rack(1)
    # premium squares under the original word (H8) are disregarded: T E A S at face value
    assert game.push(move("anagram 8G TEAS")) == 4
    assert game.board.word_text(Move.place(7, 6, False, (0, 0, 0, 0))) == "TEAS"
    event = game.events[-1]
    assert event.kind is EventKind.PLACE and event.move is not None and event.move.kind is MoveKind.ANAGRAM
    assert EN.format_rack(event.rack or ()) == EN.format_rack(rack)
    assert len(game.rack(1)) == 7
    assert_tiles_accounted(game)


def test_anagram_cross_words_it_changes_must_be_words_and_score_face_value() -> None:
    game = game_with(Rules(anagram=True, challenge=ChallengeMode.VOID), ("EATZQJO", "HSAEIOU"))
    game.push(game.parse_move("8G EAT"))
    game.push(game.parse_move("H7 HA"))  # down through the A of EAT
    game.push(Move.pass_())
    with pytest.raises(PhonyError, match="HT"):
        game.push(move("anagram 8G ETAS"))  # would turn HA into HT
    # TEAS puts E under the H: HE (4 + 1) counts at face value with TEAS (4)
    assert game.push(move("anagram 8G TEAS")) == 4 + 5
    assert {EN.format_word(w) for w in game.words_of(game.events[-1])} == {"TEAS", "HE"}


def test_anagram_refusals_name_the_rule() -> None:
    game = game_with(Rules(anagram=True, challenge=ChallengeMode.VOID), ("EATZQJO", "SXAEIOU"))
    refused(game, move("anagram 8G TEAS"), Illegal.NOT_AN_ANAGRAM, "no word to rearrange")
    game.push(game.parse_move("8G EAT"))
    refused(game, move("anagram 8G TXAS"), Illegal.NOT_AN_ANAGRAM, "not a rearrangement of EAT")
    refused(game, move("anagram 8G TEA"), Illegal.NO_TILES, "adds at least one tile")
    refused(game, move("anagram 8G TEAZ"), Illegal.TILE_NOT_ON_RACK, "has no Z")
    refused(game, move("anagram 8G TEASE"), Illegal.PHONY, "TEASE")
    plain = game_with(Rules(), ("EATZQJO", "SXAEIOU"))
    plain.push(plain.parse_move("8G EAT"))
    refused(plain, move("anagram 8G TEAS"), Illegal.VARIATION_NOT_IN_PLAY, "not in these rules")


def test_a_challenged_anagram_play_puts_the_word_back_as_it_was() -> None:
    game = game_with(Rules(anagram=True), ("EATZQJO", "SXAEIOU"), WordList(["EAT"]))
    game.push(game.parse_move("8G EAT"))
    board, rack = bytes(game.board.tiles), sorted(game.rack(1))
    game.push(move("anagram 8G TEAS"))
    result = game.challenge(0)
    assert not result.valid and "TEAS" in result.phonies
    assert bytes(game.board.tiles) == board and sorted(game.rack(1)) == rack
    assert_tiles_accounted(game)


# -- Recycle -------------------------------------------------------------------------------


def test_recycle_replaces_one_letter_scores_nothing_and_the_turn_goes_on() -> None:
    game = game_with(Rules(recycle=True), ("TEAQJOI", "ZTXEIOU"))
    game.push(game.parse_move("8G TEA"))
    assert game.push(move("recycle G8 Z")) == 0  # TEA -> ZEA
    assert game.turn == 1 and game.scores == [game.scores[0], 0]
    assert EN.format_word([game.board.at(7, 6)]) == "Z" and "T" in EN.format_rack(game.rack(1))
    assert game.events[-1].kind is EventKind.RECYCLE
    # repeatable, one letter at a time
    game.push(move("recycle G8 T"))
    assert EN.format_word([game.board.at(7, 6)]) == "T" and "Z" in EN.format_rack(game.rack(1))
    game.push(Move.pass_())
    assert game.turn == 0
    assert_tiles_accounted(game)


def test_recycle_refusals_name_the_rule() -> None:
    game = game_with(Rules(recycle=True), ("TEAQJOI", "ZTXEIOU"))
    game.push(game.parse_move("8G TEA"))
    refused(game, move("recycle G8 X"), Illegal.PHONY, "XEA")
    refused(game, move("recycle G8 Q"), Illegal.TILE_NOT_ON_RACK, "has no Q")
    refused(game, move("recycle G9 Z"), Illegal.NO_CHANGE, "empty")
    refused(game, move("recycle G8 T"), Illegal.NO_CHANGE, "same tile")
    plain = game_with(Rules(), ("TEAQJOI", "ZTXEIOU"))
    plain.push(plain.parse_move("8G TEA"))
    refused(plain, move("recycle G8 Z"), Illegal.VARIATION_NOT_IN_PLAY, "not in these rules")


# -- Blank swap -------------------------------------------------------------------------------


def test_blank_swap_both_blanks_in_one_turn() -> None:
    game = game_with(Rules(blank_swap=True), ("??EQJOI", "TAXEIOU"))
    game.push(game.parse_move("8G tEa"))
    assert game.push(move("swap G8")) == 0
    assert game.push(move("swap I8")) == 0
    assert game.turn == 1 and game.rack(1).count(BLANK) == 2
    assert game.board.word_text(Move.place(7, 6, False, (0, 0, 0))) == "TEA"
    assert [e.kind for e in game.events[-2:]] == [EventKind.BLANK_SWAP, EventKind.BLANK_SWAP]
    game.push(Move.pass_())
    assert_tiles_accounted(game)


def test_blank_swap_refusals_name_the_rule() -> None:
    game = game_with(Rules(blank_swap=True), ("??EQJOI", "SXZEIOU"))
    game.push(game.parse_move("8G tEa"))
    refused(game, move("swap G8"), Illegal.TILE_NOT_ON_RACK, "stands for T")
    refused(game, move("swap H8"), Illegal.NO_CHANGE, "no blank")
    plain = game_with(Rules(), ("??EQJOI", "TAXEIOU"))
    plain.push(plain.parse_move("8G tEa"))
    refused(plain, move("swap G8"), Illegal.VARIATION_NOT_IN_PLAY, "not in these rules")


# -- Open dictionary ------------------------------------------------------------------------


def test_kids_preset_opens_the_dictionary_and_refuses_phonies_on_entry() -> None:
    kids = find_rules("kids")
    assert kids.open_dictionary and kids.challenge is ChallengeMode.VOID
    assert not find_rules("standard").open_dictionary


# -- Timers ---------------------------------------------------------------------------------------


def test_turn_timer_refuses_a_late_move_and_the_turn_becomes_a_pass() -> None:
    game = game_with(Rules(turn_time=180.0, recycle=True), ("TEAQJOI", "ZTXEIOU"))
    refused(game, move("8G TEA"), Illegal.TIME_UP, "the turn timer allows 180 s", seconds=181)
    game.push(game.parse_move("8G TEA"), seconds=100)
    game.push(move("recycle G8 Z"), seconds=100)  # the time of a turn adds up
    refused(game, Move.pass_(), Illegal.TIME_UP, "took 190 s", seconds=90)
    game.time_out()
    assert game.events[-1].kind is EventKind.TIME_OUT and game.turn == 0 and game.scoreless == 1
    assert game.clock_used == [100.0, 180.0]


def test_game_clock_overtime_costs_points_per_started_minute() -> None:
    game = game_with(Rules(game_clock=60.0, overtime_penalty=10), ("TEAQJOI", "ZTXEIOU"))
    game.push(Move.pass_(), seconds=130)  # 70 s over: two started minutes
    for _ in range(3):
        game.push(Move.pass_(), seconds=1)
    assert game.is_over()
    penalties = [e for e in game.events if e.kind is EventKind.TIME_PENALTY]
    assert [(e.player, e.score) for e in penalties] == [(0, -20)]
    assert game.overtime_penalties() == [20, 0]


def test_every_action_of_a_variation_is_undone_exactly() -> None:
    game = game_with(Rules(recycle=True, blank_swap=True, anagram=True, turn_time=60.0), ("??EQJOI", "TAXSIOU"))
    states = [fingerprint(game)]
    game.push(game.parse_move("8G tEa"), seconds=5)
    states.append(fingerprint(game))
    game.push(move("swap G8"), seconds=5)
    states.append(fingerprint(game))
    game.push(move("anagram 8G ETaS"), seconds=5)
    states.append(fingerprint(game))
    game.time_out()
    states.append(fingerprint(game))
    for state in reversed(states[:-1]):
        game.pop()
        assert fingerprint(game) == state
