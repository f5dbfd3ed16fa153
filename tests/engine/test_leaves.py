"""Leave values: the heuristic, KLV files and the text table."""

from __future__ import annotations

import itertools
import math
import struct
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilebag.alphabet import BLANK_BIT, alphabet_names, load_alphabet
from tilebag.engine.equity.leaves import (
    DEFAULT_LEAVES,
    HeuristicLeaves,
    KlvLeaves,
    LeaveValues,
    TableLeaves,
    dumps_klv2,
    dumps_table,
    leave_key,
    load_leaves,
)
from tilebag.errors import FormatError
from tilebag.kwg import ACCEPTS, IS_END, TILE_SHIFT

ENGLISH = load_alphabet("english")
HEURISTIC = HeuristicLeaves(ENGLISH)

# Every leave of 1 to 3 tiles over the blank and A..E, with values that are
# exact in float32 and in a .klv's int16/256, and unique (so a wrong index
# shows up as a wrong value).
SMALL_TILES = range(6)
SMALL_TABLE: dict[bytes, float] = {
    bytes(leave): 0.25 * number - 20.0
    for number, leave in enumerate(
        leave for size in (1, 2, 3) for leave in itertools.combinations_with_replacement(SMALL_TILES, size)
    )
}
SMALL_KLV2 = dumps_klv2(SMALL_TABLE)


def rack(text: str) -> list[int]:
    return ENGLISH.parse_rack(text)


def value(text: str) -> float:
    return HEURISTIC.value(rack(text))


def klv_parts(data: bytes) -> tuple[bytes, list[float]]:
    """The node section (with its count) and the values of a .klv2."""
    (nodes,) = struct.unpack_from("<I", data, 0)
    end = 4 + 4 * nodes
    (count,) = struct.unpack_from("<I", data, end)
    values = list(struct.unpack_from(f"<{count}f", data, end + 4))
    return data[:end], values


def klv1(data: bytes) -> bytes:
    """Rewrite a .klv2 as a .klv: the same graph, int16 values times 256."""
    head, values = klv_parts(data)
    return head + struct.pack(f"<I{len(values)}h", len(values), *(round(v * 256) for v in values))


# -- the heuristic ---------------------------------------------------------------


def test_heuristic_single_tiles_order() -> None:
    assert value("?") > value("S") > value("Z") > value("E") > value("T") > value("U") > value("V")
    assert value("Q") < value("V") < value("W")


def test_heuristic_scale_matches_published_tables() -> None:
    assert value("?") == pytest.approx(25, abs=1)
    assert value("S") == pytest.approx(8, abs=1)
    assert value("ERS") == pytest.approx(10, abs=2)
    assert value("Q") == pytest.approx(-7, abs=1)
    assert value("VV") == pytest.approx(-15, abs=2)
    assert value("IIU") == pytest.approx(-15, abs=3)
    assert value("ERS") > value("UUV")
    assert value("?ERS") > value("?") > value("AEINST") > 0


def test_heuristic_empty_leave_is_zero() -> None:
    assert HEURISTIC.value([]) == 0.0
    assert HEURISTIC.value(b"") == 0.0


def test_heuristic_repeats_cost_more_for_vowels_and_third_copies() -> None:
    # a repeat loses more than the tile's own value would suggest
    assert value("II") < 2 * value("I")
    assert value("NN") < 2 * value("N")
    # vowel repeats cost more than consonant repeats
    assert value("II") - 2 * value("I") < value("NN") - 2 * value("N")
    # the third copy costs more than the second
    assert value("III") - value("II") < value("II") - value("I")


def test_heuristic_balance() -> None:
    # 40% vowels is best, one-kind leaves get worse as they grow
    assert value("AERST") > value("ERST") > value("DRST")
    assert value("AEI") < value("AE") + value("I")
    five_consonants = value("BDLNR") - sum(value(c) for c in "BDLNR")
    three_consonants = value("BDL") - sum(value(c) for c in "BDL")
    assert five_consonants < three_consonants < 0
    assert value("AEIO") - sum(value(c) for c in "AEIO") < value("AE") - value("A") - value("E")


def test_heuristic_q_without_u() -> None:
    assert value("QU") > value("Q") + value("U")
    assert value("Q") == value("Q?") - value("?")  # a blank is not a U


def test_heuristic_designated_blank_counts_as_blank() -> None:
    assert HEURISTIC.value([BLANK_BIT | 5, 19]) == value("?S")


def test_heuristic_tile_outside_the_set() -> None:
    with pytest.raises(ValueError, match="tile 40 is not in the english tile set"):
        HeuristicLeaves(ENGLISH).value([40])


@pytest.mark.parametrize("name", alphabet_names())
def test_heuristic_every_tile_set(name: str) -> None:
    alphabet = load_alphabet(name)
    leaves = HeuristicLeaves(alphabet)
    assert len(leaves.tile_values) == alphabet.size
    assert leaves.tile_values[0] == 25.0
    assert all(math.isfinite(v) and -10 < v < 10 for v in leaves.tile_values[1:])
    assert leaves.value([0]) > max(leaves.value([t]) for t in alphabet.letters)
    # a full rack's worth of every tile gives a finite value
    assert math.isfinite(leaves.value(list(alphabet.letters)[:8]))


def test_heuristic_english_table_only_for_english_scores() -> None:
    french = HeuristicLeaves(load_alphabet("french"))
    assert french.tile_values != HEURISTIC.tile_values
    assert HeuristicLeaves().tile_values == HEURISTIC.tile_values


def test_leave_key() -> None:
    assert leave_key([19, 0, 5]) == b"\x00\x05\x13"
    assert leave_key(()) == b""


# -- KLV files ---------------------------------------------------------------------


def test_klv2_round_trip_with_blanks() -> None:
    table = {
        (0,): 25.5,
        (0, 0): 40.125,
        (0, 19): 31.2,
        (19,): 8.0,
        (5, 18, 19): 10.3,
        (17,): -7.0,
        (0, 0, 17, 21): -1.0,
    }
    klv = KlvLeaves.from_bytes(dumps_klv2(table), source="test.klv2")
    assert klv.version == 2 and len(klv) == len(table) and klv.name == "test.klv2"
    for leave, expected in table.items():
        assert klv.value(leave) == struct.unpack("<f", struct.pack("<f", expected))[0]
        assert klv.value(leave[::-1]) == klv.value(leave)
    assert klv.value(rack("ERS")) == pytest.approx(10.3, abs=1e-6)
    assert klv.value(rack("S?")) == pytest.approx(31.2, abs=1e-5)
    assert klv.value(rack("E")) == 0.0  # absent
    assert klv.value(rack("?S?")) == 0.0  # a path that exists but is not a leave
    assert klv.value([]) == 0.0
    assert [leave for leave, _ in klv.items()] == sorted(bytes(leave) for leave in table)
    # the blank is tile 0 in the graph itself
    assert any(node >> TILE_SHIFT == 0 and node & ACCEPTS for node in klv.kwg.nodes[1:])


def test_klv_index_is_the_sorted_rank() -> None:
    klv = KlvLeaves.from_bytes(SMALL_KLV2)
    ordered = sorted(SMALL_TABLE)
    assert [klv.index(leave) for leave in ordered] == list(range(len(ordered)))
    assert [value for _, value in klv.items()] == [SMALL_TABLE[leave] for leave in ordered]
    assert klv.index(b"") == -1 and klv.index([9]) == -1 and klv.index([1, 1, 1, 1]) == -1


def test_klv1_int16_values() -> None:
    data = klv1(SMALL_KLV2)
    assert len(data) < len(SMALL_KLV2)
    klv = KlvLeaves.from_bytes(data)
    assert klv.version == 1
    for leave, expected in SMALL_TABLE.items():
        assert klv.value(leave) == expected


def test_klv1_scaling() -> None:
    head, _ = klv_parts(dumps_klv2({(0,): 0.0, (1,): 0.0}))
    klv = KlvLeaves.from_bytes(head + struct.pack("<Ihh", 2, 6400, -32768))
    assert klv.value([0]) == 25.0 and klv.value([1]) == -128.0


def test_empty_klv_matches_wolges() -> None:
    data = dumps_klv2({})
    assert data == b"\x01\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00"
    klv = KlvLeaves.from_bytes(data)
    assert len(klv) == 0 and klv.value([0, 19]) == 0.0


def test_klv_arcs_pointing_backwards() -> None:
    # leaves A, AB, B with the list after A placed before the root list
    nodes = [
        IS_END | 2,  # root pointer
        2 << TILE_SHIFT | ACCEPTS | IS_END,  # B (after A)
        1 << TILE_SHIFT | ACCEPTS | 1,  # A, arc back to node 1
        2 << TILE_SHIFT | ACCEPTS | IS_END,  # B
    ]
    data = struct.pack("<5II3f", 4, *nodes, 3, 1.0, 2.0, 3.0)
    klv = KlvLeaves.from_bytes(data)
    assert [klv.value(leave) for leave in ([1], [1, 2], [2], [2, 1])] == [1.0, 2.0, 3.0, 2.0]


def test_klv_cycle() -> None:
    nodes = [IS_END | 1, 1 << TILE_SHIFT | ACCEPTS | IS_END | 1]
    with pytest.raises(FormatError, match="cycle"):
        KlvLeaves.from_bytes(struct.pack("<3I", 2, *nodes) + struct.pack("<I", 0))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", r"truncated header: .* got 0 bytes"),
        (b"\x01\x00", r"truncated header"),
        (struct.pack("<I", 0), r"node count 0"),
        (struct.pack("<II", 5, IS_END), r"node count 5 runs past the end of the file \(8 bytes\)"),
        (struct.pack("<II", 1, IS_END), r"truncated: no value count after the 1 nodes"),
        (struct.pack("<II", 1, 0), r"the last node does not end its sibling list"),
        (struct.pack("<IIIf", 1, IS_END, 1, 2.0), r"value count 1 does not match the 0 leaves"),
    ],
)
def test_klv_malformed(data: bytes, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        KlvLeaves.from_bytes(data, source="bad.klv2")


def test_klv_bad_value_section() -> None:
    head, values = klv_parts(SMALL_KLV2)
    count = len(values)
    body = struct.pack(f"<I{count}f", count, *values)
    with pytest.raises(FormatError, match=r"^bad.klv2: 3 trailing bytes after the \d+ float32 values"):
        KlvLeaves.from_bytes(head + body + b"abc", source="bad.klv2")
    with pytest.raises(FormatError, match=r"truncated values: \d+ values need \d+ bytes \(.klv\)"):
        KlvLeaves.from_bytes(head + body[: 4 + count], source="bad.klv2")
    with pytest.raises(FormatError, match=r"trailing bytes or a truncated .klv2"):
        KlvLeaves.from_bytes(head + body[:-2], source="bad.klv2")
    with pytest.raises(FormatError, match=rf"value count {count + 1} does not match the {count} leaves"):
        KlvLeaves.from_bytes(head + struct.pack(f"<I{count + 1}f", count + 1, *values, 0.0))


def test_klv_load_files(tmp_path: Path) -> None:
    path2 = tmp_path / "small.klv2"
    path2.write_bytes(SMALL_KLV2)
    path1 = tmp_path / "small.klv"
    path1.write_bytes(klv1(SMALL_KLV2))
    for path in (path1, path2):
        leaves = load_leaves(path, ENGLISH)
        assert isinstance(leaves, KlvLeaves) and leaves.name == str(path)
        assert leaves.value([3, 0, 1]) == SMALL_TABLE[b"\x00\x01\x03"]
    assert load_leaves(str(path2)).value([5]) == SMALL_TABLE[b"\x05"]


def test_klv_load_checks_the_tile_set(tmp_path: Path) -> None:
    path = tmp_path / "wide.klv2"
    path.write_bytes(dumps_klv2({(1,): 1.0, (30,): 2.0}))
    assert KlvLeaves.load(path).value([30]) == 2.0
    with pytest.raises(FormatError, match=r"tile 30 is not in the english tile set \(tiles 0..26\)"):
        KlvLeaves.load(path, ENGLISH)


def test_dumps_klv2_refuses() -> None:
    with pytest.raises(ValueError, match="empty leave"):
        dumps_klv2({(): 1.0})
    with pytest.raises(ValueError, match=r"leave \[1, 2\] is listed twice"):
        dumps_klv2({(1, 2): 1.0, (2, 1): 2.0})
    with pytest.raises(ValueError, match="tiles must be 0..62"):
        dumps_klv2({(63,): 1.0})


# -- the text table ------------------------------------------------------------------

TEXT = """\
# leave values for a test
?S 31.2
ser, 10.5     # any case, any order, comma or spaces
Q\t-7
VV  -15.25
"""


def test_table_reads_text() -> None:
    table = TableLeaves.from_text(TEXT, ENGLISH, source="leaves.txt")
    assert len(table) == 4 and table.name == "leaves.txt"
    assert table.value(rack("S?")) == 31.2
    assert table.value(rack("RES")) == 10.5
    assert table.value(rack("Q")) == -7.0
    assert table.value(rack("VV")) == -15.25
    assert table.value(rack("V")) == 0.0 and table.value([]) == 0.0


def test_table_round_trip_and_klv_agree() -> None:
    text = dumps_table(SMALL_TABLE, ENGLISH)
    assert text.startswith("# ") and "\n?AB -" in text
    table = TableLeaves.from_text(text, ENGLISH)
    assert dict(table.items()) == SMALL_TABLE
    klv = KlvLeaves.from_bytes(SMALL_KLV2)
    assert dict(klv.items()) == SMALL_TABLE
    assert dumps_table(dict(klv.items()), ENGLISH) == text


def test_table_multi_letter_tiles() -> None:
    spanish = load_alphabet("spanish")
    table = TableLeaves.from_text("[CH]A 1.5\nRRLL -3\n", spanish)
    assert table.value(spanish.parse_rack("ACH")) == 1.5
    assert table.value(spanish.parse_rack("LLRR")) == -3.0
    text = dumps_table(dict(table.items()), spanish)
    assert "\nACH 1.5\n" in text
    assert dict(TableLeaves.from_text(text, spanish).items()) == dict(table.items())
    # C and H written together would read back as the CH tile
    c, h = spanish.tile("C"), spanish.tile("H")
    text = dumps_table({(0, c, h): 2.0, (c, c): 1.0}, spanish)
    assert "\n?[C][H] 2.0\n" in text and "\nCC 1.0\n" in text
    again = TableLeaves.from_text(text, spanish)
    assert again.value([h, 0, c]) == 2.0 and again.value([c, c]) == 1.0


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("ERS 1\nERS\n", 2, r"expected 'LEAVE VALUE', got 'ERS'"),
        ("ERS 1 2\n", 1, r"expected 'LEAVE VALUE', got 'ERS 1 2'"),
        ("# c\n\n, 3\n", 3, r"expected 'LEAVE VALUE'"),
        ("E 1\nE1R 2\n", 2, r"leave 'E1R': .*'1' is not a tile of the english tile set"),
        ("E 1\nR two\n", 2, r"value 'two' is not a number"),
        ("E nan\n", 1, r"value 'nan' is not a finite number"),
        ("ERS 1\nQ 2\n\nsre 3\n", 4, r"leave 'sre' is listed twice, on lines 1 and 4"),
    ],
)
def test_table_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(FormatError, match=message) as info:
        TableLeaves.from_text(text, ENGLISH, source="t.txt")
    assert info.value.line == line
    assert str(info.value).startswith(f"t.txt:{line}: ")


def test_table_constructor_refuses_duplicates() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        TableLeaves({b"\x01\x02": 1.0, b"\x02\x01": 1.0}, ENGLISH)


def test_table_load(tmp_path: Path) -> None:
    path = tmp_path / "leaves.csv"
    path.write_text(TEXT, encoding="utf-8")
    leaves = load_leaves(path, ENGLISH)
    assert isinstance(leaves, TableLeaves) and leaves.value(rack("?S")) == 31.2
    assert TableLeaves.load(path, ENGLISH).value(rack("Q")) == -7.0


# -- choosing leave values --------------------------------------------------------------


def test_load_leaves_by_name(tmp_path: Path) -> None:
    assert DEFAULT_LEAVES == "trained"
    default = load_leaves()
    assert isinstance(default, KlvLeaves) and default.name == "trained" and len(default) == 914_624
    assert load_leaves("Trained") is default  # read once per process
    assert isinstance(load_leaves("heuristic"), HeuristicLeaves) and load_leaves("heuristic").alphabet == ENGLISH
    assert isinstance(load_leaves("Heuristic", load_alphabet("french")), HeuristicLeaves)
    french = load_leaves("trained", load_alphabet("french"))  # no table trained for it: the heuristic
    assert isinstance(french, HeuristicLeaves) and french.alphabet == load_alphabet("french")
    assert isinstance(default, LeaveValues)
    with pytest.raises(FormatError, match="unknown leave values 'superleaves'"):
        load_leaves("superleaves")
    with pytest.raises(FormatError, match="unknown leave values"):
        load_leaves(tmp_path / "missing.klv2")


def test_protocol_members() -> None:
    for leaves in (HEURISTIC, KlvLeaves.from_bytes(SMALL_KLV2), TableLeaves({}, ENGLISH)):
        assert isinstance(leaves, LeaveValues)
        assert isinstance(leaves.name, str)


# -- invariants --------------------------------------------------------------------------

small_leaves = st.lists(st.sampled_from(SMALL_TILES), max_size=3)
english_leaves = st.lists(st.integers(0, 26), max_size=7)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_value_ignores_tile_order(data: st.DataObject) -> None:
    leave = data.draw(english_leaves)
    shuffled = data.draw(st.permutations(leave))
    assert HeuristicLeaves(ENGLISH).value(shuffled) == HeuristicLeaves(ENGLISH).value(leave)

    small = data.draw(small_leaves)
    other = data.draw(st.permutations(small))
    expected = SMALL_TABLE.get(bytes(sorted(small)), 0.0)
    for make in (
        lambda: KlvLeaves.from_bytes(SMALL_KLV2),
        lambda: KlvLeaves.from_bytes(klv1(SMALL_KLV2)),
        lambda: TableLeaves(SMALL_TABLE, ENGLISH),
    ):
        assert make().value(other) == make().value(small) == expected


def test_values_are_memoized() -> None:
    leaves = HeuristicLeaves(ENGLISH)
    calls: list[bytes] = []
    compute = leaves._compute

    def counting(key: bytes) -> float:
        calls.append(key)
        return compute(key)

    leaves._compute = counting  # type: ignore[method-assign]
    first = leaves.value([19, 5, 18])
    assert leaves.value([18, 19, 5]) == leaves.value(array("B", [5, 18, 19])) == first
    assert calls == [b"\x05\x12\x13"]
