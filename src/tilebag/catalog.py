"""Data found by name: tile sets and board layouts.

A game record or a position names its tile set and its board (``#tile-
distribution polish``, ``ld polish;``, ``bdn CrosswordGame;``). Those names
come from whoever wrote the file, so they are only ever looked up among
names tilebag knows: the data files it ships, and the files the user chose
on the command line (``--alphabet FILE``), which :meth:`Catalog.load_file`
reads and registers under their file name. A name is never a path, so a
record cannot make tilebag open a file.

>>> from tilebag.alphabet import ALPHABETS
>>> ALPHABETS.get("Polish").name
'polish'
>>> ALPHABETS.get("/etc/passwd")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tilebag.errors.FormatError: unknown tile set '/etc/passwd'; known: english, french, german, polish, spanish...
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from tilebag.errors import FormatError, quote

T = TypeVar("T")

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
"""What a name of a tile set or a layout may be (compared in lower case)."""

MAX_FILE_BYTES = 1 << 20
"""The largest tile set or layout file read (they are a few hundred bytes)."""


class Catalog(Generic[T]):
    """The named data of one kind: shipped files in the package folder
    ``data/<folder>/NAME.txt``, and files registered by the user.

    ``parse(name, text, source)`` makes the data from a file's text.
    """

    def __init__(self, kind: str, folder: str, parse: Callable[[str, str, str], T]) -> None:
        self.kind = kind
        """What the data is called in messages (``tile set``)."""
        self._folder = folder
        self._parse = parse
        self._shipped: dict[str, T] = {}
        self._registered: dict[str, T] = {}

    def shipped_names(self) -> list[str]:
        """The names of the files that ship with tilebag, sorted."""
        folder = importlib.resources.files("tilebag") / "data" / self._folder
        return sorted(p.name[: -len(".txt")] for p in folder.iterdir() if p.name.endswith(".txt"))

    def names(self) -> list[str]:
        """Every name :meth:`get` knows: shipped, then registered."""
        shipped = self.shipped_names()
        return shipped + sorted(n for n in self._registered if n not in shipped)

    def get(self, name: str) -> T:
        """The data of this name (any case).

        :raises FormatError: for a name that is neither shipped nor registered,
            listing the known names.
        """
        key = name.lower()
        if NAME.fullmatch(key):
            if key in self._registered:
                return self._registered[key]
            if key in self._shipped:
                return self._shipped[key]
            if key in self.shipped_names():
                resource = importlib.resources.files("tilebag") / "data" / self._folder / f"{key}.txt"
                value = self._shipped[key] = self._parse(key, resource.read_text(encoding="utf-8"), f"{key}.txt")
                return value
        raise FormatError(f"unknown {self.kind} {quote(name)}; known: {', '.join(self.names())}")

    def load_file(self, path: str | Path) -> T:
        """Read a data file the user chose and register it under its file
        name (without ``.txt``), so records and rules can name it.

        Only the command line and the library's callers give paths; nothing
        read from a record or a position is ever passed here.

        :raises FormatError: when the file cannot be read, is malformed, is
            larger than :data:`MAX_FILE_BYTES`, its name is not letters,
            digits, ``-`` and ``_``, or it is named like a shipped file
            whose data differs.
        """
        path = Path(path)
        source = str(path)
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise FormatError(f"{size} bytes: a {self.kind} file is at most {MAX_FILE_BYTES}", source=source)
            data = path.read_bytes()
        except OSError as err:
            raise FormatError(f"cannot read: {err.strerror or err}", source=source) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data[: err.start].count(b"\n") + 1
            raise FormatError(f"not UTF-8 text (byte {data[err.start]:#04x})", line=line, source=source) from None
        name = path.name[: -len(".txt")] if path.name.lower().endswith(".txt") else path.name
        key = name.lower()
        if not NAME.fullmatch(key):
            raise FormatError(
                f"the file name {quote(name)} must be letters, digits, '-' and '_' (at most 40): "
                f"it names the {self.kind} in game records",
                source=source,
            )
        value = self._parse(key, text, source)
        if key in self.shipped_names():
            if value != self.get(key):
                raise FormatError(
                    f"{key!r} is the name of the {self.kind} tilebag ships, with other data: rename the file",
                    source=source,
                )
            return self.get(key)
        self._registered[key] = value
        return value
