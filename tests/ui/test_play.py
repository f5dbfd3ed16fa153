"""``tilebag play``: the hot-seat game, driven as a real program through its
standard input, with a fixed seed.

With ``--seed 5`` and the players ``alice bob``, alice draws S and bob draws
F for first play, so bob goes first holding AEFHNOR (alice holds EEIMMNP):
bob can play the rules' worked example, ``8F HORN`` for 14.

Games against a bot (``--bot static``) are worked out in-process first with
the same seed and the same bot, to know what it will play.
"""

from __future__ import annotations

import functools
import itertools
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tilebag import Game, IllegalMoveError, InvalidMoveError, Move, Termination, default_lexicon
from tilebag.engine.bots import BOTS, make_bot
from tilebag.formats import gcg, replay
from tilebag.record import EventKind

pytestmark = pytest.mark.slow
"""Slow as a whole: every test runs the program, fifty-odd processes (the
in-process sessions of test_play_variations.py and test_play_coaching.py are
in the fast tier)."""

SEED = 5
PLAYERS = ("alice", "bob")
PHONY = "8H NOHR"  # from bob's first rack, through H8; NOHR is not a word: N1 O1 H4 R1, doubled on H8


@dataclass
class Run:
    """What one run of the program did."""

    returncode: int
    out: str
    err: str

    def prompts(self) -> list[str]:
        """The names of the players prompted, in order."""
        return [line.split("> ", 1)[0] for line in self.out.splitlines() if "> " in line and not line.startswith(" ")]


def run_play(
    lines: Sequence[str],
    *args: str,
    players: Sequence[str] = PLAYERS,
    seed: int | None = SEED,
    save: Path | None = None,
) -> Run:
    """Run ``python -m tilebag play`` with ``lines`` on its standard input."""
    command = [sys.executable, "-m", "tilebag", "play", *players, *args]
    if seed is not None:
        command += ["--seed", str(seed)]
    if save is not None:
        command += ["--save", str(save)]
    text = "".join(f"{line}\n" for line in lines)
    done = subprocess.run(command, input=text, capture_output=True, text=True, timeout=60)
    return Run(done.returncode, done.stdout, done.stderr)


def checked_record(path: Path) -> replay.CheckReport:
    """Load a saved record and check it against the rules; it must agree."""
    record = gcg.load(path)
    report = replay.check(record, source=str(path))
    assert report.ok, [f.format(str(path)) for f in report.errors]
    return report


# -- a simple player, to plan whole games in-process ---------------------------


@functools.lru_cache(maxsize=1)
def anagrams() -> dict[str, list[str]]:
    """Words of up to 8 letters by their sorted letters."""
    index: dict[str, list[str]] = defaultdict(list)
    for word in default_lexicon():
        if len(word) <= 8:
            index["".join(sorted(word))].append(word)
    return index


def candidate_plays(game: Game) -> Iterator[str]:
    """Placements to try: words from the rack's letters (blanks kept back),
    on H8 for the first play, else through one letter on the board."""
    label = game.alphabet.label
    rack = sorted(label(t) for t in game.rack() if t)
    subsets = {s for n in range(1, len(rack) + 1) for s in itertools.combinations(rack, n)}
    index = anagrams()
    layout = game.layout
    if game.board.is_empty():
        for subset in sorted(subsets):
            for word in index.get("".join(sorted(subset)), []):
                yield f"8H {word}"
        return
    for row in range(layout.rows):
        for col in range(layout.cols):
            tile = game.board.at(row, col)
            if not tile:
                continue
            letter = label(tile)
            for subset in sorted(subsets):
                for word in index.get("".join(sorted((*subset, letter))), []):
                    for i, ch in enumerate(word):
                        if ch == letter and row >= i:
                            yield f"{layout.position_name(row - i, col, True)} {word}"
                        if ch == letter and col >= i:
                            yield f"{layout.position_name(row, col - i, False)} {word}"


def best_play(game: Game) -> str | None:
    """The highest-scoring legal play of only acceptable words found, if any."""
    best: tuple[int, str] | None = None
    for text in candidate_plays(game):
        try:
            move = game.check(game.parse_move(text))
        except (IllegalMoveError, InvalidMoveError):
            continue
        if game.phonies(move):
            continue
        score = game.score(move)
        if best is None or score > best[0]:
            best = (score, game.notation(move))
    return None if best is None else best[1]


def plan_game(seed: int, players: Sequence[str] = PLAYERS, plays: int | None = None) -> tuple[Game, list[str]]:
    """Play a game in-process and return it with the lines that played it.

    Each turn makes the best play found (exchanging or passing when there is
    none); after ``plays`` placements everybody passes, so the game ends on
    scoreless turns.
    """
    game = Game(list(players), seed=seed)
    lines: list[str] = []
    made = 0
    while not game.is_over():
        text = best_play(game) if plays is None or made < plays else None
        if text is None:
            text = "-" + game.alphabet.format_rack(game.rack()) if plays is None and len(game.bag) >= 7 else "-"
        made += not text.startswith("-")
        lines.append(text)
        game.push(game.parse_move(text))
    return game, lines


@functools.cache
def planned(seed: int, plays: int | None) -> tuple[Game, tuple[str, ...]]:
    game, lines = plan_game(seed, plays=plays)
    return game, tuple(lines)


# -- starting ------------------------------------------------------------------


def test_start_shows_the_draw_and_only_the_rack_of_the_player_to_move() -> None:
    run = run_play([])
    assert run.returncode == 0, run.err
    assert "Draw for first play: alice draws S, bob draws F." in run.out
    assert "bob goes first" in run.out
    assert "pass the keyboard to bob" in run.out
    assert "bob's rack: AEFHNOR" in run.out
    assert "alice's rack" not in run.out
    assert "EEIMMNP" not in run.out
    assert "Bag: 86 tiles" in run.out
    assert " 8  = . . ' . . . * . . . ' . . =" in run.out  # the empty board, start square marked
    assert run.prompts() == ["bob"]


def test_default_players() -> None:
    run = run_play([], players=())
    assert run.returncode == 0, run.err
    assert "a game for Player 1, Player 2." in run.out
    assert "Player 1> " in run.out or "Player 2> " in run.out


def test_help_lists_the_commands() -> None:
    run = run_play(["help"])
    for command in ("8F HORN", "-ABC", "challenge", "board", "rack", "scores", "bag", "save FILE", "quit"):
        assert command in run.out


def test_the_rules_options_reach_the_game() -> None:
    # the variations themselves are played in tests/ui/test_play_variations.py
    run = run_play(["help", "check qi", "8F HORN"], "--rules", "house", "--turn-time", "3m")
    assert run.returncode == 0, run.err
    assert "Rules: house — anagram plays, recycle, blank swap, open dictionary, turn timer 3 min" in run.out
    assert "Allowed in these rules: recycle, blank swap, anagram plays (type help to see how)." in run.out
    assert "Turn timer: 3:00 left of 3 min." in run.out
    for action in ("recycle G8 Z", "swap G8", "anagram 8G TEAS", "check WORD", "hint", "time "):
        assert action in run.out
    assert "QI: acceptable in kjxqz." in run.out
    assert "bob plays 8F HORN: HORN 14 = 14 points (total 14)" in run.out  # in time


def test_standard_rules_offer_no_variations() -> None:
    run = run_play(["help", "check qi"])
    assert "Rules: standard\n" in run.out
    assert "recycle G8 Z" not in run.out and "Turn timer" not in run.out and "Game clocks" not in run.out
    assert "Not allowed: the dictionary is closed in these rules: look words up after the game." in run.out


# -- moves -----------------------------------------------------------------------


def test_a_legal_play_is_scored_and_the_turn_passes() -> None:
    run = run_play(["8F HORN"])
    assert run.returncode == 0, run.err
    assert "bob plays 8F HORN: HORN 14 = 14 points (total 14)" in run.out
    assert "pass the keyboard to alice" in run.out
    assert "alice's rack: EEIMMNP" in run.out
    assert " 8  = . . ' .*H*O*R*N . . ' . . =" in run.out  # the play is highlighted
    assert "Scores: >alice: 0 | bob: 14" in run.out
    assert "You may type 'challenge' to challenge bob's 8F HORN (+14)" in run.out
    assert run.prompts() == ["bob", "alice"]


def test_a_play_names_every_word_it_forms(tmp_path: Path) -> None:
    # After 8F HORN alice passes; bob (AEFIRRW after drawing) plays under HORN.
    run = run_play(["8F HORN", "-", "9E WIFE"], save=tmp_path / "g.gcg")
    assert "bob plays 9E WIFE: WIFE 14 + HI 5 + OF 9 + RE 2 = 30 points (total 44)" in run.out
    report = checked_record(tmp_path / "g.gcg")
    assert report.game is not None and report.game.scores == [0, 44]


@pytest.mark.parametrize("text", ["H6 FA.E", "H6 FA(R)E", "H6 FARE"])
def test_a_play_through_a_tile(text: str) -> None:
    run = run_play(["8F HORN", "-", text])
    assert "bob plays H6 FA(R)E: FARE 7 = 7 points (total 21)" in run.out


def test_a_blank_is_written_in_lower_case() -> None:
    # seed 1: alice goes first with AHLNSU?
    run = run_play(["8H HAuLS", "-"], seed=1)
    assert "alice plays 8H HAuLS: HAuLS 16 = 16 points (total 16)" in run.out
    assert "alice's rack: AHLNSU?" in run.out


def test_an_illegal_move_is_refused_and_the_same_player_asked_again() -> None:
    run = run_play(["1A HORN", "8F HORN"])
    assert run.returncode == 0, run.err
    assert "Not allowed: 1A HORN: the first play must cover the start square H8" in run.out
    assert "bob plays 8F HORN: HORN 14" in run.out  # the game was unchanged: the same score
    assert run.prompts() == ["bob", "bob", "alice"]


def test_tiles_not_on_the_rack_are_refused() -> None:
    run = run_play(["8F HORNS", "-ZZ", "8F HORN"])
    assert "Not allowed: 8F HORNS: the rack AEFHNOR has no S" in run.out
    assert "Not allowed: -ZZ: the rack AEFHNOR has no ZZ to exchange" in run.out
    assert run.prompts() == ["bob", "bob", "bob", "alice"]


def test_lower_case_letters_are_blanks() -> None:
    run = run_play(["8f horn", "8F HORN"])
    assert "Not allowed: 8F horn: the rack AEFHNOR has no ????" in run.out
    assert "lower-case letters are blanks: write the word in capitals" in run.out
    assert run.prompts() == ["bob", "bob", "alice"]


@pytest.mark.parametrize("typo", ["hello", "8F H0RN", "Z99 HORN", "8F", "hello there world", "8F HO(RN"])
def test_a_typo_is_refused(typo: str) -> None:
    run = run_play([typo, "8F HORN"])
    assert run.returncode == 0, run.err
    assert "Not a move: " in run.out
    assert "type help for the commands" in run.out
    assert "bob plays 8F HORN: HORN 14 = 14 points (total 14)" in run.out
    assert run.prompts() == ["bob", "bob", "alice"]


def test_exchange(tmp_path: Path) -> None:
    save = tmp_path / "x.gcg"
    run = run_play(["-FH", "rack"], save=save)
    assert run.returncode == 0, run.err
    assert "bob exchanges 2 tiles." in run.out
    assert "pass the keyboard to alice" in run.out
    assert "alice's rack: EEIMMNP" in run.out
    assert "FH" not in run.out.split("bob exchanges")[1]  # the tiles put back are not shown to alice
    assert ">bob: AEFHNOR -FH +0 0" in save.read_text()
    checked_record(save)


def test_pass(tmp_path: Path) -> None:
    save = tmp_path / "p.gcg"
    run = run_play(["-", "-"], save=save)
    assert "bob passes." in run.out
    assert "alice passes." in run.out
    assert run.prompts() == ["bob", "alice", "bob"]
    assert ">bob: AEFHNOR - +0 0" in save.read_text()
    checked_record(save)


def test_commands_show_the_position_without_changing_it() -> None:
    run = run_play(["8F HORN", "scores", "bag", "board", "rack"])
    assert "Scores: >alice: 0 | bob: 14" in run.out
    assert "Bag: 82 tiles" in run.out
    # alice sees the bag (82) and bob's rack (7), never her own tiles
    unseen_line = next(line for line in run.out.splitlines() if line.startswith("Unseen by alice"))
    assert unseen_line.startswith("Unseen by alice (89): ")
    assert run.out.count("alice's rack: EEIMMNP") == 2
    assert run.prompts() == ["bob"] + ["alice"] * 5


# -- challenges ------------------------------------------------------------------


def test_a_challenged_phony_comes_off(tmp_path: Path) -> None:
    assert "NOHR" not in default_lexicon()
    save = tmp_path / "phony.gcg"
    run = run_play([PHONY, "challenge", "-"], save=save)
    assert run.returncode == 0, run.err
    # double challenge: the phony is accepted when played...
    assert "bob plays 8H NOHR: NOHR 14 = 14 points (total 14)" in run.out
    assert "You may type 'challenge' to challenge bob's 8H NOHR (+14)" in run.out
    # ...and comes off when challenged
    assert "alice challenges bob's 8H NOHR (+14): NOHR." in run.out
    assert "Not acceptable in kjxqz: NOHR." in run.out
    assert "bob takes the tiles back and loses the 14 points (now 0)" in run.out
    # alice keeps her turn, then bob has his tiles back
    assert run.prompts() == ["bob", "alice", "alice", "bob"]
    assert run.out.count("bob's rack: AEFHNOR") == 2
    text = save.read_text()
    assert ">bob: AEFHNOR 8H NOHR +14 14" in text
    assert ">bob: AEFHNOR -- -14 0" in text
    report = checked_record(save)
    assert report.game is not None and report.game.scores == [0, 0]


def test_a_failed_challenge_costs_the_challenger_a_turn(tmp_path: Path) -> None:
    save = tmp_path / "failed.gcg"
    run = run_play(["8F HORN", "c"], save=save)
    assert run.returncode == 0, run.err
    assert "alice challenges bob's 8F HORN (+14): HORN." in run.out
    assert "All acceptable in kjxqz: the play stands." in run.out
    assert "alice loses this turn for the failed challenge." in run.out
    assert run.prompts() == ["bob", "alice", "bob"]
    assert "Scores: alice: 0 | >bob: 14" in run.out
    assert ">alice: EEIMMNP (challenge) +0 0" in save.read_text()
    checked_record(save)


def test_only_an_opponent_may_challenge() -> None:
    run = run_play(["8F HORN", "challenge bob", "challenge zed"])
    assert "Not allowed: bob made that play; only an opponent may challenge it." in run.out
    assert "No player named 'zed': the players are alice, bob" in run.out
    assert run.prompts() == ["bob", "alice", "alice", "alice"]


def test_nothing_to_challenge() -> None:
    run = run_play(["challenge", "8F HORN", "-", "challenge"])
    assert run.out.count("Not allowed: there is no play to challenge") == 2
    assert run.prompts() == ["bob", "bob", "alice", "bob", "bob"]


def test_five_point_challenge() -> None:
    run = run_play(["8F HORN", "challenge"], "--challenge", "5-point")
    assert "alice loses 5 points for the failed challenge (now -5)." in run.out
    assert run.prompts() == ["bob", "alice", "alice"]


def test_void_challenge_refuses_a_phony_on_entry() -> None:
    run = run_play([PHONY, "8F HORN", "challenge"], "--challenge", "void")
    assert "Not allowed: 8H NOHR: not in the kjxqz lexicon: NOHR" in run.out
    assert "bob plays 8F HORN: HORN 14" in run.out
    assert "You may type 'challenge'" not in run.out
    assert "Not allowed: void challenge mode" in run.out
    assert run.prompts() == ["bob", "bob", "alice", "alice"]


def test_a_lexicon_file_judges_challenges(tmp_path: Path) -> None:
    words = tmp_path / "tiny.txt"
    words.write_text("FARM\nNOHR\n")
    save = tmp_path / "tiny.gcg"
    run = run_play(["8F HORN", "challenge"], "--lexicon", str(words), save=save)
    assert "Not acceptable in tiny: HORN." in run.out
    assert "#lexicon tiny" in save.read_text()
    checked_record(save)


# -- stopping, saving ------------------------------------------------------------


def test_end_of_input_stops_cleanly_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "eof.gcg"
    run = run_play(["8F HORN"], save=save)
    assert run.returncode == 0, run.err
    assert "End of input." in run.out
    assert "Game stopped before the end." in run.out
    assert f"Game record written to {save}." in run.out
    report = checked_record(save)
    assert report.game is not None and report.game.scores == [0, 14]


def test_quit_stops_at_once_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "quit.gcg"
    run = run_play(["8F HORN", "quit", "-"], save=save)
    assert run.returncode == 0, run.err
    assert "alice passes" not in run.out
    assert "Game stopped before the end." in run.out
    assert ">bob: AEFHNOR 8F HORN +14 14" in save.read_text()
    checked_record(save)


def test_save_command_writes_the_record_now(tmp_path: Path) -> None:
    save = tmp_path / "now.gcg"
    run = run_play(["8F HORN", f"save {save}", "save"])
    assert f"Game record written to {save}." in run.out
    assert "save needs a file name" in run.out
    report = checked_record(save)
    assert report.game is not None and report.game.scores == [0, 14]


def test_save_to_an_impossible_place_is_reported(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir.gcg"
    run = run_play([f"save {missing}", "8F HORN"])
    assert f"Cannot write {missing}" in run.out
    assert "bob plays 8F HORN" in run.out


# -- players -----------------------------------------------------------------------


def test_three_players_take_turns_in_seat_order(tmp_path: Path) -> None:
    names = ("alice", "bob", "carol")
    game = Game(list(names), seed=SEED)
    first = names[game.first]
    order = [names[(game.first + i) % 3] for i in range(4)]
    save = tmp_path / "three.gcg"
    run = run_play(["-", "-", "-"], players=names, save=save)
    assert run.returncode == 0, run.err
    assert "a game for alice, bob, carol." in run.out
    assert "Draw for first play: alice draws S, bob draws F, carol draws W." in run.out
    assert f"{first} goes first" in run.out
    assert run.prompts() == order
    for i in range(3):
        assert f"{names[i]}'s rack: {game.alphabet.format_rack(game.rack(i))}" in run.out
    report = checked_record(save)
    assert report.game is not None and len(report.game.players) == 3


def test_any_opponent_may_challenge_and_misses_their_own_next_turn(tmp_path: Path) -> None:
    save = tmp_path / "third.gcg"
    run = run_play(["8F HORN", "challenge alice", "-"], players=("alice", "bob", "carol"), save=save)
    assert "alice challenges bob's 8F HORN (+14): HORN." in run.out
    assert "alice will miss their next turn for the failed challenge." in run.out
    assert "carol passes.\nalice misses this turn (lost on a failed challenge)." in run.out
    assert run.prompts() == ["bob", "carol", "carol", "bob"]
    checked_record(save)


def test_solo_game() -> None:
    run = run_play(["challenge", "-", "-"], players=("alice",))
    assert run.returncode == 0, run.err
    assert "Solo game: alice plays alone." in run.out
    assert "pass the keyboard" not in run.out
    assert "Not allowed: there is no play to challenge" in run.out
    assert "Game over: 2 scoreless turns in a row." in run.out
    assert "alice wins" in run.out
    assert run.prompts() == ["alice"] * 3


def test_five_players_are_refused() -> None:
    run = run_play(["8F HORN"], players=("a", "b", "c", "d", "e"))
    assert run.returncode == 2
    assert "5 players: a game takes 1 to 4 players" in run.err
    assert run.out == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["alice", "alice"], "player names must differ"),
        (["alice", "--challenge", "triple"], "unknown challenge mode 'triple'"),
        (["alice", "--rules", "chaos"], "unknown rules 'chaos'"),
        (["alice", "--lexicon", "/no/such/words.txt"], "no lexicon named"),
    ],
)
def test_bad_options_are_refused(args: list[str], message: str) -> None:
    run = run_play([], *args[1:], players=args[:1])
    assert run.returncode == 2
    assert message in run.err


# -- whole games -------------------------------------------------------------------


def test_a_game_of_passes_ends_on_scoreless_turns(tmp_path: Path) -> None:
    save = tmp_path / "passes.gcg"
    game, lines = plan_game(SEED, plays=0)
    assert lines == ["-"] * 4
    run = run_play([*lines, "8F HORN"], save=save)  # the last line is never read
    assert run.returncode == 0, run.err
    assert "Game over: 4 scoreless turns in a row." in run.out
    assert "alice loses 13 for the tiles left on the rack (EEIMMNP)." in run.out
    assert "bob loses 13 for the tiles left on the rack (AEFHNOR)." in run.out
    assert "Final scores: alice: -13 | bob: -13" in run.out
    # level scores, and level before the racks were counted: a draw
    outcome = game.outcome()
    assert outcome is not None and outcome.is_draw
    assert game.result_text().startswith("draw ")
    assert game.result_text() in run.out
    assert "bob plays" not in run.out
    assert run.prompts() == ["bob", "alice", "bob", "alice"]
    report = checked_record(save)
    assert report.game is not None and report.game.scores == [-13, -13]


def test_a_few_plays_then_passes_to_the_end(tmp_path: Path) -> None:
    game, lines = planned(SEED, 6)
    assert game.termination is Termination.SCORELESS_TURNS
    save = tmp_path / "few.gcg"
    run = run_play(lines, save=save)
    assert run.returncode == 0, run.err
    assert run.out.count(" plays ") == 6
    assert "Game over: 4 scoreless turns in a row." in run.out
    assert game.result_text() in run.out
    report = checked_record(save)
    assert report.game is not None and report.game.scores == game.scores


def test_a_whole_game_to_the_last_tile(tmp_path: Path) -> None:
    game, lines = planned(SEED, None)
    assert game.termination is Termination.WENT_OUT
    outcome = game.outcome()
    assert outcome is not None and outcome.went_out is not None and outcome.winner is not None
    save = tmp_path / "whole.gcg"
    run = run_play([*lines, ""], save=save)  # Enter: accept the play that ended the game
    assert run.returncode == 0, run.err
    out_name = PLAYERS[outcome.went_out]
    assert f"{out_name} ended the game with" in run.out
    assert f"Game over: {out_name} went out." in run.out
    assert f"{out_name} gains " in run.out
    assert "Final scores: " in run.out
    assert game.result_text() in run.out
    assert f"{PLAYERS[outcome.winner]} wins" in run.out
    assert "End of input" not in run.out
    report = checked_record(save)
    assert report.game is not None and report.game.scores == game.scores
    assert report.game.outcome() == outcome
    kinds = [e.kind for e in gcg.load(save).events]
    assert EventKind.END_RACK_POINTS in kinds


def test_the_play_that_ends_the_game_can_be_challenged(tmp_path: Path) -> None:
    game, lines = planned(SEED, None)
    outcome = game.outcome()
    assert outcome is not None and outcome.went_out is not None
    save = tmp_path / "final.gcg"
    run = run_play([*lines, "challenge"], save=save)
    assert run.returncode == 0, run.err
    assert "All acceptable in kjxqz: the play stands." in run.out
    assert "The failed challenge costs nothing." in run.out  # the game is over: there is no turn to lose
    assert game.result_text() in run.out
    report = checked_record(save)
    assert report.game is not None and report.game.scores == game.scores


def test_a_phony_that_ends_the_game_comes_off_and_the_game_goes_on(tmp_path: Path) -> None:
    game, lines = planned(SEED, None)
    assert game.went_out == 0 and game.rack(0) == [] and "DUT" not in default_lexicon()
    # alice's last tile is a U: instead of N5 U(N) she plays B1 U, forming DUT (B1 under D A1... down)
    save = tmp_path / "phony-out.gcg"
    run = run_play([*lines[:-1], "B1 U", "challenge", "rack"], save=save)
    assert "alice plays B1 U: DUT 4 = 4 points" in run.out
    assert "alice ended the game with B1 U (+4)" in run.out
    assert "Not acceptable in kjxqz: DUT." in run.out
    assert "Game over" not in run.out
    assert run.prompts()[-3:] == ["bob", "bob", "bob"]  # bob challenged, and now moves
    assert "End of input." in run.out
    report = checked_record(save)
    assert report.game is not None and not report.game.is_over()
    assert report.game.rack(0) == game.alphabet.parse_rack("U")


# -- bots ----------------------------------------------------------------------------

BOT = "Static bot"
YOU_V_BOT = ("You", BOT)  # the seats of `tilebag play --bot static`: the person, then the bot


def run_v_bot(lines: Sequence[str], *args: str, seed: int, save: Path | None = None) -> Run:
    """Run ``tilebag play --bot static``: "You" against the static bot."""
    return run_play(lines, "--bot", "static", *args, players=(), seed=seed, save=save)


def gcg_check(path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``tilebag gcg check`` on a saved record."""
    command = [sys.executable, "-m", "tilebag", "gcg", "check", str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_passing_against_the_static_bot_to_the_end(tmp_path: Path) -> None:
    # seed 34: the bot plays on while you pass, until it is stuck and the
    # game ends on scoreless turns. The same game, in-process:
    game = Game(list(YOU_V_BOT), seed=34)
    bot = make_bot("static")
    passes = 0
    while not game.is_over():
        if game.turn == 0:
            game.push(Move.pass_())
            passes += 1
        else:
            game.push(bot.choose(game))
    assert game.termination is Termination.SCORELESS_TURNS
    save = tmp_path / "bot.gcg"
    run = run_v_bot(["-"] * passes + ["8H QI"], seed=34, save=save)  # the last line is never read
    assert run.returncode == 0, run.err
    assert "tilebag: a game for You, Static bot." in run.out
    assert run.prompts() == ["You"] * passes
    assert run.out.count("You pass.") == passes
    bot_plays = sum(e.kind is EventKind.PLACE for e in game.events)
    assert run.out.count(f"{BOT} plays ") == bot_plays
    assert "pass the keyboard" not in run.out  # one person at the keyboard
    assert "Game over: 4 scoreless turns in a row." in run.out
    assert game.result_text() in run.out
    assert f"{BOT} wins" in run.out
    # the bot's racks are never shown while the game is on
    during = run.out.split("Game over")[0]
    assert {line.split(":")[0] for line in during.splitlines() if "rack:" in line} == {"Your rack"}
    for event in game.events:
        if event.player == 1 and event.rack and len(event.rack) == game.rules.rack_size:
            assert game.alphabet.format_rack(event.rack) not in during
    text = save.read_text()
    assert "#player1 You You" in text
    assert "#player2 Static_bot Static bot" in text
    done = gcg_check(save)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ": ok (" in done.stdout
    report = checked_record(save)
    assert report.game is not None and report.game.scores == game.scores


def two_letter_phony(game: Game) -> str:
    """An opening play of two tiles from the rack that is not a word."""
    letters = [game.alphabet.label(t) for t in game.rack() if t]
    lexicon = default_lexicon()
    return next(f"8H {a}{b}" for a, b in itertools.permutations(letters, 2) if f"{a}{b}" not in lexicon)


def test_the_bot_challenges_a_phony_off(tmp_path: Path) -> None:
    # seed 1: you go first (AHLNSU?). The same game in-process: your phony
    # comes off, the bot plays, then you play what the bot would have.
    game = Game(list(YOU_V_BOT), seed=1)
    assert game.first == 0
    rack = game.alphabet.format_rack(game.rack(0))
    phony = two_letter_phony(game)
    score = game.push(game.parse_move(phony))
    word = phony.split()[1]
    game.challenge(1)
    bot_move = make_bot("static").choose(game)
    game.push(bot_move)
    mine = make_bot("static").choose(game)
    assert game.phonies(game.check(mine)) == []
    my_play = game.notation(mine)
    save = tmp_path / "phony.gcg"
    run = run_v_bot([phony, my_play], seed=1, save=save)
    assert run.returncode == 0, run.err
    assert f"You play {phony}: {word} {score} = {score} points (total {score})" in run.out
    assert f"{BOT} challenges your {phony} (+{score}): {word}." in run.out
    assert f"Not acceptable in kjxqz: {word}." in run.out
    assert f"The play comes off: You take the tiles back and lose the {score} points (now 0)." in run.out
    assert f"{BOT} plays {game.notation(bot_move)}: " in run.out
    assert f"You play {my_play}: " in run.out
    assert run.out.count(f"{BOT} challenges") == 1  # a good play is not challenged
    assert run.out.count(f"Your rack: {rack}") == 2  # your tiles came back
    assert run.prompts() == ["You", "You", "You"]
    text = save.read_text()
    assert f">You: {rack} {phony} +{score} {score}" in text
    assert f">You: {rack} -- -{score} 0" in text
    done = gcg_check(save)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("mode", "cost", "bot_plays"),
    [
        ("double", "You lose this turn for the failed challenge.", 2),
        ("5-point", "You lose 5 points for the failed challenge (now -5).", 1),
    ],
)
def test_challenging_the_bot_fails(tmp_path: Path, mode: str, cost: str, bot_plays: int) -> None:
    # seed 5: the bot goes first
    game = Game(list(YOU_V_BOT), seed=5)
    assert game.first == 1
    move = make_bot("static").choose(game)
    play, score = game.notation(move), game.score(move)
    save = tmp_path / "failed.gcg"
    run = run_v_bot([f"challenge {BOT}", "challenge"], "--challenge", mode, seed=5, save=save)
    assert run.returncode == 0, run.err
    assert f"{BOT} goes first" in run.out
    assert f"You may type 'challenge' to challenge {BOT}'s {play} (+{score}) before you move." in run.out
    assert f"Not allowed: {BOT} is a bot; it challenges on its own turn." in run.out
    assert f"You challenge {BOT}'s {play} (+{score}): " in run.out
    assert "All acceptable in kjxqz: the play stands." in run.out
    assert cost in run.out
    assert run.out.count(f"{BOT} plays ") == bot_plays
    assert run.prompts() == ["You"] * 3
    done = gcg_check(save)
    assert done.returncode == 0, done.stdout + done.stderr


def test_people_and_bots_at_one_table() -> None:
    run = run_play(["-", "-"], "--bot", "static", "--bot", "GREEDY", players=("alice", "bob"), seed=3)
    assert run.returncode == 0, run.err
    assert "a game for alice, bob, Static bot, Greedy bot." in run.out
    assert "pass the keyboard to alice" in run.out  # two people share the keyboard
    assert "Static bot's rack" not in run.out and "Greedy bot's rack" not in run.out
    assert set(run.prompts()) == {"alice", "bob"}


def test_an_unknown_bot_is_refused() -> None:
    run = run_play([], "--bot", "clever", players=())
    assert run.returncode == 2
    assert f"unknown bot kind 'clever': the known kinds are {', '.join(sorted(BOTS))}" in run.err
    assert run.out == ""


def test_five_seats_with_bots_are_refused() -> None:
    run = run_play([], "--bot", "static", "--bot", "greedy", players=("a", "b", "c"))
    assert run.returncode == 2
    assert "5 players (3 people and 2 bots): a game takes 1 to 4 players" in run.err
    assert run.out == ""
