"""Running the real ``tilebag`` command from tests, and writing its input files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def tilebag(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``tilebag ARGS`` in a process of its own: its exit status and output."""
    return subprocess.run(
        [sys.executable, "-m", "tilebag", *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def write(folder: Path, name: str, data: str | bytes) -> Path:
    """A file in ``folder`` holding ``data`` (text as UTF-8)."""
    path = folder / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path
