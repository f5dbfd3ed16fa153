"""Leave training: observations, the fitted model, the .klv written, and a
run that stops and goes on (tilebag.lab.leave_training)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tilebag.alphabet import load_alphabet
from tilebag.engine.equity.leaves import KlvLeaves
from tilebag.lab import leave_training
from tilebag.lab.leave_training import (
    LeaveStats,
    all_leaves,
    dumps_klv,
    fit_leaves,
    play_training_games,
    train_leaves,
)
from tilebag.rules import Rules

ENGLISH = load_alphabet("english")
SMALL = Rules(rack_size=4, bingo_tiles=4)
"""Racks of four: leaves of at most three tiles, so a whole table is quick to make."""


def test_every_leave_once_in_sorted_order_within_the_tile_counts() -> None:
    leaves = list(all_leaves(ENGLISH, 3))
    assert leaves == sorted(set(leaves))
    assert b"\x00\x00" in leaves and b"\x00\x00\x00" not in leaves  # two blanks, not three
    assert bytes([17, 17]) not in leaves  # one Q
    assert all(1 <= len(leave) <= 3 for leave in leaves)


def test_a_klv_round_trips_within_its_resolution() -> None:
    rng = random.Random(4)
    table = {leave: rng.uniform(-40, 40) for leave in all_leaves(ENGLISH, 2)}
    klv = KlvLeaves.from_bytes(dumps_klv(table))
    assert klv.version == 1 and len(klv) == len(table)
    assert all(abs(klv.value(leave) - value) <= 1 / 512 for leave, value in table.items())


def test_the_fit_recovers_a_planted_additive_model() -> None:
    """Observations made from known per-tile values, noise-free: the fitted
    table gives back those values, also for leaves never observed."""
    truth = {t: (t % 7) - 3.0 for t in range(ENGLISH.size)}
    stats = LeaveStats()
    rng = random.Random(9)
    observed = [leave for leave in all_leaves(ENGLISH, 3) if rng.random() < 0.3]
    for leave in observed:
        for _ in range(200):
            stats.add(leave, round(1000 * sum(truth[t] for t in leave)))
    model, table = fit_leaves(stats, ENGLISH, rack_size=4, ridge=0.01, passes=60)
    unseen = [leave for leave in all_leaves(ENGLISH, 3) if leave not in stats.counts]
    assert unseen
    for leave in unseen[:: max(1, len(unseen) // 200)] + observed[:200]:
        assert table[leave] == pytest.approx(sum(truth[t] for t in leave), abs=0.1)
    assert model.value(b"\x01") == pytest.approx(truth[1], abs=0.1)


def test_a_leave_seen_often_moves_towards_its_own_mean() -> None:
    stats = LeaveStats()
    for leave, points in ((b"\x01", 2), (b"\x02", 2)):
        for _ in range(500):
            stats.add(leave, points * 1000)
    for _ in range(5000):
        stats.add(b"\x01\x02", 20_000)  # AB is worth far more than A and B apart
    _, table = fit_leaves(stats, ENGLISH, rack_size=4)
    assert table[b"\x01\x02"] > 15


def test_training_games_are_reproducible_and_merge_in_any_order() -> None:
    one = play_training_games(range(1, 5), None, rules=SMALL)
    first, second = play_training_games(range(1, 3), None, rules=SMALL), play_training_games(range(3, 5), None, rules=SMALL)
    second.merge(first)
    assert one.games == second.games == 4
    assert one.counts == second.counts
    assert one.observations > 20


def test_stats_survive_a_file(tmp_path: Path) -> None:
    stats = play_training_games(range(1, 3), None, rules=SMALL)
    stats.add(b"", 12_345)
    stats.dump(tmp_path / "s.gz")
    back = LeaveStats.load(tmp_path / "s.gz")
    assert back.counts == stats.counts and back.games == stats.games


class _Stop(Exception):
    pass


def test_a_run_stopped_goes_on_to_the_same_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C after the first generation keeps it; the same call goes on
    and writes exactly the table an unstopped run writes."""
    monkeypatch.setattr(leave_training, "BATCH", 3)
    settings = {"games": 7, "generations": 2, "seed": 5, "workers": 1, "rules": SMALL}
    whole = train_leaves(tmp_path / "whole", output=tmp_path / "whole.klv", **settings)  # type: ignore[arg-type]
    assert whole.generations == 2 and not whole.stopped and whole.games == 14

    def stop_at_generation_two(text: str) -> None:
        if text.startswith("generation 2"):
            raise KeyboardInterrupt

    stopped = train_leaves(tmp_path / "run", log=stop_at_generation_two, **settings)  # type: ignore[arg-type]
    assert stopped.stopped and stopped.generations == 1
    resumed = train_leaves(tmp_path / "run", output=tmp_path / "resumed.klv", **settings)  # type: ignore[arg-type]
    assert resumed.generations == 2 and resumed.games == 7
    assert (tmp_path / "resumed.klv").read_bytes() == (tmp_path / "whole.klv").read_bytes()
    assert KlvLeaves.load(tmp_path / "resumed.klv", ENGLISH).version == 1


def test_a_stop_within_a_generation_keeps_the_batches_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leave_training, "BATCH", 2)
    real = leave_training.TrainingJob.run
    calls = []

    def stop_on_third(job: leave_training.TrainingJob, state: object, seeds: list[int]) -> LeaveStats:
        calls.append(seeds)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(job, state, seeds)

    monkeypatch.setattr(leave_training.TrainingJob, "run", stop_on_third)
    run = train_leaves(tmp_path / "run", games=8, generations=1, workers=1, rules=SMALL)
    assert run.stopped and run.generations == 0
    assert LeaveStats.load(tmp_path / "run" / "generation-1.stats.gz").games == 4
    monkeypatch.setattr(leave_training.TrainingJob, "run", real)
    run = train_leaves(tmp_path / "run", games=8, generations=1, workers=1, rules=SMALL, output=tmp_path / "t.klv")
    assert run.games == 4 and run.generations == 1 and (tmp_path / "t.klv").exists()


def test_two_workers_write_the_same_table_as_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leave_training, "BATCH", 2)
    for workers in (1, 2):
        train_leaves(tmp_path / f"w{workers}", games=6, generations=1, workers=workers, rules=SMALL,
                     output=tmp_path / f"w{workers}.klv")
    assert (tmp_path / "w1.klv").read_bytes() == (tmp_path / "w2.klv").read_bytes()


def test_a_folder_of_another_run_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leave_training, "BATCH", 2)
    train_leaves(tmp_path / "run", games=2, generations=1, workers=1, rules=SMALL)
    with pytest.raises(ValueError, match="other settings"):
        train_leaves(tmp_path / "run", games=4, generations=1, workers=1, rules=SMALL)


def test_a_lexicon_not_found_leaves_no_folder(tmp_path: Path) -> None:
    from tilebag.errors import FormatError

    with pytest.raises(FormatError, match="no lexicon named"):
        train_leaves(tmp_path / "run", games=2, generations=1, workers=1, lexicon=str(tmp_path / "missing.txt"))
    assert not (tmp_path / "run").exists()
