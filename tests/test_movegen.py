"""The move generator against a slow, obviously correct enumerator.

The enumerator knows nothing of GADDAGs, anchors or cross-sets: it tries
every word of the lexicon on every stretch of every row and column, lets
the rules engine (``Board.check_placement``) judge the placement, checks
every word formed against the lexicon, and takes the score from
``Board.score``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from itertools import product

import pytest

from tilebag.alphabet import BLANK_BIT, Alphabet, Tile
from tilebag.board import Board
from tilebag.engine.equity.leaves import HeuristicLeaves
from tilebag.engine.movegen.generator import CORES, MoveGenerator, distinct_exchanges, native_available
from tilebag.errors import IllegalMoveError
from tilebag.lexicon import WordList, default_lexicon
from tilebag.move import Move

AVAILABLE_CORES = [core for core in CORES if core == "python" or native_available()]

PlayKey = tuple[tuple[tuple[int, int, int], ...], int]


def brute_force(board: Board, rack: list[Tile], lexicon: WordList) -> set[PlayKey]:
    """Every legal placement as (placed tiles, score)."""
    alphabet = board.alphabet
    by_length: dict[int, str] = {}
    words_by_length: dict[int, list[str]] = {}
    for word in lexicon:
        words_by_length.setdefault(len(word), []).append(word)
    for length, words in words_by_length.items():
        by_length[length] = "\n".join(words) + "\n"
    rows, cols = board.layout.rows, board.layout.cols
    start_square = divmod(board.layout.start, cols)
    # an empty square takes a rack letter ("." when a blank could be anything)
    free = "." if 0 in rack else "[" + "".join(re.escape(alphabet.label(t)) for t in set(rack)) + "]"

    def touches(r: int, c: int) -> bool:
        """Whether a tile on this square would touch the board's tiles
        (on an empty board: whether it is the start square)."""
        if board.is_empty():
            return (r, c) == start_square
        return any(board.at(r + dr, c + dc) for dr, dc in ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0)))

    have = Counter(rack)
    code = {alphabet.label(t): t for t in alphabet.letters}
    found: set[PlayKey] = set()
    for down in (False, True):
        lanes, length = (cols, rows) if down else (rows, cols)
        for lane in range(lanes):
            squares = [(i, lane) if down else (lane, i) for i in range(length)]
            for start in range(length):
                for end in range(start + 1, length):
                    span = squares[start : end + 1]
                    empties = [i for i, (r, c) in enumerate(span) if not board.at(r, c)]
                    if not empties or len(empties) > len(rack):
                        continue
                    if (start > 0 and board.at(*squares[start - 1])) or (end < length - 1 and board.at(*squares[end + 1])):
                        continue  # the word would run on into a tile
                    if not any(touches(r, c) for r, c in span):
                        continue  # a play must connect (a shortcut: the rules engine would refuse it too)
                    text = by_length.get(len(span))
                    if text is None:
                        continue
                    pattern = "".join(
                        free if not board.at(r, c) else re.escape(alphabet.label(board.at(r, c) & ~BLANK_BIT))
                        for r, c in span
                    )
                    for word in re.findall("^" + pattern + "$", text, re.MULTILINE):
                        letters = [code[ch] for ch in word]
                        needed = [letters[i] for i in empties]
                        short = sum(max(0, needed.count(t) - have[t]) for t in set(needed))
                        if short > have[0]:
                            continue  # the rack cannot supply these letters
                        # legality and the words formed do not depend on which tiles are
                        # blanks; only the score does
                        natural = [0] * len(span)
                        for i, tile in zip(empties, needed, strict=True):
                            natural[i] = tile
                        row, col = span[0]
                        try:
                            checked = board.check_placement(Move.place(row, col, down, natural))
                        except IllegalMoveError:
                            continue
                        if not all(lexicon.contains_tiles(w.tiles) for w in board.words(checked)):
                            continue
                        for tiles in _rack_choices(needed, rack):
                            placement = [0] * len(span)
                            for i, tile in zip(empties, tiles, strict=True):
                                placement[i] = tile
                            move = Move.place(row, col, down, placement)
                            found.add(_key(move, board.score(move)))
    return found


def _rack_choices(needed: list[Tile], rack: list[Tile]) -> Iterator[tuple[Tile, ...]]:
    """Every way to supply the needed letters from the rack: each letter from
    its own tile or from a blank (designated)."""
    have = Counter(rack)
    seen: set[tuple[Tile, ...]] = set()
    for use_blank in product((False, True), repeat=len(needed)):
        tiles = tuple(letter | BLANK_BIT if blank else letter for letter, blank in zip(needed, use_blank, strict=True))
        want = Counter(0 if t & BLANK_BIT else t for t in tiles)
        if all(have[t] >= n for t, n in want.items()) and tiles not in seen:
            seen.add(tiles)
            yield tiles


def _key(move: Move, score: int) -> PlayKey:
    return (tuple(sorted(move.placed())), score)


def random_position(rng: random.Random, generator: MoveGenerator, alphabet: Alphabet, turns: int) -> tuple[Board, list[Tile]]:
    """A board after ``turns`` random legal plays, and a rack from what is left."""
    board = Board(alphabet=alphabet)
    bag = alphabet.distribution()
    rng.shuffle(bag)
    for _ in range(turns):
        rack, bag = bag[:7], bag[7:]
        plays = generator.placements(board, rack)
        if not plays:
            bag = bag + rack
            rng.shuffle(bag)
            continue
        move, _ = rng.choice(plays)
        board.place(move)
        used = list(move.tiles_used)
        for tile in rack:
            probe = next((u for u in used if (0 if u & BLANK_BIT else u) == tile), None)
            if probe is not None:
                used.remove(probe)
            else:
                bag.append(tile)
        rng.shuffle(bag)
        if len(bag) < 7:
            break
    rack = bag[:7]
    return board, rack


@pytest.fixture(scope="module")
def small_lexicon() -> WordList:
    """A few thousand real words, so the enumerator stays quick."""
    rng = random.Random(20261121)
    words = [w for w in default_lexicon() if len(w) <= 9]
    chosen = {w for w in words if len(w) == 2} | set(rng.sample(words, 1500))
    return WordList(sorted(chosen), name="sample")


def _generated(generator: MoveGenerator, board: Board, rack: list[Tile]) -> list[PlayKey]:
    return [_key(move, score) for move, score in generator.placements(board, rack)]


def test_generator_equals_brute_force_on_random_positions(small_lexicon: WordList) -> None:
    alphabet = small_lexicon.alphabet
    generator = MoveGenerator(small_lexicon.kwg, core="python")
    others = [MoveGenerator(small_lexicon.kwg, core=core) for core in AVAILABLE_CORES if core != "python"]
    rng = random.Random(7)
    blank_racks = 0
    for case in range(300):
        board, rack = random_position(rng, generator, alphabet, turns=case % 12)
        # one rack in three gets one blank, one in six two
        if case % 3 == 1:
            rack = [0] + rack[1:]
        elif case % 6 == 2:
            rack = [0, 0] + rack[2:]
        blank_racks += rack.count(0) > 0
        generated = _generated(generator, board, rack)
        assert len(generated) == len(set(generated)), f"case {case}: a play is listed twice"
        expected = brute_force(board, rack, small_lexicon)
        missing, extra = expected - set(generated), set(generated) - expected
        assert not missing and not extra, (
            f"case {case}: rack {alphabet.format_rack(rack)}\n{board.render()}\n"
            f"missing {sorted(missing)[:5]}\nextra {sorted(extra)[:5]}"
        )
        for other in others:
            listed = _generated(other, board, rack)
            assert sorted(listed) == sorted(generated), f"case {case}: the {other.core} core differs"
    assert blank_racks >= 100


def test_generator_equals_brute_force_with_the_full_lexicon() -> None:
    lexicon = default_lexicon()
    alphabet = lexicon.alphabet
    generators = [MoveGenerator(lexicon.kwg, core=core) for core in AVAILABLE_CORES]
    rng = random.Random(11)
    words = WordList(list(lexicon), name=lexicon.name)
    for turns, blanks in ((0, 0), (3, 1), (6, 2), (9, 0)):
        board, rack = random_position(rng, generators[0], alphabet, turns)
        rack = [0] * blanks + rack[blanks:]
        expected = brute_force(board, rack, words)
        for generator in generators:
            generated = _generated(generator, board, rack)
            assert len(generated) == len(set(generated)), generator.core
            assert set(generated) == expected, generator.core


@pytest.mark.skipif(not native_available(), reason="the compiled core was not built in this installation")
def test_cores_agree_on_random_positions_with_the_full_lexicon() -> None:
    lexicon = default_lexicon()
    python = MoveGenerator(lexicon.kwg, core="python")
    native = MoveGenerator(lexicon.kwg, core="native")
    rng = random.Random(2026)
    for case in range(20):
        board, rack = random_position(rng, native, lexicon.alphabet, turns=case % 20)
        if case % 4 == 1:
            rack = [0] + rack[1:]
        elif case % 4 == 2:
            rack = [0, 0] + rack[2:]
        assert sorted(_generated(native, board, rack)) == sorted(_generated(python, board, rack)), f"case {case}"
        plays_py = python.generate(board, rack, exchanges=True)
        plays_native = native.generate(board, rack, exchanges=True)
        assert plays_py == plays_native, f"case {case}: same plays, scores, leaves and equities in the same order"
        leaves = HeuristicLeaves()
        for top in (1, 5):
            assert python.generate(board, rack, leaves=leaves, exchanges=True, top=top) == native.generate(
                board, rack, leaves=leaves, exchanges=True, top=top
            ), f"case {case}: top {top}"
        assert python.generate(board, rack, leaves=leaves, bag_count=0) == native.generate(
            board, rack, leaves=leaves, bag_count=0
        ), f"case {case}: empty bag"


def test_unknown_core_is_refused() -> None:
    with pytest.raises(ValueError, match="python, native"):
        MoveGenerator(WordList(["AT"]).kwg, core="fortran")


@pytest.mark.parametrize("core", AVAILABLE_CORES)
def test_one_tile_plays_are_listed_once_across_when_they_form_an_across_word(core: str) -> None:
    lexicon = WordList(["AT", "TA", "AA", "TAT"])
    generator = MoveGenerator(lexicon.kwg, core=core)
    board = Board()
    board.place(Move.from_gcg("8G AT"))
    plays = generator.placements(board, board.alphabet.parse_rack("A"))
    shown = sorted(board.notation(move) for move, _ in plays)
    # A above G8 forms AA down only; A before G8 forms AAT? no: "8F A(AT)" is not a word
    assert shown == sorted(set(shown))
    singles = [move for move, _ in plays if len(move.placed()) == 1]
    squares = [move.placed()[0][:2] for move in singles]
    assert len(squares) == len(set(squares))
    for move in singles:
        r, c, _ = move.placed()[0]
        forms_across = bool(board.at(r, c - 1) or board.at(r, c + 1))
        assert move.down is not forms_across


@pytest.mark.parametrize("core", AVAILABLE_CORES)
def test_first_play_covers_the_start_square_in_both_directions(core: str) -> None:
    lexicon = WordList(["QI"])
    generator = MoveGenerator(lexicon.kwg, core=core)
    board = Board()
    plays = {board.notation(move): score for move, score in generator.placements(board, board.alphabet.parse_rack("QI"))}
    assert plays == {"8G QI": 22, "8H QI": 22, "H7 QI": 22, "H8 QI": 22}


@pytest.mark.parametrize("core", AVAILABLE_CORES)
def test_blank_designations_are_distinct_plays(core: str) -> None:
    lexicon = WordList(["AT", "IT"])
    generator = MoveGenerator(lexicon.kwg, core=core)
    board = Board()
    plays = {board.notation(move) for move, _ in generator.placements(board, board.alphabet.parse_rack("?T"))}
    assert {"8G aT", "8G iT", "8H aT", "8H iT"} <= plays


@pytest.mark.parametrize("core", AVAILABLE_CORES)
def test_exchanges_and_pass_only_when_asked(core: str) -> None:
    lexicon = WordList(["AT"])
    generator = MoveGenerator(lexicon.kwg, core=core)
    board = Board()
    rack = board.alphabet.parse_rack("AAT")
    plain = generator.generate(board, rack)
    assert all(play.move.is_place for play in plain)
    full = generator.generate(board, rack, exchanges=True)
    kinds = Counter(play.move.kind.value for play in full)
    assert kinds["pass"] == 1 and kinds["exchange"] == len(distinct_exchanges(rack)) == 5
    # no exchanges with fewer than 7 tiles in the bag, but the pass stays
    late = generator.generate(board, rack, exchanges=True, bag_count=6)
    assert Counter(play.move.kind.value for play in late)["exchange"] == 0


@pytest.mark.parametrize("core", AVAILABLE_CORES)
def test_exchanges_never_put_back_more_tiles_than_the_bag_holds(core: str) -> None:
    lexicon = WordList(["AT"])
    generator = MoveGenerator(lexicon.kwg, core=core)
    board = Board()
    rack = board.alphabet.parse_rack("ABCDEFGHI")  # a 9-tile rack, 8 tiles in the bag
    plays = generator.generate(board, rack, exchanges=True, bag_count=8)
    sizes = [len(play.move.tiles) for play in plays if play.move.is_exchange]
    assert max(sizes) == 8 and len(sizes) == 2**9 - 2


@pytest.mark.parametrize("core", AVAILABLE_CORES)
def test_generate_orders_by_equity_and_reports_the_leave(core: str) -> None:
    lexicon = WordList(["AT", "TA", "CAT"])
    generator = MoveGenerator(lexicon.kwg, core=core)
    board = Board()
    rack = board.alphabet.parse_rack("CATS")
    plays = generator.generate(board, rack)
    assert plays[0].score == max(p.score for p in plays)
    assert [p.equity for p in plays] == sorted((p.equity for p in plays), reverse=True)
    best = plays[0]
    assert board.alphabet.format_rack(best.leave) == "S"


def test_without_the_compiled_core_the_reference_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    import tilebag.engine.movegen.generator as movegen

    monkeypatch.setattr(movegen, "_native", None)
    monkeypatch.delenv("TILEBAG_CORE", raising=False)
    assert movegen.default_core() == "python"
    assert MoveGenerator(WordList(["AT"]).kwg).core == "python"
    with pytest.raises(ValueError, match="not available"):
        MoveGenerator(WordList(["AT"]).kwg, core="native")


def test_the_core_can_be_chosen_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import tilebag.engine.movegen.generator as movegen

    monkeypatch.setenv("TILEBAG_CORE", "python")
    assert movegen.default_core() == "python"
