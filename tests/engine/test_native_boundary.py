"""The compiled core checked at its boundary.

Every function of ``tilebag.engine._native`` that Python can call checks
what it is given before a search reads it (``native/config.c`` says what the
searches rely on): the word graph's nodes when a ``Core`` is made, every
board byte and rack tile where they come in, the board's length, the numbers
a search adds up, and a second ``__init__``. Here each check gets a bad input
and must raise a Python exception naming what was wrong and where; a
hypothesis fuzz throws random boards, racks and small random graphs (raw node
arrays) at every entry point, and compares the plays of random word lists'
graphs with the reference generator's; and one slow test builds the core with
AddressSanitizer and UndefinedBehaviorSanitizer and runs the core's own tests
and the fuzz against that build.

``TILEBAG_NATIVE_FUZZ_EXAMPLES`` sets the fuzz's examples per test.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from tilebag.alphabet import load_alphabet
from tilebag.board import Board
from tilebag.engine.equity.leaves import HeuristicLeaves
from tilebag.engine.movegen.generator import MoveGenerator, native_available
from tilebag.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, Kwg
from tilebag.layout import load_layout
from tilebag.lexicon import WordList

NATIVE_SOURCES = ROOT / "src" / "tilebag" / "engine" / "native"
FUZZ_EXAMPLES = int(os.environ.get("TILEBAG_NATIVE_FUZZ_EXAMPLES", "300"))
UNDER_SANITIZERS = "TILEBAG_UNDER_SANITIZERS"
"""Set in the sanitizer test's subprocess (which must not start another)."""

needs_native = pytest.mark.skipif(not native_available(), reason="the compiled core was not built in this installation")
fuzz_settings = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

ALPHABET = load_alphabet("english")
SCORES = list(ALPHABET.scores)
"""The English tile set's scores: 27 tiles, so tile 27 (0x1B) is one too many."""
LAYOUT = load_layout("standard")
WORDS = WordList(["AT", "TA", "CAT", "ACT", "TACT", "EAT", "TEA", "ATE", "ETA", "TEAT"])


def native() -> Any:
    """The compiled module (typed loosely: the tests give it wrong types on purpose)."""
    return importlib.import_module("tilebag.engine._native")


def core_args(nodes: object = None, **changed: object) -> list[object]:
    """Core's arguments for the small word list on the standard board, with
    ``changed`` ones by name."""
    kwg = WORDS.kwg
    args: dict[str, object] = {
        "nodes": kwg.nodes if nodes is None else nodes,
        "gaddag_root": kwg.gaddag_root,
        "dawg_root": kwg.dawg_root,
        "rows": LAYOUT.rows,
        "cols": LAYOUT.cols,
        "letter_mult": bytes(LAYOUT.letter_multipliers),
        "word_mult": bytes(LAYOUT.word_multipliers),
        "scores": SCORES,
        "start": LAYOUT.start,
        "bingo_tiles": 7,
        "bingo_bonus": 50,
        "first_min": 2,
    }
    args.update(changed)
    return list(args.values())


def make_core(nodes: object = None, **changed: object) -> Any:
    return native().Core(*core_args(nodes, **changed))


def tiles(text: str) -> bytes:
    return bytes(ALPHABET.parse_rack(text))


def board_with(square: int, byte: int) -> bytearray:
    board = bytearray(LAYOUT.size)
    board[LAYOUT.start] = tiles("A")[0]
    board[square] = byte
    return board


# The entry points that take a board and a rack, each as a call of (core, board, rack).
PASS = (2, 0, 0, False, b"", 0)
ENTRIES: dict[str, Callable[[Any, bytes | bytearray, bytes], object]] = {
    "placements": lambda core, board, rack: core.placements(board, rack),
    "generate": lambda core, board, rack: core.generate(board, rack, None, False, -1, True, 0),
    "generate top": lambda core, board, rack: core.generate(board, rack, None, False, 1, True, 0),
    "endgame": lambda core, board, rack: core.endgame(board, rack, tiles("E"), 0, 6, 1, 1.0, 1, None, None),
    "rollouts": lambda core, board, rack: core.rollouts(board, rack, 1, tiles("EST"), [PASS], [1], 1, None, 7, 0, 6, 7, None),
}


# -- (a) each check, against the normal build ---------------------------------------


def corrupt(change: Callable[[array[int]], object]) -> array[int]:
    nodes = array("I", WORDS.kwg.nodes)
    change(nodes)
    return nodes


def set_arc(nodes: array[int], index: int, arc: int) -> None:
    nodes[index] = (nodes[index] & ~ARC_MASK) | arc


def set_tile(nodes: array[int], index: int, tile: int) -> None:
    nodes[index] = (nodes[index] & ((1 << TILE_SHIFT) - 1)) | tile << TILE_SHIFT


def first_list_of_two() -> int:
    """A node that is not the last of its sibling list."""
    nodes = WORDS.kwg.nodes
    return next(i for i in range(2, len(nodes) - 1) if not nodes[i] & IS_END)


GRAPH_COUNT = len(WORDS.kwg.nodes)


@needs_native
@pytest.mark.parametrize(
    ("nodes", "changed", "message"),
    [
        (corrupt(lambda n: set_arc(n, 5, GRAPH_COUNT)), {}, rf"node 5 points to node {GRAPH_COUNT}, past the end of the graph \({GRAPH_COUNT} nodes\)"),
        (corrupt(lambda n: set_arc(n, 3, ARC_MASK)), {}, rf"node 3 points to node {ARC_MASK}"),
        (corrupt(lambda n: n.__setitem__(-1, n[-1] & ~IS_END)), {}, rf"the last node \({GRAPH_COUNT - 1}\) does not end its sibling list"),
        (corrupt(lambda n: set_tile(n, 4, 27)), {}, "node 4 holds tile 27, not one of the 27 tiles"),
        (corrupt(lambda n: set_tile(n, 4, 255)), {}, "node 4 holds tile 255"),
        (
            corrupt(lambda n: set_tile(n, first_list_of_two() + 1, n[first_list_of_two()] >> TILE_SHIFT)),
            {},
            rf"nodes {first_list_of_two()} and {first_list_of_two() + 1} are siblings out of order",
        ),
        (None, {"gaddag_root": GRAPH_COUNT}, rf"a root \(GADDAG {GRAPH_COUNT}, DAWG \d+\) is past the end"),
        (None, {"dawg_root": 1 << 30}, "is past the end of the graph"),
        (array("I"), {"gaddag_root": 0, "dawg_root": 0}, "the graph has no nodes"),
        (bytes(10), {"gaddag_root": 0, "dawg_root": 0}, "the graph is 10 bytes, not a whole number of 4-byte nodes"),
    ],
    ids=["arc past the end", "arc far past", "last list unended", "tile past the set", "tile 255", "siblings out of order",
         "gaddag root", "dawg root", "no nodes", "partial node"],
)
def test_a_graph_the_walk_cannot_rely_on_is_refused(nodes: object, changed: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_core(nodes, **changed)


@needs_native
def test_the_graph_is_copied_so_changing_it_later_changes_nothing() -> None:
    nodes = array("I", WORDS.kwg.nodes)
    core = make_core(nodes)
    board, rack = bytearray(LAYOUT.size), tiles("CAT")
    before = sorted(core.placements(board, rack))
    for i in range(len(nodes)):
        nodes[i] = 0xFFFFFFFF  # arcs and tiles no check would pass
    assert sorted(core.placements(board, rack)) == before and before


@needs_native
@pytest.mark.parametrize(
    ("changed", "message"),
    [
        ({"rows": 0}, "a board of 0 rows and 15 columns; the core takes 1 to 32 a side"),
        ({"cols": 33}, "a board of 15 rows and 33 columns"),
        ({"letter_mult": bytes(224)}, "224 letter and 225 word multipliers, 225 squares"),
        ({"start": 225}, r"the start square 225 is off the board \(squares 0 to 224\)"),
        ({"start": -1}, "the start square -1 is off the board"),
        ({"scores": []}, "the score table has 0 tiles, the core takes 1 to 64"),
        ({"scores": [1] * 65}, "the score table has 65 tiles"),
        ({"scores": SCORES[:5] + [-1]}, "tile 5 scores -1; a tile scores 0 to 1000"),
        ({"scores": SCORES[:9] + [1001]}, "tile 9 scores 1001"),
        ({"word_mult": bytes([9]) * 225}, "a play could score up to .* more than the 1000000 the core counts"),
        ({"bingo_bonus": 2_000_000}, "a play could score up to"),
    ],
    ids=["rows", "cols", "multipliers", "start past", "start before", "no scores", "65 scores", "negative score",
         "big score", "multipliers too big", "bingo bonus too big"],
)
def test_a_layout_or_tile_set_the_core_cannot_count_on_is_refused(changed: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_core(**changed)


@needs_native
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("byte", [0x1B, 0x45, 0x7F, 0x80, 0x9B, 0xFF], ids=lambda b: f"{b:#04x}")
def test_every_board_byte_is_checked_where_the_board_comes_in(entry: str, byte: int) -> None:
    core = make_core()
    with pytest.raises(ValueError, match=rf"board byte {byte:#04x} at square 17 is not a tile \(0 empty, 1 to 26 a letter"):
        ENTRIES[entry](core, board_with(17, byte), tiles("CAT"))
    ENTRIES[entry](core, board_with(17, 0x80 | 26), tiles("CAT"))  # a blank standing for Z is a tile


@needs_native
@pytest.mark.parametrize("entry", ENTRIES)
def test_the_boards_length_is_checked_where_it_comes_in(entry: str) -> None:
    core = make_core()
    for length in (0, 224, 226):
        with pytest.raises(ValueError, match=rf"the board has {length} squares, the layout 225 \(15 rows of 15\)"):
            ENTRIES[entry](core, bytes(length), tiles("CAT"))


@needs_native
@pytest.mark.parametrize("entry", ENTRIES)
def test_every_rack_tile_is_checked_where_the_rack_comes_in(entry: str) -> None:
    core = make_core()
    for rack, message in (
        (tiles("CA") + bytes([27]), r"tile 27 at 2 of the rack is out of range \(0 a blank, 1 to 26 a letter\)"),
        (bytes([200]), "tile 200 at 0 of the rack is out of range"),
        (tiles("A") * 17, "the rack of 17 tiles is more than the 16 the core takes"),
    ):
        with pytest.raises(ValueError, match=message):
            ENTRIES[entry](core, bytearray(LAYOUT.size), rack)


@needs_native
def test_the_other_racks_and_letter_sets_are_checked_too() -> None:
    core = make_core()
    board = bytearray(LAYOUT.size)
    with pytest.raises(ValueError, match="Core.endgame: tile 27 at 1 of the other rack is out of range"):
        core.endgame(board, tiles("A"), bytes([1, 27]), 0, 6, 1, 1.0, 1, None, None)
    with pytest.raises(ValueError, match="tile 64 at 0 of the opponent's kept tiles is out of range"):
        core.rollouts(board, tiles("A"), 1, tiles("EST"), [PASS], [1], 1, None, 7, 0, 6, 7, None, bytes([64]))
    with pytest.raises(ValueError, match="tile 27 at 3 of the unseen tiles is out of range"):
        core.rollouts(board, tiles("A"), 1, tiles("EST") + bytes([27]), [PASS], [1], 1, None, 7, 0, 6, 7, None)
    for letters in (bytes([0]), bytes([27]), tiles("CA") + bytes([99])):
        with pytest.raises(ValueError, match=r"is not one of the letter tiles \(1 to 26\)"):
            core.may_spell(letters, 0)
    with pytest.raises(ValueError, match="-1 blanks"):
        core.may_spell(tiles("CAT"), -1)
    assert core.may_spell(tiles("CAT"), 0) and not core.may_spell(tiles("ZZZ"), 0)


@needs_native
def test_a_second_init_is_refused_and_the_first_is_kept() -> None:
    core = make_core()
    rack = tiles("CAT")
    plays = sorted(core.placements(bytearray(LAYOUT.size), rack))
    other_graph = WordList(["ZA"]).kwg
    with pytest.raises(RuntimeError, match="Core.__init__ called on a Core already initialised"):
        core.__init__(*core_args(other_graph.nodes, gaddag_root=other_graph.gaddag_root, dawg_root=other_graph.dawg_root))
    assert sorted(core.placements(bytearray(LAYOUT.size), rack)) == plays
    heuristic = native().Heuristic(*HEURISTIC_ARGS)
    with pytest.raises(RuntimeError, match="Heuristic.__init__ called on a Heuristic already initialised"):
        heuristic.__init__(*HEURISTIC_ARGS)
    klv = native().Klv(*KLV_ARGS)
    with pytest.raises(RuntimeError, match="Klv.__init__ called on a Klv already initialised"):
        klv.__init__(*KLV_ARGS)


HEURISTIC_ARGS: list[object] = [[1.0] * 27, [0.5] * 27, 0b100010000000100010001, 17, 21, 0.5, 0.4, 8.0, 1.0, 1.0, 7.0]
KLV_ARGS: list[object] = [array("I", [0x00400001, 0x01C00000]), array("I", [1, 1]), [2.5]]
"""A KLV of one leave (an A, worth 2.5)."""


@needs_native
def test_an_object_never_initialised_is_refused() -> None:
    module = native()
    bare = module.Core.__new__(module.Core)
    board = bytearray(LAYOUT.size)
    calls: list[Callable[[], object]] = [
        lambda: bare.placements(board, b""),
        lambda: bare.generate(board, b"", None, False, -1, False, 0),
        lambda: bare.may_spell(b"\x01", 0),
        lambda: bare.endgame(board, b"", b"", 0, 6, 1, 1.0, 1, None, None),
        lambda: bare.rollouts(board, b"", 0, b"", [PASS], [1], 1, None, 7, 0, 6, 7, None),
    ]
    for call in calls:
        with pytest.raises(RuntimeError, match="the Core was never initialised"):
            call()
    core = make_core()
    for leaves, name in ((module.Klv.__new__(module.Klv), "Klv"), (module.Heuristic.__new__(module.Heuristic), "Heuristic")):
        with pytest.raises(TypeError, match=f"the {name} was never initialised"):
            core.generate(board, tiles("CAT"), leaves, False, -1, False, 0)
        with pytest.raises(TypeError, match=f"the {name} was never initialised"):
            core.rollouts(board, tiles("CAT"), 1, tiles("EST"), [PASS], [1], 1, leaves, 7, 0, 6, 7, None)


@needs_native
@pytest.mark.parametrize(
    ("candidate", "error", "message"),
    [
        ((1, 0, 0, False, tiles("Z"), 0), ValueError, r"candidate 0 exchanges tile 26 \(at 0\), which the rack does not hold"),
        ((1, 0, 0, False, tiles("AA"), 0), ValueError, "exchanges tile 1 .at 1., which the rack does not hold"),
        ((1, 0, 0, False, bytes(17), 0), ValueError, "exchanges 17 tiles, more than a rack holds"),
        ((0, 7, 7, False, bytes([1, 0x45]), 3), ValueError, "candidate 0 places byte 0x45 at 1, not a tile"),
        ((0, 14, 7, False, tiles("AT"), 3), ValueError, "candidate 0, 2 squares from 14 on row 7, is off the board"),
        ((0, 7, 15, True, tiles("AT"), 3), ValueError, "on column 15, is off the board"),
        ((0, 7, 7, False, tiles("AT"), 2_000_000), ValueError, "candidate 0 scores 2000000, more than a play can"),
        ((7, 0, 0, False, b"", 0), ValueError, r"candidate 0 has kind 7 \(0 a placement"),
        ("8H AT", TypeError, "candidate 0 is a str, not a tuple"),
    ],
    ids=["exchange not held", "exchange one too many", "exchange too long", "placed byte", "off the board across",
         "off the board down", "score", "kind", "not a tuple"],
)
def test_a_rollout_candidate_is_checked_as_a_rollout_plays_it(candidate: object, error: type[Exception], message: str) -> None:
    core = make_core()
    with pytest.raises(error, match=message):
        core.rollouts(bytearray(LAYOUT.size), tiles("CAT"), 1, tiles("EST"), [candidate], [1], 1, None, 7, 0, 6, 7, None)


@needs_native
def test_numbers_a_search_cannot_count_with_are_refused() -> None:
    module = native()
    core = make_core()
    board = bytearray(LAYOUT.size)
    nan, inf = float("nan"), float("inf")
    with pytest.raises(ValueError, match="Klv: value 0 is not a finite number"):
        module.Klv(KLV_ARGS[0], KLV_ARGS[1], [nan])
    with pytest.raises(ValueError, match="Heuristic: balance_weight is not a finite number"):
        module.Heuristic(*HEURISTIC_ARGS[:7], inf, *HEURISTIC_ARGS[8:])
    with pytest.raises(ValueError, match="Heuristic: tile values: the value at 3 is not a finite number"):
        module.Heuristic([1.0, 1.0, 1.0, nan], [0.0] * 4, *HEURISTIC_ARGS[2:])
    strides = bytearray(64)
    strides[1] = 1
    with pytest.raises(ValueError, match="the leave value at 1 of this rack's table is inf"):
        core.generate(board, tiles("A"), (bytes(strides), [0.0, inf]), False, -1, False, 0)
    with pytest.raises(ValueError, match="the leave value at 0 of this rack's table is 1e\\+30"):
        core.generate(board, tiles("A"), (bytes(strides), [1e30, 0.0]), False, -1, False, 0)

    def rollouts(**changed: object) -> Any:
        args: dict[str, object] = {"rack": tiles("CAT"), "other": 1, "unseen": tiles("EST"), "scoreless": 0,
                                   "limit": 6, "rack_size": 7, "wins": None}
        args.update(changed)
        return core.rollouts(board, args["rack"], args["other"], args["unseen"], [PASS], [1], 1, None, 7,
                             args["scoreless"], args["limit"], args["rack_size"], args["wins"])

    for wins, message in (
        ((0.0, [0.0], [1.0]), "the win table's scale at 0 is not above 0"),
        ((0.0, [nan], [1.0]), "the win table's scales: the value at 0 is not a finite number"),
        ((0.0, [1.0], [inf]), "the win table's edges: the value at 0 is not a finite number"),
        ((nan, [1.0], [1.0]), "the spread before is not a finite number"),
    ):
        with pytest.raises(ValueError, match=message):
            rollouts(wins=wins)
    with pytest.raises(ValueError, match="a rack size of 2, where the racks dealt hold 3 tiles"):
        rollouts(rack_size=2)
    with pytest.raises(ValueError, match="a rack size of 17"):
        rollouts(rack_size=17)
    with pytest.raises(ValueError, match="the opponent's 4 dealt tiles .and 0 kept. do not fit: 3 unseen"):
        rollouts(other=4)
    with pytest.raises(ValueError, match="scoreless turns -1 and their limit 6 must be 0 to 1000000"):
        rollouts(scoreless=-1)
    assert len(rollouts()) == 1
    with pytest.raises(ValueError, match="scoreless turns 0 and their limit -6 must be 0 to 1000000"):
        core.endgame(board, tiles("A"), tiles("E"), 0, -6, 1, 1.0, 1, None, None)
    with pytest.raises(ValueError, match="a table of 4611686018427387904 megabytes is more than"):
        core.endgame(board, tiles("A"), tiles("E"), 0, 6, 1, 1.0, 1 << 62, None, None)
    with pytest.raises(TypeError, match="stop and on_depth must each be None or a callable"):
        core.endgame(board, tiles("A"), tiles("E"), 0, 6, 1, 1.0, 1, 3, None)
    for threads in (0, -1, 65):
        with pytest.raises(ValueError, match=f"{threads} threads: it takes 1 to 64"):
            core.endgame(board, tiles("A"), tiles("E"), 0, 6, 1, 1.0, 1, None, None, threads)


class Sneaky:
    """A leave value whose conversion to float runs Python code: it tries
    another call on the same core and scribbles on the caller's board."""

    def __init__(self, core: Any, board: bytearray, value: float) -> None:
        self.core, self.board, self.value = core, board, value
        self.refused: list[str] = []

    def __float__(self) -> float:
        try:
            self.core.generate(bytes(self.board), tiles("CAT"), None, False, -1, False, 0)
        except RuntimeError as error:
            self.refused.append(str(error))
        self.board[:] = bytes([0x45]) * len(self.board)  # no board byte a check would pass
        return self.value


@needs_native
def test_python_code_a_call_runs_can_neither_reenter_the_core_nor_change_its_board() -> None:
    core = make_core()
    board = board_with(LAYOUT.start + 1, tiles("T")[0])
    rack = tiles("CA")
    strides = bytearray(64)
    strides[1], strides[3] = 1, 2
    values = [0.0, 1.0, 2.0, 3.0]
    expected = list(core.generate(board, rack, (bytes(strides), values), False, -1, False, 0))
    sneaky = Sneaky(core, board, 1.0)
    listed = list(core.generate(board, rack, (bytes(strides), [0.0, sneaky, 2.0, 3.0]), False, -1, False, 0))
    assert listed == expected and expected, "the plays of the board as it was when the call began"
    assert sneaky.refused and "Core.generate: this Core is busy with another call" in sneaky.refused[0]
    assert board == bytes([0x45]) * LAYOUT.size
    assert len(core.generate(bytearray(LAYOUT.size), tiles("CAT"), None, False, -1, False, 0)) > 0, "the core works after"


@needs_native
def test_an_endgame_search_without_the_gil_keeps_its_configuration() -> None:
    """While a search runs without the GIL, another thread uses the same core,
    and a callback tries to initialise it again: refused, so the search goes
    on reading the graph it started with."""
    lexicon = WordList(["AT", "TA", "CAT", "ACT", "TACT", "EAT", "TEA", "ATE", "ETA", "TEAT", "SAT", "SEAT", "EATS", "TEAS"])
    kwg = lexicon.kwg
    core = make_core(kwg.nodes, gaddag_root=kwg.gaddag_root, dawg_root=kwg.dawg_root)
    board = bytearray(LAYOUT.size)
    for i, tile in enumerate(tiles("TEA")):
        board[LAYOUT.start + i] = tile
    refused: list[str] = []

    def on_depth(*_: object) -> None:
        try:
            core.__init__(*core_args(kwg.nodes, gaddag_root=kwg.gaddag_root, dawg_root=kwg.dawg_root))
        except RuntimeError as error:
            refused.append(str(error))

    results: list[object] = []
    search = threading.Thread(
        target=lambda: results.append(core.endgame(board, tiles("CATS"), tiles("SEAT"), 0, 6, 4, 10.0, 8, None, on_depth))
    )
    search.start()
    generated = [len(core.generate(board, tiles("SEAT"), None, False, -1, True, 0)) for _ in range(20)]
    search.join()
    assert results and refused and all("already initialised" in text for text in refused)
    assert len(set(generated)) == 1 and generated[0] > 1


# -- (b) the fuzz --------------------------------------------------------------------


def graph_problem(nodes: Sequence[int], gaddag_root: int, dawg_root: int, tile_count: int) -> str | None:
    """What Core must refuse in a graph, as a pattern of its message (None: nothing)."""
    count = len(nodes)
    if count < 1:
        return "the graph has no nodes"
    if gaddag_root >= count or dawg_root >= count:
        return "is past the end of the graph"
    for i, value in enumerate(nodes):
        if value & ARC_MASK >= count:
            return f"node {i} points to node {value & ARC_MASK}, past the end"
        if value >> TILE_SHIFT >= tile_count:
            return f"node {i} holds tile {value >> TILE_SHIFT}"
        if not value & IS_END:
            if i == count - 1:
                return f"the last node .{i}. does not end its sibling list"
            if nodes[i + 1] >> TILE_SHIFT <= value >> TILE_SHIFT:
                return f"nodes {i} and {i + 1} are siblings out of order"
    return None


FEW = 5
"""The tiles (1 to FEW - 1, and blanks) a fuzzed graph's words and racks are
mostly made of, so that words meet on the board and plays are found."""


@st.composite
def raw_graphs(draw: st.DrawFn, tile_count: int) -> tuple[list[int], int, int]:
    """A graph's node array and roots: the KWG the project builds from a few
    random words, or sibling lists of increasing tiles with arcs to random
    lists; then a field or two of a node or two changed (an arc, a tile, the
    end of a list, or the whole node), so that most graphs pass the checks
    and some do not."""
    few = min(tile_count, FEW)
    if few > 1 and draw(st.booleans(), label="built from words"):
        words = draw(st.lists(st.lists(st.integers(1, few - 1), min_size=1, max_size=4).map(bytes), min_size=1, max_size=8))
        kwg = Kwg.build(words)
        nodes = list(kwg.nodes)
        roots = [kwg.gaddag_root, kwg.dawg_root]
    else:
        lists = draw(st.lists(st.lists(st.integers(0, tile_count - 1), min_size=1, max_size=4, unique=True), max_size=8))
        starts: list[int] = []
        nodes = []
        for tiles_of_list in lists:
            starts.append(len(nodes))
            for k, tile in enumerate(sorted(tiles_of_list)):
                nodes.append(tile << TILE_SHIFT | (IS_END if k == len(tiles_of_list) - 1 else 0))
        targets = st.sampled_from([0, *starts])
        for i in range(len(nodes)):
            nodes[i] |= draw(targets) | (ACCEPTS if draw(st.booleans()) else 0)
        roots = [draw(targets), draw(targets)]
    for _ in range(draw(st.integers(0, 2), label="changes")):
        if not nodes:
            break
        i = draw(st.integers(0, len(nodes) - 1))
        change = draw(st.sampled_from(["arc", "tile", "end", "node"]))
        if change == "arc":
            nodes[i] = (nodes[i] & ~ARC_MASK) | draw(st.integers(0, len(nodes)))
        elif change == "tile":
            nodes[i] = (nodes[i] & ((1 << TILE_SHIFT) - 1)) | draw(st.integers(0, tile_count)) << TILE_SHIFT
        elif change == "end":
            nodes[i] ^= IS_END
        else:
            nodes[i] = draw(st.integers(0, 2**32 - 1))
    if draw(st.integers(0, 9)) == 0:
        roots[draw(st.integers(0, 1))] = draw(st.integers(0, len(nodes) + 1))
    return nodes, roots[0], roots[1]


def board_bytes(tile_count: int) -> st.SearchStrategy[int]:
    """Mostly empty squares, then tiles a board may hold (letters and
    blanks, most of them among the first few tiles), sometimes any byte."""
    letters = st.one_of(st.integers(1, max(min(tile_count, FEW) - 1, 1)), st.integers(1, max(tile_count - 1, 1)))
    return st.one_of(st.just(0), st.just(0), st.just(0), letters, letters.map(lambda t: t | 0x80), st.integers(0, 255))


@st.composite
def boards(draw: st.DrawFn, tile_count: int, size: int) -> bytes:
    """A board of a few tiles it may hold (often none: plays are found from
    the start square), one time in four with one square's byte, or the
    board's length, made wrong."""
    squares = [0] * size
    if tile_count > 1:
        few = st.integers(1, max(min(tile_count, FEW) - 1, 1))
        letters = st.one_of(few, few, st.integers(1, tile_count - 1))
        for square in draw(st.lists(st.integers(0, size - 1), max_size=size // 3)):
            squares[square] = draw(letters) | (0x80 if draw(st.integers(0, 3)) == 0 else 0)
    spoil = draw(st.integers(0, 7))
    if spoil == 0:
        squares[draw(st.integers(0, size - 1))] = draw(st.integers(0, 255))
    elif spoil == 1:
        squares = squares[:-1] if draw(st.booleans()) else [*squares, 0]
    return bytes(squares)


def is_board_byte(byte: int, tile_count: int) -> bool:
    return byte == 0 or 1 <= (byte & 0x7F) < tile_count


def expect(valid: bool, call: Callable[..., object], *args: object) -> object:
    """``call(*args)``'s result when its input is valid; a ValueError when not."""
    if valid:
        return call(*args)
    with pytest.raises(ValueError):
        call(*args)
    return None


@pytest.mark.slow
@needs_native
@fuzz_settings
@given(data=st.data())
def test_fuzz_every_entry_point_with_random_graphs_boards_and_racks(data: st.DataObject) -> None:
    """Random small graphs (raw node arrays) on random small boards: a graph
    the checks refuse raises a ValueError naming the node; every call on a
    graph they pass either answers (valid board and racks) or raises a
    ValueError (anything invalid), and never reads outside its arrays (which
    the sanitizer build of this test would report)."""
    draw = data.draw
    tile_count = draw(st.integers(1, 40), label="tile_count")
    rows, cols = draw(st.integers(1, 5), label="rows"), draw(st.integers(1, 5), label="cols")
    size = rows * cols
    nodes, gaddag_root, dawg_root = draw(raw_graphs(tile_count), label="graph")
    scores = draw(st.lists(st.integers(0, 10), min_size=tile_count, max_size=tile_count), label="scores")
    multipliers = st.binary(min_size=size, max_size=size).map(lambda b: bytes(1 + x % 3 for x in b))
    args = (array("I", nodes), gaddag_root, dawg_root, rows, cols, draw(multipliers), draw(multipliers), scores,
            draw(st.integers(0, size - 1)), 7, 50, draw(st.integers(1, 2)))
    problem = graph_problem(nodes, gaddag_root, dawg_root, tile_count)
    event("graph refused" if problem else "graph accepted")
    if problem is not None:
        with pytest.raises(ValueError, match=problem):
            native().Core(*args)
        return
    core = native().Core(*args)
    rack_tiles = st.one_of(st.integers(0, min(tile_count, FEW) - 1), st.integers(0, tile_count))  # tile_count: one too many
    for _ in range(2):
        board = draw(boards(tile_count, size), label="board")
        rack = bytes(draw(st.lists(rack_tiles, max_size=8), label="rack"))
        other = bytes(draw(st.lists(rack_tiles, max_size=4), label="other rack"))
        board_ok = len(board) == size and all(is_board_byte(b, tile_count) for b in board)

        def held(tiles_: bytes) -> bool:
            return all(t < tile_count for t in tiles_)

        placements = expect(board_ok and held(rack), core.placements, board, rack)
        event(f"board {'valid' if board_ok else 'invalid'}, rack {'valid' if held(rack) else 'invalid'}")
        if placements:
            event("plays found")
        for start, lane, down, placed, _score in placements if isinstance(placements, list) else ():
            assert 0 <= lane < (cols if down else rows) and start + len(placed) <= (rows if down else cols)
        top, endgame = draw(st.sampled_from([-1, 1, 3]), label="top"), draw(st.booleans(), label="endgame")
        expect(board_ok and held(rack), core.generate, board, rack, None, endgame, top, True, 2)
        letters = bytes(draw(st.lists(st.integers(0, tile_count), max_size=6), label="letters"))
        blanks = draw(st.integers(0, 3), label="blanks")
        expect(all(1 <= t < tile_count for t in letters), core.may_spell, letters, blanks)
        expect(board_ok and held(rack[:4]) and held(other), core.endgame, board, rack[:4], other, 0, 4, 2, 1.0, 1, None, None)
        unseen = bytes(draw(st.lists(rack_tiles, max_size=10), label="unseen"))
        dealt = min(len(unseen), 7, draw(st.integers(0, 7)))
        candidates: list[object] = [PASS]
        candidate_ok = True
        if draw(st.booleans(), label="a placement candidate"):
            down, start, lane = draw(st.booleans()), draw(st.integers(0, 5)), draw(st.integers(0, 5))
            placed = bytes(draw(st.lists(board_bytes(tile_count), min_size=1, max_size=4)))
            candidates.append((0, start, lane, down, placed, 5))
            candidate_ok = (lane < (cols if down else rows) and start + len(placed) <= (rows if down else cols)
                            and all(is_board_byte(b, tile_count) for b in placed))
        valid = board_ok and held(rack[:7]) and held(unseen) and candidate_ok
        expect(valid, core.rollouts, board, rack[:7], dealt, unseen, candidates, [1, 2], 2, None, 0, 0, 4, 7, None)


LETTERS = "ACEINORST"


@pytest.mark.slow
@needs_native
@fuzz_settings
@given(
    words=st.lists(st.text(alphabet=LETTERS, min_size=2, max_size=5), min_size=1, max_size=25, unique=True),
    squares=st.lists(
        st.tuples(st.integers(0, LAYOUT.size - 1), st.sampled_from(LETTERS + "QZ"), st.booleans()), max_size=14
    ),
    rack_text=st.text(alphabet=LETTERS + "?", max_size=7),
    top=st.sampled_from([1, 3]),
)
def test_fuzz_random_word_graphs_give_the_references_plays(
    words: list[str], squares: list[tuple[int, str, bool]], rack_text: str, top: int
) -> None:
    """The comparison test_cores makes on real positions, on random word
    lists and random boards (any letters, some of them blanks): the same
    placements, the same valued and sorted plays, the same best few."""
    kwg = WordList(words).kwg
    python = MoveGenerator(kwg, core="python")
    compiled = MoveGenerator(kwg, core="native")
    board = Board()
    for square, letter, blank in squares:
        board.tiles[square] = ALPHABET.parse_rack(letter)[0] | (0x80 if blank else 0)
    board.tile_count = sum(1 for tile in board.tiles if tile)  # as Board.place keeps it
    rack = ALPHABET.parse_rack(rack_text)

    def keyed(generator: MoveGenerator) -> list[tuple[int, int, bool, tuple[int, ...], int]]:
        return sorted((m.row, m.col, m.down, tuple(m.tiles), score) for m, score in generator.placements(board, rack))

    found = keyed(compiled)
    event("plays found" if found else "no plays")
    assert found == keyed(python)
    leaves = HeuristicLeaves(ALPHABET)
    for bag in (0, 40):
        assert compiled.generate(board, rack, leaves=leaves, bag_count=bag, exchanges=True) == python.generate(
            board, rack, leaves=leaves, bag_count=bag, exchanges=True
        )
        assert compiled.generate(board, rack, leaves=leaves, bag_count=bag, top=top) == python.generate(
            board, rack, leaves=leaves, bag_count=bag, top=top
        )


# -- (c) the sanitizer build -------------------------------------------------------------

SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
SANITIZED_TESTS = [
    "tests/engine/test_native_boundary.py",
    "tests/engine/test_cores.py",
    "tests/engine/test_movegen.py",
    "tests/engine/test_endgame.py",
    "tests/engine/test_sim_rollouts.py",
    "tests/engine/test_inference.py",
]
LEFT_OUT = [
    # the reference and a brute-force enumerator take all their time, the core none
    "tests/engine/test_movegen.py::test_generator_equals_brute_force_on_a_few_random_positions",
    "tests/engine/test_movegen.py::test_cores_agree_on_random_positions_with_the_full_lexicon",
]
"""The slow tests of these files run under the sanitizers too (this one skips there), but these."""
KEPT_RECORDS = "not test_both_cores_find_every_valid_recorded_play or selfplay"
"""Of the golden records (the reference's time again), the project's own self-play games."""
RUNNER = '''\
"""Run pytest with the sanitized core as tilebag.engine._native: runner.py SO ARGS..."""
import importlib.machinery
import importlib.util
import sys

so = sys.argv[1]
loader = importlib.machinery.ExtensionFileLoader("tilebag.engine._native", so)
module = importlib.util.module_from_spec(importlib.util.spec_from_loader("tilebag.engine._native", loader, origin=so))
loader.exec_module(module)
sys.modules["tilebag.engine._native"] = module  # found first: the tree's own build is never loaded
import tilebag.engine.movegen.generator as movegen

assert movegen._native is module, "the sanitized core must be the one tilebag uses"
import pytest

sys.exit(pytest.main(sys.argv[2:]))
'''


def sanitizer_runtime() -> tuple[str, str]:
    """gcc and its AddressSanitizer runtime, or skip saying which is missing."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed: the sanitizer build needs it")
    found = subprocess.run([gcc, "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(found) or not os.path.exists(found):
        pytest.skip(f"gcc has no AddressSanitizer runtime (gcc -print-file-name=libasan.so gave {found!r})")
    return gcc, found


def build_sanitized(gcc: str, folder: Path) -> Path:
    """The core built with the sanitizers into `folder` (skips when this gcc
    cannot build anything with them)."""
    include = sysconfig.get_paths()["include"]
    probe = folder / "probe.c"
    probe.write_text("int probe(int x) { return x + 1; }\n")
    tried = subprocess.run([gcc, "-shared", "-fPIC", *SANITIZE, str(probe), "-o", str(folder / "probe.so")],
                           capture_output=True, text=True)
    if tried.returncode:
        pytest.skip(f"gcc cannot build with the sanitizers here: {tried.stderr.strip()[:300]}")
    compiles = [
        subprocess.Popen([gcc, "-c", "-fPIC", "-O1", "-g", "-ffp-contract=off", *SANITIZE, f"-I{include}", str(source),
                          "-o", str(folder / f"{source.stem}.o")], stderr=subprocess.PIPE, text=True)
        for source in sorted(NATIVE_SOURCES.glob("*.c"))
    ]
    for compile_ in compiles:
        _, errors = compile_.communicate()
        assert compile_.returncode == 0, f"the sanitized build failed: {errors}"
    target = folder / f"_native{sysconfig.get_config_var('EXT_SUFFIX')}"
    linked = subprocess.run([gcc, "-shared", *SANITIZE, *map(str, sorted(folder.glob("*.o"))), "-o", str(target)],
                            capture_output=True, text=True)
    assert linked.returncode == 0, f"the sanitized link failed: {linked.stderr}"
    return target


@pytest.mark.slow
@pytest.mark.skipif(bool(os.environ.get(UNDER_SANITIZERS)), reason="this is the run under the sanitizers")
def test_the_core_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    """The core built with -fsanitize=address,undefined runs its own tests
    and the fuzz: any read or write out of bounds, use after free or
    undefined behaviour stops the run with a report."""
    gcc, libasan = sanitizer_runtime()
    target = build_sanitized(gcc, tmp_path)
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    logs = tmp_path / "sanitizer"  # a report on stderr would go to the subprocess pytest's capture
    env = {
        **os.environ,
        "LD_PRELOAD": libasan,
        "ASAN_OPTIONS": f"detect_leaks=0:log_path={logs}",  # Python keeps its objects to the end by design
        "UBSAN_OPTIONS": f"halt_on_error=1:print_stacktrace=1:log_path={logs}",
        "TILEBAG_NATIVE_FUZZ_EXAMPLES": os.environ.get("TILEBAG_SANITIZED_FUZZ_EXAMPLES", "50"),
        UNDER_SANITIZERS: "1",
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    deselect = [arg for test in LEFT_OUT for arg in ("--deselect", test)]
    run = subprocess.run(
        [sys.executable, str(runner), str(target), "-q", "-x", "-k", KEPT_RECORDS, *deselect,
         *SANITIZED_TESTS],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    output = run.stdout + run.stderr
    reports = "".join(path.read_text(errors="replace") for path in sorted(tmp_path.glob("sanitizer*")))
    reports += "".join(line + "\n" for line in output.splitlines() if "Sanitizer" in line or "runtime error:" in line)
    assert not reports, f"the sanitizers reported (exit {run.returncode}):\n{reports[:8000]}\n{output[-3000:]}"
    assert run.returncode == 0, f"the tests failed under the sanitizers (exit {run.returncode}):\n{output[-6000:]}"
    assert " passed" in run.stdout
