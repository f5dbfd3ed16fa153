"""The move generator: the cores agree play for play, and the cases that
are easy to get wrong (one-tile plays, the first play, blank designations,
exchanges, the order by equity).

Its check against a slow, obviously correct enumerator is
:mod:`tilebag.lab.perft` (``tilebag bench perft``): ``make test`` runs it on
300 positions of a sample lexicon and 4 of the full one; here it runs on a
few positions, so the fast tests still compare the two.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tilebag.board import Board
from tilebag.engine.equity.leaves import HeuristicLeaves
from tilebag.engine.movegen.generator import CORES, MoveGenerator, distinct_exchanges, native_available
from tilebag.lab.perft import PlayKey, play_key, random_position, run_perft
from tilebag.lexicon import WordList, default_lexicon
from tilebag.move import Move

AVAILABLE_CORES = [core for core in CORES if core == "python" or native_available()]


def _generated(generator: MoveGenerator, board: Board, rack: list[int]) -> list[PlayKey]:
    return [play_key(move, score) for move, score in generator.placements(board, rack)]


def test_generator_equals_brute_force_on_a_few_random_positions() -> None:
    """The first positions of the run ``make test`` makes (``tilebag bench
    perft --positions 300 --seed 7``), with every core."""
    result = run_perft(15, seed=7)
    assert not result.mismatches, "\n\n".join(mismatch.text() for mismatch in result.mismatches)
    assert result.positions == 15 and result.plays > 1000 and not result.stopped


@pytest.mark.slow
@pytest.mark.skipif(not native_available(), reason="the compiled core was not built in this installation")
def test_cores_agree_on_random_positions_with_the_full_lexicon() -> None:
    lexicon = default_lexicon()
    python = MoveGenerator(lexicon.kwg, core="python")
    native = MoveGenerator(lexicon.kwg, core="native")
    rng = random.Random(2026)
    for case in range(8):  # every play of each core against brute force: tilebag bench perft --full, in make test
        board, rack = random_position(rng, native, lexicon.alphabet, turns=case * 2)
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
