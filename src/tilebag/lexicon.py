"""Lexicons: the agreed word list that judges challenges.

The default lexicon is the word list of the ``kjxqz`` package (installed with
tilebag). Any word list file loads the same way: one word per line, any case,
UTF-8; blank lines and ``#`` comments are ignored; ``.gz`` files are read
transparently.

>>> lexicon = WordList(["horn", "farm", "Paste"], name="tiny")
>>> "HORN" in lexicon, "paste" in lexicon, "HORNS" in lexicon
(True, True, False)
>>> len(lexicon)
3
>>> default = default_lexicon()
>>> default.name, "QI" in default, "QX" in default
('kjxqz', True, False)
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.resources
import io
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from tilebag.alphabet import BLANK_BIT, Alphabet, Tile, load_alphabet
from tilebag.errors import FormatError, InvalidMoveError, quote
from tilebag.kwg import Kwg
from tilebag.layout import layout_names, load_layout
from tilebag.progress import Progress

DEFAULT_LEXICON = "kjxqz"
"""Name of the lexicon used when none is chosen."""


@runtime_checkable
class Lexicon(Protocol):
    """What the rules need of a lexicon: a name and membership tests."""

    name: str

    def __contains__(self, word: object) -> bool: ...


class AcceptAll:
    """A lexicon that accepts every word (open play, tests).

    >>> "ZZXQ" in AcceptAll()
    True
    """

    name = "any"

    def __contains__(self, word: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "AcceptAll()"


class _TileLexicon:
    """Membership tests shared by word lists and word graphs: words are given
    as text (any case) or as tile codes (designated blanks count as their
    letters)."""

    name: str
    alphabet: Alphabet

    def _has_key(self, key: bytes) -> bool:
        raise NotImplementedError

    def __contains__(self, word: object) -> bool:
        if isinstance(word, str):
            key = word_encoder(self.alphabet)(word)
            return key is not None and self._has_key(key)
        if isinstance(word, (bytes, bytearray)):
            return self._has_key(bytes(word))
        if isinstance(word, Sequence):
            try:
                return self.contains_tiles(word)
            except (TypeError, ValueError):
                return False
        return False

    def contains_tiles(self, tiles: Sequence[Tile]) -> bool:
        """Membership of a word given as tile codes."""
        return self._has_key(bytes(t & ~BLANK_BIT for t in tiles))


class WordList(_TileLexicon):
    """A lexicon held as a set of words (as tile codes), for fast membership.

    Its word graph (:attr:`kwg`, for move generation) is compiled the first
    time it is asked for.
    """

    def __init__(
        self,
        words: Iterable[str] = (),
        *,
        name: str = "custom",
        alphabet: Alphabet | None = None,
        digest: str | None = None,
    ) -> None:
        self.name = name
        self.alphabet = alphabet or load_alphabet("english")
        self.digest = digest
        """SHA-256 of the source file, when loaded from one."""
        self._words: set[bytes] = set()
        self._kwg: Kwg | None = None
        encode = word_encoder(self.alphabet)
        for word in words:
            key = encode(word)
            if key is None:
                raise InvalidMoveError(f"{word!r} is not made of {self.alphabet.name} tiles")
            self._words.add(key)

    def __repr__(self) -> str:
        return f"<WordList {self.name!r}: {len(self._words)} words>"

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        """Every word, in tile-set order."""
        fmt = self.alphabet.format_word
        for key in sorted(self._words):
            yield fmt(key)

    def _has_key(self, key: bytes) -> bool:
        return key in self._words

    @property
    def kwg(self) -> Kwg:
        """The words compiled into a word graph (DAWG and GADDAG)."""
        if self._kwg is None:
            self._kwg = Kwg.build(self._words)
        return self._kwg


class KwgLexicon(_TileLexicon):
    """A lexicon held as a compiled word graph (a ``.kwg`` file).

    >>> from tilebag.kwg import Kwg
    >>> english = load_alphabet("english")
    >>> graph = Kwg.build([english.parse_word(w) for w in ("QI", "QIS", "ZA")])
    >>> lexicon = KwgLexicon(graph, name="tiny")
    >>> "qis" in lexicon, "Q" in lexicon, len(lexicon), list(lexicon)
    (True, False, 3, ['QI', 'QIS', 'ZA'])
    """

    def __init__(self, kwg: Kwg, *, name: str, alphabet: Alphabet | None = None, digest: str | None = None) -> None:
        self.kwg = kwg
        self.name = name
        self.alphabet = alphabet or load_alphabet("english")
        self.digest = digest
        """SHA-256 of the word list it was compiled from, when known."""
        self._count: int | None = None

    def __repr__(self) -> str:
        return f"<KwgLexicon {self.name!r}: {len(self.kwg)} nodes>"

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.kwg.count_words()
        return self._count

    def __iter__(self) -> Iterator[str]:
        """Every word, in tile-set order."""
        fmt = self.alphabet.format_word
        for key in self.kwg.words():
            yield fmt(key)

    def _has_key(self, key: bytes) -> bool:
        return self.kwg.contains(key)


@functools.lru_cache(maxsize=16)
def word_encoder(alphabet: Alphabet) -> Callable[[str], bytes | None]:
    """A function turning a word's text (any case) into its key, the tile
    codes as bytes that word graphs hold, or ``None`` when the text is not
    made of the alphabet's tiles.

    >>> encode = word_encoder(load_alphabet("english"))
    >>> list(encode("qi")), encode("Q1")
    ([17, 9], None)
    """
    single = all(len(label) == 1 for label in alphabet.labels[1:]) and not alphabet.aliases
    if single:
        table = {ord(label): chr(code) for code, label in enumerate(alphabet.labels) if code}
        letters = re.compile("[" + re.escape("".join(alphabet.labels[1:])) + "]+")

        def fast(word: str) -> bytes | None:
            upper = word.upper()
            if not letters.fullmatch(upper):
                return None
            return upper.translate(table).encode("latin-1")

        return fast

    def general(word: str) -> bytes | None:
        try:
            return bytes(t & ~BLANK_BIT for t in alphabet.parse_word(word.upper()))
        except InvalidMoveError:
            return None

    return general


def max_word_length() -> int:
    """The longest word any board tilebag knows can hold (15 on the
    standard board): longer entries of a word list could never be played.

    >>> max_word_length()
    15
    """
    return max(max(layout.rows, layout.cols) for layout in map(load_layout, layout_names()))


def read_word_list(
    lines: Iterable[str],
    *,
    source: str = "<words>",
    alphabet: Alphabet | None = None,
    one_letter: list[int] | None = None,
) -> Iterator[str]:
    """The words of a word list, checked: one word per line, any case, blank
    lines and ``#`` comments skipped. One-letter words are skipped (no play
    can form them); their line numbers go to ``one_letter`` when given.

    >>> skipped: list[int] = []
    >>> list(read_word_list(["qi", "a", "# note", "ZA"], one_letter=skipped)), skipped
    (['qi', 'ZA'], [2])

    :raises FormatError: naming the line of the first entry that is not a
        word of the alphabet's tiles, or is longer than any board
        (:func:`max_word_length`).
    """
    alphabet = alphabet or load_alphabet("english")
    encode = word_encoder(alphabet)
    longest = max_word_length()
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if number == 1:
            line = line.lstrip("\ufeff")
        if not line:
            continue
        if len(line.split()) > 1:
            raise FormatError(f"expected one word per line, got {quote(line)}", line=number, source=source)
        if len(line) > 4 * longest:  # far too long to be a word: refused before it is encoded
            raise FormatError(
                f"{quote(line)} is longer than any board ({longest} squares)", line=number, source=source
            )
        key = encode(line)
        if key is None:
            bad = _first_bad_character(line, alphabet)
            raise FormatError(
                f"{quote(line)} is not a word of the {alphabet.name} tile set ({bad!r} is not a tile)",
                line=number,
                source=source,
            )
        if len(key) > longest:
            raise FormatError(
                f"{quote(line)} has {len(key)} tiles: no board is longer than {longest} squares",
                line=number,
                source=source,
            )
        if len(key) < 2:
            if one_letter is not None:
                one_letter.append(number)
            continue
        yield line


def checked_words(
    lines: Iterable[str], *, source: str, alphabet: Alphabet, one_letter: list[int] | None = None
) -> list[str]:
    """Every word of a word list (:func:`read_word_list`), which must hold one.

    :raises FormatError: as :func:`read_word_list`, or when the list holds
        no word of two letters or more.
    """
    words = list(read_word_list(lines, source=source, alphabet=alphabet, one_letter=one_letter))
    if not words:
        raise FormatError("the word list holds no words of two letters or more", source=source)
    return words


def _first_bad_character(word: str, alphabet: Alphabet) -> str:
    """The first character of a word that begins no tile label."""
    starts = {label[0] for label in alphabet.labels[1:]} | {alias[0] for alias in alphabet.aliases}
    return next((ch for ch in word.upper() if ch not in starts), word)


MAX_WORD_LIST_BYTES = 64 << 20
"""The largest word list read, compressed or not (the largest real lexicons
are about 3 MB)."""


def read_word_file(path: Path) -> tuple[list[str], str]:
    """A word list file's lines (a ``.gz`` file unzipped) and the SHA-256 of
    its text, as :func:`read_word_list` and the compiled-lexicon cache take them.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "words.txt"
    ...     _ = path.write_text("qi\\nza\\n", encoding="utf-8")
    ...     lines, digest = read_word_file(path)
    >>> lines, len(digest)
    (['qi', 'za'], 64)

    :raises FormatError: for a file larger than :data:`MAX_WORD_LIST_BYTES`
        (after decompression), a broken ``.gz`` or text that is not UTF-8.
    :raises OSError: when it cannot be read.
    """
    with path.open("rb") as handle:
        data = handle.read(MAX_WORD_LIST_BYTES + 1)
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unzipped:
                data = unzipped.read(MAX_WORD_LIST_BYTES + 1)
        except (OSError, EOFError, zlib.error) as err:
            raise FormatError(f"not a readable .gz file: {err}", source=str(path)) from None
    if len(data) > MAX_WORD_LIST_BYTES:
        raise FormatError(f"larger than {MAX_WORD_LIST_BYTES >> 20} MB: not a word list", source=str(path))
    digest = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise FormatError(f"not UTF-8 text (byte {data[err.start]:#04x})", line=line, source=str(path)) from None
    return text.splitlines(), digest


KWG_CACHE_VERSION = 1
"""Bumped whenever the compiled files this version writes would differ."""

GraphLexicon = WordList | KwgLexicon
"""A lexicon with a word graph, as move generation needs."""


def cache_dir() -> Path:
    """Where compiled lexicons are kept: ``$TILEBAG_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/tilebag``, else ``~/.cache/tilebag``."""
    if os.environ.get("TILEBAG_CACHE_DIR"):
        return Path(os.environ["TILEBAG_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tilebag"


def compile_words(words: Iterable[str], alphabet: Alphabet, *, label: str = "compiling lexicon") -> Kwg:
    """Compile words (text) into a word graph, with a progress bar on a terminal."""
    encode = word_encoder(alphabet)
    keys = []
    for word in words:
        key = encode(word)
        if key is None:
            raise InvalidMoveError(f"{word!r} is not made of {alphabet.name} tiles")
        keys.append(key)
    with Progress(0, label) as bar:

        def report(done: int, total: int) -> None:
            bar.total = total
            bar.update(done)

        return Kwg.build(keys, progress=report)


def _cached_kwg(name: str, digest: str, alphabet: Alphabet, words: Callable[[], Iterable[str]]) -> Kwg:
    """The compiled graph of a word list, from the cache when it is there;
    otherwise compiled and stored (best effort: an unwritable cache only
    costs the next start its compilation)."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:40] or "lexicon"
    path = cache_dir() / f"{safe}-{alphabet.name}-{digest[:24]}-v{KWG_CACHE_VERSION}.kwg"
    try:
        return Kwg.from_bytes(path.read_bytes(), source=str(path))
    except (OSError, FormatError):
        pass
    kwg = compile_words(words(), alphabet, label=f"compiling {name} (once; kept in {path.parent})")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", suffix=".kwg", delete=False) as handle:
            handle.write(kwg.to_bytes())
        os.replace(handle.name, path)
    except OSError:
        pass
    return kwg


def load_lexicon(name_or_path: str | Path | None = None, *, alphabet: Alphabet | None = None) -> GraphLexicon:
    """A lexicon by name (``kjxqz``, the default), from a word list file, or
    from a compiled ``.kwg`` file (made by tilebag or another tool).

    Word lists are compiled once and kept in :func:`cache_dir`.

    :raises FormatError: when the file cannot be read or a line is not a word.
    """
    if name_or_path is None or str(name_or_path).lower() == DEFAULT_LEXICON:
        if alphabet is None or alphabet.name == "english":
            return default_lexicon()
    path = Path(str(name_or_path))
    if not path.is_file():
        raise FormatError(f"no lexicon named {str(name_or_path)!r} and no such file (the default is {DEFAULT_LEXICON!r})")
    return _load_file(path.resolve(), alphabet or load_alphabet("english"))


def _lexicon_name(path: Path) -> str:
    name = path.name
    for suffix in (".gz", ".txt", ".kwg"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    return name


@functools.lru_cache(maxsize=8)
def _load_file(path: Path, alphabet: Alphabet) -> GraphLexicon:
    name = _lexicon_name(path)
    if path.suffix.lower() == ".kwg":
        try:
            data = path.read_bytes()
        except OSError as err:
            raise FormatError(f"cannot read: {err.strerror or err}", source=str(path)) from None
        kwg = Kwg.from_bytes(data, source=str(path))
        return KwgLexicon(kwg, name=name, alphabet=alphabet, digest=hashlib.sha256(data).hexdigest())
    try:
        lines, digest = read_word_file(path)
    except OSError as err:
        raise FormatError(f"cannot read: {err.strerror or err}", source=str(path)) from None
    kwg = _cached_kwg(name, digest, alphabet, lambda: checked_words(lines, source=str(path), alphabet=alphabet))
    return KwgLexicon(kwg, name=name, alphabet=alphabet, digest=digest)


@functools.lru_cache(maxsize=1)
def default_lexicon() -> KwgLexicon:
    """The word list shipped in the ``kjxqz`` package, compiled once into the
    cache and loaded from there afterwards."""
    resource = importlib.resources.files("kjxqz") / "words.txt"
    data = resource.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    english = load_alphabet("english")

    def words() -> Iterable[str]:
        return read_word_list(data.decode("utf-8").splitlines(), source="kjxqz/words.txt")

    kwg = _cached_kwg(DEFAULT_LEXICON, digest, english, words)
    return KwgLexicon(kwg, name=DEFAULT_LEXICON, alphabet=english, digest=digest)
