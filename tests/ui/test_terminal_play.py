"""End-to-end: ``tilebag play`` in a pseudo-terminal, full screen and in
line mode, driven by keystrokes as a person plays it.

Each test mirrors the game in the test process (the same names and seed
give the same draws), so it knows a legal move to type and what the bot
will answer, and checks the screen shows it.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from terminal import Terminal
from tilebag.alphabet import BLANK_BIT
from tilebag.engine.players import StaticPlayer
from tilebag.formats import gcg
from tilebag.formats.replay import check, replay, resume
from tilebag.game import Game
from tilebag.lexicon import default_lexicon
from tilebag.move import Move, MoveKind
from tilebag.ui.cli import build_parser, rules_from_args

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
"""Slow: every test drives a real ``tilebag play`` in a pseudo-terminal through a game."""

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


def place_on_board(term: Terminal, game: Game, move: Move) -> None:
    """Put a placement's tiles on the board with the keys (the board has the
    keyboard, its cursor on the centre square where it starts)."""
    row, col = 7, 7
    for _ in range(abs(move.row - row)):
        term.press("down" if move.row > row else "up")
    for _ in range(abs(move.col - col)):
        term.press("right" if move.col > col else "left")
    if move.down:
        term.press("space")
    for _, _, tile in move.placed():
        if tile & BLANK_BIT:  # a blank: ? then the letter
            term.type("?")
        term.type(game.alphabet.label(tile & ~BLANK_BIT))


def quit_game(term: Terminal) -> None:
    """Ctrl+Q, and yes when asked whether to leave a game that is not saved:
    waits for whichever comes, the question or the end of the program."""
    term.press("ctrl+q")
    deadline = time.monotonic() + 30
    while term.child.isalive() and "Leave the game" not in term.text():
        assert time.monotonic() < deadline, f"Ctrl+Q neither asked nor left; the screen shows:\n{term.text()}"
        term.pump(0.1)
    if "Leave the game" in term.text():
        term.type("y")


def squeezed(text: str) -> str:
    """Text without whitespace, to find it in a pane that wraps it anywhere."""
    return "".join(text.split())


COLUMNS = " A  B  C  D  E  F  G  H  I  J  K  L  M  N  O"
"""The board's column letters, as the screen draws them."""
MESSAGES_LEFT = 52
"""The first column of the right-hand panes (scores, messages)."""


def wait_in_pane(term: Terminal, text: str, timeout: float = 20.0) -> None:
    """Wait until the message pane says ``text``, however it wraps it."""
    deadline = time.monotonic() + timeout
    while squeezed(text) not in term.region(MESSAGES_LEFT):
        if time.monotonic() > deadline:
            raise AssertionError(f"the messages never said {text!r}; the screen shows:\n{term.text()}")
        term.pump(0.1)


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
    term.wait_until(lambda: all(part in term.text() for part in (COLUMNS, "Your rack:", "Bag: ", "Unseen (")),
                    "the whole screen (board, rack, bag and unseen tiles)")

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
    quit_game(term)
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
    quit_game(term)
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
    term.wait_for("Resumed")
    wait_in_pane(term, f"Resumed from {record} after 2 turns.")  # drawn a piece at a time
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


# -- the screen at the sizes people play at -----------------------------------------------


def bot_line(game: Game, bot: StaticPlayer) -> str:
    """What the screen says of the bot's next move (played in the mirror)."""
    move = bot.choose(game)
    before = game.players[game.turn].score
    score = game.push(move)
    return f"{BOT} plays {game.notation(move)}:", f"= {score} points (total {before + score})"


@pytest.mark.parametrize(("rows", "cols"), [(24, 80), (45, 120)])
def test_messages_wrap_to_the_pane_and_show_in_full(terminals, tmp_path: Path, rows: int, cols: int) -> None:
    """The message pane wrapped at 78 columns whatever its width: at 80x24
    the bot's scoring line could not be seen, at 120 columns its end."""
    seed = 12
    game = mirror(["You", BOT], seed)
    bot = StaticPlayer(BOT)
    deep = tmp_path / ("a-folder-with-a-long-name-" * 3) / "games"
    deep.mkdir(parents=True)
    record = deep / "a-game-saved-with-a-long-name.gcg"
    term = terminals("play", "--bot", "static", "--seed", str(seed), "--save", str(record), "--full-screen", rows=rows, cols=cols)
    if game.turn == 1:
        said = bot_line(game, bot)
        term.wait_for(f"{BOT} plays")
    else:
        term.wait_for("You to move")
        mine = best_notation(game)
        game.push_gcg(mine)
        term.line(mine)
        said = bot_line(game, bot)
        term.wait_for("You to move")
    term.wait_until(lambda: all(squeezed(part) in term.region(MESSAGES_LEFT) for part in said), f"the messages {said}")
    term.line(f"save {record}")
    term.wait_for("Game record written")
    wait_in_pane(term, f"{record}")
    term.wait_until(lambda: all(part in term.text() for part in (COLUMNS, "Your rack:", "Bag: ")), "the board and rack")
    quit_game(term)
    assert term.wait_exit() == 0


def test_resizing_wraps_the_messages_again_and_a_small_terminal_says_so(terminals) -> None:
    seed = 12
    game = mirror(["You", BOT], seed)
    term = terminals("play", "--bot", "static", "--seed", str(seed), "--full-screen", rows=45, cols=120)
    term.wait_for("You to move|Static bot plays")
    last = "You to move." if game.turn == 0 else f"{BOT} plays"
    term.resize(24, 80)
    term.wait_for("Your rack:")
    wait_in_pane(term, last)  # the messages wrapped again to the new width
    term.resize(18, 60)
    term.wait_for(r"The terminal is too small \(needs 80×24, it is 60×18\)")
    term.wait_until(lambda: "TW" not in term.text(), "a notice without a cut-off board behind it")
    term.resize(30, 90)
    term.wait_for("Your rack:")
    term.wait_until(lambda: "too small" not in term.text() and COLUMNS in term.text(), "the whole board again")
    quit_game(term)
    assert term.wait_exit() == 0


def test_a_small_terminal_at_the_start_says_how_large_it_must_be(terminals) -> None:
    term = terminals("play", "--bot", "static", "--seed", "3", "--full-screen", rows=18, cols=60)
    term.wait_for(r"The terminal is too small \(needs 80×24, it is 60×18\)")
    quit_game(term)
    assert term.wait_exit() == 0


def test_a_word_placed_on_the_board_then_typing_goes_to_the_command_line(terminals) -> None:
    """A word placed with the keys; then typing '8H AAAA', which used to
    turn into tiles on the board, and Enter played a phony 9I A."""
    seed = 4
    game = mirror(["You", BOT], seed)
    bot = StaticPlayer(BOT)
    if game.turn == 1:
        let_bot_move(game, bot)
    move = StaticPlayer("mirror").choose(game)
    term = terminals("play", "--bot", "static", "--seed", str(seed), "--full-screen", "--practice", rows=24, cols=80)
    term.wait_for("You to move")
    term.press("tab")
    term.wait_for("Board: arrows move")  # the screen says where the keys go
    place_on_board(term, game, move)
    term.press("enter")
    game.push(move)
    reply = let_bot_move(game, bot)
    wait_in_pane(term, f"{BOT} plays {reply}")
    term.wait_for("You to move")
    assert "Board: arrows move" not in term.text()
    term.line("8H AAAA")
    wait_in_pane(term, "You> 8H AAAA")  # typed at the command line, answered as a move there
    term.pump(1.0)
    after = term.region(MESSAGES_LEFT).split(squeezed("You> 8H AAAA"))[-1]
    assert squeezed("You play") not in after and "9I" not in term.text(), term.text()
    assert re.search(r"2\. Static bot", term.text()) and not re.search(r"3\. You", term.text())
    quit_game(term)
    assert term.wait_exit() == 0


def test_ctrl_q_asks_before_leaving_a_game_that_is_not_saved(terminals) -> None:
    seed = 11
    game = mirror(["You", BOT], seed)
    term = terminals("play", "--bot", "static", "--seed", str(seed), "--full-screen")
    if game.turn == 1:
        let_bot_move(game, StaticPlayer(BOT))
    term.wait_for("You to move")
    mine = best_notation(game)
    term.line(mine)
    term.wait_for(re.escape(f"You play {mine}"))
    term.wait_for("You to move")
    term.press("ctrl+q")
    term.wait_for("Leave the game\\? Its \\d+ moves are not saved")  # yours and the bot's
    term.type("n")
    term.wait_until(lambda: "Leave the game" not in term.text(), "the game again, the question gone")
    term.line("board")
    term.wait_for("You to move")
    term.press("ctrl+q")
    term.wait_for("Leave the game")
    term.type("y")
    assert term.wait_exit() == 0
