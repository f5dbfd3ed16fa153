"""The word tools on the command line: ``tilebag word``, ``anagram``,
``hooks`` and ``words``, run through :func:`tilebag.ui.cli.main`.

Exit status: 0 found, 1 nothing found (or a word not acceptable), 2 bad input.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tilebag.engine.coaching import word_lists
from tilebag.lexicon import load_lexicon
from tilebag.ui.cli import main

LEXICON = load_lexicon()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A tiny word list, compiled into a private cache."""
    monkeypatch.setenv("TILEBAG_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "tiny.txt"
    path.write_text("care\ncares\nscare\nacre\nrace\nqi\nqis\n", encoding="utf-8")
    return str(path)


# -- tilebag word ----------------------------------------------------------------


def test_word_judges_each_word(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "word", "QI", "za") == (0, "QI: acceptable in kjxqz\nZA: acceptable in kjxqz\n", "")
    status, out, _ = run(capsys, "word", "qi", "QX")
    assert (status, out) == (1, "QI: acceptable in kjxqz\nQX: not acceptable in kjxqz\n")


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("h0rn", "tilebag: 'h0rn': '0' is not a tile of the english tile set\n"),
        ("CA?E", "tilebag: 'CA?E': '?' is a blank, not a letter; write the word in letters\n"),
        ("don't", 'tilebag: "don\'t": "\'" is not a tile of the english tile set\n'),
    ],
)
def test_word_refuses_characters_that_are_not_letters(
    capsys: pytest.CaptureFixture[str], word: str, message: str
) -> None:
    assert run(capsys, "word", "QI", word) == (2, "", message)  # nothing judged before the bad word is found


def test_word_json_and_lexicon(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    status, out, _ = run(capsys, "word", "--json", "qi", "QX")
    assert (status, json.loads(out)) == (1, [{"word": "QI", "acceptable": True}, {"word": "QX", "acceptable": False}])
    assert run(capsys, "word", "--lexicon", tiny, "scare") == (0, "SCARE: acceptable in tiny\n", "")
    assert run(capsys, "word", "--lexicon", tiny, "za")[0] == 1


# -- tilebag anagram ---------------------------------------------------------------


def test_anagram_prints_words_by_length(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "anagram", "AEINRST")
    assert (status, err) == (0, "")
    assert out == "7: " + " ".join(word_lists.anagrams(LEXICON, "AEINRST")) + "\n"
    status, out, _ = run(capsys, "anagram", "qi?", "--build")
    lines = out.splitlines()
    assert status == 0 and lines[0] == "3: QIs" and lines[1].startswith("2: aI bI ")
    assert " ".join(line[3:] for line in lines).split() == word_lists.anagrams(LEXICON, "QI?", build=True)


def test_anagram_min_length_plus_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "anagram", "EO??", "--build", "--min-length", "4", "--json")
    data = json.loads(out)
    assert status == 0 and data["rack"] == "EO??" and data["lexicon"] == "kjxqz" and data["plus"] == {}
    assert data["words"] == word_lists.anagrams(LEXICON, "EO??", build=True, min_length=4)
    assert min(map(len, data["words"])) == 4
    status, out, _ = run(capsys, "anagram", "AEINRST", "--plus")
    plus = word_lists.through_bingos(LEXICON, "AEINRST")
    assert status == 0 and f"+B: {' '.join(plus['B'])}" in out.splitlines()
    assert len(out.splitlines()) == 1 + len(plus)


def test_anagram_exits_1_when_no_word(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    assert run(capsys, "anagram", "QQQ") == (1, "no words from QQQ in kjxqz\n", "")
    status, out, _ = run(capsys, "anagram", "QQQ", "--json")
    assert status == 1 and json.loads(out)["words"] == []
    assert run(capsys, "anagram", "--lexicon", tiny, "ecar") == (0, "4: ACRE CARE RACE\n", "")
    assert run(capsys, "anagram", "--lexicon", tiny, "eca?", "--build", "--min-length", "5")[0] == 1


@pytest.mark.parametrize(
    ("rack", "message"),
    [
        ("AE1", "'AE1': '1' is not a tile of the english tile set"),
        ("ABCDEFGHIJKLMNOP", "'ABCDEFGHIJKLMNOP' has 16 tiles; the word tools take at most 15"),
        ("", "no tiles given"),
    ],
)
def test_anagram_bad_racks_exit_2(capsys: pytest.CaptureFixture[str], rack: str, message: str) -> None:
    status, out, err = run(capsys, "anagram", rack)
    assert (status, out) == (2, "") and message in err


def test_anagram_unknown_lexicon_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "anagram", "AB", "--lexicon", "no-such-lexicon")
    assert status == 2 and "no lexicon named 'no-such-lexicon'" in err


# -- tilebag hooks -----------------------------------------------------------------


def test_hooks_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "hooks", "care", "QI", "XZ")
    assert status == 0
    assert out.splitlines() == word_lists.format_hooks([word_lists.hooks(LEXICON, w) for w in ("CARE", "QI", "XZ")])
    assert out.splitlines()[:3] == ["front  word  back", "    S  CARE  DRSTX", "    -  QI    S"]
    status, out, _ = run(capsys, "hooks", "--words", "qat")
    assert out.splitlines()[1] == "    -  QAT   S     QATS"


def test_hooks_json_and_exit_status(capsys: pytest.CaptureFixture[str], tiny: str) -> None:
    status, out, _ = run(capsys, "hooks", "--json", "CARE", "xz")
    assert status == 0
    assert json.loads(out) == [
        {
            "word": "CARE",
            "acceptable": True,
            "front": ["S"],
            "back": ["D", "R", "S", "T", "X"],
            "front_words": ["SCARE"],
            "back_words": ["CARED", "CARER", "CARES", "CARET", "CAREX"],
        },
        {"word": "XZ", "acceptable": False, "front": [], "back": [], "front_words": [], "back_words": []},
    ]
    assert run(capsys, "hooks", "XZ") == (1, "front  word  back\n    -  XZ*   -\n", "")
    assert run(capsys, "hooks", "--lexicon", tiny, "care") == (0, "front  word  back\n    S  CARE  S\n", "")
    status, out, err = run(capsys, "hooks", "CARE", "C4RE")
    assert (status, out, err) == (2, "", "tilebag: 'C4RE': '4' is not a tile of the english tile set\n")


# -- tilebag words -----------------------------------------------------------------


def test_words_of_a_length_grouped_by_first_letter(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "words", "--length", "2")
    lines = out.splitlines()
    assert status == 0
    assert [word for line in lines for word in line[3:].split()] == word_lists.short_words(LEXICON, 2)
    assert lines[0].startswith("A: AA AB ") and lines[-1] == "Z: ZA"
    status, out, _ = run(capsys, "words", "--length", "3", "--json")
    assert (status, json.loads(out)) == (0, word_lists.short_words(LEXICON, 3))


def test_words_q_without_u_and_containing(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "words", "--q-without-u", "--json")
    assert (status, json.loads(out)) == (0, word_lists.q_without_u(LEXICON))
    status, out, _ = run(capsys, "words", "--q-without-u")
    assert status == 0 and out.splitlines()[-2:] == ["3: QAT QIS", "2: QI"]
    assert run(capsys, "words", "--q-without-u", "--length", "3") == (0, "Q: QAT QIS\n", "")
    assert run(capsys, "words", "--containing", "z", "--without", "aeiou") == (0, "6: SYZYGY\n3: ZZZ\n", "")
    assert run(capsys, "words", "--containing", "J", "--without", "AEIOU") == (1, "no such words in kjxqz\n", "")
    assert run(capsys, "words", "--lexicon", LEXICON.name, "--length", "1", "--json") == (1, "[]\n", "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "say which words: --length N, --q-without-u or --containing LETTER"),
        (("--length", "0"), "--length must be 1 or more, got 0"),
        (("--length", "2", "--without", "A"), "--without goes with --containing LETTER"),
        (("--containing", "1"), "'1' is not a tile of the english tile set"),
        (("--containing", "QU"), "'QU' is not one letter of the english tile set"),
    ],
)
def test_words_bad_options_exit_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str) -> None:
    status, out, err = run(capsys, "words", *args)
    assert (status, out) == (2, "") and message in err


def test_words_options_that_conflict_are_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["words", "--q-without-u", "--containing", "Z"])
    assert caught.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
