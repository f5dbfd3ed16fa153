"""``tilebag lexicon``: word lists compiled into KWG word graphs, and
graphs read back.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tilebag.errors import FormatError

if TYPE_CHECKING:
    from tilebag.kwg import Kwg


def build(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from tilebag.alphabet import load_alphabet
    from tilebag.kwg import Kwg
    from tilebag.lexicon import checked_words, read_word_file, word_encoder
    from tilebag.progress import Progress

    alphabet = load_alphabet(args.alphabet)
    started = time.perf_counter()
    try:
        lines, _ = read_word_file(Path(args.wordlist))
    except OSError as err:
        raise FormatError(f"cannot read: {err.strerror or err}", source=args.wordlist) from None
    encode = word_encoder(alphabet)
    one_letter: list[int] = []
    words = checked_words(lines, source=args.wordlist, alphabet=alphabet, one_letter=one_letter)
    if one_letter:
        print(
            f"note: {args.wordlist}: {len(one_letter)} one-letter word{'s' if len(one_letter) > 1 else ''} "
            f"skipped (no play forms one), the first on line {one_letter[0]}",
            file=sys.stderr,
        )
    keys = {key for key in map(encode, words) if key is not None}  # always encodes: checked_words made sure
    with Progress(0, f"compiling {args.wordlist}") as bar:

        def report(done: int, total: int) -> None:
            bar.total = total
            bar.update(done)

        kwg = Kwg.build(keys, gaddag=not args.dawg_only, progress=report)
    data = kwg.to_bytes()
    try:
        Path(args.output).write_bytes(data)
    except OSError as err:
        raise FormatError(f"cannot write: {err.strerror or err}", source=args.output) from None
    kind = "DAWG" if args.dawg_only else "DAWG+GADDAG"
    seconds = time.perf_counter() - started
    print(f"{args.output}: {len(keys)} words, {len(kwg)} nodes ({kind}), {len(data)} bytes, {seconds:.2f} s")
    return 0


def _load_kwg(path: str) -> Kwg:
    from tilebag.kwg import Kwg

    try:
        return Kwg.load(path)
    except OSError as err:
        raise FormatError(f"cannot read: {err.strerror or err}", source=path) from None


def words(args: argparse.Namespace) -> int:
    from tilebag.alphabet import load_alphabet

    alphabet = load_alphabet(args.alphabet)
    words = list(_load_kwg(args.kwg).words())
    top = max((max(word) for word in words), default=0)
    if top >= alphabet.size:
        raise FormatError(
            f"tile code {top} is not in the {alphabet.name} tile set (codes 1..{alphabet.size - 1}); "
            "is the graph for another --alphabet?",
            source=args.kwg,
        )
    label = alphabet.format_word
    sys.stdout.writelines(f"{label(word)}\n" for word in words)
    return 0


def info(args: argparse.Namespace) -> int:
    from collections import Counter

    kwg = _load_kwg(args.kwg)
    lengths = Counter(len(word) for word in kwg.words())
    print(f"file: {args.kwg}")
    print(f"nodes: {len(kwg)} ({4 * len(kwg)} bytes)")
    print(f"words: {lengths.total()}")
    print(f"lengths: {' '.join(f'{n}:{lengths[n]}' for n in sorted(lengths)) or '-'}")
    print(f"gaddag: {'yes' if kwg.has_gaddag else 'no (DAWG only)'}")
    return 0
