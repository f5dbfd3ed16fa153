"""KWG word graphs: a DAWG and a GADDAG packed into one array of nodes.

The KWG format (from wolges, also read by Macondo, MAGPIE and Woogles) is a
flat array of 32-bit little-endian nodes. Each node is one arc of a sibling
list::

    bits 24-31  tile (1..63 for letters; 0 is the GADDAG direction switch)
    bit  23     accepts: taking this arc completes a word
    bit  22     is_end: this is the last arc of its sibling list
    bits 0-21   arc index: first node of the sibling list reached by this arc
                (0 when the arc leads nowhere)

Siblings are stored in increasing tile order. Node 0's arc index is the
root of the DAWG; node 1's, when present, the root of the GADDAG. In the
GADDAG a word ``CARE`` is entered as ``ERAC``, ``RAC@E``, ``AC@RE`` and
``C@ARE`` (``@`` is tile 0); after the ``@`` the graph continues in the
DAWG's node for the prefix, so the GADDAG costs little over the DAWG.

>>> graph = Kwg.build([b"\\x03\\x01\\x12\\x05", b"\\x03\\x01\\x12"])  # CARE, CAR
>>> graph.contains(b"\\x03\\x01\\x12"), graph.contains(b"\\x03\\x01")
(True, False)
>>> [bytes(word) for word in graph.words()]
[b'\\x03\\x01\\x12', b'\\x03\\x01\\x12\\x05']
>>> Kwg.from_bytes(graph.to_bytes()) == graph
True
"""

from __future__ import annotations

import re
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from tilebag.errors import FormatError

TILE_SHIFT = 24
ACCEPTS = 0x800000
IS_END = 0x400000
ARC_MASK = 0x3FFFFF
SEPARATOR = 0
"""The GADDAG's direction switch (written ``@``)."""

MAX_TILE = 63
MAX_NODES = ARC_MASK + 1

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a graph is built."""


def node_tile(node: int) -> int:
    """The tile of a node value."""
    return node >> TILE_SHIFT


class Kwg:
    """A word graph held as an ``array('I')`` of node values.

    Build one with :meth:`build`, read one with :meth:`load` or
    :meth:`from_bytes`. Words are sequences of tile codes (1..63).
    """

    def __init__(self, nodes: array[int]) -> None:
        if nodes.typecode != "I" or nodes.itemsize != 4:
            raise TypeError("a KWG needs an array('I') of 32-bit nodes")
        self.nodes = nodes
        self.derived: dict[object, object] = {}
        """What is built from this graph once and kept as long as it lives
        (the engines of :meth:`tilebag.engine.Engine.for_lexicon`)."""

    # -- reading and writing ---------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes, *, source: str = "<kwg>", validate: bool = True) -> Kwg:
        """Read a KWG from its file contents.

        Every arc is checked to point inside the graph (a few milliseconds
        for a million nodes); ``validate=False`` skips that check.

        :raises FormatError: when the data is not a well-formed KWG.
        """
        if len(data) % 4:
            raise FormatError(f"a KWG is a whole number of 4-byte nodes, got {len(data)} bytes", source=source)
        if len(data) < 4:
            raise FormatError("a KWG needs at least its root node, the file is empty", source=source)
        nodes = array("I")
        nodes.frombytes(data)
        if sys.byteorder == "big":
            nodes.byteswap()
        count = len(nodes)
        if count > MAX_NODES:
            raise FormatError(f"{count} nodes is more than a KWG can address ({MAX_NODES})", source=source)
        bad = _first_arc_past_end(data, count) if validate else -1
        if bad >= 0:
            raise FormatError(
                f"node {bad} points to node {nodes[bad] & ARC_MASK}, past the end of the graph ({count} nodes)",
                source=source,
            )
        if not nodes[count - 1] & IS_END:
            raise FormatError("the last node does not end its sibling list", source=source)
        return cls(nodes)

    @classmethod
    def load(cls, path: str | Path) -> Kwg:
        """Read a ``.kwg`` file.

        :raises FormatError: when the file is not a well-formed KWG.
        :raises OSError: when it cannot be read.
        """
        return cls.from_bytes(Path(path).read_bytes(), source=str(path))

    def to_bytes(self) -> bytes:
        """The file contents (little-endian nodes)."""
        if sys.byteorder == "big":
            swapped = array("I", self.nodes)
            swapped.byteswap()
            return swapped.tobytes()
        return self.nodes.tobytes()

    def save(self, path: str | Path) -> None:
        """Write a ``.kwg`` file."""
        Path(path).write_bytes(self.to_bytes())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Kwg) and self.nodes == other.nodes

    __hash__ = None  # type: ignore[assignment]

    def __len__(self) -> int:
        """The number of nodes."""
        return len(self.nodes)

    def __repr__(self) -> str:
        kind = "DAWG+GADDAG" if self.has_gaddag else "DAWG"
        return f"<Kwg {kind}: {len(self.nodes)} nodes>"

    # -- navigation ---------------------------------------------------------

    @property
    def dawg_root(self) -> int:
        """Index of the DAWG's first root arc (0 for an empty graph)."""
        return self.nodes[0] & ARC_MASK

    @property
    def has_gaddag(self) -> bool:
        """Whether node 1 roots a GADDAG."""
        return (
            len(self.nodes) > 1
            and node_tile(self.nodes[1]) == 0
            and bool(self.nodes[1] & IS_END)
            and self.nodes[1] & ARC_MASK != 0
        )

    @property
    def gaddag_root(self) -> int:
        """Index of the GADDAG's first root arc.

        :raises ValueError: when the graph has no GADDAG (a DAWG-only file).
        """
        if not self.has_gaddag:
            raise ValueError("this KWG has no GADDAG (it is a DAWG-only file)")
        return self.nodes[1] & ARC_MASK

    def arcs(self, index: int) -> Iterator[int]:
        """The node indices of the sibling list starting at ``index``."""
        if index == 0:
            return
        nodes = self.nodes
        while True:
            yield index
            if nodes[index] & IS_END:
                return
            index += 1

    def seek(self, index: int, tile: int) -> int:
        """The node for ``tile`` in the sibling list at ``index``, or -1."""
        if index == 0:
            return -1
        nodes = self.nodes
        while True:
            node = nodes[index]
            found = node >> TILE_SHIFT
            if found == tile:
                return index
            if found > tile or node & IS_END:
                return -1
            index += 1

    def follow(self, tiles: Iterable[int], root: int | None = None) -> int:
        """The node reached by the last of ``tiles`` from ``root`` (the DAWG
        root by default), or -1 when the path does not exist."""
        index = self.dawg_root if root is None else root
        node = -1
        for tile in tiles:
            node = self.seek(index, tile)
            if node < 0:
                return -1
            index = self.nodes[node] & ARC_MASK
        return node

    def contains(self, word: Sequence[int]) -> bool:
        """Whether the DAWG accepts a word (tile codes)."""
        if not word:
            return False
        node = self.follow(word)
        return node >= 0 and bool(self.nodes[node] & ACCEPTS)

    def words(self, root: int | None = None) -> Iterator[bytes]:
        """Every word of the DAWG (or from another root), in tile order."""
        nodes = self.nodes
        start = self.dawg_root if root is None else root
        if not start:
            return
        prefix = bytearray()
        stack = [(start, 0)]
        while stack:
            index, depth = stack.pop()
            node = nodes[index]
            del prefix[depth:]
            prefix.append(node >> TILE_SHIFT)
            if not node & IS_END:
                stack.append((index + 1, depth))
            if node & ACCEPTS:
                yield bytes(prefix)
            arc = node & ARC_MASK
            if arc:
                stack.append((arc, depth + 1))

    def count_words(self) -> int:
        """The number of words in the DAWG."""
        return sum(1 for _ in self.words())

    # -- building -------------------------------------------------------------

    @classmethod
    def build(
        cls,
        words: Iterable[bytes],
        *,
        gaddag: bool = True,
        progress: ProgressCallback | None = None,
    ) -> Kwg:
        """Compile words (tile-code byte strings) into a KWG.

        The words may come in any order and with repeats; each must be made of
        tiles 1..63. With ``gaddag=False`` the result is a DAWG-only file (the
        kind leave tables use).

        :raises ValueError: for an empty word or a tile out of range.
        """
        return _Builder(words, progress).build(gaddag)


_LOW_SIX_BITS = bytes(b & 0x3F for b in range(256))


def _first_arc_past_end(data: bytes, count: int) -> int:
    """The index of the first node (of ``count``, little-endian in ``data``)
    whose arc index is ``count`` or more, or -1 when every arc is in range.

    Quick on big graphs: byte 2 of a node holds bits 16-21 of its arc index in
    its low six bits, so one pass over those bytes at C speed clears every node
    except those pointing into the last 65536 nodes, which are checked one by
    one (in a smaller graph, that is all of them).
    """
    limit = count - 1
    top = limit >> 16
    high = data[2::4].translate(_LOW_SIX_BITS)
    suspects: Iterable[int]
    if high.translate(None, bytes(range(top + 1))):
        suspects = range(count)  # some arc is past the end: find the first
    else:
        suspects = (match.start() for match in re.finditer(re.escape(bytes([top])), high))
    for index in suspects:
        if high[index] << 16 | data[4 * index + 1] << 8 | data[4 * index] > limit:
            return index
    return -1


# -- the builder ---------------------------------------------------------------
#
# States are interned sibling lists. An arc is packed into one int:
# ``(tile << 33) | (accepts << 32) | target_state``. Words go in sorted order
# and states are finalised (and shared with equal ones) as soon as no later
# word can extend them, so only the current path is ever unminimised.

_ACCEPT_BIT = 1 << 32
_TARGET_MASK = _ACCEPT_BIT - 1


class _Builder:
    def __init__(self, words: Iterable[bytes], progress: ProgressCallback | None) -> None:
        unique: set[bytes] = set()
        for word in words:
            key = bytes(word)
            if not key:
                raise ValueError("a word graph cannot hold the empty word")
            if min(key) < 1 or max(key) > MAX_TILE:
                raise ValueError(f"tile codes must be 1..{MAX_TILE}, got {list(key)}")
            unique.add(key)
        self.words = sorted(unique)
        self.progress = progress
        self.states: list[tuple[int, ...]] = [()]
        self.register: dict[tuple[int, ...], int] = {(): 0}
        self.done = 0
        self.total = len(self.words)

    def intern(self, arcs: list[int]) -> int:
        key = tuple(arcs)
        state = self.register.get(key)
        if state is None:
            state = len(self.states)
            self.states.append(key)
            self.register[key] = state
        return state

    def add_sorted(
        self,
        keys: Sequence[bytes],
        accepted: Callable[[bytes], bool],
        extra: Callable[[bytes], int],
        record: dict[bytes, int] | None,
    ) -> int:
        """Intern the trie of ``keys`` (sorted, unique); return its root state.

        ``extra(key)`` gives a state to hang off the key's end as a tile-0 arc
        (0 for none); ``record``, when given, collects the state after each
        non-empty prefix that has arcs.
        """
        stack: list[list[int]] = [[]]
        prev = b""
        intern = self.intern
        for key in keys:
            common = 0
            limit = min(len(prev), len(key))
            while common < limit and prev[common] == key[common]:
                common += 1
            while len(stack) > common + 1:
                arcs = stack.pop()
                state = intern(arcs)
                stack[-1][-1] |= state
                if record is not None and arcs:
                    record[prev[: len(stack)]] = state
            for tile in key[common:]:
                stack[-1].append(tile << 33)
                stack.append([])
            if accepted(key):
                stack[-2][-1] |= _ACCEPT_BIT
            hang = extra(key)
            if hang:
                stack[-1].append(hang)
            prev = key
            self.done += 1
            if self.progress is not None and not self.done & 0x3FFF:
                self.progress(self.done, self.total)
        while len(stack) > 1:
            arcs = stack.pop()
            state = intern(arcs)
            stack[-1][-1] |= state
            if record is not None and arcs:
                record[prev[: len(stack)]] = state
        return intern(stack[0])

    def build(self, gaddag: bool) -> Kwg:
        words = self.words
        wordset = set(words)
        prefixes: dict[bytes, int] = {}
        gaddag_keys: list[bytes] = []
        if gaddag:
            # Every distinct prefix is a GADDAG key: reversed, accepted when
            # it is a word, and followed by "@" into the DAWG when longer
            # words extend it.
            self.total = len(words) + sum(len(w) for w in words) // 3
        dawg_root = self.add_sorted(words, lambda key: True, lambda key: 0, prefixes if gaddag else None)
        gaddag_root = 0
        if gaddag:
            gaddag_keys = sorted(p[::-1] for p in wordset.union(prefixes))
            self.total = len(words) + len(gaddag_keys)
            gaddag_root = self.add_sorted(
                gaddag_keys,
                lambda key: key[::-1] in wordset,
                lambda key: prefixes.get(key[::-1], 0),
                None,
            )
        if self.progress is not None:
            self.progress(self.total, self.total)
        return Kwg(self.layout(dawg_root, gaddag_root if gaddag else None))

    def layout(self, dawg_root: int, gaddag_root: int | None) -> array[int]:
        """Place each state's sibling list in the node array: the DAWG's
        states first (breadth first), then the GADDAG-only ones."""
        states = self.states
        reserved = 1 if gaddag_root is None else 2
        position: dict[int, int] = {0: 0}
        order: list[int] = []
        size = reserved
        for root in (dawg_root, gaddag_root):
            if not root or root in position:
                continue
            queue = [root]
            position[root] = size
            size += len(states[root])
            head = 0
            while head < len(queue):
                state = queue[head]
                head += 1
                order.append(state)
                for arc in states[state]:
                    target = arc & _TARGET_MASK
                    if target not in position:
                        position[target] = size
                        size += len(states[target])
                        queue.append(target)
        if size > MAX_NODES:
            raise ValueError(f"the word graph needs {size} nodes, more than a KWG can address ({MAX_NODES})")
        nodes = array("I", bytes(4 * size))
        nodes[0] = IS_END | position[dawg_root]
        if gaddag_root is not None:
            nodes[1] = IS_END | position[gaddag_root]
        for state in order:
            arcs = states[state]
            at = position[state]
            last = len(arcs) - 1
            for offset, arc in enumerate(arcs):
                value = (arc >> 33) << TILE_SHIFT | position[arc & _TARGET_MASK]
                if arc & _ACCEPT_BIT:
                    value |= ACCEPTS
                if offset == last:
                    value |= IS_END
                nodes[at + offset] = value
        return nodes
