"""KWG word graphs written node by node, as another tool may lay them out
(for the tests of the reader, ``core/test_kwg.py``, and of the commands that
read a ``.kwg`` file, ``ui/test_cli.py``)."""

from __future__ import annotations

import struct


def raw(*values: int) -> bytes:
    """A graph file of these nodes (32-bit little-endian words)."""
    return struct.pack(f"<{len(values)}I", *values)


# A file as another tool may write it (wolges lays sibling lists out with
# shared tails): the DAWG and GADDAG of AB AC AD BC BD, tiles A=1 .. D=4.
# Node bits: tile << 24 | accepts 0x800000 | is_end 0x400000 | arc index.
HAND_MADE = raw(
    0x00400002,  # 0: DAWG root -> list at 2
    0x00400004,  # 1: GADDAG root -> list at 4
    0x01000008,  # 2: A -> [B C D] at 8
    0x02400009,  # 3: B (end) -> [C D] at 9: starts in the middle of the list at 8
    0x0100000B,  # 4: GADDAG A -> [@] at 11
    0x0200000C,  # 5: GADDAG B -> [@ A] at 12
    0x0300000E,  # 6: GADDAG C -> [A B] at 14
    0x0440000E,  # 7: GADDAG D (end) -> the same list at 14
    0x02800000,  # 8: B, accepts (AB)
    0x03800000,  # 9: C, accepts (AC; BC from node 3)
    0x04C00000,  # 10: D, accepts, end (AD; BD)
    0x00400008,  # 11: @ (end) -> DAWG list after A, at 8 (A@B A@C A@D)
    0x00000009,  # 12: @ -> DAWG list after B, at 9 (B@C B@D)
    0x01C00000,  # 13: A, accepts, end (BA)
    0x01800000,  # 14: A, accepts (CA, DA)
    0x02C00000,  # 15: B, accepts, end (CB, DB)
)
