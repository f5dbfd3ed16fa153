"""Bots named by a spec: a kind and options, as ``tilebag match`` and the
other commands that pit bots against each other take them.

``static``, ``greedy``, ``beginner``, ``static:leaves=FILE`` (a leave table:
KLV/KLV2 or a text table), ``sim:plies=2,seconds=1,candidates=10`` (the
simulating player, :class:`tilebag.engine.montecarlo.sim.SimPlayer`; ``confidence=99.9``
drops a candidate only when it is that sure it is worse; ``infer=off`` deals
the opponent racks from all the unseen tiles, not the leaves that explain
its last play, ``infer=5`` those within 5 points of its best play;
``late=3`` plays rollouts to the end of the game once the bag holds three
tiles or fewer, not seven, ``late=off`` never, and plays the static choice
with the bag empty),
``champion:seconds=1``, ``static:opening=0`` (the opening adjustment, in
points a vowel, :mod:`tilebag.engine.equity.opening`; 0 for none). Options are ``key=value`` pairs after a colon,
separated by commas. ``workers=N`` (or ``workers=all``) gives a simulating
bot's rollouts N processes; the default is one, since a match already plays
a game on each core (``tilebag match ... --workers 1`` to give each move
every core instead).

>>> spec = parse_bot_spec("static:leaves=heuristic")
>>> spec.kind, spec.options
('static', {'leaves': 'heuristic'})
>>> spec.label
'static:leaves=heuristic'
>>> parse_bot_spec("greedy").make("g").name
'g'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tilebag.engine.equity import millipoints
from tilebag.engine.equity.leaves import LeaveValues, load_leaves
from tilebag.engine.players import BeginnerPlayer, GreedyPlayer, Player, StaticPlayer
from tilebag.errors import TilebagError

if TYPE_CHECKING:
    from tilebag.engine.equity.winpct import WinTable

OPTIONS: dict[str, tuple[str, ...]] = {
    "static": ("leaves", "opening"),
    "greedy": (),
    "beginner": ("seed",),
    "sim": ("plies", "late", "seconds", "candidates", "iterations", "seed", "leaves", "wins", "workers", "confidence", "infer"),
    "champion": ("seconds", "seed", "workers", "threads"),  # workers: the simulation's; threads: the endgames'
}
"""The options each kind takes."""


class BotSpecError(TilebagError):
    """A bot spec that names no bot, or an option the kind does not take."""


@dataclass(frozen=True)
class BotSpec:
    """A kind of bot with its options."""

    kind: str
    options: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The spec as it is written."""
        if not self.options:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())

    def make(self, name: str | None = None) -> Player:
        """A new bot of this spec (leave files are read now).

        :raises FormatError: for a leave file that cannot be read.
        """
        name = name or self.label
        if self.kind == "static":
            leaves = self.options.get("leaves")
            opening = self.options.get("opening")
            return StaticPlayer(
                name,
                leaves=_leaves(leaves) if leaves else None,
                opening_penalty=millipoints(float(opening)) if opening is not None else None,
            )
        if self.kind == "greedy":
            return GreedyPlayer(name)
        if self.kind == "champion":
            from tilebag.engine.bots.champion import ChampionPlayer

            return ChampionPlayer(
                name,
                seconds=float(self.options.get("seconds", "1")),
                seed=int(self.options.get("seed", "0")),
                workers=_workers(self.options.get("workers")),
                threads=_workers(self.options.get("threads")),
            )
        if self.kind == "sim":
            from tilebag.engine.montecarlo.sim import LATE_BAG, SimPlayer

            options = self.options
            leaves = options.get("leaves")
            engine = None
            if leaves:
                from tilebag.engine import Engine
                from tilebag.lexicon import default_lexicon

                engine = Engine.for_lexicon(default_lexicon()).with_leaves(_leaves(leaves))
            return SimPlayer(
                name,
                plies=int(options.get("plies", "2")),
                late=_late(options.get("late"), LATE_BAG),
                seconds=float(options.get("seconds", "1")),
                candidates=int(options.get("candidates", "10")),
                iterations=int(options.get("iterations", "100000")),
                seed=int(options.get("seed", "0")),
                engine=engine,
                wins=_wins(options.get("wins")),
                workers=_workers(options.get("workers")),
                confidence=float(options["confidence"]) if "confidence" in options else None,
                infer=_infer(options.get("infer")),
            )
        return BeginnerPlayer(name, seed=int(self.options.get("seed", "0")))


def parse_bot_spec(text: str) -> BotSpec:
    """A bot spec from its text: ``KIND`` or ``KIND:KEY=VALUE,...``.

    :raises BotSpecError: naming the unknown kind or option, or a malformed pair.
    """
    kind, _, rest = text.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in OPTIONS:
        raise BotSpecError(f"no bot called {kind!r} (known: {', '.join(OPTIONS)})")
    options: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, equals, value = pair.partition("=")
        key = key.strip().lower()
        if not equals or not value.strip():
            raise BotSpecError(f"{text!r}: options are KEY=VALUE, got {pair!r}")
        if key not in OPTIONS[kind]:
            takes = ", ".join(OPTIONS[kind]) or "no options"
            raise BotSpecError(f"{text!r}: the {kind} bot takes {takes}, not {key!r}")
        if key in ("seed", "plies", "candidates", "iterations") and not value.strip().isdigit():
            raise BotSpecError(f"{text!r}: {key} is a whole number")
        if key in ("workers", "threads") and not (value.strip().isdigit() and 0 < int(value) <= 64 or value.strip().lower() == "all"):
            raise BotSpecError(f"{text!r}: {key} is a whole number from 1 to 64, or all")
        if key == "opening":
            try:
                if not 0 <= float(value) < 1000:
                    raise ValueError
            except ValueError:
                raise BotSpecError(f"{text!r}: opening is points a vowel, from 0") from None
        if key == "seconds":
            try:
                if float(value) <= 0:
                    raise ValueError
            except ValueError:
                raise BotSpecError(f"{text!r}: seconds is a number above 0") from None
        if key == "confidence":
            try:
                if not 50 < float(value) < 100:
                    raise ValueError
            except ValueError:
                raise BotSpecError(f"{text!r}: confidence is a percentage between 50 and 100") from None
        if key == "late" and value.strip().lower() not in OFF and not value.strip().isdigit():
            raise BotSpecError(f"{text!r}: late is tiles in the bag, a whole number, or off")
        if key == "infer" and value.strip().lower() not in OFF:
            try:
                if not 0 <= float(value) < 1000:
                    raise ValueError
            except ValueError:
                raise BotSpecError(f"{text!r}: infer is points from 0, or off") from None
        options[key] = value.strip()
    return BotSpec(kind, options)


_loaded: dict[tuple[str, float], LeaveValues] = {}


def _leaves(option: str) -> LeaveValues:
    """The leave values a spec names, read once per process (a match makes
    its bots afresh for every pair of games): by name, or by file and the
    time it was last changed."""
    path = Path(option)
    key = (option, path.stat().st_mtime if path.is_file() else 0.0)
    if key not in _loaded:
        _loaded[key] = load_leaves(option)
    return _loaded[key]


def _workers(option: str | None) -> int | None:
    """``workers=N``: N processes; ``workers=all``: every core; default: one."""
    if option is None:
        return 1
    return None if option.lower() == "all" else int(option)


OFF = ("off", "no", "none")
"""The words that turn an option off (``infer=off``, ``late=off``)."""


def _late(option: str | None, default: int) -> int | None:
    """``late=N``: rollouts to the end of the game from N tiles in the bag; ``late=off``: never."""
    if option is None:
        return default
    return None if option.lower() in OFF else int(option)


def _infer(option: str | None) -> float | None:
    """``infer=N``: the leaves that explain the opponent's play within N
    points (default 0); ``infer=off``: racks drawn from all the unseen tiles."""
    if option is None:
        return 0.0
    return None if option.lower() in OFF else float(option)


def _wins(option: str | None) -> WinTable | bool | None:
    """``wins=no``: by spread alone; ``wins=FILE``: that table; default: the built-in one."""
    from tilebag.engine.equity.winpct import WinTable

    if option is None:
        return None
    if option.lower() in ("no", "none", "spread"):
        return False
    return WinTable.load(option)
