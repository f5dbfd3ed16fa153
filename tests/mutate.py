"""Seeded mutation of real inputs, for the fuzz tests of every parser that
reads untrusted input (game records, positions, word lists, leave files).

A mutant is a valid input changed a few times by operators that imitate
what goes wrong in files people upload: lines lost, doubled or swapped,
fields replaced by hostile values (huge numbers, paths, NUL bytes, very long
names, other scripts), characters dropped or inserted, the file cut short.
The same seed always gives the same mutant, so a failure is reproducible
from the seed alone.

>>> mutant(b"#player1 a a\\n>a: HNOR 8F HORN +14 14\\n", seed=3) == mutant(b"#player1 a a\\n>a: HNOR 8F HORN +14 14\\n", seed=3)
True
"""

from __future__ import annotations

import contextlib
import random
import signal
from collections.abc import Callable, Iterator

HOSTILE_TOKENS: tuple[bytes, ...] = (
    b"/etc/passwd",
    b"../../../../etc/passwd",
    b"~/.ssh/id_rsa",
    b"\x00",
    b"UTF\x00-8",
    b"1" * 5000,
    b"-" + b"9" * 400,
    b"+" + b"9" * 30,
    b"1e999",
    b"nan",
    b"-0",
    b"x" * 1000,
    b"A" * 300,
    b"?" * 20,
    b"()",
    b"(",
    b")",
    b".",
    b"..",
    b"--",
    b"-",
    b"#",
    b">",
    b":",
    b";",
    b"/",
    b"\xff\xfe",
    b"\xc3\x28",
    "\u00d1\u00c4\u0141\u00df".encode(),
    "\u202e\u200b".encode(),
    b"\t",
    b"\r",
    b"0",
    b"99",
    b"15A",
    b"A15",
    b"16P",
    b"8H",
    b"H8",
    b"rot13",
    b"hex",
    b"utf-16",
    b"idna",
    b"english",
    b"polish",
    b"standard",
    b"CrosswordGame",
)
"""Values a hostile or broken file puts where a field belongs."""


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _delete_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    if len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def _duplicate_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return b"\n".join(lines)


def _swap_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _replace_token(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    tokens = lines[i].split(b" ")
    j = rng.randrange(len(tokens))
    tokens[j] = rng.choice(HOSTILE_TOKENS)
    lines[i] = b" ".join(tokens)
    return b"\n".join(lines)


def _insert_token(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    tokens = lines[i].split(b" ")
    tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(HOSTILE_TOKENS))
    lines[i] = b" ".join(tokens)
    return b"\n".join(lines)


def _drop_token(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    tokens = lines[i].split(b" ")
    if len(tokens) > 1:
        del tokens[rng.randrange(len(tokens))]
    lines[i] = b" ".join(tokens)
    return b"\n".join(lines)


def _flip_byte(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    return data[:i] + bytes([rng.randrange(256)]) + data[i + 1 :]


def _delete_bytes(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + data[i + rng.randint(1, 8) :]


def _copy_bytes(rng: random.Random, data: bytes) -> bytes:
    """A run of the input copied elsewhere in it."""
    if not data:
        return data
    i = rng.randrange(len(data))
    chunk = data[i : i + rng.randint(1, 40)]
    j = rng.randrange(len(data) + 1)
    return data[:j] + chunk + data[j:]


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _case(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines[i] = lines[i].swapcase()
    return b"\n".join(lines)


def _repeat_line(rng: random.Random, data: bytes) -> bytes:
    """One line repeated many times (a record that never ends)."""
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines[i:i] = [lines[i]] * rng.randint(10, 300)
    return b"\n".join(lines)


OPERATORS: tuple[Callable[[random.Random, bytes], bytes], ...] = (
    _delete_line,
    _duplicate_line,
    _swap_lines,
    _replace_token,
    _replace_token,
    _insert_token,
    _drop_token,
    _flip_byte,
    _delete_bytes,
    _copy_bytes,
    _truncate,
    _case,
    _repeat_line,
)


def mutant(data: bytes, seed: int, *, changes: int | None = None) -> bytes:
    """``data`` changed by 1 to 4 (or ``changes``) operators chosen by ``seed``."""
    rng = random.Random(seed)
    for _ in range(changes if changes is not None else rng.randint(1, 4)):
        data = rng.choice(OPERATORS)(rng, data)
    return data


SECONDS_PER_CASE = 20
"""Far more than any input takes: a case this slow is a hang, reported with its seed."""


@contextlib.contextmanager
def hang_guard(seed: int) -> Iterator[None]:
    """Fail with the seed when a case takes more than :data:`SECONDS_PER_CASE`."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"seed {seed}: no answer in {SECONDS_PER_CASE} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(SECONDS_PER_CASE)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
