"""``tilebag siu``: tilebag as an engine that speaks SIU (draft 0.2), the
line protocol crossword-game front ends drive analysis engines with.

The main thread reads commands at all times; a search runs on a thread of
its own and is ended by ``stop`` (or its limits), after which it sends its
last ``info`` lines and exactly one ``bestmove``. ``isready`` is answered
at once, searching or not. Modes: ``gen`` (the static ranking), ``sim``
(:class:`tilebag.engine.sim.SimPlayer`), ``endgame``
(:func:`tilebag.engine.endgame.solve`) and ``auto`` (the endgame once the
bag is empty, the sim before). Moves are written as SIU writes them:
``8D.DJINN`` (the letters played through written out), ``ex.ABC``, ``pass``.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from tilebag import __version__
from tilebag.alphabet import Tile
from tilebag.bag import Bag
from tilebag.board import Board
from tilebag.engine import Engine
from tilebag.engine.endgame import EndgameSolution, solve
from tilebag.engine.leaves import DEFAULT_LEAVES
from tilebag.engine.movegen import Play
from tilebag.engine.preendgame import solve_preendgame
from tilebag.engine.sim import SimPlayer, SimResult
from tilebag.engine.winpct import WinTable
from tilebag.errors import FormatError, TilebagError
from tilebag.formats import cgp
from tilebag.lexicon import GraphLexicon, load_lexicon
from tilebag.move import Move, MoveKind
from tilebag.position import Position

MODES = ("gen", "sim", "endgame", "peg", "auto")
UNSUPPORTED = ("infer",)
OPTIONS = (
    "option name DataPath type string default <empty>",
    "option name Lexicon type string default kjxqz",
    "option name Leaves type string default trained",
    "option name WinPctTable type string default tilebag-selfplay",
    "option name EndgameHash type spin default 256 min 1 max 65536",
    "option name Threads type spin default 1 min 1 max 1",
)
DEFAULT_SIM_SECONDS = 5.0
GEN_LINES = 10


def siu_move(board: Board, move: Move) -> str:
    """A move in SIU notation, for the board it is played on."""
    alphabet = board.alphabet
    if move.kind is MoveKind.EXCHANGE:
        return "ex." + "".join(alphabet.label(t) if t else "?" for t in move.tiles)
    if move.kind is not MoveKind.PLACE:
        return "pass"
    coordinate, word = board.notation(move).split(" ", 1)
    return f"{coordinate}.{word.replace('(', '').replace(')', '')}"


def parse_siu_move(board: Board, text: str) -> Move:
    """A move from SIU notation (``8D.DJINN``, ``ex.ABC``, ``pass``), resolved on ``board``.

    :raises TilebagError: when it is not a move of the board.
    """
    fields = text.split(".")
    if text == "pass":
        return Move.pass_()
    if fields[0] == "ex" and len(fields) >= 2:
        return Move.from_gcg("-" + fields[1], board.alphabet)
    if len(fields) < 2:
        raise FormatError(f"{text!r} is no SIU move")
    return board.check_placement(Move.from_gcg(f"{fields[0]} {fields[1]}", board.alphabet, board.layout))


class State:
    """The position the front end set, as a light position for the player to move."""

    def __init__(self, parsed: cgp.Position, lexicon: GraphLexicon) -> None:
        self.parsed = parsed
        self.rules = parsed.rules()
        self.board = parsed.board
        self.scores = list(parsed.scores)
        self.zero_turns = parsed.zero_turns
        self.racks: list[list[Tile] | None] = [list(parsed.racks[0]), list(parsed.racks[1]) if parsed.racks[1] else None]
        if not self.racks[0]:
            self.racks[0] = None
        self.turn = 0
        self.lexicon = lexicon

    def play(self, move: Move) -> None:
        """A move of the player to move (from ``moves``): the board, score and turn change."""
        me = self.turn
        if move.kind is MoveKind.PLACE:
            self.scores[me] += self.board.score(move, bingo_tiles=self.rules.bingo_tiles, bingo_bonus=self.rules.bingo_bonus)
            self.board.place(move)
            self.zero_turns = 0
        else:
            self.zero_turns += 1
        self.racks[me] = None  # what was drawn is not known
        self.turn = 1 - me

    def unseen(self) -> list[Tile]:
        """Tiles the player to move cannot see: every tile, less the board
        and their own rack (the opponent's rack is among them, known or not)."""
        left = self.board.alphabet.distribution()
        for tile in [t for t in self.board.tiles if t] + (self.rack or []):
            tile = 0 if tile & 128 else tile  # a blank on the board is a blank
            if tile in left:
                left.remove(tile)
        return left

    @property
    def rack(self) -> list[Tile] | None:
        return self.racks[self.turn]

    def position(self) -> tuple[Position, list[Tile], int]:
        """The light position for the search (the opponent's rack as the
        front end gave it, or drawn from the unseen tiles; the rest in the
        bag), the tiles unseen by the player to move, and how many of them
        the opponent holds. A simulation deals the opponent's rack afresh
        each iteration from the unseen tiles; the endgame uses it as given."""
        unseen = self.unseen()
        other = self.racks[1 - self.turn]
        if other is None:
            other = unseen[: min(self.rules.rack_size, len(unseen))]
        bag = list(unseen)
        for tile in other:
            bag.remove(tile)
        position = Position(
            self.board.copy(), [list(self.rack or []), list(other)], Bag(self.board.alphabet, tiles=bag, seed=1),
            [self.scores[self.turn], self.scores[1 - self.turn]], scoreless=self.zero_turns,
            rack_size=self.rules.rack_size, bingo_tiles=self.rules.bingo_tiles, bingo_bonus=self.rules.bingo_bonus,
        )
        return position, unseen, len(other)


class SiuEngine:
    """One SIU session over a pair of text streams."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._write_lock = threading.Lock()
        self.options: dict[str, str] = {}
        self.state: State | None = None
        self._search: threading.Thread | None = None
        self._stop = threading.Event()
        self._queue_lock = threading.RLock()
        self._pending: list[str] = []
        self._idle = threading.Event()
        self._idle.set()
        self._engines: dict[tuple[str, str], tuple[GraphLexicon, Engine]] = {}

    def say(self, line: str) -> None:
        with self._write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, code: str, text: str) -> None:
        self.say(f"info string error {code} {text}")

    # -- commands --------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Carry out one command line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command = words[0].lower()
        if command == "siu":
            self.say(f"id name tilebag {__version__}")
            self.say("id author the tilebag developers")
            self.say("capability gen sim endgame peg auto stream stop")
            for option in OPTIONS:
                self.say(option)
            self.say("siuok")
        elif command == "isready":
            self.say("readyok")
        elif command == "quit":
            self._end_search()
            return False
        elif command == "stop":
            self._stop.set()
        elif self._queue_while_searching(line):
            pass  # carried out, in order, once the search has sent its bestmove
        elif command == "setoption":
            self.set_option(line)
        elif command == "siunewgame":
            self.state = None
        elif command == "position":
            self.set_position(line)
        elif command == "go":
            self.go(words[1:])
        else:
            self.error("unknown-command", command[:40])
        return True

    def set_option(self, line: str) -> None:
        text = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
        lowered = text.lower()
        if not lowered.startswith("name "):
            self.error("unknown-command", "setoption name <Name> [value <v>]")
            return
        name, _, value = text[5:].partition(" value ")
        if " value" in lowered and not value:
            name = text[5:].rsplit(" value", 1)[0]
        self.options[name.strip().lower()] = value.strip()

    def lexicon_and_engine(self, named: str | None) -> tuple[GraphLexicon, Engine]:
        """The lexicon a position names (or the option's, or the default) and
        its engine; a lexicon not found is said, and the default used."""
        wanted = named or self.options.get("lexicon") or None
        leaves = self.options.get("leaves") or DEFAULT_LEAVES
        key = (str(wanted).lower(), leaves)
        if key not in self._engines:
            lexicon = None
            if wanted is not None and wanted.lower() != "kjxqz":
                for folder in filter(None, self.options.get("datapath", "").split(";")):
                    for suffix in (".kwg", ".txt", ""):
                        path = Path(folder) / f"{wanted}{suffix}"
                        if path.is_file():
                            lexicon = load_lexicon(path)
                            break
                    if lexicon is not None:
                        break
                if lexicon is None:
                    self.say(f"info string lexicon {wanted} not found in DataPath: using kjxqz")
            lexicon = lexicon or load_lexicon(None)
            engine = Engine.for_lexicon(lexicon)
            if leaves.lower() != DEFAULT_LEAVES:
                from tilebag.engine.leaves import HEURISTIC, load_leaves

                try:
                    source: str | Path = HEURISTIC if leaves.lower() == HEURISTIC else self._data_file(leaves)
                    engine = engine.with_leaves(load_leaves(source, lexicon.alphabet))
                except (TilebagError, OSError) as err:
                    self.say(f"info string leaves {leaves} not usable ({err}): using {engine.leaves.name}")
            self._engines[key] = (lexicon, engine)
        return self._engines[key]

    def _data_file(self, name: str) -> Path:
        for folder in filter(None, self.options.get("datapath", "").split(";")):
            if (Path(folder) / name).is_file():
                return Path(folder) / name
        return Path(name)

    def set_position(self, line: str) -> None:
        words = line.split()
        if len(words) < 3 or words[1].lower() != "cgp":
            self.error("bad-position", "position cgp <cgp> [moves <move> ...]")
            return
        moves: list[str] = []
        if "moves" in words:
            at = words.index("moves")
            moves, words = words[at + 1 :], words[:at]
        try:
            parsed = cgp.parse(" ".join(words[2:]))
            if len(parsed.racks) != 2:
                raise FormatError("tilebag's engine analyses two-player positions")
            lexicon, _ = self.lexicon_and_engine(parsed.lexicon)
            state = State(parsed, lexicon)
        except (TilebagError, ValueError) as err:
            self.state = None
            self.error("bad-position", str(err))
            return
        for text in moves:
            if text.startswith("rack."):
                try:
                    state.racks[state.turn] = parsed.alphabet.parse_rack(text[5:].replace("[", "").replace("]", ""))
                except TilebagError as err:
                    self.error("bad-move", f"{text}: {err}")
                continue
            try:
                state.play(parse_siu_move(state.board, text))
            except (TilebagError, ValueError) as err:
                self.state = None
                self.error("bad-move", f"{text}: {err}")
                return
        self.state = state

    # -- searching -------------------------------------------------------------

    def searching(self) -> bool:
        with self._queue_lock:
            return self._search is not None

    def _queue_while_searching(self, line: str) -> bool:
        """Keep a command for after the search, if one is running."""
        with self._queue_lock:
            if self._search is None:
                return False
            self._pending.append(line)
            return True

    def _finished(self) -> None:
        """The search sent its bestmove: carry out what came meanwhile."""
        with self._queue_lock:
            self._search = None
            pending, self._pending = self._pending, []
        for line in pending:
            self.handle(line)

    def _end_search(self) -> None:
        """Stop the search, if one runs, and drop what was waiting for it."""
        with self._queue_lock:
            self._pending.clear()
        self._stop.set()
        self._idle.wait()

    def wait(self) -> None:
        """Wait until no search runs and nothing waits for one (the end of input)."""
        self._idle.wait()

    def go(self, words: list[str]) -> None:
        mode = words[0].lower() if words and words[0].lower() in MODES + UNSUPPORTED else "auto"
        args = words[1:] if words and words[0].lower() in MODES + UNSUPPORTED else words
        if self.state is None:
            self.error("no-position", "send position cgp ... before go")
            self.say("bestmove none")
            return
        if mode in UNSUPPORTED:
            self.error("unsupported-mode", mode)
            self.say("bestmove none")
            return
        limits = parse_go(args)
        for ignored in limits.ignored:
            self.say(f"info string ignored {ignored}")
        self._stop.clear()
        self._idle.clear()
        with self._queue_lock:
            self._search = threading.Thread(target=self._run, args=(mode, limits), name="siu-search", daemon=True)
            self._search.start()

    def _run(self, mode: str, limits: GoLimits) -> None:
        best = "none"
        try:
            state = self.state
            assert state is not None
            lexicon, engine = self.lexicon_and_engine(state.parsed.lexicon)
            position, unseen, opponent_size = state.position()
            wins = self.options.get("winpcttable") or "tilebag-selfplay"
            self.say(
                f"info string provenance engine=tilebag/{__version__} leaves={engine.leaves.name} "
                f"winpct={wins} lexicon={lexicon.name}"
            )
            if state.rack is None:
                self.error("bad-position", "the rack of the player to move is not known")
                return
            bag_count = len(position.bag)
            if mode == "auto":
                mode = "endgame" if bag_count <= 0 and state.racks[1 - state.turn] is not None else "sim"
                mode = "peg" if bag_count == 1 else mode
            if mode == "endgame":
                best = self._endgame(position, engine, bag_count, limits, state)
            elif mode == "peg":
                best = self._peg(position, engine, unseen, limits, state)
            else:
                plays = list(engine.plays(position.board, position.racks[0], bag_count=max(0, bag_count)))
                plays = _chosen(plays, limits, state.board)
                if not plays:
                    best = "pass"
                elif mode == "gen":
                    best = self._gen(plays, state.board, engine)
                else:
                    best = self._sim(position, engine, plays, unseen, opponent_size, limits, state.board)
        except Exception as err:  # a search must end with a bestmove, whatever went wrong
            self.error("bad-position", f"{type(err).__name__}: {err}")
        finally:
            self.say(f"bestmove {best}")
            self._finished()
            if not self.searching():
                self._idle.set()

    def _gen(self, plays: list[Play], board: Board, engine: Engine) -> str:
        for play in plays[:GEN_LINES]:
            leave = engine.alphabet.format_rack(play.leave) or "-"
            self.say(f"info gen move {siu_move(board, play.move)} score {play.score} eq {play.equity / 1000:.2f} leave {leave}")
        return siu_move(board, plays[0].move)

    def _sim(self, position: Position, engine: Engine, plays: list[Play], unseen: list[Tile], opponent_size: int,
             limits: GoLimits, board: Board) -> str:
        if len(plays) == 1:
            return siu_move(board, plays[0].move)
        seconds = limits.seconds(DEFAULT_SIM_SECONDS) or DEFAULT_SIM_SECONDS
        iterations = limits.iterations or 100_000
        sim = SimPlayer("siu", plies=limits.depth or 2, seconds=seconds, iterations=iterations,
                        candidates=len(plays), engine=engine,
                        wins=WinTable.load() if (self.options.get("winpcttable") or "tilebag-selfplay") == "tilebag-selfplay"
                        else WinTable.load(self._data_file(self.options["winpcttable"])))
        z = {95: 1.96, 98: 2.33, 99: 2.58}.get(limits.stopcondition or 99, 2.58)
        last = [0.0]

        def report(result: SimResult) -> None:
            if time.monotonic() - last[0] >= 0.5:
                last[0] = time.monotonic()
                self._sim_lines(result, board)

        result = sim.simulate_position(position, engine, plays[: sim.candidates], unseen=unseen, opponent_size=opponent_size,
                                       stop=self._stop.is_set, on_round=report, z=z)
        self._sim_lines(result, board)
        return siu_move(board, result.candidates[0].play.move)

    def _sim_lines(self, result: SimResult, board: Board) -> None:
        for c in result.candidates[:GEN_LINES]:
            n = len(c.values)
            error = c.error if n > 1 else 0.0
            self.say(
                f"info sim move {siu_move(board, c.play.move)} wp {100 * c.win_chance:.1f} wpse {100 * error / 1_000_000:.1f} "
                f"eq {c.equity:.1f} eqse {_points_error(c.points):.1f} iters {n}"
            )

    def _endgame(self, position: Position, engine: Engine, bag_count: int, limits: GoLimits, state: State) -> str:
        if bag_count > 0 or state.racks[1 - state.turn] is None:
            self.error("bad-position", "an endgame needs an empty bag and both racks")
            return "none"
        seconds = limits.seconds(None)
        depth = limits.depth or 30
        megabytes = int(self.options.get("endgamehash", "256") or 256)

        def line(found: EndgameSolution) -> None:
            pv = " ".join(_pv(state.board, found))
            self.say(f"info endgame depth {found.depth} score spread {found.gain:+d} pv {pv}")
            self.say(f"info depth {found.depth} nodes {found.nodes} time {int(found.seconds * 1000)}")

        solution = solve(position, engine, max_depth=depth, seconds=seconds, table_megabytes=megabytes,
                         stop=self._stop.is_set, on_line=line)
        return siu_move(state.board, solution.moves[0].move) if solution.moves else "pass"


    def _peg(self, position: Position, engine: Engine, unseen: list[Tile], limits: GoLimits, state: State) -> str:
        """``go peg``: the pre-endgame, one tile in the bag, each candidate's
        wins, draws and losses over the tiles the bag may hold."""
        if len(position.bag) != 1:
            self.error("bad-position", "a pre-endgame needs exactly one tile in the bag")
            return "none"
        known = state.racks[1 - state.turn] is not None
        plays = [p for p in engine.plays(position.board, position.racks[0], bag_count=1) if p.move.kind is MoveKind.PLACE]
        if not plays:
            return "pass"
        chosen = _chosen(plays, limits, state.board) if limits.searchmoves or limits.alsosearchmoves else None
        result = solve_preendgame(
            position, engine, unseen=unseen, draws=position.bag.tiles() if known else None,
            moves=[p.move for p in chosen] if chosen else None, seconds=limits.seconds(None), stop=self._stop.is_set,
        )
        alphabet = engine.alphabet
        for candidate in result.plays:
            groups: dict[str, list[str]] = {"w": [], "d": [], "l": []}
            for outcome in candidate.outcomes:
                kind = "w" if outcome.spread > 0 else "d" if outcome.spread == 0 else "l"
                groups[kind].append(alphabet.label(outcome.tile) if outcome.tile else "?")
            draws = " ".join(f"{kind}:{'|'.join(tiles)}" for kind, tiles in groups.items())
            self.say(f"info peg move {siu_move(state.board, candidate.play.move)} {draws} spread {round(candidate.spread):+d}")
        self.say(f"info nodes {result.endgames} time {int(result.seconds * 1000)}")
        return siu_move(state.board, (result.plays[0].play if result.plays else plays[0]).move)


def _pv(board: Board, found: EndgameSolution) -> list[str]:
    """The solution's line in SIU notation (each move on the board as it then stands)."""
    board = board.copy()
    out = []
    for step in found.moves:
        out.append(siu_move(board, step.move))
        if step.move.kind is MoveKind.PLACE:
            board.place(step.move)
    return out


def _points_error(points: list[int]) -> float:
    import statistics

    return statistics.stdev(points) / 1000 / len(points) ** 0.5 if len(points) > 1 else 0.0


@dataclass
class GoLimits:
    """The parameters of one ``go``."""

    depth: int | None = None
    iterations: int | None = None
    movetime: int | None = None
    stopcondition: int | None = None
    infinite: bool = False
    searchmoves: list[str] = field(default_factory=list)
    alsosearchmoves: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    """Parameters tilebag cannot honour (said in an ``info string ignored`` line)."""

    def seconds(self, default: float | None) -> float | None:
        if self.infinite:
            return 10.0**9
        if self.movetime is not None:
            return max(0.001, self.movetime / 1000)
        return default


NUMBERS = ("depth", "iterations", "movetime", "stopcondition", "threads")
FLAGS = ("infinite", "firstwin", "useinference")


def _chosen(plays: list[Play], limits: GoLimits, board: Board) -> list[Play]:
    """The plays a ``go`` asks for: ``searchmoves`` only, or the best ten and ``alsosearchmoves``."""
    if limits.searchmoves:
        return [p for p in plays if siu_move(board, p.move) in limits.searchmoves]
    chosen = plays[:GEN_LINES]
    chosen += [p for p in plays[GEN_LINES:] if siu_move(board, p.move) in limits.alsosearchmoves]
    return chosen


def parse_go(words: list[str]) -> GoLimits:
    """The parameters of a ``go`` after its mode.

    >>> parse_go("movetime 500 depth 2 searchmoves 8D.QI pass threads 4 firstwin".split())
    GoLimits(depth=2, iterations=None, movetime=500, stopcondition=None, infinite=False, searchmoves=['8D.QI', 'pass'], alsosearchmoves=[], ignored=['threads', 'firstwin'])
    """
    limits = GoLimits()
    i = 0
    while i < len(words):
        word = words[i].lower()
        if word in NUMBERS and i + 1 < len(words) and words[i + 1].isdigit():
            if word == "threads":
                limits.ignored.append("threads")  # one search thread
            else:
                setattr(limits, word, int(words[i + 1]))
            i += 2
        elif word in ("searchmoves", "alsosearchmoves"):
            i += 1
            while i < len(words) and words[i].lower() not in NUMBERS + FLAGS + ("searchmoves", "alsosearchmoves"):
                getattr(limits, word).append(words[i])
                i += 1
        else:
            if word == "infinite":
                limits.infinite = True
            elif word in ("firstwin", "useinference"):
                limits.ignored.append(word)
            i += 1
    return limits


def run(stdin: TextIO | None = None, stdout: TextIO | None = None, on_exit: Callable[[], None] | None = None) -> int:
    """Read commands until ``quit`` or the end of input."""
    engine = SiuEngine(stdout or sys.stdout)
    for line in stdin or sys.stdin:
        if not engine.handle(line.strip()):
            break
    else:  # the end of input: what was asked is finished first
        engine.wait()
    if on_exit is not None:
        on_exit()
    return 0


def main(_: object) -> int:
    """``tilebag siu``."""
    try:
        return run()
    except KeyboardInterrupt:
        return 130
