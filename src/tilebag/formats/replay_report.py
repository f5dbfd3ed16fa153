"""What a replay of a game record found: each :class:`Finding` tied to a
line of the record, gathered in a :class:`CheckReport` (see
:func:`tilebag.formats.replay.check`), or raised as a :class:`ReplayError`.

>>> finding = Finding(Severity.WARNING, 4, ">b: AFM H6 FA.M +9 9", "not in tiny: FARM")
>>> finding.format("x.gcg")
'x.gcg:4: >b: AFM H6 FA.M +9 9: warning: not in tiny: FARM'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from tilebag.errors import TilebagError
from tilebag.game import Game


class Severity(enum.Enum):
    ERROR = "error"
    """The record disagrees with the rules."""
    WARNING = "warning"
    """Worth knowing, but the record can stand (a phony, an impossible rack)."""


@dataclass(frozen=True)
class Finding:
    """One thing a check found, tied to a line of the record."""

    severity: Severity
    line: int
    event: str
    """The event as GCG text (empty for findings about the whole record)."""
    message: str
    fatal: bool = False
    """True when the replay could not go on past this event."""

    def format(self, source: str | None = None) -> str:
        where = f"{source or '<record>'}:{self.line}"
        label = "" if self.severity is Severity.ERROR else "warning: "
        event = f" {self.event}:" if self.event else ""
        return f"{where}:{event} {label}{self.message}"


@dataclass
class CheckReport:
    """What :func:`check` found."""

    source: str | None
    findings: list[Finding] = field(default_factory=list)
    game: Game | None = None
    """The game as far as it could be replayed."""

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.WARNING]

    @property
    def ok(self) -> bool:
        """True when every recorded figure and placement agrees with the rules."""
        return not self.errors


class ReplayError(TilebagError, ValueError):
    """A record that disagrees with the rules (raised by :func:`replay`)."""

    def __init__(self, finding: Finding, source: str | None = None) -> None:
        super().__init__(finding.format(source))
        self.finding = finding
