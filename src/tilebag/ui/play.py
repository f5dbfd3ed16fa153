"""``tilebag play``: a hot-seat game for 1 to 4 seats, one line at a time,
people and bots (:mod:`tilebag.engine.players`) at one table.

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

The game is run by a :class:`~tilebag.table.Table`; the lines typed are
applied to it by a :class:`~tilebag.ui.session.Session`, in plain lines or
full screen (:mod:`tilebag.ui.tui`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence

from tilebag.errors import TilebagError
from tilebag.lexicon import default_lexicon
from tilebag.rules import Rules
from tilebag.table import Table
from tilebag.ui.seats import SetupError, check_bots_can_play, choose_rules, new_table, resume_table
from tilebag.ui.session import Console, Session


def resume_game(path: str, args: argparse.Namespace) -> Table:
    """The table of the unfinished game saved in ``path``: the seats named
    as bots (``Static bot``, ``Beginner bot 2``...) play as that kind.

    :raises SetupError: when names or bots are given too (they come from the
        record), or the bots cannot play from the lexicon.
    :raises TilebagError: for a record that cannot be read or replayed
        (naming the file and line), or whose game is over.
    """
    if args.players or getattr(args, "bot", None):
        raise SetupError("--resume takes the players from the record: give no names and no --bot")
    table = resume_table(path, lexicon=args.lexicon or None, seed=args.seed, practice=bool(getattr(args, "practice", False)))
    check_bots_can_play(table)
    return table


FULL_SCREEN_MISSING = "the full-screen game needs Textual: pip install 'tilebag[full-screen]'"


def full_screen_available() -> bool:
    """Whether the full-screen game's library (Textual) is installed."""
    return importlib.util.find_spec("textual") is not None


def main(args: argparse.Namespace) -> int:
    """Run ``tilebag play`` with parsed command-line options; the exit status.

    The game is full screen (:mod:`tilebag.ui.tui`) when standard input and
    output are a terminal, unless ``--line`` asks for plain lines; without
    Textual installed it is played in lines (``--full-screen`` then exits 2).
    """
    practice = bool(getattr(args, "practice", False))
    full_screen = wants_full_screen(args)
    if full_screen and not full_screen_available():
        if getattr(args, "full_screen", False):
            print(f"tilebag play: {FULL_SCREEN_MISSING}", file=sys.stderr)
            return 2
        print(f"note: {FULL_SCREEN_MISSING}; playing in lines", file=sys.stderr)
        full_screen = False
    resume_path: str | None = getattr(args, "resume", None)
    if full_screen and not resume_path and not args.players and not getattr(args, "bot", None):
        from tilebag.ui.tui import run_full_screen

        rules = choose_rules(args.rules, args.challenge)
        if not args.lexicon:
            default_lexicon()  # compiled now, with its progress bar, if this is the first start

        def make(people: Sequence[str], kinds: Sequence[str], chosen: Rules, chosen_practice: bool) -> Table:
            return new_table(chosen, people, kinds, lexicon=args.lexicon, seed=args.seed, practice=chosen_practice)

        return run_full_screen(None, setup=(rules, make), save_path=args.save, practice=practice)
    try:
        table = resume_game(resume_path, args) if resume_path else build_game(args)
    except (TilebagError, ValueError, OSError) as err:
        print(f"tilebag play: {err}", file=sys.stderr)
        return 2
    save = args.save or resume_path  # a resumed game is saved back to its record
    if full_screen:
        from tilebag.ui.tui import run_full_screen

        return run_full_screen(table, save_path=save, resumed_from=resume_path)
    return Session(table, Console(), save_path=save, resumed_from=resume_path).run()


def wants_full_screen(args: argparse.Namespace) -> bool:
    """Full screen with ``--full-screen``, or in a terminal without ``--line``
    (and with a terminal that can draw it: not ``TERM=dumb``)."""
    if getattr(args, "full_screen", False):
        return True
    if getattr(args, "line", False):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "dumb") != "dumb"


def build_game(args: argparse.Namespace) -> Table:
    """A table for a new game from the command-line options: the people as
    named, then the bots (``--bot``).

    :raises SetupError: for bad names, an unknown bot kind, a bad number of
        seats, or bots with a lexicon they cannot play from.
    :raises TilebagError: for unknown rules or an unreadable lexicon.
    :raises ValueError: for an unknown challenge mode.
    """
    rules = choose_rules(args.rules, args.challenge)
    return new_table(
        rules,
        args.players,
        getattr(args, "bot", None) or [],
        lexicon=args.lexicon,
        seed=args.seed,
        practice=bool(getattr(args, "practice", False)),
    )
