"""The ``tilebag`` command: thin subcommands over the library.

Every subcommand is one entry of :data:`COMMANDS`: its name, its help, its
options and the function that runs it (named as ``module:function`` and
imported only when that subcommand runs, so ``tilebag --help`` loads
nothing else). Options several subcommands take (``--lexicon``, ``--json``,
the rules) are declared once.

Exit status: 0 success, 1 a check found a disagreement (or a word is not
acceptable), 2 bad input (a file that cannot be read or parsed, bad options).

>>> [command.name for command in COMMANDS][:4]
['play', 'gcg', 'analyze', 'word']
>>> build_parser().parse_args(["word", "QI", "--json"]).json
True
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tilebag import __version__
from tilebag.errors import FormatError, TilebagError
from tilebag.ui.cli_options import add_rules_options, alphabet_option, rules_from_args


@dataclass(frozen=True)
class Arg:
    """One option or positional argument, as :meth:`argparse.ArgumentParser.add_argument` takes it."""

    flags: tuple[str, ...]
    options: dict[str, object]

    def add_to(self, parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
        parser.add_argument(*self.flags, **self.options)  # type: ignore[arg-type]


def arg(*flags: str, **options: object) -> Arg:
    return Arg(flags, options)


@dataclass(frozen=True)
class OneOf:
    """Options of which at most one may be given."""

    args: tuple[Arg, ...]


@dataclass(frozen=True)
class Command:
    """A subcommand: ``run`` is ``module:function`` (the function takes the
    parsed arguments and returns the exit status), or ``subcommands``."""

    name: str
    help: str
    run: str = ""
    args: tuple[Arg | OneOf, ...] = ()
    description: str | None = None
    rules: bool = False
    """Takes ``--rules`` and every rules option."""
    subcommands: tuple[Command, ...] = ()
    metavar: str = "COMMAND"
    """What ``--help`` calls the subcommand's own subcommand."""


LEXICON = arg("--lexicon", metavar="NAME|PATH", help="word list or .kwg file (default: kjxqz)")
CLUSTER = arg(
    "--cluster", metavar="auto|ray://HOST:PORT",
    help="run on Ray: auto starts it on this machine, ray://HOST:PORT joins a cluster "
    "(pip install 'tilebag[cluster]'); default: processes on this machine",
)
LEAVES = arg("--leaves", metavar="NAME|PATH", help="leave values: heuristic (default), .klv/.klv2 or a table")


def _threads(text: str) -> str:
    """``--bot-threads``: a number from 1 to 64, or ``all``."""
    if text.strip().lower() == "all":
        return "all"
    if not text.strip().isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"{text!r}: a number from 1 to 64, or all")
    return str(int(text))


def json_arg(what: str) -> Arg:
    return arg("--json", action="store_true", help=what)


ADMIN_DB = arg("--db", metavar="URL", help="database: sqlite:///FILE or postgresql://... (default: the one tilebag serve uses)")
"""The database a ``tilebag admin`` task looks after."""


EVENT_DB = arg(
    "--db", metavar="FILE|URL",
    help="the events' database: an SQLite file, or sqlite:///FILE or postgresql://... "
    "(default: tilebag-events.db in the current folder)",
)
"""The database a ``tilebag event`` task works on."""
EVENT_ARG = arg("event", metavar="EVENT", help="the event's number or name")
EVENT_PLAYER = arg("player", metavar="PLAYER", help="the player's number or name")
EVENT_DIVISION = arg("--division", metavar="NAME", help="the division (when the event has several)")


def alphabet_arg(what: str, default: str | None = "english") -> Arg:
    return arg("--alphabet", default=default, type=alphabet_option, metavar="NAME|FILE", help=what)


COMMANDS: tuple[Command, ...] = (
    Command(
        "play",
        "play a game in the terminal",
        "tilebag.ui.cmd_info:play",
        (
            arg("players", nargs="*", metavar="NAME",
                help="player names, 1 to 4 seats with the bots (default: two players, or you alone against --bot)"),
            arg("--seed", type=int, help="seed the bag, to replay the same draw"),
            arg("--lexicon", metavar="NAME|PATH", help="word list that judges challenges (default: kjxqz)"),
            arg("--save", metavar="FILE.gcg", help="write the game record here when the game ends or you quit"),
            arg("--bot", action="append", default=[], metavar="KIND",
                help="add a bot seat (beginner, greedy or static; repeat for more bots): "
                "`tilebag play --bot static` is you against it"),
            arg("--resume", metavar="FILE.gcg",
                help="go on with a game saved unfinished (players and rules from the record; saved again to it)"),
            arg("--practice", action="store_true",
                help="practice mode: hints, word lookups and a review of each move, whatever the rules"),
            OneOf((
                arg("--line", action="store_true",
                    help="plain line mode, not full screen (the default when not in a terminal)"),
                arg("--full-screen", action="store_true",
                    help="full screen even when it cannot tell the terminal is one"),
            )),
        ),
        rules=True,
    ),
    Command(
        "gcg",
        "work with GCG game records",
        subcommands=(
            Command(
                "check",
                "replay records and check every score and total against the rules",
                "tilebag.ui.cmd_records:gcg_check",
                (
                    arg("files", nargs="+", metavar="FILE", help="GCG files"),
                    arg("--lexicon", metavar="NAME|PATH", help="also list words not in this lexicon (as warnings)"),
                    alphabet_arg(
                        "tile set of the records: a name (english, polish...) or a tile set file "
                        "(default: from the record, else english)",
                        default=None,
                    ),
                    arg("-q", "--quiet", action="store_true", help="print only problems, not one line per good file"),
                ),
                description=(
                    "Replay each GCG record and check every recorded score, running total, rack and placement "
                    "against the rules. Exit 0 when all agree, 1 when any disagree, 2 when a file cannot be read."
                ),
            ),
        ),
    ),
    Command(
        "analyze",
        "compare every play of a GCG game with the best plays by equity",
        "tilebag.ui.cmd_records:analyze",
        (
            arg("games", nargs="+", metavar="GAME.gcg", help="the game record (or several)"),
            arg("--top", type=int, default=5, metavar="N", help="best plays to list per turn (default 5)"),
            arg("--engine", choices=["static", "sim"], default="static",
                help="sim: also simulate each turn and show the chance of winning lost (default static)"),
            arg("--seconds", type=float, default=1.0, metavar="S", help="simulation time a turn with --engine sim (default 1)"),
            arg("--workers", type=int, metavar="K",
                help="with several records: processes to analyse them in (default: every core)"),
            CLUSTER,
            arg("--results", metavar="FILE",
                help="with several records: keep each analysis in FILE (JSON lines); run again to go on after a stop"),
            json_arg("print one JSON document: the turns and the totals (one line per record with several)"),
            LEXICON,
            LEAVES,
        ),
        description=(
            "Replay a GCG game record and rank each play among every play of its position by static equity "
            "(score plus the value of the tiles kept, as the static bot plays): the best plays, the equity "
            "lost, missed bingos and phonies, then each player's totals. Turns whose rack the record does not "
            "show in full are listed but not analysed. Several records are analysed on every core (or on Ray "
            "with --cluster), each report after the last. Exit 2 when a file cannot be read or disagrees with "
            "the rules (the message names the line)."
        ),
    ),
    Command(
        "word",
        "judge words against a lexicon (exit 0 when all are acceptable)",
        "tilebag.ui.cmd_words:word",
        (arg("words", nargs="+", metavar="WORD"), LEXICON, json_arg('print JSON: [{"word": "QI", "acceptable": true}, ...]')),
        description=(
            "Say for each WORD (any case) whether the lexicon accepts it. Exit 0 when all are acceptable, "
            "1 when any is not, 2 when a WORD holds a character that is not a letter of the tile set."
        ),
    ),
    Command(
        "anagram",
        "the words a rack makes (? is a blank)",
        "tilebag.ui.cmd_words:anagram",
        (
            arg("rack", metavar="RACK", help="the tiles, e.g. AEINRS? (? is a blank)"),
            arg("--build", action="store_true", help="also the words using only some of the tiles"),
            arg("--min-length", type=int, default=2, metavar="N",
                help="with --build, the shortest words to list (default 2)"),
            arg("--plus", action="store_true",
                help="also the words of all the tiles and one more letter (through a board tile)"),
            LEXICON,
            json_arg('print JSON: {"rack": ..., "words": [...], "plus": {"B": [...]}}'),
        ),
        description=(
            "Print the words made of exactly the tiles of RACK (letters, ? for a blank), or with --build of any "
            "of them, grouped by length, longest first; a blank shows as the lower-case letter it stands for. "
            "Exit 0 when there are words, 1 when none, 2 for a RACK that is not 1 to 15 tiles of the tile set."
        ),
    ),
    Command(
        "hooks",
        "the letters that go before or after words",
        "tilebag.ui.cmd_words:hooks",
        (
            arg("words", nargs="+", metavar="WORD"),
            arg("--words", dest="show_words", action="store_true", help="also list the hooked words"),
            LEXICON,
            json_arg('print JSON: [{"word", "acceptable", "front", "back", "front_words", "back_words"}, ...]'),
        ),
        description=(
            "For each WORD, the letters that make a word put in front of it and at its end, one line per WORD: "
            "`front  word  back` (- for none, * after a WORD the lexicon does not accept). Exit 0 when some "
            "WORD has a hook, 1 when none has, 2 when a WORD is not made of letters of the tile set."
        ),
    ),
    Command(
        "words",
        "word lists to study: two- and three-letter words, Q without U, words with a letter",
        "tilebag.ui.cmd_words:words",
        (
            arg("--length", type=int, metavar="N", help="only words of N letters"),
            OneOf((
                arg("--q-without-u", action="store_true", help="words with a Q and no U"),
                arg("--containing", metavar="LETTER", help="words holding this letter"),
            )),
            arg("--without", default="", metavar="LETTERS", help="with --containing, leave out words with these"),
            LEXICON,
            json_arg("print a JSON list of the words"),
        ),
        description=(
            "List the lexicon's words of one length (--length 2), with a Q and no U (--q-without-u), or holding a "
            "letter (--containing J, with --without for letters to leave out); options combine. Words of one "
            "length are grouped by first letter, others by length. Exit 0 when there are words, 1 when none, "
            "2 for bad options."
        ),
    ),
    Command(
        "lexicon",
        "compile word lists into KWG word graphs and read them back",
        subcommands=(
            Command(
                "build",
                "compile a word list into a .kwg word graph (DAWG and GADDAG)",
                "tilebag.ui.cmd_lexicon:build",
                (
                    arg("wordlist", metavar="WORDLIST", help="word list file"),
                    arg("-o", "--output", required=True, metavar="FILE.kwg", help="where to write the graph"),
                    alphabet_arg("tile set of the words (default: english)"),
                    arg("--dawg-only", action="store_true",
                        help="leave out the GADDAG (smaller; enough to list and check words)"),
                ),
                description=(
                    "Compile a word list (one word per line, any case, # comments, .gz read transparently) into a "
                    "KWG file, the word-graph format of wolges and Macondo. Exit 2 naming the line of the first "
                    "entry that is not a word."
                ),
            ),
            Command(
                "words",
                "print every word of a .kwg file, one per line, in tile order",
                "tilebag.ui.cmd_lexicon:words",
                (arg("kwg", metavar="FILE.kwg"), alphabet_arg("tile set of the graph (default: english)")),
            ),
            Command(
                "info",
                "describe a .kwg file: nodes, words (by length), GADDAG or not",
                "tilebag.ui.cmd_lexicon:info",
                (arg("kwg", metavar="FILE.kwg"),),
            ),
        ),
    ),
    Command(
        "moves",
        "list the legal plays of a position (CGP), best equity first",
        "tilebag.ui.cmd_engine:moves",
        (
            arg("--cgp", required=True, metavar="CGP", help="the position, or - to read one per line from stdin"),
            LEXICON,
            LEAVES,
            arg("--top", type=int, metavar="N", help="only the N best plays by equity"),
            json_arg("one JSON object per line"),
            arg("--exchanges", action="store_true", help="also list every distinct exchange and the pass"),
        ),
        description=(
            "Print every legal placement for the player to move in a CGP position (or the N best by equity). "
            "With --cgp -, read one CGP per line from standard input. With --json, one JSON object per play: "
            '{"position": <0-based input line>, "pos": "8F", "word": "HORN", "score": 14, "leave": "AEI", '
            '"equity": 17.5}. Exit 2 when a position cannot be read (the message names the field).'
        ),
    ),
    Command(
        "selfplay",
        "bots play complete games against each other",
        "tilebag.ui.cmd_engine:selfplay",
        (
            arg("--games", type=int, default=10, metavar="N", help="number of games (default 10)"),
            arg("--seed", type=int, default=1, metavar="S", help="seed of the first game (default 1)"),
            arg("--players", default="static,greedy", metavar="KINDS",
                help="comma-separated bot kinds (default static,greedy)"),
            arg("--out", metavar="DIR",
                help="write each game's GCG record into this folder (run again with it to go on after a stop)"),
            arg("--workers", type=int, metavar="K", help="processes to play in (default: every core)"),
            CLUSTER,
            json_arg("print the summary as JSON"),
        ),
        description=(
            "Play N complete games between bots, write each as GCG, and print a summary. The games are the same "
            "on any number of workers or on Ray. Ctrl+C stops and reports the games finished."
        ),
        rules=True,
    ),
    Command(
        "match",
        "two bots over paired games: win rate, spread and Elo with their intervals",
        "tilebag.ui.cmd_match:match",
        (
            arg("a", metavar="A", help="a bot spec: static, greedy, beginner, static:leaves=FILE, sim:plies=2,seconds=1"),
            arg("b", metavar="B", help="the other bot's spec"),
            arg("--games", type=int, default=100, metavar="N",
                help="games to play, in pairs: each seed twice, each bot first once (default 100)"),
            arg("--workers", type=int, metavar="K", help="processes to play in (default: every core)"),
            arg("--seed", type=int, default=1, metavar="S", help="seed of the first pair (default 1)"),
            CLUSTER,
            arg("--results", metavar="FILE",
                help="keep each finished pair in FILE (JSON lines); run again with it to play only what is left"),
            json_arg("print one JSON object"),
        ),
        description=(
            "Play bot A against bot B: each seed is played twice from the same bag, once with each bot moving "
            "first. Reports A's win rate with its 95% interval, the mean spread with its interval, the Elo "
            "difference, bingos per game and seconds per move. Ctrl+C stops and reports the pairs finished."
        ),
        rules=True,
    ),
    Command(
        "siu",
        "run as an engine that speaks SIU, the crossword-game engine protocol, on stdin and stdout",
        "tilebag.ui.siu:main",
        (),
        description=(
            "Speak SIU (draft 0.2): handshake, options, positions in CGP with moves, and go gen|sim|endgame|auto "
            "with movetime, depth, iterations, stopcondition and infinite; stop and isready are answered while "
            "a search runs, and every go ends with one bestmove. DataPath names folders of lexicons and leaves."
        ),
    ),
    Command(
        "sim",
        "simulate the best plays of a position (CGP): each one's chance of winning",
        "tilebag.ui.cmd_sim:sim",
        (
            arg("--cgp", required=True, metavar="CGP", help="the position (the opponent's rack need not be known)"),
            arg("--seconds", type=float, default=5.0, metavar="S", help="time to simulate (default 5)"),
            arg("--plies", type=int, default=2, metavar="P", help="plies each rollout plays after the play (default 2)"),
            arg("--candidates", type=int, default=10, metavar="N", help="best static plays to simulate (default 10)"),
            arg("--iterations", type=int, default=100_000, metavar="N", help="stop after this many iterations"),
            arg("--seed", type=int, default=0, metavar="S", help="seed of the draws (default 0)"),
            arg("--workers", type=int, metavar="K", help="processes to roll out in (default: every core)"),
            LEXICON,
            json_arg("print one JSON object"),
        ),
        description=(
            "Play each of the best static plays out against many racks the opponent may hold, with the same "
            "draws for every play, dropping plays that are clearly worse, until one is left or the time is up. "
            "Prints each play's chance of winning with its standard error, and its equity. Ctrl+C stops and "
            "prints what was found."
        ),
    ),
    Command(
        "leaves",
        "leave values: train them for a lexicon by self-play",
        subcommands=(
            Command(
                "train",
                "train leave values by static self-play (all cores; stop with Ctrl+C and run again to go on)",
                "tilebag.ui.cmd_leaves:train",
                (
                    arg("output", metavar="OUTPUT.klv", help="where to write the trained table (a .klv file)"),
                    arg("--games", type=int, default=50_000, metavar="N", help="games per generation (default 50000)"),
                    arg("--generations", type=int, default=3, metavar="G",
                        help="rounds of self-play, each with the last round's values (default 3)"),
                    arg("--workers", type=int, metavar="K", help="processes to play in (default: every core)"),
                    CLUSTER,
                    arg("--seed", type=int, default=1, metavar="S", help="seed of the games (default 1)"),
                    arg("--dir", metavar="DIR",
                        help="folder of the run's state, to go on from after a stop (default: OUTPUT.training)"),
                    arg("--from", dest="start", default="heuristic", metavar="NAME|PATH",
                        help="the leave values the first generation plays with (default heuristic)"),
                    LEXICON,
                ),
                description=(
                    "Play static self-play games and value each leave kept by what holding it is worth on the "
                    "board it was kept on: the best equity it makes when filled up from a random draw, less what "
                    "a whole new rack from the same draw makes there. Fit a model of every leave to that, and "
                    "play the next generation with the new values. "
                    "docs/leaves.md explains the method. Progress shows on standard error; Ctrl+C keeps what was "
                    "done, and the same command goes on from there."
                ),
                rules=True,
            ),
        ),
    ),
    Command(
        "wintable",
        "make the win-probability table the simulating bot values its plays with, from self-play",
        "tilebag.ui.cmd_endgame:wintable",
        (
            arg("--games", type=int, default=3000, metavar="N", help="static self-play games (default 3000)"),
            arg("--seed", type=int, default=1, metavar="S", help="seed of the first game (default 1)"),
            arg("--out", required=True, metavar="FILE", help="where to write the table (JSON)"),
        ),
        description=(
            "Play static self-play games and fit, for each count of tiles unseen, how the chance of winning "
            "grows with the spread (a logistic curve). The built-in table was made with this command."
        ),
    ),
    Command(
        "endgame",
        "solve a position whose bag is empty: the best line and the final spread",
        "tilebag.ui.cmd_endgame:endgame",
        (
            arg("--cgp", required=True, metavar="CGP", help="the position, both racks known (RACK/RACK), the bag empty"),
            arg("--seconds", type=float, metavar="S", help="stop after S seconds with the deepest line finished"),
            arg("--threads", type=int, metavar="N", help="threads to search on (default: one a core)"),
            arg("--lexicon", metavar="NAME_OR_FILE", help="the lexicon (default: the default lexicon)"),
            json_arg("print one JSON object"),
        ),
        description=(
            "Search the endgame to the end of the game (negamax with alpha-beta, iterative deepening and a "
            "transposition table, on every core) for the player to move: prints the best line and the final "
            "spread, and whether it is exact. Each depth finished is shown as it comes; Ctrl+C keeps the deepest."
        ),
    ),
    Command(
        "bench",
        "measure the engine's speed, and check its move generator (perft)",
        metavar="BENCHMARK",
        subcommands=(
            Command(
                "movegen",
                "generate every play of each position in the built-in suite (52 positions)",
                "tilebag.ui.cmd_engine:bench_movegen",
                (
                    arg("--repeat", type=int, default=1, metavar="N", help="run the suite N times (default 1)"),
                    json_arg("print one JSON object"),
                    arg("--core", choices=["python", "native"], help="measure one core only (default: both)"),
                ),
            ),
            Command(
                "perft",
                "check every core of the move generator against a brute-force enumerator on random positions",
                "tilebag.ui.cmd_engine:bench_perft",
                (
                    arg("--positions", type=int, default=300, metavar="N", help="random positions (default 300)"),
                    arg("--seed", type=int, default=1, help="seed of the positions (default 1)"),
                    arg("--full", action="store_true",
                        help="the whole default lexicon (seconds a position), not a sample of about 1,600 of its words"),
                ),
                description=(
                    "Like a chess engine's perft: on random positions (boards after up to 11 random plays, racks "
                    "with and without blanks), every play each core of the move generator lists is compared with "
                    "what a slow, obviously correct enumerator finds, by the tiles placed and the score. Each "
                    "mismatch is printed with the rack, the board, and the plays missing, extra or listed twice. "
                    "Exit 0 when every core agrees on every position, 1 on a mismatch; Ctrl+C stops with what "
                    "was checked. make test runs it."
                ),
            ),
            Command(
                "serve",
                "many games at once against a real server: actions/s, latency, memory (the server extra)",
                "tilebag.ui.cmd_serve:bench",
                (
                    arg("--games", type=int, nargs="+", default=[10, 50, 100, 200], metavar="N",
                        help="concurrent games, one run per number (default 10 50 100 200)"),
                    arg("--think", type=float, default=1.0, metavar="SECONDS",
                        help="each client waits about this long before each action, as a quick player would (default 1; 0: at once, which saturates the machine)"),
                    arg("--url", metavar="URL",
                        help="play against a server already running there (default: start one on a fresh database)"),
                    json_arg("print one JSON list"),
                ),
            ),
            Command(
                "endgame",
                "solve the endgame (bag empty) of each of many static self-play games",
                "tilebag.ui.cmd_endgame:bench",
                (
                    arg("--games", type=int, default=20, metavar="N", help="self-play games (default 20)"),
                    arg("--seconds", type=float, default=10.0, metavar="S", help="time limit per endgame (default 10)"),
                    arg("--seed", type=int, default=1, help="seed of the first game (default 1)"),
                    arg("--threads", type=int, metavar="N", help="threads each endgame is searched on (default: one a core)"),
                    arg("--check", action="store_true",
                        help="solve each endgame again on one thread: the values and moves must agree"),
                    json_arg("print one JSON object"),
                ),
            ),
            Command(
                "sim",
                "Monte Carlo rollouts a second, over positions of static self-play games",
                "tilebag.ui.cmd_engine:bench_sim",
                (
                    arg("--positions", type=int, default=10, metavar="N", help="positions to simulate (default 10)"),
                    arg("--seconds", type=float, default=1.0, metavar="S", help="time on each (default 1)"),
                    arg("--plies", type=int, default=2, metavar="P", help="plies a rollout plays (default 2)"),
                    json_arg("print one JSON object"),
                ),
            ),
            Command(
                "opening",
                "what the opening adjustment gains: each penalty's first plays against the best replies",
                "tilebag.ui.cmd_engine:bench_opening",
                (
                    arg("--openings", type=int, default=1000, metavar="N", help="random opening racks (default 1000)"),
                    arg("--replies", type=int, default=50, metavar="K",
                        help="reply racks each play is answered by (default 50)"),
                    arg("--penalties", default="1,2,3.5,5", metavar="P,P,...",
                        help="points a vowel to try, each against none (default 1,2,3.5,5)"),
                    arg("--seed", type=int, default=1, help="seed of the racks (default 1)"),
                    json_arg("print one JSON object"),
                ),
            ),
            Command(
                "selfplay",
                "time complete games between two static bots",
                "tilebag.ui.cmd_engine:bench_selfplay",
                (
                    arg("--games", type=int, default=100, metavar="N", help="games to play (default 100)"),
                    arg("--seed", type=int, default=1, help="seed of the first game (default 1)"),
                    json_arg("print one JSON object"),
                    arg("--core", choices=["python", "native"],
                        help="move generator core (default: the compiled one when built)"),
                ),
            ),
        ),
    ),
    Command(
        "rules",
        "list the rules presets and options, or describe one preset",
        "tilebag.ui.cmd_info:rules",
        (
            arg("name", nargs="?", metavar="NAME", help="a preset or alias"),
            json_arg('print JSON: {"presets": [{"name", "help", "aliases", "options"}], "options": [{"flag", "help"}]}, '
                     "or the one preset's object with NAME"),
        ),
        description=(
            "With no NAME, list every rules preset (with its aliases) and every option that changes one, as "
            "`tilebag play` and `tilebag selfplay` take them: `--rules nine-tile --challenge void`. With a "
            "preset's NAME, show how it differs from the standard rules. Exit 2 for an unknown NAME."
        ),
    ),
    Command(
        "serve",
        "serve online games over HTTP and WebSockets (the server extra)",
        "tilebag.ui.cmd_serve:serve",
        (
            arg("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"),
            arg("--port", type=int, default=8000, help="port to listen on (default 8000)"),
            arg("--db", metavar="URL", help="database: sqlite:///FILE or postgresql://... (default: a file in the user's data folder)"),
            arg("--broker", metavar="URL", help="fan-out between server processes (default: in this process)"),
            arg("--allow-seeds", action="store_true", help="accept a seed when a game is created (tests, teaching)"),
            arg("--bot-workers", type=int, default=1, metavar="N",
                help="processes the bots think in (default 1; 0: in the server's own process)"),
            arg("--bot-threads", type=_threads, default="1", metavar="N",
                help="threads each bot's endgame search runs on: a number, or all for one a core (default 1)"),
            arg("--analysis-workers", type=int, default=1, metavar="N",
                help="processes that analyse finished games (default 1; 0: each game when first asked for)"),
            arg("--analysis-seconds", type=float, default=0.0, metavar="S",
                help="also simulate each turn of a finished game for S seconds (default 0: static equity only)"),
            CLUSTER,
        ),
        description=(
            "Serve games that people play from their own devices: see docs/api.md. Finished games are queued in "
            "the database and analysed by worker processes, or on Ray with --cluster (docs/cluster.md)."
        ),
    ),
    Command(
        "admin",
        "look after a server's database (the server extra)",
        metavar="TASK",
        subcommands=(
            Command(
                "damaged",
                "list the games set aside because their records do not replay",
                "tilebag.ui.cmd_serve:damaged",
                (
                    arg("--db", metavar="URL",
                        help="database: sqlite:///FILE or postgresql://... (default: the one tilebag serve uses)"),
                    json_arg('print JSON: [{"id", "damage"}]'),
                ),
                description=(
                    "A game whose stored actions no longer replay is set aside by tilebag serve (it is never "
                    "served, and every other game is): this lists each one with the action that failed and why. "
                    "Exit 0 when there is none, 1 when there are some."
                ),
            ),
            # the accounts and the reports (tilebag.ui.cmd_admin)
            Command(
                "users",
                "list the accounts, with their role and whether they are disabled",
                "tilebag.ui.cmd_admin:users",
                (ADMIN_DB, json_arg('print JSON: [{"username", "role", "disabled", "created"}]')),
            ),
            Command(
                "disable",
                "disable an account: its sessions and API tokens end, and it cannot log in",
                "tilebag.ui.cmd_admin:disable",
                (arg("name", metavar="NAME", help="the account's username (any case)"), ADMIN_DB),
                description="Exit 0 once done, 2 when there is no such account.",
            ),
            Command(
                "enable",
                "enable a disabled account again",
                "tilebag.ui.cmd_admin:enable",
                (arg("name", metavar="NAME", help="the account's username (any case)"), ADMIN_DB),
                description="Exit 0 once done, 2 when there is no such account.",
            ),
            Command(
                "make-admin",
                "give an account the admin role (it may then see reports and disable accounts)",
                "tilebag.ui.cmd_admin:make_admin",
                (arg("name", metavar="NAME", help="the account's username (any case)"), ADMIN_DB),
                description="Exit 0 once done, 2 when there is no such account.",
            ),
            Command(
                "reports",
                "list the players' reports not resolved yet",
                "tilebag.ui.cmd_admin:reports",
                (ADMIN_DB, json_arg('print JSON: [{"id", "reporter", "reported", "reason", "created", "game", '
                                    '"chat_seq", "chat"}]')),
                description="Resolve one with POST /api/admin/reports/ID/resolve (docs/api.md). Exit 0 either way.",
            ),
        ),
    ),
    Command(
        "ratings",
        "rate an event the way NASPA rates a tournament, from a tsh .t file",
        "tilebag.ui.cmd_ratings:ratings",
        (
            arg("event", metavar="EVENT.t", help="the division's tsh player file"),
            arg("--segments", type=int, metavar="N",
                help="rate the event in N parts, one after the other (default: NASPA's, 1 up to 16 rounds, "
                "2 up to 35, else 3)"),
            json_arg('print JSON: {"segments": [[first, last]], "players": [{"id", "name", "old", "games_before", '
                     '"games", "wins", "expected", "new", "change", "performance", "acceleration", "feedback", '
                     '"after_segments"}]}'),
        ),
        description=(
            "Print each player's rating before the event, rated games (byes and forfeits are not rated), wins, "
            "expected wins, new rating, change and performance rating, computed as NASPA does "
            "(tilebag.events.naspa): expected wins on a logistic curve, multipliers by rating and experience, "
            "acceleration and feedback, new players' ratings by iterated performance. The games each player "
            "had played before come from the lifeg field of their line (without one: 100 for a rated player, "
            "as in tsh, none for an unrated one). Exit 2 for a file that cannot be read (the message names the "
            "line)."
        ),
    ),
    Command(
        "event",
        "run a club night or a tournament: players, pairings, results, standings (the server extra)",
        metavar="TASK",
        description=(
            "Events are kept in a database: tilebag-events.db in the current folder unless --db names another "
            "file, or a server's database (--db postgresql://...). See docs/events.md. Every error says what was "
            "wrong and exits 2."
        ),
        subcommands=(
            Command(
                "new",
                "a new event, with its divisions, rules and number of rounds",
                "tilebag.ui.cmd_event:new",
                (
                    arg("name", metavar="NAME", help="the event's name"),
                    arg("--division", action="append", metavar="NAME",
                        help="a division (repeat for several; default: one, A)"),
                    arg("--rounds", type=int, metavar="N", help="the rounds planned (default: as many as you pair)"),
                    arg("--director", metavar="NAME", help="the director's name"),
                    EVENT_DB,
                ),
                rules=True,
            ),
            Command("list", "the events of the database", "tilebag.ui.cmd_event:list_events", (EVENT_DB,)),
            Command(
                "add",
                "add players (a late entry joins from the next round to pair)",
                "tilebag.ui.cmd_event:add",
                (
                    EVENT_ARG,
                    arg("names", nargs="+", metavar="NAME", help="the player's name (several: several players)"),
                    EVENT_DIVISION,
                    arg("--rating", type=int, metavar="R", help="the player's rating (with one NAME)"),
                    arg("--joined", type=int, metavar="ROUND", help="the first round they are paired in "
                        "(default: the next round to pair)"),
                    EVENT_DB,
                ),
            ),
            Command(
                "withdraw",
                "withdraw a player: no more pairings, their results stand",
                "tilebag.ui.cmd_event:withdraw",
                (
                    EVENT_ARG, EVENT_PLAYER, EVENT_DIVISION,
                    arg("--from-round", type=int, metavar="ROUND",
                        help="the first round they are not paired in (default: the next round to pair)"),
                    EVENT_DB,
                ),
            ),
            Command(
                "pair",
                "pair a round and print its pairings (again, until a result is in)",
                "tilebag.ui.cmd_event:pair",
                (
                    EVENT_ARG,
                    arg("round", type=int, metavar="ROUND"),
                    arg("--method", required=True, metavar="swiss|rr|koth|australian|random|fixed",
                        help="how: swiss, rr (round robin), koth (king of the hill), australian (Australian draw), "
                        "random, or fixed (your own pairs, --fixed)"),
                    arg("--fixed", metavar="PAIRS", help='with --method fixed: the pairs, "1-4,2-3,5-bye"'),
                    arg("--seed", type=int, help="the seed of what is left to chance "
                        "(default: the round's seed when paired again, else drawn; printed either way)"),
                    EVENT_DIVISION,
                    EVENT_DB,
                ),
            ),
            Command(
                "result",
                "enter a game's result, or correct one (--correct); a forfeit or a bye",
                "tilebag.ui.cmd_event:result",
                (
                    EVENT_ARG,
                    arg("round", type=int, metavar="ROUND"),
                    EVENT_PLAYER,
                    arg("scores", nargs="*", metavar="SCORE OPP_SCORE",
                        help="the player's score, then the opponent's"),
                    arg("--correct", action="store_true", help="replace the result entered before"),
                    OneOf((
                        arg("--forfeit", action="store_true",
                            help="the player forfeits: a loss by 50, a win by 50 for their opponent"),
                        arg("--bye", action="store_true",
                            help="a bye (a win by 50) for a player not paired against anyone in the round"),
                    )),
                    EVENT_DIVISION,
                    EVENT_DB,
                ),
            ),
            Command(
                "standings",
                "the standings, as text or as an HTML sheet to print",
                "tilebag.ui.cmd_event:standings",
                (
                    EVENT_ARG,
                    OneOf((
                        arg("--html", metavar="FILE", help="write a page to print (or post) here"),
                        arg("--text", action="store_true", help="print them as text (the default)"),
                    )),
                    arg("--round", type=int, metavar="ROUND", help="after this round (default: every result in)"),
                    EVENT_DIVISION,
                    EVENT_DB,
                ),
            ),
            Command(
                "pairings",
                "a round's pairings, as text or as an HTML sheet to print",
                "tilebag.ui.cmd_event:pairings",
                (
                    EVENT_ARG,
                    arg("round", type=int, metavar="ROUND"),
                    arg("--html", metavar="FILE", help="write a page to print (or post) here"),
                    EVENT_DIVISION,
                    EVENT_DB,
                ),
            ),
            Command(
                "export",
                "write a division as a tsh .t file",
                "tilebag.ui.cmd_event:export",
                (EVENT_ARG, arg("--tsh", required=True, metavar="FILE", help="the .t file to write"), EVENT_DIVISION,
                 EVENT_DB),
            ),
            Command(
                "ratings",
                "a division rated the way NASPA rates a tournament, as tilebag ratings rates a .t file",
                "tilebag.ui.cmd_event:ratings",
                (
                    EVENT_ARG, EVENT_DIVISION,
                    arg("--segments", type=int, metavar="N",
                        help="rate the event in N parts, one after the other (default: NASPA's)"),
                    json_arg("print JSON, as tilebag ratings --json does"),
                    EVENT_DB,
                ),
            ),
            Command(
                "import",
                "read a tsh .t file as a new event (or a new division of --event)",
                "tilebag.ui.cmd_event:import_file",
                (
                    arg("file", metavar="FILE", help="the .t file"),
                    arg("--event", metavar="EVENT", help="add it to this event as a new division"),
                    arg("--name", metavar="NAME", help="the new event's name (default: the file's name)"),
                    arg("--division", metavar="NAME", help="the division's name (default: A)"),
                    EVENT_DB,
                ),
            ),
        ),
    ),
    Command(
        "info",
        "show the version, the move generator core in use and where lexicons are cached",
        "tilebag.ui.cmd_info:info",
    ),
)
"""Every subcommand of ``tilebag``, in the order ``--help`` lists them."""


def _runner(spec: str) -> Callable[[argparse.Namespace], int]:
    """The function a command's ``run`` names, imported now."""
    module, _, name = spec.partition(":")

    def run(args: argparse.Namespace) -> int:
        function: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(module), name)
        return function(args)

    return run


def _add(sub: argparse._SubParsersAction[argparse.ArgumentParser], command: Command) -> None:
    parser = sub.add_parser(command.name, help=command.help, description=command.description)
    for item in command.args:
        if isinstance(item, OneOf):
            group = parser.add_mutually_exclusive_group()
            for option in item.args:
                option.add_to(group)
        else:
            item.add_to(parser)
    if command.rules:
        add_rules_options(parser)
    if command.subcommands:
        inner = parser.add_subparsers(dest=f"{command.name}_command", required=True, metavar=command.metavar)
        for subcommand in command.subcommands:
            _add(inner, subcommand)
    else:
        parser.set_defaults(func=_runner(command.run))


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand in :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="tilebag",
        description="The SCRABBLE crossword game: rules engine, game records and play.",
    )
    parser.add_argument("--version", action="version", version=f"tilebag {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        _add(sub, command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # a reader that went away shows here, not at interpreter exit
        return status
    except FormatError as err:
        print(f"tilebag: {err}", file=sys.stderr)
        return 2
    except TilebagError as err:
        print(f"tilebag: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``tilebag lexicon words X.kwg | head``): stop
        # quietly, and keep the interpreter's final flush from failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


__all__ = ["COMMANDS", "Arg", "Command", "OneOf", "alphabet_option", "build_parser", "main", "rules_from_args"]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
