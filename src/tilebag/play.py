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

Every variation of the rules plays (``--rules NAME`` and its options, see
``tilebag rules``); the start of the game says which are in play, and
``help`` lists only the actions they allow. With recycle or blank swap a
turn may start with ``recycle G8 Z`` or ``swap G8``: the same player then
goes on with the turn. With anagram plays, ``anagram 8G TEAS`` rearranges the
word at 8G and adds tiles to it. A Finish Line game shows each player's
target beside the scores. An open dictionary allows ``check WORD`` and
``hint`` during play. With a turn timer or game clocks every action is timed:
a move made after the turn timer ran out is not played, the turn is a pass;
minutes over a game clock cost points at the end.

>>> format_words([("HORN", 14)], bingo=0)
'HORN 14'
>>> format_words([("PASTE", 19), ("FARMS", 6)], bingo=0)
'PASTE 19 + FARMS 6'
>>> bot_names(["static", "greedy", "static"])
['Static bot 1', 'Greedy bot', 'Static bot 2']
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tilebag import gcg, play_coaching
from tilebag.alphabet import BLANK, BLANK_BIT, Tile, load_alphabet, rack_tile
from tilebag.analysis import TurnAnalysis, analyze_turn
from tilebag.errors import Illegal, IllegalMoveError, InvalidMoveError, TilebagError
from tilebag.game import ChallengeResult, Game, Termination
from tilebag.lexicon import default_lexicon, load_lexicon
from tilebag.move import Move, MoveKind
from tilebag.players import BOTS, Player, StaticPlayer, generator_for, make_bot
from tilebag.record import Event, EventKind, withdrawn_plays
from tilebag.replay import resume
from tilebag.rules import ChallengeMode, Rules, find_rules
from tilebag.variants import check_anagram, recycled_words
from tilebag.view import TableView, last_play_squares, table_view

DEFAULT_NAMES = ("Player 1", "Player 2")
"""Who plays when no names and no bots are given."""

YOU = "You"
"""The one person at the table when bots but no names are given."""

ACCEPT_WORDS = frozenset({"", "accept", "a", "ok", "done", "end"})
"""Answers that accept a game-ending play instead of challenging it."""

MAX_START_ACTIONS = 16
"""Recycles and blank swaps a bot may make in one turn before it is made to
pass (a bot that kept swapping letters back and forth would never move)."""

CLOSED_DICTIONARY = "the dictionary is closed in these rules: look words up after the game"
UNDO_CLOSED = "a move stands in a game that counts; undo is for practice (--practice) or an open dictionary"
"""Why ``check`` and ``hint`` are refused without an open dictionary."""

Clock = Callable[[], float]
"""Where the session reads the time, in seconds (:func:`time.monotonic`;
tests give a clock they move on themselves)."""


class SetupError(TilebagError):
    """Options that do not make a game (exit status 2)."""


class Action(enum.Enum):
    """What the game loop does after a command."""

    CONTINUE = "continue"
    STOP = "stop"


# -- setting up -------------------------------------------------------------


def resume_game(path: str, args: argparse.Namespace) -> tuple[Game, dict[int, Player]]:
    """The unfinished game saved in ``path``, and its bots: the seats named
    as bots are (``Static bot``, ``Beginner bot 2``...) play as that kind.

    :raises SetupError: when names or bots are given too (they come from the
        record), or the game in the record is over.
    :raises TilebagError: for a record that cannot be read or replayed
        (naming the file and line).
    """
    if args.players or getattr(args, "bot", None):
        raise SetupError("--resume takes the players from the record: give no names and no --bot")
    record = gcg.load(path)
    judge = load_lexicon(args.lexicon, alphabet=load_alphabet(record.alphabet)) if args.lexicon else None
    game = resume(record, lexicon=judge, seed=args.seed, source=path)
    if game.is_over():
        raise SetupError(f"the game in {path} is over ({game.result_text()}): review it with tilebag analyze {path}")
    bots = {}
    for seat, player in enumerate(game.players):
        kind = bot_kind_of(player.name)
        if kind is not None:
            bots[seat] = make_bot(kind, player.name)
    if bots:
        try:
            generator_for(game)
        except TypeError as err:
            raise SetupError(str(err)) from None
    return game, bots


def bot_kind_of(name: str) -> str | None:
    """The bot kind a seat name stands for (as :func:`bot_names` makes them),
    or ``None`` for a person.

    >>> bot_kind_of("Static bot"), bot_kind_of("Beginner bot 2"), bot_kind_of("alice")
    ('static', 'beginner', None)
    """
    words = name.split()
    if len(words) in (2, 3) and words[1] == "bot" and words[0].lower() in BOTS and words[0][0].isupper():
        if len(words) == 2 or words[2].isdigit():
            return words[0].lower()
    return None


def main(args: argparse.Namespace) -> int:
    """Run ``tilebag play`` with parsed command-line options; the exit status.

    The game is full screen (:mod:`tilebag.tui`) when standard input and
    output are a terminal, unless ``--line`` asks for plain lines.
    """
    practice = bool(getattr(args, "practice", False))
    full_screen = wants_full_screen(args)
    resume_path: str | None = getattr(args, "resume", None)
    if full_screen and not resume_path and not args.players and not getattr(args, "bot", None):
        from tilebag.tui import run_full_screen

        rules = choose_rules(args.rules, args.challenge)
        if not args.lexicon:
            default_lexicon()  # compiled now, with its progress bar, if this is the first start

        def table(people: Sequence[str], kinds: Sequence[str], chosen: Rules) -> tuple[Game, dict[int, Player]]:
            return new_table(chosen, people, kinds, lexicon=args.lexicon, seed=args.seed)

        return run_full_screen(None, setup=(rules, table), save_path=args.save, practice=practice)
    try:
        game, bots = resume_game(resume_path, args) if resume_path else build_game(args)
    except (TilebagError, ValueError, OSError) as err:
        print(f"tilebag play: {err}", file=sys.stderr)
        return 2
    save = args.save or resume_path  # a resumed game is saved back to its record
    if full_screen:
        from tilebag.tui import run_full_screen

        return run_full_screen(game, bots=bots, save_path=save, practice=practice, resumed_from=resume_path)
    session = Session(game, Console(), save_path=save, bots=bots, practice=practice, resumed_from=resume_path)
    return session.run()


def wants_full_screen(args: argparse.Namespace) -> bool:
    """Full screen with ``--full-screen``, or in a terminal without ``--line``
    (and with a terminal that can draw it: not ``TERM=dumb``)."""
    if getattr(args, "full_screen", False):
        return True
    if getattr(args, "line", False):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "dumb") != "dumb"


def build_game(args: argparse.Namespace) -> tuple[Game, dict[int, Player]]:
    """A new game from the command-line options, and its bots by seat: the
    people as named, then the bots (``--bot``).

    :raises SetupError: for bad names, an unknown bot kind, a bad number of
        seats, or bots with a lexicon they cannot play from.
    :raises TilebagError: for unknown rules or an unreadable lexicon.
    :raises ValueError: for an unknown challenge mode.
    """
    rules = choose_rules(args.rules, args.challenge)
    return new_table(rules, args.players, getattr(args, "bot", None) or [], lexicon=args.lexicon, seed=args.seed)


def new_table(
    rules: Rules, people: Sequence[str] | None, kinds: Sequence[str], *, lexicon: str | None = None, seed: int | None = None
) -> tuple[Game, dict[int, Player]]:
    """A new game for these people and bots (people first, then the bots),
    and its bots by seat.

    :raises SetupError: for bad names, an unknown bot kind, a bad number of
        seats, or bots with a lexicon they cannot play from.
    """
    kinds = bot_kinds(kinds)
    names = player_names(people, rules, bots=bot_names(kinds))
    judge = None
    if lexicon:
        judge = load_lexicon(lexicon, alphabet=load_alphabet(rules.alphabet))
    game = Game(names, rules=rules, lexicon=judge, seed=seed)
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
    reads like a session.

    A full-screen front end (:mod:`tilebag.tui`) is a console too: it draws
    the table from the snapshots :meth:`show` is given, so the session does
    not print the board, the scores and the rack as text.
    """

    full_screen = False
    """True when the console draws the table itself from :meth:`show`."""

    def __init__(self) -> None:
        self.echo = not sys.stdin.isatty()

    def show(self, view: TableView) -> None:
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


def help_text(rules: Rules, *, practice: bool = False, bots: bool = False) -> str:
    """The commands, for ``help``: the variations' actions and commands
    only when the rules allow them (hints and lookups also in practice mode,
    undo only for one person against bots)."""
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
    ]
    if rules.min_first_word > 2:
        lines.append(f"  The {first_word_text(rules.min_first_word)}.")
    variations = variation_help(rules)
    if variations:
        lines += ["Variations in these rules:", *variations]
    lines += [
        "Commands:",
        challenge,
        "  board           show the board again",
        "  rack            show your rack",
        "  scores          show the scores",
        "  bag             tiles left in the bag, and the tiles you cannot see",
    ]
    if rules.open_dictionary or practice:
        why = "open dictionary" if rules.open_dictionary else "practice mode"
        lines += [
            f"Coaching ({why}):",
            "  check WORD ...  look words up in the lexicon",
            "  hint            the play the static bot would make with your rack",
            "  better          was there a better play than your last move? (and advice on what you kept)",
            "  words 2         the two-letter words (words 3: three letters, words q: Q without U)",
            "  hooks [WORD]    the letters that hook a word, or every word on the board",
            "  bingos          the bingos of your rack, also through a letter on the board",
            "  advice          rack balance: what your rack is worth and what to keep",
        ]
    else:
        lines.append("  (hints and coaching: play with --practice; review a saved game with tilebag analyze FILE)")
    if rules.turn_time is not None or rules.game_clock is not None:
        lines.append("  time            the time left on the turn timer and the game clocks")
    if bots and (rules.open_dictionary or practice):
        lines.append("  undo, u         take back your last move and the bots' replies (the unseen tiles are shuffled)")
    lines += [
        "  resign          resign the game (you are asked to confirm)",
        "  save FILE       write the game record (GCG) to FILE now",
        "  help, ?         this help",
        "  quit, q         stop the game (the record is written if --save was given)",
    ]
    return "\n".join(lines)


def variation_help(rules: Rules) -> list[str]:
    """Help lines for the actions the rules' variations allow.

    >>> variation_help(find_rules("standard"))
    []
    >>> [line.split()[0] for line in variation_help(find_rules("house")) if line[2] != " "]
    ['recycle', 'swap', 'anagram']
    """
    lines = []
    if rules.recycle:
        lines += [
            "  recycle G8 Z    at the start of your turn, put Z from your rack on G8 and take the letter there;",
            "                  the words it changes must be acceptable; repeat it, then play on (recycle G8 z: a blank as Z)",
        ]
    if rules.blank_swap:
        lines += [
            "  swap G8         at the start of your turn, take the blank on G8 by putting down the letter it",
            "                  stands for from your rack; then play on",
        ]
    if rules.anagram:
        lines += [
            "  anagram 8G TEAS rearrange the word on the board from 8G in its squares and add tiles to it:",
            "                  write the whole new word (premium squares under the old word do not count)",
        ]
    return lines


def first_word_text(length: int) -> str:
    """The minimum first word, as said at the start and in the help.

    >>> first_word_text(4)
    'first word needs 4 letters or more (pass or exchange if you cannot make one)'
    """
    return f"first word needs {length} letters or more (pass or exchange if you cannot make one)"


def rules_text(rules: Rules) -> str:
    """The rules in play, as said at the start of a game.

    >>> rules_text(find_rules("nine-tile"))
    'Rules: nine-tile — rack size 9'
    >>> rules_text(find_rules("standard"))
    'Rules: standard'
    """
    changes = rules.describe()
    return f"Rules: {rules.name}" + (" — " + ", ".join(changes) if changes else "")


def format_clock(seconds: float) -> str:
    """Seconds as minutes and seconds, rounded up (time left is not up
    until it is all gone).

    >>> format_clock(125), format_clock(0.4), format_clock(-35.2), format_clock(3600)
    ('2:05', '0:01', '-0:36', '60:00')
    """
    whole = math.ceil(abs(seconds) - 1e-9)
    sign = "-" if seconds < 0 and whole else ""
    return f"{sign}{whole // 60}:{whole % 60:02d}"


def format_seconds(seconds: float) -> str:
    """A duration from the rules: ``3 min``, ``90 s``.

    >>> format_seconds(180.0), format_seconds(90.0), format_seconds(1500.0)
    ('3 min', '90 s', '25 min')
    """
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


def blank_hint(text: str, err: IllegalMoveError) -> str:
    """A reminder that lower case means a blank, when a placement written in
    lower case asked for blanks the rack does not hold.

    >>> from tilebag.errors import Illegal
    >>> blank_hint("8f horn", IllegalMoveError(Illegal.TILE_NOT_ON_RACK, "no ????"))
    ' (lower-case letters are blanks: write the word in capitals)'
    """
    parts = text.split()
    word = parts[-1] if len(parts) > 1 else ""
    if parts and parts[0].lower() == "swap":
        return ""  # swap G8 names a square, not tiles
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


def summary_lines(game: Game) -> list[str]:
    """The end-of-game summary: each player's turns, points per turn, bingos
    and best play (plays that were taken back do not count).

    >>> game = Game(["alice", "bob"], seed=1, first=0)
    >>> game.set_rack(0, "HNORXYZ")
    >>> _ = game.push_gcg("8F HORN")
    >>> summary_lines(game)[1]
    'alice: 1 turn, 14.0 points a turn, no bingo, best play 8F HORN for 14'
    """
    rules = game.rules
    turns = [0] * len(game.players)
    points = [0] * len(game.players)
    bingos = [0] * len(game.players)
    best: list[tuple[int, str] | None] = [None] * len(game.players)
    withdrawn = withdrawn_plays(game.events)
    for event in game.events:
        if not event.kind.is_turn:
            continue
        i = event.player
        turns[i] += 1
        move = event.move
        if event.kind is not EventKind.PLACE or move is None or id(event) in withdrawn:
            continue
        points[i] += event.score
        if len(move.placed()) >= rules.bingo_tiles:
            bingos[i] += 1
        current = best[i]
        if current is None or event.score > current[0]:
            best[i] = (event.score, game.board.notation(move) if move.kind is MoveKind.PLACE else "")
    lines = ["Summary:"]
    for i, p in enumerate(game.players):
        n = turns[i]
        average = points[i] / n if n else 0.0
        bingo_text = {0: "no bingo", 1: "1 bingo"}.get(bingos[i], f"{bingos[i]} bingos")
        top = best[i]
        best_text = f", best play {top[1]} for {top[0]}" if top is not None else ""
        lines.append(f"{p.name}: {n} turn{'s' if n != 1 else ''}, {average:.1f} points a turn, {bingo_text}{best_text}")
    return lines


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
        clock: Clock = time.monotonic,
        practice: bool = False,
        resumed_from: str | None = None,
    ) -> None:
        self.game = game
        self.practice = practice
        self.resumed_from = resumed_from
        """The record the game was resumed from, if it was."""
        """Practice mode: hints, word lookups and move reviews whatever the rules."""
        self.console = console
        self.save_path = save_path
        self.bots = dict(bots or {})
        """The bots by seat; the other seats are people at the keyboard."""
        self.clock = clock
        """Where actions are timed (seconds), for the turn timer and the game clocks."""
        self._timing: tuple[tuple[int, int], float] | None = None
        """Whose turn is being timed (the player to move and how many turns
        were played before), and since when."""
        self._hinter: StaticPlayer | None = None
        self.reviews: dict[int, TurnAnalysis] = {}
        """Each person's last move, reviewed before it was played (for ``better``)."""
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
        return last_play_squares(self.game)

    def view(self) -> TableView:
        """The table as the player at the keyboard sees it, for the console."""
        view = table_view(self.game, self.seat(), bots=self.bots)
        if view.over:
            view = dataclasses.replace(view, result=self.result_text())
        event = self.game.challengeable
        if self.can_challenge() and event is not None and event.player != view.seat and view.seat not in self.bots:
            view = dataclasses.replace(view, challengeable=self.event_text(event))
        return view

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
        limit = game.rules.game_clock
        if limit is None:
            return ""
        parts = []
        for i, p in enumerate(game.players):
            left = limit - game.clock_used[i] - (elapsed if i == game.turn and not game.is_over() else 0.0)
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

    def play_text(self, event: Event) -> str:
        """A placement event as ``8F HORN (+14)``."""
        assert event.move is not None
        return f"{self.game.board.notation(event.move)} (+{event.score})"

    def event_text(self, event: Event) -> str:
        """A placement event as ``alice's 8F HORN (+14)``."""
        return f"{possessive(self.name(event.player))} {self.play_text(event)}"

    # -- timing -------------------------------------------------------------

    def _timing_key(self) -> tuple[int, int]:
        """The turn being timed: the player to move, and the turns played
        before (a challenge or a lost turn does not start a new one)."""
        return (self.game.turn, sum(e.kind.is_turn for e in self.game.events))

    def start_timing(self) -> None:
        """Start the clock of the player to move when their turn is new."""
        key = self._timing_key()
        if self._timing is None or self._timing[0] != key:
            self._timing = (key, self.clock())

    def restart_timing(self) -> None:
        """Time the next action of the same turn from now (after a recycle
        or blank swap, whose time the game has counted)."""
        self._timing = (self._timing_key(), self.clock())

    def elapsed(self) -> float:
        """Seconds the player to move has taken since their turn, or their
        last action in it, began."""
        self.start_timing()
        assert self._timing is not None
        return max(0.0, self.clock() - self._timing[1])

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
                self.console.show(self.view())
                continue
            self.start_timing()
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
        event = game.challengeable
        if self.can_challenge() and event is not None and event.player != seat:
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
        self.say(f"{self.does(event.player, 'ended')} the game with {self.play_text(event)}: {why}.")
        self.say(
            f"{self.name(self.seat())}: type 'challenge' to challenge it, or press Enter to accept it and end the game."
        )

    def show_scores(self) -> None:
        self.say(self.scores_text())

    # -- commands -----------------------------------------------------------

    def coaching_allowed(self) -> bool:
        """True when hints and word lookups are allowed: in practice mode,
        or when the rules open the dictionary."""
        return self.practice or self.game.rules.open_dictionary

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
        move, when the rules open the dictionary."""
        game = self.game
        if not self.coaching_allowed():
            self.say(f"Not allowed: {CLOSED_DICTIONARY}.")
            return Action.CONTINUE
        if game.is_over():
            self.say("The game is over: there is no move to hint at.")
            return Action.CONTINUE
        if self._hinter is None:
            self._hinter = StaticPlayer("hint")
        try:
            plays = self._hinter.ranked(game, top=1)
        except TypeError as err:
            self.say(f"No hints: {err}.")
            return Action.CONTINUE
        if not plays:
            self.say("Hint: no play fits your rack; exchange or pass.")
            return Action.CONTINUE
        best = plays[0]
        move = best.move
        if move.kind is MoveKind.PLACE:
            self.say(
                f"Hint: {game.notation(move)} for {best.score} (keeping {self.fmt_rack(best.leave) or 'nothing'})."
            )
        elif move.kind is MoveKind.EXCHANGE:
            self.say(f"Hint: exchange {self.fmt_rack(move.tiles)} ({move.gcg(game.alphabet, game.layout)}).")
        else:
            self.say("Hint: pass (-).")
        return Action.CONTINUE

    def cmd_time(self, _: str) -> Action:
        """The time left on the turn timer and the game clocks, now."""
        game = self.game
        if game.rules.turn_time is None and game.rules.game_clock is None:
            self.say("These rules have no turn timer and no game clocks.")
            return Action.CONTINUE
        elapsed = 0.0 if game.is_over() else self.elapsed()
        for text in (self.turn_timer_text(elapsed), self.clocks_text(elapsed)):
            if text:
                self.say(text)
        return Action.CONTINUE

    def cmd_undo(self, _: str) -> Action:
        """Take back the last move of the player at the keyboard and every
        bot move since, in a practice or open-dictionary game against bots
        only (people at one keyboard would have to agree, so there it is
        refused; in a game that counts, a move stands). The tiles the player
        cannot see are then dealt anew (:meth:`tilebag.Game.redeal`): the
        draws and the bots' racks seen before the undo are of no use."""
        game = self.game
        seat = self.seat()
        if not self.bots or self.people() != 1:
            self.say("Not allowed: undo is for games of one person against bots.")
            return Action.CONTINUE
        if not self.coaching_allowed():
            self.say(f"Not allowed: {UNDO_CLOSED}.")
            return Action.CONTINUE
        own = (EventKind.PLACE, EventKind.EXCHANGE, EventKind.PASS, EventKind.RECYCLE, EventKind.BLANK_SWAP)
        if not any(e.kind in own and e.player == seat for e in game.events):
            self.say("Nothing to undo: you have not moved yet." if is_you(self.name(seat)) else "Nothing to undo yet.")
            return Action.CONTINUE
        taken = 0
        while True:
            undone = game.pop()
            taken += 1
            if isinstance(undone, Move) and game.turn == seat:
                break
        base = game.bag.seed
        game.redeal(seat, None if base is None else random.Random(f"{base}/undo").getrandbits(63))
        self.accepted_end = False
        self.shown = _Shown()
        self._timing = None
        what = "action" if taken == 1 else "actions"
        self.say(
            f"Took back {taken} {what}: {possessive(self.name(seat))} move again. "
            "The tiles you cannot see were shuffled: the bag and the bots' racks are new."
        )
        return Action.CONTINUE

    def cmd_resign(self, _: str) -> Action:
        """Resign the game for the player at the keyboard, after a yes."""
        game = self.game
        seat = self.seat()
        if game.is_over():
            self.say("The game is over already.")
            return Action.CONTINUE
        answer = self.console.read("Resign the game? Type yes to resign: ")
        if (answer or "").lower() not in ("yes", "y"):
            self.say("Not resigned: the game goes on.")
            return Action.CONTINUE
        game.resign(seat)
        self.accepted_end = True
        self.say(f"{self.does(seat, 'resigns')}.")
        return Action.CONTINUE

    def cmd_move(self, text: str) -> Action:
        """A placement, an exchange or a pass for the player to move, or one
        of the variations' actions (recycle, blank swap, anagram play). Once
        the turn timer has run out, anything tried makes the turn a pass."""
        game = self.game
        seconds = self.elapsed()
        try:
            move = game.check(game.parse_move(text))
        except (InvalidMoveError, IllegalMoveError) as err:
            if self.over_time(seconds):
                self.time_up(f"the turn took {game.turn_elapsed + seconds:.0f} s")
            elif isinstance(err, InvalidMoveError):
                self.say(f"Not a move: {err} (type help for the commands)")
            else:
                self.say(f"Not allowed: {err}{blank_hint(text, err)}")
            return Action.CONTINUE
        seat = game.turn
        review = self.review(move)
        if self.play(move, seconds) and not move.kind.ends_turn:
            self.restart_timing()
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
        self.say_lines(play_coaching.review_lines(self.game, review))
        return Action.CONTINUE

    def cmd_words(self, what: str) -> Action:
        if not self.coaching_refused():
            self.say_lines(play_coaching.words_lines(self.game, what))
        return Action.CONTINUE

    def cmd_hooks(self, words: str) -> Action:
        if not self.coaching_refused():
            self.say_lines(play_coaching.hooks_lines(self.game, words))
        return Action.CONTINUE

    def cmd_bingos(self, _: str) -> Action:
        if not self.coaching_refused():
            self.say_lines(play_coaching.bingo_lines(self.game, self.seat()))
        return Action.CONTINUE

    def cmd_advice(self, _: str) -> Action:
        if not self.coaching_refused():
            self.say_lines(play_coaching.advice_lines(self.game, self.seat()))
        return Action.CONTINUE

    def play(self, move: Move, seconds: float | None = None) -> bool:
        """Play a checked move for the player to move and say what it did;
        False (the turn is then a pass) when the turn timer had run out."""
        game = self.game
        me = game.turn
        summary = self.describe_move(move)
        lost_before = [p.lost_turns for p in game.players]
        total_before = game.players[me].score
        try:
            score = game.push(move, seconds=seconds)
        except IllegalMoveError as err:
            if err.reason is not Illegal.TIME_UP:
                raise
            self.time_up(f"the turn took {game.turn_elapsed + (seconds or 0.0):.0f} s")
            return False
        if move.kind in (MoveKind.PLACE, MoveKind.ANAGRAM):
            summary += f" = {score} point{'s' if score != 1 else ''} (total {total_before + score})"
        self.say(summary)
        self.report_missed_turns(lost_before)
        return True

    def over_time(self, seconds: float) -> bool:
        """True when the turn timer has run out for the player to move, who
        has taken ``seconds`` since their turn (or last action) began."""
        limit = self.game.rules.turn_time
        return limit is not None and self.game.turn_elapsed + seconds > limit

    def time_up(self, why: str) -> None:
        """The turn timer ran out: the turn of the player to move is a pass."""
        game = self.game
        me = game.turn
        lost_before = [p.lost_turns for p in game.players]
        assert game.rules.turn_time is not None
        self.say(
            f"Time is up: {why}, the turn timer allows {format_seconds(game.rules.turn_time)}. "
            f"{capitalized(possessive(self.name(me)))} turn is a pass."
        )
        game.time_out()
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
        if move.kind is MoveKind.RECYCLE:
            return self.describe_recycle(move)
        if move.kind is MoveKind.BLANK_SWAP:
            return self.describe_blank_swap(move)
        rules = game.rules
        if move.kind is MoveKind.ANAGRAM:
            anagram = check_anagram(game.board, move, bingo_tiles=rules.bingo_tiles, bingo_bonus=rules.bingo_bonus)
            old = game.alphabet.format_word(game.board.tiles[s] for s in anagram.squares)
            words = [(game.alphabet.format_word(w.tiles), w.score) for w in anagram.words]
            bingo = rules.bingo_bonus if len(anagram.tiles_used) >= rules.bingo_tiles else 0
            plays = verb(self.name(me), "plays")
            return (
                f"{self.does(me, 'rearranges')} {old} and {plays} {game.notation(move)}: {format_words(words, bingo)}"
            )
        words = [(game.alphabet.format_word(w.tiles), w.score) for w in game.words(move)]
        bingo = rules.bingo_bonus if len(move.placed()) >= rules.bingo_tiles else 0
        return f"{self.does(me, 'plays')} {game.notation(move)}: {format_words(words, bingo)}"

    def describe_recycle(self, move: Move) -> str:
        """``bob recycles G8: Z in place of the T (now ZEA); the T goes to bob's rack.``"""
        game = self.game
        me = game.turn
        old = game.board.at(move.row, move.col)
        new = move.tiles[0]
        square = game.layout.square_name(game.layout.square(move.row, move.col))
        words = [game.alphabet.format_word(w) for w in recycled_words(game.board, move.row, move.col, new)]
        now = f" (now {', '.join(words)})" if words else ""
        taken = "the blank" if rack_tile(old) == BLANK else f"the {game.alphabet.label(old)}"
        return (
            f"{self.does(me, 'recycles')} {square}: {self.board_tile_name(new)} in place of "
            f"{self.board_tile_name(old, article='the')}{now}; {taken} goes to {possessive(self.name(me))} rack. "
            "The turn goes on."
        )

    def describe_blank_swap(self, move: Move) -> str:
        """``bob puts down T for the blank on G8; the blank goes to bob's rack.``"""
        game = self.game
        me = game.turn
        letter = game.board.at(move.row, move.col) & ~BLANK_BIT
        square = game.layout.square_name(game.layout.square(move.row, move.col))
        return (
            f"{self.does(me, 'puts')} down {game.alphabet.label(letter)} for the blank on {square}; "
            f"the blank goes to {possessive(self.name(me))} rack. The turn goes on."
        )

    def board_tile_name(self, tile: Tile, article: str = "a") -> str:
        """A tile on the board: ``Z``, or ``a blank as Z``."""
        label = self.game.alphabet.label(tile & ~BLANK_BIT)
        if tile & BLANK_BIT:
            return f"{article} blank as {label}"
        return f"the {label}" if article == "the" else label

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
        self.bot_moves(bot)

    def bot_moves(self, bot: Player) -> None:
        """Let a bot make its turn: any recycles and blank swaps it starts
        with, each said as it is made, then its move. Each action is timed."""
        game = self.game
        seat = game.turn
        for actions in range(MAX_START_ACTIONS + 1):
            started = self.clock()
            move = bot.choose(game)
            seconds = max(0.0, self.clock() - started)
            if not move.kind.ends_turn and actions == MAX_START_ACTIONS:
                self.say(f"{self.does(seat, 'makes')} no move after {actions} recycles and blank swaps.")
                move = Move.pass_()
            try:
                move = game.check(move)
            except (IllegalMoveError, InvalidMoveError) as err:
                if self.over_time(seconds):
                    self.time_up(f"the turn took {game.turn_elapsed + seconds:.0f} s")
                    return
                self.say(
                    f"{self.name(seat)} chose a move the rules refuse ({move.gcg(game.alphabet, game.layout)}: {err})."
                )
                move = Move.pass_()
            if not self.play(move, seconds) or move.kind.ends_turn:
                return
            if game.is_over() or game.turn != seat:
                return

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
        if self.console.full_screen:
            self.console.show(self.view())
        elif self.shown.state != self.state():
            self.say()
            self.say(game.board.render(highlight=self.last_play_squares()))
        self.say("Game over: " + self.termination_text())
        for event in self.end_events():
            self.say(self.end_event_text(event))
        self.say(self.scores_text("Final scores"))
        self.say(self.result_text())
        for line in summary_lines(game):
            self.say(line)
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
        if game.termination is Termination.RESIGNED and game.resigned is not None:
            return f"{self.name(game.resigned)} resigned; no racks are counted."
        if game.termination is Termination.FINISH_LINE and game.finish_winner is not None:
            winner = game.finish_winner
            target = game.finish_targets[winner] if game.finish_targets is not None else game.scores[winner]
            return (
                f"{self.does(winner, 'reached')} the Finish Line target of {target} "
                f"with {game.scores[winner]} points; no racks are counted."
            )
        return f"{game.rules.scoreless_limit(len(game.players))} scoreless turns in a row."

    def end_events(self) -> list[Event]:
        """The rack adjustments and time penalties after the last turn."""
        kinds = (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY, EventKind.TIME_PENALTY)
        return [e for e in self.game.events if e.kind in kinds]

    def end_event_text(self, event: Event) -> str:
        if event.kind is EventKind.TIME_PENALTY:
            used = self.game.clock_used[event.player]
            limit = self.game.rules.game_clock or 0.0
            return (
                f"{self.does(event.player, 'loses')} {-event.score} for going {format_clock(used - limit)} "
                f"over the game clock ({self.game.rules.overtime_penalty} a minute or part of one)."
            )
        tiles = self.fmt_rack(event.end_rack)
        if event.kind is EventKind.END_RACK_POINTS:
            return f"{self.does(event.player, 'gains')} {event.score} for the tiles left on the other racks ({tiles})."
        return f"{self.does(event.player, 'loses')} {-event.score} for the tiles left on the rack ({tiles})."

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
            gcg.dump(self.game.record(), path)
        except OSError as err:
            self.say(f"Cannot write {path}: {err.strerror or err}")
            return False
        self.say(f"Game record written to {path}.")
        return True
