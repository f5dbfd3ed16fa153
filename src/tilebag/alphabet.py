"""Tile sets: which tiles a language plays with, their labels, counts and scores.

A tile is a small int (:data:`Tile`). ``0`` is the blank on a rack (and a
played-through square inside a move, and an empty square on the board);
``1..n`` are the letters in the order of the tile set's data file; a blank
that has been given a letter is ``BLANK_BIT | letter``.

Tile sets are data files in ``tilebag/data/alphabets/`` (one tile per line:
label, count, score, vowel or consonant, aliases), so another language needs
no code. Labels are strings, so two-letter tiles such as Spanish ``CH`` work;
in text such a tile may also be written in brackets, ``[CH]``.

>>> english = load_alphabet("english")
>>> english.parse_word("QaT")
(17, 129, 20)
>>> english.format_word((17, 129, 20))
'QaT'
>>> english.score(17), english.score(129)
(10, 0)
>>> english.total_tiles, sum(english.score(t) * n for t, n in enumerate(english.counts))
(100, 187)
>>> spanish = load_alphabet("spanish")
>>> [spanish.label(t) for t in spanish.parse_word("CHURRO")]
['CH', 'U', 'RR', 'O']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

from tilebag.catalog import Catalog
from tilebag.errors import FormatError, InvalidMoveError, quote

Tile: TypeAlias = int
"""A tile code: 0 blank (on a rack) or empty/played-through, 1..n letters,
``BLANK_BIT | n`` a blank standing for letter n."""

BLANK: Tile = 0
"""The blank on a rack; also an empty square on a board and a played-through
square inside a move."""

BLANK_BIT: int = 0x80
"""Set on a letter code when a blank stands for that letter."""

BLANK_LABEL = "?"

_SMALL_NUMBER = re.compile(r"[0-9]{1,3}")


def is_designated_blank(tile: Tile) -> bool:
    """True for a blank that stands for a letter.

    >>> is_designated_blank(0x81), is_designated_blank(1), is_designated_blank(0)
    (True, False, False)
    """
    return tile & BLANK_BIT != 0


def letter_of(tile: Tile) -> Tile:
    """The letter a tile shows, without the blank bit (0 stays 0).

    >>> letter_of(0x81), letter_of(5)
    (1, 5)
    """
    return tile & ~BLANK_BIT


def rack_tile(tile: Tile) -> Tile:
    """The tile as it sits on a rack: a designated blank becomes the blank.

    >>> rack_tile(0x81), rack_tile(5)
    (0, 5)
    """
    return BLANK if tile & BLANK_BIT else tile


@dataclass(frozen=True, eq=False)
class Alphabet:
    """A language's tile set. Load one with :func:`load_alphabet`."""

    name: str
    """The name it is known by, e.g. ``"english"``."""
    labels: tuple[str, ...]
    """Label of each tile code; ``labels[0]`` is ``"?"`` (the blank)."""
    counts: tuple[int, ...]
    """How many tiles of each code the bag holds (``counts[0]``: blanks)."""
    scores: tuple[int, ...]
    """Face value of each tile code (a blank scores 0)."""
    vowels: frozenset[Tile]
    """The letter codes that are vowels."""
    aliases: dict[str, Tile] = field(default_factory=dict)
    """Other spellings of a tile (upper case), e.g. a digit for Spanish ``CH``."""

    def __post_init__(self) -> None:
        tokens: dict[str, Tile] = {}
        for code, label in enumerate(self.labels):
            if code == BLANK:
                continue
            tokens[label.upper()] = code
            tokens[label.lower()] = code | BLANK_BIT
        for alias, code in self.aliases.items():
            tokens.setdefault(alias.upper(), code)
        object.__setattr__(self, "_tokens", tokens)
        object.__setattr__(self, "_longest", max(len(t) for t in tokens))

    def __repr__(self) -> str:
        return f"load_alphabet({self.name!r})"

    def __hash__(self) -> int:
        return hash((self.name, self.labels, self.counts, self.scores))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Alphabet):
            return NotImplemented
        return (self.name, self.labels, self.counts, self.scores, self.vowels) == (
            other.name,
            other.labels,
            other.counts,
            other.scores,
            other.vowels,
        )

    @property
    def size(self) -> int:
        """Number of tile codes, the blank included (English: 27)."""
        return len(self.labels)

    @property
    def letters(self) -> range:
        """The letter codes ``1..n``."""
        return range(1, len(self.labels))

    @property
    def total_tiles(self) -> int:
        """How many tiles a full bag holds (English: 100)."""
        return sum(self.counts)

    def label(self, tile: Tile) -> str:
        """Text of a tile: its label, lower case for a designated blank,
        ``?`` for the blank on a rack.

        >>> load_alphabet("english").label(0x81)
        'a'
        """
        if tile & BLANK_BIT:
            return self.labels[tile & ~BLANK_BIT].lower()
        return self.labels[tile]

    def score(self, tile: Tile) -> int:
        """Face value of a tile as placed: a blank, designated or not, scores 0."""
        if tile & BLANK_BIT:
            return 0
        return self.scores[tile]

    def is_vowel(self, tile: Tile) -> bool:
        """True when the tile (or the letter a blank stands for) is a vowel."""
        return letter_of(tile) in self.vowels

    def tile(self, label: str) -> Tile:
        """The tile code for one label (``"?"`` is the blank, lower case a
        designated blank).

        :raises InvalidMoveError: when the label is not a tile of this set.
        """
        tiles = self.parse_word(label) if label != BLANK_LABEL else (BLANK,)
        if len(tiles) != 1:
            raise InvalidMoveError(f"{quote(label)} is not one tile of the {self.name} tile set")
        return tiles[0]

    def _tokenize(self, text: str, *, allow: str = "") -> list[tuple[str, Tile]]:
        """Split text into (token, tile) pairs. Characters in ``allow`` are
        returned as themselves with tile -1."""
        tokens: dict[str, Tile] = self._tokens  # type: ignore[attr-defined]
        longest: int = self._longest  # type: ignore[attr-defined]
        out: list[tuple[str, Tile]] = []
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch in allow:
                out.append((ch, -1))
                i += 1
                continue
            if ch == "[":
                end = text.find("]", i)
                if end < 0:
                    raise InvalidMoveError(f"{quote(text)}: '[' without ']'")
                inner = text[i + 1 : end]
                code = tokens.get(inner)
                if code is None:
                    code = tokens.get(inner.upper())
                if code is None:
                    raise InvalidMoveError(f"{quote(text)}: {quote(inner)} is not a tile of the {self.name} tile set")
                out.append((text[i : end + 1], code))
                i = end + 1
                continue
            for length in range(min(longest, n - i), 0, -1):
                piece = text[i : i + length]
                code = tokens.get(piece)
                if code is not None:
                    out.append((piece, code))
                    i += length
                    break
            else:
                raise InvalidMoveError(f"{quote(text)}: {ch!r} is not a tile of the {self.name} tile set")
        return out

    def parse_word(self, text: str) -> tuple[Tile, ...]:
        """Tiles of a word as written on the board: capitals are letters,
        lower case letters are blanks standing for them.

        :raises InvalidMoveError: naming the character that is not a tile.
        """
        return tuple(tile for _, tile in self._tokenize(text))

    def parse_rack(self, text: str) -> list[Tile]:
        """Tiles of a rack: letters in any case, ``?`` for a blank.

        >>> load_alphabet("english").parse_rack("?aB")
        [0, 1, 2]

        :raises InvalidMoveError: naming the character that is not a tile.
        """
        return [BLANK if t == -1 else letter_of(t) for _, t in self._tokenize(text, allow=BLANK_LABEL)]

    def format_word(self, tiles: Iterable[Tile]) -> str:
        """Text of a word; blanks in lower case, tile 0 as ``?``."""
        return "".join(self.label(t) for t in tiles)

    def format_rack(self, tiles: Iterable[Tile]) -> str:
        """Text of a rack in the conventional order: letters in tile-set order,
        blanks last (``AEINRST?``)."""
        ordered = sorted(tiles, key=lambda t: (t == BLANK, t))
        return "".join(self.label(t) for t in ordered)

    def rack_value(self, tiles: Iterable[Tile]) -> int:
        """Sum of the face values of rack tiles (blanks count 0)."""
        return sum(self.score(t) for t in tiles)

    def distribution(self) -> list[Tile]:
        """Every tile of a full bag, in code order."""
        return [code for code, n in enumerate(self.counts) for _ in range(n)]


def _parse_alphabet(name: str, text: str, source: str) -> Alphabet:
    labels: list[str] = []
    counts: list[int] = []
    scores: list[int] = []
    vowels: set[Tile] = set()
    aliases: dict[str, Tile] = {}
    blank: tuple[int, int] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) < 4:
            raise FormatError(
                f"expected 'label count score vowel|consonant [aliases]', got {quote(raw.strip())}",
                line=number,
                source=source,
            )
        label, count_text, score_text, kind, *alias_list = fields
        if not (_SMALL_NUMBER.fullmatch(count_text) and _SMALL_NUMBER.fullmatch(score_text)):
            raise FormatError(
                f"count and score must be whole numbers from 0 to 999, got {quote(raw.strip())}",
                line=number,
                source=source,
            )
        count, score = int(count_text), int(score_text)
        if kind not in ("vowel", "consonant"):
            raise FormatError(f"expected 'vowel' or 'consonant', got {quote(kind)}", line=number, source=source)
        if label == BLANK_LABEL:
            blank = (count, score)
            continue
        if label != label.upper() or label.upper() == label.lower():
            raise FormatError(f"a tile label must be upper-case letters, got {quote(label)}", line=number, source=source)
        if label in labels:
            raise FormatError(f"tile {quote(label)} is listed twice", line=number, source=source)
        labels.append(label)
        counts.append(count)
        scores.append(score)
        code = len(labels)
        if kind == "vowel":
            vowels.add(code)
        for alias in alias_list:
            aliases[alias.upper()] = code
    if not labels:
        raise FormatError("the tile set lists no tiles", source=source)
    if len(labels) >= BLANK_BIT:
        raise FormatError(f"a tile set holds at most {BLANK_BIT - 1} letters", source=source)
    blank_count, _ = blank or (0, 0)
    return Alphabet(
        name=name,
        labels=(BLANK_LABEL, *labels),
        counts=(blank_count, *counts),
        scores=(0, *scores),
        vowels=frozenset(vowels),
        aliases=aliases,
    )


ALPHABETS: Catalog[Alphabet] = Catalog("tile set", "alphabets", _parse_alphabet)
"""The tile sets known by name: those that ship with tilebag and those read
from files the user chose (:func:`load_alphabet_file`)."""


def alphabet_names() -> list[str]:
    """Names of the tile sets :func:`load_alphabet` knows: those that ship
    with tilebag, then those read from files.

    >>> "english" in alphabet_names() and "polish" in alphabet_names()
    True
    """
    return ALPHABETS.names()


def load_alphabet(name: str = "english") -> Alphabet:
    """A tile set by name (any case): one that ships with tilebag, or one
    read before by :func:`load_alphabet_file`. A name is never a path, so
    names read from records and positions are safe to pass.

    :raises FormatError: for an unknown name, listing the known ones.
    """
    return ALPHABETS.get(name)


def load_alphabet_file(path: str | Path) -> Alphabet:
    """Read a tile set file the user chose (``--alphabet FILE``), named
    after the file (``tiny.txt`` is ``tiny``), from then on known to
    :func:`load_alphabet` by that name.

    :raises FormatError: naming the line of a malformed file, or a file
        that cannot be read (see :meth:`tilebag.catalog.Catalog.load_file`).
    """
    return ALPHABETS.load_file(path)


def tile_counts(tiles: Iterable[Tile], size: int) -> list[int]:
    """How many of each rack tile code a collection holds (designated blanks
    count as blanks).

    >>> tile_counts([1, 1, 0x82, 0], 4)
    [2, 2, 0, 0]
    """
    counts = [0] * size
    for t in tiles:
        counts[rack_tile(t)] += 1
    return counts


def missing_tiles(needed: Sequence[Tile], have: Sequence[Tile]) -> list[Tile]:
    """The tiles of ``needed`` (as rack tiles) that ``have`` lacks, counting
    repeats.

    >>> missing_tiles([1, 1, 0x82], [1, 2])
    [1, 0]
    """
    pool: dict[Tile, int] = {}
    for t in have:
        pool[t] = pool.get(t, 0) + 1
    missing: list[Tile] = []
    for t in needed:
        r = rack_tile(t)
        if pool.get(r, 0):
            pool[r] -= 1
        else:
            missing.append(r)
    return missing
