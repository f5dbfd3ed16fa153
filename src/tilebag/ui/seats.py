"""Who sits at a new table: the people's names, the bots' kinds, and the
rules, checked before a game is made (:func:`new_table`).

>>> player_names(None, find_rules("standard"), bots=["Static bot"])
['You', 'Static bot']
>>> player_names(["ann", "Ann"], find_rules("standard"))
Traceback (most recent call last):
...
tilebag.ui.seats.SetupError: player names must differ: ann, Ann
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from tilebag.alphabet import load_alphabet
from tilebag.clock import Now
from tilebag.engine.bots import BOTS, make_bot
from tilebag.errors import TilebagError
from tilebag.formats.gcg import dump, load
from tilebag.formats.replay import resume
from tilebag.game import Game
from tilebag.lexicon import Lexicon, load_lexicon
from tilebag.rules import ChallengeMode, Rules, find_rules
from tilebag.table import Bot, Table, bot_names
from tilebag.ui.narration import YOU

DEFAULT_NAMES = ("Player 1", "Player 2")
"""Who plays when no names and no bots are given."""



class SetupError(TilebagError):
    """Options that do not make a game (exit status 2)."""


def new_table(
    rules: Rules,
    people: Sequence[str] | None,
    kinds: Sequence[str],
    *,
    lexicon: str | None = None,
    seed: int | None = None,
    practice: bool = False,
) -> Table:
    """A table for a new game of these people and bots (people first, then
    the bots).

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
    # one game on this machine, its bots thinking one at a time: each may use every core
    bots = {first_bot + i: make_bot(kind, names[first_bot + i], threads=None) for i, kind in enumerate(kinds)}
    table = Table(game, bots, practice=practice)
    check_bots_can_play(table)
    return table


def choose_rules(name: str | Rules | None, challenge: str | None) -> Rules:
    """The rules preset, with the challenge mode changed if asked; rules
    already made (as :func:`tilebag.ui.cli.rules_from_args` makes them from
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


def check_bots_can_play(table: Table) -> None:
    """Make the bots' move generator now, once (bots play from the
    lexicon's word graph).

    :raises SetupError: when the lexicon has none.
    """
    if not table.bots:
        return
    try:
        table.game.engine  # noqa: B018 - made now, once
    except TypeError as err:
        raise SetupError(str(err)) from None


def bot_kind_of(name: str) -> str | None:
    """The bot kind a seat name stands for (as :func:`~tilebag.table.bot_names`
    makes them), or ``None`` for a person.

    >>> bot_kind_of("Static bot"), bot_kind_of("Beginner bot 2"), bot_kind_of("alice")
    ('static', 'beginner', None)
    """
    words = name.split()
    if len(words) in (2, 3) and words[1] == "bot" and words[0].lower() in BOTS and words[0][0].isupper():
        if len(words) == 2 or words[2].isdigit():
            return words[0].lower()
    return None


def save_table(table: Table, path: str | Path) -> None:
    """Write the table's game record (GCG) to ``path``.

    :raises OSError: when it cannot be written.
    """
    dump(table.game.record(), path)


def resume_table(
    path: str | Path,
    *,
    lexicon: Lexicon | str | None = None,
    seed: int | None = None,
    now: Now = time.monotonic,
    practice: bool = False,
) -> Table:
    """The unfinished game saved in ``path``, at a table whose seats named
    as bots (``Static bot``, ``Beginner bot 2`` ...) play as that kind.

    :param lexicon: the game's lexicon from now on (default: the default
        one); a name or file is loaded with the record's tile set.
    :raises TilebagError: for a record that cannot be read or replayed
        (naming the file and line), or whose game is over.
    """
    record = load(path)
    if isinstance(lexicon, str):
        lexicon = load_lexicon(lexicon, alphabet=load_alphabet(record.alphabet))
    game = resume(record, lexicon=lexicon, seed=seed, source=str(path))
    bots: dict[int, Bot] = {}
    for seat, player in enumerate(game.players):
        kind = bot_kind_of(player.name)
        if kind is not None:
            bots[seat] = make_bot(kind, player.name, threads=None)
    return Table(game, bots, now=now, practice=practice)
