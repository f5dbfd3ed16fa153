"""``tilebag siu`` driven as a front end drives it: over pipes, with
``isready`` and ``stop`` while a search runs, one ``bestmove`` per
``go``, positions with moves, and the error codes."""

from __future__ import annotations

import io
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tilebag.ui.siu_notation import parse_go, parse_siu_move

pytestmark = pytest.mark.slow
"""Slow as a whole: every test runs ``tilebag siu`` and searches in it, some for set times."""

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
ENDGAME = "7I6Q/7N5OI/7W4XU1/7A3PITH/5CERVEZA1LI/7D2AW1OD/8O2K1V1/7EPIGYnES/8T5H/8ID3JO/4L2LOO2FAG/FOOTY2INN1RAN1/U3T2BEG1EME1/REDATE1RE2C1s1/L2MANTISSAS3 UENUREB/RAI 437/420 0"


class Engine:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tilebag", "siu"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str, timeout: float = 30.0) -> list[str]:
        """Every line up to and including the first that starts with ``prefix``."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            seen.append(line)
            if line.startswith(prefix):
                return seen


@pytest.fixture
def engine() -> Iterator[Engine]:
    running = Engine()
    running.send("siu")
    handshake = running.until("siuok")
    assert handshake[0].startswith("id name tilebag") and any(line.startswith("capability gen sim infer endgame") for line in handshake)
    yield running
    running.send("quit")
    running.process.wait(timeout=20)


def test_gen_lists_the_plays_and_ends_with_one_bestmove(engine: Engine) -> None:
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0")
    engine.send("isready")
    assert engine.until("readyok") == ["readyok"]
    engine.send("go gen")
    out = engine.until("bestmove")
    assert out[0].startswith("info string provenance engine=tilebag/") and "lexicon=kjxqz" in out[0]
    assert out[1].startswith("info gen move 8") and " score 66 " in out[1]
    assert out[-1].startswith("bestmove 8") and out[-1].split()[1] in out[1]


def test_isready_and_stop_are_answered_while_a_sim_runs(engine: Engine) -> None:
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0")
    engine.send("go sim infinite")
    time.sleep(1.0)
    engine.send("isready")
    assert engine.until("readyok", timeout=20)[-1] == "readyok"
    engine.send("stop")
    out = engine.until("bestmove", timeout=20)  # stopped at once; a generous bound, as the machine may be busy
    assert any(line.startswith("info sim move ") and " wp " in line and " wpse " in line for line in out)
    assert out[-1].startswith("bestmove ")
    engine.send("isready")
    assert engine.until("readyok") == ["readyok"]  # exactly one bestmove: nothing else came


def test_the_endgame_is_solved_exactly(engine: Engine) -> None:
    engine.send(f"position cgp {ENDGAME}")
    engine.send("go endgame")
    out = engine.until("bestmove")
    lines = [line for line in out if line.startswith("info endgame")]
    assert lines[-1].startswith("info endgame depth") and "score spread -2 pv G1.BEE C10.AROID" in lines[-1]
    assert out[-1] == "bestmove G1.BEE"


def test_go_auto_picks_the_endgame_once_the_bag_is_empty(engine: Engine) -> None:
    engine.send(f"position cgp {ENDGAME}")
    engine.send("go movetime 5000")
    assert engine.until("bestmove")[-1] == "bestmove G1.BEE"
    engine.send("go peg")  # no pre-endgame with the bag empty: the endgame, said so
    out = engine.until("bestmove")
    assert "info string peg needs one or two tiles in the bag, this one holds 0: endgame instead" in out
    assert out[-1] == "bestmove G1.BEE"


def test_positions_with_moves_and_the_error_codes(engine: Engine) -> None:
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0 moves 8D.RETAINS rack.QI")
    engine.send("go gen")
    out = engine.until("bestmove")
    assert out[-1] != "bestmove none" and any("info gen move" in line for line in out)
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0 moves 8D.QQQQ")
    assert "info string error bad-move" in engine.until("info string error")[-1]
    engine.send("go gen")  # forced mode: no search without a position, so no bestmove
    engine.send("isready")
    assert engine.until("readyok") == ["info string error no-position send position cgp ... before go", "readyok"]
    engine.send("position cgp nonsense")
    assert "bad-position" in engine.until("info string error")[-1]
    engine.send("frobnicate")
    assert engine.until("info string error")[-1] == "info string error unknown-command frobnicate"
    engine.send("joho isready")  # words before a command are skipped
    assert engine.until("readyok") == ["readyok"]
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0")
    engine.send("go peg iterations 16")  # not a pre-endgame: said, and searched as auto would
    said = engine.until("bestmove")
    assert "info string peg needs one or two tiles in the bag, this one holds 86: sim instead" in said
    assert said[-1].startswith("bestmove 8") and not any("error" in line for line in said)
    engine.send("go endgame iterations 16")
    said = engine.until("bestmove")
    assert "info string endgame needs an empty bag, this one holds 86: sim instead" in said
    assert said[-1].startswith("bestmove 8")
    engine.send("go infer")
    assert engine.until("bestmove")[-2:] == [
        "info string nothing to infer: the last of the moves is not the opponent's placement", "bestmove none"]
    engine.send("go gen firstwin")
    assert engine.until("bestmove")[0] == "info string ignored firstwin"


def test_a_lexicon_not_found_is_said_and_the_default_used(engine: Engine, tmp_path: object) -> None:
    engine.send(f"setoption name DataPath value {tmp_path}")
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0 lex CSW24;")
    engine.send("go gen")
    out = engine.until("bestmove")
    assert any(line == "info string lexicon CSW24 not found in DataPath: using kjxqz" for line in out)
    assert any("provenance" in line and "lexicon=kjxqz" in line for line in out)


def test_go_parameters() -> None:
    mode, limits = parse_go("sim depth 3 iterations 500 movetime 1000 stopcondition 95 alsosearchmoves 8D.QI".split())
    assert (limits.depth, limits.iterations, limits.movetime, limits.stopcondition) == (3, 500, 1000, 95)
    assert mode == "sim" and limits.alsosearchmoves == ["8D.QI"] and limits.seconds(None) == 1.0
    assert limits.ignored("sim") == [] and limits.ignored("gen") == ["depth", "iterations", "stopcondition"]
    assert limits.ignored("endgame") == ["iterations", "stopcondition", "alsosearchmoves"]
    assert round(limits.z(2.58), 2) == 1.96 and round(parse_go(["stopcondition", "99"])[1].z(0), 2) == 2.58
    assert parse_go("GO_AWAY peg threads x".split()) == ("peg", parse_go("peg threads x".split())[1])
    assert parse_go(["threads", "x"])[1].ignored("sim") == ["threads"]


def test_a_known_opponent_rack_stays_out_of_the_bag() -> None:
    from tilebag.formats import cgp
    from tilebag.lexicon import default_lexicon
    from tilebag.ui.siu import State

    parsed = cgp.parse(f"{EMPTY} AEINRST/QZXJ 0/0 0")
    position, unseen, opponent_size = State(parsed, default_lexicon()).position()
    assert opponent_size == 4 and len(unseen) == 100 - 7
    assert len(position.bag) == 100 - 7 - 4 and sorted(position.racks[1]) == sorted(parsed.racks[1])
    unknown = State(cgp.parse(f"{EMPTY} AEINRST/ 0/0 0"), default_lexicon()).position()
    assert unknown[2] == 7 and len(unknown[0].bag) == 100 - 14



def test_the_leaves_inferred_from_a_number_of_samples_do_not_depend_on_the_machines_speed() -> None:
    """``go infer iterations N`` searches in half-second stretches: however
    many stretches N samples took (a busy machine takes more), the same
    leaves are drawn, as by one search."""
    from tilebag.engine import Engine
    from tilebag.formats import cgp
    from tilebag.lexicon import default_lexicon
    from tilebag.ui.siu import State
    from tilebag.ui.siu_notation import parse_siu_move

    lexicon = default_lexicon()
    engine = Engine.for_lexicon(lexicon)
    found = []
    for every in (60.0, 0.0):  # one stretch; a stretch for each sample
        state = State(cgp.parse(f"{EMPTY} AEINRST/ 0/0 0"), lexicon)
        state.play(parse_siu_move(state.board, "8G.OX"))
        inferred = state.infer(engine, samples=120, seconds=600, stop=lambda: False, every=every)
        assert not isinstance(inferred, str) and inferred.tried == 120
        found.append(inferred.leaves)
    assert found[0] == found[1] and found[0]

def one_tile_in_the_bag() -> str:
    """A CGP with one tile in the bag, both racks shown: the end of a static
    self-play game (seed 8: four tiles against seven once the bag is empty)
    with one tile of the player to move's rack put back in the bag, so that
    the endgames after it are quick to solve."""
    from tilebag import Game
    from tilebag.engine.players import StaticPlayer
    from tilebag.formats import cgp

    static = StaticPlayer("static")
    game = Game(["a", "b"], seed=8)
    while len(game.bag) and not game.is_over():
        game.push(static.choose(game))
    me = game.turn
    assert not game.is_over() and len(game.rack(me)) >= 2
    return cgp.dumps(cgp.position_from(
        game.board, [game.rack(me)[1:], game.rack(1 - me)], [game.players[me].score, game.players[1 - me].score]))


def test_peg_solves_the_pre_endgame_and_auto_chooses_it(engine: Engine) -> None:
    position = one_tile_in_the_bag()
    engine.send(f"position cgp {position}")
    engine.send("go gen")
    top = [line.split()[3] for line in engine.until("bestmove") if line.startswith("info gen move")][:2]
    engine.send(f"go peg movetime 30000 searchmoves {' '.join(top)}")
    out = engine.until("bestmove", timeout=60)
    lines = [line for line in out if line.startswith("info peg move ")]
    assert sorted(line.split()[3] for line in lines) == sorted(top)
    for line in lines:  # the opponent's rack is shown: the bag's one tile wins, draws or loses
        words = line.split()
        assert [w[:2] for w in words[4:7]] == ["w:", "d:", "l:"] and words[7] == "spread"
        assert sum(len(w[2:]) for w in words[4:7]) == 1
    assert out[-1] == "bestmove " + lines[0].split()[3]
    engine.send("go movetime 500")
    out = engine.until("bestmove", timeout=60)
    assert not any(line.startswith("info sim") for line in out) and any(line.startswith("info nodes") for line in out)
    assert out[-1] != "bestmove none"


def test_an_infinite_search_waits_for_stop_and_a_movetime_is_searched_out(engine: Engine) -> None:
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0 moves 8D.RETAINS rack.QI")
    engine.send("go gen infinite")
    time.sleep(1.0)
    engine.send("isready")
    out = engine.until("readyok")
    assert not any(line.startswith("bestmove") for line in out) and any(line.startswith("info gen") for line in out)
    engine.send("stop")
    assert engine.until("bestmove")[-1].startswith("bestmove ")
    started = time.monotonic()
    engine.send("go sim movetime 1500 threads 2")  # a clear best play is no reason to stop early
    out = engine.until("bestmove")
    assert time.monotonic() - started >= 1.4  # searched out: however fast the machine, no sooner
    assert any(line.startswith("info sim move") for line in out)


def test_parameters_a_mode_cannot_honour_are_said(engine: Engine) -> None:
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0")
    engine.send("go gen depth 3 iterations 10 stopcondition 95 movetime soon useinference")
    out = engine.until("bestmove")
    ignored = [line.split()[-1] for line in out if line.startswith("info string ignored")]
    assert ignored == ["depth", "iterations", "stopcondition", "movetime", "useinference"]
    engine.send(f"position cgp {ENDGAME}")
    engine.send("go endgame searchmoves C10.AROID iterations 5")
    out = engine.until("bestmove")
    assert [line for line in out if line.startswith("info string ignored")] == [
        "info string ignored searchmoves", "info string ignored iterations"]


def test_moves_named_in_any_case_and_moves_that_are_not_plays(engine: Engine) -> None:
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0")
    engine.send("go gen searchmoves 8b.RETAINS ex.tsrniea")
    out = engine.until("bestmove")
    assert [line.split()[3] for line in out if line.startswith("info gen move")] == ["8B.RETAINS", "ex.AEINRST"]
    assert out[-1] == "bestmove 8B.RETAINS"
    engine.send("go gen searchmoves 8D.ZZZ")
    out = engine.until("bestmove")
    assert out[-2:] == ["info string error bad-move 8D.ZZZ: not a play of this position", "bestmove none"]
    engine.send("go gen alsosearchmoves 8H.NASTIER ex.AEINRST")
    listed = [line.split()[3] for line in engine.until("bestmove") if line.startswith("info gen move")]
    assert len(listed) == 12 and listed[-2:] == ["8H.NASTIER", "ex.AEINRST"]
    engine.send("go sim movetime 1500 stopcondition 95 alsosearchmoves ex.AEINRST")
    listed = [line.split()[3] for line in engine.until("bestmove") if line.startswith("info sim move")]
    assert "ex.AEINRST" in listed


def test_a_sim_ends_with_a_ranking_of_every_play_it_simulated(engine: Engine) -> None:
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0 moves 8D.RETAINS rack.QI")
    engine.send("go sim iterations 200 threads 1 stopcondition 95")  # QI scores far more: the rest drop early
    out = engine.until("bestmove")
    final: list[tuple[str, int]] = []
    for line in reversed(out[:-1]):  # the last report: from the end back to the provenance or an earlier report
        if not line.startswith("info sim move") or any(line.split()[3] == f[0] for f in final):
            break
        words = line.split()
        final.insert(0, (words[3], int(words[-1])))
    assert out[-1] == f"bestmove {final[0][0]}"
    assert len(final) == 10  # the candidates dropped on the way are ranked after the winner
    iterations = [iters for _, iters in final]
    assert iterations[0] == max(iterations) > min(iterations)  # the winner ran longest; some dropped early


def test_every_form_of_move_in_a_moves_list(engine: Engine) -> None:
    def scores_after(moves: str) -> str:
        engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0 moves {moves} rack.QI")
        engine.send("go gen")
        out = engine.until("bestmove")
        assert not any("error" in line for line in out), out
        return out[-1]

    assert scores_after("8D.RETAINS") == scores_after("8d.RETAINS.AEINRST.5.0")
    assert scores_after("ex.4 pass") == scores_after("ex.AEI pass")
    after_phony = scores_after("phony.8D.RETAINS pass")
    assert after_phony.startswith("bestmove 8")  # the board is still empty
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0 moves rack.QI 8D.RETAINS")
    assert "rack.<tiles> comes last" in engine.until("info string error")[-1]
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0 moves 8D.RETAINS.AEINRST.0.1")  # the opponent lost a turn
    engine.send("go gen")
    assert engine.until("bestmove")[-2:] == [
        "info string error bad-position the rack of the player to move is not known", "bestmove none"]


def test_options_in_any_case_and_values_that_cannot_be_used(engine: Engine, tmp_path: Path) -> None:
    (tmp_path / "Tiny.TXT").write_text("AA\nAB\nBA\n")
    engine.send(f"setoption\tname\tDataPath\tvalue\t{tmp_path}")
    engine.send("setoption name LEXICON VALUE tiny")
    engine.send("setoption name WinPctTable value nosuch")
    engine.send("setoption name EndgameHash value lots")
    assert engine.until("info string option")[-1] == "info string option endgamehash takes a whole number from 1 to 65536: keeping 64"
    engine.send(f"position cgp {EMPTY} AAB/ 0/0 0")
    engine.send("go gen")
    out = engine.until("bestmove")
    assert any(line.startswith("info string winpct nosuch not usable") for line in out)
    provenance = next(line for line in out if "provenance" in line)
    assert "lexicon=Tiny" in provenance and "winpct=tilebag-selfplay" in provenance
    assert out[-1] in ("bestmove 8G.AB", "bestmove 8G.BA", "bestmove H7.AB", "bestmove H7.BA", "bestmove 8H.AB")


def test_an_endgame_with_the_opponent_rack_left_unknown_is_worked_out(engine: Engine) -> None:
    board, _racks, rest = ENDGAME.split(" ", 2)
    engine.send(f"position cgp {board} UENUREB/ {rest}")  # the bag is empty: the opponent holds what is unseen
    engine.send("go")
    out = engine.until("bestmove")
    assert any(line.startswith("info endgame") for line in out) and out[-1] == "bestmove G1.BEE"


def test_the_end_of_input_stops_an_infinite_search() -> None:
    process = subprocess.Popen([sys.executable, "-m", "tilebag", "siu"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out, _ = process.communicate(f"position cgp {EMPTY} AEINRST/ 0/0 0\ngo sim infinite\n", timeout=60)
    assert process.returncode == 0 and out.count("bestmove ") == 1


def test_an_engine_killed_outright_leaves_no_sim_worker_behind() -> None:
    import os
    import signal

    process = subprocess.Popen([sys.executable, "-m", "tilebag", "siu"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"position cgp {EMPTY} AEINRST/ 0/0 0\ngo sim infinite threads 2\n")
    process.stdin.flush()
    assert process.stdout.readline().startswith("info string provenance")  # the workers are forked before the search
    children = [entry.name for entry in Path("/proc").iterdir() if entry.name.isdigit() and _parent_of(entry) == process.pid]
    assert len(children) == 2
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{child}") for child in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    for child in children:  # reaped by init once they exit; a zombie counts as gone
        status = Path(f"/proc/{child}/status")
        assert not status.exists() or "zombie" in status.read_text()


def _parent_of(proc: Path) -> int | None:
    """The parent's pid of a /proc entry (None once the process is gone)."""
    try:
        return int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def test_go_infer_reports_the_opponents_likely_leaves_and_a_sim_can_use_them(engine: Engine) -> None:
    """The opponent opened with OX for 18 points: a static player does that
    only keeping very good tiles, so the sim told to use the inference
    expects a stronger reply than one that draws its rack at random."""
    opened = f"position cgp {EMPTY} / 0/0 0 moves 8G.OX rack.AEINRST"
    engine.send(opened)
    engine.send("go infer iterations 1500")
    out = engine.until("bestmove")
    # The last report is the one the 1500 draws give, however many stretches (and so
    # streamed reports) they took: the same draws made here, in one stretch.
    from tilebag.formats import cgp
    from tilebag.ui.siu import INFER_LINES, SiuEngine, State

    lexicon, here = SiuEngine(io.StringIO()).lexicon_and_engine(None)
    state = State(cgp.parse(f"{EMPTY} / 0/0 0"), lexicon)
    state.play(parse_siu_move(state.board, "8G.OX"))
    state.racks[state.turn] = lexicon.alphabet.parse_rack("AEINRST")
    found = state.infer(here, samples=1500, seconds=600, stop=lambda: False, every=600)
    assert not isinstance(found, str)
    expected = [f"info infer leave {lexicon.alphabet.format_rack(leave)} prob {chance:.4f}"
                for leave, chance in found.chances()[:INFER_LINES]]
    reported = [line for line in out if line.startswith("info infer leave")]
    assert reported[-len(expected):] == expected
    leaves = [line.split() for line in expected]
    assert out[-1] == "bestmove none" and 3 <= len(leaves) <= 20
    chances = [float(words[5]) for words in leaves]
    assert all(len(words[3]) == 5 for words in leaves) and chances == sorted(chances, reverse=True)
    assert 0.5 < sum(chances) <= 1 + 0.00005 * len(chances)  # each shown to four places
    summary = next(line for line in out if line.startswith("info string inferred from"))
    assert summary.startswith("info string inferred from 1500 leaves drawn")

    def best_chance(useinference: str) -> float:
        engine.send(f"go sim iterations 64 threads 1 stopcondition 99 {useinference}")
        out = engine.until("bestmove", timeout=60)
        assert not any("no go infer" in line for line in out)
        sims = [line.split() for line in out if line.startswith("info sim move")]
        last = [words for words in sims if words[-1] == sims[-1][-1]]  # the final report: the same iterations
        return max(float(words[5]) for words in last)

    informed = best_chance("useinference")
    blind = best_chance("")
    assert informed < blind - 2  # percentage points of winning
    engine.send(opened)  # a new position: the inference was for the last one
    engine.send("go sim iterations 16 threads 1 useinference")
    out = engine.until("bestmove", timeout=60)
    assert any(line.startswith("info string no go infer for this position") for line in out)
    engine.send("go gen useinference")
    assert "info string ignored useinference" in engine.until("bestmove")


NO_POSITION = "info string error no-position send position cgp ... before go"


def test_go_before_any_position_reports_no_position_and_does_not_search(engine: Engine) -> None:
    """Forced mode, as the conformance harness checks it: a ``go`` with no
    position is the ``no-position`` error, and no search, so no ``bestmove``
    (nor a ``stop`` while idle, nor one after ``siunewgame``)."""
    engine.send("isready")
    assert engine.until("readyok") == ["readyok"]
    engine.send("go gen")
    engine.send("stop")
    engine.send("go")
    engine.send("isready")
    assert engine.until("readyok") == [NO_POSITION, NO_POSITION, "readyok"]
    engine.send(f"position cgp {EMPTY} AEINRST/ 0/0 0")
    engine.send("siunewgame")  # the next position comes from another game: none is set yet
    engine.send("go infer")
    engine.send("isready")
    assert engine.until("readyok") == [NO_POSITION, "readyok"]
    time.sleep(0.5)
    assert engine.lines.empty()


def test_go_infer_needs_the_opponents_play_not_the_rack_of_the_player_to_move(engine: Engine) -> None:
    """The harness's inference position: racks unknown, the opponent opens
    with ZA. The leaves are streamed as ``info infer`` lines while the
    search runs (the same leave reported again as the chances settle),
    after the provenance, and the ``go`` ends ``bestmove none``."""
    engine.send(f"position cgp {EMPTY} / 0/0 0 moves 8H.ZA")
    engine.send("go infer iterations 1000000 movetime 1600 depth 2 searchmoves 8D.QI")
    out = engine.until("bestmove", timeout=60)
    assert out[-1] == "bestmove none" and not any("error" in line for line in out), out
    assert out[:3] == ["info string ignored depth", "info string ignored searchmoves", out[2]]
    assert out[2].startswith("info string provenance ")
    leaves = [line.split() for line in out if line.startswith("info infer ")]
    assert leaves and all(words[2] == "leave" and words[4] == "prob" and 0 < float(words[5]) <= 1 for words in leaves)
    assert all(len(words[3]) == 5 for words in leaves)  # ZA from seven tiles leaves five
    assert len({words[3] for words in leaves}) < len(leaves)  # streamed: reported more than once
    assert out.index(next(line for line in out if line.startswith("info infer "))) > 2
    engine.send("go gen")  # a move of the player to move still needs their rack
    assert engine.until("bestmove")[-2:] == [
        "info string error bad-position the rack of the player to move is not known", "bestmove none"]
    engine.send("go infer infinite")  # inference goes on until stop, and ends with one bestmove
    time.sleep(1.2)
    engine.send("isready")
    assert not any(line.startswith("bestmove") for line in engine.until("readyok"))
    engine.send("stop")
    out = engine.until("bestmove")
    assert out[-1] == "bestmove none" and any(line.startswith("info infer leave") for line in out)
    engine.send("isready")
    assert engine.until("readyok") == ["readyok"]
