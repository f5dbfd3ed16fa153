"""Options several ``tilebag`` subcommands share: the rules (``--rules``
and one flag per rules option) and the tile set (``--alphabet``).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from tilebag.errors import FormatError

if TYPE_CHECKING:
    from tilebag.rules import Rules


def alphabet_option(text: str) -> str:
    """An ``--alphabet`` value: the name of a tile set tilebag knows, or the
    path of a tile set file (read and registered under its file name).
    Only the command line may name a file: records name tile sets by name.

    :raises argparse.ArgumentTypeError: for neither, with the reason.
    """
    from tilebag.alphabet import alphabet_names, load_alphabet_file

    if text.lower() in alphabet_names():
        return text.lower()
    if os.path.isfile(text):
        try:
            return load_alphabet_file(text).name
        except FormatError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    raise argparse.ArgumentTypeError(f"no tile set named {text!r} and no such file; known: {', '.join(alphabet_names())}")


RULES_METAVARS = {
    "rack_size": "N",
    "bingo_tiles": "N",
    "bingo_bonus": "POINTS",
    "min_first_word": "N",
    "challenge": "MODE",
    "scoreless_turns": "N",
    "exchange_min_bag": "N",
    "finish_level": "LEVEL",
    "finish_target": "POINTS",
    "finish_player_targets": "P,P,...",
    "anagram": "yes|no",
    "recycle": "yes|no",
    "blank_swap": "yes|no",
    "open_dictionary": "yes|no",
    "turn_time": "TIME",
    "game_clock": "TIME",
    "overtime_penalty": "POINTS",
}
"""Placeholders shown in ``--help`` for the rules options (others show VALUE)."""


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules NAME`` and one flag per rules option (:data:`tilebag.rules.OPTIONS`),
    read back by :func:`rules_from_args`."""
    from tilebag.rules import OPTIONS

    group = parser.add_argument_group(
        "rules", "a preset (--rules) changed by any of the options below; `tilebag rules` lists both"
    )
    group.add_argument("--rules", default="standard", metavar="NAME", help="rules preset or alias (default: standard)")
    for option in OPTIONS.values():
        group.add_argument(
            f"--{option.flag}",
            dest=option.name,
            default=None,
            metavar=RULES_METAVARS.get(option.name, "VALUE"),
            help=option.help,
        )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The preset named by ``--rules``, changed by every rules option given
    on the command line (see :func:`add_rules_options`).

    >>> from tilebag.ui.cli import build_parser
    >>> args = build_parser().parse_args(["selfplay", "--rules", "nine", "--challenge", "void"])
    >>> rules_from_args(args).describe()
    ['rack size 9', 'void challenge']

    :raises RulesError: for an unknown preset, a bad value (naming its
        flag) or options that conflict.
    """
    from tilebag.rules import OPTIONS, find_rules

    given = {
        option.flag: value for option in OPTIONS.values() if (value := getattr(args, option.name, None)) is not None
    }
    return find_rules(args.rules).with_options(given)
