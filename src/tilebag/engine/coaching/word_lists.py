"""Coaching: word lists computed from a lexicon (rack advice is :mod:`tilebag.engine.coaching.rack_advice`).

Nothing here is a stored word list: every answer is walked out of the
lexicon's word graph (:class:`tilebag.kwg.Kwg`), so it holds for any lexicon
and any tile set. Words come back as text, capitals for letters and lower
case for blanks (the GCG convention), sorted longest first, then in tile-set
order.

>>> from tilebag.lexicon import load_lexicon
>>> lexicon = load_lexicon()
>>> short_words(lexicon, 2)[:8]
['AA', 'AB', 'AD', 'AE', 'AG', 'AH', 'AI', 'AL']
>>> anagrams(lexicon, "OPST")
['OPTS', 'POST', 'POTS', 'SPOT', 'STOP', 'TOPS']
>>> anagrams(lexicon, "QI?", build=True)[:4]
['QIs', 'aI', 'bI', 'gI']
>>> hooks(lexicon, "CARE")
Hooks(word='CARE', acceptable=True, front=('S',), back=('D', 'R', 'S', 'T', 'X'))

The graph walks keep these quick: every word from a full rack with two
blanks, sub-words included, takes tens of milliseconds.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tilebag.alphabet import BLANK, BLANK_BIT, BLANK_LABEL, Alphabet, Tile, letter_of
from tilebag.board import EMPTY, Board
from tilebag.errors import InvalidMoveError
from tilebag.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, Kwg
from tilebag.lexicon import GraphLexicon

__all__ = [
    "MAX_RACK_TILES",
    "BoardHooks",
    "Hooks",
    "anagrams",
    "bingos",
    "board_hooks",
    "format_hooks",
    "group_by_first",
    "group_by_length",
    "hooks",
    "labelled_lines",
    "parse_tiles",
    "q_without_u",
    "short_words",
    "through_bingos",
    "word_letters",
    "words_containing",
]

Label = TypeVar("Label", str, int)
"""What a group of words is labelled by: a letter or a length."""

MAX_RACK_TILES = 15
"""The most tiles the word tools take (a board's width: no word is longer)."""

# -- reading racks ---------------------------------------------------------------


def parse_tiles(rack: str | Sequence[Tile], alphabet: Alphabet) -> list[Tile]:
    """Rack tiles from text (letters in any case, ``?`` for a blank) or from
    tile codes (a designated blank counts as a blank), checked.

    >>> from tilebag.alphabet import load_alphabet
    >>> parse_tiles("ae?", load_alphabet("english"))
    [1, 5, 0]
    >>> parse_tiles("A1", load_alphabet("english"))
    Traceback (most recent call last):
    ...
    tilebag.errors.InvalidMoveError: 'A1': '1' is not a tile of the english tile set

    :raises InvalidMoveError: for a character that is not a tile, a tile code
        outside the tile set, no tiles, or more than :data:`MAX_RACK_TILES`.
    """
    if isinstance(rack, str):
        tiles = alphabet.parse_rack(rack.strip())
        shown = repr(rack)
    else:
        tiles = [BLANK if t & BLANK_BIT else t for t in rack]
        bad = [t for t in tiles if not 0 <= t < alphabet.size]
        if bad:
            raise InvalidMoveError(
                f"tile code {bad[0]} is not in the {alphabet.name} tile set (0..{alphabet.size - 1})"
            )
        shown = repr(alphabet.format_rack(tiles))
    if not tiles:
        raise InvalidMoveError("no tiles given: write a rack such as AEINRS? (? is a blank)")
    if len(tiles) > MAX_RACK_TILES:
        raise InvalidMoveError(f"{shown} has {len(tiles)} tiles; the word tools take at most {MAX_RACK_TILES}")
    return tiles


def word_letters(word: str | Sequence[Tile], alphabet: Alphabet) -> tuple[Tile, ...]:
    """A word's letters, from text in any case (a word, not a rack: no
    ``?``) or from tiles (a designated blank counts as its letter).

    >>> from tilebag.alphabet import load_alphabet
    >>> english = load_alphabet("english")
    >>> word_letters("Qi", english), word_letters((17, 0x89), english)
    ((17, 9), (17, 9))
    >>> word_letters("q?", english)
    Traceback (most recent call last):
    ...
    tilebag.errors.InvalidMoveError: 'q?': '?' is a blank, not a letter; write the word in letters

    :raises InvalidMoveError: naming the first character that is not a
        letter of the tile set, or for no letters at all.
    """
    if isinstance(word, str):
        text = word.strip()
        if not text:
            raise InvalidMoveError("no word given")
        if BLANK_LABEL in text:
            raise InvalidMoveError(f"{word!r}: {BLANK_LABEL!r} is a blank, not a letter; write the word in letters")
        return tuple(alphabet.parse_rack(text))
    tiles = tuple(letter_of(t) for t in word)
    bad = [t for t in tiles if not 0 < t < alphabet.size]
    if bad or not tiles:
        raise InvalidMoveError(f"not a word of {alphabet.name} letters: {list(word)!r}")
    return tiles


def _sort_key(word: Sequence[Tile]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Longest first, then by letters in tile-set order (a blank sorts as
    its letter), then natural tiles before blanks."""
    return (-len(word), tuple(t & ~BLANK_BIT for t in word), tuple(word))


def _sorted_text(words: Iterable[Sequence[Tile]], alphabet: Alphabet) -> list[str]:
    fmt = alphabet.format_word
    return [fmt(word) for word in sorted(words, key=_sort_key)]


# -- word lists ------------------------------------------------------------------


def short_words(lexicon: GraphLexicon, length: int) -> list[str]:
    """Every word of ``length`` tiles, in tile-set order.

    The walk stops at that depth of the graph, so even the three-letter
    words take a few milliseconds.

    >>> from tilebag.lexicon import load_lexicon
    >>> words = short_words(load_lexicon(), 2)
    >>> len(words), words[-3:]
    (107, ['YE', 'YO', 'ZA'])
    >>> short_words(load_lexicon(), 1)
    []

    :raises ValueError: for a length below 1.
    """
    if length < 1:
        raise ValueError(f"a word has at least 1 tile, got length {length}")
    kwg = lexicon.kwg
    nodes = kwg.nodes
    found: list[tuple[Tile, ...]] = []
    word: list[Tile] = []

    def visit(index: int) -> None:
        while True:
            node = nodes[index]
            word.append(node >> TILE_SHIFT)
            if len(word) == length:
                if node & ACCEPTS:
                    found.append(tuple(word))
            elif node & ARC_MASK:
                visit(node & ARC_MASK)
            word.pop()
            if node & IS_END:
                return
            index += 1

    if kwg.dawg_root:
        visit(kwg.dawg_root)
    return [lexicon.alphabet.format_word(w) for w in found]


def words_containing(lexicon: GraphLexicon, letter: str | Tile, *, without: str | Iterable[Tile] = ()) -> list[str]:
    """Every word holding ``letter`` and none of the letters ``without``,
    longest first.

    With a GADDAG in the graph (every lexicon tilebag compiles has one) the
    walk starts at the letter and reads outwards, so it only visits words
    that hold it; a DAWG-only graph is read whole.

    >>> from tilebag.lexicon import load_lexicon
    >>> lexicon = load_lexicon()
    >>> words_containing(lexicon, "J", without="AEIOU")
    []
    >>> words_containing(lexicon, "Z", without="AEIOU")
    ['SYZYGY', 'ZZZ']

    :raises InvalidMoveError: when a letter is not one of the tile set.
    """
    alphabet = lexicon.alphabet
    target = _letter(letter, alphabet)
    excluded = set(_letters(without, alphabet))
    if target in excluded:
        return []
    kwg = lexicon.kwg
    found = _containing_gaddag(kwg, target, excluded) if kwg.has_gaddag else _containing_dawg(kwg, target, excluded)
    return _sorted_text(found, alphabet)


def _letter(letter: str | Tile, alphabet: Alphabet) -> Tile:
    if isinstance(letter, str):
        tiles = alphabet.parse_word(letter.strip().upper())
        if len(tiles) != 1:
            raise InvalidMoveError(f"{letter!r} is not one letter of the {alphabet.name} tile set")
        return letter_of(tiles[0])
    if not 0 < letter_of(letter) < alphabet.size:
        raise InvalidMoveError(f"tile code {letter} is not a letter of the {alphabet.name} tile set")
    return letter_of(letter)


def _letters(letters: str | Iterable[Tile], alphabet: Alphabet) -> list[Tile]:
    if isinstance(letters, str):
        return [letter_of(t) for t in alphabet.parse_word(letters.strip().upper())] if letters.strip() else []
    return [_letter(t, alphabet) for t in letters]


def _containing_dawg(kwg: Kwg, target: Tile, excluded: set[Tile]) -> list[tuple[Tile, ...]]:
    """Words holding ``target`` and nothing in ``excluded``: the whole DAWG,
    pruned at excluded letters."""
    nodes = kwg.nodes
    found: list[tuple[Tile, ...]] = []
    word: list[Tile] = []

    def visit(index: int, seen: int) -> None:
        while True:
            node = nodes[index]
            tile = node >> TILE_SHIFT
            if tile not in excluded:
                word.append(tile)
                has = seen + (tile == target)
                if has and node & ACCEPTS:
                    found.append(tuple(word))
                if node & ARC_MASK:
                    visit(node & ARC_MASK, has)
                word.pop()
            if node & IS_END:
                return
            index += 1

    if kwg.dawg_root:
        visit(kwg.dawg_root, 0)
    return found


def _containing_gaddag(kwg: Kwg, target: Tile, excluded: set[Tile]) -> list[tuple[Tile, ...]]:
    """Words holding ``target`` and nothing in ``excluded``, from the GADDAG.

    Under the root's ``target`` arc the GADDAG spells, for each word with
    that letter, the letters before it (backwards), then the separator, then
    the letters after it. Refusing ``target`` among the letters before finds
    each word once, at its first ``target``.
    """
    nodes = kwg.nodes
    start = kwg.seek(kwg.gaddag_root, target)
    if start < 0:
        return []
    found: list[tuple[Tile, ...]] = []
    before: list[Tile] = []  # backwards
    after: list[Tile] = []

    def forwards(index: int) -> None:
        while True:
            node = nodes[index]
            tile = node >> TILE_SHIFT
            if tile not in excluded:
                after.append(tile)
                if node & ACCEPTS:
                    found.append((*reversed(before), target, *after))
                if node & ARC_MASK:
                    forwards(node & ARC_MASK)
                after.pop()
            if node & IS_END:
                return
            index += 1

    def backwards(index: int) -> None:
        while True:
            node = nodes[index]
            tile = node >> TILE_SHIFT
            arc = node & ARC_MASK
            if tile == 0:
                if arc:
                    forwards(arc)
            elif tile != target and tile not in excluded:
                before.append(tile)
                if node & ACCEPTS:
                    found.append((*reversed(before), target))
                if arc:
                    backwards(arc)
                before.pop()
            if node & IS_END:
                return
            index += 1

    if nodes[start] & ACCEPTS:
        found.append((target,))
    if nodes[start] & ARC_MASK:
        backwards(nodes[start] & ARC_MASK)
    return found


def q_without_u(lexicon: GraphLexicon) -> list[str]:
    """Words with a Q and no U, longest first (empty for a tile set without
    both letters).

    >>> from tilebag.lexicon import load_lexicon
    >>> [word for word in q_without_u(load_lexicon()) if len(word) <= 3]
    ['QAT', 'QIS', 'QI']
    """
    labels = lexicon.alphabet.labels
    if "Q" not in labels or "U" not in labels:
        return []
    return words_containing(lexicon, "Q", without="U")


# -- anagrams ------------------------------------------------------------------


def anagrams(
    lexicon: GraphLexicon, rack: str | Sequence[Tile], *, build: bool = False, min_length: int = 2
) -> list[str]:
    """Words made of exactly the rack's tiles, or with ``build=True`` of any
    of them (at least ``min_length`` tiles), longest first.

    ``?`` is a blank; a blank in a word is in lower case. A blank stands in
    only for letters the rack lacks, so each word comes once, its blank on
    the latest letters that need one.

    >>> from tilebag.lexicon import load_lexicon
    >>> lexicon = load_lexicon()
    >>> anagrams(lexicon, "AEINRST")
    ['ANESTRI', 'ANTSIER', 'NASTIER', 'RATINES', 'RETAINS', 'RETINAS', 'RETSINA', 'STAINER', 'STEARIN']
    >>> anagrams(lexicon, "QAT?", build=True, min_length=4)
    ['QATs']

    :raises InvalidMoveError: for a rack that is not 1 to
        :data:`MAX_RACK_TILES` tiles of the lexicon's tile set.
    """
    alphabet = lexicon.alphabet
    tiles = parse_tiles(rack, alphabet)
    counts = [0] * alphabet.size
    for t in tiles:
        counts[t] += 1
    found = _anagram_walk(lexicon.kwg, counts, len(tiles), exact=not build, min_length=max(1, min_length))
    return _sorted_text(found, alphabet)


def _anagram_walk(kwg: Kwg, counts: list[int], size: int, *, exact: bool, min_length: int) -> list[tuple[Tile, ...]]:
    """Walk the DAWG spending rack tiles (``counts[0]``: blanks), a natural
    tile before a blank. Exact mode keeps words of all ``size`` tiles."""
    nodes = kwg.nodes
    found: list[tuple[Tile, ...]] = []
    word: list[Tile] = []
    shortest = size if exact else min_length

    def visit(index: int, left: int) -> None:
        while True:
            node = nodes[index]
            tile = node >> TILE_SHIFT
            if counts[tile]:
                spent = tile
            elif counts[BLANK]:
                spent = BLANK
            else:
                spent = -1
            if spent >= 0:
                counts[spent] -= 1
                word.append(tile if spent else tile | BLANK_BIT)
                if node & ACCEPTS and len(word) >= shortest:
                    found.append(tuple(word))
                if left > 1 and node & ARC_MASK:
                    visit(node & ARC_MASK, left - 1)
                word.pop()
                counts[spent] += 1
            if node & IS_END:
                return
            index += 1

    if kwg.dawg_root and size:
        visit(kwg.dawg_root, size)
    return found


def bingos(lexicon: GraphLexicon, rack: str | Sequence[Tile]) -> list[str]:
    """The words that use every tile of a rack (for a full rack, its bingos).

    >>> from tilebag.lexicon import load_lexicon
    >>> bingos(load_lexicon(), "EORSTU?")[:4]
    ['cOUTERS', 'cROUTES', 'dETOURS', 'dOUREST']

    :raises InvalidMoveError: as :func:`anagrams` does.
    """
    return anagrams(lexicon, rack)


def through_bingos(
    lexicon: GraphLexicon, rack: str | Sequence[Tile], letters: str | Iterable[Tile] | None = None
) -> dict[str, list[str]]:
    """For each letter (by default every letter of the tile set), the words
    using every rack tile plus that letter, as when playing through a tile on
    the board. Letters that make no word are left out.

    >>> from tilebag.lexicon import load_lexicon
    >>> through_bingos(load_lexicon(), "AEINRST", "BX")
    {'B': ['BANISTER', 'BARNIEST']}

    :raises InvalidMoveError: as :func:`anagrams` does, and for a letter that
        is not one of the tile set.
    """
    alphabet = lexicon.alphabet
    tiles = parse_tiles(rack, alphabet)
    if len(tiles) >= MAX_RACK_TILES:
        raise InvalidMoveError(
            f"{alphabet.format_rack(tiles)!r} has {len(tiles)} tiles; "
            f"with one more it passes the {MAX_RACK_TILES} the word tools take"
        )
    chosen = list(alphabet.letters) if letters is None else _letters(letters, alphabet)
    result: dict[str, list[str]] = {}
    for letter in dict.fromkeys(chosen):
        words = anagrams(lexicon, [*tiles, letter])
        if words:
            result[alphabet.label(letter)] = words
    return result


# -- hooks ---------------------------------------------------------------------


@dataclass(frozen=True)
class Hooks:
    """The letters that hook a word: ``front`` ones make a word when put
    before it, ``back`` ones after it (labels in tile-set order).

    >>> card = Hooks(word="QAT", acceptable=True, front=(), back=("S",))
    >>> card.front_words, card.back_words
    ((), ('QATS',))
    >>> str(card)
    'QAT S'
    """

    word: str
    """The word, in capitals."""
    acceptable: bool
    """Whether the word itself is in the lexicon (hooks are found either way)."""
    front: tuple[str, ...]
    """Letters that make a word when put in front."""
    back: tuple[str, ...]
    """Letters that make a word when put at the end."""

    @property
    def front_words(self) -> tuple[str, ...]:
        """The words the front hooks make."""
        return tuple(letter + self.word for letter in self.front)

    @property
    def back_words(self) -> tuple[str, ...]:
        """The words the back hooks make."""
        return tuple(self.word + letter for letter in self.back)

    def __bool__(self) -> bool:
        """True when there is a hook at either end."""
        return bool(self.front or self.back)

    def __str__(self) -> str:
        """The hook-list form: front letters, the word, back letters."""
        return " ".join(part for part in ("".join(self.front), self.word, "".join(self.back)) if part)


def hooks(lexicon: GraphLexicon, word: str | Sequence[Tile]) -> Hooks:
    """The front and back hooks of a word (text in any case, or tiles).

    >>> from tilebag.lexicon import load_lexicon
    >>> lexicon = load_lexicon()
    >>> hooks(lexicon, "qi")
    Hooks(word='QI', acceptable=True, front=(), back=('S',))
    >>> hooks(lexicon, "xz")
    Hooks(word='XZ', acceptable=False, front=(), back=())

    :raises InvalidMoveError: when the word is not made of the tile set's letters.
    """
    alphabet = lexicon.alphabet
    tiles = word_letters(word, alphabet)
    kwg = lexicon.kwg
    nodes = kwg.nodes
    front = tuple(alphabet.label(x) for x in alphabet.letters if kwg.contains((x, *tiles)))
    back: list[str] = []
    end = kwg.follow(tiles)
    if end >= 0:
        for index in kwg.arcs(nodes[end] & ARC_MASK):
            if nodes[index] & ACCEPTS:
                back.append(alphabet.label(nodes[index] >> TILE_SHIFT))
    acceptable = end >= 0 and bool(nodes[end] & ACCEPTS)
    return Hooks(alphabet.format_word(tiles), acceptable, front, tuple(back))


@dataclass(frozen=True)
class BoardHooks:
    """A word on the board and its hooks.

    A hook can be played only where its square is free: on the board, and
    not followed by another tile that would join the word (the
    ``front_open``/``back_open`` flags); :attr:`playable_front` and
    :attr:`playable_back` take that into account.
    """

    position: str
    """Where the word starts and which way it reads, as in GCG (``8F``, ``H6``)."""
    word: str
    """The word as it stands, lower case for blanks."""
    hooks: Hooks
    """The word's hooks in the lexicon."""
    front_open: bool
    """Whether a tile can go just before the word without joining another."""
    back_open: bool
    """Whether a tile can go just after the word without joining another."""

    @property
    def playable_front(self) -> tuple[str, ...]:
        """Front hooks that fit on the board."""
        return self.hooks.front if self.front_open else ()

    @property
    def playable_back(self) -> tuple[str, ...]:
        """Back hooks that fit on the board."""
        return self.hooks.back if self.back_open else ()


def board_hooks(board: Board, lexicon: GraphLexicon) -> list[BoardHooks]:
    """Every word on a board (across words first, in reading order, then
    down words, column by column) with its hooks.

    >>> from tilebag.lexicon import load_lexicon
    >>> from tilebag.move import Move
    >>> board = Board()
    >>> board.place(board.check_placement(Move.from_gcg("8G CARE")))
    >>> [(h.position, h.word, h.playable_front, h.playable_back) for h in board_hooks(board, load_lexicon())]
    [('8G', 'CARE', ('S',), ('D', 'R', 'S', 'T', 'X'))]
    """
    return [
        BoardHooks(
            position=board.layout.position_name(row, col, down),
            word=board.alphabet.format_word(tiles),
            hooks=hooks(lexicon, tiles),
            front_open=front_open,
            back_open=back_open,
        )
        for down in (False, True)
        for row, col, tiles, front_open, back_open in _board_words(board, down)
    ]


def _board_words(board: Board, down: bool) -> Iterator[tuple[int, int, tuple[Tile, ...], bool, bool]]:
    """Each word (a run of two or more tiles) reading one way, in reading
    order for across words and column by column for down words: its first
    square, its tiles, and whether the squares just before and just after it
    are free for a hook (on the board, and not touching a further tile)."""
    layout = board.layout
    at = board.at  # EMPTY off the board
    dr, dc = (1, 0) if down else (0, 1)
    rows, cols = range(layout.rows), range(layout.cols)
    squares = ((r, c) for c in cols for r in rows) if down else ((r, c) for r in rows for c in cols)
    for row, col in squares:
        if at(row, col) == EMPTY or at(row - dr, col - dc) != EMPTY:
            continue  # not the first tile of a run
        tiles: list[Tile] = []
        r, c = row, col
        while at(r, c) != EMPTY:
            tiles.append(at(r, c))
            r, c = r + dr, c + dc
        if len(tiles) < 2:
            continue
        front_open = layout.on_board(row - dr, col - dc) and at(row - 2 * dr, col - 2 * dc) == EMPTY
        back_open = layout.on_board(r, c) and at(r + dr, c + dc) == EMPTY
        yield row, col, tuple(tiles), front_open, back_open


def format_hooks(entries: Sequence[Hooks], *, words: bool = False) -> list[str]:
    """Hooks as an aligned table: front letters, the word, back letters
    (``-`` for none, ``*`` after a word that is not in the lexicon), and,
    with ``words=True``, the hooked words.

    >>> for line in format_hooks([Hooks("CARE", True, ("S",), ("D", "R", "S")), Hooks("QX", False, (), ())]):
    ...     print(line)
    front  word  back
        S  CARE  DRS
        -  QX*   -
    """
    fronts = ["".join(h.front) or "-" for h in entries]
    names = [h.word + ("" if h.acceptable else "*") for h in entries]
    backs = ["".join(h.back) or "-" for h in entries]
    fw = max([len("front"), *map(len, fronts)])
    ww = max([len("word"), *map(len, names)])
    lines = [f"{'front':>{fw}}  {'word':<{ww}}  back".rstrip()]
    bw = max([len("back"), *map(len, backs)])
    for h, front, name, back in zip(entries, fronts, names, backs, strict=True):
        line = f"{front:>{fw}}  {name:<{ww}}  {back:<{bw}}"
        if words and h:
            line += "  " + " ".join((*h.front_words, *h.back_words))
        lines.append(line.rstrip())
    return lines


# -- presenting word lists -------------------------------------------------------


def group_by_first(words: Iterable[str], alphabet: Alphabet) -> dict[str, list[str]]:
    """Words grouped by their first tile's label (upper case), groups in
    tile-set order, words in the order given.

    >>> from tilebag.alphabet import load_alphabet
    >>> group_by_first(["ZA", "AB", "AA", "eH"], load_alphabet("english"))
    {'A': ['AB', 'AA'], 'E': ['eH'], 'Z': ['ZA']}
    """
    groups: dict[Tile, list[str]] = {}
    for word in words:
        first = letter_of(alphabet.parse_word(word)[0])
        groups.setdefault(first, []).append(word)
    return {alphabet.label(tile): groups[tile] for tile in sorted(groups)}


def group_by_length(words: Iterable[str], alphabet: Alphabet) -> dict[int, list[str]]:
    """Words grouped by length in tiles, longest first, words in the order
    given.

    >>> from tilebag.alphabet import load_alphabet
    >>> group_by_length(["QAT", "QI", "QIS"], load_alphabet("english"))
    {3: ['QAT', 'QIS'], 2: ['QI']}
    """
    groups: dict[int, list[str]] = {}
    for word in words:
        groups.setdefault(len(alphabet.parse_word(word)), []).append(word)
    return {length: groups[length] for length in sorted(groups, reverse=True)}


def labelled_lines(groups: Mapping[Label, Sequence[str]], *, width: int = 80) -> list[str]:
    """Groups of words as text lines ``LABEL: WORD WORD ...``, wrapped to
    ``width`` with the continuation lines indented under the words.

    >>> for line in labelled_lines({"A": ["AA", "AB", "AD", "AE"], "B": ["BA"]}, width=12):
    ...     print(line)
    A: AA AB AD
       AE
    B: BA
    """
    labels = {key: f"{key}: " for key in groups}
    indent = max(map(len, labels.values()), default=0)
    lines: list[str] = []
    for key, words in groups.items():
        text = " ".join(words)
        wrapped = textwrap.wrap(
            text,
            width=max(width, indent + 10),
            initial_indent=labels[key].ljust(indent),
            subsequent_indent=" " * indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
        lines.extend(wrapped or [labels[key].rstrip()])
    return lines
