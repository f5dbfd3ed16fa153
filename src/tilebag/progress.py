"""Progress reporting for long work (lexicon compilation, self-play, analysis).

A :class:`Progress` draws a one-line bar on standard error when it is a
terminal, and stays silent otherwise (logs and pipes get no carriage-return
noise). It has no dependencies, so the core stays importable on its own.

>>> import io
>>> out = io.StringIO()
>>> with Progress(4, "counting", stream=out, enabled=True) as bar:
...     for _ in range(4):
...         bar.advance()
>>> out.getvalue().rstrip().endswith("counting 4/4 100%")
True
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

_WIDTH = 24


class Progress:
    """A progress bar for ``total`` steps (``total=0`` when unknown).

    :param enabled: draw the bar; by default only when ``stream`` is a terminal.
    """

    def __init__(self, total: int, label: str, *, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.started = time.perf_counter()
        self._last_draw = 0.0
        self.note = ""
        """Shown after the count: a rate, workers alive."""

    def __enter__(self) -> Progress:
        self._draw(force=True)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def advance(self, steps: int = 1) -> None:
        """Record ``steps`` more steps done (redraws at most 10 times a second)."""
        self.done += steps
        self._draw()

    def update(self, done: int) -> None:
        """Set the number of steps done."""
        self.done = done
        self._draw()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if self.enabled:
            self._draw(force=True)
            self.stream.write("\n")
            self.stream.flush()
            self.enabled = False

    @property
    def elapsed(self) -> float:
        """Seconds since the bar was created."""
        return time.perf_counter() - self.started

    def _draw(self, *, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last_draw < 0.1 and self.done < self.total:
            return
        self._last_draw = now
        if self.total > 0:
            fraction = min(1.0, self.done / self.total)
            filled = int(fraction * _WIDTH)
            bar = "#" * filled + "." * (_WIDTH - filled)
            text = f"\r[{bar}] {self.elapsed:5.1f}s {self.label} {self.done}/{self.total} {fraction:.0%}"
        else:
            text = f"\r{self.elapsed:5.1f}s {self.label} {self.done}"
        if self.note:
            text += f"  {self.note}"
        self.stream.write(text)
        self.stream.flush()
