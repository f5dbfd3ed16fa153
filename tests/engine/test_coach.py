"""Coaching lists and advice, checked against the default lexicon by brute
force: every expected answer here is computed from the plain word list,
not from the word graph the coach walks."""

from __future__ import annotations

import functools
import itertools
import re
import string
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilebag.alphabet import load_alphabet
from tilebag.board import Board
from tilebag.engine.coaching import word_lists
from tilebag.engine.coaching.rack_advice import Q_HINT_LENGTH, RackAdvice, rack_advice
from tilebag.engine.coaching.word_lists import (
    BoardHooks,
    Hooks,
    anagrams,
    bingos,
    board_hooks,
    hooks,
    q_without_u,
    short_words,
    through_bingos,
    words_containing,
)
from tilebag.engine.equity.leaves import HeuristicLeaves
from tilebag.errors import InvalidMoveError
from tilebag.kwg import Kwg
from tilebag.lexicon import GraphLexicon, KwgLexicon, load_lexicon
from tilebag.move import Move

LEXICON = load_lexicon()
ENGLISH = load_alphabet("english")
LETTERS = string.ascii_uppercase


@functools.cache
def all_words() -> tuple[str, ...]:
    """Every word of the default lexicon, as text."""
    return tuple(LEXICON)


@functools.cache
def word_set() -> frozenset[str]:
    return frozenset(all_words())


@functools.cache
def by_letters() -> dict[str, frozenset[str]]:
    """Words by their sorted letters (an anagram index)."""
    index: dict[str, set[str]] = {}
    for word in all_words():
        index.setdefault("".join(sorted(word)), set()).add(word)
    return {key: frozenset(words) for key, words in index.items()}


def fits(word: str, rack: str) -> bool:
    """Whether a word can be made from a rack's tiles (``?`` a blank)."""
    have = Counter(rack.replace("?", ""))
    short = sum(max(0, n - have[letter]) for letter, n in Counter(word).items())
    return short <= rack.count("?")


def brute_anagrams(rack: str, *, build: bool, min_length: int = 2) -> set[str]:
    size = len(rack)
    return {
        word
        for word in all_words()
        if (len(word) == size if not build else min_length <= len(word) <= size) and fits(word, rack)
    }


def expected_order(words: list[str]) -> list[str]:
    return sorted(words, key=lambda word: (-len(word), word.upper(), word))


def check_blanks(word: str, rack: str) -> None:
    """A word's tiles come from the rack; a letter is a blank (lower case)
    only where the rack has no natural tile of it left."""
    natural = Counter(rack.replace("?", ""))
    used = Counter(ch for ch in word if ch.isupper())
    blanks = [ch for ch in word if ch.islower()]
    assert len(blanks) <= rack.count("?"), (word, rack)
    for letter, n in used.items():
        assert n <= natural[letter], (word, rack)
    for ch in blanks:
        assert used[ch.upper()] == natural[ch.upper()], (word, rack)


# -- word lists ------------------------------------------------------------------


@pytest.mark.parametrize("length", [2, 3, 4])
def test_short_words_are_every_word_of_the_length_in_order(length: int) -> None:
    expected = [word for word in all_words() if len(word) == length]
    assert short_words(LEXICON, length) == expected
    assert expected == sorted(expected)


def test_short_words_refuse_a_length_below_one() -> None:
    with pytest.raises(ValueError, match="at least 1 tile, got length 0"):
        short_words(LEXICON, 0)
    assert short_words(LEXICON, 16) == []


def test_q_without_u_is_every_such_word_longest_first() -> None:
    expected = [word for word in all_words() if "Q" in word and "U" not in word]
    found = q_without_u(LEXICON)
    assert set(found) == set(expected) and len(found) == len(expected)
    assert found == expected_order(found)
    assert {"QI", "QAT", "QIS"} <= set(found)


@pytest.mark.parametrize(("letter", "without"), [("Z", "AEIOU"), ("J", ""), ("X", "E"), ("K", "AEIOUY")])
def test_words_containing_matches_brute_force(letter: str, without: str) -> None:
    expected = {word for word in all_words() if letter in word and not set(without) & set(word)}
    found = words_containing(LEXICON, letter, without=without)
    assert set(found) == expected and len(found) == len(expected)
    assert found == expected_order(found)


def test_words_containing_walks_a_dawg_only_graph_the_same_way() -> None:
    sample = [word for word in all_words() if len(word) <= 5 and ("Q" in word or "J" in word or word < "AD")]
    keys = [bytes(ENGLISH.parse_word(word)) for word in sample]
    with_gaddag = KwgLexicon(Kwg.build(keys), name="sample")
    dawg_only = KwgLexicon(Kwg.build(keys, gaddag=False), name="sample")
    assert with_gaddag.kwg.has_gaddag and not dawg_only.kwg.has_gaddag
    for letter, without in (("Q", "U"), ("J", ""), ("A", "E"), ("Z", "")):
        expected = expected_order([w for w in sample if letter in w and not set(without) & set(w)])
        assert words_containing(with_gaddag, letter, without=without) == expected
        assert words_containing(dawg_only, letter, without=without) == expected
    assert q_without_u(dawg_only) == expected_order([w for w in sample if "Q" in w and "U" not in w])


def test_words_containing_edge_cases() -> None:
    assert words_containing(LEXICON, "Q", without="Q") == []
    assert words_containing(LEXICON, 17, without=[21]) == q_without_u(LEXICON)  # tile codes work too
    with pytest.raises(InvalidMoveError, match="'QU' is not one letter"):
        words_containing(LEXICON, "QU")
    with pytest.raises(InvalidMoveError, match="'1' is not a tile"):
        words_containing(LEXICON, "1")


# -- anagrams --------------------------------------------------------------------


@pytest.mark.parametrize("rack", ["AEINRST", "AEINRS?", "EORSTU?", "QI?", "??", "ZZZ", "RETAINS"])
def test_exact_anagrams_match_brute_force(rack: str) -> None:
    found = anagrams(LEXICON, rack)
    assert {word.upper() for word in found} == brute_anagrams(rack, build=False)
    assert len(found) == len({word.upper() for word in found})
    assert found == expected_order(found)
    for word in found:
        check_blanks(word, rack)


@pytest.mark.parametrize(("rack", "min_length"), [("AEINRS?", 2), ("QZ?", 2), ("CDEIRST", 4), ("EO??", 3)])
def test_built_anagrams_match_brute_force(rack: str, min_length: int) -> None:
    found = anagrams(LEXICON, rack, build=True, min_length=min_length)
    assert {word.upper() for word in found} == brute_anagrams(rack, build=True, min_length=min_length)
    assert len(found) == len({word.upper() for word in found})
    assert found == expected_order(found)
    for word in found:
        check_blanks(word, rack)


def test_anagrams_take_tiles_and_lower_case_racks() -> None:
    assert anagrams(LEXICON, "aeinrst") == anagrams(LEXICON, "AEINRST")
    assert anagrams(LEXICON, ENGLISH.parse_rack("QI?"), build=True) == anagrams(LEXICON, "QI?", build=True)
    assert anagrams(LEXICON, [17, 0x89]) == anagrams(LEXICON, "Q?")  # a designated blank is a blank
    assert anagrams(LEXICON, "QI?", build=True)[0] == "QIs"


@pytest.mark.parametrize(
    ("rack", "message"),
    [
        ("AE1", "'AE1': '1' is not a tile of the english tile set"),
        ("", "no tiles given"),
        ("ABCDEFGHIJKLMNOP", "'ABCDEFGHIJKLMNOP' has 16 tiles; the word tools take at most 15"),
        ([1, 99], "tile code 99 is not in the english tile set"),
    ],
)
def test_bad_racks_say_what_is_wrong(rack: str | list[int], message: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        anagrams(LEXICON, rack)
    assert message in str(caught.value)


def test_bingos_and_through_bingos() -> None:
    assert bingos(LEXICON, "AEINRST") == anagrams(LEXICON, "AEINRST")
    plus = through_bingos(LEXICON, "AEINRST")
    for letter in LETTERS:
        expected = sorted(w for w in by_letters().get("".join(sorted("AEINRST" + letter)), ()))
        assert plus.get(letter, []) == expected
    assert list(plus) == sorted(plus) and "BANISTER" in plus["B"]
    assert through_bingos(LEXICON, "AEINRST", "BX") == {"B": plus["B"]}
    with pytest.raises(InvalidMoveError, match="with one more it passes the 15"):
        through_bingos(LEXICON, "ABCDEFGHIJKLMNO")


racks = st.tuples(
    st.lists(st.sampled_from(LETTERS), min_size=0, max_size=7), st.integers(min_value=0, max_value=2)
).map(lambda parts: "".join(parts[0]) + "?" * parts[1])


@settings(max_examples=40, deadline=None)
@given(racks.filter(bool), st.booleans(), st.integers(min_value=1, max_value=5))
def test_every_anagram_is_a_word_from_the_rack(rack: str, build: bool, min_length: int) -> None:
    found = anagrams(LEXICON, rack, build=build, min_length=min_length)
    assert found == expected_order(found)
    assert len(found) == len({word.upper() for word in found})
    for word in found:
        assert word.upper() in word_set()
        assert len(word) == len(rack) if not build else min_length <= len(word) <= len(rack)
        check_blanks(word, rack)


@settings(max_examples=40, deadline=None)
@given(racks.filter(bool))
def test_exact_anagrams_are_complete(rack: str) -> None:
    natural = rack.replace("?", "")
    expected: set[str] = set()
    for fill in itertools.product(LETTERS, repeat=rack.count("?")):
        expected |= by_letters().get("".join(sorted(natural + "".join(fill))), frozenset())
    assert {word.upper() for word in anagrams(LEXICON, rack)} == expected


# -- hooks -----------------------------------------------------------------------


def brute_hooks(word: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    words = word_set()
    return (
        tuple(x for x in LETTERS if x + word in words),
        tuple(x for x in LETTERS if word + x in words),
    )


@pytest.mark.parametrize("word", ["CARE", "QI", "AT", "XU", "ZZZ", "OXYPHENBUTAZONE", "XZ", "ARE", "HEALTH"])
def test_hooks_match_membership_tests(word: str) -> None:
    found = hooks(LEXICON, word.lower())
    front, back = brute_hooks(word)
    assert found == Hooks(word, word in word_set(), front, back)
    assert all(w in word_set() for w in (*found.front_words, *found.back_words))
    assert bool(found) == bool(front or back)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=188377))
def test_hooks_of_any_word(index: int) -> None:
    word = all_words()[index % len(all_words())]
    found = hooks(LEXICON, ENGLISH.parse_word(word.lower()))  # blanks stand for their letters
    assert (found.word, found.acceptable) == (word, True)
    assert (found.front, found.back) == brute_hooks(word)


def test_hooks_refuse_what_is_not_a_word() -> None:
    with pytest.raises(InvalidMoveError, match="'C4RE': '4' is not a tile"):
        hooks(LEXICON, "C4RE")
    with pytest.raises(InvalidMoveError, match=re.escape("'CA?E': '?' is a blank, not a letter")):
        hooks(LEXICON, "CA?E")
    with pytest.raises(InvalidMoveError, match="no word given"):
        hooks(LEXICON, " ")


def test_board_hooks_list_every_word_with_the_squares_free_for_hooks() -> None:
    board = Board()
    for gcg in ("8H CARE", "H8 .AT", "1A QI", "F8 X", "M8 O", "12C jOT", "B10 OX"):  # as they stand, unchecked
        board.place(Move.from_gcg(gcg))
    found = board_hooks(board, LEXICON)
    positions = [(h.position, h.word) for h in found]
    assert positions == [("1A", "QI"), ("8H", "CARE"), ("12C", "jOT"), ("B10", "OX"), ("H8", "CAT")]
    for h in found:
        assert h.hooks == hooks(LEXICON, h.word.upper())
    qi, care, jot, ox, cat = found
    assert (ox.front_open, ox.back_open) == (True, True)
    assert (qi.front_open, qi.back_open, qi.playable_front, qi.playable_back) == (False, True, (), ("S",))
    # F8 (two before H8) and M8 (two after K8) hold tiles: a hook there would join them.
    assert (care.front_open, care.back_open, care.playable_front, care.playable_back) == (False, False, (), ())
    assert (jot.front_open, jot.back_open) == (True, True) and jot.playable_back == jot.hooks.back
    assert (cat.front_open, cat.back_open) == (True, True) and cat.playable_front == brute_hooks("CAT")[0]
    assert board_hooks(Board(), LEXICON) == []
    assert isinstance(found[0], BoardHooks)


def test_format_hooks_aligns_columns() -> None:
    lines = word_lists.format_hooks([hooks(LEXICON, w) for w in ("QI", "CARE", "XZ")], words=True)
    assert lines == [
        "front  word  back",
        "    -  QI    S      QIS",
        "    S  CARE  DRSTX  SCARE CARED CARER CARES CARET CAREX",
        "    -  XZ*   -",
    ]


# -- presenting ------------------------------------------------------------------


def test_labelled_lines_wrap_under_the_words() -> None:
    words = short_words(LEXICON, 3)
    lines = word_lists.labelled_lines(word_lists.group_by_first(words, ENGLISH), width=60)
    assert all(len(line) <= 60 for line in lines)
    assert [w for line in lines for w in line[3:].split()] == words
    assert lines[0].startswith("A: AAH ")
    assert word_lists.labelled_lines({}) == []


def test_groups() -> None:
    grouped = word_lists.group_by_length(q_without_u(LEXICON), ENGLISH)
    assert list(grouped) == sorted(grouped, reverse=True)
    assert grouped[2] == ["QI"]
    spanish = load_alphabet("spanish")
    assert word_lists.group_by_first(["CHE", "CA"], spanish) == {"C": ["CA"], "CH": ["CHE"]}


# -- rack advice -------------------------------------------------------------------


def advice(leave: str, *, unseen: list[int] | None = None, lexicon: GraphLexicon | None = None) -> RackAdvice:
    return rack_advice(ENGLISH.parse_rack(leave), ENGLISH, unseen=unseen, lexicon=lexicon)


def test_advice_value_and_counts_come_from_the_leave() -> None:
    leaves = HeuristicLeaves(ENGLISH)
    for leave in ("ERS?", "QVW", "EIIO", "AEINST", "??", "U"):
        found = advice(leave)
        assert found.value == leaves.value(ENGLISH.parse_rack(leave))
        assert found.leave == ENGLISH.format_rack(ENGLISH.parse_rack(leave))
        assert found.notes[0].startswith(f"Leave value {found.value:+.1f}")
        vowels = sum(ch in "AEIOU" for ch in leave)
        assert (found.vowels, found.consonants, found.blanks) == (
            vowels,
            len(leave) - vowels - leave.count("?"),
            leave.count("?"),
        )


def test_advice_thresholds() -> None:
    assert "a strong leave" in advice("ERS").notes[0]  # about +11
    assert "an ordinary leave" in advice("S").notes[0]
    assert "a weak leave" in advice("Q").notes[0]
    assert any(n.startswith("Vowel-heavy: 4 vowels, 1 consonant;") for n in advice("AEIOT").notes)
    assert not any("heavy:" in n for n in advice("AEIRT").notes)  # 3 vowels in 5 letters is within the slack
    assert any(n.startswith("Consonant-heavy: no vowels, 3 consonants;") for n in advice("BCD").notes)
    assert any(n.startswith("Duplicated letters I×2, O×3:") for n in advice("IIOOO").notes)
    assert any(n.startswith("Heavy consonants V, W:") for n in advice("AVW").notes)
    assert not any(n.startswith("Heavy") for n in advice("AEV").notes)
    assert any(n.startswith("Keeping both blanks (worth about 25") for n in advice("??").notes)
    assert any(n.startswith("Keeping the S (worth about 8") for n in advice("ESS").notes)


def test_q_without_u_advice_counts_unseen_and_names_short_words() -> None:
    unseen = ENGLISH.parse_rack("UAEIOBCD?")
    found = advice("QE", unseen=unseen, lexicon=LEXICON)
    short = sorted((w for w in q_without_u(LEXICON) if len(w) <= Q_HINT_LENGTH), key=lambda w: (len(w), w))
    assert (
        f"Q without U: it fits few words; 1 U and 1 blank unseen; the short words without U: {', '.join(short)}."
        in found.notes
    )
    assert not any("Q without U" in n for n in advice("QU").notes)


def test_unseen_pool_shifts_the_advice() -> None:
    vowel_rich = ENGLISH.parse_rack("AAEEIIOOUBC")
    consonant_rich = ENGLISH.parse_rack("BCDFGHKLMNAE")
    assert any(
        n.startswith("The unseen tiles are vowel-rich (82% vowels)") for n in advice("ET", unseen=vowel_rich).notes
    )
    assert any(
        n.startswith("The unseen tiles are consonant-rich (17% vowels)")
        for n in advice("ET", unseen=consonant_rich).notes
    )
    full_bag = ENGLISH.distribution()
    assert not any(n.startswith("The unseen") for n in advice("ET", unseen=full_bag).notes)


def test_advice_edge_cases() -> None:
    assert advice("").notes == ("Nothing kept: a whole new rack comes from the bag.",)
    assert rack_advice([0x81, 5], ENGLISH) == advice("?E")  # a designated blank is a blank
    with pytest.raises(ValueError, match="tile code 40 is not in the english tile set"):
        rack_advice([40], ENGLISH)
    str(advice("ERS?"))  # readable


def test_advice_uses_the_leave_values_given() -> None:
    class Flat:
        name = "flat"

        def value(self, leave: object) -> float:
            return 42.0

    found = rack_advice(ENGLISH.parse_rack("VV"), ENGLISH, leaves=Flat())
    assert found.value == 42.0 and "a strong leave" in found.notes[0]
    assert any(n.startswith("Keeping the V (worth about 42") for n in found.notes)
