"""Lexicons: word-list files, membership by text and by tiles, the default."""

from __future__ import annotations

import gzip
import hashlib

import pytest

from tilebag import (
    AcceptAll,
    FormatError,
    InvalidMoveError,
    Lexicon,
    WordList,
    default_lexicon,
    load_alphabet,
    load_lexicon,
)
from tilebag import lexicon as lexicon_module
from tilebag.alphabet import BLANK_BIT
from tilebag.kwg import ARC_MASK, IS_END, Kwg
from tilebag.lexicon import KwgLexicon, read_word_list

EN = load_alphabet("english")

# What `len(default_lexicon())` gives with kjxqz 1.2.0: the SPEC's count
# (the package's list has no one-letter words, so nothing is skipped).
DEFAULT_WORDS = 188_378


def test_word_list_file_any_case_comments_and_blank_lines(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("# my words\n\nhorn\nFarm\n  PASTE  \nmob # an inline comment\n\nA\nI\n")
    lexicon = load_lexicon(path)
    assert lexicon.name == "mine"
    assert len(lexicon) == 4
    assert sorted(lexicon) == ["FARM", "HORN", "MOB", "PASTE"]
    assert "farm" in lexicon and "HORN" in lexicon and "Mob" in lexicon
    # one-letter words are skipped: no play can form them
    assert "A" not in lexicon and "I" not in lexicon
    assert lexicon.digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert isinstance(lexicon, Lexicon)


def test_word_list_bad_line_is_named(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("HORN\n# comment\nFARM\nPAS7E\nMOB\n")
    with pytest.raises(FormatError) as info:
        load_lexicon(path)
    err = info.value
    assert err.line == 4
    assert err.source == str(path)
    assert str(err) == f"{path}:4: 'PAS7E' is not a word of the english tile set ('7' is not a tile)"


def test_word_list_two_words_on_a_line(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("HORN\nFARM MOB\n")
    with pytest.raises(FormatError) as info:
        load_lexicon(path)
    assert info.value.line == 2
    assert "expected one word per line, got 'FARM MOB'" in str(info.value)


def test_word_list_not_utf8(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"HORN\nFARM\nCAF\xc9\n")
    with pytest.raises(FormatError) as info:
        load_lexicon(path)
    assert info.value.line == 3
    assert "not UTF-8" in str(info.value)


def test_gz_word_list(tmp_path):
    text = "\ufeffqi\nZA\nHORN\n"
    path = tmp_path / "small.txt.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    lexicon = load_lexicon(str(path))
    assert lexicon.name == "small"
    assert sorted(lexicon) == ["HORN", "QI", "ZA"]
    assert lexicon.digest == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_missing_lexicon_file(tmp_path):
    with pytest.raises(FormatError, match="no lexicon named .* and no such file"):
        load_lexicon(tmp_path / "nothing.txt")


def test_membership_by_tiles():
    lexicon = WordList(["qat", "HORN"], name="tiny")
    qat = EN.parse_word("QAT")
    assert qat in lexicon
    assert lexicon.contains_tiles(qat)
    # designated blanks count as the letters they stand for
    assert EN.parse_word("QaT") in lexicon
    assert EN.parse_word("hORn") in lexicon
    assert lexicon.contains_tiles(EN.parse_word("qat"))
    assert list(EN.parse_word("HORN")) in lexicon
    assert bytes(EN.parse_word("HORN")) in lexicon
    assert EN.parse_word("QATS") not in lexicon
    assert (BLANK_BIT,) not in lexicon
    assert 17 not in lexicon  # not a word at all
    assert "Q?T" not in lexicon and "" not in lexicon


def test_word_list_refuses_words_of_other_tiles():
    with pytest.raises(InvalidMoveError, match="'CAFÉ' is not made of english tiles"):
        WordList(["CAFÉ"])


def test_other_alphabets():
    spanish = load_alphabet("spanish")
    lexicon = WordList(["churro", "LLAMA"], alphabet=spanish)
    assert "CHURRO" in lexicon and "[CH]URRO" in lexicon and "1URRO" in lexicon
    assert spanish.parse_word("chURRO") in lexicon
    assert sorted(lexicon) == ["CHURRO", "LLAMA"]
    # CH and RR are one tile each: CHURRO is 4 tiles long
    assert len(spanish.parse_word("CHURRO")) == 4
    polish = load_alphabet("polish")
    lexicon = WordList(["żółw"], alphabet=polish)
    assert "ŻÓŁW" in lexicon and "żółw" in lexicon
    assert polish.parse_word("żÓŁW") in lexicon


def test_read_word_list_skips_what_is_not_a_word():
    words = list(read_word_list(["# c", "", "ab", "A", "  cd  "]))
    assert words == ["ab", "cd"]


def test_default_lexicon():
    lexicon = default_lexicon()
    assert lexicon is default_lexicon()  # loaded once
    assert load_lexicon() is lexicon and load_lexicon("kjxqz") is lexicon
    assert lexicon.name == "kjxqz"
    assert len(lexicon) == DEFAULT_WORDS
    for word in ("QI", "ZA", "QAT", "HORN", "FARM", "PASTE", "MOB", "BIT", "AA", "RETAINS"):
        assert word in lexicon, word
    for word in ("QX", "ZZZZ", "HORNX", "A"):
        assert word not in lexicon, word
    lengths = {len(w) for w in lexicon}
    assert (min(lengths), max(lengths)) == (2, 15)


def test_accept_all():
    assert "ZZXQ" in AcceptAll() and (1, 2, 3) in AcceptAll()
    assert AcceptAll().name == "any"


def test_control_characters_are_not_letters():
    # "\x01\x09" is not the text of any word, but the fast encoder leaves such
    # characters untranslated and then reads them as the tile codes 1 (A) and 9 (I)
    lexicon = WordList(["AI"])
    assert "\x01\x09" not in lexicon


def test_control_characters_in_a_word_list_are_refused():
    # "\x08\x01\x12" is accepted as the word HAR (tile codes 8, 1, 18)
    with pytest.raises(FormatError):
        list(read_word_list(["HORN", "\x08\x01\x12"]))


# -- the compiled-lexicon cache ----------------------------------------------


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of its own, and no word list remembered in memory."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("TILEBAG_CACHE_DIR", str(folder))
    lexicon_module._load_file.cache_clear()
    yield folder
    lexicon_module._load_file.cache_clear()


def refuse_to_build(*args, **kwargs):
    raise AssertionError("the word list was compiled again")


def test_word_list_is_compiled_once_into_the_cache(tmp_path, cache, monkeypatch):
    path = tmp_path / "small.txt"
    path.write_text("horn\nfarm\npaste\n")
    first = load_lexicon(path)
    files = list(cache.iterdir())
    assert len(files) == 1 and files[0].suffix == ".kwg" and files[0].name.startswith("small-english-")
    assert Kwg.load(files[0]) == first.kwg
    lexicon_module._load_file.cache_clear()
    monkeypatch.setattr(Kwg, "build", staticmethod(refuse_to_build))
    second = load_lexicon(path)
    assert second is not first and second.kwg == first.kwg
    assert sorted(second) == ["FARM", "HORN", "PASTE"] and "horn" in second
    assert list(cache.iterdir()) == files
    # other words under the same name: a new entry, the old one left alone
    monkeypatch.undo()
    monkeypatch.setenv("TILEBAG_CACHE_DIR", str(cache))
    path.write_text("horn\nfarm\nmob\n")
    lexicon_module._load_file.cache_clear()
    third = load_lexicon(path)
    assert sorted(third) == ["FARM", "HORN", "MOB"] and "PASTE" not in third
    assert len(list(cache.iterdir())) == 2 and files[0].exists()


def truncate_at_a_list_end(data: bytes) -> bytes:
    """The graph cut after a sibling list, so that it still ends like a KWG
    but some arc points past the new end."""
    nodes = Kwg.from_bytes(data).nodes
    for end in range(len(nodes) - 1, 1, -1):
        if nodes[end - 1] & IS_END and any(node & ARC_MASK >= end for node in nodes[:end]):
            return data[: 4 * end]
    raise AssertionError("no place to cut")


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda data: b"",
        lambda data: data[:-1],
        lambda data: data[:-4] + b"\x00\x00\x00\x00",
        truncate_at_a_list_end,
        lambda data: b"\xff" * len(data),
    ],
    ids=["empty", "odd length", "open last list", "cut after a list", "garbage"],
)
def test_corrupt_cache_file_is_rebuilt(tmp_path, cache, corrupt):
    path = tmp_path / "small.txt"
    path.write_text("horn\nhorns\nfarm\nfarms\npaste\nqi\nza\n")
    good = load_lexicon(path).kwg
    (cached,) = cache.iterdir()
    cached.write_bytes(corrupt(cached.read_bytes()))
    lexicon_module._load_file.cache_clear()
    lexicon = load_lexicon(path)
    assert sorted(lexicon) == ["FARM", "FARMS", "HORN", "HORNS", "PASTE", "QI", "ZA"]
    assert "HORNS" in lexicon and "HORNSS" not in lexicon
    assert Kwg.load(cached) == good  # and the cache is mended


def test_kwg_file_loads_without_the_cache(tmp_path, cache):
    graph = Kwg.build([EN.parse_word(w) for w in ("QI", "QIS", "ZA")])
    path = tmp_path / "mine.kwg"
    graph.save(path)
    lexicon = load_lexicon(path)
    assert isinstance(lexicon, KwgLexicon) and lexicon.kwg == graph
    assert lexicon.name == "mine"
    assert list(lexicon) == ["QI", "QIS", "ZA"] and "qis" in lexicon and "Q" not in lexicon
    assert lexicon.digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert not cache.exists()


def test_malformed_kwg_file_is_named(tmp_path, cache):
    path = tmp_path / "broken.kwg"
    path.write_bytes(b"\x00" * 6)
    with pytest.raises(FormatError) as info:
        load_lexicon(path)
    assert str(info.value) == f"{path}: a KWG is a whole number of 4-byte nodes, got 6 bytes"
