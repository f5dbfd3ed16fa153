"""CGP positions: reading, writing, round trips, opcodes, and every error naming its field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilebag import Board, ChallengeMode, FormatError, Rules, load_alphabet, load_layout
from tilebag.alphabet import BLANK, BLANK_BIT
from tilebag.formats.cgp import CgpError, Position, dumps, parse, position_from
from tilebag.rules import RulesError

EN = load_alphabet("english")
ES = load_alphabet("spanish")
DE = load_alphabet("german")
PL = load_alphabet("polish")

EMPTY_ROWS = "/".join(["15"] * 15)


def rows(**filled: str) -> str:
    """A board field with the given rows (``r8="3WINDY7"``) and the rest empty."""
    return "/".join(filled.get(f"r{n}", "15") for n in range(1, 16))


# Real-looking positions, each written canonically.
OPENING = f"{EMPTY_ROWS} AELNOQT/ 0/0 0 lex NWL18; lm -2;"  # the CGP spec's first example
MAVEN_ENDGAME = (  # the CGP spec's second example: an endgame from the Maven paper
    "5BERGS5/4PA3U5/2QAID3R5/3BEE3F2S2/1P1ET2VIATIC2/MA1TAW3c2H2/ES3IS2E2A2/AT1FOLIA4V2/"
    "LI1L1EX1E6/1N1O1D2N2Y3/1GNU2C1JETE3/2ER2OHO2N3/2O3GOY6/1INDOW1U7/4DORR7 IKLMTZ/AEINRU? 0/0 0 lex OSPD1;"
)
MIDGAME = (
    rows(r3="4J10", r4="4A10", r5="4v10", r6="4E10", r7="2GALE9", r8="3WINDY7", r9="4N10")
    + " DEIILTZ/ 66/16 2 lex NWL20; ld english; cr double; bb 50; mcnz 6; etl 7;"
    " gid abc123; tmr 1500000/-2500; ti 3000; to 60000; var classic; lm E3.JAVeLIN; oru;"
)
SPANISH = (
    rows(r6="6[ll]AMA5", r8="4[CH]U[RR]O7", r10="5AñO7", r11="5ÑU8") + " AEIOUS/BCD 120/98 0 lex FILE2017; ld spanish;"
)
GERMAN = rows(r8="5ÄRGER5", r9="6ü8") + " ÖÜSSE?/ 12/0 0 ld german; lex RD28;"
THREE_PLAYERS = rows(r8="6CAT6") + " AB/CD/EF 10/0/0 3 lex CSW21;"

CANONICAL = [OPENING, MAVEN_ENDGAME, MIDGAME, SPANISH, GERMAN, THREE_PLAYERS]


# -- reading ----------------------------------------------------------------------


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_records_round_trip(text: str) -> None:
    position = parse(text)
    assert dumps(position) == text
    assert parse(dumps(position)) == position


def test_empty_board_opening() -> None:
    position = parse(OPENING)
    assert position.board.is_empty()
    assert position.board.tiles == bytearray(225)
    assert position.rack == [EN.tile(x) for x in "AELNOQT"]
    assert position.racks[1] == []
    assert position.scores == [0, 0]
    assert position.zero_turns == 0
    assert position.lexicon == "NWL18"
    assert position.last_move == "-2"
    assert position.operations == {"lex": ["NWL18"], "lm": ["-2"]}


def test_maven_endgame() -> None:
    position = parse(MAVEN_ENDGAME)
    board = position.board
    assert board.tile_count == 87
    assert EN.label(board.at(0, 5)) == "B"
    assert board.at(5, 9) == BLANK_BIT | EN.tile("C")
    assert EN.label(board.at(5, 9)) == "c"
    assert position.racks[1][-1] == BLANK
    # 87 on the board and 13 on the racks: 100 tiles (one blank on the board, one on a rack)
    assert position.unseen_tiles() == []


def test_midgame_with_blank_and_every_known_opcode() -> None:
    position = parse(MIDGAME)
    assert position.board.at(4, 4) == BLANK_BIT | EN.tile("V")
    assert position.board.at(2, 4) == EN.tile("J")
    assert position.board.tile_count == 7 + 4 + 5 - 2
    assert position.scores == [66, 16]
    assert position.zero_turns == 2
    assert position.lexicon == "NWL20"
    assert position.alphabet_name == "english"
    assert position.bingo_bonus == 50
    assert position.challenge_rule == "double"
    assert position.max_zero_turns == 6
    assert position.exchange_limit == 7
    assert position.game_id == "abc123"
    assert position.timers == [1500000, -2500]
    assert position.time_increment == 3000
    assert position.max_overtime == 60000
    assert position.variant == "classic"
    assert position.last_move == "E3.JAVeLIN"
    assert position.opponent_rack_unknown
    assert list(position.operations) == [
        "lex",
        "ld",
        "cr",
        "bb",
        "mcnz",
        "etl",
        "gid",
        "tmr",
        "ti",
        "to",
        "var",
        "lm",
        "oru",
    ]


def test_defaults_without_opcodes() -> None:
    position = parse(f"{EMPTY_ROWS} / 0/0 0")
    assert position.racks == [[], []]
    assert position.operations == {}
    assert position.lexicon is None
    assert position.alphabet_name == "english"
    assert position.board_name is None
    assert position.bingo_bonus == 50
    assert position.challenge_rule is None
    assert position.exchange_limit == 7
    assert position.max_zero_turns == 6
    assert position.variant is None
    assert position.game_id is None
    assert position.last_move is None
    assert not position.opponent_rack_unknown
    assert position.timers is None and position.time_increment is None and position.max_overtime is None
    assert len(position.unseen_tiles()) == 100


def test_spanish_bracketed_tiles() -> None:
    position = parse(SPANISH)
    board = position.board
    assert position.alphabet is ES
    assert board.at(7, 4) == ES.tile("CH")
    assert board.at(7, 6) == ES.tile("RR")
    assert board.at(5, 6) == BLANK_BIT | ES.tile("LL")
    assert ES.label(board.at(5, 6)) == "ll"
    assert board.at(9, 6) == BLANK_BIT | ES.tile("Ñ")
    assert ES.label(board.at(9, 6)) == "ñ"
    assert board.at(10, 5) == ES.tile("Ñ")
    assert position.rack == [ES.tile(x) for x in "AEIOUS"]
    assert position.unseen_tiles().count(BLANK) == 0


def test_spanish_unbracketed_pairs_are_single_letters() -> None:
    # CH, LL and RR could be read as C+H, L+L and R+R, so without brackets they are.
    position = parse(rows(r8="5CHURRO4") + " CHLL/ 0/0 0 ld spanish;")
    assert [ES.label(position.board.at(7, c)) for c in range(5, 11)] == ["C", "H", "U", "R", "R", "O"]
    assert position.rack == [ES.tile(x) for x in ("C", "H", "L", "L")]
    assert position.racks == parse(rows(r8="5CHURRO4") + " CHLL/ 0/0 0", alphabet=ES).racks


def test_bracketed_single_letters_and_blank_brackets_read() -> None:
    position = parse(rows(r8="7[A][b]6") + " [C][CH]?/ 0/0 0 ld spanish;")
    assert position.rack == [ES.tile("C"), ES.tile("CH"), BLANK]
    assert dumps(position).startswith(rows(r8="7Ab6") + " C[CH]?/ ")
    assert [position.board.at(7, 7), position.board.at(7, 8)] == [ES.tile("A"), BLANK_BIT | ES.tile("B")]
    # [ch] is a designated blank, which no rack holds
    with pytest.raises(
        CgpError, match=r"racks: '\[C\]\[ch\]\?' is not a rack of spanish tiles: '\[ch\]' is lower case"
    ):
        parse(rows(r8="7[A][b]6") + " [C][ch]?/ 0/0 0 ld spanish;")


def test_non_ascii_tiles_and_blanks() -> None:
    position = parse(GERMAN)
    assert position.alphabet is DE
    assert position.board.at(7, 5) == DE.tile("Ä")
    assert position.board.at(8, 6) == BLANK_BIT | DE.tile("Ü")
    assert position.rack[:2] == [DE.tile("Ö"), DE.tile("Ü")]
    polish = parse(rows(r8="6ŻÓŁw5") + " ĄĘ?/ 0/0 0 ld polish;")
    assert [PL.label(polish.board.at(7, c)) for c in range(6, 10)] == ["Ż", "Ó", "Ł", "w"]


def test_three_and_four_players() -> None:
    position = parse(THREE_PLAYERS)
    assert len(position.racks) == 3 and position.scores == [10, 0, 0]
    four = parse(f"{EMPTY_ROWS} A/B/C/D 1/2/3/4 0 tmr 1/2/3/4;")
    assert four.racks == [[1], [2], [3], [4]] and four.timers == [1, 2, 3, 4]


def test_negative_scores_read() -> None:
    assert parse(f"{EMPTY_ROWS} A/B -10/5 0").scores == [-10, 5]


def test_whitespace_around_and_between_fields() -> None:
    text = f"  \t{MIDGAME}\n"
    assert parse(text) == parse(MIDGAME)
    loose = f"{EMPTY_ROWS}   AB/CD \t 1/2  0   lex  CSW21 ;ld english;  "
    position = parse(loose)
    assert position.operations == {"lex": ["CSW21"], "ld": ["english"]}
    assert dumps(position) == f"{EMPTY_ROWS} AB/CD 1/2 0 lex CSW21; ld english;"


def test_unknown_opcodes_are_kept_in_order() -> None:
    text = f"{EMPTY_ROWS} AB/CD 1/2 0 zz 1 2 3; lex CSW21; flag; bdn CrosswordGame;"
    position = parse(text)
    assert position.operations == {"zz": ["1", "2", "3"], "lex": ["CSW21"], "flag": [], "bdn": ["CrosswordGame"]}
    assert position.board_name == "CrosswordGame"
    assert dumps(position) == text


def test_last_move_in_the_older_two_operand_form() -> None:
    position = parse(f"{EMPTY_ROWS} AB/CD 1/2 0 lm 8D WORD;")
    assert position.last_move == "8D WORD"


def test_without_ld_the_tile_set_is_english_whatever_the_lexicon() -> None:
    assert parse(f"{EMPTY_ROWS} A/ 0/0 0 lex FILE2017;").alphabet is EN
    with pytest.raises(CgpError, match=r"^board row 8: 'Ñ' is not a tile of the english set$"):
        parse(rows(r8="5AÑO7") + " A/ 0/0 0 lex FILE2017;")
    assert parse(rows(r8="5AÑO7") + " A/ 0/0 0 lex FILE2017; ld spanish;").alphabet is ES


def test_explicit_alphabet_and_layout_win() -> None:
    position = parse(rows(r8="5AÑO7") + " A/ 0/0 0 ld english;", alphabet=ES, layout=load_layout("standard"))
    assert position.alphabet is ES
    assert position.alphabet_name == "english"  # what the record says
    with pytest.raises(CgpError, match=r"board row 8: 'Ñ' is not a tile of the english set"):
        parse(rows(r8="5AÑO7") + " A/ 0/0 0 ld english;")


def test_ld_is_case_insensitive() -> None:
    position = parse(f"{EMPTY_ROWS} ÄB/ 0/0 0 ld German;")
    assert position.alphabet is DE
    assert position.alphabet_name == "German"
    assert dumps(position).endswith(" ld German;")


# -- rules and tiles ------------------------------------------------------------


def test_rules_from_position() -> None:
    position = parse(f"{EMPTY_ROWS} AB/CD 1/2 0 bb 35; cr 5pt; mcnz 4; etl 1; ld spanish;")
    rules = position.rules()
    assert rules.bingo_bonus == 35
    assert rules.challenge is ChallengeMode.FIVE_POINT
    assert rules.scoreless_turns == 4
    assert rules.exchange_min_bag == 1
    assert rules.alphabet == "spanish"
    assert rules.layout == "standard"
    base = Rules(challenge=ChallengeMode.VOID, rack_size=8)
    plain = parse(f"{EMPTY_ROWS} AB/CD 1/2 0").rules(base)
    assert plain.challenge is ChallengeMode.VOID  # the record does not say: the base's
    assert plain.rack_size == 8
    assert plain.scoreless_turns == 6  # the format's default
    for name, mode in [
        ("void", ChallengeMode.VOID),
        ("single", ChallengeMode.SINGLE),
        ("10pt", ChallengeMode.TEN_POINT),
    ]:
        assert parse(f"{EMPTY_ROWS} A/B 1/2 0 cr {name};").rules().challenge is mode
    with pytest.raises(RulesError, match="triple"):
        parse(f"{EMPTY_ROWS} A/B 1/2 0 cr triple;").rules()


def test_unseen_tiles() -> None:
    position = parse(rows(r8="7Qi6") + " Z?/A 0/0 0")
    unseen = position.unseen_tiles()
    assert len(unseen) == 100 - 5
    assert unseen.count(BLANK) == 0
    assert EN.tile("Q") not in unseen and EN.tile("Z") not in unseen
    assert unseen.count(EN.tile("A")) == 8
    assert unseen.count(EN.tile("I")) == 9


# -- errors, each naming its field ------------------------------------------------------


def bad(board: str = EMPTY_ROWS, racks: str = "AB/CD", scores: str = "0/0", zero: str = "0", ops: str = "") -> str:
    return " ".join(x for x in (board, racks, scores, zero, ops) if x)


ERRORS = [
    ("", "input", r"^empty input"),
    (" \n\t ", "input", r"^empty input"),
    (EMPTY_ROWS, "racks", r"^racks: missing"),
    (f"{EMPTY_ROWS} AB/CD", "scores", r"^scores: missing"),
    (f"{EMPTY_ROWS} AB/CD 0/0", "zero-turns", r"^zero-turns: missing"),
    # board
    (bad(board="/".join(["15"] * 14)), "board", r"^board: 14 rows, expected 15$"),
    (bad(board="/".join(["15"] * 16)), "board", r"^board: 16 rows, expected 15$"),
    (bad(board=rows(r3="16")), "board", r"^board row 3: 16 squares, expected 15$"),
    (bad(board=rows(r3="3WINDY8")), "board", r"^board row 3: 16 squares, expected 15$"),
    (bad(board=rows(r1="14")), "board", r"^board row 1: 14 squares, expected 15$"),
    (bad(board=rows(r15="")), "board", r"^board row 15: 0 squares, expected 15$"),
    (bad(board=rows(r2="99999999999999999999")), "board", r"^board row 2: too many squares, expected 15$"),
    (bad(board=rows(r8="7ñ7")), "board", r"^board row 8: 'ñ' is not a tile"),
    (bad(board=rows(r8="7-7")), "board", r"^board row 8: '-' is not a tile of the english set$"),
    (bad(board=rows(r8="7?7")), "board", r"^board row 8: '\?' is a blank on a rack"),
    (bad(board=rows(r8="7[CH7")), "board", r"^board row 8: '\[' without a closing '\]'"),
    (bad(board=rows(r8="7[CH]7")), "board", r"^board row 8: '\[CH\]' is not a tile of the english set"),
    (bad(board=rows(r8="07A7")), "board", r"^board row 8: '07' is not a number of empty squares"),
    (bad(board=rows(r8="7A0")), "board", r"^board row 8: '0' is not a number of empty squares"),
    # racks
    (bad(racks="ABC"), "racks", r"^racks: expected a rack for each of 2 or more players"),
    (bad(racks="AB1/"), "racks", r"^racks: 'AB1' is not a rack of english tiles: '1' is not a tile$"),
    (bad(racks="A/Bc"), "racks", r"^racks: 'Bc' is not a rack of english tiles: 'c' is lower case"),
    (bad(racks="A/B[CH]"), "racks", r"^racks: 'B\[CH\]' is not a rack of english tiles: '\[CH\]' is not a tile"),
    # scores
    (bad(scores="0/4/5"), "scores", r"^scores: expected 2 scores \(one per rack\), got 3$"),
    (bad(scores="7"), "scores", r"^scores: expected 2 scores \(one per rack\), got 1$"),
    (bad(scores="x/0"), "scores", r"^scores: 'x' is not an integer$"),
    (bad(scores="+5/0"), "scores", r"^scores: '\+5' is not an integer$"),
    (bad(scores="0/"), "scores", r"^scores: '' is not an integer$"),
    (bad(scores="٣/0"), "scores", r"^scores: '٣' is not an integer$"),
    # zero-turns
    (bad(zero="x"), "zero-turns", r"^zero-turns: 'x' is not a non-negative integer$"),
    (bad(zero="-1"), "zero-turns", r"^zero-turns: '-1' is not a non-negative integer$"),
    (bad(zero="9" * 5000), "zero-turns", r"^zero-turns: '9{80}'\.\.\. \(5000 characters\) is not a non-negative integer$"),
    (bad(scores="1/" + "9" * 5000), "scores", r"^scores: '9{80}'\.\.\. \(5000 characters\) is not an integer$"),
    (bad(ops=f"bb {'9' * 5000};"), "operations", r"^opcode 'bb': '9{80}'\.\.\. \(5000 characters\) is not a non-negative integer$"),
    (bad(zero="2;"), "zero-turns", r"^zero-turns: '2;' is not a non-negative integer$"),
    # operations
    (bad(ops="lex;"), "operations", r"^opcode 'lex' has no value$"),
    (bad(ops="lm;"), "operations", r"^opcode 'lm' has no value$"),
    (bad(ops="lex CSW21"), "operations", r"^opcode list: missing ';' after 'lex CSW21'$"),
    (bad(ops="lex CSW21; ld english"), "operations", r"^opcode list: missing ';' after 'ld english'$"),
    (bad(ops="lex CSW21;;"), "operations", r"^opcode list: an empty operation"),
    (bad(ops="lex CSW21; lex NWL20;"), "operations", r"^opcode 'lex' appears twice$"),
    (bad(ops="lex CSW21 NWL20;"), "operations", r"^opcode 'lex' takes one value, got 2: 'CSW21 NWL20'$"),
    (bad(ops="oru yes;"), "operations", r"^opcode 'oru' takes no value, got 'yes'$"),
    (bad(ops="bb x;"), "operations", r"^opcode 'bb': 'x' is not a non-negative integer$"),
    (bad(ops="bb -50;"), "operations", r"^opcode 'bb': '-50' is not a non-negative integer$"),
    (bad(ops="mcnz six;"), "operations", r"^opcode 'mcnz': 'six' is not a non-negative integer$"),
    (bad(ops="etl 1.5;"), "operations", r"^opcode 'etl': '1.5' is not a non-negative integer$"),
    (bad(ops="cr quadruple;"), "operations", r"^opcode 'cr': unknown challenge rule 'quadruple'; known: void, single"),
    (bad(ops="tmr 1000;"), "operations", r"^opcode 'tmr': expected 2 timers \(one per rack\), got 1$"),
    (bad(ops="tmr 1000/1s;"), "operations", r"^opcode 'tmr': '1s' is not a whole number of milliseconds$"),
    (bad(ops="ld klingon;"), "operations", r"^opcode 'ld': unknown letter distribution 'klingon'; known: english"),
    (bad(ops="ld ../alphabets/english;"), "operations", r"^opcode 'ld': unknown letter distribution"),
    (bad(ops="bdn SuperCrosswordGame;"), "operations", r"^opcode 'bdn': unknown board 'SuperCrosswordGame'; known"),
    (bad(ops="bdn ../layouts/standard;"), "operations", r"^opcode 'bdn': unknown board"),
    # tiles: more than the bag holds
    (bad(board=rows(r8="7ZZ6")), "tiles", r"^tiles: more than the english set holds: 2 Z \(2 on the board, 0 on"),
    (bad(board=rows(r8="7Z7"), racks="Z/"), "tiles", r"2 Z \(1 on the board, 1 on the racks\) but the set has 1$"),
    (bad(racks="QQ/"), "tiles", r"^tiles: more than the english set holds: 2 Q \(0 on the board, 2 on the racks\)"),
    (bad(board=rows(r8="7ab6"), racks="?/"), "tiles", r"3 blanks \(2 on the board, 1 on the racks\) but the set has 2"),
    (bad(racks="???/"), "tiles", r"3 blanks \(0 on the board, 3 on the racks\)"),
    (bad(board=rows(r8="4[CH]U[RR]O7"), racks="[CH]/", ops="ld spanish;"), "tiles", r"2 CH \(1 on the board"),
]


@pytest.mark.parametrize(("text", "field", "message"), ERRORS)
def test_errors_name_the_field(text: str, field: str, message: str) -> None:
    with pytest.raises(CgpError, match=message) as info:
        parse(text)
    assert info.value.field == field


def test_too_many_of_several_tiles_lists_them_all() -> None:
    with pytest.raises(CgpError, match=r"2 Q .*; 2 Z ") as info:
        parse(bad(board=rows(r8="7QZ6"), racks="Q/Z"))
    assert isinstance(info.value, FormatError) and isinstance(info.value, ValueError)


def test_board_wider_than_the_layout_is_refused_before_placing_tiles() -> None:
    with pytest.raises(CgpError, match=r"^board row 1: 30 squares"):
        parse(bad(board=rows(r1="ABCDEFGHIJKLMNOPQRSTUVWXYZABCD")))


# -- making and writing -----------------------------------------------------------


def test_position_from_tiles_and_text() -> None:
    board = Board()
    for col, letter in enumerate("HORN", start=5):
        board.tiles[7 * 15 + col] = EN.tile(letter)
    position = position_from(board, ["AEINRST", [0, EN.tile("Q")]], [14, 0], 1, lex="CSW21", bb=50, oru=True, var=False)
    assert position.board.tile_count == 4
    assert position.operations == {"lex": ["CSW21"], "bb": ["50"], "oru": []}
    assert dumps(position) == rows(r8="5HORN6") + " AEINRST/?Q 14/0 1 lex CSW21; bb 50; oru;"
    assert parse(dumps(position)) == position
    assert position_from(board, ["", ""], [0, 0], zz=["a", "b"]).operations == {"zz": ["a", "b"]}
    board.tiles[0] = EN.tile("A")
    assert position.board.at(0, 0) == 0  # the position holds a copy


def test_position_from_adds_ld_for_another_tile_set() -> None:
    board = Board(alphabet=ES)
    board.tiles[7 * 15 + 7] = ES.tile("LL")
    position = position_from(board, ["[CH]", ""], [0, 0])
    assert position.operations == {"ld": ["spanish"]}
    assert parse(dumps(position)) == position
    assert position_from(board, ["", ""], [0, 0], ld="Spanish").operations == {"ld": ["Spanish"]}


def test_position_from_errors() -> None:
    with pytest.raises(CgpError, match=r"^scores: expected 2 scores \(one per rack\), got 3$"):
        position_from(Board(), ["A", "B"], [1, 2, 3])
    with pytest.raises(CgpError, match=r"^racks: expected a rack for each of 2 or more players, got 1$"):
        position_from(Board(), ["A"], [1])
    with pytest.raises(CgpError, match=r"^zero-turns: -1 is not a non-negative integer$"):
        position_from(Board(), ["A", "B"], [1, 2], -1)
    with pytest.raises(CgpError, match=r"^scores: 10000000000 is not an integer of at most 9 digits$"):
        position_from(Board(), ["A", "B"], [1, 10**10])
    with pytest.raises(CgpError, match=r"^racks: 'A1' is not a rack of english tiles"):
        position_from(Board(), ["A1", "B"], [1, 2])
    with pytest.raises(CgpError, match=r"^racks: rack 2 holds 27, not a rack tile of the english set$"):
        position_from(Board(), ["A", [27]], [1, 2])
    with pytest.raises(CgpError, match=r"^racks: rack 1 holds 129, not a rack tile"):
        position_from(Board(), [[0x81], []], [1, 2])
    board = Board()
    board.tiles[0] = 27
    with pytest.raises(CgpError, match=r"^board: A1 holds 27, not a tile of the english set$"):
        position_from(board, ["", ""], [0, 0])
    board.tiles[0] = 0x80
    with pytest.raises(CgpError, match=r"^board: A1 holds 128"):
        position_from(board, ["", ""], [0, 0])
    with pytest.raises(CgpError, match=r"^tiles: more than the english set holds: 3 blanks"):
        position_from(Board(), ["??", "?"], [0, 0])
    with pytest.raises(CgpError, match=r"^opcode 'bb': 'lots' is not a non-negative integer$"):
        position_from(Board(), ["", ""], [0, 0], bb="lots")
    with pytest.raises(CgpError, match=r"^opcode 'gid': operand 'a b' is empty or holds a space or ';'$"):
        position_from(Board(), ["", ""], [0, 0], gid="a b")


def test_dumps_refuses_what_would_not_read_back() -> None:
    good = parse(f"{EMPTY_ROWS} A/B 1/2 0")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"racks": [[1]], "scores": [1]}, "1 racks and 1 scores"),
        ({"scores": [1]}, "2 racks and 1 scores"),
        ({"zero_turns": -1}, "zero_turns must not be negative"),
        ({"racks": [[0x81], []]}, r"rack \[129\] holds 129, not a rack tile"),
        ({"racks": [[99], []]}, r"holds 99"),
        ({"operations": {"gid": ["a;b"]}}, r"opcode 'gid': 'a;b' is empty or holds a space or ';'"),
        ({"operations": {"x y": []}}, r"opcode 'x y'"),
        ({"operations": {"lex": [""]}}, r"opcode 'lex': '' is empty"),
    ]
    for change, message in cases:
        position = dataclasses.replace(good, **change)
        with pytest.raises(ValueError, match=message):
            dumps(position)
    board = good.board.copy()
    board.tiles[224] = 0x9F
    with pytest.raises(ValueError, match=r"square O15 holds 159, not a tile"):
        dumps(Position(board, [[], []], [0, 0]))


def test_repr_is_a_call_to_parse() -> None:
    position = parse(OPENING)
    assert repr(position) == f"cgp.parse({OPENING!r})"
    broken = Position(position.board, [[]], [0])
    assert repr(broken).startswith("Position(board=<standard board>, racks=[[]]")


# -- properties ---------------------------------------------------------------------

KNOWN_OPCODES = {"bb", "bdn", "cr", "etl", "gid", "ld", "lex", "lm", "mcnz", "oru", "ti", "tmr", "to", "var"}
WORDS = st.from_regex(r"[A-Za-z0-9._/-]{1,8}", fullmatch=True)


@st.composite
def operations(draw: st.DrawFn, alphabet_name: str, players: int) -> dict[str, list[str]]:
    choices: list[tuple[str, list[str]]] = [
        ("lex", [draw(st.sampled_from(["CSW21", "NWL20", "FILE2017"]))]),
        ("bb", [str(draw(st.integers(0, 100)))]),
        ("cr", [draw(st.sampled_from(["void", "single", "double", "triple", "5pt", "10pt"]))]),
        ("mcnz", [str(draw(st.integers(1, 12)))]),
        ("etl", [str(draw(st.integers(0, 7)))]),
        ("gid", [draw(WORDS)]),
        ("var", [draw(st.sampled_from(["classic", "wordsmog"]))]),
        ("lm", draw(st.lists(WORDS, min_size=1, max_size=3))),
        ("oru", []),
        (
            "tmr",
            [
                "/".join(
                    str(t) for t in draw(st.lists(st.integers(-(10**6), 10**7), min_size=players, max_size=players))
                )
            ],
        ),
        ("ti", [str(draw(st.integers(0, 10**4)))]),
        ("to", [str(draw(st.integers(0, 10**5)))]),
        ("bdn", [draw(st.sampled_from(["CrosswordGame", "standard"]))]),
    ]
    unknown = draw(
        st.lists(
            st.from_regex(r"[a-z]{1,5}", fullmatch=True).filter(lambda o: o not in KNOWN_OPCODES),
            max_size=2,
            unique=True,
        )
    )
    choices += [(opcode, draw(st.lists(WORDS, max_size=3))) for opcode in unknown]
    picked = draw(st.lists(st.sampled_from(choices), unique_by=lambda c: c[0], max_size=6))
    ops = dict(picked)
    if alphabet_name != "english" or draw(st.booleans()):
        ops["ld"] = [alphabet_name]
    order = draw(st.permutations(list(ops)))
    return {opcode: ops[opcode] for opcode in order}


@st.composite
def positions(draw: st.DrawFn) -> Position:
    alphabet = draw(st.sampled_from([EN, ES, DE, PL]))
    bag = draw(st.permutations(alphabet.distribution()))
    squares = draw(st.lists(st.integers(0, 224), max_size=len(bag), unique=True))
    board = Board(alphabet=alphabet)
    for square, tile in zip(squares, bag, strict=False):
        if tile == BLANK:
            tile = BLANK_BIT | draw(st.sampled_from(alphabet.letters))
        board.tiles[square] = tile
    board.tile_count = len(squares)
    rest = bag[len(squares) :]
    players = draw(st.integers(2, 4))
    racks = []
    for _ in range(players):
        size = draw(st.integers(0, 7))
        racks.append(rest[:size])
        rest = rest[size:]
    scores = draw(st.lists(st.integers(-50, 900), min_size=players, max_size=players))
    zero_turns = draw(st.integers(0, 12))
    return Position(board, racks, scores, zero_turns, draw(operations(alphabet.name, players)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(positions())
def test_dumps_then_parse_is_identity(position: Position) -> None:
    text = dumps(position)
    again = parse(text)
    assert again == position
    assert again.alphabet is position.alphabet
    assert again.board.tile_count == position.board.tile_count
    assert dumps(again) == text


VALID = MIDGAME
MUTATIONS = st.text(alphabet="0123456789/ ;?[]ABCZabcñÄ-x\n", max_size=6)


@settings(max_examples=120, deadline=None)
@given(st.integers(0, len(VALID)), st.integers(0, 6), MUTATIONS)
def test_damaged_records_raise_only_cgp_errors(start: int, length: int, insert: str) -> None:
    text = VALID[:start] + insert + VALID[start + length :]
    try:
        position = parse(text)
    except CgpError as err:
        assert err.field in {"input", "board", "racks", "scores", "zero-turns", "operations", "tiles"}
        assert str(err).startswith(("empty input", "board", "racks", "scores", "zero-turns", "opcode", "tiles"))
    else:
        assert parse(dumps(position)) == position
