"""A run's finished results kept in a file, so that a stopped run goes on.

The file holds one JSON object per line: first a header naming the run
(its settings), then one line per result, written as each comes back. A
run started again with the same file reads the results there and does only
the rest; a file of another run is refused. A last line cut short (the
program was killed while writing it) is dropped: its result is done again.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "pairs.jsonl"
>>> kept = ResultsFile(path, {"match": ["static", "greedy"]})
>>> kept.load()
[]
>>> kept.add({"seed": 1, "won": 2})
>>> ResultsFile(path, {"match": ["static", "greedy"]}).load()
[{'seed': 1, 'won': 2}]
>>> ResultsFile(path, {"match": ["greedy", "static"]}).load()
Traceback (most recent call last):
...
tilebag.errors.FormatError: ...pairs.jsonl:1: it holds the results of another run: {"match": ["static", "greedy"]}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tilebag.errors import FormatError


class ResultsFile:
    """Results as JSON lines after a header (see the module notes)."""

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = header

    def load(self) -> list[dict[str, Any]]:
        """The results kept, in the order written (a new file gets its header).

        :raises FormatError: for a file of another run, or a line that is
            not a result (naming the line).
        """
        if not self.path.exists():
            self.path.write_text(json.dumps(self.header) + "\n", encoding="utf-8")
            return []
        results = []
        with self.path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                try:
                    data = json.loads(line)
                except json.JSONDecodeError:
                    if number > 1 and not line.endswith("\n"):
                        break  # the last line, cut short by a stop
                    raise FormatError("not a JSON line", source=str(self.path), line=number) from None
                if number == 1:
                    if data != self.header:
                        raise FormatError(f"it holds the results of another run: {json.dumps(data)}",
                                          source=str(self.path), line=1)
                elif not isinstance(data, dict):
                    raise FormatError("not a result", source=str(self.path), line=number)
                else:
                    results.append(data)
        return results

    def add(self, result: dict[str, Any]) -> None:
        """Keep one more result (one line, written at once)."""
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(result) + "\n")
