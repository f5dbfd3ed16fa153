"""Tile sets: the English distribution of the SPEC, blanks, multi-letter and
accented tiles, and the data-file format."""

from __future__ import annotations

import re

import pytest

from tilebag import BLANK, BLANK_BIT, FormatError, InvalidMoveError, load_alphabet, load_alphabet_file
from tilebag.alphabet import (
    alphabet_names,
    is_designated_blank,
    letter_of,
    missing_tiles,
    rack_tile,
    tile_counts,
)

# Copied from SPEC.md, "Equipment (English set)".
SPEC_TABLE = """
A×9(1) B×2(3) C×2(3) D×4(2) E×12(1) F×2(4) G×3(2) H×2(4)
I×9(1) J×1(8) K×1(5) L×4(1) M×2(3) N×6(1) O×8(1) P×2(3) Q×1(10) R×6(1) S×4(1) T×6(1) U×4(1)
V×2(4) W×2(4) X×1(8) Y×2(4) Z×1(10), blank×2(0)
"""
SPEC_TILES = {m[0]: (int(m[1]), int(m[2])) for m in re.findall(r"(\w+)×(\d+)\((\d+)\)", SPEC_TABLE)}


@pytest.fixture(scope="module")
def english():
    return load_alphabet("english")


# -- English ------------------------------------------------------------------


def test_spec_table_parsed_completely():
    # guard the test itself: 26 letters plus the blank
    assert len(SPEC_TILES) == 27
    assert SPEC_TILES["blank"] == (2, 0)


def test_english_has_100_tiles_worth_187(english):
    assert english.total_tiles == 100
    assert sum(english.score(t) * n for t, n in enumerate(english.counts)) == 187
    assert len(english.distribution()) == 100
    assert sum(english.score(t) for t in english.distribution()) == 187


def test_english_counts_and_values_match_the_spec(english):
    assert english.size == 27
    assert english.labels[0] == "?"
    assert list(english.labels[1:]) == [chr(ord("A") + i) for i in range(26)]
    for code in english.letters:
        label = english.label(code)
        assert (english.counts[code], english.score(code)) == SPEC_TILES[label], label
    assert (english.counts[BLANK], english.scores[BLANK]) == SPEC_TILES["blank"]


def test_english_vowels(english):
    vowels = {english.label(t) for t in english.letters if english.is_vowel(t)}
    assert vowels == set("AEIOU")
    assert english.is_vowel(BLANK_BIT | english.tile("E"))
    assert not english.is_vowel(english.tile("Y"))


def test_distribution_is_in_code_order(english):
    dist = english.distribution()
    assert dist == sorted(dist)
    assert dist[:2] == [BLANK, BLANK]
    assert dist.count(english.tile("E")) == 12
    assert dist.count(english.tile("Z")) == 1


# -- blanks ---------------------------------------------------------------------


def test_lower_case_letter_is_a_designated_blank(english):
    q, a, t = english.parse_word("QaT")
    assert (q, t) == (english.tile("Q"), english.tile("T"))
    assert a == BLANK_BIT | english.tile("A") == 0x81
    assert is_designated_blank(a) and not is_designated_blank(q)
    assert letter_of(a) == english.tile("A")
    assert rack_tile(a) == BLANK
    assert english.label(a) == "a"
    assert english.format_word((q, a, t)) == "QaT"


def test_designated_blank_scores_zero(english):
    assert english.score(english.tile("z")) == 0
    assert english.score(english.tile("Z")) == 10
    assert english.score(BLANK) == 0
    assert english.rack_value(english.parse_rack("QZ?")) == 20


def test_question_mark_is_the_blank_on_a_rack(english):
    assert english.parse_rack("?aB") == [BLANK, 1, 2]
    # on a rack, case does not matter: lower case is the plain letter
    assert english.parse_rack("ab") == english.parse_rack("AB") == [1, 2]
    assert english.tile("?") == BLANK
    assert english.label(BLANK) == "?"


def test_question_mark_is_not_a_tile_inside_a_word(english):
    with pytest.raises(InvalidMoveError, match=r"'\?' is not a tile of the english tile set"):
        english.parse_word("A?")


def test_format_rack_puts_letters_in_order_and_blanks_last(english):
    assert english.format_rack([0, 19, 1, 0, 5]) == "AES??"
    assert english.format_rack(english.parse_rack("SATIRE?")) == "AEIRST?"


def test_bad_characters_are_named(english):
    with pytest.raises(InvalidMoveError, match=r"'0' is not a tile of the english tile set"):
        english.parse_word("H0RN")
    with pytest.raises(InvalidMoveError, match="not one tile"):
        english.tile("AB")
    with pytest.raises(InvalidMoveError, match=r"'\[' without '\]'"):
        english.parse_word("[A")


def test_tile_counts_and_missing_tiles_treat_designated_blanks_as_blanks():
    assert tile_counts([1, 1, 0x82, 0], 4) == [2, 2, 0, 0]
    assert missing_tiles([1, 0x85], [1, 0]) == []
    assert missing_tiles([1, 0x85, 0x86], [1, 0]) == [0]
    assert missing_tiles([2, 2], [2]) == [2]


# -- Spanish: two-letter tiles --------------------------------------------------


def test_spanish_two_letter_tiles():
    spanish = load_alphabet("spanish")
    assert spanish.total_tiles == 100
    assert [spanish.label(t) for t in spanish.parse_word("CHURRO")] == ["CH", "U", "RR", "O"]
    assert [spanish.label(t) for t in spanish.parse_word("LLAMA")] == ["LL", "A", "M", "A"]
    ch, ll, rr = (spanish.tile(x) for x in ("CH", "LL", "RR"))
    assert len({ch, ll, rr}) == 3
    assert (spanish.score(ch), spanish.score(ll), spanish.score(rr)) == (5, 8, 8)
    assert spanish.counts[ch] == spanish.counts[ll] == spanish.counts[rr] == 1
    assert spanish.label(spanish.tile("Ñ")) == "Ñ"


def test_spanish_bracket_notation_and_aliases():
    spanish = load_alphabet("spanish")
    ch = spanish.tile("CH")
    assert spanish.parse_word("[CH]URRO") == spanish.parse_word("CHURRO")
    # brackets keep C and H apart when they are two tiles
    assert spanish.parse_word("[C][H]") == (spanish.tile("C"), spanish.tile("H"))
    # a lower-case two-letter tile is a blank standing for it
    assert spanish.parse_word("[ch]") == (BLANK_BIT | ch,)
    assert spanish.parse_word("ch") == (BLANK_BIT | ch,)
    assert spanish.label(BLANK_BIT | ch) == "ch"
    # the digit aliases of the data file
    assert spanish.parse_word("1URRO") == spanish.parse_word("CHURRO")
    assert spanish.parse_word("2") == (spanish.tile("LL"),)
    with pytest.raises(InvalidMoveError, match="'XX' is not a tile of the spanish tile set"):
        spanish.parse_word("[XX]")


# -- Polish -------------------------------------------------------------------------


def test_polish_letters():
    polish = load_alphabet("polish")
    assert polish.total_tiles == 100
    word = polish.parse_word("ŻÓŁW")
    assert [polish.label(t) for t in word] == ["Ż", "Ó", "Ł", "W"]
    assert [polish.score(t) for t in word] == [5, 5, 3, 1]
    assert polish.score(polish.tile("Ź")) == 9
    assert polish.parse_word("żółw") == tuple(BLANK_BIT | t for t in word)
    assert polish.format_word(polish.parse_word("żółw")) == "żółw"
    for letter in "ĄĆĘŁŃÓŚŹŻ":
        assert polish.counts[polish.tile(letter)] >= 1, letter
    assert polish.is_vowel(polish.tile("Ą")) and not polish.is_vowel(polish.tile("Ż"))


def test_shipped_tile_sets():
    names = alphabet_names()
    assert {"english", "spanish", "polish", "french", "german"} <= set(names)
    for name in names:
        alphabet = load_alphabet(name)
        assert alphabet.counts[BLANK] == 2, name
        assert alphabet.score(BLANK) == 0, name
    assert load_alphabet("ENGLISH") == load_alphabet("english")


# -- the data file format --------------------------------------------------------


def test_custom_alphabet_file_loads(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("# a tiny set\n?  1 0 consonant\nA 3 1 vowel\nB 2 3 consonant  8\n\nC 1 5 consonant # comment\n")
    tiny = load_alphabet_file(path)
    assert tiny.name == "tiny"
    assert tiny.labels == ("?", "A", "B", "C")
    assert tiny.counts == (1, 3, 2, 1)
    assert tiny.scores == (0, 1, 3, 5)
    assert tiny.total_tiles == 7
    assert tiny.vowels == frozenset({1})
    assert tiny.parse_word("8A") == (2, 1)  # the alias
    with pytest.raises(InvalidMoveError):
        tiny.parse_word("D")


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ("B 2 3", "expected 'label count score vowel|consonant"),
        ("B two 3 consonant", "count and score must be whole numbers"),
        ("B 2 3 cons", "expected 'vowel' or 'consonant', got 'cons'"),
        ("b 2 3 consonant", "a tile label must be upper-case letters, got 'b'"),
        ("7 2 3 consonant", "a tile label must be upper-case letters, got '7'"),
        ("A 2 3 vowel", "tile 'A' is listed twice"),
    ],
)
def test_malformed_alphabet_names_the_line(tmp_path, bad_line, message):
    path = tmp_path / "bad.txt"
    path.write_text(f"# header\n? 2 0 consonant\nA 9 1 vowel\n{bad_line}\nC 2 3 consonant\n")
    with pytest.raises(FormatError) as info:
        load_alphabet_file(path)
    err = info.value
    assert err.line == 4
    assert err.source == str(path)
    assert message in err.message
    assert str(err).startswith(f"{path}:4: ")


def test_alphabet_without_tiles_is_refused(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing\n? 2 0 consonant\n")
    with pytest.raises(FormatError, match="lists no tiles"):
        load_alphabet_file(path)


def test_unknown_alphabet_name_lists_the_known_ones():
    with pytest.raises(FormatError) as info:
        load_alphabet("klingon")
    text = str(info.value)
    assert "unknown tile set 'klingon'" in text
    for name in ("english", "polish", "spanish"):
        assert name in text


# -- names are never paths ------------------------------------------------------


@pytest.mark.parametrize("name", ["/etc/passwd", "../../etc/passwd", "english.txt", "x" * 1000, "UTF\x00-8", ""])
def test_a_name_is_never_opened_as_a_file(name):
    with pytest.raises(FormatError) as info:
        load_alphabet(name)
    message = str(info.value)
    assert message.startswith("unknown tile set ") and "known: english, french" in message
    assert "root:" not in message and len(message) < 300


def test_a_file_chosen_by_the_user_is_known_by_its_name_afterwards(tmp_path):
    path = tmp_path / "Tiny-Set.txt"
    path.write_text("? 1 0 consonant\nA 3 1 vowel\nB 2 3 consonant\n")
    with pytest.raises(FormatError, match="unknown tile set 'tiny-set'"):
        load_alphabet("tiny-set")
    tiny = load_alphabet_file(path)
    assert tiny.name == "tiny-set"
    assert load_alphabet("TINY-SET") is tiny
    assert "tiny-set" in alphabet_names()


def test_a_file_may_not_take_a_shipped_name_with_other_data(tmp_path):
    path = tmp_path / "english.txt"
    path.write_text("A 3 1 vowel\n")
    with pytest.raises(FormatError, match="the name of the tile set tilebag ships"):
        load_alphabet_file(path)
    assert load_alphabet("english").total_tiles == 100


def test_a_file_name_that_cannot_name_a_tile_set_is_refused(tmp_path):
    path = tmp_path / "my tiles.txt"
    path.write_text("A 3 1 vowel\n")
    with pytest.raises(FormatError, match="must be letters, digits"):
        load_alphabet_file(path)


def test_tile_counts_and_scores_are_bounded(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("A 1000000000 1 vowel\n")
    with pytest.raises(FormatError, match="from 0 to 999") as info:
        load_alphabet_file(path)
    assert info.value.line == 1
