"""``tilebag siu`` against the published SIU conformance harness, and what
the harness does not check yet.

The harness (woogles-io/open-protocols, ``siu/conformance``) is third-party
and not vendored: set ``TILEBAG_SIU_HARNESS`` to its ``siu_conformance.py``
to run it, on the positions tilebag ships (``tilebag/data/siu/positions.json``,
in the harness's format, in tilebag's default lexicon). The other tests
always run, each against a real ``tilebag siu`` process, and cover what
the harness's README lists as not covered: ``info string ignored``,
``searchmoves`` (and ``alsosearchmoves``), ``useinference`` and every
error code of the spec (section 7: ``unknown-command``, ``bad-position``,
``bad-move``, ``unsupported-mode``, ``no-position``).
"""

from __future__ import annotations

import fnmatch
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tilebag.alphabet import BLANK_BIT
from tilebag.board import EMPTY, Board
from tilebag.formats import cgp
from tilebag.lexicon import default_lexicon
from tilebag.ui.siu_notation import MODES, parse_siu_move

POSITIONS = Path(str(resources.files("tilebag") / "data" / "siu" / "positions.json"))
ROOT = Path(__file__).resolve().parents[2]
HARNESS = os.environ.get("TILEBAG_SIU_HARNESS")
ENGINE = [sys.executable, "-m", "tilebag", "siu"]
ERROR_CODES = ("unknown-command", "bad-position", "bad-move", "unsupported-mode", "no-position")
"""The error codes of SIU draft 0.2, section 7, all of them."""
FIELDS = {"id": str, "cgp": str, "lexicon": str, "bag": int, "modes": list, "source": str}
"""What every position of a harness positions file has (``moves`` is optional)."""
EMPTY_BOARD = "/".join(["15"] * 15)


def positions() -> dict[str, dict[str, Any]]:
    data = json.loads(POSITIONS.read_text(encoding="utf-8"))
    return {p["id"]: p for p in data["positions"]}


def cgp_of(position_id: str) -> str:
    return str(positions()[position_id]["cgp"])


# -- the positions file ---------------------------------------------------------


def words_on(board: Board) -> list[str]:
    """Every word on the board: the runs of two tiles or more, across and down."""
    rows, cols = board.layout.rows, board.layout.cols
    lines = [[board.at(r, c) for c in range(cols)] for r in range(rows)]
    lines += [[board.at(r, c) for r in range(rows)] for c in range(cols)]
    words = []
    for line in lines:
        run: list[str] = []
        for tile in [*line, EMPTY]:
            if tile != EMPTY:
                run.append(board.alphabet.label(tile & ~BLANK_BIT))
                continue
            if len(run) > 1:
                words.append("".join(run))
            run = []
    return words


def test_the_shipped_positions_are_valid_for_tilebag_and_cover_every_mode() -> None:
    lexicon = default_lexicon()
    shipped = positions()
    assert len(shipped) == len(json.loads(POSITIONS.read_text())["positions"])  # the ids are distinct
    for pid, p in shipped.items():
        for name, kind in FIELDS.items():
            assert isinstance(p.get(name), kind), f"{pid}: {name}"
        assert p["lexicon"] == lexicon.name and p["source"] and set(p["modes"]) <= set(MODES), pid
        parsed = cgp.parse(p["cgp"])
        assert len(parsed.racks) == 2 and parsed.rules().rack_size == 7, pid
        words = words_on(parsed.board)
        assert all(word in lexicon for word in words), (pid, [w for w in words if w not in lexicon])
        # the harness's own tile count: what is unseen is the bag, and the rack tiles not shown while it holds some
        unknown = sum(7 - len(rack) for rack in parsed.racks) if p["bag"] else 0
        assert len(parsed.unseen_tiles()) == p["bag"] + unknown, pid
        board = parsed.board.copy()
        for text in p.get("moves", []):
            move = parse_siu_move(board, text).move
            assert move is not None, (pid, text)
            board.place(move)
            assert all(word in lexicon for word in words_on(board)), (pid, text)
    first = {mode: next(p for p in shipped.values() if mode in p["modes"]) for mode in MODES}  # as the harness picks
    assert first["peg"]["bag"] == 1 and first["endgame"]["bag"] == 0
    assert first["infer"]["moves"] and cgp.parse(first["infer"]["cgp"]).racks == [[], []]
    assert all(not cgp.parse(first[mode]["cgp"]).board.is_empty() for mode in ("peg", "endgame"))


def test_the_positions_file_is_installed_with_tilebag() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["tilebag"]
    assert any(fnmatch.fnmatch("data/siu/positions.json", pattern) for pattern in patterns)
    assert POSITIONS.is_file()


# -- the published harness --------------------------------------------------------


@pytest.mark.slow  # some fifteen seconds: each of the harness's checks starts an engine of its own
@pytest.mark.skipif(
    not HARNESS, reason="the SIU conformance harness is third-party and not vendored: set TILEBAG_SIU_HARNESS to "
    "the path of siu_conformance.py (woogles-io/open-protocols, siu/conformance) to run it")
def test_the_published_harness_passes_on_the_shipped_positions() -> None:
    assert HARNESS is not None
    harness = Path(HARNESS)
    assert harness.is_file(), f"TILEBAG_SIU_HARNESS={HARNESS}: no such file"
    done = subprocess.run([sys.executable, str(harness), "--movetime", "300", "--positions", str(POSITIONS), "--", *ENGINE],
                          capture_output=True, text=True, timeout=300, cwd=harness.parent)
    out = done.stdout.splitlines()
    summary = re.fullmatch(r"(\d+) passed, (\d+) failed, (\d+) skipped", out[-1] if out else "")
    assert summary is not None, done.stdout + done.stderr
    passed, failed, skipped = (int(n) for n in summary.groups())
    assert (failed, skipped) == (0, 0) and passed >= 17 and done.returncode == 0, done.stdout
    ids = {mode: next(p["id"] for p in positions().values() if mode in p["modes"]) for mode in MODES}
    for mode in MODES:  # every mode searched, on the position of ours the harness picks
        assert any(line.startswith(f"PASS  go {mode}  - ") and f"(position {ids[mode]})" in line for line in out), mode


# -- a real engine --------------------------------------------------------------


class Siu:
    """``tilebag siu`` over pipes, read by a thread so that no read blocks."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str, timeout: float = 20.0) -> list[str]:
        """Every line up to and including the first that starts with ``prefix``."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {prefix!r} within {timeout}s; got {seen}") from None
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def ask(self, *lines: str) -> list[str]:
        """What the engine answers to ``lines`` while idle: everything before
        the ``readyok`` of an ``isready`` sent after them."""
        self.send(*lines, "isready")
        return self.until("readyok")[:-1]

    def go(self, line: str, timeout: float = 20.0) -> list[str]:
        """What a ``go`` sends, up to its ``bestmove``; then nothing else comes."""
        self.send(line)
        out = self.until("bestmove", timeout)
        assert self.ask() == [], "more after the bestmove"
        return out


@pytest.fixture
def siu() -> Iterator[Siu]:
    engine = Siu()
    engine.send("siu")
    assert engine.until("siuok")[0].startswith("id name tilebag ")
    assert engine.ask() == []
    yield engine
    engine.send("quit")
    assert engine.process.wait(timeout=20) == 0


def moves_of(lines: list[str], kind: str) -> list[str]:
    """The moves of the ``info <kind> move`` lines, in order."""
    return [line.split()[3] for line in lines if line.startswith(f"info {kind} move ")]


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error ")]


# -- ignored ------------------------------------------------------------------------


def test_unknown_commands_words_and_options_are_answered_and_ignored(siu: Siu) -> None:
    """SIU section 1: unknown tokens are ignored and the rest of the line
    parsed; a command not expected (``stop`` while idle) is ignored. A line
    with no command at all is the ``unknown-command`` error, and the engine
    goes on."""
    assert siu.ask("frobnicate the bag") == ["info string error unknown-command frobnicate"]
    siu.send("joho   isready")  # the words before a command are skipped
    assert siu.until("readyok") == ["readyok"]
    assert siu.ask("stop") == []
    assert siu.ask("setoption name Frobnicate value 3") == ["info string no option named frobnicate: ignored"]
    siu.send(f"position cgp {EMPTY_BOARD} AEINRST/ 0/0 0")
    out = siu.go("go gen joho 7 movetime 200")  # unknown words in a go: skipped, not an error, nor ignored
    assert not any(line.startswith(("info string error", "info string ignored")) for line in out)
    assert out[0].startswith("info string provenance ") and out[-1] == f"bestmove {moves_of(out, 'gen')[0]}"


def test_parameters_a_mode_cannot_honour_are_answered_ignored_and_the_search_goes_on(siu: Siu) -> None:
    """SIU section 6: ``info string ignored <parameter>``, never silently,
    and the search continues: each once, in the order given, before the
    provenance; a value that cannot be used is ignored the same way."""
    siu.send(f"position cgp {EMPTY_BOARD} AEINRST/ 0/0 0")
    out = siu.go("go gen depth 2 iterations 8 firstwin stopcondition 95 depth 3 threads lots movetime 300")
    assert out[:5] == ["info string ignored depth", "info string ignored iterations", "info string ignored firstwin",
                       "info string ignored stopcondition", "info string ignored threads"]
    assert out[5].startswith("info string provenance ") and len(moves_of(out, "gen")) == 10
    assert out[-1] == f"bestmove {moves_of(out, 'gen')[0]}"
    siu.send(f"position cgp {cgp_of('endgame-empty-bag')}")
    out = siu.go("go endgame iterations 5 stopcondition 99 searchmoves pass movetime 2000")
    assert [line for line in out if line.startswith("info string ignored")] == [
        "info string ignored iterations", "info string ignored stopcondition", "info string ignored searchmoves"]
    assert any(line.startswith("info endgame depth ") for line in out) and out[-1] != "bestmove none"


# -- searchmoves ----------------------------------------------------------------------


def test_searchmoves_restricts_gen_to_the_moves_named_in_any_case(siu: Siu) -> None:
    siu.send(f"position cgp {EMPTY_BOARD} AEINRST/ 0/0 0")
    out = siu.go("go gen searchmoves h8.NASTIER 8d.RETSINA EX.TSRNIEA")  # lower case tiles would be blanks
    listed = moves_of(out, "gen")  # ranked (the two bingos score the same), written as tilebag writes them
    assert sorted(listed[:2]) == ["8D.RETSINA", "H8.NASTIER"] and listed[2:] == ["ex.AEINRST"]
    assert out[-1] == f"bestmove {listed[0]}" and not errors(out)
    out = siu.go("go gen alsosearchmoves ex.AEINRST")  # the engine's own ten, and the move named
    assert len(moves_of(out, "gen")) == 11 and moves_of(out, "gen")[-1] == "ex.AEINRST"


def test_searchmoves_restricts_a_sim_and_a_pre_endgame(siu: Siu) -> None:
    siu.send(f"position cgp {cgp_of('midgame-opponent-rack-unknown')}")
    ranked = moves_of(siu.go("go gen"), "gen")
    named = [ranked[4], ranked[7]]  # neither the static best
    out = siu.go(f"go sim iterations 16 threads 1 searchmoves {' '.join(named)}")
    assert set(moves_of(out, "sim")) == set(named) and not errors(out)
    assert out[-1] in {f"bestmove {move}" for move in named}
    siu.send(f"position cgp {cgp_of('peg-one-in-bag')}")  # both racks shown: the bag's one tile is known, a blank
    out = siu.go("go peg searchmoves D11.AREIC O4.SCARIER")  # of some sixty plays, two endgames to solve
    assert moves_of(out, "peg") == ["O4.SCARIER", "D11.AREIC"] and not errors(out)
    for line in (line for line in out if line.startswith("info peg move ")):
        assert line.split()[4:8] == ["w:", "d:", "l:?", "spread"]
    assert out[-1] == "bestmove O4.SCARIER"


def test_a_searchmove_that_is_not_a_play_is_a_bad_move(siu: Siu) -> None:
    """Each move named that is not a play of the position is the
    ``bad-move`` error naming it; the others are searched. With none left,
    there is nothing to search: ``bestmove none``."""
    siu.send(f"position cgp {EMPTY_BOARD} AEINRST/ 0/0 0")
    out = siu.go("go gen searchmoves 8D.ZZZ 8D.RETSINA 9A.RETAINS")
    assert errors(out) == ["info string error bad-move 8D.ZZZ: not a play of this position",
                           "info string error bad-move 9A.RETAINS: not a play of this position"]
    assert moves_of(out, "gen") == ["8D.RETSINA"] and out[-1] == "bestmove 8D.RETSINA"
    out = siu.go("go sim iterations 8 threads 1 searchmoves 8D.ZZZ")
    assert out[-2:] == ["info string error bad-move 8D.ZZZ: not a play of this position", "bestmove none"]
    assert not moves_of(out, "sim")


# -- useinference ---------------------------------------------------------------------


def test_useinference_deals_the_opponent_the_leaves_go_infer_found(siu: Siu) -> None:
    """After ``go infer`` on a position, ``go sim useinference`` deals the
    opponent the leaves found (and says so); the same sim without it draws
    whole racks from the unseen tiles. A sim of fixed iterations on one
    process is the same every time, so the difference is the inference's."""
    position = f"position cgp {positions()['infer-after-opening-play']['cgp']} moves 8E.YOUS rack.AEINRST"
    siu.send(position)
    out = siu.go("go infer iterations 3000")
    assert out[-1] == "bestmove none" and any(line.startswith("info infer leave ") for line in out)
    found = next(line for line in out if line.startswith("info string inferred from 3000 leaves drawn, "))
    leaves = int(found.split()[7])
    named = " ".join(moves_of(siu.go("go gen"), "gen")[:2])
    sim = f"go sim iterations 16 threads 1 searchmoves {named}"

    def simulated(extra: str) -> tuple[list[str], list[str]]:
        out = siu.go(f"{sim} {extra}")
        return [line for line in out if line.startswith("info sim move ")], out

    blind, out = simulated("")
    assert blind and not any("useinference" in line or "no go infer" in line for line in out)
    assert simulated("")[0] == blind
    informed, out = simulated("useinference")
    assert f"info string useinference: the opponent's racks are dealt from the {leaves} leaves the last go infer found" in out
    assert simulated("useinference")[0] == informed != blind
    assert "info string ignored useinference" in siu.go("go gen useinference")  # gen draws no racks
    siu.send(position)  # another position: the inference was the last one's
    informed, out = simulated("useinference")
    assert informed == blind
    assert any(line.startswith("info string no go infer for this position") for line in out)


# -- the error codes -----------------------------------------------------------------

ERRORS: dict[str, tuple[list[str], str]] = {
    "unknown-command": (["frobnicate"], "info string error unknown-command frobnicate"),
    "bad-position": ([f"position cgp {EMPTY_BOARD[3:]} AEINRST/ 0/0 0"], "info string error bad-position "),
    "bad-move": ([f"position cgp {EMPTY_BOARD} AEINRST/ 0/0 0 moves 8D.RETAINS 8D.QQ"],
                 "info string error bad-move 8D.QQ: "),
    "unsupported-mode": ([f"position cgp {EMPTY_BOARD} AEINRST/ 0/0 0 var wordsmog;", "go sim movetime 200"],
                         "info string error unsupported-mode sim: tilebag searches the classic variant, not wordsmog"),
    "no-position": (["go gen"], "info string error no-position send position cgp ... before go"),
}
"""For each code, what triggers it and the start of the line it is."""


def test_every_error_code_of_the_spec_is_tested() -> None:
    assert tuple(ERRORS) == ERROR_CODES


@pytest.mark.parametrize("code", ERROR_CODES)
def test_each_error_code(siu: Siu, code: str) -> None:
    """``info string error <code> <free text>``, the code exact; the engine
    goes on answering. A position refused leaves none set."""
    lines, expected = ERRORS[code]
    out = siu.ask(*lines)
    said = errors(out)
    assert len(said) == 1 and said[0].startswith(expected)
    assert said[0].split()[3] == code and len(said[0].split()) > 4  # a code, then some free text
    if code == "unsupported-mode":  # the go ends, with no search: one bestmove and no provenance
        assert out[-1] == "bestmove none" and not any("provenance" in line for line in out)
    else:
        assert not any(line.startswith("bestmove") for line in out)
    if code in ("bad-position", "bad-move", "no-position"):
        assert errors(siu.ask("go gen"))[0].split()[3] == "no-position"


def test_bad_position_and_bad_move_in_their_other_forms(siu: Siu) -> None:
    assert errors(siu.ask("position fen rnbqkbnr/8/8/8/8/8/8/8 w"))[0].split()[:4] == [
        "info", "string", "error", "bad-position"]
    siu.send(f"position cgp {EMPTY_BOARD} AEINRST/ 0/0 0 moves 8D.RETAINS")  # the rack of the player to move: unknown
    assert siu.go("go gen")[-2:] == ["info string error bad-position the rack of the player to move is not known",
                                      "bestmove none"]
    assert errors(siu.ask(f"position cgp {EMPTY_BOARD} AEINRST/ 0/0 0 moves rack.QI pass"))[0].startswith(
        "info string error bad-move rack.QI: ")
