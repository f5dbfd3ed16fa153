"""The pragmas of tilebag's GCG records that are not events: the rules
options (:func:`rules_pragmas`, :func:`pragma_options`), the clocks, and
the names of the pragmas the reader (:mod:`tilebag.formats.gcg`) and the writer
(:mod:`tilebag.formats.gcg_write`) share.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping

from tilebag.errors import quote
from tilebag.rules import OPTIONS, Rules, RulesError, check_bounds

ALPHABET_PRAGMAS = ("tile-distribution", "letter-distribution", "tile-set", "alphabet")
"""Pragmas naming the tile set (the first is the one tilebag writes)."""

LAYOUT_PRAGMA = "board-layout"
"""The pragma naming the board layout."""

CHALLENGE_PRAGMA = "challenge-rule"
"""The pragma of the ``challenge`` option (its name in other programs' records)."""

CLOCK_PRAGMA = "clock-used"
"""Seconds each player used, in seat order (games with a turn timer or a game clock)."""

TO_MOVE_PRAGMA = "to-move"
"""The nickname of the player to move, at the end of the record of a game that is not over."""

ACTION_PRAGMA, ANAGRAM_PRAGMA, TIME_OUT_PRAGMA, RESIGN_PRAGMA = "action", "anagram-play", "time-out", "resign"
"""Pragmas that are events or belong to one (see the module docstring)."""


# -- rules as pragmas ----------------------------------------------------


def rules_pragmas(rules: Rules) -> list[tuple[str, str]]:
    """The pragmas that state every rules option a game does not play as
    standard, each named by its command-line flag (``challenge`` as
    ``challenge-rule``); a yes/no option that is on is a bare pragma.

    >>> from tilebag.rules import find_rules
    >>> rules_pragmas(find_rules("tournament"))
    [('scoreless-turns', '6'), ('game-clock', '1500'), ('overtime-penalty', '10')]
    >>> rules_pragmas(Rules(anagram=True, finish_player_targets=(200, 70)))
    [('finish-player-targets', '200 70'), ('anagram', '')]
    >>> rules_pragmas(Rules())
    []
    """
    return options_pragmas(rules.stated_options())


def options_pragmas(options: Mapping[str, object]) -> list[tuple[str, str]]:
    """The pragmas of rules options stated by field name (as
    :attr:`GameRecord.rule_options` holds them): the challenge mode, the
    scoreless-turn limit and the board first, then the others in the order
    ``tilebag rules`` lists them.

    >>> options_pragmas({"rack_size": 9, "layout": "super"})
    [('board-layout', 'super'), ('rack-size', '9')]
    """
    first: list[tuple[str, str]] = []
    rest: list[tuple[str, str]] = []
    for option in OPTIONS.values():
        if option.name not in options:
            continue
        value = options[option.name]
        if option.name == "challenge":
            first.append((CHALLENGE_PRAGMA, _value_text(value)))
        elif option.name == "scoreless_turns":
            first.append((option.flag, _value_text(value)))
        else:
            rest.append((option.flag, _value_text(value)))
    if "layout" in options:
        first.append((LAYOUT_PRAGMA, str(options["layout"])))
    return first + rest


class PragmaError(RulesError):
    """A rules pragma whose value is not one its option takes; :attr:`key`
    is the pragma."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def pragma_rules(pragmas: Iterable[tuple[str, str]], base: Rules | None = None) -> Rules:
    """``base`` (the standard rules by default) changed by the rules
    pragmas among these (see :func:`rules_pragmas`); other pragmas are left
    alone, and so is a ``#challenge-rule`` naming a mode tilebag does not
    know (other programs write their own).

    >>> pragma_rules([("rack-size", "9"), ("recycle", ""), ("lexicon", "CSW21")]).describe()
    ['rack size 9', 'recycle']

    :raises PragmaError: naming a pragma whose value is not one its option takes.
    :raises RulesError: for options that conflict.
    """
    options, _ = pragma_options(pragmas)
    try:
        return (base or Rules()).replace(**options)
    except RulesError as err:
        raise RulesError(f"the rules pragmas conflict: {err}") from None


def pragma_options(pragmas: Iterable[tuple[str, str]]) -> tuple[dict[str, object], list[tuple[str, str]]]:
    """The rules options the pragmas state, by field name, and the other
    pragmas (a ``#challenge-rule`` naming a mode tilebag does not know is
    one of those: other programs write their own). When an option is
    stated twice, the first counts.

    >>> pragma_options([("rack-size", "9"), ("recycle", ""), ("lexicon", "CSW21")])
    ({'rack_size': 9, 'recycle': True}, [('lexicon', 'CSW21')])

    :raises PragmaError: naming a pragma whose value is not one its option takes.
    """
    changes: dict[str, object] = {}
    others: list[tuple[str, str]] = []
    for key, text in pragmas:
        if key == LAYOUT_PRAGMA:
            if text and "layout" not in changes:
                changes["layout"] = text
            continue
        name = "challenge" if key == CHALLENGE_PRAGMA else key.replace("-", "_")
        if name not in OPTIONS:
            others.append((key, text))
            continue
        if name in changes:
            continue
        option = OPTIONS[name]
        try:
            changes[name] = option.parse(text or "yes")
            check_bounds(name, changes[name])
        except (ValueError, RulesError) as err:
            if key == CHALLENGE_PRAGMA:
                others.append((key, text))
                continue
            raise PragmaError(key, f"#{key} {quote(text)}: {err}") from None
    return changes, others


def is_rules_pragma(key: str) -> bool:
    """True for the pragmas that state a rules option."""
    return key in (LAYOUT_PRAGMA, CHALLENGE_PRAGMA) or key.replace("-", "_") in OPTIONS


def _value_text(value: object) -> str:
    """An option's value as its pragma writes it (what its option reads back)."""
    if value is True:
        return ""
    if value is False:
        return "no"
    if value is None:
        return "none"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return " ".join(_value_text(v) for v in value)
    if isinstance(value, float):
        return seconds_text(value)
    return str(value)


def seconds_text(value: float) -> str:
    """A number of seconds, exactly: ``180`` or ``90.5``."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)
