"""Running the real ``tilebag`` command from tests, and writing its input files."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path


def tilebag(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``tilebag ARGS`` in a process of its own: its exit status and output."""
    return subprocess.run(
        [sys.executable, "-m", "tilebag", *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def interrupted_under_way(*args: str, timeout: float = 120) -> tuple[int, str, str]:
    """``tilebag ARGS`` stopped by Ctrl+C as a terminal sends it (to its
    whole process group), once its progress bar shows a step done: however
    slow the machine, there is work to keep. Its standard error is a
    terminal, so the bar is drawn. The exit status, the output and what the
    terminal showed."""
    master, slave = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "tilebag", *args], stdout=subprocess.PIPE, stderr=slave, text=True,
        start_new_session=True,
        # As from a terminal: a shell's background job starts with Ctrl+C ignored,
        # and a program keeps a signal its parent chose to ignore.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(slave)
    shown: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the process closed the terminal
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + timeout
        while not re.search(rb" [1-9][0-9]*/[0-9]+ ", b"".join(shown)):
            assert process.poll() is None, f"tilebag {' '.join(args)} ended first: {b''.join(shown)!r}"
            assert time.monotonic() < deadline, f"no step done in {timeout} s: {b''.join(shown)!r}"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out = process.communicate(timeout=timeout)[0]
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(10)
        os.close(master)
    return process.returncode, out, b"".join(shown).decode(errors="replace")


def write(folder: Path, name: str, data: str | bytes) -> Path:
    """A file in ``folder`` holding ``data`` (text as UTF-8)."""
    path = folder / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path
