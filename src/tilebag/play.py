"""``tilebag play``: a hot-seat game for 1 to 4 seats, one line at a time,
people and bots (:mod:`tilebag.players`) at one table.

The people share one keyboard. Each turn of a person shows the board, the
scores, the tiles left in the bag and the rack of the player to move (only
theirs), then reads one line: a move in GCG notation or a command. Type
``help`` for the commands. It works with plain standard input and output, so
a game can be fed from a file or a pipe::

    $ printf '8F HORN\\n-\\n' | tilebag play alice bob --seed 5 --save game.gcg

``--bot KIND`` (repeatable) adds a bot seat after the people named, so
``tilebag play --bot static`` is one person, "You", against "Static bot". A
bot moves on its turn and its move is reported as a person's would be (an
exchange by its number of tiles only); its rack is never shown. On its turn
a bot challenges the last play exactly when it formed a word the lexicon
does not accept; people may challenge a bot's play like anyone's.

Illegal moves and typos are refused with the reason, and the same player is
asked again; the game is unchanged. Unless phonies are refused on entry (void
challenge mode), the next player may type ``challenge`` before moving; a play
that ends the game can be challenged too before the racks are counted. End of
input or ``quit`` stops the game (writing the record when ``--save`` is
given); so does the end of the game. A player named "You" is addressed as
such (``You play``, ``Your rack``).

>>> format_words([("HORN", 14)], bingo=0)
'HORN 14'
>>> format_words([("PASTE", 19), ("FARMS", 6)], bingo=0)
'PASTE 19 + FARMS 6'
>>> bot_names(["static", "greedy", "static"])
['Static bot 1', 'Greedy bot', 'Static bot 2']
"""

from __future__ import annotations

import argparse
import enum
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tilebag import gcg
from tilebag.alphabet import BLANK, Tile, load_alphabet
from tilebag.errors import Illegal, IllegalMoveError, InvalidMoveError, TilebagError
from tilebag.game import ChallengeResult, Game, Termination
from tilebag.lexicon import load_lexicon
from tilebag.move import Move, MoveKind
from tilebag.players import BOTS, Player, generator_for, make_bot
from tilebag.record import Event, EventKind
from tilebag.rules import ChallengeMode, Rules, find_rules

DEFAULT_NAMES = ("Player 1", "Player 2")
"""Who plays when no names and no bots are given."""

YOU = "You"
"""The one person at the table when bots but no names are given."""

ACCEPT_WORDS = frozenset({"", "accept", "a", "ok", "done", "end"})
"""Answers that accept a game-ending play instead of challenging it."""


class SetupError(TilebagError):
    """Options that do not make a game (exit status 2)."""


class Action(enum.Enum):
    """What the game loop does after a command."""

    CONTINUE = "continue"
    STOP = "stop"


# -- setting up -------------------------------------------------------------


def main(args: argparse.Namespace) -> int:
    """Run ``tilebag play`` with parsed command-line options; the exit status."""
    try:
        game, bots = build_game(args)
    except (TilebagError, ValueError) as err:
        print(f"tilebag play: {err}", file=sys.stderr)
        return 2
    return Session(game, Console(), save_path=args.save, bots=bots).run()


def build_game(args: argparse.Namespace) -> tuple[Game, dict[int, Player]]:
    """A new game from the command-line options, and its bots by seat: the
    people as named, then the bots (``--bot``).

    :raises SetupError: for bad names, an unknown bot kind, a bad number of
        seats, or bots with a lexicon they cannot play from.
    :raises TilebagError: for unknown rules or an unreadable lexicon.
    :raises ValueError: for an unknown challenge mode.
    """
    rules = choose_rules(args.rules, args.challenge)
    kinds = bot_kinds(getattr(args, "bot", None) or [])
    names = player_names(args.players, rules, bots=bot_names(kinds))
    lexicon = None
    if args.lexicon:
        lexicon = load_lexicon(args.lexicon, alphabet=load_alphabet(rules.alphabet))
    game = Game(names, rules=rules, lexicon=lexicon, seed=args.seed)
    first_bot = len(names) - len(kinds)
    bots = {first_bot + i: make_bot(kind, names[first_bot + i]) for i, kind in enumerate(kinds)}
    if bots:
        try:
            generator_for(game)  # built now, once: bots play from the lexicon's word graph
        except TypeError as err:
            raise SetupError(str(err)) from None
    return game, bots


def choose_rules(name: str | Rules | None, challenge: str | None) -> Rules:
    """The rules preset, with the challenge mode changed if asked; rules
    already made (as :func:`tilebag.cli.rules_from_args` makes them from
    ``--rules`` and its options, the challenge mode included) are used as
    they are."""
    if isinstance(name, Rules):
        return name
    rules = find_rules(name or "standard")
    if challenge:
        rules = rules.replace(challenge=ChallengeMode.parse(challenge))
    return rules


def bot_kinds(given: Sequence[str]) -> list[str]:
    """The bot kinds asked for, in lower case.

    :raises SetupError: for an unknown kind, listing the known ones.
    """
    kinds = [kind.strip().lower() for kind in given]
    for kind, text in zip(kinds, given, strict=True):
        if kind not in BOTS:
            raise SetupError(f"unknown bot kind {text!r}: the known kinds are {', '.join(sorted(BOTS))}")
    return kinds


def bot_names(kinds: Sequence[str]) -> list[str]:
    """Seat names for bots of these kinds, numbered when a kind repeats."""
    counts = Counter(kinds)
    seen: Counter[str] = Counter()
    names = []
    for kind in kinds:
        seen[kind] += 1
        number = f" {seen[kind]}" if counts[kind] > 1 else ""
        names.append(f"{kind.capitalize()} bot{number}")
    return names


def player_names(given: Sequence[str] | None, rules: Rules, *, bots: Sequence[str] = ()) -> list[str]:
    """Every seat's name: the people named, then the bots. With no names, two
    default players, or one (:data:`YOU`) when there are bots.

    :raises SetupError: for too many or too few seats, empty names, or
        names a game record could not tell apart.
    """
    if given:
        people = [" ".join(n.split()) for n in given]
    else:
        people = [YOU] if bots else list(DEFAULT_NAMES)
    names = people + list(bots)
    if not rules.min_players <= len(names) <= rules.max_players:
        who = "person" if len(people) == 1 else "people"
        seats = f" ({len(people)} {who} and {len(bots)} bot{'s' if len(bots) != 1 else ''})" if bots else ""
        raise SetupError(
            f"{len(names)} players{seats}: a game takes {rules.min_players} to {rules.max_players} players"
        )
    if any(not n for n in names):
        raise SetupError("a player name cannot be empty")
    nicknames = ["_".join(n.split()).lower() for n in names]
    if len(set(nicknames)) != len(nicknames):
        raise SetupError(f"player names must differ: {', '.join(names)}")
    return names


# -- input and output -------------------------------------------------------


class Console:
    """Lines in, text out, through ``input()`` and ``print()``. When input is
    not a terminal, each line read is echoed after its prompt so a transcript
    reads like a session."""

    def __init__(self) -> None:
        self.echo = not sys.stdin.isatty()

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


# -- text helpers -----------------------------------------------------------


def format_words(words: Sequence[tuple[str, int]], bingo: int) -> str:
    """The words a play formed with their scores, and the bingo bonus."""
    parts = [f"{word} {score}" for word, score in words]
    if bingo:
        parts.append(f"{bingo} for the bingo")
    return " + ".join(parts)


def is_you(name: str) -> bool:
    """True for a player named "You", who is addressed as such."""
    return name.casefold() == YOU.casefold()


def possessive(name: str) -> str:
    """``alice's``, ``James'``, ``your``.

    >>> possessive("alice"), possessive("James"), possessive("You")
    ("alice's", "James'", 'your')
    """
    if is_you(name):
        return "your"
    return f"{name}'" if name.endswith("s") else f"{name}'s"


_SECOND_PERSON = {"passes": "pass", "goes": "go", "misses": "miss"}


def verb(name: str, third: str) -> str:
    """A verb after a player's name: ``plays``, or ``play`` after "You".

    >>> f"alice {verb('alice', 'passes')}", f"You {verb('You', 'passes')}"
    ('alice passes', 'You pass')
    """
    if not is_you(name):
        return third
    return _SECOND_PERSON.get(third, third.removesuffix("s"))


def capitalized(text: str) -> str:
    """``your rack`` as ``Your rack``; names keep their case."""
    return "Your" + text[4:] if text.startswith("your") else text


def help_text(rules: Rules) -> str:
    """The commands, for ``help``."""
    mode = rules.challenge
    if mode is ChallengeMode.VOID:
        challenge = "  (void challenge mode: a play with a word not in the lexicon is refused on entry)"
    else:
        challenge = (
            "  challenge, c    challenge the last play before you move (challenge NAME: NAME challenges)\n"
            f"                  {mode.value} challenge: {challenge_terms(mode)}"
        )
    lines = [
        "Moves (GCG notation):",
        "  8F HORN         play across from 8F (row 8, column F); F8 HORN plays down from F8",
        "  H6 FA.M         a '.' (or the letter in brackets, H6 FA(R)M) for a tile already on the board",
        "  8F HoRN         a lower-case letter is a blank standing for that letter",
        f"  -ABC            exchange A, B and C (? for a blank); {rules.exchange_min_bag} tiles must be in the bag",
        "  -               pass",
        "Commands:",
        challenge,
        "  board           show the board again",
        "  rack            show your rack",
        "  scores          show the scores",
        "  bag             tiles left in the bag, and the tiles you cannot see",
        "  save FILE       write the game record (GCG) to FILE now",
        "  help, ?         this help",
        "  quit, q         stop the game (the record is written if --save was given)",
    ]
    return "\n".join(lines)


def blank_hint(text: str, err: IllegalMoveError) -> str:
    """A reminder that lower case means a blank, when a placement written in
    lower case asked for blanks the rack does not hold.

    >>> from tilebag.errors import Illegal
    >>> blank_hint("8f horn", IllegalMoveError(Illegal.TILE_NOT_ON_RACK, "no ????"))
    ' (lower-case letters are blanks: write the word in capitals)'
    """
    word = text.split()[-1] if text.split() else ""
    if err.reason is Illegal.TILE_NOT_ON_RACK and not text.startswith("-") and any(c.islower() for c in word):
        return " (lower-case letters are blanks: write the word in capitals)"
    return ""


def challenge_terms(mode: ChallengeMode) -> str:
    """What a challenge costs in a challenge mode, in a few words."""
    if mode is ChallengeMode.DOUBLE:
        return "a phony comes off; if the play stands, the challenger loses a turn"
    if mode is ChallengeMode.SINGLE:
        return "a phony comes off; a play that stands costs the challenger nothing"
    return f"a phony comes off; if the play stands, the challenger loses {mode.penalty_points} points"


# -- the session ------------------------------------------------------------


@dataclass
class _Shown:
    """What the last turn display showed, to know when to show it again."""

    state: tuple[int, int, bool] | None = None
    seat: int | None = None


class Session:
    """One game at one keyboard: shows the position, reads lines and applies
    them to the game until it ends or the players stop."""

    def __init__(
        self,
        game: Game,
        console: Console,
        *,
        save_path: str | None = None,
        bots: Mapping[int, Player] | None = None,
    ) -> None:
        self.game = game
        self.console = console
        self.save_path = save_path
        self.bots = dict(bots or {})
        """The bots by seat; the other seats are people at the keyboard."""
        self.shown = _Shown()
        self.accepted_end = False
        """True once the last play of a finished game was accepted unchallenged."""
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
            "quit": self.cmd_quit,
            "q": self.cmd_quit,
            "exit": self.cmd_quit,
        }

    # -- views --------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.console.say(text)

    def name(self, player: int) -> str:
        return self.game.players[player].name

    def does(self, player: int, third: str) -> str:
        """``alice plays``, ``You play``."""
        name = self.name(player)
        return f"{name} {verb(name, third)}"

    def people(self) -> int:
        """How many seats are people at the keyboard."""
        return len(self.game.players) - len(self.bots)

    def fmt_rack(self, tiles: Sequence[Tile]) -> str:
        return self.game.alphabet.format_rack(tiles)

    def seat(self) -> int:
        """The player at the keyboard: the player to move, or once the game
        is over, the one who may challenge its last play."""
        if self.final_challenge_pending():
            event = self.game.challengeable
            assert event is not None
            return (event.player + 1) % len(self.game.players)
        return self.game.turn

    def can_challenge(self) -> bool:
        """True when there is a play an opponent may challenge now."""
        event = self.game.challengeable
        return (
            self.game.rules.challenge is not ChallengeMode.VOID
            and len(self.game.players) > 1
            and event is not None
            and event.move is not None
        )

    def final_challenge_pending(self) -> bool:
        """True when the game ended on a play that may still be challenged."""
        return self.game.is_over() and not self.accepted_end and self.can_challenge()

    def last_play_squares(self) -> list[int]:
        """Squares of the last play still on the board (to highlight)."""
        last: Move | None = None
        for event in self.game.events:
            if event.kind is EventKind.PLACE:
                last = event.move
            elif event.kind is EventKind.WITHDRAWN:
                last = None
        if last is None:
            return []
        layout = self.game.layout
        return [layout.square(r, c) for r, c, _ in last.placed()]

    def scores_text(self, label: str = "Scores") -> str:
        """Every player's score, the player at the keyboard marked with ``>``.
        While the last play of the game may be challenged, the scores are
        shown before the racks are counted."""
        game = self.game
        marker = None if game.is_over() else self.seat()
        pending = self.final_challenge_pending()
        scores = game.scores_before_adjustments() if pending else game.scores
        parts = [
            f"{'>' if i == marker else ''}{p.name}: {s}"
            for i, (p, s) in enumerate(zip(game.players, scores, strict=True))
        ]
        return f"{label}: " + " | ".join(parts)

    def bag_text(self) -> str:
        n = len(self.game.bag)
        return f"Bag: {n} tile{'s' if n != 1 else ''}"

    def rack_text(self, player: int) -> str:
        rack = self.game.rack(player)
        shown = self.fmt_rack(rack) or "(empty)"
        return f"{capitalized(possessive(self.name(player)))} rack: {shown}"

    def play_text(self, event: Event) -> str:
        """A placement event as ``8F HORN (+14)``."""
        assert event.move is not None
        return f"{self.game.board.notation(event.move)} (+{event.score})"

    def event_text(self, event: Event) -> str:
        """A placement event as ``alice's 8F HORN (+14)``."""
        return f"{possessive(self.name(event.player))} {self.play_text(event)}"

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
            if self.game.is_over() and not self.final_challenge_pending():
                return self.finish()
            bot = self.bots.get(self.seat())
            if bot is not None:
                self.bot_turn(bot)
                continue
            self.show_turn_if_changed()
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
        self.say("Type help for the commands.")
        self.show_first_draw()

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
        self.say()
        self.say(game.board.render(highlight=self.last_play_squares()))
        self.say(f"{self.scores_text()}    {self.bag_text()}")
        if self.final_challenge_pending():
            self.show_final_challenge_offer()
            return
        self.say(f"{self.name(seat)} to move.")
        event = game.challengeable
        if self.can_challenge() and event is not None and event.player != seat:
            self.say(f"You may type 'challenge' to challenge {self.event_text(event)} before you move.")
        self.say(self.rack_text(seat))

    def show_final_challenge_offer(self) -> None:
        event = self.game.challengeable
        assert event is not None
        self.say(
            f"{self.does(event.player, 'ended')} the game with {self.play_text(event)}: "
            "no tiles left in the bag or on the rack."
        )
        self.say(
            f"{self.name(self.seat())}: type 'challenge' to challenge it, or press Enter to accept it and end the game."
        )

    def show_scores(self) -> None:
        self.say(self.scores_text())

    # -- commands -----------------------------------------------------------

    def cmd_help(self, _: str) -> Action:
        self.say(help_text(self.game.rules))
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

    def cmd_move(self, text: str) -> Action:
        """A placement, an exchange or a pass for the player to move."""
        game = self.game
        try:
            move = game.check(game.parse_move(text))
        except InvalidMoveError as err:
            self.say(f"Not a move: {err} (type help for the commands)")
            return Action.CONTINUE
        except IllegalMoveError as err:
            self.say(f"Not allowed: {err}{blank_hint(text, err)}")
            return Action.CONTINUE
        self.play(move)
        return Action.CONTINUE

    def play(self, move: Move) -> None:
        """Play a checked move for the player to move and say what it did."""
        game = self.game
        me = game.turn
        summary = self.describe_move(move)
        lost_before = [p.lost_turns for p in game.players]
        total_before = game.players[me].score
        score = game.push(move)
        if move.kind is MoveKind.PLACE:
            summary += f" = {score} point{'s' if score != 1 else ''} (total {total_before + score})"
        self.say(summary)
        self.report_missed_turns(lost_before)

    def describe_move(self, move: Move) -> str:
        """What a checked move does, said before it is played. An exchange
        shows only how many tiles went back, as the opponents see it."""
        game = self.game
        me = game.turn
        if move.kind is MoveKind.PASS:
            return f"{self.does(me, 'passes')}."
        if move.kind is MoveKind.EXCHANGE:
            n = len(move.tiles)
            return f"{self.does(me, 'exchanges')} {n} tile{'s' if n != 1 else ''}."
        words = [(game.alphabet.format_word(w.tiles), w.score) for w in game.words(move)]
        bingo = game.rules.bingo_bonus if len(move.placed()) >= game.rules.bingo_tiles else 0
        return f"{self.does(me, 'plays')} {game.notation(move)}: {format_words(words, bingo)}"

    def report_missed_turns(self, lost_before: Sequence[int]) -> None:
        """Say who missed a turn they lost to a failed challenge."""
        for i, p in enumerate(self.game.players):
            if p.lost_turns < lost_before[i]:
                self.say(f"{self.does(i, 'misses')} this turn (lost on a failed challenge).")

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
        self.challenge(challenger)
        return Action.CONTINUE

    def challenge(self, challenger: int) -> None:
        """Challenge the last play for ``challenger`` and say the ruling."""
        game = self.game
        event = game.challengeable
        turn_before = game.turn
        lost_before = [p.lost_turns for p in game.players]
        try:
            result = game.challenge(challenger)
        except IllegalMoveError as err:
            self.say(f"Not allowed: {err}")
            return
        assert event is not None
        self.report_ruling(event, challenger, result, turn_before)
        self.report_missed_turns(lost_before)

    def find_player(self, text: str) -> int | None:
        """A player by name or record nickname, any case."""
        key = "_".join(text.split()).lower()
        for i, p in enumerate(self.game.players):
            if "_".join(p.name.split()).lower() == key:
                return i
        return None

    def report_ruling(self, event: Event, challenger: int, result: ChallengeResult, turn_before: int) -> None:
        """Say what a challenge decided and what it cost whom."""
        game = self.game
        player, me = self.name(event.player), self.name(challenger)
        self.say(f"{self.does(challenger, 'challenges')} {self.event_text(event)}: {', '.join(result.words)}.")
        if not result.valid:
            self.say(f"Not acceptable in {game.lexicon.name}: {', '.join(result.phonies)}.")
            self.say(
                f"The play comes off: {self.does(event.player, 'takes')} the tiles back and "
                f"{verb(player, 'loses')} the {event.score} points (now {game.players[event.player].score})."
            )
            return
        self.say(f"All acceptable in {game.lexicon.name}: the play stands.")
        loses = self.does(challenger, "loses")
        if result.points:
            self.say(
                f"{loses} {-result.points} points for the failed challenge (now {game.players[challenger].score})."
            )
        elif result.lost_turn and challenger == turn_before:
            self.say(f"{loses} this turn for the failed challenge.")
        elif result.lost_turn:
            their = "your" if is_you(me) else "their"
            self.say(f"{me} will miss {their} next turn for the failed challenge.")
        else:
            self.say("The failed challenge costs nothing.")

    # -- bots ---------------------------------------------------------------

    def bot_turn(self, bot: Player) -> None:
        """What a bot does at its seat: challenge the last play if it formed
        a word the lexicon does not accept; otherwise accept a play that ended
        the game, or choose its move and play it."""
        game = self.game
        seat = self.seat()
        event = game.challengeable
        if self.can_challenge() and event is not None and event.player != seat and self.phonies_of(event):
            self.say()
            self.challenge(seat)
            return
        if self.final_challenge_pending():
            assert event is not None
            self.say()
            self.say(f"{self.does(seat, 'accepts')} {self.event_text(event)}.")
            self.accepted_end = True
            return
        self.say()
        self.play(bot.choose(game))

    def phonies_of(self, event: Event) -> list[str]:
        """The words of a placement on the board that the lexicon does not accept."""
        game = self.game
        return [game.alphabet.format_word(w) for w in game.words_of(event) if w not in game.lexicon]

    def answer_final_challenge(self, line: str) -> Action:
        """A reply to the offer to challenge the play that ended the game."""
        if line.lower() in ACCEPT_WORDS:
            self.accepted_end = True
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
        if self.shown.state != self.state():
            self.say()
            self.say(game.board.render(highlight=self.last_play_squares()))
        self.say("Game over: " + self.termination_text())
        for event in self.end_events():
            self.say(self.end_event_text(event))
        self.say(self.scores_text("Final scores"))
        self.say(self.result_text())
        return self.save_on_exit()

    def result_text(self) -> str:
        """The game's result line, ``You win ...`` for a player named You."""
        text = self.game.result_text()
        outcome = self.game.outcome()
        if outcome is not None and outcome.winner is not None:
            name = self.name(outcome.winner)
            if is_you(name) and text.startswith(f"{name} wins "):
                text = f"{name} {verb(name, 'wins')} " + text.removeprefix(f"{name} wins ")
        return text

    def termination_text(self) -> str:
        game = self.game
        if game.termination is Termination.WENT_OUT and game.went_out is not None:
            return f"{self.name(game.went_out)} went out."
        return f"{game.rules.scoreless_limit(len(game.players))} scoreless turns in a row."

    def end_events(self) -> list[Event]:
        """The rack adjustments after the last turn."""
        kinds = (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY)
        return [e for e in self.game.events if e.kind in kinds]

    def end_event_text(self, event: Event) -> str:
        tiles = self.fmt_rack(event.end_rack)
        if event.kind is EventKind.END_RACK_POINTS:
            return f"{self.does(event.player, 'gains')} {event.score} for the tiles left on the other racks ({tiles})."
        return f"{self.does(event.player, 'loses')} {-event.score} for the tiles left on the rack ({tiles})."

    def save_on_exit(self) -> int:
        """Write the record if ``--save`` was given; the exit status."""
        if self.save_path and not self.save(self.save_path):
            return 2
        return 0

    def save(self, path: str) -> bool:
        """Write the game record as GCG; False (and say why) when it fails."""
        try:
            gcg.dump(self.game.record(), path)
        except OSError as err:
            self.say(f"Cannot write {path}: {err.strerror or err}")
            return False
        self.say(f"Game record written to {path}.")
        return True
