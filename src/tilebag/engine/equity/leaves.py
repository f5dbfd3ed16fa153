"""Leave values: what the tiles kept on the rack after a play are worth.

A bot values a play as its score plus the value of its *leave*, the rack
tiles it keeps. Every implementation of :class:`LeaveValues` answers
:meth:`~LeaveValues.value` for a sequence of rack tiles (``0`` the blank,
``1..n`` letters) in any order, in points; the empty leave is worth ``0.0``.
The move generator asks for every play it finds, so each implementation
memoizes by :func:`leave_key`, the sorted tile bytes of the leave.

Three sources of values:

- :class:`KlvLeaves`, the ``.klv``/``.klv2`` files of wolges, Macondo,
  MAGPIE and Woogles; the default, ``"trained"``, is such a table that
  tilebag trained by self-play for its default lexicon
  (:mod:`tilebag.lab.leave_training`, ``docs/leaves.md``);
- :class:`HeuristicLeaves`, a hand-made rule of thumb (``"heuristic"``),
  the default for a tile set no table was trained for;
- :class:`TableLeaves`, tilebag's own text table (``LEAVE VALUE`` lines).

:func:`load_leaves` picks one by name or file name.

>>> english = load_alphabet("english")
>>> leaves = load_leaves("heuristic", english)
>>> rack = english.parse_rack
>>> leaves.value(rack("?")) > leaves.value(rack("S")) > leaves.value(rack("E")) > leaves.value(rack("V"))
True
>>> leaves.value(rack("SRE")) == leaves.value(rack("ERS")) > leaves.value(rack("UUV"))
True
>>> leaves.value([])
0.0

**The KLV format** (Kurnia Leave Values, described in wolges' ``details.txt``).
All numbers are little-endian::

    u32         node count N
    N x u32     a DAWG-only KWG (see :mod:`tilebag.kwg`) of the leaves, each
                leave a "word" of its tiles sorted in increasing order, so
                the blank (tile 0, allowed here) comes first
    u32         value count M, which equals the number of leaves
    M values    .klv (KLV1): int16, the value times 256
                .klv2 (KLV2): float32

The two kinds are told apart by the number of bytes after the value count
(``2*M`` or ``4*M``). The values are in the sorted order of the leaves, so
the value of a leave is ``values[i]`` where ``i`` is the leave's rank among
all the graph's words. The rank comes from per-node word counts: the number
of words spelled from a node's sibling list onwards is 1 when the node
accepts, plus the count of the list its arc leads to, plus the count of the
next sibling when the node does not end its list. Walking to a leave adds,
at each step, the words of the siblings skipped over (``count[first] -
count[found]``) and 1 for each accepted proper prefix. Leaves missing from
the file are worth 0.0.

**The text table.** One leave and its value per line, separated by
whitespace or a comma; the leave in letters in any order and case, ``?``
for the blank (``[CH]`` for a multi-letter tile when needed); ``#`` starts a
comment::

    # leave value
    ?S 31.2
    ERS, 10.5
"""

from __future__ import annotations

import functools
import math
import re
import struct
import sys
from array import array
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Protocol, runtime_checkable

from tilebag.alphabet import BLANK, BLANK_BIT, Alphabet, Tile, load_alphabet
from tilebag.engine.equity.leave_writers import KLV1_SCALE, Key, dumps_klv, dumps_klv2, normalised_table
from tilebag.errors import FormatError, InvalidMoveError, quote
from tilebag.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, Kwg
from tilebag.rules import MAX_RACK_SIZE

__all__ = [
    "DEFAULT_LEAVES",
    "HEURISTIC",
    "TRAINED_TABLES",
    "HeuristicLeaves",
    "KlvLeaves",
    "LeaveValues",
    "TableLeaves",
    "dumps_klv",
    "dumps_klv2",
    "dumps_table",
    "leave_key",
    "load_leaves",
    "trained_leaves",
]

DEFAULT_LEAVES = "trained"
"""Name of the leave values used when none is chosen: the table tilebag
trained for its default lexicon (see :data:`TRAINED_TABLES`), and the
heuristic for a tile set it has none for."""

HEURISTIC = "heuristic"
"""Name of the hand-made values, :class:`HeuristicLeaves`."""

TRAINED_TABLES = {"english": "kjxqz.klv"}
"""The trained tables shipped in ``tilebag/data/leaves``, by tile set: made
by ``tilebag leaves train`` (see ``docs/leaves.md``)."""

_CACHE_LIMIT = 1 << 20
"""Memo entries kept before a cache starts afresh (bounds memory for 9-tile racks)."""

def leave_key(leave: Sequence[Tile]) -> bytes:
    """The canonical form of a leave: its tiles sorted, as bytes (blanks first).

    >>> leave_key([19, 5, 0, 18])
    b'\\x00\\x05\\x12\\x13'
    """
    return bytes(sorted(leave))


@runtime_checkable
class LeaveValues(Protocol):
    """What a bot needs of leave values: a name and the value of a leave."""

    name: str
    """What the values are known by: ``"heuristic"`` or the file they came from."""

    def value(self, leave: Sequence[Tile]) -> float:
        """The value in points of keeping these rack tiles (any order;
        the empty leave is worth 0.0)."""
        ...


class _MemoLeaves:
    """Memoizes :meth:`value` by :func:`leave_key`; subclasses supply
    :meth:`_compute` for a sorted key of rack tiles."""

    name: str

    def __init__(self) -> None:
        self._cache: dict[bytes, float] = {b"": 0.0}

    def value(self, leave: Sequence[Tile]) -> float:
        """The value of a leave (rack tiles in any order), in points.

        A designated blank (``BLANK_BIT | letter``) counts as the blank.
        """
        key = bytes(sorted(leave))
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        tiles = key
        if key[-1] & BLANK_BIT:
            tiles = bytes(sorted(BLANK if t & BLANK_BIT else t for t in key))
        result = float(self._compute(tiles))
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache = {b"": 0.0}
        self._cache[key] = result
        return result

    def _compute(self, key: bytes) -> float:
        raise NotImplementedError


# -- the heuristic -------------------------------------------------------------

_ENGLISH_TILE_VALUES: dict[str, float] = {
    "?": 25.0,
    "A": 1.0,
    "B": -2.0,
    "C": 0.5,
    "D": 0.5,
    "E": 2.5,
    "F": -2.0,
    "G": -2.5,
    "H": 1.0,
    "I": -0.5,
    "J": -1.5,
    "K": -0.5,
    "L": -0.5,
    "M": 0.5,
    "N": 0.5,
    "O": -1.5,
    "P": -0.5,
    "Q": -3.0,  # -7 alone: the Q-without-U penalty below comes on top
    "R": 1.0,
    "S": 8.0,
    "T": 0.0,
    "U": -4.5,
    "V": -5.5,
    "W": -3.5,
    "X": 3.5,
    "Y": -0.5,
    "Z": 5.0,
}
"""Single-tile values for English, rounded from published leave tables."""

BLANK_VALUE = 25.0
REPEAT_PENALTY_CONSONANT = 3.0
REPEAT_PENALTY_VOWEL = 4.0
REPEAT_PENALTY_BLANK = 8.0
THIRD_COPY_FACTOR = 2.0
BALANCE_TARGET = 0.4
BALANCE_WEIGHT = 4.5
ONE_KIND_PENALTY_CONSONANT = 1.5
ONE_KIND_PENALTY_VOWEL = 2.5
Q_WITHOUT_U_PENALTY = 4.0


def _derived_tile_value(alphabet: Alphabet, tile: Tile) -> float:
    """A single-tile value from a tile's count and score, for tile sets with
    no table of their own. Common vowels and common one-point consonants are
    worth a little, rare vowels and awkward middle-value consonants cost;
    the 8-10 point tiles are taken as neutral (their scoring offsets their
    clumsiness)."""
    letters = sum(alphabet.counts[1:]) or 1
    share = 100.0 * alphabet.counts[tile] / letters
    score = alphabet.scores[tile]
    if tile in alphabet.vowels:
        raw = 0.6 * (share - 8.5)
        return max(-5.0, min(3.0, raw))
    if score >= 8:
        return 0.0
    raw = 0.3 * (share - 3.0) - 0.8 * (score - 1)
    return max(-6.0, min(2.0, raw))


class HeuristicLeaves(_MemoLeaves):
    """Leave values from a few simple rules, until a trained table exists.

    This is a stopgap, not a trained table: its numbers are in points and
    roughly on the scale of published leave values (``?`` about 25, ``S``
    about 8, ``Q`` about -7), but a real ``.klv2`` file plays better. The
    value of a leave is the sum of:

    - each tile's own value (:attr:`tile_values`): for English a small table
      rounded from published single-tile leaves (``?`` 25, ``S`` 8, ``Z`` 5,
      ``X`` 3.5, ``E`` 2.5 ... ``U`` -4.5, ``V`` -5.5); for other tile sets
      the blank is 25 and letters are derived from their counts and scores;
    - a penalty for each repeated tile: 3 for a consonant, 4 for a vowel, 8
      for a second blank, doubled for the third and later copies;
    - a vowel/consonant balance term over the letters (blanks count as
      neither): ``-4.5 * n * (vowel share - 0.4) ** 2`` for ``n >= 2``
      letters, and, from three letters on, a further 1.5 (consonants) or 2.5
      (vowels) per letter beyond two when they are all of one kind;
    - 4 off for a ``Q`` without a ``U`` (when the tile set has both).

    >>> leaves = HeuristicLeaves(load_alphabet("english"))
    >>> rack = leaves.alphabet.parse_rack
    >>> [round(leaves.value(rack(text))) for text in ("?", "S", "ERS", "Q", "VV", "IIU")]
    [25, 8, 11, -7, -15, -17]
    >>> leaves.value(rack("ERS")) > leaves.value(rack("UUV"))
    True
    """

    name = "heuristic"

    def __init__(self, alphabet: Alphabet | None = None) -> None:
        super().__init__()
        self.alphabet = load_alphabet("english") if alphabet is None else alphabet
        """The tile set the values are for."""
        english = load_alphabet("english")
        alphabet = self.alphabet
        values = [BLANK_VALUE]
        if alphabet.labels == english.labels and alphabet.scores == english.scores:
            values += [_ENGLISH_TILE_VALUES[label] for label in alphabet.labels[1:]]
        else:
            values += [_derived_tile_value(alphabet, tile) for tile in alphabet.letters]
        self.tile_values: tuple[float, ...] = tuple(values)
        """Each tile's own value (index 0: the blank)."""
        penalties = [REPEAT_PENALTY_BLANK]
        penalties += [
            REPEAT_PENALTY_VOWEL if tile in alphabet.vowels else REPEAT_PENALTY_CONSONANT for tile in alphabet.letters
        ]
        self.repeat_penalties: tuple[float, ...] = tuple(penalties)
        """The penalty for a second copy of each tile (index 0: the blank)."""
        tokens = {label: code for code, label in enumerate(alphabet.labels)}
        self.q_tile = tokens.get("Q", -1)
        """The Q that wants a U (-1 when the tile set has no Q and U)."""
        self.u_tile = tokens.get("U", -1)
        if self.u_tile < 0:
            self.q_tile = -1

    def __repr__(self) -> str:
        return f"HeuristicLeaves({self.alphabet!r})"

    def _compute(self, key: bytes) -> float:
        tile_values = self.tile_values
        repeat = self.repeat_penalties
        vowels = self.alphabet.vowels
        total = 0.0
        letters = 0
        vowel_count = 0
        previous = -1
        copies = 0
        for tile in key:
            if tile >= len(tile_values):
                raise ValueError(f"tile {tile} is not in the {self.alphabet.name} tile set")
            total += tile_values[tile]
            copies = copies + 1 if tile == previous else 1
            if copies == 2:
                total -= repeat[tile]
            elif copies > 2:
                total -= repeat[tile] * THIRD_COPY_FACTOR
            previous = tile
            if tile != BLANK:
                letters += 1
                if tile in vowels:
                    vowel_count += 1
        if letters >= 2:
            share = vowel_count / letters
            total -= BALANCE_WEIGHT * letters * (share - BALANCE_TARGET) ** 2
            if letters >= 3 and vowel_count == 0:
                total -= ONE_KIND_PENALTY_CONSONANT * (letters - 2)
            elif letters >= 3 and vowel_count == letters:
                total -= ONE_KIND_PENALTY_VOWEL * (letters - 2)
        if self.q_tile >= 0 and self.q_tile in key and self.u_tile not in key:
            total -= Q_WITHOUT_U_PENALTY
        return total


# -- KLV files -------------------------------------------------------------------


MAX_LEAVE_TILES = MAX_RACK_SIZE - 1
"""The most tiles a leave can hold: one fewer than the largest rack."""

MAX_LEAVE_FILE_BYTES = 64 << 20
"""The largest leave file read (a full KLV2 for 7-tile racks is under 4 MB)."""


def _read_leave_file(path: str | Path) -> bytes:
    """A leave file's bytes.

    :raises FormatError: when it cannot be read or is larger than
        :data:`MAX_LEAVE_FILE_BYTES`.
    """
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(MAX_LEAVE_FILE_BYTES + 1)
    except OSError as err:
        raise FormatError(f"cannot read: {err.strerror or err}", source=str(path)) from None
    if len(data) > MAX_LEAVE_FILE_BYTES:
        raise FormatError(f"larger than {MAX_LEAVE_FILE_BYTES >> 20} MB: not a leave file", source=str(path))
    return data


def _word_counts(nodes: array[int], source: str) -> list[int]:
    """For each node, the number of words spelled from it onwards in its
    sibling list (see the module docs). Computed in reverse node order; a
    node whose arc points backwards is resolved with an explicit stack, so no
    recursion and any node layout works.

    The graph is checked on the way, as lookups rely on it: every sibling
    list in increasing tile order, no leave longer than
    :data:`MAX_LEAVE_TILES`.

    :raises FormatError: when the graph has a cycle, a sibling list out of
        order, or too long a leave.
    """
    size = len(nodes)
    counts = [0] * size
    longest = [0] * size  # the most tiles spelled from a node onwards, its siblings included
    state = bytearray(size)  # 0 new, 1 waiting for its dependencies, 2 done
    for start in range(size - 1, -1, -1):
        if state[start] == 2:
            continue
        stack = [start]
        while stack:
            index = stack[-1]
            if state[index] == 2:
                stack.pop()
                continue
            node = nodes[index]
            arc = node & ARC_MASK
            following = 0 if node & IS_END else index + 1
            if state[index] == 0:
                state[index] = 1
                waiting = False
                for dependency in (arc, following):
                    if dependency and state[dependency] != 2:
                        if state[dependency] == 1:
                            raise FormatError(f"the leave graph has a cycle through node {dependency}", source=source)
                        stack.append(dependency)
                        waiting = True
                if waiting:
                    continue
            count = 1 if node & ACCEPTS else 0
            length = 1 if node & ACCEPTS else 0
            if arc:
                count += counts[arc]
                length = max(length, 1 + longest[arc])
            if following:
                if node >> TILE_SHIFT >= nodes[following] >> TILE_SHIFT:
                    raise FormatError(
                        f"nodes {index} and {following}: a sibling list must be in increasing tile order, "
                        f"got tiles {node >> TILE_SHIFT} then {nodes[following] >> TILE_SHIFT}",
                        source=source,
                    )
                count += counts[following]
                length = max(length, longest[following])
            if length > MAX_LEAVE_TILES + 1:  # + 1: the root pointer counts as a tile
                raise FormatError(
                    f"the graph holds a leave of more than {MAX_LEAVE_TILES} tiles (through node {index}): "
                    "no rack keeps that many",
                    source=source,
                )
            counts[index] = count
            longest[index] = length
            state[index] = 2
            stack.pop()
    return counts


class KlvLeaves(_MemoLeaves):
    """Leave values from a ``.klv`` or ``.klv2`` file (wolges, Macondo,
    MAGPIE, Woogles). Leaves the file does not list are worth 0.0.

    >>> table = {b"\\x00": 25.5, b"\\x13": 8.0, b"\\x00\\x13": 31.25}  # ?, S, ?S
    >>> klv = KlvLeaves.from_bytes(dumps_klv2(table))
    >>> klv.value([19, 0]), klv.value([19]), klv.value([1]), len(klv), klv.version
    (31.25, 8.0, 0.0, 3, 2)
    """

    def __init__(self, kwg: Kwg, values: Sequence[float], *, name: str = "<klv>", version: int = 2) -> None:
        """Values for the leaves of ``kwg`` (a DAWG-only graph of sorted
        leaves, blank = tile 0), one per leave in sorted order.

        :raises FormatError: when there are not as many values as leaves.
        """
        super().__init__()
        self.kwg = kwg
        """The graph of leaves."""
        self.name = name
        self.version = version
        """1 for a ``.klv`` (int16 values), 2 for a ``.klv2`` (float32)."""
        self.word_counts = _word_counts(kwg.nodes, name)
        """Per node, the leaves spelled from it onwards in its sibling list."""
        root = kwg.dawg_root
        leaves = self.word_counts[root] if root else 0
        if len(values) != leaves:
            raise FormatError(f"value count {len(values)} does not match the {leaves} leaves in the graph", source=name)
        self.values = values
        """One value per leave, in the sorted order of the leaves."""

    def __repr__(self) -> str:
        return f"<KlvLeaves {self.name!r}: {len(self)} leaves>"

    def __len__(self) -> int:
        """The number of leaves the file lists."""
        return len(self.values)

    @classmethod
    def from_bytes(cls, data: bytes, *, source: str = "<klv>") -> KlvLeaves:
        """Read the contents of a ``.klv`` or ``.klv2`` file (told apart by
        their size).

        :raises FormatError: naming what is wrong: a truncated header, a
            node count past the end, a malformed graph, a value count that
            does not match the graph's leaves, missing or trailing bytes.
        """
        if len(data) < 4:
            raise FormatError(
                f"truncated header: a leave file starts with a 4-byte node count, got {len(data)} bytes", source=source
            )
        (node_count,) = struct.unpack_from("<I", data, 0)
        nodes_end = 4 + 4 * node_count
        if node_count == 0:
            raise FormatError("node count 0: a leave graph needs at least its root node", source=source)
        if nodes_end > len(data):
            raise FormatError(
                f"node count {node_count} runs past the end of the file ({len(data)} bytes)", source=source
            )
        kwg = Kwg.from_bytes(data[4:nodes_end], source=source)
        if nodes_end + 4 > len(data):
            raise FormatError(f"truncated: no value count after the {node_count} nodes", source=source)
        (value_count,) = struct.unpack_from("<I", data, nodes_end)
        rest = len(data) - nodes_end - 4
        raw: array[int] | array[float]
        if rest == 2 * value_count:
            raw, version = array("h"), 1
        elif rest == 4 * value_count:
            raw, version = array("f"), 2
        elif rest > 4 * value_count:
            raise FormatError(
                f"{rest - 4 * value_count} trailing bytes after the {value_count} float32 values", source=source
            )
        elif rest < 2 * value_count:
            raise FormatError(
                f"truncated values: {value_count} values need {2 * value_count} bytes (.klv) "
                f"or {4 * value_count} (.klv2), got {rest}",
                source=source,
            )
        else:
            raise FormatError(
                f"{rest} bytes follow the value count, but {value_count} values take {2 * value_count} (.klv) "
                f"or {4 * value_count} (.klv2): {rest - 2 * value_count} trailing bytes or a truncated .klv2",
                source=source,
            )
        raw.frombytes(data[nodes_end + 4 :])
        if sys.byteorder == "big":
            raw.byteswap()
        values: Sequence[float] = raw if version == 2 else array("f", (v / KLV1_SCALE for v in raw))
        return cls(kwg, values, name=source, version=version)

    @classmethod
    def load(cls, path: str | Path, alphabet: Alphabet | None = None) -> KlvLeaves:
        """Read a ``.klv`` or ``.klv2`` file; with ``alphabet``, also check
        that every tile in it belongs to that tile set.

        :raises FormatError: when the file is malformed (see :meth:`from_bytes`)
            or cannot be read.
        """
        leaves = cls.from_bytes(_read_leave_file(path), source=str(path))
        if not len(leaves):
            raise FormatError("the file lists no leaves: every leave would be worth 0", source=str(path))
        if alphabet is not None:
            nodes = leaves.kwg.nodes
            top = max((nodes[i] >> TILE_SHIFT for i in range(1, len(nodes))), default=0)
            if top >= alphabet.size:
                raise FormatError(
                    f"tile {top} is not in the {alphabet.name} tile set (tiles 0..{alphabet.size - 1})",
                    source=str(path),
                )
        return leaves

    def index(self, leave: Sequence[Tile]) -> int:
        """The rank of a leave among the file's leaves (the index of its
        value), or -1 when the file does not list it.

        >>> klv = KlvLeaves.from_bytes(dumps_klv2({(1,): 1.0, (1, 2): 2.0, (2,): 3.0}))
        >>> klv.index([2, 1]), klv.index([2]), klv.index([3])
        (1, 2, -1)
        """
        key = bytes(sorted(leave))
        if not key:
            return -1
        nodes = self.kwg.nodes
        counts = self.word_counts
        index = nodes[0] & ARC_MASK
        rank = 0
        last = len(key) - 1
        for position, tile in enumerate(key):
            if not index:
                return -1
            first = index
            while True:
                node = nodes[index]
                found = node >> TILE_SHIFT
                if found == tile:
                    break
                if found > tile or node & IS_END:
                    return -1
                index += 1
            rank += counts[first] - counts[index]
            if position == last:
                return rank if node & ACCEPTS else -1
            if node & ACCEPTS:
                rank += 1
            index = node & ARC_MASK
        return -1  # pragma: no cover - the loop always returns

    def _compute(self, key: bytes) -> float:
        rank = self.index(key)
        return float(self.values[rank]) if rank >= 0 else 0.0

    def items(self) -> Iterator[tuple[bytes, float]]:
        """Every leave (sorted tile bytes) and its value, in sorted order."""
        for leave, value in zip(self.kwg.words(), self.values, strict=True):
            yield leave, float(value)


# -- the text table ----------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s,]+")


class TableLeaves(_MemoLeaves):
    """Leave values from tilebag's text table (``LEAVE VALUE`` lines, see
    the module docs). Leaves the table does not list are worth 0.0.

    >>> english = load_alphabet("english")
    >>> table = TableLeaves.from_text("# a tiny table\\n?S 31.2\\nSRE, 10.5\\n", english)
    >>> table.value(english.parse_rack("S?")), table.value(english.parse_rack("ERS")), table.value([1])
    (31.2, 10.5, 0.0)
    >>> print(dumps_table(dict(table.items()), english), end="")
    # tilebag leave values: LEAVE VALUE (? is the blank)
    ?S 31.2
    ERS 10.5
    """

    def __init__(self, values: Mapping[Key, float], alphabet: Alphabet, *, name: str = "<table>") -> None:
        """Values keyed by leaves (tile sequences in any order).

        :raises ValueError: for an empty leave or one listed twice.
        """
        super().__init__()
        self.alphabet = alphabet
        """The tile set the leaves are written in."""
        self.name = name
        self._values = normalised_table(values)

    def __repr__(self) -> str:
        return f"<TableLeaves {self.name!r}: {len(self)} leaves>"

    def __len__(self) -> int:
        """The number of leaves the table lists."""
        return len(self._values)

    @classmethod
    def from_text(cls, text: str, alphabet: Alphabet, *, source: str = "<table>") -> TableLeaves:
        """Read a text table.

        :raises FormatError: naming the line: not two fields, a leave that
            is not tiles of ``alphabet``, a value that is not a finite
            number, or a leave already listed (naming the earlier line).
        """
        values: dict[bytes, float] = {}
        lines: dict[bytes, int] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            fields = _SEPARATORS.split(line)
            if len(fields) != 2 or not fields[0]:
                raise FormatError(f"expected 'LEAVE VALUE', got {quote(raw.strip())}", line=number, source=source)
            leave_text, value_text = fields
            try:
                tiles = alphabet.parse_rack(leave_text)
            except InvalidMoveError as err:
                raise FormatError(f"leave {quote(leave_text)}: {err}", line=number, source=source) from None
            try:
                value = float(value_text)
            except ValueError:
                raise FormatError(f"value {quote(value_text)} is not a number", line=number, source=source) from None
            if not math.isfinite(value):
                raise FormatError(f"value {quote(value_text)} is not a finite number", line=number, source=source)
            if len(tiles) > MAX_LEAVE_TILES:
                raise FormatError(
                    f"leave {quote(leave_text)} has {len(tiles)} tiles: no rack keeps more than {MAX_LEAVE_TILES}",
                    line=number,
                    source=source,
                )
            key = bytes(sorted(tiles))
            if key in lines:
                raise FormatError(
                    f"leave {leave_text!r} is listed twice, on lines {lines[key]} and {number}",
                    line=number,
                    source=source,
                )
            lines[key] = number
            values[key] = value
        return TableLeaves(values, alphabet, name=source)

    @classmethod
    def load(cls, path: str | Path, alphabet: Alphabet) -> TableLeaves:
        """Read a text table file (UTF-8).

        :raises FormatError: when the file is malformed (see :meth:`from_text`),
            is not UTF-8 text, or cannot be read.
        """
        data = _read_leave_file(path)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data[: err.start].count(b"\n") + 1
            raise FormatError(
                f"not a text table (byte {data[err.start]:#04x} is not UTF-8) nor a .klv/.klv2 file",
                line=line,
                source=str(path),
            ) from None
        table = cls.from_text(text, alphabet, source=str(path))
        if not len(table):
            raise FormatError("the table lists no leaves ('LEAVE VALUE' lines): every leave would be worth 0", source=str(path))
        return table

    def _compute(self, key: bytes) -> float:
        return self._values.get(key, 0.0)

    def items(self) -> Iterator[tuple[bytes, float]]:
        """Every leave (sorted tile bytes) and its value, in sorted order."""
        for key in sorted(self._values):
            yield key, self._values[key]


def dumps_table(table: Mapping[Key, float], alphabet: Alphabet) -> str:
    """The text of a leave table: a header comment, then one ``LEAVE VALUE``
    line per leave in sorted order (the order of a KLV file), tiles in
    code order with blanks first (each letter in brackets when plain labels
    would read back as other tiles, e.g. Spanish ``C`` + ``H``), values
    exactly (shortest round-tripping form).

    >>> print(dumps_table({(0,): 25.0, b"\\x13\\x05": -1.25}, load_alphabet("english")), end="")
    # tilebag leave values: LEAVE VALUE (? is the blank)
    ? 25.0
    ES -1.25

    :raises ValueError: for an empty leave or one listed twice.
    """
    leaves = normalised_table(table)
    lines = ["# tilebag leave values: LEAVE VALUE (? is the blank)"]
    simple = all(len(label) == 1 for label in alphabet.labels) and all(len(alias) == 1 for alias in alphabet.aliases)
    lines += [f"{_leave_text(key, alphabet, simple)} {leaves[key]!r}" for key in sorted(leaves)]
    return "\n".join(lines) + "\n"


def _leave_text(key: bytes, alphabet: Alphabet, simple: bool) -> str:
    """A leave in letters that reads back as the same tiles: with
    multi-letter tiles (Spanish ``CH``) plain labels may run together
    (``C`` + ``H``), so then every letter goes in brackets."""
    text = alphabet.format_word(key)
    if simple or sorted(alphabet.parse_rack(text)) == list(key):
        return text
    return "".join(alphabet.label(t) if t == BLANK else f"[{alphabet.label(t)}]" for t in key)


def trained_leaves(alphabet: Alphabet) -> LeaveValues:
    """The trained table shipped for a tile set (:data:`TRAINED_TABLES`),
    read once per process; the heuristic for a tile set without one.

    >>> trained_leaves(load_alphabet("english")).name, trained_leaves(load_alphabet("french")).name
    ('trained', 'heuristic')
    """
    file = TRAINED_TABLES.get(alphabet.name)
    if file is None or alphabet != load_alphabet(alphabet.name):
        return HeuristicLeaves(alphabet)
    return _shipped_table(file)


@functools.cache
def _shipped_table(file: str) -> KlvLeaves:
    data = resources.files("tilebag").joinpath("data", "leaves", file).read_bytes()
    leaves = KlvLeaves.from_bytes(data, source=file)
    leaves.name = DEFAULT_LEAVES
    return leaves


def load_leaves(name_or_path: str | Path = DEFAULT_LEAVES, alphabet: Alphabet | None = None) -> LeaveValues:
    """Leave values by name or file: ``"trained"`` (the default, see
    :func:`trained_leaves`), ``"heuristic"``, a ``.klv``/``.klv2`` file, or
    any other file as a text table. The tile set defaults to English.

    >>> load_leaves().name, load_leaves("heuristic").name
    ('trained', 'heuristic')

    :raises FormatError: when the file does not exist, cannot be read, is
        malformed or lists no leaves.
    """
    alphabet = load_alphabet("english") if alphabet is None else alphabet
    if isinstance(name_or_path, str) and name_or_path.lower() == HEURISTIC:
        return HeuristicLeaves(alphabet)
    if isinstance(name_or_path, str) and name_or_path.lower() == DEFAULT_LEAVES:
        return trained_leaves(alphabet)
    path = Path(name_or_path)
    if not path.is_file():
        raise FormatError(
            f"unknown leave values {str(name_or_path)!r}: neither {DEFAULT_LEAVES!r}, {HEURISTIC!r} nor a file"
        )
    if path.suffix.lower() in (".klv", ".klv2"):
        return KlvLeaves.load(path, alphabet)
    return TableLeaves.load(path, alphabet)
