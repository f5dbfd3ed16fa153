"""Rules as data: one frozen :class:`Rules` object per way of playing.

>>> find_rules("standard").challenge
<ChallengeMode.DOUBLE: 'double'>
>>> find_rules("tournament").scoreless_limit(2)
6
>>> find_rules("standard").scoreless_limit(3)
6
>>> find_rules("standard").replace(challenge=ChallengeMode.VOID).challenge.value
'void'
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tilebag.errors import TilebagError


class ChallengeMode(enum.Enum):
    """What happens when a play is challenged (chosen before the game)."""

    VOID = "void"
    """Plays with a word not in the lexicon are refused on entry; no challenges."""
    SINGLE = "single"
    """A phony comes off; a failed challenge costs nothing."""
    DOUBLE = "double"
    """A phony comes off; a failed challenge costs the challenger their next turn."""
    FIVE_POINT = "5-point"
    """A phony comes off; a failed challenge costs the challenger 5 points."""
    TEN_POINT = "10-point"
    """A phony comes off; a failed challenge costs the challenger 10 points."""

    @property
    def penalty_points(self) -> int:
        """Points a failed challenge costs the challenger."""
        return {ChallengeMode.FIVE_POINT: 5, ChallengeMode.TEN_POINT: 10}.get(self, 0)

    @classmethod
    def parse(cls, text: str) -> ChallengeMode:
        """A mode by its name: ``void``, ``single``, ``double``, ``5-point``
        (or ``5``), ``10-point`` (or ``10``).

        :raises ValueError: for an unknown name.
        """
        key = text.strip().lower().replace("_", "-")
        aliases = {"5": "5-point", "five-point": "5-point", "10": "10-point", "ten-point": "10-point"}
        key = aliases.get(key, key)
        for mode in cls:
            if mode.value == key:
                return mode
        raise ValueError(f"unknown challenge mode {text!r}; choose one of {', '.join(m.value for m in cls)}")


class EndAdjustment(enum.Enum):
    """How the tiles left on racks count when a player goes out."""

    TRANSFER = "transfer"
    """The rules: each other player loses their rack's value; the player who
    went out gains the sum of those."""
    DOUBLE = "double"
    """As tournament software records 2-player games: the player who went out
    gains twice the opponent's rack, whose score stays unchanged (same
    spread)."""


class FinishLevel(enum.Enum):
    """Finish Line levels, each with its target by number of players."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    EXPERT = "expert"

    def target(self, players: int) -> int:
        """The score to reach with this many players (2, 3 or 4; a solo game
        plays to the 2-player target).

        >>> FinishLevel.INTERMEDIATE.target(2), FinishLevel.BEGINNER.target(4)
        (120, 50)
        """
        table = FINISH_TARGETS[self]
        return table[min(max(players, 2), 4) - 2]

    @classmethod
    def parse(cls, text: str) -> FinishLevel:
        key = text.strip().lower()
        for level in cls:
            if level.value == key or level.value[0] == key:
                return level
        raise RulesError(f"unknown Finish Line level {text!r}; choose one of {', '.join(lv.value for lv in cls)}")


FINISH_TARGETS: dict[FinishLevel, tuple[int, int, int]] = {
    FinishLevel.BEGINNER: (70, 60, 50),
    FinishLevel.INTERMEDIATE: (120, 100, 90),
    FinishLevel.EXPERT: (200, 180, 160),
}
"""Finish Line targets for 2, 3 and 4 players, as the rules give them."""


MAX_RACK_SIZE = 20
"""The largest rack the rules allow (9 in the 9-tile variation)."""

_LIMITS: dict[str, int] = {
    "rack_size": MAX_RACK_SIZE,
    "bingo_bonus": 1000,
    "min_first_word": MAX_RACK_SIZE,
    "scoreless_turns": 1_000_000,
    "exchange_min_bag": 1000,
    "finish_target": 100_000,
    "finish_player_targets": 100_000,
    "turn_time": 7 * 24 * 3600,
    "game_clock": 7 * 24 * 3600,
    "overtime_penalty": 1000,
}
"""The largest value of each numeric option (times in seconds: a week)."""


def check_bounds(name: str, value: object) -> None:
    """A numeric option's value must be finite and within :data:`_LIMITS`
    (rules come from records and requests too, so no value may exhaust
    memory or time).

    >>> check_bounds("rack_size", 99)
    Traceback (most recent call last):
    ...
    tilebag.rules.RulesError: rack_size must be at most 20, got 99

    :raises RulesError: naming the option and the limit.
    """
    top = _LIMITS.get(name)
    if top is None:
        return
    values = value if isinstance(value, tuple) else (value,)
    for v in values:
        if not isinstance(v, int | float):
            continue
        if isinstance(v, float) and not math.isfinite(v):
            raise RulesError(f"{name} must be a finite number, got {v}")
        if v > top:
            raise RulesError(f"{name} must be at most {top}, got {v}")


@dataclass(frozen=True)
class Rules:
    """Everything a game's rules vary. Presets come from :func:`find_rules`;
    change fields with :meth:`replace` (checked the same way), or from text
    options with :meth:`with_options`.

    >>> Rules(rack_size=9).bingo_tiles
    7
    >>> Rules(finish_level=FinishLevel.EXPERT).finish_targets(3)
    (180, 180, 180)
    >>> Rules(overtime_penalty=10)
    Traceback (most recent call last):
    ...
    tilebag.rules.RulesError: overtime_penalty needs game_clock: an overtime penalty counts minutes over a game clock
    """

    name: str = "standard"
    """The preset this came from (informational)."""
    alphabet: str = "english"
    """Tile set name (see :func:`tilebag.alphabet.load_alphabet`)."""
    layout: str = "standard"
    """Board layout name (see :func:`tilebag.layout.load_layout`)."""
    rack_size: int = 7
    """Tiles on a rack (9 in the 9-tile variation)."""
    bingo_tiles: int = 7
    """Tiles a play must place to earn the bingo bonus (7, 8 or 9 of a
    9-tile rack all earn it)."""
    bingo_bonus: int = 50
    min_first_word: int = 2
    """Tiles the first play of the game must place (variation: 3, 4 or 5;
    until someone can, players pass or exchange)."""
    challenge: ChallengeMode = ChallengeMode.DOUBLE
    scoreless_turns: int | None = None
    """Consecutive scoreless turns that end the game; ``None`` means two per
    player (2 x N)."""
    exchange_min_bag: int = 7
    """An exchange needs at least this many tiles in the bag."""
    end_adjustment: EndAdjustment = EndAdjustment.TRANSFER
    min_players: int = 1
    max_players: int = 4
    finish_level: FinishLevel | None = None
    """Finish Line: every player plays to this level's target."""
    finish_target: int | None = None
    """Finish Line: a custom target for every player."""
    finish_player_targets: tuple[int, ...] | None = None
    """Finish Line: a target per seat (players of different levels)."""
    anagram: bool = False
    """A play may first rearrange one word on the board, in its squares."""
    recycle: bool = False
    """At the start of a turn a player may replace board letters, one at a
    time, with rack tiles, taking the letters replaced."""
    blank_swap: bool = False
    """A player holding the letter a played blank stands for may swap it
    for the blank."""
    open_dictionary: bool = False
    """Word look-up and hints are allowed during play."""
    turn_time: float | None = None
    """Seconds a turn may take; when they run out the turn is a pass."""
    game_clock: float | None = None
    """Seconds each player has for the whole game."""
    overtime_penalty: int = 0
    """Points lost per minute (or part of one) over the game clock."""

    def __post_init__(self) -> None:
        self._check_bounds()
        if self.rack_size < 1:
            raise RulesError(f"rack_size must be at least 1, got {self.rack_size}")
        if not 1 <= self.bingo_tiles <= self.rack_size:
            raise RulesError(f"bingo_tiles must be between 1 and the rack size {self.rack_size}, got {self.bingo_tiles}")
        if not 2 <= self.min_first_word <= self.rack_size:
            raise RulesError(
                f"min_first_word must be between 2 (a word has two letters at least) and the rack size "
                f"{self.rack_size}, got {self.min_first_word}"
            )
        if self.scoreless_turns is not None and self.scoreless_turns < 1:
            raise RulesError(f"scoreless_turns must be at least 1, got {self.scoreless_turns}")
        if not 1 <= self.min_players <= self.max_players:
            raise RulesError("min_players must be between 1 and max_players")
        if self.exchange_min_bag < 1:
            raise RulesError(f"exchange_min_bag must be at least 1, got {self.exchange_min_bag}")
        finish = [
            name
            for name, value in (
                ("finish_level", self.finish_level),
                ("finish_target", self.finish_target),
                ("finish_player_targets", self.finish_player_targets),
            )
            if value is not None
        ]
        if len(finish) > 1:
            raise RulesError(f"{' and '.join(finish)} both set the Finish Line target: choose one")
        if self.finish_target is not None and self.finish_target < 1:
            raise RulesError(f"finish_target must be at least 1 point, got {self.finish_target}")
        if self.finish_player_targets is not None:
            if not self.finish_player_targets or any(t < 1 for t in self.finish_player_targets):
                raise RulesError("finish_player_targets needs one target of at least 1 point per player")
            if len(self.finish_player_targets) > self.max_players:
                raise RulesError(
                    f"finish_player_targets has {len(self.finish_player_targets)} targets, "
                    f"but at most {self.max_players} play"
                )
        if self.is_finish_line and self.end_adjustment is EndAdjustment.DOUBLE:
            raise RulesError("end_adjustment double and Finish Line conflict: a Finish Line game counts no racks")
        for name in ("turn_time", "game_clock"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise RulesError(f"{name} must be a positive number of seconds, got {value}")
        if self.overtime_penalty < 0:
            raise RulesError(f"overtime_penalty must be at least 0 points, got {self.overtime_penalty}")
        if self.overtime_penalty and self.game_clock is None:
            raise RulesError("overtime_penalty needs game_clock: an overtime penalty counts minutes over a game clock")
        if self.turn_time is not None and self.game_clock is not None and self.turn_time > self.game_clock:
            raise RulesError(
                f"turn_time {self.turn_time:g} s is longer than the whole game_clock {self.game_clock:g} s"
            )

    def _check_bounds(self) -> None:
        for name in _LIMITS:
            check_bounds(name, getattr(self, name))

    @property
    def is_finish_line(self) -> bool:
        """Whether the game ends when a player reaches a target score."""
        return (
            self.finish_level is not None
            or self.finish_target is not None
            or self.finish_player_targets is not None
        )

    def finish_targets(self, players: int) -> tuple[int, ...] | None:
        """Each seat's Finish Line target in a game of this many players, or
        ``None`` when the game is not a Finish Line game.

        :raises RulesError: when the per-player targets do not match the players.
        """
        if self.finish_player_targets is not None:
            if len(self.finish_player_targets) != players:
                raise RulesError(
                    f"finish_player_targets gives {len(self.finish_player_targets)} targets for {players} players"
                )
            return self.finish_player_targets
        if self.finish_target is not None:
            return (self.finish_target,) * players
        if self.finish_level is not None:
            return (self.finish_level.target(players),) * players
        return None

    def scoreless_limit(self, players: int) -> int:
        """Consecutive scoreless turns that end a game of this many players."""
        return self.scoreless_turns if self.scoreless_turns is not None else 2 * players

    def replace(self, **changes: object) -> Rules:
        """A copy with some fields changed (checked like a new one).

        :raises RulesError: naming an unknown field or a conflict.
        """
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise RulesError(f"no rules option {', '.join(map(repr, unknown))} (see `tilebag rules`)")
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def with_options(self, options: Mapping[str, str]) -> Rules:
        """A copy with options given as text (``{"rack-size": "9",
        "challenge": "void"}``), as the command line takes them.

        >>> find_rules("standard").with_options({"finish-level": "expert", "turn-time": "180"}).turn_time
        180.0

        :raises RulesError: naming the option and what was wrong with its value.
        """
        changes: dict[str, object] = {}
        for raw_name, text in options.items():
            name = raw_name.strip().lower().replace("-", "_")
            option = OPTIONS.get(name)
            if option is None:
                raise RulesError(f"no rules option {raw_name!r}; known: {', '.join(o.flag for o in OPTIONS.values())}")
            try:
                changes[name] = option.parse(text)
            except (ValueError, RulesError) as error:
                raise RulesError(f"--{option.flag} {text!r}: {error}") from None
        try:
            return self.replace(**changes)
        except RulesError as error:
            # name the options as they were given: --finish-level, not finish_level
            message = str(error)
            for name in sorted(OPTIONS, key=len, reverse=True):
                message = re.sub(rf"\b{name}\b", "--" + OPTIONS[name].flag, message)
            raise RulesError(message) from None

    def stated_options(self) -> dict[str, object]:
        """The options these rules do not play as standard, by field name
        (the options a record states, the board layout included).

        >>> find_rules("tournament").stated_options()
        {'scoreless_turns': 6, 'game_clock': 1500.0, 'overtime_penalty': 10}
        """
        standard = Rules()
        stated: dict[str, object] = {
            name: getattr(self, name) for name in OPTIONS if getattr(self, name) != getattr(standard, name)
        }
        if self.layout != standard.layout:
            stated["layout"] = self.layout
        return stated

    def describe(self) -> list[str]:
        """What differs from the standard rules, one phrase per option.

        >>> find_rules("nine-tile").describe()
        ['rack size 9']
        """
        standard = Rules()
        lines = []
        for option in OPTIONS.values():
            value = getattr(self, option.name)
            if value != getattr(standard, option.name):
                lines.append(option.phrase(value))
        return lines


class RulesError(TilebagError, ValueError):
    """An unknown preset or an impossible combination of options."""


def _parse_bool(text: str) -> bool:
    key = text.strip().lower()
    if key in ("1", "yes", "true", "on"):
        return True
    if key in ("0", "no", "false", "off"):
        return False
    raise ValueError("expected yes or no")


def _parse_seconds(text: str) -> float | None:
    """Seconds, or minutes as ``25m``, or ``none``."""
    key = text.strip().lower()
    if key in ("none", "off", "0"):
        return None
    try:
        value = float(key[:-1]) * 60 if key.endswith("m") else float(key.rstrip("s"))
    except ValueError:
        raise ValueError("expected seconds (180), minutes (3m) or none") from None
    if value <= 0:
        raise ValueError("expected a positive time")
    return value


def _parse_int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError("expected a whole number") from None


def _parse_optional_int(text: str) -> int | None:
    key = text.strip().lower()
    return None if key in ("none", "off") else _parse_int(key)


def _parse_level(text: str) -> FinishLevel | None:
    key = text.strip().lower()
    return None if key in ("none", "off") else FinishLevel.parse(key)


def _parse_targets(text: str) -> tuple[int, ...] | None:
    key = text.strip().lower()
    if key in ("none", "off"):
        return None
    return tuple(_parse_int(part) for part in key.replace(",", " ").split())


def _seconds_text(value: float | None) -> str:
    if value is None:
        return "none"
    return f"{value / 60:g} min" if value >= 60 and value % 60 == 0 else f"{value:g} s"


@dataclass(frozen=True)
class Option:
    """One rules option as the command line takes it, and as a form offers it.

    >>> OPTIONS["challenge"].kind, OPTIONS["challenge"].choices
    ('choice', ('void', 'single', 'double', '5-point', '10-point'))
    >>> OPTIONS["rack_size"].kind, OPTIONS["rack_size"].minimum, OPTIONS["rack_size"].maximum
    ('number', 7, 9)
    """

    name: str
    help: str
    parse: Callable[[str], object]
    phrase: Callable[[Any], str]
    kind: Literal["number", "choice", "yes-no", "duration", "numbers"] = "number"
    """What a form offers for it: a number, one of :attr:`choices`, yes or no,
    a time in seconds, or numbers (one per seat); every kind but yes-no also
    takes ``none`` where the option can be off."""
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    """A short name for a form (default: the option's name in words)."""
    optional: bool = False
    """Whether ``none`` turns it off."""

    @property
    def flag(self) -> str:
        return self.name.replace("_", "-")

    @property
    def title(self) -> str:
        """Its short name in words: ``Rack size``."""
        return self.label or self.name.replace("_", " ").capitalize()


OPTIONS: dict[str, Option] = {
    option.name: option
    for option in (
        Option("rack_size", "tiles on a rack (9 for 9-tile racks)", _parse_int, lambda v: f"rack size {v}", minimum=7, maximum=9),
        Option("bingo_tiles", "tiles a play must place for the bingo bonus", _parse_int, lambda v: f"bingo for {v} tiles or more",
               minimum=1, maximum=9, label="Tiles for a bingo"),
        Option("bingo_bonus", "points for a bingo", _parse_int, lambda v: f"bingo bonus {v}", minimum=0, maximum=200),
        Option("min_first_word", "tiles the first play must place (3, 4 or 5 in the variation)", _parse_int,
               lambda v: f"first word of {v} letters or more", minimum=2, maximum=7, label="Shortest first word"),
        Option("challenge", "void, single, double, 5-point or 10-point", ChallengeMode.parse,
               lambda v: f"{v.value} challenge", kind="choice", choices=tuple(mode.value for mode in ChallengeMode),
               label="Challenge rule"),
        Option("scoreless_turns", "consecutive scoreless turns that end the game (none: two per player)",
               _parse_optional_int, lambda v: f"game ends after {v} scoreless turns", minimum=2, maximum=20, optional=True),
        Option("exchange_min_bag", "tiles the bag must hold for an exchange", _parse_int,
               lambda v: f"exchange with {v} tiles in the bag or more", minimum=0, maximum=20,
               label="Tiles in the bag for an exchange"),
        Option("finish_level", "Finish Line: beginner, intermediate or expert (targets by player count), or none",
               _parse_level, lambda v: f"Finish Line, {v.value} targets ({'/'.join(map(str, FINISH_TARGETS[v]))})",
               kind="choice", choices=tuple(level.value for level in FinishLevel), optional=True, label="Finish Line level"),
        Option("finish_target", "Finish Line: one custom target for every player", _parse_optional_int,
               lambda v: f"Finish Line at {v} points", minimum=1, maximum=1000, optional=True, label="Finish Line target"),
        Option("finish_player_targets", "Finish Line: a target per seat, e.g. 120,70", _parse_targets,
               lambda v: f"Finish Line targets {', '.join(map(str, v))} by seat", kind="numbers", minimum=1, maximum=1000,
               optional=True, label="Finish Line target of each seat"),
        Option("anagram", "a play may first rearrange one word on the board (yes/no)", _parse_bool,
               lambda v: "anagram plays" if v else "no anagram plays", kind="yes-no", label="Anagram plays"),
        Option("recycle", "replace board letters with rack tiles at the start of a turn (yes/no)", _parse_bool,
               lambda v: "recycle" if v else "no recycle", kind="yes-no"),
        Option("blank_swap", "take a played blank by putting down its letter (yes/no)", _parse_bool,
               lambda v: "blank swap" if v else "no blank swap", kind="yes-no"),
        Option("open_dictionary", "word look-up and hints allowed during play (yes/no)", _parse_bool,
               lambda v: "open dictionary" if v else "closed dictionary", kind="yes-no"),
        Option("turn_time", "seconds per turn, or 3m; the turn is a pass when it runs out (none: no timer)",
               _parse_seconds, lambda v: f"turn timer {_seconds_text(v)}", kind="duration", minimum=10, maximum=3600,
               optional=True, label="Turn timer"),
        Option("game_clock", "time per player for the whole game, e.g. 25m (none: no clock)", _parse_seconds,
               lambda v: f"game clock {_seconds_text(v)} each", kind="duration", minimum=60, maximum=24 * 3600,
               optional=True),
        Option("overtime_penalty", "points lost per started minute over the game clock", _parse_int,
               lambda v: f"{v} points per minute over", minimum=0, maximum=100, label="Points lost per minute over"),
    )
}
"""The options a preset can be changed by, by field name."""


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "tournament": Rules(name="tournament", scoreless_turns=6, game_clock=25 * 60.0, overtime_penalty=10),
    "online": Rules(name="online", challenge=ChallengeMode.VOID, turn_time=180.0),
    "nine-tile": Rules(name="nine-tile", rack_size=9, bingo_tiles=7),
    "finish-line": Rules(name="finish-line", finish_level=FinishLevel.INTERMEDIATE),
    "kids": Rules(name="kids", open_dictionary=True, challenge=ChallengeMode.VOID),
    "long-first-word": Rules(name="long-first-word", min_first_word=4),
    "anagram": Rules(name="anagram", anagram=True),
    "recycle": Rules(name="recycle", recycle=True),
    "blank-swap": Rules(name="blank-swap", blank_swap=True),
    "house": Rules(name="house", anagram=True, recycle=True, blank_swap=True, open_dictionary=True),
    "speed": Rules(name="speed", turn_time=180.0),
}
"""Named rule sets."""

PRESET_HELP: dict[str, str] = {
    "standard": "the rules as printed: 7-tile racks, double challenge",
    "tournament": "6 scoreless turns end the game; 25-minute clocks, 10 points per minute over",
    "online": "void challenge (phonies refused on entry), 3-minute turns",
    "nine-tile": "9-tile racks; 7, 8 or 9 tiles earn the bingo bonus",
    "finish-line": "first to the target wins (intermediate: 120/100/90 for 2/3/4 players)",
    "kids": "open dictionary (look-up and hints allowed), void challenge",
    "long-first-word": "the first word needs 4 letters or more",
    "anagram": "a play may rearrange one word on the board before adding tiles to it",
    "recycle": "swap board letters for rack tiles at the start of a turn",
    "blank-swap": "take a played blank by putting down the letter it stands for",
    "house": "anagram, recycle, blank swap and an open dictionary together",
    "speed": "3-minute turn timer",
}
"""One line about each preset."""

ALIASES: dict[str, str] = {
    "classic": "standard",
    "default": "standard",
    "club": "tournament",
    "9-tile": "nine-tile",
    "nine": "nine-tile",
    "finish": "finish-line",
    "family": "kids",
    "void": "online",
    "house-rules": "house",
    "timed": "speed",
}


def find_rules(name: str) -> Rules:
    """A preset by name or alias.

    :raises RulesError: for an unknown name, listing the known ones.
    """
    key = name.strip().lower().replace("_", "-")
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(f"unknown rules {name!r}; known: {', '.join(PRESETS)}") from None
