"""The terminal game's session: lines typed at one keyboard, applied to a
:class:`~tilebag.table.Table`, and what happened said back.

The people share one keyboard. Each turn of a person shows the board, the
scores, the tiles left in the bag and the rack of the player to move (only
theirs), then reads one line: a move in GCG notation or a command (``help``
lists them). Bots move on their turn through the table, and what they do is
said as a person's move would be. The line game gives it a :class:`Console`
over standard input and output; the full-screen game (:mod:`tilebag.ui.tui`)
gives it one that draws the table, so both play exactly alike.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tilebag.actions import PlayMove
from tilebag.alphabet import BLANK, Tile
from tilebag.clock import Now, format_clock, format_seconds
from tilebag.engine.analysis.review import TurnAnalysis, analyze_turn
from tilebag.engine.coaching import coach
from tilebag.engine.players import Player
from tilebag.errors import IllegalMoveError, InvalidMoveError, NothingToUndoError, TilebagError
from tilebag.game import Game, GameState, Termination
from tilebag.move import Move, MoveKind
from tilebag.record import Event
from tilebag.rules import ChallengeMode
from tilebag.table import Table, TableEvent
from tilebag.ui.narration import (
    Narrator,
    blank_hint,
    capitalized,
    challenge_terms,
    first_word_text,
    help_text,
    is_you,
    possessive,
    rules_text,
    summary_lines,
)
from tilebag.ui.seats import save_table
from tilebag.view import SeatView, last_play_squares, seat_view

ACCEPT_WORDS = frozenset({"", "accept", "a", "ok", "done", "end"})
"""Answers that accept a game-ending play instead of challenging it."""

CLOSED_DICTIONARY = "the dictionary is closed in these rules: look words up after the game"
"""Why ``check`` and ``hint`` are refused without an open dictionary."""

Clock = Now
"""Where the session reads the time, in seconds (:func:`time.monotonic`;
tests give a clock they move on themselves)."""


class Action(enum.Enum):
    """What the game loop does after a command."""

    CONTINUE = "continue"
    STOP = "stop"


# -- input and output -------------------------------------------------------


class Console:
    """Lines in, text out, through ``input()`` and ``print()``. When input is
    not a terminal, each line read is echoed after its prompt so a transcript
    reads like a session.

    A full-screen front end (:mod:`tilebag.ui.tui`) is a console too: it draws
    the table from the snapshots :meth:`show` is given, so the session does
    not print the board, the scores and the rack as text.
    """

    full_screen = False
    """True when the console draws the table itself from :meth:`show`."""

    def __init__(self) -> None:
        self.echo = not sys.stdin.isatty()

    def show(self, view: SeatView) -> None:
        """The table changed (a line console prints it as text when asked)."""

    def read(self, prompt: str) -> str | None:
        """One line (stripped), or ``None`` at the end of input."""
        try:
            line = input(prompt)
        except EOFError:
            if self.echo:
                print()
            return None
        if self.echo:
            print(line)
        return line.strip()

    def say(self, text: str = "") -> None:
        print(text)


# -- the session ------------------------------------------------------------


@dataclass
class _Shown:
    """What the last turn display showed, to know when to show it again."""

    state: tuple[int, int, bool] | None = None
    seat: int | None = None


class Session:
    """One game at one keyboard: shows the position, reads lines and applies
    them to the table until the game ends or the players stop."""

    def __init__(
        self,
        game: Game | Table,
        console: Console,
        *,
        save_path: str | None = None,
        bots: Mapping[int, Player] | None = None,
        clock: Clock = time.monotonic,
        practice: bool = False,
        resumed_from: str | None = None,
    ) -> None:
        self.table = game if isinstance(game, Table) else Table(game, bots, now=clock, practice=practice)
        self.game = self.table.game
        self.narrator = Narrator(self.table)
        self.resumed_from = resumed_from
        """The record the game was resumed from, if it was."""
        self.console = console
        self.save_path = save_path
        self.reviews: dict[int, TurnAnalysis] = {}
        """Each person's last move, reviewed before it was played (for ``better``)."""
        self.shown = _Shown()
        self.commands: dict[str, Callable[[str], Action]] = {
            "help": self.cmd_help,
            "?": self.cmd_help,
            "board": self.cmd_board,
            "rack": self.cmd_rack,
            "scores": self.cmd_scores,
            "score": self.cmd_scores,
            "bag": self.cmd_bag,
            "challenge": self.cmd_challenge,
            "c": self.cmd_challenge,
            "save": self.cmd_save,
            "check": self.cmd_check,
            "hint": self.cmd_hint,
            "time": self.cmd_time,
            "undo": self.cmd_undo,
            "u": self.cmd_undo,
            "resign": self.cmd_resign,
            "better": self.cmd_better,
            "review": self.cmd_better,
            "words": self.cmd_words,
            "hooks": self.cmd_hooks,
            "bingos": self.cmd_bingos,
            "advice": self.cmd_advice,
            "quit": self.cmd_quit,
            "q": self.cmd_quit,
            "exit": self.cmd_quit,
        }

    @property
    def bots(self) -> dict[int, Player]:
        """The bots by seat; the other seats are people at the keyboard."""
        return self.table.bots

    @property
    def practice(self) -> bool:
        """Practice mode: hints, word lookups and move reviews whatever the rules."""
        return self.table.practice

    # -- views --------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.console.say(text)

    def tell(self, events: Sequence[TableEvent]) -> None:
        """Say what the table's events were."""
        for event in events:
            for line in self.narrator.lines(event):
                self.say(line)

    def name(self, player: int) -> str:
        return self.game.players[player].name

    def does(self, player: int, third: str) -> str:
        """``alice plays``, ``You play``."""
        return self.narrator.does(player, third)

    def people(self) -> int:
        """How many seats are people at the keyboard."""
        return self.table.people()

    def fmt_rack(self, tiles: Sequence[Tile]) -> str:
        return self.game.alphabet.format_rack(tiles)

    def seat(self) -> int:
        """The player at the keyboard: the player to move, or once the game
        is over, the one who may challenge its last play."""
        return self.table.seat_to_act()

    def final_challenge_pending(self) -> bool:
        """True when the game ended on a play that may still be challenged."""
        return self.game.state is GameState.FINAL_CHALLENGE

    def last_play_squares(self) -> list[int]:
        """Squares of the last play still on the board (to highlight)."""
        return last_play_squares(self.game)

    def view(self) -> SeatView:
        """The table as the player at the keyboard sees it, for the console."""
        seat = self.seat()
        view = seat_view(self.game, seat, bots=self.bots)
        if view.over:
            view = dataclasses.replace(view, result=self.narrator.result_text())
        event = self.table.challengeable_by(seat)
        if event is not None and seat not in self.bots:
            view = dataclasses.replace(view, challengeable=self.event_text(event))
        return view

    def scores_text(self, label: str = "Scores") -> str:
        """Every player's score, the player at the keyboard marked with ``>``.
        While the last play of the game may be challenged, the scores are
        shown before the racks are counted."""
        game = self.game
        marker = None if game.is_over() else self.seat()
        scores = game.scores_before_adjustments() if self.final_challenge_pending() else game.scores
        parts = [
            f"{'>' if i == marker else ''}{p.name}: {s}"
            for i, (p, s) in enumerate(zip(game.players, scores, strict=True))
        ]
        return f"{label}: " + " | ".join(parts) + self.targets_text()

    def targets_text(self) -> str:
        """The Finish Line targets, to show beside the scores ("" in other games)."""
        targets = self.game.finish_targets
        if targets is None:
            return ""
        if len(set(targets)) == 1:
            return f"    Finish Line: {targets[0]}"
        each = ", ".join(f"{p.name} {t}" for p, t in zip(self.game.players, targets, strict=True))
        return f"    Finish Line: {each}"

    def clocks_text(self, elapsed: float = 0.0) -> str:
        """What is left of each player's game clock ("" without game clocks);
        ``elapsed`` is the time the player to move has taken so far."""
        game = self.game
        if game.rules.game_clock is None:
            return ""
        parts = []
        for i, p in enumerate(game.players):
            left = game.rules.game_clock - game.clock_used[i] - (elapsed if i == game.turn and not game.is_over() else 0.0)
            shown = f"{format_clock(left)} left" if left >= 0 else f"{format_clock(-left)} over"
            parts.append(f"{p.name} {shown}")
        return "Game clocks: " + " | ".join(parts)

    def turn_timer_text(self, elapsed: float = 0.0) -> str:
        """What is left of the turn timer ("" without one)."""
        limit = self.game.rules.turn_time
        if limit is None:
            return ""
        left = max(0.0, limit - self.game.turn_elapsed - elapsed)
        return f"Turn timer: {format_clock(left)} left of {format_seconds(limit)}."

    def bag_text(self) -> str:
        n = len(self.game.bag)
        return f"Bag: {n} tile{'s' if n != 1 else ''}"

    def rack_text(self, player: int) -> str:
        rack = self.game.rack(player)
        shown = self.fmt_rack(rack) or "(empty)"
        return f"{capitalized(possessive(self.name(player)))} rack: {shown}"

    def event_text(self, event: Event) -> str:
        """A placement event as ``alice's 8F HORN (+14)``."""
        return f"{possessive(self.name(event.player))} {self.table.play_text(event)}"

    # -- the loop -----------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends, input ends or a player quits; the exit
        status (130 after Ctrl-C, the record still written if asked)."""
        self.show_start()
        try:
            return self.loop()
        except KeyboardInterrupt:
            self.say()
            self.say("Interrupted.")
            self.stop()
            return 130

    def loop(self) -> int:
        """Read and apply lines until the game is over or stopped."""
        while True:
            if self.game.state is GameState.OVER:
                return self.finish()
            if self.table.bot_to_act() is not None:
                self.say()
                self.tell(self.table.bot_turn())
                self.console.show(self.view())
                continue
            self.table.start_timing()
            self.show_turn_if_changed()
            self.console.show(self.view())
            line = self.console.read(f"{self.name(self.seat())}> ")
            if line is None:
                self.say("End of input.")
                return self.stop()
            if self.dispatch(line) is Action.STOP:
                return self.stop()

    def dispatch(self, line: str) -> Action:
        """Apply one line of input: a command or a move."""
        word, _, rest = line.partition(" ")
        handler = self.commands.get(word.lower())
        if handler is not None:
            return handler(rest.strip())
        if self.final_challenge_pending():
            return self.answer_final_challenge(line)
        if not line:
            return Action.CONTINUE
        return self.cmd_move(line)

    # -- showing ------------------------------------------------------------

    def show_start(self) -> None:
        """The players, the rules that matter and the draw for first play."""
        game = self.game
        names = ", ".join(p.name for p in game.players)
        self.say(f"tilebag: a game for {names}.")
        mode = game.rules.challenge
        terms = "phonies are refused on entry" if mode is ChallengeMode.VOID else challenge_terms(mode)
        self.say(f"Challenge mode: {mode.value} ({terms}).")
        self.say(rules_text(game.rules))
        for line in self.variation_lines():
            self.say(line)
        self.say("Type help for the commands.")
        if self.resumed_from:
            turns = sum(e.kind.is_turn for e in game.events)
            self.say(f"Resumed from {self.resumed_from} after {turns} turn{'s' if turns != 1 else ''}.")
            self.show_scores()
        else:
            self.show_first_draw()

    def variation_lines(self) -> list[str]:
        """What the variations in play mean for the players, said at the start."""
        game = self.game
        rules = game.rules
        lines = []
        if game.finish_targets is not None:
            targets = game.finish_targets
            if len(set(targets)) == 1:
                goal = f"the first to reach {targets[0]} points wins"
            else:
                each = ", ".join(f"{p.name} {t}" for p, t in zip(game.players, targets, strict=True))
                goal = f"the first to reach their target wins ({each})"
            lines.append(f"Finish Line: {goal}; the game ends at once and no racks are counted.")
        if rules.min_first_word > 2:
            lines.append(f"The {first_word_text(rules.min_first_word)}.")
        allowed = [
            name
            for name, on in (
                ("recycle", rules.recycle),
                ("blank swap", rules.blank_swap),
                ("anagram plays", rules.anagram),
            )
            if on
        ]
        if allowed:
            lines.append(f"Allowed in these rules: {', '.join(allowed)} (type help to see how).")
        if rules.open_dictionary:
            lines.append("Open dictionary: type 'check WORD' to look a word up, 'hint' for a play.")
        elif self.practice:
            lines.append("Practice mode: type 'check WORD' to look a word up, 'hint' for a play.")
        if rules.turn_time is not None:
            lines.append(f"Turn timer: {format_seconds(rules.turn_time)} a turn; when it runs out the turn is a pass.")
        if rules.game_clock is not None:
            penalty = (
                f"; {rules.overtime_penalty} points lost per minute (or part of one) over"
                if rules.overtime_penalty
                else ""
            )
            lines.append(f"Game clock: {format_seconds(rules.game_clock)} each{penalty}.")
        return lines

    def show_first_draw(self) -> None:
        game = self.game
        if len(game.players) == 1:
            self.say(f"Solo game: {self.does(0, 'plays')} alone.")
            return
        for round_ in game.first_draw:
            drawn = [f"{self.does(i, 'draws')} {self.tile_name(t)}" for i, t in enumerate(round_) if t is not None]
            self.say("Draw for first play: " + ", ".join(drawn) + ".")
        self.say(f"{self.does(game.first, 'goes')} first (the letter nearest A; a blank beats every letter).")

    def tile_name(self, tile: Tile) -> str:
        return "a blank" if tile == BLANK else self.game.alphabet.label(tile)

    def show_turn_if_changed(self) -> None:
        """Show the position when something happened since it was last shown."""
        state = self.state()
        if state != self.shown.state:
            self.show_turn()
            self.shown.state = state

    def state(self) -> tuple[int, int, bool]:
        """What changes when something happens in the game."""
        return (len(self.game.events), self.game.turn, self.game.is_over())

    def show_turn(self) -> None:
        """The board, scores, bag, whose turn, and that player's rack only."""
        game = self.game
        seat = self.seat()
        if self.people() > 1 and seat != self.shown.seat:
            self.say()
            self.say(f"=== pass the keyboard to {self.name(seat)} ===")
        self.shown.seat = seat
        if not self.console.full_screen:  # a full-screen console draws these from the table
            self.say()
            self.say(game.board.render(highlight=self.last_play_squares()))
            self.say(f"{self.scores_text()}    {self.bag_text()}")
        if self.final_challenge_pending():
            self.show_final_challenge_offer()
            return
        clocks = self.clocks_text()
        if clocks:
            self.say(clocks)
        self.say(f"{self.name(seat)} to move.")
        timer = self.turn_timer_text()
        if timer:
            self.say(timer)
        if game.board.is_empty() and game.rules.min_first_word > 2:
            self.say(f"The {first_word_text(game.rules.min_first_word)}.")
        event = self.table.challengeable_by(seat)
        if event is not None:
            self.say(f"You may type 'challenge' to challenge {self.event_text(event)} before you move.")
        if not self.console.full_screen:
            self.say(self.rack_text(seat))

    def show_final_challenge_offer(self) -> None:
        game = self.game
        event = game.challengeable
        assert event is not None
        if game.termination is Termination.FINISH_LINE and game.finish_targets is not None:
            why = f"the Finish Line target of {game.finish_targets[event.player]} is reached"
        else:
            why = "no tiles left in the bag or on the rack"
        self.say(f"{self.does(event.player, 'ended')} the game with {self.table.play_text(event)}: {why}.")
        self.say(
            f"{self.name(self.seat())}: type 'challenge' to challenge it, or press Enter to accept it and end the game."
        )

    def show_scores(self) -> None:
        self.say(self.scores_text())

    # -- commands -----------------------------------------------------------

    def coaching_allowed(self) -> bool:
        """True when hints and word lookups are allowed: in practice mode,
        or when the rules open the dictionary."""
        return self.table.coaching_allowed()

    def cmd_help(self, _: str) -> Action:
        self.say(help_text(self.game.rules, practice=self.practice, bots=bool(self.bots) and self.people() == 1))
        return Action.CONTINUE

    def cmd_board(self, _: str) -> Action:
        self.say(self.game.board.render(highlight=self.last_play_squares()))
        return Action.CONTINUE

    def cmd_rack(self, _: str) -> Action:
        self.say(self.rack_text(self.seat()))
        return Action.CONTINUE

    def cmd_scores(self, _: str) -> Action:
        self.show_scores()
        return Action.CONTINUE

    def cmd_bag(self, _: str) -> Action:
        unseen = self.game.unseen(self.seat())
        self.say(self.bag_text())
        self.say(f"Unseen by {self.name(self.seat())} ({len(unseen)}): {self.fmt_rack(unseen) or '(none)'}")
        return Action.CONTINUE

    def cmd_save(self, path: str) -> Action:
        target = path or self.save_path
        if not target:
            self.say("save needs a file name: save FILE.gcg")
            return Action.CONTINUE
        self.save(target)
        return Action.CONTINUE

    def cmd_quit(self, _: str) -> Action:
        return Action.STOP

    def cmd_check(self, words: str) -> Action:
        """Look words up, when the rules open the dictionary."""
        game = self.game
        if not self.coaching_allowed():
            self.say(f"Not allowed: {CLOSED_DICTIONARY}.")
            return Action.CONTINUE
        if not words.split():
            self.say("check needs one or more words: check QI ZA")
            return Action.CONTINUE
        for word in words.split():
            text = word.upper()
            verdict = "acceptable" if text in game.lexicon else "not acceptable"
            self.say(f"{text}: {verdict} in {game.lexicon.name}.")
        return Action.CONTINUE

    def cmd_hint(self, _: str) -> Action:
        """The play the static bot would make with the rack of the player to
        move, when the rules open the dictionary (see :func:`~tilebag.engine.coaching.coach.hint_lines`)."""
        if not self.coaching_allowed():
            self.say(f"Not allowed: {CLOSED_DICTIONARY}.")
            return Action.CONTINUE
        if self.game.is_over():
            self.say("The game is over: there is no move to hint at.")
            return Action.CONTINUE
        try:
            [hint] = coach.hint_lines(self.game, top=1)
        except TypeError as err:
            self.say(f"No hints: {err}.")
            return Action.CONTINUE
        self.say(f"Hint: {hint}.")
        return Action.CONTINUE

    def cmd_time(self, _: str) -> Action:
        """The time left on the turn timer and the game clocks, now."""
        game = self.game
        if game.rules.turn_time is None and game.rules.game_clock is None:
            self.say("These rules have no turn timer and no game clocks.")
            return Action.CONTINUE
        elapsed = 0.0 if game.is_over() else self.table.elapsed()
        for text in (self.turn_timer_text(elapsed), self.clocks_text(elapsed)):
            if text:
                self.say(text)
        return Action.CONTINUE

    def cmd_undo(self, _: str) -> Action:
        """Take back the last move of the player at the keyboard and every
        bot move since (see :meth:`tilebag.table.Table.undo`)."""
        seat = self.seat()
        try:
            events = self.table.undo(seat)
        except IllegalMoveError as err:
            self.say(f"Not allowed: {err}.")
            return Action.CONTINUE
        except NothingToUndoError:
            self.say("Nothing to undo: you have not moved yet." if is_you(self.name(seat)) else "Nothing to undo yet.")
            return Action.CONTINUE
        self.shown = _Shown()
        self.tell(events)
        return Action.CONTINUE

    def cmd_resign(self, _: str) -> Action:
        """Resign the game for the player at the keyboard, after a yes."""
        if self.game.is_over():
            self.say("The game is over already.")
            return Action.CONTINUE
        answer = self.console.read("Resign the game? Type yes to resign: ")
        if (answer or "").lower() not in ("yes", "y"):
            self.say("Not resigned: the game goes on.")
            return Action.CONTINUE
        self.tell(self.table.resign(self.seat()))
        return Action.CONTINUE

    def cmd_move(self, text: str) -> Action:
        """A placement, an exchange or a pass for the player to move, or one
        of the variations' actions (recycle, blank swap, anagram play). Once
        the turn timer has run out, anything tried makes the turn a pass."""
        seat = self.game.turn
        seconds = self.table.elapsed()
        try:
            action = self.table.parse_action(text)
            if not isinstance(action, PlayMove):  # accept: the commands took challenge, resign and undo already
                self.tell(self.table.act(seat, action))
                return Action.CONTINUE
            move = self.table.check(seat, action.move)
        except (InvalidMoveError, IllegalMoveError) as err:
            if self.table.over_time(seconds):
                self.tell(self.table.time_out(seat, seconds=seconds))
            elif isinstance(err, InvalidMoveError):
                self.say(f"Not a move: {err} (type help for the commands)")
            else:
                self.say(f"Not allowed: {err}{blank_hint(text, err)}")
            return Action.CONTINUE
        review = self.review(move)
        self.tell(self.table.play(seat, move, seconds=seconds))
        if review is not None:
            self.reviews[seat] = review
        return Action.CONTINUE

    def review(self, move: Move) -> TurnAnalysis | None:
        """How a person's move compares with the best plays, worked out
        before it is played (``None`` for the variations' actions, or with a
        lexicon the move generator cannot read)."""
        if move.kind not in (MoveKind.PLACE, MoveKind.EXCHANGE, MoveKind.PASS):
            return None
        try:
            return analyze_turn(self.game, move, top=3)
        except (TypeError, TilebagError):
            return None

    # -- coaching -------------------------------------------------------------

    def coaching_refused(self) -> bool:
        """Say why, and return True, when coaching is not allowed: with a
        closed dictionary outside practice mode (even once the game is over,
        while its last play may still be challenged)."""
        if self.coaching_allowed():
            return False
        self.say(f"Not allowed: {CLOSED_DICTIONARY} (or play with --practice).")
        return True

    def say_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.say(line)

    def cmd_better(self, _: str) -> Action:
        """Whether a better play existed for your last move."""
        if self.coaching_refused():
            return Action.CONTINUE
        review = self.reviews.get(self.seat())
        if review is None:
            self.say("No move of yours to review yet.")
            return Action.CONTINUE
        self.say_lines(coach.review_lines(self.game, review))
        return Action.CONTINUE

    def cmd_words(self, what: str) -> Action:
        if not self.coaching_refused():
            self.say_lines(coach.words_lines(self.game, what))
        return Action.CONTINUE

    def cmd_hooks(self, words: str) -> Action:
        if not self.coaching_refused():
            self.say_lines(coach.hooks_lines(self.game, words))
        return Action.CONTINUE

    def cmd_bingos(self, _: str) -> Action:
        if not self.coaching_refused():
            self.say_lines(coach.bingo_lines(self.game, self.seat()))
        return Action.CONTINUE

    def cmd_advice(self, _: str) -> Action:
        if not self.coaching_refused():
            self.say_lines(coach.advice_lines(self.game, self.seat()))
        return Action.CONTINUE

    def cmd_challenge(self, who: str) -> Action:
        """Challenge the last play; ``who`` names the challenger (default:
        the player at the keyboard)."""
        game = self.game
        event = game.challengeable
        challenger = self.seat()
        if who:
            found = self.find_player(who)
            if found is None:
                self.say(f"No player named {who!r}: the players are {', '.join(p.name for p in game.players)}")
                return Action.CONTINUE
            challenger = found
        if challenger in self.bots:
            self.say(f"Not allowed: {self.name(challenger)} is a bot; it challenges on its own turn.")
            return Action.CONTINUE
        if event is not None and challenger == event.player:
            self.say(f"Not allowed: {self.does(challenger, 'made')} that play; only an opponent may challenge it.")
            return Action.CONTINUE
        try:
            self.tell(self.table.challenge(challenger))
        except IllegalMoveError as err:
            self.say(f"Not allowed: {err}")
        return Action.CONTINUE

    def find_player(self, text: str) -> int | None:
        """A player by name or record nickname, any case."""
        key = "_".join(text.split()).lower()
        for i, p in enumerate(self.game.players):
            if "_".join(p.name.split()).lower() == key:
                return i
        return None

    def answer_final_challenge(self, line: str) -> Action:
        """A reply to the offer to challenge the play that ended the game."""
        if line.lower() in ACCEPT_WORDS:
            self.table.accept(self.seat())
            return Action.CONTINUE
        self.say("The game is over. Type 'challenge' to challenge the last play, or press Enter to accept it.")
        return Action.CONTINUE

    # -- ending -------------------------------------------------------------

    def stop(self) -> int:
        """End the session before the game is over (or after, on quit)."""
        if self.game.is_over():
            return self.finish()
        self.say("Game stopped before the end.")
        self.show_scores()
        return self.save_on_exit()

    def finish(self) -> int:
        """The end of the game: rack adjustments, final scores, the result."""
        game = self.game
        if self.console.full_screen:
            self.console.show(self.view())
        elif self.shown.state != self.state():
            self.say()
            self.say(game.board.render(highlight=self.last_play_squares()))
        self.say_lines(self.narrator.end_lines())
        self.say(self.scores_text("Final scores"))
        self.say(self.narrator.result_text())
        self.say_lines(summary_lines(game))
        return self.save_on_exit()

    def save_on_exit(self) -> int:
        """Write the record if ``--save`` was given; the exit status."""
        if self.save_path and not self.save(self.save_path):
            return 2
        if self.save_path and self.game.is_over():
            self.say(f"Review it move by move: tilebag analyze {self.save_path}")
        return 0

    def save(self, path: str) -> bool:
        """Write the game record as GCG; False (and say why) when it fails."""
        try:
            save_table(self.table, path)
        except OSError as err:
            self.say(f"Cannot write {path}: {err.strerror or err}")
            return False
        self.say(f"Game record written to {path}.")
        return True
