"""SIU's notation: moves as fields joined by dots, and the parameters of
``go`` (draft 0.2, sections 2 and 6).

>>> from tilebag.board import Board
>>> board = Board()
>>> parse_siu_move(board, "8d.RETAINS.AEINRST.5.1")
SiuMove(kind='place', move=Move.from_gcg('8D RETAINS'), challenge_points=5, turn_loss=True, known_tiles=True)
>>> parse_siu_move(board, "ex.4").kind, parse_siu_move(board, "phony.H4.ZZZ").kind
('exchange', 'phony')
>>> siu_move(board, parse_siu_move(board, "EX.CBA").move)
'ex.ABC'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import NormalDist

from tilebag.board import Board
from tilebag.errors import FormatError
from tilebag.move import Move, MoveKind

MODES = ("gen", "sim", "infer", "endgame", "peg", "auto")
UNSUPPORTED: tuple[str, ...] = ()
NUMBERS = ("depth", "iterations", "movetime", "stopcondition", "threads")
FLAGS = ("infinite", "firstwin", "useinference")
LISTS = ("searchmoves", "alsosearchmoves")
HONOURED = {
    "gen": {"searchmoves", "alsosearchmoves", "movetime", "infinite"},  # done well within any movetime
    "sim": {"searchmoves", "alsosearchmoves", "depth", "iterations", "movetime", "stopcondition", "threads", "infinite",
            "useinference"},
    "infer": {"iterations", "movetime", "infinite"},
    "endgame": {"depth", "movetime", "infinite"},
    "peg": {"searchmoves", "alsosearchmoves", "movetime", "infinite"},
}
"""The parameters each mode takes; any other given is answered ``info string ignored``."""


def siu_move(board: Board, move: Move) -> str:
    """A move in SIU notation, for the board it is played on: the letters
    played through written out, blanks in lower case, exchanged tiles sorted."""
    alphabet = board.alphabet
    if move.kind is MoveKind.EXCHANGE:
        return "ex." + "".join(alphabet.label(t) if t else "?" for t in sorted(move.tiles))
    if move.kind is not MoveKind.PLACE:
        return "pass"
    coordinate, word = board.notation(move).split(" ", 1)
    return f"{coordinate}.{word.replace('(', '').replace(')', '')}"


@dataclass(frozen=True)
class SiuMove:
    """A move of a ``moves`` list: what it does to the position.

    ``kind`` is ``place``, ``exchange`` (``move`` is None when only the
    number of tiles is known), ``pass`` or ``phony`` (a play challenged off:
    the board is unchanged). A placement may carry the points a challenge
    gave it and whether the opponent lost their turn challenging it.
    """

    kind: str
    move: Move | None
    challenge_points: int = 0
    turn_loss: bool = False
    known_tiles: bool = True


def parse_siu_move(board: Board, text: str) -> SiuMove:
    """A move from SIU notation, resolved on ``board`` (keywords and
    coordinates in either case).

    :raises FormatError: naming the move, when it is not one of SIU's forms
        or not a placement the board allows.
    """
    fields = text.split(".")
    head = fields[0].lower()
    if text.lower() == "pass":
        return SiuMove("pass", Move.pass_())
    if head == "ex" and len(fields) >= 2 and fields[1]:
        if fields[1].isdigit():
            return SiuMove("exchange", None, known_tiles=False)
        return SiuMove("exchange", Move.from_gcg("-" + fields[1], board.alphabet))
    if head == "phony" and len(fields) >= 3:
        return SiuMove("phony", _placement(board, fields[1], fields[2], check=False))
    if len(fields) < 2 or head in ("ex", "phony", "rack"):
        raise FormatError(f"{text!r} is no SIU move (8D.WORD, ex.TILES, ex.N, pass, phony.8D.WORD)")
    points = fields[3] if len(fields) > 3 else "0"
    loss = fields[4] if len(fields) > 4 else "0"
    if not points.isdigit() or loss not in ("0", "1"):
        raise FormatError(f"{text!r}: the challenge fields are points and 0 or 1")
    return SiuMove("place", _placement(board, fields[0], fields[1]), int(points), loss == "1")


def _placement(board: Board, coordinate: str, word: str, *, check: bool = True) -> Move:
    move = Move.from_gcg(f"{coordinate.upper()} {word}", board.alphabet, board.layout)
    return board.check_placement(move) if check else move


def canonical(board: Board, text: str) -> str | None:
    """The SIU text of a move as tilebag writes it (``None``: not a move
    of this board), so that moves a front end names match in any case."""
    try:
        parsed = parse_siu_move(board, text)
    except (FormatError, ValueError):
        return None
    if parsed.move is None or parsed.kind == "phony":
        return None
    return siu_move(board, parsed.move)


@dataclass
class GoLimits:
    """The parameters of one ``go``."""

    depth: int | None = None
    iterations: int | None = None
    movetime: int | None = None
    stopcondition: int | None = None
    threads: int | None = None
    infinite: bool = False
    useinference: bool = False
    searchmoves: list[str] = field(default_factory=list)
    alsosearchmoves: list[str] = field(default_factory=list)
    given: list[str] = field(default_factory=list)
    """The parameters the ``go`` named, in order."""
    malformed: list[str] = field(default_factory=list)
    """Parameters whose value was not usable (a number that is not one)."""

    def seconds(self, default: float | None, *, counted: bool = False) -> float | None:
        """How long the search may run: ``movetime``, without end for
        ``infinite``, else ``default``. A search that counts its
        ``iterations`` (``counted``) and is given them without a ``movetime``
        is bounded by them alone, as a chess engine's ``go nodes`` is, so the
        same ``go`` does the same work however busy the machine is.

        >>> GoLimits(iterations=16).seconds(1.0, counted=True) == 10.0**9
        True
        >>> GoLimits(iterations=16, movetime=200).seconds(1.0, counted=True), GoLimits().seconds(1.0, counted=True)
        (0.2, 1.0)
        """
        if self.infinite:
            return 10.0**9
        if self.movetime is not None:
            return max(0.001, self.movetime / 1000)
        if counted and self.iterations is not None:
            return 10.0**9
        return default

    def ignored(self, mode: str) -> list[str]:
        """What a search in ``mode`` cannot honour, each once, in order."""
        honoured = HONOURED.get(mode, set())
        out: list[str] = []
        for name in self.given + self.malformed:
            if (name not in honoured or name in self.malformed) and name not in out:
                out.append(name)
        return out

    def z(self, default: float) -> float:
        """How many standard errors apart a sim's candidates must be to drop
        one: from ``stopcondition`` (a percentage), else ``default``."""
        if self.stopcondition is None:
            return default
        return NormalDist().inv_cdf(1 - (1 - self.stopcondition / 100) / 2)


def parse_go(words: list[str]) -> tuple[str, GoLimits]:
    """The mode and the parameters of a ``go`` (the words after it).
    Unknown words are skipped; with no mode, ``auto``.

    >>> parse_go("movetime 500 depth 2 searchmoves 8D.QI pass threads 4 firstwin".split())
    ('auto', GoLimits(depth=2, iterations=None, movetime=500, stopcondition=None, threads=4, infinite=False, useinference=False, searchmoves=['8D.QI', 'pass'], alsosearchmoves=[], given=['movetime', 'depth', 'searchmoves', 'threads', 'firstwin'], malformed=[]))
    >>> parse_go("joho SIM movetime soon stopcondition 100".split())[0], parse_go("sim movetime x stopcondition 100".split())[1].malformed
    ('sim', ['movetime', 'stopcondition'])
    """
    limits = GoLimits()
    mode = None
    keywords = NUMBERS + FLAGS + LISTS
    i = 0
    while i < len(words):
        word = words[i].lower()
        if mode is None and not limits.given and word in MODES + UNSUPPORTED:
            mode = word
            i += 1
        elif word in NUMBERS:
            limits.given.append(word)
            value = words[i + 1] if i + 1 < len(words) else ""
            if value.isdigit() and _allowed(word, int(value)):
                setattr(limits, word, int(value))
                i += 2
            else:
                limits.malformed.append(word)
                i += 2 if value and value.lower() not in keywords else 1
        elif word in LISTS:
            limits.given.append(word)
            i += 1
            while i < len(words) and words[i].lower() not in keywords:
                getattr(limits, word).append(words[i])
                i += 1
        else:
            if word in FLAGS:
                limits.given.append(word)
                limits.infinite = limits.infinite or word == "infinite"
                limits.useinference = limits.useinference or word == "useinference"
            i += 1
    return mode or "auto", limits


def _allowed(name: str, value: int) -> bool:
    if name == "stopcondition":
        return 50 <= value < 100
    return value > 0 or name == "movetime"
