"""The standard layout, positions, placement checks and scoring on the board."""

from __future__ import annotations

import pytest

from tilebag import (
    Board,
    FormatError,
    Illegal,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    load_alphabet,
    load_layout,
    load_layout_file,
)
from tilebag.alphabet import BLANK_BIT

# Copied from SPEC.md, "Premium squares (... the list below is already complete)".
SPEC_TW = "A1 H1 O1 A8 O8 A15 H15 O15"
SPEC_DW = "B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14 H8"
SPEC_TL = "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10"
SPEC_DL = "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12"

EN = load_alphabet("english")
LAYOUT = load_layout("standard")


def sq(name: str) -> int:
    return LAYOUT.parse_square(name)


def board_with(*plays: str) -> Board:
    """A board with these placements put on it as they stand (a position to
    test from: no rule is checked)."""
    board = Board()
    for text in plays:
        board.place(Move.from_gcg(text))
    return board


def illegal(board: Board, text: str, **kwargs: int) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        board.check_placement(Move.from_gcg(text), **kwargs)
    return info.value


# -- the layout -------------------------------------------------------------------


def test_standard_board_size_and_start():
    assert (LAYOUT.rows, LAYOUT.cols, LAYOUT.size) == (15, 15, 225)
    assert LAYOUT.square_name(LAYOUT.start) == "H8"
    assert LAYOUT.start == 7 * 15 + 7


def test_spec_lists_are_consistent():
    all_names = [n for group in (SPEC_TW, SPEC_DW, SPEC_TL, SPEC_DL) for n in group.split()]
    assert len(all_names) == len(set(all_names)) == 8 + 17 + 12 + 24


@pytest.mark.parametrize(
    ("names", "letter", "word"),
    [(SPEC_TW, 1, 3), (SPEC_DW, 1, 2), (SPEC_TL, 3, 1), (SPEC_DL, 2, 1)],
    ids=["TW", "DW", "TL", "DL"],
)
def test_premium_squares_listed_in_the_spec(names, letter, word):
    for name in names.split():
        s = sq(name)
        assert (LAYOUT.letter_multiplier(s), LAYOUT.word_multiplier(s)) == (letter, word), name


def test_every_other_square_is_plain():
    premium = {sq(n) for group in (SPEC_TW, SPEC_DW, SPEC_TL, SPEC_DL) for n in group.split()}
    plain = [s for s in range(LAYOUT.size) if s not in premium]
    assert len(plain) == 225 - 61
    for s in plain:
        assert (LAYOUT.letter_multiplier(s), LAYOUT.word_multiplier(s)) == (1, 1), LAYOUT.square_name(s)


def test_premium_squares_are_symmetric():
    n = LAYOUT.rows
    for r in range(n):
        for c in range(n):
            s = LAYOUT.square(r, c)
            for rr, cc in ((c, r), (n - 1 - r, c), (r, n - 1 - c)):
                t = LAYOUT.square(rr, cc)
                assert LAYOUT.letter_multipliers[s] == LAYOUT.letter_multipliers[t]
                assert LAYOUT.word_multipliers[s] == LAYOUT.word_multipliers[t]


def test_render_marks_premium_squares():
    lines = Board().render().splitlines()
    assert lines[1].split() == ["1", "=", ".", ".", "'", ".", ".", ".", "=", ".", ".", ".", "'", ".", ".", "="]
    assert lines[8].split()[8] == "*"


def test_unknown_layout_and_bad_layout_file(tmp_path):
    with pytest.raises(FormatError, match="unknown board layout 'hexagonal'"):
        load_layout("hexagonal")
    path = tmp_path / "bad.txt"
    path.write_text("# a 3x3 board\n...\n.*x\n...\n")
    with pytest.raises(FormatError) as info:
        load_layout_file(path)
    assert info.value.line == 3
    assert "unknown square symbol 'x'" in str(info.value)
    path.write_text("...\n.*..\n...\n")
    with pytest.raises(FormatError) as info:
        load_layout_file(path)
    assert info.value.line == 2
    path.write_text("...\n...\n...\n")
    with pytest.raises(FormatError, match="exactly one start square"):
        load_layout_file(path)


def test_custom_layout_file(tmp_path):
    path = tmp_path / "mini.txt"
    path.write_text("T.d\n.*.\nD.t\n")
    mini = load_layout_file(path)
    assert (mini.rows, mini.cols, mini.square_name(mini.start)) == (3, 3, "B2")
    assert mini.word_multipliers == (3, 1, 1, 1, 2, 1, 2, 1, 1)
    assert mini.letter_multipliers == (1, 1, 2, 1, 1, 1, 1, 1, 3)


# -- positions ------------------------------------------------------------------


def test_row_first_is_across_column_first_is_down():
    assert LAYOUT.parse_position("8F") == (7, 5, False)
    assert LAYOUT.parse_position("F8") == (7, 5, True)
    assert LAYOUT.parse_position("15O") == (14, 14, False)
    assert LAYOUT.parse_position("a1") == (0, 0, True)
    assert LAYOUT.position_name(7, 5, False) == "8F"
    assert LAYOUT.position_name(7, 5, True) == "F8"
    assert LAYOUT.parse_square("8H") == LAYOUT.parse_square("H8") == LAYOUT.start


@pytest.mark.parametrize("text", ["16A", "P1", "A0", "0A", "8", "H", "8FF", "", "H 8"])
def test_bad_positions(text):
    with pytest.raises(InvalidMoveError):
        LAYOUT.parse_position(text)


def test_move_positions_from_notation():
    across = Move.from_gcg("8F HORN")
    down = Move.from_gcg("F8 HORN")
    assert (across.row, across.col, across.down) == (7, 5, False)
    assert (down.row, down.col, down.down) == (7, 5, True)
    assert [(r, c) for r, c, _ in across.squares()] == [(7, 5), (7, 6), (7, 7), (7, 8)]
    assert [(r, c) for r, c, _ in down.squares()] == [(7, 5), (8, 5), (9, 5), (10, 5)]
    assert across.gcg() == "8F HORN" and down.gcg() == "F8 HORN"


# -- placement checks -------------------------------------------------------------


def test_off_board():
    err = illegal(Board(), "8M HORN")
    assert err.reason is Illegal.OFF_BOARD
    assert str(err) == "8M HORN: the word runs off the board"
    err = illegal(board_with("8F HORN"), "L13 HORN")
    assert err.reason is Illegal.OFF_BOARD


def test_gap_on_an_empty_square_written_as_played_through():
    err = illegal(Board(), "8F HO.N")
    assert err.reason is Illegal.GAP
    assert str(err) == "8F HO.N: H8 is empty, but the word plays through it (leaves a gap)"


def test_square_occupied_by_another_letter():
    board = board_with("8F HORN")
    err = illegal(board, "G7 AT")
    assert err.reason is Illegal.SQUARE_OCCUPIED
    assert str(err) == "G7 AT: G8 is occupied by O, the play puts T there"


def test_word_incomplete():
    board = board_with("8F HORN")
    err = illegal(board, "8J S")
    assert err.reason is Illegal.WORD_INCOMPLETE
    assert str(err) == "8J S: the word continues onto I8 (N); write the whole word"
    err = illegal(board, "8D TH")
    assert err.reason is Illegal.WORD_INCOMPLETE
    assert str(err) == "8D TH: the word continues onto F8 (H); write the whole word"


def test_not_connected():
    board = board_with("8F HORN")
    err = illegal(board, "2B AT")
    assert err.reason is Illegal.NOT_CONNECTED
    assert str(err) == "2B AT: the play touches no tile already on the board"
    # a diagonal touch is not a connection
    assert illegal(board, "9J AT").reason is Illegal.NOT_CONNECTED


def test_first_play_must_cover_the_start_square():
    err = illegal(Board(), "7F HORN")
    assert err.reason is Illegal.FIRST_PLAY_NOT_ON_START
    assert str(err) == "7F HORN: the first play must cover the start square H8"
    assert illegal(Board(), "8A HORN").reason is Illegal.FIRST_PLAY_NOT_ON_START


def test_first_play_too_short():
    err = illegal(Board(), "8H A")
    assert err.reason is Illegal.FIRST_PLAY_TOO_SHORT
    assert str(err) == "8H A: the first play must place at least 2 tiles"
    err = illegal(Board(), "8H AT", first_play_min_tiles=3)
    assert err.reason is Illegal.FIRST_PLAY_TOO_SHORT
    assert str(err) == "8H AT: the first play must place at least 3 tiles"
    assert Board().check_placement(Move.from_gcg("8H ATE"), first_play_min_tiles=3).placed()


def test_no_tiles_placed():
    board = board_with("8F HORN")
    err = illegal(board, "8F HORN")
    assert err.reason is Illegal.NO_TILES
    assert str(err) == "8F HORN: the play places no tile (every square is taken)"
    assert illegal(board, "8F ....").reason is Illegal.NO_TILES


def test_check_placement_refuses_other_moves():
    with pytest.raises(ValueError, match="not a placement: pass"):
        Board().check_placement(Move.pass_())


def test_letter_written_out_on_its_own_square_is_played_through():
    board = board_with("8F HORN")
    move = board.check_placement(Move.from_gcg("H6 FARM"))
    assert move == Move.from_gcg("H6 FA.M") == Move.from_gcg("H6 FA(R)M")
    assert move.tiles_used == [EN.tile("F"), EN.tile("A"), EN.tile("M")]
    assert board.notation(move) == "H6 FA(R)M"
    assert board.word_text(move) == "FARM"
    # a blank written for a letter on the board (or the letter for a blank) too
    assert board.check_placement(Move.from_gcg("H6 FArM")) == move
    blank_board = board_with("8F HOrN")
    assert blank_board.check_placement(Move.from_gcg("H6 FARM")).tiles_used == move.tiles_used


# -- move_from_placements ---------------------------------------------------------


def test_move_from_placements_finds_the_whole_word():
    board = board_with("8F HORN")
    move = board.move_from_placements([(sq("H6"), EN.tile("F")), (sq("H7"), EN.tile("A")), (sq("H9"), EN.tile("M"))])
    assert move == Move.from_gcg("H6 FA.M")
    # a single tile extends the word it touches, in that word's direction
    move = board.move_from_placements([(sq("J8"), EN.tile("S"))])
    assert move == Move.from_gcg("8F ....S")
    move = board.move_from_placements([(sq("F9"), EN.tile("E"))])
    assert move == Move.from_gcg("F8 .E")


def test_move_from_placements_no_tiles():
    with pytest.raises(IllegalMoveError) as info:
        Board().move_from_placements([])
    assert info.value.reason is Illegal.NO_TILES
    assert str(info.value) == "no tiles placed"


def test_move_from_placements_not_in_line():
    with pytest.raises(IllegalMoveError) as info:
        Board().move_from_placements([(sq("H8"), 1), (sq("I9"), 2)])
    assert info.value.reason is Illegal.NOT_IN_LINE
    assert str(info.value) == "the tiles are not all in one row or one column"


def test_move_from_placements_gap():
    board = board_with("8F HORN")
    with pytest.raises(IllegalMoveError) as info:
        board.move_from_placements([(sq("H6"), 1), (sq("H10"), 2)])
    assert info.value.reason is Illegal.GAP
    assert str(info.value) == "H7 is empty: the tiles leave a gap"


def test_move_from_placements_occupied():
    board = board_with("8F HORN")
    with pytest.raises(IllegalMoveError) as info:
        board.move_from_placements([(sq("H8"), 1), (sq("H9"), 2)])
    assert info.value.reason is Illegal.SQUARE_OCCUPIED
    assert str(info.value) == "H8 is occupied by R"
    with pytest.raises(IllegalMoveError) as info:
        board.move_from_placements([(sq("H9"), 1), (sq("H9"), 2)])
    assert info.value.reason is Illegal.SQUARE_OCCUPIED
    assert str(info.value) == "two tiles on one square"


# -- scoring ------------------------------------------------------------------------


def score(board: Board, text: str, **kwargs: int) -> int:
    return board.score(board.check_placement(Move.from_gcg(text)), **kwargs)


def play(board: Board, text: str) -> int:
    move = board.check_placement(Move.from_gcg(text))
    points = board.score(move)
    board.place(move)
    return points


def test_worked_example_on_the_board():
    board = Board()
    assert [play(board, t) for t in ("8F HORN", "H6 FARM", "10F PASTE", "9H MOB", "11E BIT")] == [14, 9, 25, 16, 16]
    assert board.tile_count == 4 + 3 + 5 + 2 + 3


def test_worked_example_words():
    board = board_with("8F HORN", "H6 FARM", "10F PASTE")
    move = board.check_placement(Move.from_gcg("9H MOB"))
    words = board.words(move)
    assert [(EN.format_word(w.tiles), w.score) for w in words] == [("MOB", 8), ("NOT", 4), ("BE", 4)]
    assert (words[0].row, words[0].col, words[0].down) == (8, 7, False)
    board.place(move)
    words = board.words(board.check_placement(Move.from_gcg("11E BIT")))
    assert [(EN.format_word(w.tiles), w.score) for w in words] == [("BIT", 10), ("PI", 4), ("AT", 2)]


def test_premiums_only_count_when_covered():
    board = board_with("8F HORN")
    # FARM plays through the R on the centre double-word square: not doubled
    assert score(board, "H6 FARM") == 4 + 1 + 1 + 3
    # HORNS: only the new S is new; nothing doubles again
    assert score(board, "8F HORNS") == 4 + 1 + 1 + 1 + 1


def test_blank_scores_zero_but_triggers_word_premiums():
    assert score(Board(), "8F QAT") == (10 + 1 + 1) * 2
    assert score(Board(), "8F QaT") == (10 + 0 + 1) * 2
    # the blank itself on the double-word square still doubles
    assert score(Board(), "8F QAt") == (10 + 1 + 0) * 2
    # a blank on a double-letter square gets nothing from it
    assert score(Board(), "8D zOOMS") == (0 + 1 + 1 + 3 + 1) * 2
    assert score(Board(), "8D ZOOMS") == (20 + 1 + 1 + 3 + 1) * 2


def test_two_double_word_squares_quadruple():
    board = board_with("H5 AT")  # H5, H6 (not a first play rule test)
    # E5 ... K5: DW at E5 and K5, H5 played through
    assert score(board, "5E BRA.ING") == (3 + 1 + 1 + 1 + 1 + 1 + 2) * 4


def test_two_triple_word_squares_multiply_by_nine():
    board = board_with("D1 AT")
    # A1 ... H1: TW at A1 and H1, D1 (DL, already covered) played through; 7 tiles: bingo
    words = board.words(board.check_placement(Move.from_gcg("1A PRE.ENTS")))
    assert words[0].score == (3 + 1 + 1 + 1 + 1 + 1 + 1 + 1) * 9
    assert score(board, "1A PRE.ENTS") == 90 + 50


def test_double_and_triple_word_multiply_by_six():
    board = board_with("H5 AT")
    # H1 ... H8 down: TW at H1, DL at H4 (W), A and T played through, DW at H8
    move = board.check_placement(Move.from_gcg("H1 CROW..ER"))
    assert [EN.format_word(w.tiles) for w in board.words(move)] == ["CROWATER"]
    assert len(move.placed()) == 6  # no bingo
    assert board.score(move) == (3 + 1 + 1 + 4 * 2 + 1 + 1 + 1 + 1) * 6


def test_cross_word_counts_the_shared_premium_in_each_word():
    board = Board()
    board.place(Move.from_gcg("K6 AT"))
    # H at K5 (DW) makes EH across and HAT down: both doubled
    move = board.check_placement(Move.from_gcg("5J EH"))
    words = board.words(move)
    assert [(EN.format_word(w.tiles), w.score) for w in words] == [("EH", (1 + 4) * 2), ("HAT", (4 + 1 + 1) * 2)]
    assert board.score(move) == 22
    # a triple-letter square shared by two words: Z at J6 makes ZA and ZO
    board = Board()
    board.place(Move.from_gcg("K6 A"))
    board.place(Move.from_gcg("J7 O"))
    move = board.check_placement(Move.from_gcg("6J ZA"))
    assert [(EN.format_word(w.tiles), w.score) for w in board.words(move)] == [("ZA", 31), ("ZO", 31)]
    assert board.score(move) == 62


def test_bingo_bonus():
    board = Board()
    # RETAINS from H8: DW at H8, DL at L8 under the I
    assert score(board, "8H RETAINS") == (1 + 1 + 1 + 1 + 2 + 1 + 1) * 2 + 50
    assert score(board, "8H RETAINS", bingo_bonus=0) == 16
    assert score(board, "8H RETAIN") == (1 + 1 + 1 + 1 + 2 + 1) * 2
    # 9-tile racks: 7, 8 or 9 tiles earn it
    assert score(board, "8H RETAINS", bingo_tiles=7) == 66


def test_place_and_remove_restore_the_board():
    board = board_with("8F HORN")
    before = bytes(board.tiles), board.tile_count
    move = board.check_placement(Move.from_gcg("H6 FARM"))
    board.place(move)
    assert board.at(5, 7) == EN.tile("F") and board.tile_count == 7
    board.remove(move)
    assert (bytes(board.tiles), board.tile_count) == before
    copy = board.copy()
    assert copy == board
    copy.place(move)
    assert copy != board and board.tile_count == 4


def test_designated_blank_is_stored_on_the_board():
    board = board_with("8F HOrN")
    assert board.at(7, 7) == BLANK_BIT | EN.tile("R")
    assert board.notation(board.check_placement(Move.from_gcg("H6 FA.M"))) == "H6 FA(r)M"
