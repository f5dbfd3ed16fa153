"""Perft for the move generator: every core against a slow, obviously
correct enumerator, on random positions (``tilebag bench perft``).

Chess programs check their move generators with *perft*: from known
positions, count every legal move to some depth and compare the count with
what an independent program found. A crossword game has no such fixed tree,
so this applies the idea to random positions. Each position is a board after
a few random legal plays, with a rack drawn from the tiles left (one rack in
three gets one blank, one in six gets two). Every play each core of the move
generator lists there (the reference and the compiled one) is compared with
every play the enumerator finds, by the tiles placed and the score.

The enumerator knows nothing of GADDAGs, anchors or cross-sets. It tries
every word of the lexicon on every stretch of every row and column, lets the
rules (:meth:`~tilebag.board.Board.check_placement`) judge the placement,
checks every word formed against a plain word list (not the word graph the
generator walks), and takes the score from :meth:`~tilebag.board.Board.score`.
It is slow (about a tenth of a second a position with the sample lexicon,
seconds with the full one), so it runs as a job of its own, a step of
``make test``, and not in the fast tests.

A mismatch is a play the enumerator finds that a core misses, a play a core
lists that the enumerator does not find, or a play a core lists twice.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product

from tilebag.alphabet import BLANK_BIT, Alphabet, Tile
from tilebag.board import Board
from tilebag.engine.movegen.generator import CORES, MoveGenerator, native_available
from tilebag.errors import IllegalMoveError
from tilebag.formats import cgp
from tilebag.lexicon import WordList, default_lexicon
from tilebag.move import Move

PlayKey = tuple[tuple[tuple[int, int, int], ...], int]
"""A play as the comparison sees it: the tiles placed (row, column, tile), sorted, and the score."""

TURNS = 12
"""Positions are boards after 0 to 11 random plays."""

SAMPLE_SEED = 20261121
SAMPLE_WORDS = 1500

SHOWN = 20
"""Plays a mismatch shows of each kind (it always gives their counts)."""


def sample_lexicon() -> WordList:
    """About 1,600 real words, so the enumerator stays quick: every
    two-letter word of the default lexicon and 1,500 more of up to nine
    letters (always the same ones)."""
    rng = random.Random(SAMPLE_SEED)
    words = [w for w in default_lexicon() if len(w) <= 9]
    chosen = {w for w in words if len(w) == 2} | set(rng.sample(words, SAMPLE_WORDS))
    return WordList(sorted(chosen), name="sample")


def brute_force(board: Board, rack: list[Tile], lexicon: WordList) -> dict[PlayKey, Move]:
    """Every legal placement of ``rack`` (0 for a blank) on ``board``, by
    its key (the tiles placed and the score)."""
    alphabet = board.alphabet
    by_length: dict[int, str] = {}
    words_by_length: dict[int, list[str]] = {}
    for word in lexicon:
        words_by_length.setdefault(len(word), []).append(word)
    for length, words in words_by_length.items():
        by_length[length] = "\n".join(words) + "\n"
    rows, cols = board.layout.rows, board.layout.cols
    start_square = divmod(board.layout.start, cols)
    # an empty square takes a rack letter ("." when a blank could be anything)
    free = "." if 0 in rack else "[" + "".join(re.escape(alphabet.label(t)) for t in set(rack)) + "]"

    def touches(r: int, c: int) -> bool:
        """Whether a tile on this square would touch the board's tiles
        (on an empty board: whether it is the start square)."""
        if board.is_empty():
            return (r, c) == start_square
        return any(board.at(r + dr, c + dc) for dr, dc in ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0)))

    have = Counter(rack)
    code = {alphabet.label(t): t for t in alphabet.letters}
    found: dict[PlayKey, Move] = {}
    for down in (False, True):
        lanes, length = (cols, rows) if down else (rows, cols)
        for lane in range(lanes):
            squares = [(i, lane) if down else (lane, i) for i in range(length)]
            for start in range(length):
                for end in range(start + 1, length):
                    span = squares[start : end + 1]
                    empties = [i for i, (r, c) in enumerate(span) if not board.at(r, c)]
                    if not empties or len(empties) > len(rack):
                        continue
                    if (start > 0 and board.at(*squares[start - 1])) or (end < length - 1 and board.at(*squares[end + 1])):
                        continue  # the word would run on into a tile
                    if not any(touches(r, c) for r, c in span):
                        continue  # a play must connect (a shortcut: the rules engine would refuse it too)
                    text = by_length.get(len(span))
                    if text is None:
                        continue
                    pattern = "".join(
                        free if not board.at(r, c) else re.escape(alphabet.label(board.at(r, c) & ~BLANK_BIT))
                        for r, c in span
                    )
                    for word in re.findall("^" + pattern + "$", text, re.MULTILINE):
                        letters = [code[ch] for ch in word]
                        needed = [letters[i] for i in empties]
                        short = sum(max(0, needed.count(t) - have[t]) for t in set(needed))
                        if short > have[0]:
                            continue  # the rack cannot supply these letters
                        # legality and the words formed do not depend on which tiles are
                        # blanks; only the score does
                        natural = [0] * len(span)
                        for i, tile in zip(empties, needed, strict=True):
                            natural[i] = tile
                        row, col = span[0]
                        try:
                            checked = board.check_placement(Move.place(row, col, down, natural))
                        except IllegalMoveError:
                            continue
                        if not all(lexicon.contains_tiles(w.tiles) for w in board.words(checked)):
                            continue
                        for tiles in _rack_choices(needed, rack):
                            placement = [0] * len(span)
                            for i, tile in zip(empties, tiles, strict=True):
                                placement[i] = tile
                            move = Move.place(row, col, down, placement)
                            found.setdefault(play_key(move, board.score(move)), move)
    return found


def _rack_choices(needed: list[Tile], rack: list[Tile]) -> Iterator[tuple[Tile, ...]]:
    """Every way to supply the needed letters from the rack: each letter from
    its own tile or from a blank (designated)."""
    have = Counter(rack)
    seen: set[tuple[Tile, ...]] = set()
    for use_blank in product((False, True), repeat=len(needed)):
        tiles = tuple(letter | BLANK_BIT if blank else letter for letter, blank in zip(needed, use_blank, strict=True))
        want = Counter(0 if t & BLANK_BIT else t for t in tiles)
        if all(have[t] >= n for t, n in want.items()) and tiles not in seen:
            seen.add(tiles)
            yield tiles


def play_key(move: Move, score: int) -> PlayKey:
    return (tuple(sorted(move.placed())), score)


def random_position(rng: random.Random, generator: MoveGenerator, alphabet: Alphabet, turns: int) -> tuple[Board, list[Tile]]:
    """A board after ``turns`` random legal plays, and a rack from what is left."""
    board = Board(alphabet=alphabet)
    bag = alphabet.distribution()
    rng.shuffle(bag)
    for _ in range(turns):
        rack, bag = bag[:7], bag[7:]
        plays = generator.placements(board, rack)
        if not plays:
            bag = bag + rack
            rng.shuffle(bag)
            continue
        move, _ = rng.choice(plays)
        board.place(move)
        used = list(move.tiles_used)
        for tile in rack:
            probe = next((u for u in used if (0 if u & BLANK_BIT else u) == tile), None)
            if probe is not None:
                used.remove(probe)
            else:
                bag.append(tile)
        rng.shuffle(bag)
        if len(bag) < 7:
            break
    rack = bag[:7]
    return board, rack


def positions(count: int, seed: int, generator: MoveGenerator) -> Iterator[tuple[Board, list[Tile]]]:
    """The positions of a run: position ``i`` is the board after ``i * step
    % 12`` random plays (``step`` is 1, or ``12 // count`` when fewer than 12
    are asked for, so a short run still reaches the middle game), and of
    every six racks, the second and fifth hold one blank and the third two."""
    rng = random.Random(seed)
    step = max(1, TURNS // count)
    for case in range(count):
        board, rack = random_position(rng, generator, generator.alphabet, turns=case * step % TURNS)
        if case % 3 == 1:
            rack = [0] + rack[1:]
        elif case % 6 == 2:
            rack = [0, 0] + rack[2:]
        yield board, rack


@dataclass(frozen=True)
class Mismatch:
    """Where one core and the enumerator disagree on one position."""

    position: int
    core: str
    rack: str
    board: str
    """The board drawn as text."""
    cgp: str
    """The position as a CGP record (``tilebag moves --cgp`` takes it)."""
    missing: list[str]
    """Plays the enumerator finds that the core does not list (notation and score)."""
    extra: list[str]
    """Plays the core lists that the enumerator does not find."""
    twice: list[str]
    """Plays the core lists more than once."""

    def text(self) -> str:
        lines = [f"position {self.position}, {self.core} core: rack {self.rack}", self.board, f"CGP: {self.cgp}"]
        for what, plays in (("missing", self.missing), ("extra", self.extra), ("listed twice", self.twice)):
            if plays:
                more = f" (and {len(plays) - SHOWN} more)" if len(plays) > SHOWN else ""
                lines.append(f"{what} ({len(plays)}): {', '.join(plays[:SHOWN])}{more}")
        return "\n".join(lines)


@dataclass
class PerftResult:
    """What a run checked."""

    lexicon: str
    words: int
    seed: int
    cores: tuple[str, ...]
    positions: int = 0
    """Positions checked (fewer than asked for when the run was stopped)."""
    plays: int = 0
    """Plays the enumerator found, over every position checked."""
    seconds: float = 0.0
    mismatches: list[Mismatch] = field(default_factory=list)
    stopped: bool = False

    def text(self) -> str:
        where = (
            f"{_count(self.positions, 'position')} (seed {self.seed}) of the {self.lexicon} lexicon "
            f"({self.words:,} words), {' and '.join(self.cores)} {'core' if len(self.cores) == 1 else 'cores'}: "
            f"{_count(self.plays, 'play')}"
        )
        if self.mismatches:
            verdict = f"{_count(len(self.mismatches), 'mismatch', 'es')} with the enumerator"
        else:
            verdict = "every one listed by every core, and nothing else"
        return f"perft: {where}, {verdict} ({self.seconds:.1f} s){' (stopped early)' if self.stopped else ''}"


def _count(number: int, noun: str, plural: str = "s") -> str:
    return f"{number:,} {noun}{'' if number == 1 else plural}"


def run_perft(
    count: int,
    *,
    seed: int,
    full: bool = False,
    progress: Callable[[int], None] | None = None,
    report: Callable[[Mismatch], None] | None = None,
) -> PerftResult:
    """Check every core on ``count`` random positions of the sample lexicon
    (:func:`sample_lexicon`), or of the whole default lexicon with ``full``.
    ``progress`` is told the positions done; ``report`` each mismatch as it
    is found. Ctrl+C stops the run with the positions checked so far."""
    started = time.perf_counter()
    if full:
        graph = default_lexicon()
        words = WordList(list(graph), name=graph.name)  # a plain set: the enumerator never reads the graph
        kwg = graph.kwg
    else:
        words = sample_lexicon()
        kwg = words.kwg
    cores = tuple(core for core in CORES if core == "python" or native_available())
    generators = [MoveGenerator(kwg, alphabet=words.alphabet, core=core) for core in cores]
    result = PerftResult(words.name, len(words), seed, cores)
    try:
        for case, (board, rack) in enumerate(positions(count, seed, generators[0])):
            expected = brute_force(board, rack, words)
            for generator in generators:
                mismatch = compare(case, generator, board, rack, expected)
                if mismatch is not None:
                    result.mismatches.append(mismatch)
                    if report is not None:
                        report(mismatch)
            result.positions += 1
            result.plays += len(expected)
            if progress is not None:
                progress(result.positions)
    except KeyboardInterrupt:
        result.stopped = True
    result.seconds = time.perf_counter() - started
    return result


def compare(case: int, generator: MoveGenerator, board: Board, rack: Sequence[Tile], expected: dict[PlayKey, Move]) -> Mismatch | None:
    """The mismatch between the generator's plays and the enumerator's, if any."""
    listed = [(play_key(move, score), move) for move, score in generator.placements(board, rack)]
    found = dict(listed)
    counts = Counter(key for key, _ in listed)

    def shown(plays: dict[PlayKey, Move], keys: Iterable[PlayKey]) -> list[str]:
        return sorted(f"{board.notation(plays[key])} {key[1]}" for key in keys)

    missing = shown(expected, expected.keys() - found.keys())
    extra = shown(found, found.keys() - expected.keys())
    twice = shown(found, [key for key, n in counts.items() if n > 1])
    if not (missing or extra or twice):
        return None
    record = cgp.dumps(cgp.position_from(board, [rack, ""], [0, 0]))
    return Mismatch(case, generator.core, board.alphabet.format_rack(rack), board.render(), record, missing, extra, twice)
