"""``tilebag play`` with the variations of the rules, driven in-process: a
:class:`~tilebag.ui.session.Session` reads scripted lines and the time comes from
a clock the test moves on, so timers run out without waiting.

Each game is set up with known racks (the first seat to move) and a small
word list, so what each line does is known in advance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from gamestate import assert_tiles_accounted, fingerprint
from tilebag import Game, Move, Rules, Termination, WordList
from tilebag.alphabet import BLANK
from tilebag.engine.players import Player
from tilebag.lexicon import Lexicon
from tilebag.record import EventKind
from tilebag.rules import ChallengeMode, find_rules
from tilebag.ui.cli import build_parser, rules_from_args
from tilebag.ui.narration import help_text
from tilebag.ui.play import build_game
from tilebag.ui.session import Console, Session

WORDS = WordList(["EAT", "TEA", "ATE", "TEAS", "ZEA", "TA", "AT", "HA", "ZA", "ZAX", "AA", "QI", "XI"], name="tiny")
PLAYERS = ("alice", "bob")

Line = str | tuple[float, str]
"""A line typed, or the seconds that pass before it is typed and the line."""


@dataclass
class FakeClock:
    """A clock that moves only when told to."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Script(Console):
    """Scripted input and collected output, like a session read from a pipe."""

    lines: list[Line]
    clock: FakeClock = field(default_factory=FakeClock)
    out: list[str] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)

    def read(self, prompt: str) -> str | None:
        if not self.lines:
            return None
        line = self.lines.pop(0)
        if isinstance(line, tuple):
            seconds, line = line
            self.clock.now += seconds
        self.prompts.append(prompt.removesuffix("> "))
        self.out.append(prompt + line)
        return line.strip()

    def say(self, text: str = "") -> None:
        self.out.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def new_game(rules: Rules, racks: Sequence[str], lexicon: Lexicon = WORDS) -> Game:
    """A game with these racks, alice to move first."""
    game = Game(list(PLAYERS[: len(racks)]), rules=rules, lexicon=lexicon, seed=3, first=0)
    for seat, rack in enumerate(racks):
        game.set_rack(seat, rack, exact=True)
    return game


def play(game: Game, lines: Sequence[Line], bots: dict[int, Player] | None = None) -> Script:
    """Run a session of ``game`` on these lines; the console it wrote to."""
    script = Script(list(lines))
    status = Session(game, script, bots=bots, clock=script.clock).run()
    assert status == 0, script.text
    return script


# -- the rules in play ---------------------------------------------------------------


def test_a_nine_tile_game_deals_nine_tiles_and_says_so() -> None:
    args = build_parser().parse_args(["play", "alice", "bob", "--rules", "nine-tile", "--seed", "5"])
    args.rules = rules_from_args(args)
    table = build_game(args)
    game = table.game
    assert not table.bots
    assert [len(game.rack(i)) for i in range(2)] == [9, 9]
    script = play(game, [])
    assert "Rules: nine-tile — rack size 9" in script.text
    racks = [line for line in script.out if "'s rack: " in line]
    assert racks and all(len(line.split(": ")[1]) == 9 for line in racks)
    assert "Bag: 82 tiles" in script.text


def test_a_finish_line_game_ends_at_the_target() -> None:
    game = new_game(Rules(name="finish-line", finish_target=10), ("EATSQOI", "ZAXEIOU"))
    # alice 8G EAT for 6, bob H7 ZA for 11; alice may challenge it, and accepts it (Enter)
    script = play(game, ["8G EAT", "H7 ZA", ""])
    assert "Finish Line: the first to reach 10 points wins; the game ends at once and no racks are counted." in (
        script.text
    )
    assert "Scores: >alice: 0 | bob: 0    Finish Line: 10" in script.text
    assert "Scores: alice: 6 | >bob: 0    Finish Line: 10" in script.text
    assert game.termination is Termination.FINISH_LINE and game.is_over()
    assert "bob ended the game with H7 Z(A) (+11): the Finish Line target of 10 is reached." in script.text
    assert "Game over: bob reached the Finish Line target of 10 with 11 points; no racks are counted." in script.text
    assert "bob wins 6-11 (bob reached the Finish Line target of 10)" in script.text
    assert game.result_text() in script.text
    assert "for the tiles left on the rack" not in script.text
    assert script.prompts == ["alice", "bob", "alice"]


def test_finish_line_targets_per_player_are_shown_by_name() -> None:
    game = new_game(Rules(finish_player_targets=(200, 70)), ("EATSQOI", "ZAXEIOU"))
    script = play(game, ["scores"])
    assert "Scores: >alice: 0 | bob: 0    Finish Line: alice 200, bob 70" in script.text
    assert "the first to reach their target wins (alice 200, bob 70)" in script.text


def test_minimum_first_word_is_said_and_pass_works() -> None:
    game = new_game(Rules(min_first_word=3), ("EATSQOI", "ZAXEIOU"))
    script = play(game, ["help", "8H AT", "-", "8G ZAX"])
    assert script.text.count("The first word needs 3 letters or more (pass or exchange if you cannot make one).") == 4
    assert "Not allowed: 8H AT: " in script.text
    assert "alice passes." in script.text
    assert "bob plays 8G ZAX" in script.text
    assert script.prompts == ["alice", "alice", "alice", "bob"]


# -- the actions of the variations -----------------------------------------------------


def test_recycle_then_a_play_in_one_turn() -> None:
    game = new_game(Rules(recycle=True), ("TEAQJOI", "ZTXEIOU"))
    script = play(game, ["8G TEA", "recycle G8 Z", "I7 TA"])
    assert "bob recycles G8: Z in place of the T (now ZEA); the T goes to bob's rack. The turn goes on." in script.text
    assert "bob's rack: EIOTTUX" in script.text  # the new rack is shown: the Z went, a T came
    assert "bob plays I7 T(A): TA 3 = 3 points (total 3)" in script.text  # T on the I7 double letter
    assert script.prompts == ["alice", "bob", "bob"]
    assert [e.kind for e in game.events] == [EventKind.PLACE, EventKind.RECYCLE, EventKind.PLACE]
    assert "pass the keyboard to bob" in script.text and script.text.count("pass the keyboard to bob") == 1
    assert_tiles_accounted(game)


def test_recycle_a_blank_written_in_lower_case() -> None:
    game = new_game(Rules(recycle=True), ("TEAQJOI", "?TXEIOU"))
    script = play(game, ["8G TEA", "recycle G8 z"])
    assert "bob recycles G8: a blank as Z in place of the T (now zEA)" in script.text
    assert game.board.at(7, 6) == game.alphabet.parse_word("z")[0]
    assert BLANK not in game.rack(1)


def test_blank_swaps_then_the_turn_goes_on() -> None:
    game = new_game(Rules(blank_swap=True), ("??EQJOI", "TAXEIOU"))
    script = play(game, ["8G tEa", "swap G8", "swap I8", "-"])
    assert "bob puts down T for the blank on G8; the blank goes to bob's rack. The turn goes on." in script.text
    assert "bob puts down A for the blank on I8" in script.text
    assert "bob's rack: EIOUX??" in script.text
    assert "bob passes." in script.text
    assert script.prompts == ["alice", "bob", "bob", "bob"]
    assert game.rack(1).count(BLANK) == 2
    assert_tiles_accounted(game)


def test_a_blank_swap_without_the_letter_is_refused_with_the_reason() -> None:
    game = new_game(Rules(blank_swap=True), ("??EQJOI", "SXZEIOU"))
    game.push(game.parse_move("8G tEa"))
    before = fingerprint(game)
    script = play(game, ["swap g8"])
    assert "Not allowed: swap G8: the blank stands for T, and the rack EIOSUXZ has no T" in script.text
    assert "lower-case letters are blanks" not in script.text
    assert fingerprint(game) == before


def test_an_anagram_play() -> None:
    game = new_game(Rules(anagram=True), ("EATZQJO", "SXAEIOU"))
    script = play(game, ["8G EAT", "anagram 8G TEAS"])
    assert "bob rearranges EAT and plays anagram 8G TEAS: TEAS 4 = 4 points (total 4)" in script.text
    assert game.scores == [6, 4]
    assert "You may type 'challenge' to challenge bob's anagram 8G TEAS (+4) before you move." in script.text


@pytest.mark.parametrize("action", ["recycle G8 Z", "swap G8", "anagram 8G TEAS"])
def test_the_actions_are_refused_when_the_rules_do_not_allow_them(action: str) -> None:
    game = new_game(Rules(), ("TEAQJOI", "ZTXSIOU"))
    game.push(game.parse_move("8G TEA"))
    before = fingerprint(game)
    script = play(game, [action, "help"])
    assert "Not allowed: " in script.text and "not in these rules" in script.text
    assert fingerprint(game) == before
    assert "Variations in these rules" not in script.text and "recycle G8 Z " not in script.text
    assert script.prompts == ["bob", "bob"]


def test_help_lists_the_actions_only_when_allowed() -> None:
    assert "recycle G8 Z" not in help_text(find_rules("standard"))
    assert "check WORD" not in help_text(find_rules("standard"))
    house = help_text(find_rules("house"))
    for action in ("recycle G8 Z", "swap G8", "anagram 8G TEAS", "check WORD", "hint"):
        assert action in house
    assert "time " not in house and "time " in help_text(find_rules("speed"))


# -- bots ------------------------------------------------------------------------


@dataclass
class ScriptedBot:
    """A bot that makes the moves it is given, one per call, then passes."""

    moves: list[str]
    name: str = "Scripted bot"
    calls: int = 0

    def choose(self, game: Game) -> Move:
        self.calls += 1
        return game.parse_move(self.moves.pop(0)) if self.moves else Move.pass_()


def test_a_bot_recycles_then_plays_on_in_the_same_turn() -> None:
    game = new_game(Rules(recycle=True), ("TEAQJOI", "ZTXEIOU"))
    bot = ScriptedBot(["recycle G8 Z", "I7 TA"])
    script = play(game, ["8G TEA", "rack"], bots={1: bot})
    assert "bob recycles G8: Z in place of the T (now ZEA); the T goes to bob's rack." in script.text
    assert "bob plays I7 T(A): TA 3 = 3 points (total 3)" in script.text  # T on the I7 double letter
    assert bot.calls == 2
    assert [e.kind for e in game.events] == [EventKind.PLACE, EventKind.RECYCLE, EventKind.PLACE]
    assert script.prompts == ["alice", "alice"]


def test_a_bot_that_only_recycles_is_made_to_pass() -> None:
    game = new_game(Rules(recycle=True), ("TEAQJOI", "ZTXEIOU"))
    bot = ScriptedBot(["recycle G8 Z", "recycle G8 T"] * 20)
    script = play(game, ["8G TEA"], bots={1: bot})
    assert "bob makes no move after 16 recycles and blank swaps." in script.text
    assert game.events[-1].kind is EventKind.PASS and game.turn == 0


# -- open dictionary -------------------------------------------------------------------


def test_check_words_with_an_open_dictionary() -> None:
    game = new_game(find_rules("kids"), ("EATSQOI", "ZAXEIOU"))
    script = play(game, ["check qi zzz", "check", "hint"])
    assert "Open dictionary: type 'check WORD' to look a word up, 'hint' for a play." in script.text
    assert "QI: acceptable in tiny." in script.text
    assert "ZZZ: not acceptable in tiny." in script.text
    assert "check needs one or more words" in script.text
    assert "Hint: " in script.text
    assert script.prompts == ["alice"] * 3


def test_check_is_refused_with_a_closed_dictionary() -> None:
    game = new_game(Rules(), ("EATSQOI", "ZAXEIOU"))
    before = fingerprint(game)
    script = play(game, ["check qi", "hint"])
    closed = "Not allowed: the dictionary is closed in these rules: look words up after the game."
    assert script.text.count(closed) == 2
    assert "QI: " not in script.text
    assert fingerprint(game) == before


# -- timers ---------------------------------------------------------------------------


def test_the_turn_timer_running_out_makes_the_turn_a_pass() -> None:
    game = new_game(Rules(turn_time=60.0), ("EATSQOI", "ZAXEIOU"))
    script = play(game, [(61, "8G EAT"), (10, "time"), (20, "8G ZAX")])
    assert "Turn timer: 1 min a turn; when it runs out the turn is a pass." in script.text
    assert "Turn timer: 1:00 left of 1 min." in script.text
    assert "Time is up: the turn took 61 s, the turn timer allows 1 min. alice's turn is a pass." in script.text
    assert "Turn timer: 0:50 left of 1 min." in script.text  # bob, 10 s into his turn
    assert "bob plays 8G ZAX" in script.text
    assert [e.kind for e in game.events] == [EventKind.TIME_OUT, EventKind.PLACE]
    assert game.clock_used == [60.0, 30.0]  # a turn that ran out counts the timer's time
    assert script.prompts == ["alice", "bob", "bob"]


def test_time_keeps_running_through_commands_refusals_and_recycles() -> None:
    game = new_game(Rules(turn_time=60.0, recycle=True), ("TEAQJOI", "ZTXEIOU"))
    lines: list[Line] = [(5, "8G TEA"), (20, "recycle G8 Z"), (20, "board"), (15, "8G ZZZ"), (10, "I7 TA")]
    script = play(game, lines)
    assert "Not allowed: " in script.text  # 35 s into bob's turn: still in time
    assert "Turn timer: 0:40 left of 1 min." in script.text  # shown again after the recycle
    assert "Time is up: the turn took 65 s" in script.text
    assert [e.kind for e in game.events] == [EventKind.PLACE, EventKind.RECYCLE, EventKind.TIME_OUT]
    assert game.board.at(7, 6) == game.alphabet.parse_word("Z")[0]  # the recycle stands


def test_a_typo_after_the_timer_ran_out_ends_the_turn() -> None:
    game = new_game(Rules(turn_time=60.0), ("EATSQOI", "ZAXEIOU"))
    script = play(game, [(90, "8G EEE")])
    assert "Time is up: the turn took 90 s" in script.text
    assert "Not allowed" not in script.text
    assert game.events[-1].kind is EventKind.TIME_OUT and game.turn == 1


def test_game_clocks_are_shown_and_overtime_costs_points_at_the_end() -> None:
    rules = Rules(game_clock=60.0, overtime_penalty=10, challenge=ChallengeMode.VOID)
    game = new_game(rules, ("EATSQOI", "ZAXEIOU"))
    script = play(game, [(130, "-"), (1, "-"), (1, "-"), (1, "-")])
    assert "Game clock: 1 min each; 10 points lost per minute (or part of one) over." in script.text
    assert "Game clocks: alice 1:00 left | bob 1:00 left" in script.text
    assert "Game clocks: alice 1:10 over | bob 0:59 left" in script.text
    assert "alice loses 20 for going 1:11 over the game clock (10 a minute or part of one)." in script.text
    assert game.overtime_penalties() == [20, 0]
    assert game.result_text() in script.text
