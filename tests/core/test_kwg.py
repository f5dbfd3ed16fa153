"""KWG word graphs: building, reading and writing, the DAWG and GADDAG languages."""

from __future__ import annotations

import importlib.resources
import random
import struct
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilebag import FormatError, load_alphabet
from tilebag.kwg import Kwg
from tilebag.lexicon import KwgLexicon
from word_graphs import HAND_MADE, raw

EN = load_alphabet("english")
A, B, C, D = 1, 2, 3, 4


def w(text: str) -> bytes:
    """Tile codes of an English word."""
    return bytes(EN.parse_word(text))


def kjxqz_words() -> list[str]:
    """The default lexicon's word list, upper case, in its (sorted) order."""
    text = (importlib.resources.files("kjxqz") / "words.txt").read_text(encoding="utf-8")
    return text.upper().splitlines()


# -- independent readers of the node bits ------------------------------------


def paths(nodes: Iterable[int], index: int) -> set[bytes]:
    """Every accepted path from the sibling list at ``index``, read from the
    raw node bits (not through :meth:`Kwg.words`). A path through the GADDAG's
    direction switch (tile 0) carries on into whatever list the switch points
    to, which is the DAWG's node for the prefix."""
    nodes = list(nodes)
    found: set[bytes] = set()
    if index == 0:
        return found
    while True:
        node = nodes[index]
        tile = bytes([node >> 24])
        if node & 0x800000:
            found.add(tile)
        if node & 0x3FFFFF:
            found.update(tile + rest for rest in paths(nodes, node & 0x3FFFFF))
        if node & 0x400000:
            return found
        index += 1


def gaddag_language(words: Iterable[bytes]) -> set[bytes]:
    """What the GADDAG must accept: each word reversed, and each split
    ``reverse(prefix) @ suffix`` with a non-empty prefix and suffix."""
    expected: set[bytes] = set()
    for word in words:
        expected.add(word[::-1])
        for i in range(1, len(word)):
            expected.add(word[:i][::-1] + b"\x00" + word[i:])
    return expected


def right_languages(words: set[bytes]) -> set[frozenset[bytes]]:
    """The distinct non-empty right languages of the words' prefixes: one
    state each in a minimal DAWG."""
    prefixes = {word[:i] for word in words for i in range(len(word))}
    found = set()
    for prefix in prefixes:
        rest = frozenset(word[len(prefix) :] for word in words if word.startswith(prefix) and word != prefix)
        if rest:
            found.add(rest)
    return found


# -- building ------------------------------------------------------------------


def test_small_list_with_prefixes_one_tile_words_repeats_any_order() -> None:
    words = [w("CARE"), w("CAR"), w("A"), w("CARES"), w("CAR"), w("AB"), w("B"), w("CARE")]
    graph = Kwg.build(words)
    expected = sorted(set(words))
    assert list(graph.words()) == expected
    for word in expected:
        assert graph.contains(word), word
    for word in (w("C"), w("CA"), w("CARESS"), w("BA"), w("AA"), b""):
        assert not graph.contains(word), word
    assert graph.has_gaddag
    assert graph == Kwg.build(reversed(expected))  # order and repeats do not matter
    assert paths(graph.nodes, graph.dawg_root) == set(expected)
    assert paths(graph.nodes, graph.gaddag_root) == gaddag_language(expected)


def test_words_come_in_tile_order() -> None:
    words = [w(x) for x in ("ZA", "QI", "AA", "AAH", "AB", "ZZZ", "QIS")]
    assert list(Kwg.build(words).words()) == sorted(words)


@pytest.mark.parametrize(
    "word",
    [b"", b"\x00", b"\x01\x00\x02", bytes([64]), bytes([1, 2, 200]), bytes([0x81])],
    ids=["empty", "tile 0", "tile 0 inside", "tile 64", "tile 200", "designated blank"],
)
def test_tiles_out_of_range_are_refused(word: bytes) -> None:
    with pytest.raises(ValueError):
        Kwg.build([w("QI"), word])


def test_largest_tile() -> None:
    graph = Kwg.build([bytes([63, 63]), bytes([1, 63])])
    assert list(graph.words()) == [bytes([1, 63]), bytes([63, 63])]


def test_empty_graph() -> None:
    graph = Kwg.build([])
    assert list(graph.words()) == []
    assert not graph.contains(w("QI"))
    assert graph.follow(w("Q")) == -1
    assert Kwg.from_bytes(graph.to_bytes()) == graph


def test_follow_and_seek() -> None:
    graph = Kwg.build([w("CAR"), w("CARE"), w("CAT")])
    nodes = graph.nodes
    c = graph.seek(graph.dawg_root, w("C")[0])
    assert c >= 0 and nodes[c] >> 24 == w("C")[0]
    assert graph.seek(graph.dawg_root, w("A")[0]) == -1
    assert graph.seek(graph.dawg_root, w("Z")[0]) == -1
    assert graph.seek(0, 1) == -1  # no list at all
    car = graph.follow(w("CAR"))
    assert car == graph.seek(nodes[graph.follow(w("CA"))] & 0x3FFFFF, w("R")[0])
    assert nodes[car] & 0x800000  # CAR is a word
    assert not nodes[graph.follow(w("CA"))] & 0x800000
    assert graph.follow(w("CAB")) == -1 and graph.follow(w("CARES")) == -1
    assert graph.follow(b"") == -1
    # the arcs of the list after CA: R then T, in tile order
    after_ca = nodes[graph.follow(w("CA"))] & 0x3FFFFF
    assert [nodes[i] >> 24 for i in graph.arcs(after_ca)] == [w("R")[0], w("T")[0]]
    assert list(graph.arcs(0)) == []
    # through the GADDAG: RAC@E is CARE split after CAR
    split = graph.follow(w("RAC") + b"\x00" + w("E"), root=graph.gaddag_root)
    assert split >= 0 and nodes[split] & 0x800000
    assert graph.follow(w("RAC") + b"\x00" + w("S"), root=graph.gaddag_root) == -1


def test_gaddag_switch_leads_into_the_dawg_node_of_the_prefix() -> None:
    words = [w(x) for x in ("CAR", "CARE", "CARES", "CAT", "BAT", "BATS", "AT")]
    graph = Kwg.build(words)
    nodes = graph.nodes
    for word in words:
        for i in range(1, len(word)):
            prefix = word[:i]
            switch = graph.follow(prefix[::-1] + b"\x00", root=graph.gaddag_root)
            assert nodes[switch] >> 24 == 0
            assert nodes[switch] & 0x3FFFFF == nodes[graph.follow(prefix)] & 0x3FFFFF


def test_gaddag_language_of_a_few_hundred_words() -> None:
    words = {w(x) for x in random.Random(7).sample(kjxqz_words(), 300)}
    graph = Kwg.build(words)
    assert paths(graph.nodes, graph.dawg_root) == words
    assert paths(graph.nodes, graph.gaddag_root) == gaddag_language(words)
    assert set(graph.words(graph.gaddag_root)) == gaddag_language(words)


small_words = st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=6).map(bytes)


@settings(max_examples=150, deadline=None)
@given(st.sets(small_words, max_size=25))
def test_dawg_and_gaddag_languages(words: set[bytes]) -> None:
    graph = Kwg.build(sorted(words, reverse=True))
    assert set(graph.words()) == words
    assert list(graph.words()) == sorted(words)
    assert all(graph.contains(word) for word in words)
    if words:
        assert paths(graph.nodes, graph.gaddag_root) == gaddag_language(words)
    dawg = Kwg.build(words, gaddag=False)
    assert list(dawg.words()) == sorted(words)
    # minimal: one sibling list per distinct right language, no list stored twice
    assert len(dawg) == 1 + sum(len({rest[0] for rest in lang}) for lang in right_languages(words))
    assert Kwg.from_bytes(graph.to_bytes()) == graph


def test_dawg_only() -> None:
    words = [w("CAR"), w("CARE"), w("QI")]
    dawg = Kwg.build(words, gaddag=False)
    full = Kwg.build(words)
    assert not dawg.has_gaddag and full.has_gaddag
    assert len(dawg) < len(full)
    assert list(dawg.words()) == list(full.words())
    with pytest.raises(ValueError, match="no GADDAG"):
        _ = dawg.gaddag_root
    assert repr(dawg) == f"<Kwg DAWG: {len(dawg)} nodes>"
    assert repr(full) == f"<Kwg DAWG+GADDAG: {len(full)} nodes>"


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    Kwg.build([w("QI"), w("ZA")], progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1] > 0


def test_full_default_lexicon_round_trip() -> None:
    # English tile codes are the letters' places in the alphabet, A=1 .. Z=26
    letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    to_tiles, to_letters = bytes.maketrans(letters, bytes(range(1, 27))), bytes.maketrans(bytes(range(1, 27)), letters)
    text = "\n".join(kjxqz_words()).encode("ascii")
    dawg = Kwg.build((word.translate(to_tiles) for word in text.split(b"\n")), gaddag=False)
    assert b"\n".join(word.translate(to_letters) for word in dawg.words()) == text
    assert Kwg.from_bytes(dawg.to_bytes()) == dawg


# -- reading and writing -------------------------------------------------------


def test_bytes_round_trip_and_little_endian(tmp_path: Path) -> None:
    graph = Kwg.build([w("CARE"), w("CAR"), w("ZA")])
    data = graph.to_bytes()
    assert len(data) == 4 * len(graph)
    assert list(struct.unpack(f"<{len(graph)}I", data)) == list(graph.nodes)
    assert Kwg.from_bytes(data) == graph
    path = tmp_path / "g.kwg"
    graph.save(path)
    assert path.read_bytes() == data
    assert Kwg.load(path) == graph and Kwg.load(str(path)) == graph


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "a KWG needs at least its root node, the file is empty"),
        (b"\x00" * 5, "a KWG is a whole number of 4-byte nodes, got 5 bytes"),
        (b"\x00" * 7, "a KWG is a whole number of 4-byte nodes, got 7 bytes"),
        (raw(0x00400001, 0x01C00009), "node 1 points to node 9, past the end of the graph (2 nodes)"),
        (raw(0x00400005), "node 0 points to node 5, past the end of the graph (1 nodes)"),
        (raw(0x00400001, 0x01800000), "the last node does not end its sibling list"),
        (raw(0x00000000), "the last node does not end its sibling list"),
    ],
    ids=["empty", "5 bytes", "7 bytes", "arc past the end", "root past the end", "list runs off", "one open node"],
)
def test_malformed_kwg(tmp_path: Path, data: bytes, message: str) -> None:
    with pytest.raises(FormatError) as info:
        Kwg.from_bytes(data, source="bad.kwg")
    assert str(info.value) == f"bad.kwg: {message}"
    path = tmp_path / "bad.kwg"
    path.write_bytes(data)
    with pytest.raises(FormatError) as info:
        Kwg.load(path)
    assert str(info.value) == f"{path}: {message}"


def test_malformed_error_names_the_first_bad_arc() -> None:
    graph = Kwg.build([w("CARE"), w("CAR"), w("ZA")])
    nodes = list(graph.nodes)
    nodes[5] = (nodes[5] & ~0x3FFFFF) | 0x3FFFFF
    nodes[9] = (nodes[9] & ~0x3FFFFF) | len(nodes)
    with pytest.raises(FormatError, match=f"node 5 points to node {0x3FFFFF}, past the end"):
        Kwg.from_bytes(raw(*nodes))
    nodes[5] = graph.nodes[5]
    with pytest.raises(FormatError, match=f"node 9 points to node {len(nodes)}, past the end"):
        Kwg.from_bytes(raw(*nodes))


@pytest.mark.parametrize("count", [3, 65535, 65536, 65537, 200_003])
def test_arc_bounds_check_on_big_graphs(count: int) -> None:
    nodes = [0x00400000] * count  # each node a one-arc list leading nowhere
    nodes[1] = 0x01C00000 | (count - 1)  # the last node: fine
    assert Kwg.from_bytes(raw(*nodes)).nodes[1] & 0x3FFFFF == count - 1
    nodes[count - 1] = 0x01C00000 | count
    with pytest.raises(FormatError, match=f"node {count - 1} points to node {count}, past the end"):
        Kwg.from_bytes(raw(*nodes))
    nodes[2] = 0x01C00000 | 0x3FFFFF
    with pytest.raises(FormatError, match=f"node 2 points to node {0x3FFFFF}, past the end"):
        Kwg.from_bytes(raw(*nodes))
    assert len(Kwg.from_bytes(raw(*nodes), validate=False)) == count


HAND_MADE_WORDS = [w(x) for x in ("AB", "AC", "AD", "BC", "BD")]


def test_file_with_shared_list_tails() -> None:
    graph = Kwg.from_bytes(HAND_MADE)
    assert graph.has_gaddag and graph.dawg_root == 2 and graph.gaddag_root == 4
    assert list(graph.words()) == HAND_MADE_WORDS
    for word in HAND_MADE_WORDS:
        assert graph.contains(word)
    for word in (w("A"), w("B"), w("BB"), w("BA"), w("DA"), w("ABC"), w("CA")):
        assert not graph.contains(word), word
    assert graph.follow(w("BB")) == -1  # the shared list at 9 starts past B
    assert paths(graph.nodes, graph.gaddag_root) == gaddag_language(HAND_MADE_WORDS)
    assert set(graph.words(graph.gaddag_root)) == gaddag_language(HAND_MADE_WORDS)
    assert graph.to_bytes() == HAND_MADE
    lexicon = KwgLexicon(graph, name="hand")
    assert list(lexicon) == ["AB", "AC", "AD", "BC", "BD"]
    assert "bd" in lexicon and "BB" not in lexicon and len(lexicon) == 5
    # ours is laid out differently, but reads the same
    ours = Kwg.build(HAND_MADE_WORDS)
    assert list(ours.words()) == list(graph.words())
    assert set(ours.words(ours.gaddag_root)) == set(graph.words(graph.gaddag_root))
