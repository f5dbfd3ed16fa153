"""Bots named by a spec: a kind and options, as ``tilebag match`` and the
other commands that pit bots against each other take them.

``static``, ``greedy``, ``beginner``, ``static:leaves=FILE`` (a leave table:
KLV/KLV2 or a text table). Options are ``key=value`` pairs after a colon,
separated by commas.

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

from tilebag.engine.leaves import load_leaves
from tilebag.engine.players import BOTS, BeginnerPlayer, GreedyPlayer, Player, StaticPlayer
from tilebag.errors import TilebagError

OPTIONS: dict[str, tuple[str, ...]] = {
    "static": ("leaves",),
    "greedy": (),
    "beginner": ("seed",),
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
            return StaticPlayer(name, leaves=load_leaves(leaves) if leaves else None)
        if self.kind == "greedy":
            return GreedyPlayer(name)
        return BeginnerPlayer(name, seed=int(self.options.get("seed", "0")))


def parse_bot_spec(text: str) -> BotSpec:
    """A bot spec from its text: ``KIND`` or ``KIND:KEY=VALUE,...``.

    :raises BotSpecError: naming the unknown kind or option, or a malformed pair.
    """
    kind, _, rest = text.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in OPTIONS or kind not in BOTS:
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
        if key == "seed" and not value.strip().isdigit():
            raise BotSpecError(f"{text!r}: seed is a whole number")
        options[key] = value.strip()
    return BotSpec(kind, options)
