"""Rack advice: what a rack or a leave is worth, its balance of vowels and
consonants, what the unseen tiles promise, and what to keep, in words a
player reads at the board.

>>> from tilebag.lexicon import load_lexicon
>>> lexicon = load_lexicon()
>>> rack_advice(lexicon.alphabet.parse_rack("EIIO"), lexicon.alphabet).notes[1]
'Vowel-heavy: 4 vowels, no consonants; about 2 vowels to 2 consonants draws best.'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tilebag.alphabet import BLANK, BLANK_BIT, Alphabet, Tile, letter_of
from tilebag.engine.coaching.word_lists import q_without_u
from tilebag.engine.equity.leaves import HeuristicLeaves, LeaveValues
from tilebag.lexicon import GraphLexicon

IDEAL_VOWEL_SHARE = 0.4
"""The share of vowels among a rack's letters that draws best: about 2
vowels to 3 consonants, 3 vowels in a full rack of 7 (as the heuristic leave
values also assume)."""

BALANCE_SLACK = 1.0
"""How many vowels away from ``IDEAL_VOWEL_SHARE * letters`` a leave may be
before it counts as vowel- or consonant-heavy: 4 vowels (or none) in 5
letters is, 3 is not; 3 letters with no vowel or no consonant is."""

UNSEEN_VOWEL_RICH = 0.5
"""A share of vowels among the unseen letters from which the draw is
expected to bring too many vowels (a full English bag holds 43%)."""

UNSEEN_CONSONANT_RICH = 0.3
"""A share of vowels among the unseen letters below which the draw is
expected to bring too few."""

STRONG_LEAVE = 10.0
"""A leave worth this many points or more is called strong (``ERS`` and
``?`` are; a lone ``S`` is not)."""

WEAK_LEAVE = -5.0
"""A leave worth this many points or fewer is called weak (``Q`` alone,
``VV``, ``IIU``)."""

PRIZED_TILE_VALUE = 6.0
"""A single tile worth this much in a leave (the blank and, in English,
the S) is one to play off only for that many extra points."""

HEAVY_TILE_SCORE = 4
"""A consonant scoring this many points or more is a heavy one (in English
F H K V W Y and J Q X Z)."""

MAX_HEAVY_TILES = 1
"""More heavy consonants than this in a leave seldom fit one word together."""

Q_HINT_LENGTH = 3
"""With a lexicon, a Q without a U is shown the Q words without U of up to
this many letters (the ones that fit a crowded board)."""


@dataclass(frozen=True)
class RackAdvice:
    """Advice on a leave (the tiles kept after a play or exchange)."""

    leave: str
    """The leave, letters in tile-set order and blanks last (``EIRS?``)."""
    value: float
    """What the leave is worth, in points, by the leave values used."""
    vowels: int
    consonants: int
    blanks: int
    notes: tuple[str, ...]
    """Short sentences for the player, the value first."""

    def __str__(self) -> str:
        return f"{self.leave or '(nothing kept)'}: " + " ".join(self.notes)


def rack_advice(
    leave: Sequence[Tile],
    alphabet: Alphabet,
    *,
    unseen: Sequence[Tile] | None = None,
    leaves: LeaveValues | None = None,
    lexicon: GraphLexicon | None = None,
) -> RackAdvice:
    """Advice on keeping ``leave`` (rack tiles, ``0`` for a blank), from its
    tile counts and its value.

    ``unseen`` (the tiles in the bag and on the other racks) adds what the
    draw is likely to bring; ``leaves`` are the values to judge by (the
    heuristic ones by default); ``lexicon`` lets a Q without a U name the
    short words that need no U. The thresholds are the module's constants.

    >>> from tilebag.alphabet import load_alphabet
    >>> english = load_alphabet("english")
    >>> advice = rack_advice(english.parse_rack("ERS?"), english)
    >>> advice.leave, round(advice.value, 1), advice.vowels, advice.consonants, advice.blanks
    ('ERS?', 36.4, 1, 2, 1)
    >>> for note in advice.notes:
    ...     print(note)
    Leave value +36.4: a strong leave.
    Keeping the blank (worth about 25 points in a leave): play it only for about that much more than the best play without it.
    Keeping the S (worth about 8 points in a leave): play it only for about that much more than the best play without it.
    >>> print(*rack_advice(english.parse_rack("QVW"), english).notes, sep="\\n")
    Leave value -19.7: a weak leave; playing more tiles off, or an exchange, may do better.
    Consonant-heavy: no vowels, 3 consonants; about 1 vowel to 2 consonants draws best.
    Q without U: it fits few words.
    Heavy consonants Q, V, W: they seldom fit one word together; play some off.

    :raises ValueError: for a tile code outside the tile set.
    """
    tiles = [BLANK if t & BLANK_BIT else t for t in leave]
    bad = [t for t in tiles if not 0 <= t < alphabet.size]
    if bad:
        raise ValueError(f"tile code {bad[0]} is not in the {alphabet.name} tile set (0..{alphabet.size - 1})")
    leaves = HeuristicLeaves(alphabet) if leaves is None else leaves
    value = leaves.value(tiles)
    counts = Counter(tiles)
    blanks = counts[BLANK]
    vowels = sum(n for t, n in counts.items() if t != BLANK and t in alphabet.vowels)
    letters = len(tiles) - blanks
    consonants = letters - vowels
    text = alphabet.format_rack(tiles)
    if not tiles:
        return RackAdvice("", 0.0, 0, 0, 0, ("Nothing kept: a whole new rack comes from the bag.",))

    notes = [_value_note(value)]
    notes += _balance_notes(vowels, letters)
    if unseen is not None:
        notes += _unseen_notes(unseen, alphabet)
    duplicated = [t for t in sorted(counts) if t != BLANK and counts[t] > 1]
    if duplicated:
        listed = ", ".join(f"{alphabet.label(t)}×{counts[t]}" for t in duplicated)
        notes.append(f"Duplicated letters {listed}: repeats fit fewer words; play the extra copies off if you can.")
    notes += _q_notes(counts, alphabet, unseen, lexicon)
    for tile in sorted(counts, key=lambda t: (t != BLANK, t)):
        single = leaves.value([tile])
        if single >= PRIZED_TILE_VALUE:
            if tile != BLANK:
                name = f"the {alphabet.label(tile)}"
            else:
                name = "the blank" if counts[tile] == 1 else "both blanks" if counts[tile] == 2 else "the blanks"
            notes.append(
                f"Keeping {name} (worth about {single:.0f} points in a leave): "
                "play it only for about that much more than the best play without it."
            )
    heavy = [
        t for t in sorted(counts) if t != BLANK and t not in alphabet.vowels and alphabet.score(t) >= HEAVY_TILE_SCORE
    ]
    if sum(counts[t] for t in heavy) > MAX_HEAVY_TILES:
        listed = ", ".join(alphabet.label(t) for t in heavy for _ in range(counts[t]))
        notes.append(f"Heavy consonants {listed}: they seldom fit one word together; play some off.")
    return RackAdvice(text, value, vowels, consonants, blanks, tuple(notes))


def _value_note(value: float) -> str:
    if value >= STRONG_LEAVE:
        return f"Leave value {value:+.1f}: a strong leave."
    if value <= WEAK_LEAVE:
        return f"Leave value {value:+.1f}: a weak leave; playing more tiles off, or an exchange, may do better."
    return f"Leave value {value:+.1f}: an ordinary leave."


def _count(n: int, noun: str) -> str:
    if n == 0:
        return f"no {noun}s"
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _balance_notes(vowels: int, letters: int) -> list[str]:
    if letters < 2 or abs(vowels - IDEAL_VOWEL_SHARE * letters) <= BALANCE_SLACK:
        return []
    ideal = round(IDEAL_VOWEL_SHARE * letters)
    kind = "Vowel-heavy" if vowels > IDEAL_VOWEL_SHARE * letters else "Consonant-heavy"
    have = f"{_count(vowels, 'vowel')}, {_count(letters - vowels, 'consonant')}"
    best = f"about {_count(ideal, 'vowel')} to {_count(letters - ideal, 'consonant')} draws best"
    return [f"{kind}: {have}; {best}."]


def _unseen_notes(unseen: Sequence[Tile], alphabet: Alphabet) -> list[str]:
    letters = [letter_of(t) for t in unseen if t != BLANK and not t & BLANK_BIT]
    if not letters:
        return []
    share = sum(1 for t in letters if t in alphabet.vowels) / len(letters)
    if share >= UNSEEN_VOWEL_RICH:
        return [f"The unseen tiles are vowel-rich ({share:.0%} vowels): keep consonants rather than vowels."]
    if share <= UNSEEN_CONSONANT_RICH:
        return [f"The unseen tiles are consonant-rich ({share:.0%} vowels): keep a vowel or two."]
    return []


def _q_notes(
    counts: Counter[Tile], alphabet: Alphabet, unseen: Sequence[Tile] | None, lexicon: GraphLexicon | None
) -> list[str]:
    labels = alphabet.labels
    if "Q" not in labels or "U" not in labels:
        return []
    q, u = labels.index("Q"), labels.index("U")
    if not counts[q] or counts[u]:
        return []
    note = "Q without U: it fits few words"
    if unseen is not None:
        pool = Counter(BLANK if t & BLANK_BIT else t for t in unseen)
        note += f"; {_count(pool[u], 'U')} and {_count(pool[BLANK], 'blank')} unseen"
    if lexicon is not None and lexicon.alphabet == alphabet:
        short = [word for word in q_without_u(lexicon) if len(alphabet.parse_word(word)) <= Q_HINT_LENGTH]
        if short:
            note += f"; the short words without U: {', '.join(sorted(short, key=lambda w: (len(w), w)))}"
    return [note + "."]
