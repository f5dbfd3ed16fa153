"""Drive the real ``tilebag`` program in a pseudo-terminal, as a person would.

:class:`Terminal` starts the command in a pty of a given size (pexpect) and
feeds everything it writes into a terminal emulator (pyte), so a test reads
the screen as it looks, full-screen redraws included, and types keys.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Sequence

import pexpect
import pyte

KEYS = {
    "enter": "\r",
    "tab": "\t",
    "escape": "\x1b",
    "backspace": "\x7f",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "space": " ",
    "ctrl+q": "\x11",
    "ctrl+z": "\x1a",
    "f1": "\x1bOP",
    "f2": "\x1bOQ",
}


class Terminal:
    """One program running in a pseudo-terminal of ``rows`` x ``cols``."""

    def __init__(self, args: Sequence[str], *, rows: int = 45, cols: int = 132, cwd: str | None = None) -> None:
        env = dict(os.environ)
        env["TERM"] = "xterm-256color"
        for pinned in ("COLUMNS", "LINES", "NO_COLOR"):  # the size comes from the pty, and follows a resize
            env.pop(pinned, None)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.transcript = b""
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "tilebag", *args],
            env=env,
            cwd=cwd,
            dimensions=(rows, cols),
            timeout=30,
        )

    def pump(self, seconds: float = 0.1) -> None:
        """Read what the program wrote in the next ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=max(0.0, deadline - time.monotonic()))
            except pexpect.TIMEOUT:
                return
            except pexpect.EOF:
                return
            self.transcript += data
            self.stream.feed(data)
            if time.monotonic() >= deadline:
                return

    def resize(self, rows: int, cols: int) -> None:
        """Resize the terminal, as dragging a window's corner does (the
        program gets SIGWINCH)."""
        self.screen.resize(rows, cols)
        self.child.setwinsize(rows, cols)
        self.pump(0.3)

    def region(self, left: int, right: int | None = None) -> str:
        """The text of columns ``left`` to ``right`` of every line, joined
        without the whitespace and box borders a pane wraps with: what a
        pane there says, whatever its width."""
        box = str.maketrans("", "", "│╭╮╰╯─" + "".join(map(chr, range(0x2580, 0x25A0))))  # borders, scroll bars
        return "".join("".join(line[left:right].translate(box).split()) for line in self.screen.display)

    def text(self) -> str:
        """The screen as lines of text."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        """Wait until the screen shows ``pattern`` (a regular expression);
        fail with the screen's contents if it does not within ``timeout``."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.text())
            if found:
                return found
            if time.monotonic() > deadline or not self.child.isalive() and not self._more():
                raise AssertionError(f"screen never showed {pattern!r}; it shows:\n{self.text()}")
            self.pump(0.1)

    def wait_until(self, holds: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
        """Read on until ``holds()`` is true of the screen (a program draws
        in parts, and a busy machine draws slowly); fail saying ``what``
        never came, with the screen's contents, if it is not within ``timeout``."""
        deadline = time.monotonic() + timeout
        while not holds():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} never came; the screen shows:\n{self.text()}")
            self.pump(0.1)

    def _more(self) -> bool:
        before = len(self.transcript)
        self.pump(0.2)
        return len(self.transcript) > before

    def type(self, text: str) -> None:
        self.child.send(text)
        self.pump(0.05)

    def line(self, text: str) -> None:
        """Type ``text`` and Enter."""
        self.type(text)
        self.press("enter")

    def press(self, *keys: str) -> None:
        for key in keys:
            self.child.send(KEYS[key])
            self.pump(0.05)

    def wait_exit(self, timeout: float = 20.0) -> int:
        """Wait for the program to end; its exit status."""
        deadline = time.monotonic() + timeout
        while self.child.isalive():
            if time.monotonic() > deadline:
                raise AssertionError(f"the program did not end; the screen shows:\n{self.text()}")
            self.pump(0.1)
        self.pump(0.1)
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)
