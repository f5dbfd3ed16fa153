"""Time in a game: the turn timer, the game clocks and their penalty.

One module keeps time for everything that does: :class:`GameClocks` is
what a :class:`~tilebag.game.Game` counts (the seconds each player used,
the time the turn in progress has taken, the overtime penalty at the end);
:class:`TurnTimer` is how a :class:`~tilebag.table.Table` measures a turn
as it is played, from a clock it is given; :class:`RecordedTimes` is how a
replay spends, move by move, the time a record says each player used.

>>> from tilebag.rules import find_rules
>>> clocks = GameClocks(find_rules("tournament"), players=2)
>>> clocks.spend(0, 1530.0)
>>> clocks.left(0), clocks.overtime_penalties()
(-30.0, [10, 0])
>>> format_clock(clocks.left(0)), format_seconds(1500.0)
('-0:30', '25 min')
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tilebag.record import EventKind, GameRecord
from tilebag.rules import Rules

Now = Callable[[], float]
"""Where time is read, in seconds (:func:`time.monotonic`; tests give a
clock they move on themselves)."""


def format_clock(seconds: float) -> str:
    """Seconds as minutes and seconds, rounded up (time left is not up
    until it is all gone).

    >>> format_clock(125), format_clock(0.4), format_clock(-35.2), format_clock(3600)
    ('2:05', '0:01', '-0:36', '60:00')
    """
    whole = math.ceil(abs(seconds) - 1e-9)
    sign = "-" if seconds < 0 and whole else ""
    return f"{sign}{whole // 60}:{whole % 60:02d}"


def format_seconds(seconds: float) -> str:
    """A duration from the rules: ``3 min``, ``90 s``.

    >>> format_seconds(180.0), format_seconds(90.0), format_seconds(1500.0)
    ('3 min', '90 s', '25 min')
    """
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


@dataclass
class GameClocks:
    """The time each player has used, and the turn in progress, under the
    rules' turn timer and game clock (either may be absent: then time is
    still counted, and costs nothing)."""

    rules: Rules
    used: list[float]
    """Seconds each player has used, in seat order."""
    turn_elapsed: float = 0.0
    """Seconds the turn in progress has taken so far (recycles and blank
    swaps included)."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.used = [0.0] * players
        self.turn_elapsed = 0.0

    @property
    def timed(self) -> bool:
        """True when the rules have a turn timer or a game clock."""
        return self.rules.turn_time is not None or self.rules.game_clock is not None

    def state(self) -> tuple[tuple[float, ...], float]:
        """Everything, to put back with :meth:`restore`."""
        return tuple(self.used), self.turn_elapsed

    def restore(self, state: tuple[tuple[float, ...], float]) -> None:
        used, self.turn_elapsed = state
        self.used = list(used)

    def copy(self) -> GameClocks:
        """An independent copy (the same rules).

        >>> from tilebag.rules import Rules
        >>> clocks = GameClocks(Rules(), 2)
        >>> twin = clocks.copy()
        >>> clocks.spend(0, 12.5)
        >>> twin.used, clocks.used
        ([0.0, 0.0], [12.5, 0.0])
        """
        twin = GameClocks.__new__(GameClocks)
        twin.rules, twin.used, twin.turn_elapsed = self.rules, self.used.copy(), self.turn_elapsed
        return twin

    def over_turn_time(self, seconds: float) -> bool:
        """True when ``seconds`` more would take the turn past the turn timer."""
        limit = self.rules.turn_time
        return limit is not None and self.turn_elapsed + seconds > limit

    def turn_left(self) -> float | None:
        """What is left of the turn timer (``None`` without one)."""
        limit = self.rules.turn_time
        return None if limit is None else max(0.0, limit - self.turn_elapsed)

    def spend(self, seat: int, seconds: float | None) -> None:
        """``seat`` took ``seconds`` (the player to move, on their turn)."""
        if seconds:
            self.used[seat] += seconds
            self.turn_elapsed += seconds

    def end_turn(self) -> None:
        self.turn_elapsed = 0.0

    def left(self, seat: int, elapsed: float = 0.0) -> float:
        """Seconds left on ``seat``'s game clock after ``elapsed`` more
        (negative once over; infinite without a game clock)."""
        limit = self.rules.game_clock
        if limit is None:
            return math.inf
        return limit - self.used[seat] - elapsed

    def overtime_penalties(self, *, counted: bool = True) -> list[int]:
        """Points each player loses on the game clock: the rules' penalty
        for every minute, or part of one, used over the clock (none when not
        ``counted``: a Finish Line game that ended at the line, a game a
        player resigned)."""
        clock, per_minute = self.rules.game_clock, self.rules.overtime_penalty
        if clock is None or not per_minute or not counted:
            return [0] * len(self.used)
        return [math.ceil(max(0.0, used - clock) / 60) * per_minute for used in self.used]


class TurnTimer:
    """Times the turn being played, from ``now`` (seconds): started when a
    turn is new (a challenge or a lost turn does not start one), restarted
    after an action that keeps the turn (a recycle, a blank swap), whose
    time the game has counted.

    >>> t = [100.0]
    >>> timer = TurnTimer(lambda: t[0])
    >>> timer.start((0, 0))
    >>> t[0] = 112.5
    >>> timer.elapsed((0, 0)), timer.elapsed((1, 1))
    (12.5, 0.0)
    """

    def __init__(self, now: Now) -> None:
        self.now = now
        self._timing: tuple[object, float] | None = None

    def start(self, turn: object) -> None:
        """Start timing ``turn`` (any key that changes with the turn) when it is new."""
        if self._timing is None or self._timing[0] != turn:
            self._timing = (turn, self.now())

    def restart(self, turn: object) -> None:
        """Time the next action of ``turn`` from now."""
        self._timing = (turn, self.now())

    def reset(self) -> None:
        """Forget the turn timed (after an undo)."""
        self._timing = None

    def elapsed(self, turn: object) -> float:
        """Seconds ``turn`` has taken since it, or its last action, began."""
        self.start(turn)
        assert self._timing is not None
        return max(0.0, self.now() - self._timing[1])


class RecordedTimes:
    """The seconds to spend on each replayed move so that the clocks reach
    what the record says each player used (:attr:`GameRecord.clock_used`),
    or else just enough over the game clock for its overtime penalties.
    Without either, moves take no time (and a time-out what was left of its
    turn)."""

    def __init__(self, record: GameRecord, rules: Rules, players: int) -> None:
        self.turn_time = rules.turn_time
        self.remaining: list[float] | None = None
        self.problem: str | None = None
        """Why the record's clock times could not be used, if they could not."""
        used = record.clock_used
        if used is not None:
            if len(used) == players and all(math.isfinite(u) and u >= 0 for u in used):
                self.remaining = list(used)
            else:
                shown = " ".join(f"{u:g}" for u in used)
                self.problem = f"the clock times {shown!r} do not give the seconds of each of the {players} players"
        clock, per_minute = rules.game_clock, rules.overtime_penalty
        if self.remaining is None and clock is not None and per_minute:
            need = [0.0] * players
            for e in record.events:
                if e.kind is EventKind.TIME_PENALTY and e.score < 0 and 0 <= e.player < players:
                    need[e.player] = max(need[e.player], clock + 60 * math.ceil(-e.score / per_minute))
            self.remaining = need
        self.time_outs = Counter(e.player for e in record.events if e.kind is EventKind.TIME_OUT)

    def for_move(self, seat: int, turn_elapsed: float) -> float | None:
        """Seconds for the next move of ``seat``, whose turn has taken
        ``turn_elapsed`` so far."""
        if self.remaining is None:
            return None
        reserved = self.turn_time * self.time_outs[seat] if self.turn_time is not None else 0.0
        budget = self.remaining[seat] - reserved
        if self.turn_time is not None:
            budget = min(budget, self.turn_time - turn_elapsed)
        seconds = max(0.0, budget)
        self.remaining[seat] -= seconds
        return seconds

    def for_time_out(self, seat: int, turn_elapsed: float) -> float | None:
        """Seconds ``seat`` spent on a turn the timer ended (what was left of it)."""
        self.time_outs[seat] -= 1
        if self.remaining is None:
            return None
        left = self.turn_time - turn_elapsed if self.turn_time is not None else 0.0
        seconds = max(0.0, min(left, self.remaining[seat]))
        self.remaining[seat] -= seconds
        return seconds


def parse_seconds(values: Sequence[str]) -> tuple[float, ...] | None:
    """Seconds as written in a record, or ``None`` when one is not a finite
    number of seconds of at least 0.

    >>> parse_seconds(["120", "90.5"]), parse_seconds(["x"]), parse_seconds(["nan"])
    ((120.0, 90.5), None, None)
    """
    try:
        seconds = tuple(float(v) for v in values)
    except ValueError:
        return None
    if not all(math.isfinite(s) and s >= 0 for s in seconds):
        return None
    return seconds
