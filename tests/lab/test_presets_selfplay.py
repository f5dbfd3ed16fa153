"""Every rules preset, played to the end by bots, written as GCG and
checked: the record replays to the same game with every figure agreeing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamestate import assert_tiles_accounted
from tilebag.formats import gcg, replay
from tilebag.lab.selfplay import SelfplayJob, run_selfplay
from tilebag.rules import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_self_plays_and_its_records_check_clean(preset: str, tmp_path: Path) -> None:
    summary = run_selfplay(["static", "greedy"], games=2, seed=40, rules=PRESETS[preset], out=tmp_path, progress=False)
    assert summary.games == 2 and len(summary.records) == 2
    job = SelfplayJob(("static", "greedy"), 40, PRESETS[preset])
    bots = job.load()
    for number, path in enumerate(summary.records):
        game, _ = job.play(bots, number)  # the same game again, from its seed
        assert game.is_over()
        assert_tiles_accounted(game)
        record = gcg.load(path)
        report = replay.check(record, source=path.name)
        assert report.errors == [], [finding.format(path.name) for finding in report.errors]
        assert report.game is not None
        assert report.game.scores == game.scores
        assert report.game.termination is game.termination
        assert bytes(report.game.board.tiles) == bytes(game.board.tiles)


@pytest.mark.slow
def test_selfplay_and_gcg_check_from_the_command_line(tmp_path: Path) -> None:
    def tilebag(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tilebag", *args], capture_output=True, text=True, timeout=300)

    made = tilebag("selfplay", "--games", "2", "--seed", "3", "--rules", "house", "--rack-size", "9", "--out", str(tmp_path))
    assert made.returncode == 0, made.stderr
    records = sorted(tmp_path.glob("*.gcg"))
    assert len(records) == 2
    text = records[0].read_text(encoding="utf-8")
    assert "#rack-size 9" in text and "#recycle" in text and "#anagram" in text
    checked = tilebag("gcg", "check", *map(str, records))
    assert checked.returncode == 0, checked.stdout + checked.stderr
