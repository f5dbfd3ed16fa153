"""CGP (Crossword Game Position): one position on one line, as FEN is for chess.

CGP is the woogles.io open protocol for a position whose history is unknown
(puzzles, analysis, engine input). A record is four fields and then any
number of operations, separated by spaces::

    <board> <racks> <scores> <zero-turns> [<opcode> [<operand> ...];] ...

- **board**: the rows from top to bottom, joined by ``/``. A row is its
  tiles (capitals; a blank in lower case as the letter it stands for) with
  a decimal number for each run of empty squares: ``15`` is an empty row,
  ``3WINDY7`` has WINDY from the fourth square.
- **racks**: one rack per player, joined by ``/``, the player to move first
  and the player who moved last at the end. ``?`` is a blank. A rack may be
  empty or partly known (``AEINRST/``).
- **scores**: one integer per rack, in the same order (``357/289``).
- **zero-turns**: how many scoreless turns came just before the position.
- **operations**: ``opcode operand ...;`` such as ``lex CSW21;``,
  ``ld english;`` (tile set), ``bb 50;`` (bingo bonus), ``cr double;``
  (challenge rule), ``mcnz 6;`` (scoreless turns that end the game),
  ``etl 7;`` (tiles the bag needs for an exchange), ``bdn CrosswordGame;``
  (board), ``var classic;``, ``gid ID;``, ``lm 8D.WORD;`` (last move),
  ``tmr 10000/-2500;`` (clocks in ms), ``ti 3000;``, ``to 60000;``, ``oru;``
  (the opponent's rack is not really known). Unknown opcodes are kept, so
  writing gives back what was read.

A tile whose label is several characters (Spanish ``CH``, ``LL``, ``RR``) is
written in brackets, ``[CH]`` (``[ch]`` for a blank), when its characters
could also be read as other tiles, as they can in Spanish; unbracketed
``CH`` is the two tiles C and H. Aliases of a tile set (the digits some
Spanish word lists use) are not CGP.

>>> text = "15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 ADEEGIL/ 0/32 0 lex NWL20;"
>>> position = parse(text)
>>> position.alphabet.format_word(position.rack), position.racks[1], position.scores
('ADEEGIL', [], [0, 32])
>>> position.board.alphabet.label(position.board.at(7, 3)), position.lexicon, position.bingo_bonus
('W', 'NWL20', 50)
>>> dumps(position) == text
True
>>> parse(dumps(position)) == position
True
>>> parse("15/15/15/15/15/15/15/3WINDY8/15/15/15/15/15/15/15 ADEEGIL/ 0/32 0")
Traceback (most recent call last):
...
tilebag.formats.cgp.CgpError: board row 8: 16 squares, expected 15
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tilebag.alphabet import BLANK, BLANK_BIT, BLANK_LABEL, Alphabet, Tile, alphabet_names, load_alphabet, rack_tile
from tilebag.board import EMPTY, Board
from tilebag.errors import FormatError, quote
from tilebag.layout import BoardLayout, layout_names, load_layout
from tilebag.rules import ChallengeMode, Rules, RulesError

__all__ = [
    "CHALLENGE_RULES",
    "CgpError",
    "Position",
    "dumps",
    "parse",
    "position_from",
]

FIELDS = ("board", "racks", "scores", "zero-turns")
"""The four fields every CGP record starts with, in order."""

CHALLENGE_RULES: dict[str, ChallengeMode | None] = {
    "void": ChallengeMode.VOID,
    "single": ChallengeMode.SINGLE,
    "double": ChallengeMode.DOUBLE,
    "triple": None,
    "5pt": ChallengeMode.FIVE_POINT,
    "10pt": ChallengeMode.TEN_POINT,
}
"""The challenge rules of the ``cr`` opcode and tilebag's mode for each
(``None``: tilebag has no triple challenge)."""

LAYOUT_NAMES = {"CrosswordGame": "standard"}
"""Board names of the ``bdn`` opcode used by other programs, and the tilebag
layout each means (compared ignoring case). Tilebag's own layout names work
too."""

MAX_CGP_CHARS = 10_000
"""The longest CGP record read (a full board with every opcode is under 1,000)."""

DEFAULT_BINGO_BONUS = 50
DEFAULT_EXCHANGE_LIMIT = 7
DEFAULT_MAX_ZERO_TURNS = 6

_UNSIGNED = re.compile(r"[0-9]{1,9}")
_SIGNED = re.compile(r"-?[0-9]{1,9}")
_LAYOUT_KEY = re.compile(r"[a-z0-9_-]+")

_ONE_OPERAND = frozenset({"bb", "bdn", "cr", "etl", "gid", "ld", "lex", "mcnz", "ti", "tmr", "to", "var"})
_SOME_OPERANDS = frozenset({"lm"})
_NO_OPERAND = frozenset({"oru"})
_COUNT_OPERAND = frozenset({"bb", "etl", "mcnz", "ti", "to"})
_FORBIDDEN_IN_OPERATIONS = re.compile(r"[\s;]")


class CgpError(FormatError):
    """A CGP record that cannot be read (or a position that is not one).

    The message starts with what is wrong: the field (``board row 3``,
    ``racks``, ``scores``, ``zero-turns``), the opcode, or ``tiles`` when the
    board and racks hold more of a tile than the bag does. :attr:`field` is
    one of :data:`FIELDS`, ``"operations"``, ``"tiles"`` or ``"input"``.

    >>> try:
    ...     parse("15/15 AB/CD 0/0 0")
    ... except CgpError as err:
    ...     print(err.field, "|", err)
    board | board: 2 rows, expected 15
    """

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass
class Position:
    """A crossword game position as CGP describes it. Read one with
    :func:`parse`, make one with :func:`position_from`, write one with
    :func:`dumps`.

    >>> position = parse("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/? 0/0 0 bb 35; cr void;")
    >>> position.bingo_bonus, position.challenge_rule, position.max_zero_turns
    (35, 'void', 6)
    >>> position.rules().challenge, position.rules().bingo_bonus
    (<ChallengeMode.VOID: 'void'>, 35)
    >>> len(position.unseen_tiles())
    92
    """

    board: Board
    """The tiles on the board; its alphabet and layout are the position's."""
    racks: list[list[Tile]]
    """Every player's rack, the player to move first; rack tiles (0 is a
    blank), in the order the record lists them."""
    scores: list[int]
    """Every player's score, in the order of :attr:`racks`."""
    zero_turns: int = 0
    """Consecutive scoreless turns just before this position."""
    operations: dict[str, list[str]] = field(default_factory=dict)
    """Each opcode and its operands, in the order the record lists them
    (``{"lex": ["CSW21"], "oru": []}``); unknown opcodes included."""

    def __repr__(self) -> str:
        try:
            return f"cgp.parse({dumps(self)!r})"
        except ValueError:
            return (
                f"Position(board=<{self.board.layout.name} board>, racks={self.racks!r}, scores={self.scores!r}, "
                f"zero_turns={self.zero_turns!r}, operations={self.operations!r})"
            )

    @property
    def alphabet(self) -> Alphabet:
        """The tile set (the board's)."""
        return self.board.alphabet

    @property
    def rack(self) -> list[Tile]:
        """The rack of the player to move."""
        return self.racks[0]

    def _operand(self, opcode: str) -> str | None:
        operands = self.operations.get(opcode)
        return operands[0] if operands else None

    def _count(self, opcode: str, default: int) -> int:
        value = self._operand(opcode)
        return default if value is None else int(value)

    @property
    def lexicon(self) -> str | None:
        """The lexicon the ``lex`` opcode names (``None`` without one)."""
        return self._operand("lex")

    @property
    def alphabet_name(self) -> str:
        """The tile set the ``ld`` opcode names, as written; without one, the
        name of the board's tile set (English unless told otherwise)."""
        return self._operand("ld") or self.board.alphabet.name

    @property
    def board_name(self) -> str | None:
        """The board the ``bdn`` opcode names (``None`` without one)."""
        return self._operand("bdn")

    @property
    def bingo_bonus(self) -> int:
        """Points for a bingo: the ``bb`` opcode, 50 without one."""
        return self._count("bb", DEFAULT_BINGO_BONUS)

    @property
    def challenge_rule(self) -> str | None:
        """The ``cr`` opcode as written (``single``, ``double``, ``triple``,
        ``void``, ``5pt`` or ``10pt``), ``None`` without one: the format
        leaves the default to the program (see :meth:`rules`)."""
        return self._operand("cr")

    @property
    def exchange_limit(self) -> int:
        """Tiles the bag must hold for an exchange: the ``etl`` opcode, 7
        without one."""
        return self._count("etl", DEFAULT_EXCHANGE_LIMIT)

    @property
    def max_zero_turns(self) -> int:
        """Consecutive scoreless turns that end the game: the ``mcnz``
        opcode, 6 without one."""
        return self._count("mcnz", DEFAULT_MAX_ZERO_TURNS)

    @property
    def variant(self) -> str | None:
        """The variant the ``var`` opcode names (``None`` without one)."""
        return self._operand("var")

    @property
    def game_id(self) -> str | None:
        """The ``gid`` opcode (``None`` without one)."""
        return self._operand("gid")

    @property
    def last_move(self) -> str | None:
        """The ``lm`` opcode's operands as written (``8D.WORD``, ``ex.ABC``,
        ``pass`` ...), ``None`` without one."""
        operands = self.operations.get("lm")
        return " ".join(operands) if operands else None

    @property
    def opponent_rack_unknown(self) -> bool:
        """True with the ``oru`` opcode: the other racks are guesses."""
        return "oru" in self.operations

    @property
    def timers(self) -> list[int] | None:
        """Milliseconds left on each player's clock (``tmr``), in the order
        of :attr:`racks`; negative when over time."""
        value = self._operand("tmr")
        return None if value is None else [int(t) for t in value.split("/")]

    @property
    def time_increment(self) -> int | None:
        """Milliseconds added to a clock after each move (``ti``)."""
        value = self._operand("ti")
        return None if value is None else int(value)

    @property
    def max_overtime(self) -> int | None:
        """Milliseconds of overtime that end the game (``to``)."""
        value = self._operand("to")
        return None if value is None else int(value)

    def rules(self, base: Rules | None = None) -> Rules:
        """Tilebag rules for playing on from this position: ``base`` (the
        standard rules by default) with the tile set, layout, bingo bonus,
        scoreless-turn limit and exchange limit of this position (the CGP
        defaults when it states none) and its challenge rule when it has one.

        :raises RulesError: for a challenge rule tilebag does not have
            (``cr triple;``).
        """
        base = base or Rules()
        changes: dict[str, object] = {
            "alphabet": self.board.alphabet.name,
            "layout": self.board.layout.name,
            "bingo_bonus": self.bingo_bonus,
            "scoreless_turns": self.max_zero_turns,
            "exchange_min_bag": self.exchange_limit,
        }
        rule = self.challenge_rule
        if rule is not None:
            mode = CHALLENGE_RULES.get(rule.lower())
            if mode is None:
                raise RulesError(f"tilebag has no {rule!r} challenge rule")
            changes["challenge"] = mode
        return base.replace(**changes)

    def unseen_tiles(self) -> list[Tile]:
        """The tiles neither on the board nor on the racks the record shows
        (the bag and any unknown rack tiles), in code order; 0 is a blank."""
        counts = list(self.board.alphabet.counts)
        for tile in self.board.tiles:
            if tile != EMPTY:
                counts[rack_tile(tile)] -= 1
        for rack in self.racks:
            for tile in rack:
                counts[tile] -= 1
        return [code for code, n in enumerate(counts) for _ in range(max(n, 0))]


# -- tile notation -------------------------------------------------------------


@dataclass(frozen=True)
class _Notation:
    """How one tile set's tiles are written in CGP."""

    alphabet: Alphabet
    bare: dict[str, Tile]
    """Text read as one tile without brackets (both cases)."""
    bracketed: dict[str, Tile]
    """Text read as one tile inside ``[...]`` (every label, both cases)."""
    longest: int
    written: dict[Tile, str]
    """How each letter and designated blank is written."""

    def read(self, text: str, i: int) -> tuple[Tile | None, int, str]:
        """The tile at ``text[i]``: ``(tile or None, next index, its text)``."""
        if text[i] == "[":
            end = text.find("]", i + 1)
            if end < 0:
                return None, len(text), text[i:]
            return self.bracketed.get(text[i + 1 : end]), end + 1, text[i : end + 1]
        for length in range(min(self.longest, len(text) - i), 0, -1):
            tile = self.bare.get(text[i : i + length])
            if tile is not None:
                return tile, i + length, text[i : i + length]
        return None, i + 1, text[i]


def _splits(form: str, pieces: Iterable[str]) -> bool:
    """True when ``form`` is also a sequence of two or more other pieces."""
    others = [p for p in pieces if p != form]
    reachable = [True] + [False] * len(form)
    for i in range(len(form)):
        if reachable[i]:
            for piece in others:
                if form.startswith(piece, i):
                    reachable[i + len(piece)] = True
    return reachable[len(form)]


@functools.cache
def _notation(alphabet: Alphabet) -> _Notation:
    forms: dict[str, Tile] = {}
    for code in alphabet.letters:
        label = alphabet.labels[code]
        forms[label] = code
        if label.lower() != label:
            forms[label.lower()] = code | BLANK_BIT
    bare: dict[str, Tile] = {}
    written: dict[Tile, str] = {}
    for form, tile in forms.items():
        plain = len(form) == 1 and not form.isdigit() and form not in "[]/?"
        if plain or (len(form) > 1 and not _splits(form, forms) and not re.search(r"[\d\[\]/?\s]", form)):
            bare[form] = tile
            written[tile] = form
        else:
            written[tile] = f"[{form}]"
    return _Notation(alphabet, bare, forms, max((len(f) for f in bare), default=1), written)


# -- reading -------------------------------------------------------------------


def parse(text: str, *, alphabet: Alphabet | None = None, layout: BoardLayout | None = None) -> Position:
    """Read a CGP record.

    The tile set is ``alphabet`` when given, else the one the ``ld`` opcode
    names, else English (as in other programs, it is not guessed from the
    lexicon: a record in another language says so with ``ld``). The board
    is ``layout`` when given, else the one the ``bdn`` opcode names
    (``CrosswordGame`` or a tilebag layout name), else the standard board.
    Whitespace around the record and between fields is ignored. Numbers
    have at most 9 digits, and a record at most :data:`MAX_CGP_CHARS`
    characters.

    >>> parse("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB1/ 0/0 0")
    Traceback (most recent call last):
    ...
    tilebag.formats.cgp.CgpError: racks: 'AB1' is not a rack of english tiles: '1' is not a tile

    :raises CgpError: naming the field, row or opcode that is wrong, or the
        tile the board and racks hold more of than the bag does.
    """
    if len(text) > MAX_CGP_CHARS:
        raise CgpError(
            f"input of {len(text)} characters: a CGP record is at most {MAX_CGP_CHARS}", field="input"
        )
    fields = text.split(maxsplit=4)
    if not fields:
        raise CgpError("empty input: a CGP record is '<board> <racks> <scores> <zero-turns> [ops]'", field="input")
    if len(fields) < 4:
        missing = FIELDS[len(fields)]
        raise CgpError(
            f"{missing}: missing; a CGP record is '<board> <racks> <scores> <zero-turns> [ops]'", field=missing
        )
    board_text, racks_text, scores_text, zero_text = fields[:4]
    rack_texts = racks_text.split("/")
    if len(rack_texts) < 2:
        raise CgpError(
            f"racks: expected a rack for each of 2 or more players, separated by '/', got {quote(racks_text)}",
            field="racks",
        )
    operations = _parse_operations(fields[4] if len(fields) == 5 else "")
    _check_operations(operations, len(rack_texts))
    alphabet = alphabet or _alphabet_from(operations)
    layout = layout or _layout_from(operations)
    board = _parse_board(board_text, layout, alphabet)
    notation = _notation(alphabet)
    racks = [_parse_rack(rack, notation) for rack in rack_texts]
    scores = _parse_scores(scores_text, len(racks))
    if not _UNSIGNED.fullmatch(zero_text):
        raise CgpError(f"zero-turns: {quote(zero_text)} is not a non-negative integer", field="zero-turns")
    _check_tile_counts(board, racks)
    return Position(board, racks, scores, int(zero_text), operations)


def _parse_operations(text: str) -> dict[str, list[str]]:
    operations: dict[str, list[str]] = {}
    *complete, rest = text.split(";")
    for chunk in complete:
        words = chunk.split()
        if not words:
            raise CgpError("opcode list: an empty operation (a ';' with no opcode before it)", field="operations")
        opcode, *operands = words
        if opcode in operations:
            raise CgpError(f"opcode {quote(opcode)} appears twice", field="operations")
        operations[opcode] = operands
    if rest.strip():
        raise CgpError(f"opcode list: missing ';' after {quote(rest.strip())}", field="operations")
    return operations


def _check_operations(operations: Mapping[str, Sequence[str]], players: int) -> None:
    def fail(message: str) -> CgpError:
        return CgpError(f"opcode {quote(opcode)}{message}", field="operations")

    for opcode, operands in operations.items():
        if not opcode or _FORBIDDEN_IN_OPERATIONS.search(opcode):
            raise CgpError(f"opcode {quote(opcode)} is not a word", field="operations")
        for operand in operands:
            if not operand or _FORBIDDEN_IN_OPERATIONS.search(operand):
                raise fail(f": operand {quote(operand)} is empty or holds a space or ';'")
        if opcode in _ONE_OPERAND or opcode in _SOME_OPERANDS:
            if not operands:
                raise fail(" has no value")
            if opcode in _ONE_OPERAND and len(operands) > 1:
                raise fail(f" takes one value, got {len(operands)}: {quote(' '.join(operands))}")
        if opcode in _NO_OPERAND and operands:
            raise fail(f" takes no value, got {quote(' '.join(operands))}")
        value = operands[0] if operands else ""
        if opcode in _COUNT_OPERAND and not _UNSIGNED.fullmatch(value):
            raise fail(f": {quote(value)} is not a non-negative integer")
        if opcode == "cr" and value.lower() not in CHALLENGE_RULES:
            raise fail(f": unknown challenge rule {quote(value)}; known: {', '.join(CHALLENGE_RULES)}")
        if opcode == "tmr":
            timers = value.split("/")
            if len(timers) != players:
                raise fail(f": expected {players} timers (one per rack), got {len(timers)}")
            for timer in timers:
                if not _SIGNED.fullmatch(timer):
                    raise fail(f": {quote(timer)} is not a whole number of milliseconds")


def _alphabet_from(operations: Mapping[str, Sequence[str]]) -> Alphabet:
    ld = operations.get("ld")
    if ld:
        names = alphabet_names()
        if ld[0].lower() not in names:
            raise CgpError(
                f"opcode 'ld': unknown letter distribution {quote(ld[0])}; known: {', '.join(names)}",
                field="operations",
            )
        return load_alphabet(ld[0].lower())
    return load_alphabet("english")


def _layout_from(operations: Mapping[str, Sequence[str]]) -> BoardLayout:
    bdn = operations.get("bdn")
    if not bdn:
        return load_layout("standard")
    key = bdn[0].lower()
    key = {name.lower(): layout for name, layout in LAYOUT_NAMES.items()}.get(key, key)
    names = layout_names()
    if _LAYOUT_KEY.fullmatch(key) and key in names:
        return load_layout(key)
    known = ", ".join([*(f"{k} ({v})" for k, v in LAYOUT_NAMES.items()), *names])
    raise CgpError(f"opcode 'bdn': unknown board {quote(bdn[0])}; known: {known}", field="operations")


def _parse_board(text: str, layout: BoardLayout, alphabet: Alphabet) -> Board:
    rows = text.split("/")
    if len(rows) != layout.rows:
        raise CgpError(f"board: {len(rows)} rows, expected {layout.rows}", field="board")
    notation = _notation(alphabet)
    board = Board(layout, alphabet)
    cols = layout.cols
    for r, row in enumerate(rows):
        where = f"board row {r + 1}"
        col = 0
        i = 0
        while i < len(row):
            if "0" <= row[i] <= "9":
                j = i
                while j < len(row) and "0" <= row[j] <= "9":
                    j += 1
                run = row[i:j]
                if run[0] == "0":
                    raise CgpError(f"{where}: {quote(run)} is not a number of empty squares", field="board")
                col += int(run) if len(run) <= 6 else 10**6
                i = j
                continue
            tile, i, token = notation.read(row, i)
            if tile is None:
                if token == BLANK_LABEL:
                    raise CgpError(
                        f"{where}: '?' is a blank on a rack; on the board write the letter it stands for in lower case",
                        field="board",
                    )
                if token.startswith("[") and not token.endswith("]"):
                    raise CgpError(f"{where}: '[' without a closing ']'", field="board")
                raise CgpError(f"{where}: {quote(token)} is not a tile of the {alphabet.name} set", field="board")
            if col < cols:
                board.tiles[r * cols + col] = tile
                board.tile_count += 1
            col += 1
        if col != cols:
            count = f"{col}" if col < 10**6 else "too many"
            raise CgpError(f"{where}: {count} squares, expected {cols}", field="board")
    return board


def _parse_rack(text: str, notation: _Notation) -> list[Tile]:
    tiles: list[Tile] = []
    i = 0
    while i < len(text):
        if text[i] == BLANK_LABEL:
            tiles.append(BLANK)
            i += 1
            continue
        tile, i, token = notation.read(text, i)
        problem = ""
        if tile is None:
            problem = f"{quote(token)} is not a tile"
        elif tile & BLANK_BIT:
            problem = f"{quote(token)} is lower case (a blank on a rack is '?')"
        if problem:
            raise CgpError(f"racks: {quote(text)} is not a rack of {notation.alphabet.name} tiles: {problem}", field="racks")
        assert tile is not None
        tiles.append(tile)
    return tiles


def _parse_scores(text: str, players: int) -> list[int]:
    parts = text.split("/")
    if len(parts) != players:
        raise CgpError(f"scores: expected {players} scores (one per rack), got {len(parts)}", field="scores")
    for part in parts:
        if not _SIGNED.fullmatch(part):
            raise CgpError(f"scores: {quote(part)} is not an integer", field="scores")
    return [int(part) for part in parts]


def _check_tile_counts(board: Board, racks: Sequence[Sequence[Tile]]) -> None:
    alphabet = board.alphabet
    on_board = [0] * alphabet.size
    for tile in board.tiles:
        if tile != EMPTY:
            on_board[rack_tile(tile)] += 1
    on_racks = [0] * alphabet.size
    for rack in racks:
        for tile in rack:
            on_racks[tile] += 1
    problems = []
    for code, held in enumerate(alphabet.counts):
        b, r = on_board[code], on_racks[code]
        if b + r > held:
            name = "blanks" if code == BLANK else alphabet.labels[code]
            problems.append(f"{b + r} {name} ({b} on the board, {r} on the racks) but the set has {held}")
    if problems:
        raise CgpError(f"tiles: more than the {alphabet.name} set holds: {'; '.join(problems)}", field="tiles")


def _check_tile_codes(board: Board, racks: Sequence[Sequence[Tile]]) -> None:
    alphabet = board.alphabet
    layout = board.layout
    for square, tile in enumerate(board.tiles):
        if tile != EMPTY and not 0 < tile & ~BLANK_BIT < alphabet.size:
            raise CgpError(
                f"board: {layout.square_name(square)} holds {tile}, not a tile of the {alphabet.name} set",
                field="board",
            )
    for number, rack in enumerate(racks, start=1):
        for tile in rack:
            if not 0 <= tile < alphabet.size:
                raise CgpError(
                    f"racks: rack {number} holds {tile}, not a rack tile of the {alphabet.name} set", field="racks"
                )


# -- making and writing --------------------------------------------------------


def position_from(
    board: Board,
    racks: Sequence[str | Sequence[Tile]],
    scores: Sequence[int],
    zero_turns: int = 0,
    **operations: str | int | bool | Sequence[str],
) -> Position:
    """A checked position. A rack may be given as CGP text (``"AEINRST"``,
    ``"?"`` for a blank) or as tiles. Each keyword is an opcode: a string or
    integer is its one operand, a sequence its operands, ``True`` an opcode
    without operands (``oru=True``), ``False`` leaves it out. A board whose
    tile set is not English gets an ``ld`` opcode (and a layout other than
    the standard one a ``bdn`` opcode) unless one is given, so that the
    record says how to read it.

    >>> from tilebag import Board, load_alphabet
    >>> spanish = Board(alphabet=load_alphabet("spanish"))
    >>> spanish.tiles[7 * 15 + 7] = spanish.alphabet.tile("CH")
    >>> position = position_from(spanish, ["[RR]?", ""], [10, 0], lex="FILE2017")
    >>> dumps(position)
    '15/15/15/15/15/15/15/7[CH]7/15/15/15/15/15/15/15 [RR]?/ 10/0 0 lex FILE2017; ld spanish;'

    :raises CgpError: as :func:`parse` does, for racks and scores that do not
        pair up, tiles not in the set or more tiles than the bag holds, or
        operations that are not valid.
    """
    board = board.copy()
    board.tile_count = sum(1 for t in board.tiles if t != EMPTY)
    notation = _notation(board.alphabet)
    tile_racks = [_parse_rack(rack, notation) if isinstance(rack, str) else list(rack) for rack in racks]
    ops: dict[str, list[str]] = {}
    for opcode, value in operations.items():
        if value is False:
            continue
        if value is True:
            ops[opcode] = []
        elif isinstance(value, str | int):
            ops[opcode] = [str(value)]
        else:
            ops[opcode] = [str(v) for v in value]
    if board.alphabet.name != "english":
        ops.setdefault("ld", [board.alphabet.name])
    if board.layout.name != "standard":
        ops.setdefault("bdn", [board.layout.name])
    position = Position(board, tile_racks, list(scores), zero_turns, ops)
    _check(position)
    return position


def _check(position: Position) -> None:
    players = len(position.racks)
    if players < 2:
        raise CgpError(f"racks: expected a rack for each of 2 or more players, got {players}", field="racks")
    if len(position.scores) != players:
        raise CgpError(f"scores: expected {players} scores (one per rack), got {len(position.scores)}", field="scores")
    if not _UNSIGNED.fullmatch(str(position.zero_turns)):
        raise CgpError(f"zero-turns: {position.zero_turns} is not a non-negative integer", field="zero-turns")
    for score in position.scores:
        if not _SIGNED.fullmatch(str(score)):
            raise CgpError(f"scores: {score} is not an integer of at most 9 digits", field="scores")
    _check_operations(position.operations, players)
    _check_tile_codes(position.board, position.racks)
    _check_tile_counts(position.board, position.racks)


def dumps(position: Position) -> str:
    """The position as a CGP record: empty squares as run lengths, several
    character tiles bracketed where they must be, racks in their order,
    single spaces, the operations as they are. Reading it back gives an
    equal position (a tile set other than English needs its ``ld`` opcode,
    which :func:`position_from` adds; or pass the tile set to :func:`parse`),
    and writing a position read from such a record gives the record back.

    >>> from tilebag import Board
    >>> dumps(position_from(Board(), ["AEINRST", "?"], [0, 0], lex="CSW21", oru=True))
    '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/? 0/0 0 lex CSW21; oru;'

    :raises ValueError: for a position that cannot be written so that it
        reads back (a code that is not a tile, racks and scores that do not
        pair up, an operand holding a space or ``;``).
    """
    board = position.board
    alphabet = board.alphabet
    layout = board.layout
    written = _notation(alphabet).written
    players = len(position.racks)
    if players < 2 or len(position.scores) != players:
        raise ValueError(f"{players} racks and {len(position.scores)} scores: a CGP needs one of each per player")
    if position.zero_turns < 0:
        raise ValueError(f"zero_turns must not be negative, got {position.zero_turns}")
    rows: list[str] = []
    for r in range(layout.rows):
        parts: list[str] = []
        empty = 0
        for c in range(layout.cols):
            tile = board.tiles[r * layout.cols + c]
            if tile == EMPTY:
                empty += 1
                continue
            if empty:
                parts.append(str(empty))
                empty = 0
            text = written.get(tile)
            if text is None:
                raise ValueError(f"square {layout.square_name(r * layout.cols + c)} holds {tile}, not a tile")
            parts.append(text)
        if empty:
            parts.append(str(empty))
        rows.append("".join(parts))
    racks: list[str] = []
    for rack in position.racks:
        texts: list[str] = []
        for tile in rack:
            text = BLANK_LABEL if tile == BLANK else written.get(tile) if not tile & BLANK_BIT else None
            if text is None:
                raise ValueError(f"rack {rack!r} holds {tile}, not a rack tile of the {alphabet.name} set")
            texts.append(text)
        racks.append("".join(texts))
    fields = ["/".join(rows), "/".join(racks), "/".join(str(s) for s in position.scores), str(position.zero_turns)]
    for opcode, operands in position.operations.items():
        for word in (opcode, *operands):
            if not word or _FORBIDDEN_IN_OPERATIONS.search(word):
                raise ValueError(f"opcode {opcode!r}: {word!r} is empty or holds a space or ';'")
        fields.append(" ".join((opcode, *operands)) + ";")
    return " ".join(fields)
