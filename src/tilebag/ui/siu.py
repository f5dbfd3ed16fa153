"""``tilebag siu``: tilebag as an engine that speaks SIU (draft 0.2), the
line protocol crossword-game front ends drive analysis engines with.

The main thread reads commands at all times; a search runs on a thread of
its own and is ended by ``stop`` (or its limits), after which it sends its
last ``info`` lines and exactly one ``bestmove``. ``isready`` is answered
at once, searching or not. Modes: ``gen`` (the static ranking), ``sim``
(:class:`tilebag.engine.montecarlo.sim.SimPlayer`), ``endgame``
(:func:`tilebag.engine.endgame.solver.solve`), ``peg`` and ``auto`` (the endgame
once the bag is empty, the pre-endgame with one tile in it, the sim
before), and ``infer`` (the opponent's likely leaves, streamed; it needs
the opponent's last play, not the rack of the player to move). Moves are
written as SIU writes them (:mod:`tilebag.ui.siu_notation`). A ``go``
before any ``position`` is the ``no-position`` error: no search, so no
``bestmove``; one on a position in a variant other than classic (CGP's
``var`` opcode) is the ``unsupported-mode`` error, ended ``bestmove none``.

A search ends at the first of its limits; a sim stops early only on a
``stopcondition``, and ``infinite`` waits for ``stop``. Every mode uses the
``Threads`` option's cores (default: all): the endgame and the pre-endgame's
endgames as threads of the compiled search, a sim as processes, forked
before the search's thread starts;
input is read with ``os.read`` so that no thread holds a lock of
``sys.stdin`` that a forked process would wait on.
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from tilebag import __version__
from tilebag.alphabet import Tile
from tilebag.bag import Bag
from tilebag.board import Board
from tilebag.engine import Engine
from tilebag.engine.bots.champion import fitting_search
from tilebag.engine.endgame.preendgame import solve_preendgame
from tilebag.engine.endgame.solver import MOST_THREADS, EndgameSolution, solve
from tilebag.engine.equity.leaves import DEFAULT_LEAVES
from tilebag.engine.equity.winpct import WinTable
from tilebag.engine.montecarlo.inference import Inference, infer_after
from tilebag.engine.montecarlo.sim import DROP_Z, INFER_AT_LEAST, LATE_BAG, SimPlayer, SimResult, start_workers
from tilebag.engine.movegen.generator import Play
from tilebag.errors import FormatError, TilebagError
from tilebag.formats import cgp
from tilebag.lexicon import GraphLexicon, load_lexicon
from tilebag.move import Move, MoveKind
from tilebag.position import Position
from tilebag.ui.siu_notation import UNSUPPORTED, GoLimits, SiuMove, canonical, parse_go, parse_siu_move, siu_move

CORES = os.cpu_count() or 1
DEFAULT_HASH = 64

OPTIONS = (
    "option name DataPath type string default <empty>",
    "option name Lexicon type string default kjxqz",
    "option name Leaves type string default trained",
    "option name WinPctTable type string default tilebag-selfplay",
    f"option name EndgameHash type spin default {DEFAULT_HASH} min 1 max 65536",
    f"option name Threads type spin default {CORES} min 1 max {CORES}",
)
NUMERIC_OPTIONS = {"endgamehash": (DEFAULT_HASH, 65536), "threads": (CORES, CORES)}
"""Spin options: the default and the most each takes (the least is 1)."""
COMMANDS = ("siu", "isready", "quit", "stop", "setoption", "siunewgame", "position", "go")
DEFAULT_SIM_SECONDS = 5.0
INFER_SECONDS = 1.0
"""How long a ``go infer`` draws leaves without a ``movetime``."""
INFER_SAMPLES = 5000
"""Leaves a ``go infer`` draws at most without ``iterations``."""
INFER_LINES = 20
"""The likeliest leaves a ``go infer`` reports."""
NEEDS = {"endgame": "an empty bag", "peg": "one or two tiles in the bag"}
"""What the bag must hold for the solving modes."""
VARIANTS = ("classic",)
"""The variants (CGP's ``var`` opcode) every mode searches; a ``go`` on a
position in another is the ``unsupported-mode`` error."""

GEN_LINES = 10


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
        self.last_place: tuple[int, Move, int] | None = None
        """The last move of ``moves`` when it was a placement: who played it, the move and its score."""

    def play(self, played: SiuMove) -> None:
        """A move of the player to move (from ``moves``): the board, the
        scores and the turn change; what the player drew is not known."""
        me = self.turn
        move = played.move
        self.last_place = None
        if played.kind == "place" and move is not None:
            rules = self.rules
            score = self.board.score(move, bingo_tiles=rules.bingo_tiles, bingo_bonus=rules.bingo_bonus)
            self.scores[me] += score + played.challenge_points
            self.last_place = (me, move, score)
            self.board.place(move)
            self.zero_turns = 0
            self.racks[me] = None
        else:
            self.zero_turns += 1
            if played.kind != "phony":  # a play challenged off goes back to the rack
                self.racks[me] = None
        self.turn = 1 - me
        if played.turn_loss:  # the opponent challenged the play and lost their turn
            self.zero_turns += 1
            self.turn = me

    def unseen(self) -> list[Tile]:
        """Tiles the player to move cannot see: every tile, less the board
        and their own rack (the opponent's rack is among them, known or not)."""
        left = self.board.alphabet.distribution()
        for tile in [t for t in self.board.tiles if t] + (self.rack or []):
            tile = 0 if tile & 128 else tile  # a blank on the board is a blank
            if tile in left:
                left.remove(tile)
        return left

    def infer(self, engine: Engine, *, samples: int, seconds: float, stop: Callable[[], bool],
              progress: Callable[[Inference], None] | None = None, every: float = 0.5) -> Inference | str:
        """The leaves that explain the opponent's last placement (the last
        of ``moves``; see :mod:`tilebag.engine.montecarlo.inference`), or why there is
        nothing to infer. The rack of the player to move is not needed: the
        tiles they cannot see then include it. Leaves are drawn ``every``
        seconds at a time, and what was found so far is given to
        ``progress`` after each stretch but the last. The leaves found for
        a number of samples do not depend on how fast they were drawn."""
        if self.last_place is None or self.last_place[0] == self.turn:
            return "the last of the moves is not the opponent's placement"
        if self.racks[1 - self.turn] is not None:
            return "the opponent's rack is given"
        _, move, score = self.last_place
        unseen = self.unseen()
        size = min(self.rules.rack_size, len(unseen))
        deadline = time.monotonic() + seconds
        leaves: list[tuple[Tile, ...]] = []
        tried = 0
        draws = random.Random(len(unseen))  # one stream over the stretches: the same samples, the same leaves
        while True:
            left = max(0.0, deadline - time.monotonic())
            part = infer_after(engine, self.board, move, score, unseen, size, bag_count=len(unseen) - size,
                               seed=draws, samples=samples - tried, seconds=min(every, left), stop=stop)
            if part is None:
                return "the play used the whole rack, or the bag is empty"
            leaves += part.leaves
            tried += part.tried
            found = Inference(tuple(leaves), tried)
            if tried >= samples or time.monotonic() >= deadline or stop():
                return found
            if progress is not None:
                progress(found)

    @property
    def rack(self) -> list[Tile] | None:
        return self.racks[self.turn]

    def opponent_known(self) -> bool:
        """Whether the opponent's rack is known: given, or all the tiles
        unseen once the bag is empty."""
        return self.racks[1 - self.turn] is not None or len(self.unseen()) <= self.rules.rack_size

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
        self._inferred: tuple[State, Inference] | None = None
        """The last ``go infer``'s position and what it found."""
        self._search: threading.Thread | None = None
        self._infinite = False  # the running search goes on until stop
        self._stop = threading.Event()
        self._queue_lock = threading.RLock()
        self._pending: list[str] = []
        self._idle = threading.Event()
        self._idle.set()
        self._engines: dict[tuple[str, str, str], tuple[GraphLexicon, Engine]] = {}
        self._wins: dict[tuple[str, str], tuple[str, WinTable]] = {}

    def say(self, line: str) -> None:
        with self._write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, code: str, text: str) -> None:
        self.say(f"info string error {code} {text}")

    # -- commands --------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Carry out one command line; False after ``quit``. Words before
        the first command word are skipped, as SIU asks."""
        words = line.split()
        if not words:
            return True
        at = next((i for i, word in enumerate(words) if word.lower() in COMMANDS), None)
        if at is None:
            self.error("unknown-command", words[0][:40])
            return True
        words = words[at:]
        command = words[0].lower()
        if command == "siu":
            self.say(f"id name tilebag {__version__}")
            self.say("id author the tilebag developers")
            self.say("capability gen sim infer endgame peg auto stream stop")
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
        elif self._queue_while_searching(" ".join(words)):
            pass  # carried out, in order, once the search has sent its bestmove
        elif command == "setoption":
            self.set_option(words[1:])
        elif command == "siunewgame":
            self.state = None
        elif command == "position":
            self.set_position(words[1:])
        elif command == "go":
            self.go(words[1:])
        return True

    def set_option(self, words: list[str]) -> None:
        """``setoption name <Name> [value <v>]``: names and keywords in any case."""
        lowered = [w.lower() for w in words]
        if "name" not in lowered:
            self.error("unknown-command", "setoption name <Name> [value <v>]")
            return
        at = lowered.index("name")
        ends = lowered.index("value") if "value" in lowered[at:] else len(words)
        name = " ".join(lowered[at + 1 : ends])
        value = " ".join(words[ends + 1 :])
        if name in NUMERIC_OPTIONS:
            default, most = NUMERIC_OPTIONS[name]
            if not value.isdigit() or not 1 <= int(value) <= most:
                kept = self.options.get(name, str(default))
                self.say(f"info string option {name} takes a whole number from 1 to {most}: keeping {kept}")
                return
        elif name not in ("datapath", "lexicon", "leaves", "winpcttable"):
            self.say(f"info string no option named {name}: ignored")
            return
        self.options[name] = value

    def lexicon_and_engine(self, named: str | None) -> tuple[GraphLexicon, Engine]:
        """The lexicon a position names (or the option's, or the default) and
        its engine; a lexicon not found is said, and the default used."""
        wanted = named or self.options.get("lexicon") or None
        leaves = self.options.get("leaves") or DEFAULT_LEAVES
        key = (str(wanted).lower(), leaves.lower(), self.options.get("datapath", ""))
        if key not in self._engines:
            lexicon = None
            if wanted is not None and wanted.lower() != "kjxqz":
                for suffix in (".kwg", ".txt", ""):
                    path = self._data_file(f"{wanted}{suffix}")
                    if path is not None:
                        lexicon = load_lexicon(path)
                        break
                if lexicon is None:
                    self.say(f"info string lexicon {wanted} not found in DataPath: using kjxqz")
            lexicon = lexicon or load_lexicon(None)
            engine = Engine.for_lexicon(lexicon)
            if leaves.lower() != DEFAULT_LEAVES:
                from tilebag.engine.equity.leaves import HEURISTIC, load_leaves

                try:
                    found = self._data_file(leaves)
                    source: str | Path = HEURISTIC if leaves.lower() == HEURISTIC else found or Path(leaves)
                    engine = engine.with_leaves(load_leaves(source, lexicon.alphabet))
                except (TilebagError, OSError) as err:
                    self.say(f"info string leaves {leaves} not usable ({err}): using {engine.leaves.name}")
            self._engines[key] = (lexicon, engine)
        return self._engines[key]

    def _data_file(self, name: str) -> Path | None:
        """A file of that name, in any case, in a DataPath folder."""
        for folder in filter(None, self.options.get("datapath", "").split(";")):
            try:
                entries = sorted(Path(folder).iterdir())
            except OSError:
                continue
            for entry in entries:
                if entry.name.lower() == name.lower() and entry.is_file():
                    return entry
        return None

    def wins(self) -> tuple[str, WinTable]:
        """The win % table the WinPctTable option names, and its name (the
        built-in one, said, when the named one cannot be read); each is read
        once a session, not at every ``go``."""
        named = self.options.get("winpcttable") or "tilebag-selfplay"
        key = (named.lower(), self.options.get("datapath", ""))
        if key not in self._wins:
            if named.lower() != "tilebag-selfplay":
                try:
                    self._wins[key] = (named, WinTable.load(self._data_file(named) or Path(named)))
                    return self._wins[key]
                except (TilebagError, OSError, ValueError) as err:
                    self.say(f"info string winpct {named} not usable ({err}): using tilebag-selfplay")
            self._wins[key] = ("tilebag-selfplay", WinTable.load())
        return self._wins[key]

    def set_position(self, words: list[str]) -> None:
        if len(words) < 2 or words[0].lower() != "cgp":
            self.error("bad-position", "position cgp <cgp> [moves <move> ...]")
            return
        lowered = [w.lower() for w in words]
        moves: list[str] = []
        if "moves" in lowered:
            at = lowered.index("moves")
            moves, words = words[at + 1 :], words[:at]
        try:
            parsed = cgp.parse(" ".join(words[1:]))
            if len(parsed.racks) != 2:
                raise FormatError("tilebag's engine analyses two-player positions")
            lexicon, _ = self.lexicon_and_engine(parsed.lexicon)
            state = State(parsed, lexicon)
        except (TilebagError, ValueError) as err:
            self.state = None
            self.error("bad-position", str(err))
            return
        for number, text in enumerate(moves):
            try:
                if text.lower().startswith("rack."):
                    if number != len(moves) - 1:
                        raise FormatError("rack.<tiles> comes last in a moves list")
                    state.racks[state.turn] = parsed.alphabet.parse_rack(text[5:].replace("[", "").replace("]", ""))
                else:
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

    def end_of_input(self) -> None:
        """No more input: a search told to go on until ``stop`` will never
        hear it, so it stops; any other finishes first."""
        with self._queue_lock:
            infinite = self._search is not None and self._infinite
        if infinite:
            self._stop.set()
        self._idle.wait()

    def go(self, words: list[str]) -> None:
        mode, limits = parse_go(words)
        if self.state is None:  # forced mode: no search without a position, so no bestmove either
            self.error("no-position", "send position cgp ... before go")
            return
        variant = self.state.parsed.variant
        if mode in UNSUPPORTED or (variant is not None and variant.lower() not in VARIANTS):
            if mode in UNSUPPORTED:
                self.error("unsupported-mode", mode)
            else:
                self.error("unsupported-mode", f"{mode}: tilebag searches the {' and '.join(VARIANTS)} variant, not {variant}")
            self.say("bestmove none")
            return
        threads = limits.threads or int(self.options.get("threads") or CORES)
        simulates = mode == "sim" or (mode == "auto" and len(self.state.unseen()) > self.state.rules.rack_size + 1)
        if simulates and threads > 1 and self.state.rack is not None:
            _, engine = self.lexicon_and_engine(self.state.parsed.lexicon)
            start_workers(engine, threads)  # forked here, while this is the only thread
        self._stop.clear()
        self._idle.clear()
        with self._queue_lock:
            self._infinite = limits.infinite
            self._search = threading.Thread(target=self._run, args=(mode, limits, threads), name="siu-search", daemon=True)
            self._search.start()

    def _run(self, mode: str, limits: GoLimits, threads: int) -> None:
        best = "none"
        try:
            state = self.state
            assert state is not None
            lexicon, engine = self.lexicon_and_engine(state.parsed.lexicon)
            position, unseen, opponent_size = state.position()
            bag_count = len(position.bag)
            mode = self._fitting(mode, bag_count, state)
            for name in limits.ignored(mode):
                self.say(f"info string ignored {name}")
            wins_name, wins = self.wins()
            self.say(
                f"info string provenance engine=tilebag/{__version__} leaves={engine.leaves.name} "
                f"winpct={wins_name} lexicon={lexicon.name}"
            )
            if mode == "infer":  # the opponent's last play is what counts, not the rack of the player to move
                self._infer(state, engine, limits)
            elif state.rack is None:
                self.error("bad-position", "the rack of the player to move is not known")
                return
            elif mode == "endgame":
                best = self._endgame(position, engine, limits, state, threads)
            elif mode == "peg":
                best = self._peg(position, engine, unseen, limits, state, threads)
            else:
                everything = list(engine.plays(position.board, position.racks[0], bag_count=max(0, bag_count)))
                plays = self._chosen(everything, limits, state.board)
                if not plays:
                    best = "none" if limits.searchmoves else "pass"
                elif mode == "gen":
                    best = self._gen(plays, state.board, engine, limits)
                else:
                    leaves = self._inferred_leaves(state) if limits.useinference else ()
                    best = self._sim(position, engine, plays, unseen, opponent_size, limits, state.board, wins, threads,
                                     leaves)
            if limits.infinite:
                self._stop.wait()  # searched out: the bestmove waits for stop
        except Exception as err:  # a search must end with a bestmove, whatever went wrong
            self.error("bad-position", f"{type(err).__name__}: {err}")
        finally:
            self.say(f"bestmove {best}")
            self._finished()
            if not self.searching():
                self._idle.set()

    def _fitting(self, mode: str, bag_count: int, state: State) -> str:
        """The mode that answers this position: ``auto`` picks the one that
        fits it (the pre-endgame with one or two tiles in the bag, the
        endgame with none, else the simulation); an endgame or pre-endgame asked of a
        position it does not fit is said to be so and replaced by that one
        (every ``go`` gets a move of the position, not an error)."""
        fits = fitting_search(bag_count, opponent_known=state.opponent_known())
        if mode == "auto":
            return fits
        if mode in NEEDS and mode != fits:
            self.say(f"info string {mode} needs {NEEDS[mode]}, this one holds {max(0, bag_count)}: {fits} instead")
            return fits
        return mode

    def _infer(self, state: State, engine: Engine, limits: GoLimits) -> None:
        """``go infer``: the opponent's likely leaves, each with its chance,
        kept for a ``go sim useinference`` on this position."""
        self._inferred = None
        alphabet = state.board.alphabet

        def report(found: Inference) -> None:  # streamed, as sim lines are: repeated as the chances settle
            for leave, chance in found.chances()[:INFER_LINES]:
                self.say(f"info infer leave {alphabet.format_rack(leave) or '-'} prob {chance:.4f}")

        found = state.infer(engine, samples=limits.iterations or (10**9 if limits.infinite else INFER_SAMPLES),
                            seconds=limits.seconds(INFER_SECONDS, counted=True) or INFER_SECONDS, stop=self._stop.is_set,
                            progress=report)
        if isinstance(found, str):
            self.say(f"info string nothing to infer: {found}")
            return
        self._inferred = (state, found)
        report(found)
        self.say(f"info string inferred from {found.tried} leaves drawn, {len(found.leaves)} explain the play")

    def _inferred_leaves(self, state: State) -> tuple[tuple[Tile, ...], ...]:
        """The leaves of the last ``go infer``, for a sim told ``useinference``."""
        if self._inferred is None or self._inferred[0] is not state:
            self.say("info string no go infer for this position: the opponent's racks are drawn from all the unseen tiles")
            return ()
        leaves = self._inferred[1].leaves
        if len(set(leaves)) < INFER_AT_LEAST:
            self.say(f"info string {len(leaves)} leaves explain the play, too few to use: the opponent's racks are "
                     "drawn from all the unseen tiles")
            return ()
        self.say(f"info string useinference: the opponent's racks are dealt from the {len(leaves)} leaves the last go "
                 "infer found")
        return leaves

    def _chosen(self, plays: list[Play], limits: GoLimits, board: Board) -> list[Play]:
        """The plays a ``go`` asks for: ``searchmoves`` only, or the best ten
        and ``alsosearchmoves``; a move named that is not one of the
        position's plays is said."""
        by_text = {siu_move(board, p.move): p for p in plays}
        named: list[Play] = []
        for text in limits.searchmoves + limits.alsosearchmoves:
            play = by_text.get(canonical(board, text) or "")
            if play is None:
                self.error("bad-move", f"{text}: not a play of this position")
            elif play not in named:
                named.append(play)
        if limits.searchmoves:
            return named
        return plays[:GEN_LINES] + [p for p in named if p not in plays[:GEN_LINES]]

    def _gen(self, plays: list[Play], board: Board, engine: Engine, limits: GoLimits) -> str:
        for play in plays:
            leave = engine.alphabet.format_rack(play.leave) or "-"
            self.say(f"info gen move {siu_move(board, play.move)} score {play.score} eq {play.equity / 1000:.2f} leave {leave}")
        return siu_move(board, plays[0].move)

    def _sim(self, position: Position, engine: Engine, plays: list[Play], unseen: list[Tile], opponent_size: int,
             limits: GoLimits, board: Board, wins: WinTable, threads: int,
             leaves: tuple[tuple[Tile, ...], ...] = ()) -> str:
        seconds = limits.seconds(DEFAULT_SIM_SECONDS, counted=True) or DEFAULT_SIM_SECONDS
        iterations = limits.iterations or (10**12 if limits.infinite or limits.movetime else 100_000)
        late = None if limits.depth else LATE_BAG  # a depth asked for is the plies every rollout plays
        sim = SimPlayer("siu", plies=limits.depth or 2, late=late, seconds=seconds, iterations=iterations,
                        candidates=len(plays), engine=engine, wins=wins, workers=threads)
        named = {canonical(board, text) or text for text in limits.alsosearchmoves}
        last = [time.monotonic()]

        def report(result: SimResult) -> None:
            if time.monotonic() - last[0] >= 0.5:
                last[0] = time.monotonic()
                self._sim_lines(result, board, named)

        result = sim.simulate_position(position, engine, plays, unseen=unseen, opponent_size=opponent_size,
                                       stop=self._stop.is_set, on_round=report, z=limits.z(DROP_Z),
                                       until_limits=limits.stopcondition is None, opponent_leaves=leaves)
        self._sim_lines(result, board, named, final=True)
        return siu_move(board, result.candidates[0].play.move)

    def _sim_lines(self, result: SimResult, board: Board, named: set[str], *, final: bool = False) -> None:
        """The best candidates, then any the front end named that are not
        among them. The final lines go on past the candidates still in the
        race to those dropped on the way, best first, so the front end ends
        with a ranking of the plays simulated and not only the winner."""
        ranked = [*result.candidates, *sorted(result.dropped, key=lambda c: c.mean, reverse=True)]
        shown = (ranked if final else result.candidates)[:GEN_LINES]
        shown += [c for c in ranked if all(c is not s for s in shown) and siu_move(board, c.play.move) in named]
        for c in shown:
            n = len(c.values)
            error = c.error if n > 1 else 0.0
            self.say(
                f"info sim move {siu_move(board, c.play.move)} wp {100 * c.win_chance:.1f} wpse {100 * error / 1_000_000:.1f} "
                f"eq {c.equity:.1f} eqse {_points_error(c.points):.1f} iters {n}"
            )

    def _endgame(self, position: Position, engine: Engine, limits: GoLimits, state: State, threads: int) -> str:
        """``go endgame``: the bag-empty position solved (:meth:`_fitting`
        sends only such a position) on ``threads`` threads, each deeper line streamed."""
        seconds = limits.seconds(None)
        depth = limits.depth or 30
        megabytes = int(self.options.get("endgamehash") or DEFAULT_HASH)

        def line(found: EndgameSolution) -> None:
            pv = " ".join(_pv(state.board, found))
            self.say(f"info endgame depth {found.depth} score spread {found.gain:+d} pv {pv}")
            self.say(f"info depth {found.depth} nodes {found.nodes} time {int(found.seconds * 1000)}")

        solution = solve(position, engine, max_depth=depth, seconds=seconds, table_megabytes=megabytes,
                         stop=self._stop.is_set, on_line=line, threads=min(threads, MOST_THREADS))
        return siu_move(state.board, solution.moves[0].move) if solution.moves else "pass"

    def _peg(self, position: Position, engine: Engine, unseen: list[Tile], limits: GoLimits, state: State,
             threads: int) -> str:
        """``go peg``: the pre-endgame, one or two tiles in the bag, each
        candidate's wins, draws and losses over the tiles the bag may hold
        (with two, the draws: the tile drawn and the one left after a one-tile
        placement, the pair after others; :meth:`_fitting` sends only a
        position with one or two), each endgame on ``threads`` threads."""
        known = state.racks[1 - state.turn] is not None
        plays = [p for p in engine.plays(position.board, position.racks[0], bag_count=len(position.bag))
                 if p.move.kind is MoveKind.PLACE]
        if not plays:
            return "pass"
        chosen = self._chosen(plays, limits, state.board) if limits.searchmoves or limits.alsosearchmoves else None
        if chosen == []:
            return "none"
        result = solve_preendgame(
            position, engine, unseen=unseen, draws=position.bag.tiles() if known else None,
            moves=[p.move for p in chosen] if chosen else None, seconds=limits.seconds(None), stop=self._stop.is_set,
            threads=min(threads, MOST_THREADS),
        )
        alphabet = engine.alphabet
        for candidate in result.plays:
            groups: dict[str, list[str]] = {"w": [], "d": [], "l": []}
            for outcome in candidate.outcomes:
                kind = "w" if outcome.spread > 0 else "d" if outcome.spread == 0 else "l"
                groups[kind].append("".join(alphabet.label(t) if t else "?" for t in outcome.tiles))
            draws = " ".join(f"{kind}:{'|'.join(tiles)}" for kind, tiles in groups.items())
            self.say(f"info peg move {siu_move(state.board, candidate.play.move)} {draws} spread {round(candidate.spread):+d}")
        if result.samples:
            self.say(f"info string peg: each candidate over {result.samples} draws sampled, not every draw")
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


def input_lines(fd: int) -> Iterator[str]:
    """The lines of a file descriptor, read with ``os.read``: a thread
    waiting for input then holds none of the locks of ``sys.stdin``, which a
    process forked meanwhile (a simulation's workers) would wait on forever
    when it closes its copy of standard input."""
    pending = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            yield line.decode("utf-8", "replace")
    if pending:
        yield pending.decode("utf-8", "replace")


def run(stdin: TextIO | None = None, stdout: TextIO | None = None, on_exit: Callable[[], None] | None = None) -> int:
    """Read commands until ``quit`` or the end of input."""
    engine = SiuEngine(stdout or sys.stdout)
    for line in stdin if stdin is not None else input_lines(sys.stdin.fileno()):
        if not engine.handle(line.strip()):
            break
    else:
        engine.end_of_input()
    if on_exit is not None:
        on_exit()
    return 0


def main(_: object) -> int:
    """``tilebag siu``."""
    try:
        return run()
    except KeyboardInterrupt:
        return 130
