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
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Rules:
    """Everything a game's rules vary. Presets come from :func:`find_rules`;
    change one field with :meth:`replace`."""

    name: str = "standard"
    """The preset this came from (informational)."""
    alphabet: str = "english"
    """Tile set name (see :func:`tilebag.alphabet.load_alphabet`)."""
    layout: str = "standard"
    """Board layout name (see :func:`tilebag.layout.load_layout`)."""
    rack_size: int = 7
    bingo_tiles: int = 7
    """Tiles a play must place to earn the bingo bonus."""
    bingo_bonus: int = 50
    min_first_word: int = 2
    """Tiles the first play of the game must place (at least 2)."""
    challenge: ChallengeMode = ChallengeMode.DOUBLE
    scoreless_turns: int | None = None
    """Consecutive scoreless turns that end the game; ``None`` means two per
    player (2 x N)."""
    exchange_min_bag: int = 7
    """An exchange needs at least this many tiles in the bag."""
    end_adjustment: EndAdjustment = EndAdjustment.TRANSFER
    min_players: int = 1
    max_players: int = 4

    def __post_init__(self) -> None:
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

    def scoreless_limit(self, players: int) -> int:
        """Consecutive scoreless turns that end a game of this many players."""
        return self.scoreless_turns if self.scoreless_turns is not None else 2 * players

    def replace(self, **changes: object) -> Rules:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


class RulesError(TilebagError, ValueError):
    """An unknown preset or an impossible combination of options."""


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "tournament": Rules(name="tournament", scoreless_turns=6),
}
"""Named rule sets."""

ALIASES: dict[str, str] = {
    "classic": "standard",
    "default": "standard",
    "club": "tournament",
}


def find_rules(name: str) -> Rules:
    """A preset by name or alias.

    :raises RulesError: for an unknown name, listing the known ones.
    """
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(f"unknown rules {name!r}; known: {', '.join(sorted(PRESETS))}") from None
