"""Writing leave tables as ``.klv2`` (float32 values) and ``.klv`` (KLV1:
int16 values times 256) files; :mod:`tilebag.engine.equity.leaves` describes the
format and reads them.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Mapping, Sequence
from typing import TypeVar

from tilebag.kwg import MAX_TILE, TILE_SHIFT, Kwg

__all__ = ["KLV1_SCALE", "dumps_klv", "dumps_klv2", "normalised_table"]

KLV1_SCALE = 256
"""A ``.klv`` file stores each value times this, as an int16."""

Key = TypeVar("Key", bound=Sequence[int])


def normalised_table(table: Mapping[Key, float]) -> dict[bytes, float]:
    """A table of leave values keyed by sorted tile bytes.

    :raises ValueError: for the empty leave, or a leave listed twice (in two orders).
    """
    out: dict[bytes, float] = {}
    for leave, value in table.items():
        key = bytes(sorted(leave))
        if not key:
            raise ValueError("a leave table cannot hold the empty leave (it is always worth 0.0)")
        if key in out:
            raise ValueError(f"leave {list(key)} is listed twice (in another order)")
        out[key] = float(value)
    return out


def dumps_klv2(table: Mapping[Key, float]) -> bytes:
    """The contents of a ``.klv2`` file for a table of leave values.

    Keys are leaves as tile sequences (bytes or tuples, any order; tiles
    0..62, 0 the blank); values are stored as float32.

    >>> len(dumps_klv2({})), len(dumps_klv2({(0,): 25.0}))
    (12, 20)

    :raises ValueError: for an empty leave, a leave listed twice (in two
        orders) or a tile out of range.
    """
    leaves = normalised_table(table)
    for key in leaves:
        if max(key) >= MAX_TILE:
            raise ValueError(f"leave tiles must be 0..{MAX_TILE - 1}, got {list(key)}")
    # The builder takes tiles 1..63 only: build on tiles shifted up by one and
    # shift every arc back down. A uniform shift keeps the sibling order, and
    # node 0 (the pointer to the root, tile 0) is the only node that is not
    # an arc of a leave.
    kwg = Kwg.build((bytes(t + 1 for t in key) for key in leaves), gaddag=False)
    nodes = kwg.nodes
    for index in range(1, len(nodes)):
        nodes[index] -= 1 << TILE_SHIFT
    values = array("f", (leaves[key] for key in sorted(leaves)))
    if sys.byteorder == "big":
        values.byteswap()
    return b"".join(
        (
            struct.pack("<I", len(nodes)),
            kwg.to_bytes(),
            struct.pack("<I", len(values)),
            values.tobytes(),
        )
    )


def dumps_klv(table: Mapping[Key, float]) -> bytes:
    """The contents of a ``.klv`` file (KLV1: int16 values, times 256) for a
    table of leave values: the graph of :func:`dumps_klv2` with the values
    rounded to 1/256 of a point.

    >>> from tilebag.engine.equity.leaves import KlvLeaves
    >>> data = dumps_klv({b"\\x00": 25.5, b"\\x13": -8.0})
    >>> KlvLeaves.from_bytes(data).value([0]), KlvLeaves.from_bytes(data).version
    (25.5, 1)
    """
    leaves = normalised_table(table)
    klv2 = dumps_klv2({leave: 0.0 for leave in leaves})
    (nodes,) = struct.unpack_from("<I", klv2, 0)
    head = klv2[: 4 + 4 * nodes + 4]
    values = array("h", (round(leaves[leave] * KLV1_SCALE) for leave in sorted(leaves)))
    if sys.byteorder == "big":
        values.byteswap()
    return head + values.tobytes()
