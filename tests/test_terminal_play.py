"""End-to-end: ``tilebag play`` in a pseudo-terminal, full screen and in
line mode, driven by keystrokes as a person plays it.

Each test mirrors the game in the test process (the same names and seed
give the same draws), so it knows a legal move to type and what the bot
will answer, and checks the screen shows it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from terminal import Terminal
from tilebag import gcg
from tilebag.alphabet import BLANK_BIT
from tilebag.cli import build_parser, rules_from_args
from tilebag.game import Game
from tilebag.lexicon import default_lexicon
from tilebag.move import MoveKind
from tilebag.players import StaticPlayer
from tilebag.replay import check, replay, resume

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BOT = "Static bot"


@pytest.fixture
def terminals():
    started: list[Terminal] = []

    def start(*args: str, **options: object) -> Terminal:
        terminal = Terminal(args, **options)  # type: ignore[arg-type]
        started.append(terminal)
        return terminal

    yield start
    for terminal in started:
        terminal.close()


def mirror(names: list[str], seed: int) -> Game:
    """The game the program plays with these names and seed."""
    return Game(names, seed=seed, lexicon=default_lexicon())


def best_notation(game: Game) -> str:
    """The static bot's choice for the player to move, as it is typed."""
    move = StaticPlayer("mirror").choose(game)
    assert move.kind is MoveKind.PLACE
    return game.notation(move)


def let_bot_move(game: Game, bot: StaticPlayer) -> str:
    move = bot.choose(game)
    text = game.notation(move)
    game.push(move)
    return text


def test_full_screen_game_against_the_static_bot(terminals, tmp_path: Path) -> None:
    seed = 11
    record = tmp_path / "game.gcg"
    game = mirror(["You", BOT], seed)
    bot = StaticPlayer(BOT)
    term = terminals("play", "--bot", "static", "--seed", str(seed), "--save", str(record), "--full-screen")
    if game.turn == 1:
        bot_play = let_bot_move(game, bot)
        term.wait_for(re.escape(f"{BOT} plays {bot_play}"))
    term.wait_for("You to move")
    screen = term.text()
    assert " A  B  C  D  E  F  G  H  I  J  K  L  M  N  O" in screen
    assert "Your rack:" in screen and "Bag: " in screen and "Unseen (" in screen

    term.line("8Q HELLO")  # a typo: there is no column Q
    term.wait_for("Not a move")
    term.line("8H ZZZZZZZ")
    term.wait_for("Not allowed")

    mine = best_notation(game)
    game.push_gcg(mine)
    term.line(mine)
    term.wait_for(re.escape(f"You play {mine}"))
    reply = let_bot_move(game, bot)
    term.wait_for(re.escape(f"{BOT} plays {reply}"))
    term.wait_for(rf"You\s+{game.players[0].score}\b")
    term.wait_for(rf"{BOT}\s+{game.players[1].score}\b")

    rack = game.alphabet.format_rack(game.rack(0))
    term.line(f"-{rack[:2]}")
    term.wait_for("You exchange 2 tiles.")
    term.wait_for(f"{BOT} (plays|exchanges|passes)")

    term.press("ctrl+q")
    assert term.wait_exit() == 0
    report = check(gcg.load(record))
    assert report.ok, [f.message for f in report.errors]


def test_placing_a_word_with_the_keyboard(terminals) -> None:
    seed = 4
    game = mirror(["You", BOT], seed)
    bot = StaticPlayer(BOT)
    if game.turn == 1:
        let_bot_move(game, bot)
    move = StaticPlayer("mirror").choose(game)
    term = terminals("play", "--bot", "static", "--seed", str(seed), "--full-screen")
    term.wait_for("You to move")
    term.press("tab")
    row, col = 7, 7  # the cursor starts on the centre square
    for _ in range(abs(move.row - row)):
        term.press("down" if move.row > row else "up")
    for _ in range(abs(move.col - col)):
        term.press("right" if move.col > col else "left")
    if move.down:
        term.press("space")
    for _, _, tile in move.placed():
        letter = game.alphabet.label(tile & ~BLANK_BIT)
        if tile & BLANK_BIT:  # a blank: ? then the letter
            term.type("?")
        term.type(letter)
    term.press("enter")
    term.wait_for(re.escape(f"You play {game.notation(move)}"))
    term.press("ctrl+q")
    assert term.wait_exit() == 0


def test_challenging_a_phony_at_one_keyboard(terminals) -> None:
    seed = 5
    game = mirror(["alice", "bob"], seed)
    first = game.players[game.turn].name
    other = "bob" if first == "alice" else "alice"
    rack = [t for t in game.rack() if t != 0]
    lexicon = game.lexicon
    phony = next(
        game.alphabet.format_word([a, b])
        for i, a in enumerate(rack)
        for j, b in enumerate(rack)
        if i != j and game.alphabet.format_word([a, b]) not in lexicon
    )
    term = terminals("play", "alice", "bob", "--seed", str(seed), "--full-screen")
    term.wait_for(f"{first} to move")
    term.line(f"8H {phony}")
    term.wait_for(re.escape(f"{first} plays 8H {phony}"))
    term.wait_for(f"Challenge {first}'s 8H {phony}")
    term.line("c")
    term.wait_for(re.escape(f"Not acceptable in {lexicon.name}: {phony}."))
    term.wait_for("The play comes off")
    term.wait_for(f"{other} to move")
    term.press("ctrl+q")
    assert term.wait_exit() == 0


def test_line_mode_in_a_terminal(terminals) -> None:
    seed = 11
    game = mirror(["You", BOT], seed)
    bot = StaticPlayer(BOT)
    if game.turn == 1:
        let_bot_move(game, bot)
    term = terminals("play", "--bot", "static", "--seed", str(seed), "--line")
    term.wait_for("You>")
    assert "Your rack: " in term.text()
    mine = best_notation(game)
    term.line(mine)
    term.wait_for(re.escape(f"You play {mine}"))
    term.line("quit")
    assert term.wait_exit() == 0


def test_the_first_screen_chooses_the_table(terminals) -> None:
    term = terminals("play", "--seed", "3", "--full-screen")
    term.wait_for("Choose who plays")
    term.wait_for("Static bot: .*strongest")
    term.press("enter")  # "Start the game": you against the static bot, standard rules
    term.wait_for(r"Static bot\s+\d+")
    term.wait_for("You to move|Static bot plays")
    term.press("ctrl+q")
    assert term.wait_exit() == 0


def test_a_short_game_saved_resumed_and_finished(terminals, tmp_path: Path) -> None:
    record = tmp_path / "short.gcg"
    options = ["--finish-target", "80"]
    args = build_parser().parse_args(["play", "--bot", "static", "--seed", "22", *options])
    rules = rules_from_args(args)
    game = Game(["You", BOT], rules=rules, seed=22, lexicon=default_lexicon())
    bot = StaticPlayer(BOT)
    term = terminals("play", "--bot", "static", "--seed", "22", *options, "--save", str(record), "--full-screen")
    term.wait_for("Finish Line")
    if game.turn == 1:
        term.wait_for(re.escape(f"{BOT} plays {let_bot_move(game, bot)}"))
    term.wait_for("You to move")
    mine = best_notation(game)
    game.push_gcg(mine)
    term.line(mine)
    term.wait_for(re.escape(f"You play {mine}"))
    if not game.is_over():
        term.wait_for(re.escape(f"{BOT} plays {let_bot_move(game, bot)}"))
    term.wait_for("You to move")
    term.press("ctrl+q")
    assert term.wait_exit() == 0
    assert "#to-move You" in record.read_text()

    game = resume(gcg.load(record), seed=9)
    term = terminals("play", "--resume", str(record), "--seed", "9", "--full-screen")
    term.wait_for("Resumed from")  # the file's name wraps in the message pane
    term.wait_for(r"\b2 turns\.")
    term.wait_for(rf"You\s+{game.players[0].score}\b")
    while not game.is_over():
        term.wait_for("You to move")
        move = StaticPlayer("mirror").choose(game)
        text = game.notation(move)
        game.push(move)
        term.line(text)
        if game.is_over():
            break
        reply = let_bot_move(game, bot)
        term.wait_for(re.escape(f"{BOT} plays {reply}") if "-" not in reply[:1] else f"{BOT} (exchanges|passes)")
        if game.is_over():
            term.wait_for("press Enter to accept")
            term.press("enter")
    term.wait_for("Game over")
    term.wait_for("Summary:")
    term.wait_for("Press Enter or Ctrl.Q to leave")
    term.press("enter")
    assert term.wait_exit() == 0
    saved = gcg.load(record)
    report = check(saved)
    assert report.ok, [f.message for f in report.errors]
    assert replay(saved).is_over()
